"""Data shared by the benchmark scripts, generated from fixed seeds."""

import numpy as np
import pandas as pd


def make_customers(n_rows, random_state, noise_columns=False):
    """A frame of customers and a binary target.

    String columns region (5 values) and plan (12), numeric age, income and
    tenure; the target depends on region, plan, income and tenure. With
    `noise_columns`, also store (a string column, 30 values) and visits,
    which the target ignores, so their importances should be about zero.
    The values are drawn in column order, so the frame without noise columns
    is not the one with them minus those columns.
    """
    rng = np.random.default_rng(random_state)
    region = rng.integers(5, size=n_rows)
    plan = rng.integers(12, size=n_rows)
    columns = {"region": labels("region", region), "plan": labels("plan", plan)}
    if noise_columns:
        columns["store"] = labels("store", rng.integers(30, size=n_rows))
    columns["age"] = rng.normal(45, 12, n_rows)
    columns["income"] = rng.lognormal(10.5, 0.5, n_rows)
    columns["tenure"] = rng.exponential(5, n_rows)
    if noise_columns:
        columns["visits"] = rng.poisson(3, n_rows).astype(float)
    X = pd.DataFrame(columns)
    logit = (
        np.linspace(-1, 1, 5)[region]
        + np.linspace(-1.5, 1.5, 12)[plan]
        + (np.log(X["income"]) - 10.5) * 2
        - (X["tenure"] - 5) * 0.2
    )
    return X, (rng.random(n_rows) < 1 / (1 + np.exp(-logit))).astype(int)


def labels(prefix, codes):
    """Strings such as "plan 3" for integer codes."""
    return [f"{prefix} {code}" for code in codes]


def frame_models():
    """Two models of a frame of numeric columns x0-x7 and a category `city`:
    histogram boosting on it as is, and a ridge behind scaling and one-hot
    encoding (unfitted)."""
    from sklearn.compose import make_column_transformer
    from sklearn.ensemble import HistGradientBoostingRegressor
    from sklearn.linear_model import Ridge
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    numeric = [f"x{i}" for i in range(8)]
    ridge = make_pipeline(
        make_column_transformer(
            (StandardScaler(), numeric), (OneHotEncoder(), ["city"])
        ),
        Ridge(),
    )
    hgb = HistGradientBoostingRegressor(
        max_iter=100, categorical_features="from_dtype", random_state=0
    )
    return {"HistGradientBoosting": hgb, "Ridge pipeline": ridge}
