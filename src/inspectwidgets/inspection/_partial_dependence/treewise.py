"""Gradient boosting over a grid, one tree at a time.

A gradient boosting model's raw prediction is a starting value plus every
tree's (scaled) leaf value, added tree by tree: ``raw[:, k] += value`` in the
order of the trees. One tree sees the grid only through its own splits on the
grid's features, so it has few distinct outcomes over the whole grid: its
cells, the grid values between two consecutive thresholds of that tree (see
``tree_splits``, which groups grid points over all trees at once). We
evaluate each tree once per cell on a copy of X and add its values to every
grid point of the cell, in scikit-learn's order: the same float operations
as predicting every copy with the whole model, so the same bits, for a
fraction of the tree evaluations.

Both of scikit-learn's gradient boostings are replayed from their own pieces
(``_raw_predict`` and the methods built on it); the parity tests hold us to
their numbers bit for bit.
"""

import numpy as np
from sklearn.utils.validation import validate_data

from .._core.batching import make_batcher
from .._core.compat import (
    BaseGradientBoosting,
    BaseHistGradientBoosting,
    _openmp_effective_n_threads,
)
from .tree_splits import grid_cells, thresholds_by_column

# Tree by tree only when the trees, on average, evaluate at most this fraction
# of the copies the whole model would predict: each tree builds its own
# copies of X, so the saving must pay for them.
MAX_WORK = 0.5


class TreewiseBoosting:
    """A boosting model's responses on copies of X holding grid points'
    values in `columns`, computed tree by tree. Build it with :meth:`of`."""

    def __init__(self, model, X, rows, columns, trees, start, finish):
        self.model, self.X, self.rows = model, X, rows
        self.columns = list(columns)
        self.batcher = make_batcher(X)
        # (class column, evaluate(stacked) -> values to add, split thresholds
        # per column), in scikit-learn's order; then each tree's cells.
        self.trees = [
            (k, evaluate, self._cells(thresholds)) for k, evaluate, thresholds in trees
        ]
        self._start, self._finish = start, finish
        # Copies of X evaluated by some tree, over the whole grid.
        self.evaluations = sum(int(cells.max()) + 1 for _, _, cells in self.trees)

    @classmethod
    def of(cls, model, X, rows, columns, n_copies):
        """A TreewiseBoosting of `model` (predicting X, and the grid `rows`
        with the same columns), or None where we cannot replay the model
        exactly (other models, an `init` estimator, categorical splits, the
        pandas categorical preprocessing, another scikit-learn layout) or
        where it would not save much over predicting `n_copies` copies."""
        treewise = None
        try:
            if isinstance(model, BaseHistGradientBoosting):
                treewise = _histogram_boosting(cls, model, X, rows, columns)
            elif isinstance(model, BaseGradientBoosting):
                treewise = _gradient_boosting(cls, model, X, rows, columns)
        except (AttributeError, TypeError, ValueError):
            return None
        if (
            treewise is None
            or treewise.evaluations > MAX_WORK * len(treewise.trees) * n_copies
        ):
            return None
        return treewise

    def _cells(self, thresholds):
        """The tree's cell of every grid point (see ``tree_splits.grid_cells``);
        the rows already hold the values the model compares."""
        return grid_cells(self.rows, self.columns, thresholds, self.rows.dtype)

    def raw_predict(self, points):
        """What the model's ``_raw_predict`` gives for the stacked copies of X
        with the grid `points`' values: shape (len(points) * n_rows, K)."""
        n_rows = self.X.shape[0]
        raw = self._start(len(points))
        for k, evaluate, cells in self.trees:
            cell_ids, first, inverse = np.unique(
                cells[points], return_index=True, return_inverse=True
            )
            copies = [(points[i], self.columns) for i in first]
            values = evaluate(self.batcher.build(copies, donor=self.rows))
            values = values.reshape(len(cell_ids), n_rows)
            raw[:, k] += values[inverse.reshape(-1)].ravel()
        return raw

    def respond(self, points, method):
        """The model's `method` ("predict", "predict_proba" or
        "decision_function") on the stacked copies, as the model gives it."""
        return self._finish(self.raw_predict(points), method)


def _histogram_boosting(cls, model, X, rows, columns):
    """HistGradientBoosting*: ``raw = baseline``, then per iteration and class
    ``raw[:, k] += tree.predict(X)``, on float64 values."""
    # Categorical columns of a pandas frame are re-encoded (and reordered)
    # before the trees see them; categorical splits test set membership.
    if getattr(model, "_preprocessor", None) is not None:
        return None
    predictors = [
        (k, t) for per_class in model._predictors for k, t in enumerate(per_class)
    ]
    if any(
        (t.nodes["is_categorical"][t.nodes["is_leaf"] == 0] == 1).any()
        for _, t in predictors
    ):
        return None
    known_categories, feature_map = model._bin_mapper.make_known_categories_bitsets()
    n_threads = _openmp_effective_n_threads()

    def evaluate(tree):
        return lambda stacked: tree.predict(
            stacked, known_categories, feature_map, n_threads
        )

    def start(n_copies):
        baseline = model._baseline_prediction
        raw = np.zeros(
            (n_copies * X.shape[0], model.n_trees_per_iteration_),
            dtype=baseline.dtype,
            order="F",
        )
        raw += baseline
        return raw

    def finish(raw, method):
        if method == "predict":
            return model._loss.link.inverse(raw.ravel())
        if method == "predict_proba":
            return model._loss.predict_proba(raw)
        return raw.ravel() if raw.shape[1] == 1 else raw

    trees = [
        (
            k,
            evaluate(t),
            thresholds_by_column(
                t.nodes["feature_idx"],
                t.nodes["num_threshold"],
                t.nodes["is_leaf"] == 0,
            ),
        )
        for k, t in predictors
    ]
    X = model._preprocess_X(X, reset=False)
    rows = model._preprocess_X(rows, reset=False)
    return cls(model, X, rows, columns, trees, start, finish)


def _gradient_boosting(cls, model, X, rows, columns):
    """GradientBoosting*: ``raw`` from the init estimator (a constant unless
    it is a user's estimator, which we leave alone), then per stage and class
    ``raw[:, k] += learning_rate * leaf value``, on float32 values."""
    if model.init not in (None, "zero"):
        return None
    prepare = dict(dtype=np.float32, order="C", accept_sparse="csr", reset=False)
    X = validate_data(model, X, **prepare)
    rows = validate_data(model, rows, **prepare)
    # The same starting values for every row of every copy.
    initial = model._raw_predict_init(X)
    scale = model.learning_rate

    def evaluate(tree):
        return lambda stacked: scale * tree.value[tree.apply(stacked), 0, 0]

    def start(n_copies):
        return np.tile(initial, (n_copies, 1))

    def finish(raw, method):
        if method == "predict":
            return raw.ravel()
        decision = raw.ravel() if raw.shape[1] == 1 else raw
        if method == "predict_proba":
            return model._loss.predict_proba(decision)
        return decision

    trees = []
    for stage in model.estimators_:
        for k, estimator in enumerate(stage):
            tree = estimator.tree_
            trees.append(
                (
                    k,
                    evaluate(tree),
                    thresholds_by_column(
                        tree.feature, tree.threshold, tree.feature >= 0
                    ),
                )
            )
    return cls(model, X, rows, columns, trees, start, finish)
