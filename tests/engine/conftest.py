"""Fitted models and data shared by the engine tests (small, so tests stay fast)."""

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.datasets import load_diabetes, make_classification
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler


@pytest.fixture(scope="session")
def diabetes():
    """The user guide's example: Ridge on diabetes, importances on validation."""
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    X_train, X_val, y_train, y_val = train_test_split(X, y, random_state=0)
    model = Ridge(alpha=1e-2).fit(X_train, y_train)
    return model, X_val, y_val


@pytest.fixture(scope="session")
def binary():
    X, y = make_classification(
        n_samples=400, n_features=6, n_informative=3, n_redundant=1, random_state=0
    )
    return X, y


def make_mixed_frame(n, seed=0):
    """A DataFrame with string, categorical and numeric columns and a binary target."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        {
            "city": rng.choice(["paris", "lyon", "nice", "lille"], n),
            "plan": pd.Categorical(rng.choice(["free", "pro", "team"], n)),
            "age": rng.normal(40, 10, n),
            "visits": rng.poisson(3, n).astype(float),
        }
    )
    logit = (
        (frame.city == "paris") * 1.5 + (frame.age - 40) / 10 - (frame.plan == "free")
    )
    target = (logit + rng.normal(0, 1, n) > 0.3).astype(int)
    return frame, target.to_numpy()


@pytest.fixture(scope="session")
def mixed_pipeline():
    X, y = make_mixed_frame(500)
    pipe = make_pipeline(
        ColumnTransformer(
            [
                ("cat", OneHotEncoder(handle_unknown="ignore"), ["city", "plan"]),
                ("num", StandardScaler(), ["age", "visits"]),
            ]
        ),
        LogisticRegression(),
    ).fit(X, y)
    return pipe, X, y


@pytest.fixture(scope="session")
def mixed_frame():
    """The factory `make_mixed_frame(n, seed)`, for tests that need fresh data."""
    return make_mixed_frame
