"""Fitted models and data shared by the engine tests (small, so tests stay fast)."""

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.datasets import load_diabetes, make_classification, make_regression
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from threadpoolctl import threadpool_limits


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


# --- partial dependence ---


@pytest.fixture
def quiet_single_threaded():
    """No correlation warnings (they have their own tests; here they would
    only add noise) and one OpenMP thread: HistGradientBoosting's threads
    crawl on a busy 2-core machine, and both libraries get the same setting."""
    with warnings.catch_warnings(), threadpool_limits(limits=1):
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.fixture(scope="session")
def regression_data():
    return make_regression(n_samples=150, n_features=4, noise=5, random_state=0)


@pytest.fixture(scope="session")
def three_class_data():
    return make_classification(
        n_samples=150,
        n_features=4,
        n_informative=3,
        n_redundant=0,
        n_classes=3,
        random_state=0,
    )
