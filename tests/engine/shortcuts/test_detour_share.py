"""algorithm="auto" walks a forest only where the walk pays: detour_share."""

import numpy as np
from sklearn.datasets import make_regression
from sklearn.ensemble import GradientBoostingRegressor, RandomForestRegressor
from sklearn.inspection import permutation_importance as sklearn_importance
from sklearn.tree import DecisionTreeRegressor

from inspectwidgets import permutation_importance
from inspectwidgets.inspection._shortcuts.trees import detour_share, predicts_faster


def _two_level_tree():
    """Root on x0, both children on x1, four leaves."""
    x0, x1 = np.meshgrid([0.0, 1.0], [0.0, 1.0])
    X = np.column_stack([x0.ravel(), x1.ravel()]).repeat(5, axis=0)
    tree = DecisionTreeRegressor(max_depth=2).fit(X, 10 * X[:, 0] + X[:, 1])
    t = tree.tree_
    assert t.feature[0] == 0
    assert list(t.feature[[t.children_left[0], t.children_right[0]]]) == [1, 1]
    return tree


def test_the_share_of_the_path_under_each_groups_first_split():
    tree = _two_level_tree()
    # Paths hold 2 splits (x0 then x1). A copy changing x0 may leave at the
    # root and walk the x1 split again (1 of 2); one changing x1 leaves at
    # the last split and walks no split (0 of 2).
    assert detour_share([tree.tree_], [(0,), (1,)]) == 0.25
    assert detour_share([tree.tree_], [(0,)]) == 0.5
    assert detour_share([tree.tree_], [(1,)]) == 0.0
    # A group of both columns: the first split on it is the root.
    assert detour_share([tree.tree_], [(0, 1)]) == 0.5


def test_a_single_leaf_walks_nothing():
    stump = DecisionTreeRegressor().fit(np.zeros((4, 2)), np.ones(4))
    assert detour_share([stump.tree_], [(0,), (1,)]) == 0.0


def _forest(n_features, max_depth=None):
    X, y = make_regression(
        n_samples=600, n_features=n_features, n_informative=n_features,
        random_state=0,
    )  # fmt: skip
    forest = RandomForestRegressor(
        n_estimators=10, max_depth=max_depth, random_state=0
    ).fit(X, y)
    return forest, X, y


def test_auto_predicts_a_deep_forest_over_few_features_and_walks_a_wide_one():
    deep_narrow, X, _ = _forest(2)
    columns = [(j,) for j in range(X.shape[1])]
    assert detour_share([e.tree_ for e in deep_narrow.estimators_], columns) > 0.7
    assert predicts_faster(deep_narrow, "auto", columns, 5)
    assert not predicts_faster(deep_narrow, "tree", columns, 5)
    wide, X, _ = _forest(40, max_depth=6)
    columns = [(j,) for j in range(X.shape[1])]
    assert not predicts_faster(wide, "auto", columns, 5)
    # Boosting's trees are judged alike: the wide model's are walked.
    boosting = GradientBoostingRegressor(n_estimators=5, random_state=0)
    boosting.fit(X, X[:, 0])
    assert not predicts_faster(boosting, "auto", columns, 5)


def test_either_choice_gives_scikit_learns_numbers():
    for n_features in (2, 40):
        forest, X, y = _forest(n_features, max_depth=None if n_features == 2 else 6)
        expected = sklearn_importance(forest, X, y, n_repeats=3, random_state=0)
        for algorithm in ("auto", "tree", "generic"):
            ours = permutation_importance(
                forest, X, y, n_repeats=3, random_state=0, algorithm=algorithm
            )
            np.testing.assert_array_equal(ours.importances, expected.importances)
