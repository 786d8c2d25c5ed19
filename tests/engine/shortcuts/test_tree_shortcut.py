"""The tree shortcut predicts modified copies of X exactly as the model does.

Every comparison is `assert_array_equal` against the model's own method on
the stacked copies: the shortcut is exact by construction (the model's input
dtype, the same comparisons, leaf values added in the model's order from its
own start, its own link)."""

import functools

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.datasets import make_classification
from sklearn.ensemble import (
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
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

from inspectwidgets.inspection._core.batching import make_batcher
from inspectwidgets.inspection._shortcuts.trees import TreeModel, unsupported


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
    "gradient boosting 3 classes": lambda: GradientBoostingClassifier(
        n_estimators=8, learning_rate=0.3, random_state=0
    ),
    "gradient boosting binary, zero start": lambda: GradientBoostingClassifier(
        n_estimators=8, init="zero", random_state=0
    ),
    "gradient boosting regressor, huber": lambda: GradientBoostingRegressor(
        loss="huber", n_estimators=8, random_state=0
    ),
    "histogram boosting 3 classes": lambda: HistGradientBoostingClassifier(
        max_iter=8, random_state=0
    ),
    "histogram boosting binary": lambda: HistGradientBoostingClassifier(
        max_iter=8, random_state=0
    ),
    "histogram boosting regressor, poisson": lambda: HistGradientBoostingRegressor(
        loss="poisson", max_iter=8, random_state=0
    ),
}


def methods_of(model):
    if not hasattr(model, "classes_"):
        return ["predict"]
    names = ["predict", "predict_proba", "predict_log_proba", "decision_function"]
    return [name for name in names if hasattr(model, name)]


def fitted(name, X, y):
    model = MODELS[name]()
    if "binary" in name:
        return model.fit(X, y % 2)
    if hasattr(model, "predict_proba"):
        return model.fit(X, y)
    return model.fit(X, np.abs(X[:, 0] * y + X[:, 1]))  # >= 0: Poisson


def thresholds_of(model, column):
    """The model's split thresholds on `column`, in the dtype it compares."""
    if hasattr(model, "_predictors"):
        nodes = [p.nodes for stage in model._predictors for p in stage]
        return np.concatenate(
            [n["num_threshold"][(n["feature_idx"] == column) & (n["is_leaf"] == 0)]
             for n in nodes]
        )  # fmt: skip
    trees = np.ravel(getattr(model, "estimators_", [model]))
    return np.concatenate(
        [t.tree_.threshold[t.tree_.feature == column] for t in trees]
    ).astype(np.float32)


def assert_same_as_the_model(model, X, copies, donor=None):
    methods = methods_of(model)
    trees = TreeModel.of(model, X, methods)
    rows = trees.as_model_input(X)
    donor_rows = None if donor is None else trees.as_model_input(donor)
    with np.errstate(divide="ignore"):  # log of zero probabilities, as sklearn
        got = trees.predict(rows, copies, methods, donor=donor_rows)
        stacked = make_batcher(X).build(copies, donor=donor)
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


@pytest.mark.parametrize("shuffled", [False, True], ids=["increasing", "shuffled"])
@pytest.mark.parametrize("name", MODELS)
def test_grid_values_on_and_around_every_threshold(data, name, shuffled):
    """Increasing grid values are bisected at each split, others are
    partitioned one by one: the same leaves either way."""
    X, y = data
    model = fitted(name, X, y)
    column = 0
    thresholds = thresholds_of(model, column)
    # Thresholds are midpoints in float64; the values at and one ulp either
    # side of them, in the dtype the model compares (float32 but for
    # histogram boosting), are where a wrong cast or comparison would show.
    inf = thresholds.dtype.type(np.inf)
    grid = np.unique(
        np.concatenate(
            [
                thresholds,
                np.nextafter(thresholds, inf),
                np.nextafter(thresholds, -inf),
                [X[:, column].min() - 1, X[:, column].max() + 1],
            ]
        )
    )
    if shuffled:
        grid = np.random.default_rng(0).permutation(grid)
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
    assert trees.as_model_input(with_nan) is None
    with np.errstate(over="ignore"):  # beyond float32: infinity
        assert trees.as_model_input(X * 1e39) is None


def test_gradient_boosting_with_an_initial_model_that_varies_by_row(data):
    X, y = data
    from sklearn.linear_model import LogisticRegression

    varying = GradientBoostingClassifier(
        n_estimators=3, init=LogisticRegression(), random_state=0
    ).fit(X, y)
    assert "initial model" in unsupported(varying, X, ["predict"])
    stratified = GradientBoostingRegressor(n_estimators=3, random_state=0)
    stratified.fit(X, X[:, 0])
    assert unsupported(stratified, X, ["predict"]) is None


def test_histogram_boosting_missing_values_and_categories():
    """NaN routed by each node's learned direction; categories by the
    predictor's bitsets, through the model's own encoder (which puts the
    categorical columns first), unseen categories and NaN as missing."""
    import pandas as pd

    rng = np.random.default_rng(0)
    n = 400
    X = pd.DataFrame(
        {
            "size": rng.normal(size=n),
            "colour": pd.Categorical(rng.choice(["red", "green", "blue", "grey"], n)),
            "weight": rng.normal(size=n),
            "shape": pd.Categorical(rng.choice(["round", "square"], n)),
        }
    )
    y = (X["colour"].isin(["red", "blue"]) ^ (X["size"] > 0)).astype(int).to_numpy()
    X.loc[rng.random(n) < 0.15, "size"] = np.nan
    X.loc[rng.random(n) < 0.1, "colour"] = np.nan
    model = HistGradientBoostingClassifier(max_iter=10, random_state=0).fit(X, y)
    assert any(p.nodes["is_categorical"].any() for s in model._predictors for p in s)
    copies = [(rng.permutation(n), (c,)) for c in (0, 1, 3)]
    copies.append((rng.permutation(n), (1, 2)))
    assert_same_as_the_model(model, X, copies)
    # Grid rows: every category, an unseen one, NaN; sizes on thresholds.
    donor = pd.concat([X.iloc[:1]] * 6, ignore_index=True)
    donor["colour"] = pd.Categorical(
        ["red", "green", "blue", "grey", "purple", np.nan],
        categories=[*X["colour"].cat.categories, "purple"],
    )
    assert_same_as_the_model(
        model, X, [(p, (1,)) for p in range(len(donor))], donor=donor
    )
    # Increasing codes, none missing: still tested as sets, not bisected.
    known = donor.iloc[:4].sort_values("colour").reset_index(drop=True)
    assert_same_as_the_model(model, X, [(p, (1,)) for p in range(4)], donor=known)


def test_which_grids_walk_all_rows_at_once(data):
    X, y = data
    trees = TreeModel.of(fitted("forest regressor", X, y), X, ["predict"])
    column = np.array([0])
    increasing = np.array([[-1.0], [0.0], [0.0], [2.0]])
    assert trees._is_grid(column, increasing)
    assert not trees._is_grid(column, increasing[::-1])
    assert not trees._is_grid(column, np.array([[0.0], [np.nan]]))
    assert not trees._is_grid(np.array([0, 1]), np.zeros((2, 2)))


@pytest.mark.parametrize(
    "make, hidden",
    [
        (lambda: HistGradientBoostingRegressor(max_iter=5), "_baseline_prediction"),
        (lambda: HistGradientBoostingClassifier(max_iter=5), "_predictors"),
        (lambda: GradientBoostingClassifier(n_estimators=5), "_loss"),
    ],
)
def test_a_moved_private_attribute_means_plain_prediction(
    data, monkeypatch, make, hidden
):
    """Where a scikit-learn release moved a private attribute the shortcut
    reads (here: hidden from everything but the model's own methods), the
    shortcut steps aside: "auto" gives the generic path's numbers, "tree"
    says why not (compat.py's promise)."""
    from inspectwidgets import permutation_importance

    X, y = data
    model = make().fit(X, y)
    kind = type(model)
    expected = permutation_importance(
        model, X, y, n_repeats=2, random_state=0, algorithm="generic"
    ).importances
    value = getattr(model, hidden)
    delattr(model, hidden)
    for method in ("predict", "predict_proba", "decision_function", "_raw_predict"):
        own = getattr(kind, method, None)
        if own is None:
            continue

        @functools.wraps(own)  # the scorers find a method by its name
        def restored(self, *args, own=own, **kwargs):
            if hidden in vars(self):  # called from another restored method
                return own(self, *args, **kwargs)
            setattr(self, hidden, value)  # where the new release keeps it
            try:
                return own(self, *args, **kwargs)
            finally:
                delattr(self, hidden)

        monkeypatch.setattr(kind, method, restored)
    assert TreeModel.of(model, X, {"predict"}) is None
    got = permutation_importance(
        model, X, y, n_repeats=2, random_state=0, algorithm="auto", n_jobs=1
    ).importances
    assert_array_equal(got, expected)
    with pytest.raises(ValueError, match="private attributes"):
        permutation_importance(model, X, y, n_repeats=2, algorithm="tree")
