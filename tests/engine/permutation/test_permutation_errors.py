"""Bad input: a clear error naming the argument before predicting; data untouched."""

import hashlib
import pickle

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.svm import SVC

from inspectwidgets import (
    cross_val_permutation_importance,
    iter_permutation_importance,
    permutation_importance,
)


class NoPredictionAllowed(RegressorMixin, BaseEstimator):
    """A fitted regressor that fails the test if it is ever asked to predict."""

    def fit(self, X, y):
        self.coef_ = np.zeros(np.shape(X)[1])
        return self

    def predict(self, X):
        pytest.fail("validation must happen before any prediction")


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(50, 3))
    y = X[:, 0] + rng.normal(scale=0.1, size=50)
    return X, y


@pytest.fixture
def guarded(data):
    return NoPredictionAllowed().fit(*data)


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(features=["nope"]), ValueError, "unknown feature 'nope'"),
        (dict(features=[5]), ValueError, "column index 5 is out of range"),
        (dict(features=[]), ValueError, "features is empty"),
        (dict(features={"g": [0, 1, 0]}), ValueError, "more than once"),
        (
            dict(n_repeats=0),
            ValueError,
            "The 'n_repeats' parameter of permutation_importance must be an int "
            "in the range [1, inf). Got 0 instead.",
        ),
        (
            dict(n_repeats=2.5),
            TypeError,
            "The 'n_repeats' parameter of permutation_importance must be an int "
            "in the range [1, inf). Got 2.5 instead.",
        ),
        (
            dict(scoring="r3"),
            ValueError,
            # The set of scorer names between them is long.
            "The 'scoring' parameter of permutation_importance must be a str among {",
        ),
        (
            dict(scoring=["r3"]),
            ValueError,
            "'r3' is not a known scorer name. Did you mean 'r2'",
        ),
        (
            dict(scoring=["r2", "neg_mean_sqared_error"]),
            ValueError,
            "neg_mean_squared_error",
        ),
        (
            dict(scoring="roc_auc"),
            ValueError,
            "'roc_auc' needs the estimator's decision_function or predict_proba",
        ),
        (
            dict(scoring="accuracy"),
            ValueError,
            "classification metric but NoPredictionAllowed is a regressor",
        ),
        (dict(max_samples=0), ValueError, "max_samples"),
        (dict(max_samples=1.5), ValueError, "max_samples"),
        (
            dict(sample_weight=np.ones(3)),
            ValueError,
            "sample_weight.shape == (3,), expected (50,)! Pass one weight per row",
        ),
        (dict(max_memory=0), ValueError, "max_memory"),
        (dict(max_memory="1GB"), ValueError, "max_memory must be a positive number"),
        (dict(cancel=True), TypeError, "cancel must be an object with an is_set()"),
    ],
)
def test_bad_arguments_are_named_before_any_prediction(
    guarded, data, kwargs, error, message
):
    X, y = data
    with pytest.raises(error, match=_literal(message)):
        permutation_importance(guarded, X, y, **kwargs)
    # The streaming API validates when called, not when first iterated.
    with pytest.raises(error, match=_literal(message)):
        iter_permutation_importance(guarded, X, y, **kwargs)


def _literal(message):
    import re

    return re.escape(message)


def test_unfitted_estimator(data):
    with pytest.raises(NotFittedError, match="estimator: Ridge is not fitted yet"):
        permutation_importance(Ridge(), *data)


def test_length_mismatch(guarded, data):
    X, y = data
    with pytest.raises(ValueError, match="X has 50 rows but y has 49"):
        permutation_importance(guarded, X, y[:-1])


def test_y_with_nan(guarded, data):
    X, y = data
    y = y.copy()
    y[[3, 7]] = np.nan
    with pytest.raises(ValueError, match="y contains 2 NaN"):
        permutation_importance(guarded, X, y)


def test_log_loss_without_predict_proba(data):
    X, y = data
    labels = (y > 0).astype(int)
    model = SVC().fit(X, labels)
    with pytest.raises(
        ValueError, match="'neg_log_loss' needs the estimator's predict_proba"
    ):
        permutation_importance(model, X, labels, scoring="neg_log_loss")


def test_unknown_feature_name_lists_the_columns(mixed_pipeline):
    pipe, X, y = mixed_pipeline
    with pytest.raises(
        ValueError, match=r"unknown feature 'citty'\. X's columns are \['city'"
    ):
        permutation_importance(pipe, X, y, features=["citty"])


def _digest(obj):
    return hashlib.sha256(pickle.dumps(obj)).hexdigest()


def test_inputs_are_never_modified(mixed_pipeline):
    pipe, X, y = mixed_pipeline
    weight = np.linspace(0.5, 1.5, len(y))
    before = [_digest(X), _digest(y), _digest(weight)]
    permutation_importance(
        pipe,
        X,
        y,
        n_repeats=2,
        random_state=0,
        sample_weight=weight,
        max_samples=0.5,
        features={"pair": ["city", "age"], "plan": "plan"},
    )
    cross_val_permutation_importance(pipe, X, y, cv=2, n_repeats=1, random_state=0)
    assert [_digest(X), _digest(y), _digest(weight)] == before


def test_numpy_inputs_are_never_modified(data):
    X, y = data
    X.setflags(write=False)  # any in-place write would raise
    y.setflags(write=False)
    model = LinearRegression().fit(X, y)
    result = permutation_importance(model, X, y, n_repeats=2, random_state=0, n_jobs=2)
    assert result.importances.shape == (3, 2)
