"""Partial dependence through the tree shortcut: scikit-learn's brute-force
numbers, bit for bit, without predicting copies of X."""

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.base import clone
from sklearn.datasets import make_classification, make_regression
from sklearn.ensemble import (
    ExtraTreesRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.inspection import partial_dependence as sklearn_partial_dependence
from sklearn.linear_model import Ridge
from sklearn.tree import DecisionTreeClassifier

from inspectwidgets import partial_dependence

pytestmark = pytest.mark.usefixtures("quiet_single_threaded")


def assert_as_sklearn(model, X, features, **kwargs):
    expected = sklearn_partial_dependence(model, X, features, method="brute", **kwargs)
    for algorithm in ("tree", "generic", "auto"):
        got = partial_dependence(
            model, X, features, method="brute", algorithm=algorithm, **kwargs
        )
        for key in ("average", "individual"):
            if key in expected:
                assert_array_equal(got[key], expected[key], f"{algorithm} {key}")


@pytest.mark.parametrize("features", [[0], [(1, 3)]])
def test_forest_classifier_every_class(features):
    X, y = make_classification(
        n_samples=200, n_features=5, n_informative=3, n_classes=3, random_state=0
    )
    forest = RandomForestClassifier(n_estimators=6, random_state=0).fit(X, y)
    assert_as_sklearn(forest, X, features, kind="both", grid_resolution=15)


def test_regressor_weights_and_a_binary_tree():
    X, y = make_regression(n_samples=150, n_features=4, random_state=0)
    model = ExtraTreesRegressor(n_estimators=4, random_state=0).fit(X, y)
    weight = np.linspace(0.5, 2, len(y))
    assert_as_sklearn(model, X, [2], sample_weight=weight, grid_resolution=30)
    labels = (y > 0).astype(int)
    tree = DecisionTreeClassifier(max_depth=5, random_state=0).fit(X, labels)
    assert_as_sklearn(tree, X, [0, 1], kind="individual", grid_resolution=12)


def test_one_hot_pipeline(mixed_pipeline):
    pipe, X, y = mixed_pipeline
    forest = clone(pipe).set_params(
        logisticregression=RandomForestClassifier(n_estimators=5, random_state=0)
    )
    forest.fit(X, y)
    assert_as_sklearn(forest, X, ["city"], kind="both")
    assert_as_sklearn(forest, X, ["age", "visits"], grid_resolution=8)


def test_tree_refuses_what_it_cannot_do_exactly():
    X, y = make_regression(n_samples=100, n_features=3, random_state=0)
    with pytest.raises(ValueError, match="algorithm='tree': Ridge is not one of"):
        partial_dependence(Ridge().fit(X, y), X, [0], algorithm="tree")
    forest = RandomForestRegressor(n_estimators=2, random_state=0).fit(X, y)
    # "auto" picks scikit-learn's recursion for a forest regressor's average.
    with pytest.raises(ValueError, match="method='brute' for the tree shortcut"):
        partial_dependence(forest, X, [0], algorithm="tree")
    with_nan = X.copy()
    with_nan[0, 1] = np.nan
    with pytest.raises(ValueError, match="NaN or infinity"):
        partial_dependence(forest, with_nan, [0], method="brute", algorithm="tree")


def test_tree_walks_histogram_boosting_through_missing_values():
    """As `algorithm`'s docstring says: NaN in X refuses the walk for every
    model but histogram boosting, which routes missing values itself."""
    from sklearn.ensemble import HistGradientBoostingRegressor

    X, y = make_regression(n_samples=200, n_features=3, random_state=0)
    X[::7, 0] = np.nan
    model = HistGradientBoostingRegressor(max_iter=8, random_state=0).fit(X, y)
    assert_as_sklearn(model, X, [1], kind="both")


def test_boosting_walked_or_tree_by_tree():
    """Boosting walks under "auto" and "tree", and goes tree by tree under
    "generic": the same numbers: K-class raw scores and probabilities,
    and a regressor's link."""
    from sklearn.ensemble import (
        GradientBoostingClassifier,
        HistGradientBoostingRegressor,
    )

    X, y = make_classification(
        n_samples=200, n_features=5, n_informative=3, n_classes=3, random_state=0
    )
    model = GradientBoostingClassifier(n_estimators=8, random_state=0).fit(X, y)
    for response_method in ("predict_proba", "decision_function"):
        assert_as_sklearn(model, X, [0], kind="both", response_method=response_method)
    X, y = make_regression(n_samples=200, n_features=4, random_state=0)
    model = HistGradientBoostingRegressor(loss="poisson", max_iter=8)
    model.fit(X, np.abs(y))
    assert_as_sklearn(model, X, [1], kind="both")
    assert_as_sklearn(model, X, [0, 2], kind="average", grid_resolution=12)


def test_rows_walked_in_blocks(monkeypatch):
    """A chunk is walked and made responses a few rows at a time (here 2 KiB
    of leaf sums: one row): the same numbers, including averages over
    probabilities scikit-learn returns in Fortran order."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    from inspectwidgets.inspection._shortcuts.trees import replay as tree_replay

    monkeypatch.setattr(tree_replay, "WALK_BLOCK_BYTES", 2048)
    X, y = make_classification(
        n_samples=150, n_features=5, n_informative=3, n_classes=3, random_state=0
    )
    boosting = HistGradientBoostingClassifier(max_iter=8, random_state=0).fit(X, y)
    forest = RandomForestClassifier(n_estimators=4, random_state=0).fit(X, y % 2)
    for model in (boosting, forest):
        assert_as_sklearn(model, X, [0], kind="both")
        assert_as_sklearn(model, X, [(1, 2)], kind="both", grid_resolution=9)
        assert_as_sklearn(model, X, [3], kind="average", grid_resolution=30)
