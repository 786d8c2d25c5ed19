"""CatBoost's trees for the walks: a ``TreeModel`` of a fitted
``CatBoostClassifier`` or ``CatBoostRegressor`` (``from_catboost`` reads its
JSON model and says what CatBoost does), with CatBoost's input, its
oblivious walk (``oblivious``) and its steps after the trees.
"""

import os
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from ..._core.responses import PROBABILITIES_NOT_AFFINE
from ..kernels import load
from .from_catboost import reading_of, split_thresholds, tree_shapes, unsupported
from .models import TreeModel
from .nodes import _Nodes
from .replay import _in_row_ranges

# What a block of rows' leaf indices may hold (``CatBoostTrees.predict``):
# a block of 10,000 rows for 200 trees, whatever the rows and trees.
LEAF_INDEX_BYTES = 8 * 2**20

# What kinds.other_library takes from this module.
__all__ = ["TREES", "SUMS_DTYPE", "split_thresholds", "tree_shapes", "unsupported"]


class CatBoostTrees(TreeModel):
    """A CatBoost model's oblivious trees flattened for the walks: float32
    input, double sums from +0.0, CatBoost's scale and bias and links (see
    the module doc)."""

    unreadable = (
        "X holds values CatBoost's own checks must decide on (values that "
        "are not numbers, other columns than the model's)"
    )

    def __init__(self, model, reading):
        self.oblivious = reading.oblivious
        nodes = _Nodes()
        for tree in reading.trees:
            nodes.add(*tree)
        width = reading.n_outputs
        super().__init__(model, nodes, width, dtype=np.float32,
                         start=np.zeros((1, width)), finite=False)  # fmt: skip
        self.task = reading.task
        self.classifier = self.task != "regression"
        self.n_features = reading.n_features
        self.names = reading.names
        self.scale, self.bias = reading.scale, reading.bias
        if self.classifier:
            self.bent_link = PROBABILITIES_NOT_AFFINE

    @classmethod
    def of(cls, model, X, methods):
        """The flattened CatBoost `model`, or None where the walk does not
        take it (:func:`unsupported` says why)."""
        if unsupported(model, X, methods) is not None:
            return None
        return cls(model, reading_of(model))

    def as_model_input(self, X):
        """X as CatBoost's predict reads it: float32, NaN missing; None where
        CatBoost's own checks must decide (another number of columns, named
        columns in another order than the model's, values that are not
        numbers)."""
        if sparse.issparse(X) or X.ndim != 2 or X.shape[1] != self.n_features:
            return None
        frame = hasattr(X, "dtypes")
        if frame and self.names not in (None, [str(c) for c in X.columns]):
            return None
        rows = np.empty(X.shape, dtype=np.float32)
        for j in range(X.shape[1]):
            column = X.iloc[:, j] if frame else X[:, j]
            if str(getattr(column, "dtype", "")) == "category":
                return None
            try:
                if frame:
                    values = column.to_numpy(dtype=np.float64, na_value=np.nan)
                else:
                    values = np.asarray(column, dtype=np.float64)
            except (TypeError, ValueError):
                return None
            rows[:, j] = values
        return rows

    def predicts_walk_rows(self):
        """Never: CatBoost reads a DataFrame's names, not the walk's
        float32 rows."""
        return False

    def predict_threads(self, n_workers=1):
        """CatBoost's predict takes every core (``thread_count=-1``), shared
        among the workers."""
        return max(1, (os.cpu_count() or 1) // n_workers)

    def predict(self, X, copies, methods, donor=None, n_threads=1, block_bytes=None):
        """The model's `methods` on the stacked copies of `X`, as
        ``TreeModel.predict`` (same arguments), through the oblivious walk
        (``oblivious``): each row's leaf indices once, then per copy only
        the splits on its columns tested again. The chunk's sums are held at
        once (the caller sizes chunks by :meth:`bytes_per_copy`), so
        `block_bytes` is not needed."""
        plan = _CopyPlan.of(self, X, copies, donor)
        # CatBoost's sums start at +0.0; by copy, output and row.
        raw = np.zeros((len(copies), self.n_outputs, X.shape[0]))
        # A range of rows is walked a block at a time: the block's leaf
        # indices (4 bytes a row and tree) within LEAF_INDEX_BYTES.
        n_trees = len(self.oblivious.start) - 1
        step = max(1, leaf_index_bytes() // (4 * max(1, n_trees)))

        def walk(low, high):
            for at in range(low, high, step):
                plan.walk(raw, at, min(at + step, high))

        _in_row_ranges(X.shape[0], n_threads, walk)
        raw = raw.transpose(0, 2, 1).reshape(-1, self.n_outputs)
        return self.responses(np.ascontiguousarray(raw), methods)

    def _grid_bits(self, columns, values):
        """``oblivious.add_grid``'s `keep` and `bits` for copies whose
        `columns` take `values` (n_copies, n_columns) in every row: per tree,
        the bits of its other splits, and each copy's bits of its splits on
        the columns."""
        trees = self.oblivious
        n_trees = len(trees.start) - 1
        starts, bits_at, column, border, nan_right = self._changed_splits(columns)
        tree = np.repeat(np.arange(n_trees), np.diff(starts))
        value = np.asarray(values, dtype=np.float32).astype(np.float64)[:, column]
        right = (value > border) | (np.isnan(value) & nan_right)
        shifted = (right.astype(np.int32) << bits_at.astype(np.int32)).astype(np.int32)
        bits = np.zeros((len(values), n_trees), dtype=np.int32)
        mask = np.zeros(n_trees, dtype=np.int32)
        for q in range(len(tree)):  # few: the splits on these columns
            bits[:, tree[q]] |= shifted[:, q]
            mask[tree[q]] |= np.int32(1) << np.int32(bits_at[q])
        return ~mask, bits

    def _changed_splits(self, columns):
        """``oblivious.add_copy``'s `changed` for copies of `columns`: the
        splits testing them, by tree, the column as its position in
        `columns`."""
        trees = self.oblivious
        at = np.flatnonzero(np.isin(trees.feature, columns))
        tree = np.searchsorted(trees.start, at, side="right") - 1
        n_trees = len(trees.start) - 1
        position = {c: w for w, c in enumerate(columns)}
        return (
            np.searchsorted(tree, np.arange(n_trees + 1)).astype(np.int64),
            (at - trees.start[tree]).astype(np.int64),
            np.array([position[f] for f in trees.feature[at].tolist()], np.int64),
            trees.border[at],
            trees.nan_right[at],
        )

    def responses(self, raw, methods):
        """What the estimator's `methods` return, from the leaf sums `raw` of
        shape (n_rows, n_outputs): CatBoost's raw formula values after its
        scale and bias, then its links ("raw_score": the raw formula values
        themselves)."""
        raw = self._scaled(raw)
        responses = {}
        if "raw_score" in methods:
            responses["raw_score"] = raw[:, 0] if raw.shape[1] == 1 else raw
        if self.task == "regression":
            responses["predict"] = raw[:, 0]
            return responses
        classes = self.model.classes_
        links = load("trees.links")
        if self.task == "binary":
            if "predict_proba" in methods:
                positive = links.sigmoid(np.ascontiguousarray(raw[:, 0]), 1.0)
                # CatBoost's (2, n) array, transposed: Fortran order.
                responses["predict_proba"] = np.vstack((1.0 - positive, positive)).T
            if "predict" in methods:
                responses["predict"] = classes[(raw[:, 0] > 0.0).astype(np.int64)]
            return responses
        if "predict_proba" in methods:
            responses["predict_proba"] = np.asfortranarray(
                links.softmax(np.ascontiguousarray(raw))
            )
        if "predict" in methods:
            # CatBoost's multiclass labels come as a column.
            responses["predict"] = classes[np.argmax(raw, axis=1)].reshape(-1, 1)
        return responses

    def _scaled(self, raw):
        """``ApplyScaleAndBias``: each branch as CatBoost takes it."""
        scale, bias = self.scale, self.bias
        if scale == 1.0 and not bias.any():
            return raw
        if scale == 1.0:
            return raw + bias
        if not bias.any():
            return raw * scale
        return scale * raw + bias


@dataclass(frozen=True)
class _CopyPlan:
    """How :meth:`CatBoostTrees.predict` walks its copies, planned once: the
    rows by column, and per group of columns the splits a permuted copy
    tests again (``changed``) or, with a donor, the grid points' bits
    (``grids``: the copies of each group and their ``keep`` and ``bits``)."""

    trees: CatBoostTrees
    Xt: np.ndarray  # the rows by column: a split's tests stream over rows
    copies: list
    changed: dict
    grids: dict
    leaf_value: np.ndarray  # by output, then leaf

    @classmethod
    def of(cls, trees, X, copies, donor):
        changed, grids = {}, {}
        if donor is None:
            for _, columns in copies:
                if tuple(columns) not in changed:
                    changed[tuple(columns)] = trees._changed_splits(tuple(columns))
        else:
            for b, (_, columns) in enumerate(copies):
                grids.setdefault(tuple(columns), []).append(b)
            for columns, at in grids.items():
                points = donor[np.ix_([copies[b][0] for b in at], columns)]
                grids[columns] = (at, trees._grid_bits(columns, points))
        leaf_value = np.ascontiguousarray(trees.oblivious.leaf_value.T)
        Xt = np.ascontiguousarray(X.T)
        return cls(trees, Xt, copies, changed, grids, leaf_value)

    def walk(self, raw, low, high):
        """Rows ``low:high`` of every copy's sums into `raw` (n_copies,
        n_outputs, n_rows)."""
        kernels, trees = load("trees.oblivious"), self.trees.oblivious
        rows = np.ascontiguousarray(self.Xt[:, low:high])
        base = np.empty((len(trees.start) - 1, high - low), dtype=np.int32)
        kernels.leaf_indices(rows, trees.start, trees.feature, trees.border,
                             trees.nan_right, base)  # fmt: skip
        for at, (keep, bits) in self.grids.values():
            out = np.zeros((len(at), raw.shape[1], high - low))
            kernels.add_grid(base, keep, bits, trees.start, trees.leaf_start,
                             self.leaf_value, out)  # fmt: skip
            raw[at, :, low:high] = out
        index = np.empty(high - low, dtype=np.int32)
        for b, (positions, columns) in enumerate(self.copies if self.changed else []):
            values = self.Xt[list(columns)][:, np.asarray(positions)[low:high]]
            kernels.add_copy(
                base, np.ascontiguousarray(values), self.changed[tuple(columns)],
                trees.start, trees.leaf_start, self.leaf_value, index,
                raw[b, :, low:high],
            )  # fmt: skip


def leaf_index_bytes():
    """LEAF_INDEX_BYTES, read when a walk starts (a test makes it small)."""
    return LEAF_INDEX_BYTES


# The walk's reading of these models (``kinds.other_library``).
TREES = CatBoostTrees
SUMS_DTYPE = "float64"  # its evaluator's double sums
