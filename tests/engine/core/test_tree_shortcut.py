"""The tree shortcut predicts modified copies of X exactly as the model does.

Every comparison is `assert_array_equal` against the model's own method on
the stacked copies: the shortcut is exact by construction (float32 input,
the same comparisons, leaf values added in the model's order)."""

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.datasets import make_classification
from sklearn.ensemble import (
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.linear_model import Ridge
from sklearn.tree import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    ExtraTreeClassifier,
    ExtraTreeRegressor,
)

from inspectwidgets.inspection._core.batching import ArrayBatcher
from inspectwidgets.inspection._core.trees import TreeModel, unsupported


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(
        n_samples=300, n_features=5, n_informative=3, n_classes=3, random_state=0
    )
    X[:, 4] = 1.5  # a constant column: no tree splits on it
    return X, y


MODELS = {
    "tree classifier": lambda: DecisionTreeClassifier(random_state=0),
    "tree regressor": lambda: DecisionTreeRegressor(max_depth=6, random_state=0),
    "extra tree classifier": lambda: ExtraTreeClassifier(random_state=0),
    "extra tree regressor": lambda: ExtraTreeRegressor(random_state=0),
    "forest classifier": lambda: RandomForestClassifier(n_estimators=8, random_state=0),
    "forest regressor": lambda: RandomForestRegressor(
        n_estimators=6, min_samples_leaf=3, random_state=0
    ),
    "extra trees classifier": lambda: ExtraTreesClassifier(
        n_estimators=5, random_state=0
    ),
    "extra trees regressor": lambda: ExtraTreesRegressor(
        n_estimators=5, random_state=0
    ),
}


def methods_of(model):
    if hasattr(model, "classes_"):
        return ["predict", "predict_proba", "predict_log_proba"]
    return ["predict"]


def fitted(name, X, y):
    model = MODELS[name]()
    target = y if hasattr(model, "predict_proba") else X[:, 0] * y + X[:, 1]
    return model.fit(X, target)


def assert_same_as_the_model(model, X, copies, donor=None):
    methods = methods_of(model)
    trees = TreeModel.of(model, X, methods)
    rows = trees.as_float32(X)
    donor_rows = None if donor is None else trees.as_float32(donor)
    with np.errstate(divide="ignore"):  # log of zero probabilities, as sklearn
        got = trees.predict(rows, copies, methods, donor=donor_rows)
        stacked = ArrayBatcher(X).build(copies, donor=donor)
        for method in methods:
            assert_array_equal(got[method], getattr(model, method)(stacked), method)


@pytest.mark.parametrize("name", MODELS)
def test_permuted_copies_and_groups(data, name):
    X, y = data
    model = fitted(name, X, y)
    rng = np.random.default_rng(0)
    copies = [(rng.permutation(len(X)), (c,)) for c in (0, 2, 0, 3, 4)]
    copies.append((rng.permutation(len(X)), (1, 3)))  # a group moves together
    assert_same_as_the_model(model, X, copies)


@pytest.mark.parametrize("name", MODELS)
def test_grid_values_on_and_around_every_threshold(data, name):
    X, y = data
    model = fitted(name, X, y)
    trees = model.estimators_ if hasattr(model, "estimators_") else [model]
    column = 0
    thresholds = np.concatenate(
        [t.tree_.threshold[t.tree_.feature == column] for t in trees]
    ).astype(np.float32)
    # Thresholds are midpoints in float64; the float32 values at and one ulp
    # either side of them are where a wrong cast or comparison would show.
    grid = np.unique(
        np.concatenate(
            [
                thresholds,
                np.nextafter(thresholds, np.float32(np.inf)),
                np.nextafter(thresholds, np.float32(-np.inf)),
                [X[:, column].min() - 1, X[:, column].max() + 1],
            ]
        )
    )
    donor = np.repeat(X[:1], len(grid), axis=0)
    donor[:, column] = grid
    copies = [(point, (column,)) for point in range(len(grid))]
    assert_same_as_the_model(model, X, copies, donor=donor)


def test_one_row_a_single_leaf_and_multi_output(data):
    X, y = data
    stump = DecisionTreeRegressor().fit(X, np.ones(len(X)))  # one leaf
    assert stump.tree_.node_count == 1
    assert_same_as_the_model(stump, X, [(np.arange(len(X))[::-1], (0,))])
    forest = RandomForestRegressor(n_estimators=3, random_state=0)
    forest.fit(X, np.column_stack([X[:, 0], y]))  # two targets
    assert_same_as_the_model(forest, X[:1], [(np.array([0]), (2,))])
    assert_same_as_the_model(forest, X, [(np.arange(len(X)), (2,))])


def test_what_takes_the_generic_path(data):
    X, y = data
    assert "Ridge" in unsupported(Ridge().fit(X, y), X, ["predict"])
    two_outputs = RandomForestClassifier(n_estimators=2, random_state=0)
    two_outputs.fit(X, np.column_stack([y, y % 2]))
    assert "multi-output" in unsupported(two_outputs, X, ["predict_proba"])
    forest = fitted("forest classifier", X, y)
    assert "decision_function" in unsupported(forest, X, ["decision_function"])
    from scipy import sparse

    assert "sparse" in unsupported(forest, sparse.csr_matrix(X), ["predict"])
    assert unsupported(forest, X, ["predict", "predict_proba"]) is None
    trees = TreeModel.of(forest, X, ["predict"])
    with_nan = X.copy()
    with_nan[0, 0] = np.nan
    assert trees.as_float32(with_nan) is None
    with np.errstate(over="ignore"):  # beyond float32: infinity
        assert trees.as_float32(X * 1e39) is None
