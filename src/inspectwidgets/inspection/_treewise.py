"""Histogram gradient boosting over a grid, one tree at a time.

HistGradientBoosting's raw prediction is its baseline plus every tree's leaf
value, added iteration by iteration (``raw[:, k] += tree.predict(X)``). One
tree sees the grid only through its own splits on the grid's features, so it
has few distinct outcomes over the whole grid: its cells, the grid values
between two consecutive thresholds of that tree (see ``_tree_splits``, which
groups grid points over all trees at once). We predict each tree once per
cell on a copy of X and add its values to every grid point of the cell, in
scikit-learn's order: the same float additions as predicting every copy with
the whole model, so the same bits, for a fraction of the tree evaluations.
"""

import numpy as np
from sklearn.ensemble._hist_gradient_boosting.gradient_boosting import (
    BaseHistGradientBoosting,
)
from sklearn.utils._openmp_helpers import _openmp_effective_n_threads

from ._batching import ArrayBatcher
from ._tree_splits import MISSING_CELL


class TreewiseBoosting:
    """The responses of a histogram gradient boosting model on copies of X
    with grid points' values in `columns`, computed tree by tree.

    Parameters
    ----------
    model : HistGradientBoostingRegressor or HistGradientBoostingClassifier
    X : ndarray of shape (n_rows, n_columns)
        The rows the copies are made of, as the model receives them.
    rows : ndarray of shape (n_points, n_columns)
        One row per grid point, holding its values in `columns`.
    columns : sequence of int
    """

    def __init__(self, model, X, rows, columns):
        self.model = model
        self.X = model._preprocess_X(X, reset=False)
        self.rows = model._preprocess_X(rows, reset=False)
        self.columns = list(columns)
        self.batcher = ArrayBatcher(self.X)
        self.known_categories, self.feature_map = (
            model._bin_mapper.make_known_categories_bitsets()
        )
        self.n_threads = _openmp_effective_n_threads()
        # (class column, tree, cell of every grid point), in prediction order.
        self.trees = [
            (k, tree, self._cells(tree))
            for per_class in model._predictors
            for k, tree in enumerate(per_class)
        ]

    @classmethod
    def of(cls, model, X, rows, columns):
        """A TreewiseBoosting, or None where the model is not one we can
        replay exactly (other models, categorical splits, the pandas
        categorical preprocessing, another scikit-learn layout)."""
        if not isinstance(model, BaseHistGradientBoosting):
            return None
        try:
            if getattr(model, "_preprocessor", None) is not None:
                return None
            if any(
                (tree.nodes["is_categorical"] == 1).any()
                for per_class in model._predictors
                for tree in per_class
            ):
                return None
            return cls(model, X, rows, columns)
        except (AttributeError, TypeError, ValueError):
            return None

    def _cells(self, tree):
        """The tree's cell of every grid point (grid values between the same
        thresholds of each of the tree's splits on `columns`)."""
        split = tree.nodes["is_leaf"] == 0
        cells = []
        for column in self.columns:
            on_column = split & (tree.nodes["feature_idx"] == column)
            if not on_column.any():
                continue
            thresholds = np.unique(tree.nodes["num_threshold"][on_column])
            values = self.rows[:, column]
            cell = np.searchsorted(thresholds, values, side="left")
            cell[np.isnan(values)] = MISSING_CELL
            cells.append(cell)
        if not cells:
            return np.zeros(self.rows.shape[0], dtype=np.intp)
        _, cell = np.unique(np.stack(cells, axis=1), axis=0, return_inverse=True)
        return cell.reshape(-1)

    def raw_predict(self, points):
        """What ``model._raw_predict`` gives for the stacked copies of X with
        the grid `points`' values: shape (len(points) * n_rows, K), F order."""
        model, n_rows = self.model, self.X.shape[0]
        baseline = model._baseline_prediction
        raw = np.zeros(
            (len(points) * n_rows, model.n_trees_per_iteration_),
            dtype=baseline.dtype,
            order="F",
        )
        raw += baseline
        for k, tree, cells in self.trees:
            cell_ids, first, inverse = np.unique(
                cells[points], return_index=True, return_inverse=True
            )
            copies = [(points[i], self.columns) for i in first]
            values = tree.predict(
                self.batcher.build(copies, donor=self.rows),
                self.known_categories,
                self.feature_map,
                self.n_threads,
            ).reshape(len(cell_ids), n_rows)
            raw[:, k] += values[inverse.reshape(-1)].ravel()
        return raw

    def respond(self, points, method):
        """The model's `method` ("predict", "predict_proba" or
        "decision_function") on the stacked copies, as the model gives it."""
        raw = self.raw_predict(points)
        if method == "predict":
            return self.model._loss.link.inverse(raw.ravel())
        if method == "predict_proba":
            return self.model._loss.predict_proba(raw)
        return raw.ravel() if raw.shape[1] == 1 else raw
