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
gradient boosting compares float64 values; missing values follow a learned
direction, so they are never grouped with numbers. Categorical splits of
histogram gradient boosting test set membership, so each category stays alone.
Any other model, or one whose structure is not the expected one, is predicted
point by point as before.
"""

import numpy as np
from scipy import sparse
from sklearn.tree import BaseDecisionTree

from .._core.compat import BaseForest, BaseGradientBoosting, BaseHistGradientBoosting

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
