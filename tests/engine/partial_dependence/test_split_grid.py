"""split_grid: the ICE curves of a tree model at every step, checked against
scikit-learn's own predictions between the grid values."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import (
    GradientBoostingRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
)
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.tree import DecisionTreeRegressor

from inspectwidgets import partial_dependence, split_grid

pytestmark = pytest.mark.usefixtures("quiet_single_threaded")


def make_data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = X[:, 0] + np.sin(3 * X[:, 1]) + 0.1 * rng.normal(size=n)
    return X, y


def values_inside(grid, dtype):
    """Per cell k (between grid[k - 1] and grid[k]), values the model compares
    as inside it: just above the lower end, the middle and the upper end."""
    compare = np.dtype(dtype).type
    inside = []
    for k in range(1, len(grid)):
        low, high = compare(grid[k - 1]), compare(grid[k])
        points = {np.nextafter(low, compare(np.inf)), compare((low + high) / 2), high}
        inside.append([float(p) for p in points if low < p <= high])
    return inside


def predictions_at(model, X, column, value, method):
    changed = X.copy()
    changed[:, column] = value
    return getattr(model, method)(changed)


CASES = {
    "decision tree": (DecisionTreeRegressor(max_depth=6, random_state=0), "predict"),
    "forest, proba": (
        RandomForestClassifier(n_estimators=15, random_state=0),
        "predict_proba",
    ),
    "gradient boosting": (
        GradientBoostingRegressor(n_estimators=30, random_state=0),
        "predict",
    ),
    "histogram boosting": (
        HistGradientBoostingRegressor(max_iter=30, random_state=0),
        "predict",
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_ice_is_constant_between_grid_values(name):
    """scikit-learn predicts, anywhere inside a cell, the ICE value at the
    cell's upper grid value: no step of any row's curve is missed."""
    model, method = CASES[name]
    X, y = make_data()
    if method == "predict_proba":
        y = (y > 0).astype(int)
    model.fit(X, y)
    rows = X[:12]
    grid = split_grid(model, rows, 1)
    dtype = np.float64 if "histogram" in name else np.float32
    assert grid[0] == rows[:, 1].min() and grid[-1] == rows[:, 1].max()
    assert np.all(np.diff(grid) > 0)
    ice = partial_dependence(
        model, rows, [1], custom_values={1: grid}, kind="individual", method="brute"
    ).individual
    for k, inside in enumerate(values_inside(grid, dtype), start=1):
        for value in inside:
            expected = predictions_at(model, rows, 1, value, method)
            if method == "predict_proba":
                expected = expected[:, 1]
            assert_array_equal(ice[-1, :, k], expected, err_msg=f"cell {k}")
    # Between grid values the curves do step: not every value is a cell.
    assert 2 < len(grid) < 10 * len(np.unique(rows[:, 1])) + 2


def test_the_model_can_change_at_every_inner_grid_value():
    """Each inner grid value is a split threshold: some row's prediction
    changes at it (a depth-1 tree has exactly one)."""
    X, y = make_data()
    stump = DecisionTreeRegressor(max_depth=1, random_state=0).fit(X, y)
    grid = split_grid(stump, X, stump.tree_.feature[0])
    assert len(grid) == 3
    threshold = stump.tree_.threshold[0]
    # The last float32 value sent left, and the first sent right, by the split.
    assert np.float32(grid[1]) == grid[1] <= threshold
    assert np.nextafter(np.float32(grid[1]), np.float32(np.inf)) > threshold


def test_classifier_categories_and_pipeline_passthrough():
    X, y = make_data()
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    frame["kind"] = np.where(X[:, 2] > 0, "high", "low")
    pipeline = make_pipeline(
        ColumnTransformer(
            [("onehot", OneHotEncoder(), ["kind"])], remainder="passthrough"
        ),
        HistGradientBoostingClassifier(max_iter=10, random_state=0),
    ).fit(frame, y > 0)
    grid = split_grid(pipeline, frame, "b")
    model = pipeline[-1]
    column = 2 + 1  # after the two one-hot columns: a, b, c
    used = np.concatenate(
        [
            p.nodes["num_threshold"][
                (p.nodes["feature_idx"] == column) & ~p.nodes["is_leaf"].astype(bool)
            ]
            for per_class in model._predictors
            for p in per_class
        ]
    )
    low, high = frame["b"].min(), frame["b"].max()
    inner = np.unique(used[(used > low) & (used < high)])
    assert_array_equal(grid, np.unique(np.concatenate([[low], inner, [high]])))
    with pytest.raises(ValueError, match="categorical feature's grid"):
        split_grid(pipeline, frame, "kind")


def test_refuses_what_it_cannot_read_clearly():
    X, y = make_data()
    with pytest.raises(ValueError, match="reads the thresholds.*LinearRegression"):
        split_grid(LinearRegression().fit(X, y), X, 0)
    scaled = make_pipeline(
        ColumnTransformer([("scale", StandardScaler(), [0, 1, 2])]),
        DecisionTreeRegressor(max_depth=3, random_state=0),
    ).fit(X, y)
    with pytest.raises(ValueError, match="transforms 'x0' before the trees"):
        split_grid(scaled, X, 0)
    tree = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y)
    empty = X.copy()
    empty[:, 0] = np.nan
    with pytest.raises(ValueError, match="no finite value"):
        split_grid(tree, empty, 0)
    with pytest.raises(ValueError, match="not fitted|fit"):
        split_grid(DecisionTreeRegressor(), X, 0)


def test_bounds_match_a_partial_dependence_grid():
    """Steps over a partial dependence's range: its first and last grid value
    are the ends, and centering anchors both at the same value."""
    X, y = make_data()
    forest = RandomForestClassifier(n_estimators=10, random_state=0).fit(X, y > 0)
    rows = X[:10]
    grid = partial_dependence(forest, X, [0], grid_resolution=20).grid_values[0]
    steps = split_grid(forest, X, 0, bounds=(grid[0], grid[-1]))
    assert steps[0] == grid[0] and steps[-1] == grid[-1]
    assert np.all(np.diff(steps) > 0)
    full = split_grid(forest, X, 0)
    seen = np.float32(grid[0]), np.float32(grid[-1])
    assert_array_equal(steps[1:-1], full[(full > seen[0]) & (full < seen[1])])
    ice = partial_dependence(
        forest, rows, [0], custom_values={0: steps}, kind="individual"
    ).individual[-1]
    for k, inside in enumerate(values_inside(steps, np.float32), start=1):
        for value in inside:
            expected = predictions_at(forest, rows, 0, value, "predict_proba")[:, 1]
            assert_array_equal(ice[:, k], expected, err_msg=f"cell {k}")
    with pytest.raises(ValueError, match="low <= high"):
        split_grid(forest, X, 0, bounds=(1.0, 0.0))
    with pytest.raises(ValueError, match="two numbers"):
        split_grid(forest, X, 0, bounds="wide")


def test_x_is_not_modified():
    X, y = make_data()
    tree = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y)
    before = X.copy()
    split_grid(tree, X, 0)
    assert_array_equal(X, before)
