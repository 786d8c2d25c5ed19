"""Grid points that a tree ensemble provably predicts alike.

A tree sends a row left when its value of the split's feature is ``<=`` the
threshold. Two grid values that fall between the same two consecutive
thresholds of a feature, over every tree of the ensemble, therefore send every
row down the same paths in every tree, and every prediction made from the
leaves reached (sums, averages, probabilities) is the same, bit for bit. So
partial dependence predicts one grid point per group and copies its values to
the others: the numbers are those of predicting every point, for less work.

The comparisons are replayed as the models make them: scikit-learn's trees
(decision trees, forests, gradient boosting) compare float32 values, histogram
gradient boosting compares float64 values, CatBoost's oblivious trees
float32 values (``x > border``, read by the tree shortcut); missing values
follow a learned
direction, so they are never grouped with numbers. Categorical splits of
histogram gradient boosting test set membership, so each category stays alone.
Any other model, or one whose structure is not the expected one, is predicted
point by point as before.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numpy.typing import ArrayLike
from scipy import sparse
from sklearn.tree import BaseDecisionTree

from .._core.compat import BaseForest, BaseGradientBoosting, BaseHistGradientBoosting
from .._core.effect_params import (
    check_pd_estimator,
    check_pd_X,
    column_labels,
    resolve_pd_features,
)
from .._core.grid_rows import grid_rows
from .._core.hints import Column, Data, Estimator
from .._core.pipeline import columnwise_view
from .._core.validation import quoted
from .._shortcuts.trees import split_thresholds as other_library_splits

# The cell of a missing value: its own, whatever the thresholds.
MISSING_CELL = -1


def grid_point_groups(model, rows, columns):
    """Which grid points `model` predicts alike, or None if unknown.

    Parameters
    ----------
    model : estimator
        The model that predicts the copies (a pipeline's final step when its
        preprocessing was applied beforehand).
    rows : ndarray, DataFrame or CSR matrix of shape (n_points, n_columns)
        One row per grid point, holding its values in `columns`, as the model
        receives them.
    columns : sequence of int
        The columns of `rows` that the grid sets.

    Returns
    -------
    groups : ndarray of int of shape (n_points,) or None
        Group of every grid point, numbered in the order of the groups' first
        points, so the first point of each group is its representative; None
        when the model is not a tree ensemble whose splits we can read.
    """
    splits = _split_thresholds(model)
    if splits is None:
        return None
    thresholds, dtype = splits
    return grid_cells(rows, columns, thresholds, dtype)


def grid_point_groups_of_each(model, rows, columns):
    """:func:`grid_point_groups` of several grids (``rows[i]`` setting
    ``columns[i]``) predicted by one `model`, its splits read once; None if
    unknown."""
    splits = _split_thresholds(model)
    if splits is None:
        return None
    thresholds, dtype = splits
    return [
        grid_cells(r, c, thresholds, dtype) for r, c in zip(rows, columns, strict=True)
    ]


def grid_cells(rows, columns, thresholds, dtype=np.float64):
    """The cell of every grid row: rows whose values in `columns`, compared
    as `dtype`, fall between the same two consecutive `thresholds` (a dict
    column -> sorted thresholds) of every column share a cell. Missing values
    have their own. Cells are numbered in the order of their first row; None
    if a column is not numeric."""
    found = []
    for column in columns:
        values = column_values(rows, column)
        if values is None:
            return None
        compared = values.astype(dtype).astype(np.float64)
        cell = np.searchsorted(thresholds.get(column, ()), compared, side="left")
        cell[np.isnan(compared)] = MISSING_CELL
        found.append(cell)
    _, first, inverse = np.unique(
        np.stack(found, axis=1), axis=0, return_index=True, return_inverse=True
    )
    # Renumber by first row: cell c's first row is the c-th such row.
    rank = np.empty_like(first)
    rank[np.argsort(first)] = np.arange(len(first))
    return rank[inverse.reshape(-1)]


def _split_thresholds(model):
    """``({column: sorted thresholds}, compared dtype)`` over every split of
    the ensemble, or None if not a supported tree model."""
    found = other_library_splits(model)
    if found is not None:  # CatBoost's borders
        return found
    try:
        if isinstance(model, BaseHistGradientBoosting):
            return _histogram_boosting_splits(model)
        trees = _sklearn_trees(model)
        if trees is None:
            return None
        features = np.concatenate([t.feature for t in trees])
        thresholds = np.concatenate([t.threshold for t in trees])
    except AttributeError:  # an unfitted model or another scikit-learn layout
        return None
    # Leaves have feature -2 (TREE_UNDEFINED).
    return thresholds_by_column(features, thresholds, features >= 0), np.float32


def _sklearn_trees(model):
    """The ``tree_`` of every tree whose leaves make the prediction."""
    if isinstance(model, BaseDecisionTree):
        return [model.tree_]
    if isinstance(model, BaseForest):
        return [e.tree_ for e in model.estimators_]
    if isinstance(model, BaseGradientBoosting):
        # An `init` estimator's prediction depends on the row: not a tree.
        if model.init not in (None, "zero"):
            return None
        return [e.tree_ for e in np.ravel(model.estimators_)]
    return None  # bagging (feature subsets, any model) and everything else


def _histogram_boosting_splits(model):
    # Categorical columns of a pandas frame are re-encoded (and reordered)
    # before the trees see them.
    if getattr(model, "_preprocessor", None) is not None:
        return None
    nodes = np.concatenate(
        [tree.nodes for per_class in model._predictors for tree in per_class]
    )
    split = nodes["is_leaf"] == 0
    if (nodes["is_categorical"][split] == 1).any():
        return None
    return thresholds_by_column(
        nodes["feature_idx"], nodes["num_threshold"], split
    ), np.float64


def thresholds_by_column(features, thresholds, selected):
    """{column: sorted unique thresholds} of the `selected` splits."""
    features, thresholds = features[selected], thresholds[selected]
    return {
        int(column): np.unique(thresholds[features == column])
        for column in np.unique(features)
    }


def column_values(rows, column):
    """A column of the grid rows as floats, or None if it is not numeric."""
    if sparse.issparse(rows):
        values = rows[:, [column]].toarray().ravel()
    elif hasattr(rows, "iloc"):
        values = rows.iloc[:, column].to_numpy()
    else:
        values = rows[:, column]
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        return None


def split_grid(
    estimator: Estimator,
    X: Data,
    feature: Column,
    *,
    bounds: tuple[float, float] | None = None,
    feature_names: ArrayLike | None = None,
) -> npt.NDArray[np.float64]:
    """Grid values at which a tree model's ICE curves are exact, every step.

    A tree sends a row left when the feature's value is ``<=`` a split's
    threshold, so as the feature moves, every row's prediction changes only
    at the thresholds of the feature's splits, over all the trees. These
    values are the ends of X's range and every threshold inside it: one value
    per cell between consecutive thresholds, as the model compares them
    (float32 for scikit-learn's trees, float64 for histogram gradient
    boosting). Passed as ``custom_values`` to :func:`partial_dependence`,
    they give each row's ICE curve at full resolution: its value at a grid
    value ``g[k]`` holds for every value the model compares as lying in
    ``(g[k - 1], g[k]]``, so the curve is drawn as steps. Missing values
    (their own cell) are not included.

    Parameters
    ----------
    estimator : estimator
        A fitted decision tree, random forest, extra trees, gradient boosting
        (without an ``init`` estimator) or histogram gradient boosting model
        (with numeric splits), or a ``Pipeline`` of a ``ColumnTransformer`` that
        passes the feature through unchanged and such a model.
    X : array-like or DataFrame of shape (n_samples, n_features)
        The rows whose range of `feature` the grid covers.
    feature : int or str
        The feature, by position or by name.
    bounds : (float, float), default=None
        The range the grid covers, its first and last value; X's smallest
        and largest finite value of the feature when None. Pass a partial
        dependence's first and last grid value to draw its rows' steps over
        the same range, anchored (``centered``) at the same value.
    feature_names : array-like of str, default=None
        Names of X's columns when X is an array.

    Returns
    -------
    grid : ndarray of shape (n_values,)
        Increasing values: the lower bound, the last value (as the model
        sees values: float32 for scikit-learn's trees) sent left by every
        threshold between the bounds, and the upper bound.

    Raises
    ------
    ValueError
        If the model's splits cannot be read as thresholds on X's values of
        the feature (another model, categorical splits, a transforming
        pipeline), or if the feature has no finite value.

    Examples
    --------
    >>> from sklearn.datasets import make_regression
    >>> from sklearn.tree import DecisionTreeRegressor
    >>> from inspectwidgets import partial_dependence, split_grid
    >>> X, y = make_regression(n_samples=200, n_features=3, random_state=0)
    >>> tree = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y)
    >>> grid = split_grid(tree, X, 0)
    >>> result = partial_dependence(
    ...     tree, X, [0], custom_values={0: grid}, kind="individual"
    ... )
    >>> result.individual.shape[-1] == len(grid)
    True
    """
    check_pd_estimator(estimator)
    X = check_pd_X(X)
    names = column_labels(X, feature_names)
    (position,), _ = resolve_pd_features(X, [feature], names)
    values = column_values(X, position)
    if values is None:
        raise ValueError(
            f"feature: column {quoted(names[position])} is not numeric; a categorical "
            "feature's grid (its categories) is exact already."
        )
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        raise ValueError(
            f"feature: column {quoted(names[position])} has no finite value."
        )
    model, column, passthrough = estimator, position, None
    view = columnwise_view(estimator, X.shape[1])
    if view is not None:
        model, passthrough = view.model, view
        outputs = view.output_columns[position]
        column = outputs[0] if len(outputs) == 1 else None
    splits = None if column is None else _split_thresholds(model)
    if splits is None:
        raise ValueError(
            "estimator: split_grid reads the thresholds of a decision tree, "
            "forest or gradient boosting model with numeric splits, fitted on "
            f"X's own values of {quoted(names[position])}; got "
            f"{type(estimator).__name__}."
        )
    thresholds, dtype = splits
    # Everything as the model sees it: X cast to `dtype`, compared with
    # float64 thresholds. The largest `dtype` value at or below a threshold is
    # the last value sent left; values above it up to the next one share a cell.
    low, high = _check_bounds(bounds, finite)
    seen_low, seen_high = np.float64(dtype(low)), np.float64(dtype(high))
    inside = _at_or_below(thresholds.get(column, np.empty(0)), dtype)
    # A value seen as `low` (or `high`) is in its cell: it stands for it.
    inside = np.unique(inside[(inside > seen_low) & (inside < seen_high)])
    grid = np.concatenate([[low], inside, [high]] if high > low else [[low]])
    if passthrough is not None:
        _check_passed_through(passthrough, X, position, column, grid, names)
    return grid


def _check_bounds(bounds, finite):
    if bounds is None:
        return float(finite.min()), float(finite.max())
    try:
        low, high = (float(b) for b in bounds)
    except (TypeError, ValueError):
        raise ValueError(
            f"bounds must be two numbers (low, high); got {bounds!r}."
        ) from None
    if not (np.isfinite(low) and np.isfinite(high) and low <= high):
        raise ValueError(f"bounds must be finite with low <= high; got {bounds!r}.")
    return low, high


def _at_or_below(thresholds, dtype):
    """The largest `dtype` value at or below each float64 threshold."""
    values = thresholds.astype(dtype)
    above = values > thresholds
    values[above] = np.nextafter(values[above], dtype(-np.inf))
    return values.astype(np.float64)


def _check_passed_through(view, X, position, column, grid, names):
    """A pipeline's thresholds are on the transformed values: they are X's
    only if the preprocessing hands the grid values to the model unchanged."""
    rows = grid_rows(X, [position], grid[:, None], [grid], names)
    seen = view.transform(rows)
    seen = seen[:, [column]].toarray() if sparse.issparse(seen) else seen[:, [column]]
    if not np.array_equal(np.asarray(seen, dtype=np.float64).ravel(), grid):
        raise ValueError(
            f"estimator: the pipeline transforms {quoted(names[position])} before the "
            "trees, so their thresholds are not values of X; split_grid needs "
            "the feature passed through unchanged."
        )
