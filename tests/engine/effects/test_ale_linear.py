"""ALE through the linear shortcut: the same estimate as predicting the
copies, to BLAS rounding."""

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import RandomForestRegressor
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression, PoissonRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from inspectwidgets import accumulated_local_effects

from numerics import assert_blas_close


def messy_frame(n=400, seed=0):
    """NaN, a nullable float, an integer, strings."""
    rng = np.random.default_rng(seed)
    age = rng.normal(40, 10, n)
    age[::9] = np.nan
    frame = pd.DataFrame(
        {
            "age": age,
            "income": pd.array(rng.normal(3, 1, n), dtype="Float64"),
            "children": rng.integers(0, 4, n),
            "city": rng.choice(["paris", "lyon", "nice"], n),
        }
    )
    score = np.nan_to_num((age - 40) / 10) + (frame.city == "paris") - frame.income
    return frame, score.to_numpy(dtype=float) + rng.normal(0, 1, n)


def pipeline(model):
    return make_pipeline(
        ColumnTransformer(
            [
                (
                    "num",
                    make_pipeline(SimpleImputer(), StandardScaler()),
                    ["age", "income", "children"],
                ),  # fmt: skip
                ("cat", OneHotEncoder(), ["city"]),
            ]
        ),
        model,
    )


@pytest.mark.parametrize("kind", ["logistic", "poisson"])
@pytest.mark.parametrize("features", [["children"], ["city"], ["children", "income"]])
def test_linear_equals_generic(kind, features):
    X, score = messy_frame()
    if kind == "logistic":
        model = pipeline(LogisticRegression()).fit(X, score > 0)
    else:
        model = pipeline(PoissonRegressor()).fit(X, np.exp(score / 3))
    categorical = ["city"] if "city" in features else None
    results = {
        algorithm: accumulated_local_effects(
            model,
            X,
            features,
            categorical_features=categorical,
            algorithm=algorithm,
        )  # fmt: skip
        for algorithm in ("linear", "generic")
    }
    for field in ("uncentered", "centered", "local_effects"):
        assert_blas_close(
            getattr(results["linear"], field), getattr(results["generic"], field)
        )


def test_linear_refused_for_a_model_it_does_not_reproduce():
    X, score = messy_frame(100)
    model = pipeline(LogisticRegression()).fit(X, score > 0)
    with pytest.raises(ValueError, match="algorithm must be one of"):
        accumulated_local_effects(model, X, ["age"], algorithm="lineal")
    forest = RandomForestRegressor(n_estimators=3, random_state=0)
    forest = make_pipeline(StandardScaler(), forest).fit(X[["income"]], score)
    with pytest.raises(ValueError, match="algorithm='linear'.*RandomForest"):
        accumulated_local_effects(forest, X[["income"]], ["income"], algorithm="linear")
