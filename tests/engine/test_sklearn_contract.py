"""The contract around the numbers, as scikit-learn's: its exceptions, the
inputs it accepts or refuses, its dtypes, no warning it does not give.

scikit-learn's own test files run against ours in tests/dropin; these pin the
points issue 16 found, each against scikit-learn itself.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import sparse
from sklearn.ensemble import GradientBoostingRegressor, RandomForestClassifier
from sklearn.inspection import partial_dependence as sk_partial_dependence
from sklearn.inspection import permutation_importance as sk_permutation_importance
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.utils._param_validation import InvalidParameterError
from sklearn.utils.estimator_checks import _NotAnArray

from inspectwidgets import (
    iter_partial_dependence,
    iter_permutation_importance,
    partial_dependence,
    permutation_importance,
)


@pytest.fixture(scope="module")
def correlated():
    """Two strongly correlated columns and a third; a linear model on them."""
    rng = np.random.default_rng(0)
    x0 = rng.normal(size=200)
    X = pd.DataFrame(
        {
            "f0": x0,
            "f1": x0 + rng.normal(scale=0.1, size=200),
            "f2": rng.normal(size=200),
        }
    )
    return LinearRegression().fit(X, x0), X


@pytest.mark.parametrize(
    "compute, kwargs",
    [
        (permutation_importance, dict(n_repeats=1.5)),
        (permutation_importance, dict(max_samples=0.0)),
        (permutation_importance, dict(n_jobs="two")),
        (partial_dependence, dict(kind="bad")),
        (partial_dependence, dict(method="fast")),
        (partial_dependence, dict(percentiles=[0.1, 0.9])),
    ],
)
def test_bad_parameters_raise_sklearns_error_with_its_message(
    correlated, compute, kwargs
):
    model, X = correlated
    ours_args, theirs = (
        ((model, X, X.f0), sk_permutation_importance)
        if compute is permutation_importance
        else ((model, X, ["f0"]), sk_partial_dependence)
    )
    with pytest.raises(InvalidParameterError) as expected:
        theirs(*ours_args, **kwargs)
    with pytest.raises(InvalidParameterError) as got:
        compute(*ours_args, **kwargs)
    assert str(got.value) == str(expected.value)
    # The streaming functions validate the same way, when called.
    streamed = {
        permutation_importance: iter_permutation_importance,
        partial_dependence: iter_partial_dependence,
    }[compute]
    with pytest.raises(InvalidParameterError, match="parameter of"):
        streamed(*ours_args, **kwargs)


def test_partial_dependence_warns_of_nothing_unless_asked(correlated):
    model, X = correlated
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        partial_dependence(model, X, ["f0"])
    with pytest.warns(UserWarning, match="'f0' is strongly correlated with 'f1'"):
        partial_dependence(model, X, ["f0"], correlation_threshold=0.8)


def test_custom_values_apply_to_features_as_given_only(correlated):
    model, X = correlated
    # Keyed by position while features are names: scikit-learn ignores it.
    for features, custom in [
        (["f0", "f2"], {2: [0.0, 1.0]}),
        ([0, 2], {"f2": [0.0, 1.0]}),
        (["f0"], {"nowhere": [1.0]}),
    ]:
        ours = partial_dependence(
            model, X, features, custom_values=custom, grid_resolution=5
        )
        theirs = sk_partial_dependence(
            model, X, features, custom_values=custom, grid_resolution=5
        )
        assert [len(v) for v in ours.grid_values] == [5] * len(features)
        for a, b in zip(ours.grid_values, theirs.grid_values, strict=True):
            assert_array_equal(a, b)
    applied = partial_dependence(model, X, ["f0", "f2"], custom_values={"f2": [0.0]})
    assert_array_equal(applied.grid_values[1], [0.0])


def test_a_tuple_of_names_is_one_unknown_label_as_in_sklearn(correlated):
    model, X = correlated
    message = r"Some column names are not columns of the dataframe: \{\('f0', 'f1'\)\}"
    with pytest.raises(ValueError, match=message):
        sk_partial_dependence(model, X, [("f0", "f1")])
    with pytest.raises(ValueError, match=message):
        partial_dependence(model, X, [("f0", "f1")])
    # A pair of indices spelled so is a pair, for both.
    ours = partial_dependence(model, X, [(0, 1)], grid_resolution=3)
    theirs = sk_partial_dependence(model, X, [(0, 1)], grid_resolution=3)
    assert ours.average.shape == theirs.average.shape == (1, 3, 3)


def test_targets_only_array_like_through_dunder_array():
    # Like scikit-learn's own test: NumPy's __array_function__ is never called.
    X = _NotAnArray([[1, 1], [1, 2], [1, 3], [1, 4], [2, 1], [2, 2], [2, 3], [2, 4]])
    y = _NotAnArray([1, 1, 1, 2, 2, 2, 1, 1])
    model = LogisticRegression(random_state=0).fit(X, y)
    ours = permutation_importance(model, X, y, n_repeats=2, random_state=0)
    theirs = sk_permutation_importance(model, X, y, n_repeats=2, random_state=0)
    assert_array_equal(ours.importances, theirs.importances)


def test_an_integer_scorer_gives_integer_importances(correlated):
    model, X = correlated

    def n_above(estimator, X, y):
        return int((estimator.predict(X) > y).sum())

    kwargs = dict(scoring=n_above, n_repeats=3, random_state=0)
    ours = permutation_importance(model, X, X.f0, **kwargs)
    theirs = sk_permutation_importance(model, X, X.f0, **kwargs)
    assert ours.importances.dtype == theirs.importances.dtype == np.int64
    assert_array_equal(ours.importances, theirs.importances)
    assert ours.importances_mean.dtype == np.float64
    floats = permutation_importance(model, X, X.f0, n_repeats=2, random_state=0)
    assert floats.importances.dtype == np.float64


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize(
    "estimator",
    [
        LinearRegression(),
        GradientBoostingRegressor(n_estimators=5, random_state=0),
        RandomForestClassifier(n_estimators=5, random_state=0),
        LogisticRegression(),
    ],
    ids=lambda e: type(e).__name__,
)
def test_sparse_X(estimator, fmt):
    # scikit-learn accepts sparse X but builds its grid from the sparse
    # column itself (one object, not its values); ours gives what it gives
    # for the same X dense.
    rng = np.random.RandomState(0)
    X = rng.rand(60, 3)
    X[X < 0.4] = 0
    y = X[:, 0] + X[:, 1] ** 2
    if hasattr(estimator, "predict_proba"):
        y = (y > y.mean()).astype(int)
    X_sparse = sparse.csr_matrix(X) if fmt == "csr" else sparse.csc_matrix(X)
    before = X_sparse.copy()
    model = estimator.fit(X_sparse, y)
    for features, kwargs in [([0], dict(kind="both")), ([0, 2], {})]:
        ours = partial_dependence(
            model, X_sparse, features, grid_resolution=5, **kwargs
        )
        theirs = sk_partial_dependence(model, X, features, grid_resolution=5, **kwargs)
        for key in theirs:
            if key != "grid_values":
                assert_allclose(ours[key], theirs[key], rtol=1e-12, atol=1e-12)
        for a, b in zip(ours.grid_values, theirs.grid_values, strict=True):
            assert_array_equal(a, b)
    assert X_sparse.format == fmt and abs(X_sparse - before).nnz == 0
