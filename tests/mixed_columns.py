"""A frame of every column kind users bring (float NaN, nullable Int64 /
Float64 / boolean, a pandas category) and a target depending on two of
them: the messy data of the several-model inspector's tests."""

import numpy as np
import pandas as pd


def mixed_columns(n, seed=1):
    """`(X, y, rng)`: `n` rows, y = x (0 where missing) + 2 on the "pro"
    plan; `rng` the generator that drew them, to draw more from."""
    rng = np.random.RandomState(seed)
    X = pd.DataFrame(
        {
            "x": np.where(rng.rand(n) < 0.1, np.nan, rng.normal(size=n)),
            "k": pd.array(rng.randint(0, 4, n), dtype="Int64"),
            "f": pd.array(rng.normal(size=n), dtype="Float64"),
            "b": pd.array(rng.rand(n) < 0.5, dtype="boolean"),
            "plan": pd.Categorical(rng.choice(["basic", "pro", "team"], n)),
        }
    )
    y = np.nan_to_num(X["x"].to_numpy(float)) + (X["plan"] == "pro") * 2.0
    return X, y, rng


def mixed_regressors(X, y):
    """A forest, a gradient boosting and a ridge regression fitted on a
    `mixed_columns` frame, each reading its columns as it can: the forest
    the plan as ordinal codes and NaN as is, the boosting the category
    natively, the ridge the plan one-hot and NaN imputed."""
    from sklearn.compose import make_column_transformer
    from sklearn.ensemble import HistGradientBoostingRegressor, RandomForestRegressor
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import Ridge
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, OrdinalEncoder

    forest = make_pipeline(
        make_column_transformer((OrdinalEncoder(), ["plan"]), remainder="passthrough"),
        RandomForestRegressor(20, random_state=0),
    )
    boosting = HistGradientBoostingRegressor(
        max_iter=30, categorical_features="from_dtype", random_state=0
    )
    ridge = make_pipeline(
        make_column_transformer((OneHotEncoder(), ["plan"]), remainder=SimpleImputer()),
        Ridge(),
    )
    models = {"forest": forest, "boosting": boosting, "ridge": ridge}
    return {name: model.fit(X, y) for name, model in models.items()}
