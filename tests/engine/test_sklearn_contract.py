"""The contract around the numbers, as scikit-learn's: its exceptions, the
inputs it accepts or refuses, its dtypes, no warning it does not give.

scikit-learn's own test files run against ours in tests/dropin; these pin the
points issue 16 found, each against scikit-learn itself.
"""

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import sparse
from sklearn.base import clone
from sklearn.ensemble import GradientBoostingRegressor, RandomForestClassifier
from sklearn.inspection import permutation_importance as sk_permutation_importance
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.svm import LinearSVC
from sklearn.utils._param_validation import InvalidParameterError
from sklearn.utils.estimator_checks import _NotAnArray

from inspectwidgets import (
    iter_partial_dependence,
    iter_permutation_importance,
    partial_dependence,
    permutation_importance,
)
from inspectwidgets.inspection._core.compat import (
    PD_EMPTY_CATEGORICAL_NAMED,
    PD_INTEGER_FEATURE,
    SKLEARN_MINOR,
)

from sklearn_reference import sklearn_partial_dependence as sk_partial_dependence


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
    with pytest.raises(ValueError) as theirs:
        sk_partial_dependence(model, X, [("f0", "f1")])
    # The installed version's message (1.9 names the label; 1.6 to 1.8 do
    # not), then ours naming it.
    with pytest.raises(ValueError, match="^" + re.escape(str(theirs.value))) as ours:
        partial_dependence(model, X, [("f0", "f1")])
    assert "{('f0', 'f1')} (features[0])" in str(ours.value)
    # A pair of indices spelled so is a pair, for both.
    ours = partial_dependence(model, X, [(0, 1)], grid_resolution=3)
    theirs = sk_partial_dependence(model, X, [(0, 1)], grid_resolution=3)
    assert ours.average.shape == theirs.average.shape == (1, 3, 3)


@pytest.mark.parametrize("categorical_features", [[], np.array([], dtype=int)])
def test_empty_categorical_features_as_the_installed_sklearn(
    correlated, categorical_features
):
    # 1.7 refuses an empty list by name; 1.6 refuses `[]` by its dtype
    # (float64) and reads an empty integer array as no categorical feature.
    model, X = correlated
    kwargs = dict(categorical_features=categorical_features, grid_resolution=5)
    try:
        theirs = sk_partial_dependence(model, X, ["f0"], **kwargs)
    except ValueError as exc:
        with pytest.raises(ValueError, match="^" + re.escape(str(exc))):
            partial_dependence(model, X, ["f0"], **kwargs)
        return
    assert not PD_EMPTY_CATEGORICAL_NAMED
    ours = partial_dependence(model, X, ["f0"], **kwargs)
    assert_array_equal(ours.grid_values[0], theirs.grid_values[0])
    assert_allclose(ours.average, theirs.average, rtol=1e-12)


@pytest.mark.parametrize("n_rows", [2, 30])
def test_binary_decision_function_on_two_grid_values(n_rows):
    # scikit-learn fails here ("cannot reshape array"), taking a binary
    # classifier's 2 grid values (1.6; 1.7 fixed it) or 2 rows (up to 1.9, ICE)
    # for its 2 classes; we give the values on every version.
    rng = np.random.default_rng(0)
    X = np.c_[rng.normal(size=30), np.arange(30) % 2].astype(float)
    model = LinearSVC(random_state=0).fit(X, X[:, 0] > 0)
    X = X[:n_rows]
    ours = partial_dependence(model, X, [1], kind="both")
    assert_array_equal(ours.grid_values[0], [0.0, 1.0])
    copies = [np.c_[X[:, :1], np.full(n_rows, value)] for value in (0.0, 1.0)]
    individual = np.column_stack([model.decision_function(c) for c in copies])
    assert_allclose(ours.individual, individual[None], rtol=1e-12)
    assert_allclose(ours.average, individual.mean(axis=0)[None], rtol=1e-12)
    if SKLEARN_MINOR >= (1, 7) and n_rows > 2:
        theirs = sk_partial_dependence(model, X, [1], kind="both")
        assert_allclose(ours.individual, theirs.individual, rtol=1e-12)
        assert_allclose(ours.average, theirs.average, rtol=1e-12)


def _outcome(compute, *args, **kwargs):
    """(error, the FutureWarnings' first sentences, result) of a call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = compute(*args, **kwargs)
        except ValueError as exc:
            return exc, [], None
    future = [
        str(w.message).split(". ")[0] for w in caught if w.category is FutureWarning
    ]
    return None, future, result


def _integer_data():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {
            "a": rng.normal(size=120),
            "n": rng.integers(0, 60, 120),  # more values than the grid's 7
            "m": rng.integers(0, 3, 120),
        }
    )
    y = frame["a"] + frame["n"] / 20 + rng.normal(scale=0.1, size=120)
    array = frame[["n", "m"]].to_numpy()  # integers: the grid truncated in it
    return frame, array, y


@pytest.mark.parametrize(
    "model",
    [LinearRegression(), GradientBoostingRegressor(n_estimators=5, random_state=0)],
    ids=["linear", "trees"],
)
@pytest.mark.parametrize(
    "data, features, kwargs",
    [
        ("frame", ["n"], {}),
        ("frame", ["a", "n"], {}),
        ("frame", ["n"], dict(categorical_features=["n"])),
        ("frame", ["m", "n"], dict(kind="both", method="brute")),
        ("array", [0], dict(kind="both")),
        ("array", [0, 1], {}),
    ],
)
def test_integer_features_as_the_installed_sklearn_treats_them(
    model, data, features, kwargs
):
    # 1.9 refuses a numeric feature holding integers; 1.7 and 1.8 warn of the
    # first and compute (the grid truncated in an integer array); 1.6 computes.
    frame, array, y = _integer_data()
    X = frame if data == "frame" else array
    model = clone(model).fit(X, y)
    kwargs = dict(grid_resolution=7, **kwargs)
    their_error, their_warnings, theirs = _outcome(
        sk_partial_dependence, model, X, features, **kwargs
    )
    our_error, our_warnings, ours = _outcome(
        partial_dependence, model, X, features, **kwargs
    )
    categorical = "categorical_features" in kwargs
    if their_error is not None:
        assert PD_INTEGER_FEATURE == "raise" and not categorical
        assert our_error is not None
        assert str(our_error).startswith(str(their_error).split(". ")[0] + ". ")
        return
    assert our_error is None, our_error
    assert our_warnings == their_warnings
    if PD_INTEGER_FEATURE == "warn" and not categorical:
        assert their_warnings and "contains integer data" in their_warnings[0]
    else:
        assert PD_INTEGER_FEATURE != "raise" or categorical
        assert their_warnings == []
    for a, b in zip(ours.grid_values, theirs.grid_values, strict=True):
        assert_array_equal(a, b)
    for key in ("average", "individual"):
        if key in theirs:
            assert_allclose(ours[key], theirs[key], rtol=1e-12, atol=1e-12)


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
