"""Predicting modified copies of X through a tree model without predicting them.

Permutation importance and partial dependence predict copies of X in which a
few columns (a feature, a group, a one-hot block) take other values. For
scikit-learn's tree models, ``tree_routing`` walks each row through each tree
once with all of the row's copies, and this module turns the leaf values into
what the model's own ``predict``, ``predict_proba``, ``predict_log_proba`` or
``decision_function`` returns on the stacked copies, bit for bit: the same
input dtype, comparisons, leaf values, summation order, start and link.

Used for DecisionTree*, ExtraTree*, RandomForest*, ExtraTrees*,
GradientBoosting* (initial model "zero" or a constant dummy) and
HistGradientBoosting* (numeric and categorical splits, missing values) of
scikit-learn, exact types only (a subclass may predict otherwise),
single-output classifiers and any regressor, on dense input; anything else
takes the generic path. A forest with ``n_jobs`` > 1 adds its trees in
whatever order its threads finish; we add them in order, as it does with one
job.
"""

import functools
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from joblib import effective_n_jobs
from scipy import sparse
from sklearn.dummy import DummyClassifier, DummyRegressor
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
from sklearn.tree import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    ExtraTreeClassifier,
    ExtraTreeRegressor,
)
from sklearn.utils import check_array

from .compat import _openmp_effective_n_threads
from .pipeline import columnwise_view, final_estimator

_SINGLE_TREES = (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    ExtraTreeClassifier,
    ExtraTreeRegressor,
)
_FORESTS = (
    RandomForestClassifier,
    RandomForestRegressor,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
)
_GRADIENT_BOOSTING = (GradientBoostingClassifier, GradientBoostingRegressor)
_HIST_GRADIENT_BOOSTING = (
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
)
_SUPPORTED = _SINGLE_TREES + _FORESTS + _GRADIENT_BOOSTING + _HIST_GRADIENT_BOOSTING
_CLASSIFIERS = (
    DecisionTreeClassifier,
    ExtraTreeClassifier,
    RandomForestClassifier,
    ExtraTreesClassifier,
    GradientBoostingClassifier,
    HistGradientBoostingClassifier,
)
# Whatever a model has beyond these (apply, staged_*, ...) is the generic
# path's.
_METHODS = {"predict", "predict_proba", "predict_log_proba", "decision_function"}
# Dummy strategies whose prediction is the same for every row: a gradient
# boosting model started from one starts every copy alike.
_CONSTANT_DUMMIES = {
    DummyClassifier: {"prior", "most_frequent", "constant"},
    DummyRegressor: {"mean", "median", "quantile", "constant"},
}


# Node flags: missing values go left; the split is on categories (column 3 of
# the node then indexes the bitsets, not a threshold). A split node keeps them
# above FLAGS_SHIFT in its feature column, so the walks read one cache line a
# node (a separate array cost a forest's partial dependence 15%).
NAN_LEFT, CATEGORICAL = 1, 2
FLAGS_SHIFT = 32

# What the tree shortcut holds for a block of rows of a chunk (the walk's leaf
# sums, their copy-major copy and the responses made of them; at most half of
# max_memory), so that a chunk holds its copies' responses and little else:
# partial dependence's 50 grid points over 100,000 rows take one walk instead
# of four (RF 100 trees: 10.1 -> 3.9 s).
WALK_BLOCK_BYTES = 8 * 2**20


def walk_block_bytes(max_memory):
    """What a walk's block of rows may hold under `max_memory`."""
    return min(WALK_BLOCK_BYTES, max_memory // 2)


def row_blocks(n_rows, row_bytes, block_bytes):
    """Ranges ``(low, high)`` of rows walked at once, each holding about
    `block_bytes` at `row_bytes` a row (at least a row each; one range for
    all rows without `block_bytes`): predictions are row by row, so the
    blocks give the same bits as one walk."""
    step = max(1, n_rows)
    if block_bytes is not None:
        step = max(1, min(n_rows, int(block_bytes // row_bytes)))
    return [(low, min(low + step, n_rows)) for low in range(0, n_rows, step)]


# What a permutation walk keeps in a core's cache: a block of trees' nodes
# and, as much again, a block of rows' values and sums (half of a 512 KiB L2
# each; see route_copies).
TREE_BLOCK_BYTES = 1 << 18


class _Nodes:
    """Trees gathered node by node into the arrays the walks read."""

    def __init__(self):
        self.blocks, self.bitsets, self.n_nodes, self.max_depth = [], [], 0, 0

    def add(self, depth, left, right, feature, threshold, nan_left, leaf_value,
            output=0, categories=None):  # fmt: skip
        """One tree: its depth, children (-1 at a leaf), split feature and
        threshold, missing values' direction, what each leaf adds from
        `output` on, and
        for histogram gradient boosting's categorical splits, `categories`:
        ``(is_categorical, left_sets, known_sets)`` per node."""
        start = self.n_nodes
        n = len(left)
        block = np.empty((n, 4), dtype=np.int64)
        for column, children in enumerate((left, right)):
            children = np.asarray(children, dtype=np.int64)
            block[:, column] = np.where(children == -1, -1, children + start)
        block[:, 3] = np.asarray(threshold, np.float64).view(np.int64)
        flags = np.where(np.asarray(nan_left) != 0, NAN_LEFT, 0).astype(np.int64)
        if categories is not None:
            is_categorical, left_sets, known_sets = categories
            at = np.flatnonzero(is_categorical)
            flags[at] |= CATEGORICAL
            block[at, 3] = sum(len(b) for b in self.bitsets) + np.arange(len(at))
            self.bitsets.append(np.stack([left_sets, known_sets], axis=1))
        feature = np.asarray(feature, dtype=np.int64)
        split = block[:, 0] != -1
        block[:, 2] = np.where(split, feature | (flags << FLAGS_SHIFT), feature)
        leaf_value = np.asarray(leaf_value, dtype=np.float64).reshape(n, -1)
        self.blocks.append((start, block, leaf_value, output))
        self.n_nodes += n
        self.max_depth = max(self.max_depth, int(depth))


class TreeModel:
    """A fitted tree model flattened for the walks of ``tree_routing``.

    Build with :meth:`of`, which returns None for a model or input the
    shortcut does not reproduce exactly.
    """

    def __init__(self, model, nodes, n_outputs, *, dtype, start, finite):
        self.model = model
        self.classifier = type(model) in _CLASSIFIERS
        self.forest = type(model) in _FORESTS
        self.dtype, self.start, self.finite = dtype, start, finite
        self.n_outputs = n_outputs
        blocks = nodes.blocks
        self.n_trees = len(blocks)
        self.roots = np.array([b[0] for b in blocks], dtype=np.int64)
        self.outputs = np.array([b[3] for b in blocks], dtype=np.int64)
        self.nodes = np.concatenate([b[1] for b in blocks])
        self.leaf_value = np.ascontiguousarray(np.concatenate([b[2] for b in blocks]))
        self.bitsets = (
            np.concatenate(nodes.bitsets).astype(np.uint32)
            if nodes.bitsets
            else np.zeros((0, 2, 8), dtype=np.uint32)
        )
        self.max_depth = nodes.max_depth
        # Raw column -> the column the trees read (histogram gradient
        # boosting's own encoder puts categorical columns first).
        self.column_of = None

    @classmethod
    def of(cls, model, X, methods):
        """The flattened `model`, or None where the shortcut does not apply
        (:func:`unsupported` says why)."""
        if unsupported(model, X, methods) is not None:
            return None
        kind = type(model)
        if kind in _HIST_GRADIENT_BOOSTING:
            return _hist_gradient_boosting(model)
        if kind in _GRADIENT_BOOSTING:
            return _gradient_boosting(model)
        trees = model.estimators_ if kind in _FORESTS else [model]
        nodes = _Nodes()
        for estimator in trees:
            tree = estimator.tree_
            if kind in _CLASSIFIERS:
                # tree_.value holds class fractions: predict_proba's rows.
                value = tree.value[:, 0, : int(model.n_classes_)]
            else:
                value = tree.value[:, :, 0]
            nodes.add(tree.max_depth, tree.children_left, tree.children_right,
                      tree.feature, tree.threshold, tree.missing_go_to_left,
                      value)  # fmt: skip
        n_outputs = nodes.blocks[0][2].shape[1]
        # A forest's predict adds its trees into zeros; -0.0 is the exact
        # identity of addition, so a single tree's leaf value comes out as is.
        start = np.full((1, n_outputs), 0.0 if kind in _FORESTS else -0.0)
        return cls(model, nodes, n_outputs, dtype=np.float32, start=start, finite=True)

    def bytes_per_copy(self, n_rows, n_columns=1):
        """Memory one copy costs the shortcut: the values of its columns, its
        leaf sums (twice, while reordered copy-major), beside the responses
        the caller counts (:meth:`predict` with `block_bytes` holds them a
        block of rows at a time). Measured with tracemalloc, scoring
        included, per row and copy (benchmarks/trees.py's models, 10,000 rows, chunks of
        about 50 copies): 36 bytes for a forest's classes (counted here 36,
        by the caller 24), 48 for its probabilities, classes and log-loss
        (36 and 72), 24 for histogram boosting's (24 and 24)."""
        itemsize = np.dtype(self.dtype).itemsize
        return n_rows * (itemsize * n_columns + 16 * self.n_outputs)

    def as_model_input(self, X):
        """X as the trees read it (C order, as the walk reads rows), or None
        where the model's own checks must decide (the generic path): float32
        holding NaN or infinity for scikit-learn's trees, forests and
        gradient boosting; float64 after its own encoder for histogram
        gradient boosting, which routes missing values itself."""
        if not self.finite:
            preprocessor = self.model._preprocessor
            if preprocessor is not None:
                X = preprocessor.transform(X)
            return check_array(X, dtype=self.dtype, ensure_all_finite=False, order="C")
        X = check_array(X, dtype=self.dtype, ensure_all_finite=False, order="C")
        return X if np.isfinite(X).all() else None

    def predicts_walk_rows(self):
        """Whether the model's own predict, given rows as
        :meth:`as_model_input` makes them, predicts what it predicts for the
        rows they were made of: its own first step makes the same array
        (float32 for scikit-learn's trees, forests and gradient boosting;
        float64 for histogram gradient boosting without categorical
        features, whose encoder would otherwise come first), and it was not
        fitted on named columns (it would warn of an array without them)."""
        if hasattr(self.model, "feature_names_in_"):
            return False
        return self.finite or self.model._preprocessor is None

    def predict_threads(self, n_workers=1):
        """Threads for each walk while `n_workers` walks run at once: the
        threads the model's own predict would use (a forest's ``n_jobs``,
        histogram gradient boosting's OpenMP threads, one for a single tree or
        gradient boosting), shared among the workers, at least one each. So
        the walk is compared with scikit-learn on the cores the model itself
        takes, and a run's own ``n_jobs`` never oversubscribes them."""
        kind = type(self.model)
        if self.forest:
            own = min(effective_n_jobs(self.model.n_jobs), self.n_trees)
        elif kind in _HIST_GRADIENT_BOOSTING:
            own = _openmp_effective_n_threads()
        else:
            own = 1
        return max(1, own // n_workers)

    def predict(self, X, copies, methods, donor=None, n_threads=1, block_bytes=None):
        """The model's `methods` on copies of `X` stacked in order, as
        ``method(batcher.build(copies, donor))`` returns them (see
        ``batching``): in copy ``(rows, columns)``, row ``i`` takes `columns`
        from row ``rows[i]`` of X, or, with a `donor`, from donor row `rows`
        for every row. X and `donor` come from :meth:`as_model_input`.
        `n_threads` walk disjoint ranges of rows (the walks release the GIL;
        each row's sums are the same whatever the ranges). With `block_bytes`,
        copies of X's own rows are walked and made responses a block of rows
        at a time, holding about that many bytes besides the responses
        (predictions are row by row: the same bits).
        """
        tree_routing = _routing()

        if self.column_of is not None:
            copies = [(r, tuple(self.column_of[list(c)])) for r, c in copies]
        if donor is not None:
            raw = self._donated(tree_routing, X, copies, donor, n_threads)
            return self._responses(self._averaged(raw), methods)
        walk = _PermutedWalk(self, tree_routing.route_copies, X, copies, n_threads)
        n_rows = len(X)
        # The walk's buffers, and the block's responses until copied.
        widest = max(len(c) for _, c in copies)
        responses = 8 * self.n_outputs * len(methods)
        per_row = (self.bytes_per_copy(1, widest) + responses) * len(copies)
        blocks = row_blocks(n_rows, per_row, block_bytes)
        if len(blocks) <= 1:
            return self._responses(self._averaged(walk(0, n_rows)), methods)
        responses = None
        for low, high in blocks:
            block = self._responses(self._averaged(walk(low, high)), methods)
            if responses is None:
                responses = {
                    m: _empty_like(r, len(copies) * n_rows) for m, r in block.items()
                }
            for method, r in block.items():
                for b in range(len(copies)):
                    at = b * n_rows
                    responses[method][at + low : at + high] = r[
                        b * (high - low) : (b + 1) * (high - low)
                    ]
        return responses

    def _averaged(self, raw):
        """A forest's leaf sums divided by its trees, as its predict does."""
        if self.forest:
            raw /= self.n_trees
        return raw

    def _empty(self, n_rows, n_copies):
        """Leaf sums before the first tree, per row, output and copy (the
        copies side by side, as the walks add to them): what the model
        starts from."""
        shape = (n_rows, self.n_outputs, n_copies)
        return np.broadcast_to(self.start[:, :, None], shape).copy()

    def _walk_arguments(self):
        return (self.roots, self.outputs, self.nodes, self.bitsets,
                self.leaf_value, self.max_depth)  # fmt: skip

    @functools.cached_property
    def _tree_blocks(self):
        """Bounds of runs of consecutive trees whose nodes and leaf values
        fit in TREE_BLOCK_BYTES (at least one tree each), for
        :func:`route_copies`."""
        ends = np.append(self.roots[1:], len(self.nodes))
        node_bytes = self.nodes.strides[0] + self.leaf_value.strides[0]
        bounds, size = [0], 0
        for t, tree_bytes in enumerate((ends - self.roots) * node_bytes):
            if size and size + tree_bytes > TREE_BLOCK_BYTES:
                bounds.append(t)
                size = 0
            size += tree_bytes
        return np.array([*bounds, self.n_trees], dtype=np.int64)

    def _donated(self, routing, X, copies, donor, n_threads):
        """Leaf sums of copies whose columns take one donor row's values."""
        n_rows, n_outputs = X.shape[0], self.n_outputs
        stacked = np.empty((len(copies), n_rows, n_outputs))
        for columns in dict.fromkeys(tuple(c) for _, c in copies):
            blocks = [b for b, (_, c) in enumerate(copies) if tuple(c) == columns]
            rows = np.asarray([copies[b][0] for b in blocks])
            columns = np.asarray(columns, dtype=np.int64)
            values = donor[np.ix_(rows, columns)]
            # Per row and output, the copies side by side: the walks add a
            # leaf's value to the copies reaching it.
            out = self._empty(n_rows, len(blocks))
            if self._is_grid(columns, values):
                grid = np.ascontiguousarray(values[:, 0])

                def route(start, stop, column=columns[0], grid=grid, out=out):
                    routing.route_grid(
                        np.ascontiguousarray(X[start:stop].T), grid, column,
                        *self._walk_arguments(), out[start:stop],
                    )  # fmt: skip

            else:
                values = np.broadcast_to(
                    values[:, None, :], (len(blocks), n_rows, len(columns))
                )

                def route(start, stop, columns=columns, values=values, out=out):
                    routing.route_queries(
                        X[start:stop], columns, values[:, start:stop],
                        *self._walk_arguments(), out[start:stop],
                    )  # fmt: skip

            _in_row_ranges(n_rows, n_threads, route)
            stacked[blocks] = out.transpose(2, 0, 1)
        return stacked.reshape(len(copies) * n_rows, n_outputs)

    def _is_grid(self, columns, values):
        """Whether :func:`route_grid` may walk the values `values` of
        `columns`: one column, increasing, none missing, never tested by a
        categorical split."""
        if len(columns) != 1 or np.isnan(values).any():
            return False
        return bool(
            np.all(values[1:, 0] >= values[:-1, 0])
            and columns[0] not in self._categorical_columns
        )

    @functools.cached_property
    def _categorical_columns(self):
        """The columns some categorical split tests."""
        test = self.nodes[self.nodes[:, 0] != -1, 2]
        categorical = (test >> FLAGS_SHIFT) & CATEGORICAL != 0
        return set(np.unique(test[categorical] & ((1 << FLAGS_SHIFT) - 1)).tolist())

    def _responses(self, raw, methods):
        """What each of `methods` returns, from the leaf sums `raw` of shape
        (n_rows, n_outputs), by the model's own steps after its trees."""
        model, kind = self.model, type(self.model)
        boosting = kind in _GRADIENT_BOOSTING + _HIST_GRADIENT_BOOSTING
        if kind in _HIST_GRADIENT_BOOSTING:
            # Its raw predictions are Fortran-ordered: the softmax's sums over
            # classes then add in the same order.
            raw = np.asfortranarray(raw)
        if not self.classifier:
            if kind in _HIST_GRADIENT_BOOSTING:
                return {"predict": model._loss.link.inverse(raw.ravel())}
            if boosting or model.n_outputs_ == 1:
                return {"predict": raw.ravel() if boosting else raw[:, 0]}
            return {"predict": raw}
        decision = raw.ravel() if raw.shape[1] == 1 else raw
        responses = {}
        for method in methods:
            if method == "decision_function":
                responses[method] = decision
            elif method == "predict":
                responses[method] = model.classes_[self._encoded_classes(decision)]
            else:
                # A forest's leaf sums are its probabilities; boosting's loss
                # makes them (HistGradientBoosting passes the (n, 1) raw,
                # GradientBoosting the ravelled decision: it reads both alike).
                proba = raw
                if boosting:
                    proba = model._loss.predict_proba(
                        raw if kind in _HIST_GRADIENT_BOOSTING else decision
                    )
                responses[method] = (
                    proba if method == "predict_proba" else np.log(proba)
                )
        return responses

    def _encoded_classes(self, decision):
        kind = type(self.model)
        if (
            decision.ndim == 2
            or kind not in _GRADIENT_BOOSTING + _HIST_GRADIENT_BOOSTING
        ):
            return np.argmax(decision, axis=1)
        # Binary boosting: GradientBoosting predicts the positive class from
        # raw >= 0, HistGradientBoosting from raw > 0.
        if kind in _GRADIENT_BOOSTING:
            return (decision >= 0).astype(int)
        return (decision > 0).astype(int)


class _PermutedWalk:
    """Leaf sums of copies whose rows come from X itself, for a range of
    rows at a time: every group's copies in one walk per row and tree
    (:func:`route_copies`)."""

    def __init__(self, trees, route_copies, X, copies, n_threads):
        self.trees, self.route_copies, self.X = trees, route_copies, X
        self.copies, self.n_threads = copies, n_threads
        groups = {}
        for b, (_, columns) in enumerate(copies):
            groups.setdefault(tuple(columns), []).append(b)
        self.order = [b for blocks in groups.values() for b in blocks]
        self.group_start = np.cumsum([0] + [len(b) for b in groups.values()])
        self.group_start = self.group_start.astype(np.int64)
        position = np.full((len(groups), X.shape[1]), -1, dtype=np.int64)
        widths = []
        for g, columns in enumerate(groups):
            position[g, list(columns)] = np.arange(len(columns))
            widths += [len(columns)] * len(groups[columns])
        self.position, self.widths = position, widths
        # Column -> the groups holding it, as compressed rows.
        holds = position.T >= 0
        self.column_groups = np.nonzero(holds)[1].astype(np.int64)
        self.column_group_start = np.concatenate(
            [[0], np.cumsum(holds.sum(axis=1))]
        ).astype(np.int64)
        self.offset = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)

    def __call__(self, low, high):
        """Copy-major leaf sums of rows ``low:high`` of every copy, in the
        copies' own order, as the stacked copies are: shape
        ((high - low) * n_copies, n_outputs)."""
        trees, copies, n_rows = self.trees, self.copies, high - low
        X = self.X[low:high]
        # Row-major values of every copy's columns: a row's copies lie side by
        # side in memory, as the walk reads them.
        values = np.empty((n_rows, int(np.sum(self.widths))), dtype=X.dtype)
        for q, b in enumerate(self.order):
            rows, columns = copies[b]
            at = self.offset[q]
            values[:, at : at + len(columns)] = self.X[
                np.asarray(rows)[low:high, None], list(columns)
            ]
        out = trees._empty(n_rows, len(copies))

        def route(start, stop):
            self.route_copies(
                X, values, self.offset, self.group_start, self.position,
                self.column_groups, self.column_group_start,
                *trees._walk_arguments(), trees._tree_blocks, start, stop, out,
            )  # fmt: skip

        _in_row_ranges(n_rows, self.n_threads, route)
        stacked = np.empty((len(copies), n_rows, trees.n_outputs))
        stacked[self.order] = out.transpose(2, 0, 1)
        return stacked.reshape(len(copies) * n_rows, -1)


def _empty_like(response, n):
    """An empty array of `n` rows laid out as `response` is (Fortran order
    where the model returns it, as histogram boosting's probabilities), so
    that sums over it add as they would over the model's own."""
    order = (
        "F" if response.flags.f_contiguous and not response.flags.c_contiguous else "C"
    )
    return np.empty((n, *response.shape[1:]), response.dtype, order=order)


def _in_row_ranges(n_rows, n_threads, walk):
    """``walk(start, stop)`` over `n_threads` disjoint ranges of rows at once."""
    bounds = np.linspace(0, n_rows, max(1, min(n_threads, n_rows)) + 1).astype(int)
    if len(bounds) == 2:
        walk(0, n_rows)
        return
    with ThreadPoolExecutor(len(bounds) - 1) as pool:
        list(pool.map(walk, bounds[:-1], bounds[1:]))


def _gradient_boosting(model):
    """GradientBoosting*: stage by stage, tree k of a stage adding
    ``learning_rate * value`` to raw output k, from the initial model's raw
    prediction (one row: the constant initial models give every row the
    same)."""
    nodes = _Nodes()
    for stage in model.estimators_:
        for k, estimator in enumerate(stage):
            tree = estimator.tree_
            # predict_stages multiplies each leaf value in float64 as it adds.
            value = model.learning_rate * tree.value[:, 0, 0]
            nodes.add(tree.max_depth, tree.children_left, tree.children_right,
                      tree.feature, tree.threshold, tree.missing_go_to_left,
                      value, output=k)  # fmt: skip
    row = np.zeros((1, model.n_features_in_), dtype=np.float32)
    start = model._raw_predict_init(row)
    return TreeModel(model, nodes, start.shape[1], dtype=np.float32, start=start,
                     finite=True)  # fmt: skip


def _hist_gradient_boosting(model):
    """HistGradientBoosting*: iteration by iteration, predictor k of an
    iteration adding its leaf value to raw output k, from the baseline, on
    float64 input after the model's own categorical encoder."""
    known_sets, set_of_feature = model._bin_mapper.make_known_categories_bitsets()
    nodes = _Nodes()
    for iteration in model._predictors:
        for k, predictor in enumerate(iteration):
            n = predictor.nodes
            leaf = n["is_leaf"] != 0
            categorical = n["is_categorical"] != 0
            categories = None
            if categorical.any():
                at = np.flatnonzero(categorical)
                categories = (
                    categorical,
                    predictor.raw_left_cat_bitsets[n["bitset_idx"][at]],
                    known_sets[set_of_feature[n["feature_idx"][at]]],
                )
            nodes.add(
                n["depth"].max(),
                # uint32 children: -1 must not wrap around.
                np.where(leaf, -1, n["left"].astype(np.int64)),
                np.where(leaf, -1, n["right"].astype(np.int64)),
                n["feature_idx"], n["num_threshold"], n["missing_go_to_left"],
                n["value"], output=k, categories=categories,
            )  # fmt: skip
    # raw_predictions = zeros; raw_predictions += baseline.
    start = np.zeros_like(model._baseline_prediction) + model._baseline_prediction
    trees = TreeModel(model, nodes, start.shape[1], dtype=np.float64, start=start,
                      finite=False)  # fmt: skip
    if model._preprocessor is not None:
        trees.column_of = _encoded_columns(model._preprocessor)
    return trees


def _encoded_columns(preprocessor):
    """Raw column -> output column of histogram gradient boosting's own
    ColumnTransformer: an ordinal encoder for the categorical columns, a
    validation for the others, one output per input each, encoder first."""
    inputs = preprocessor._transformer_to_input_indices
    column_of = np.empty(preprocessor.n_features_in_, dtype=np.int64)
    for name, block in preprocessor.output_indices_.items():
        columns = inputs.get(name, [])
        column_of[list(columns)] = np.arange(block.start, block.stop)
    return column_of


def _methods_of(model):
    """The prediction methods the shortcut gives for `model`."""
    if type(model) not in _CLASSIFIERS:
        return {"predict"}
    return {m for m in _METHODS if hasattr(model, m)}


def unsupported(model, X, methods):
    """Why the tree shortcut cannot predict `model` on `X` (None if it can).
    X may be None when not known yet."""
    kind = type(model)
    if kind not in _SUPPORTED:
        return (
            f"{kind.__name__} is not one of scikit-learn's tree models "
            "(DecisionTree*, ExtraTree*, RandomForest*, ExtraTrees*, "
            "GradientBoosting*, HistGradientBoosting*)"
        )
    if kind in _CLASSIFIERS and getattr(model, "n_outputs_", 1) != 1:
        return "a multi-output classifier takes the generic path"
    if kind in _GRADIENT_BOOSTING:
        init = model.init_
        if not (
            (isinstance(init, str) and init == "zero")
            or init.get_params().get("strategy")
            in _CONSTANT_DUMMIES.get(type(init), ())
        ):
            return (
                f"its initial model ({type(init).__name__}) may predict each "
                "row differently"
            )
    needed = set(methods) - _methods_of(model)
    if needed:
        return f"the scorers need {', '.join(sorted(needed))}"
    if X is not None and sparse.issparse(X):
        return "the data reaching the trees is sparse"
    return None


def predicts_faster(model, algorithm="auto", columns=None, n_repeats=1):
    """Whether, under ``algorithm="auto"``, predicting stacked copies beats
    walking them: with the permuted `columns` (one tuple per feature or
    group) of a single tree, a forest or gradient boosting, where most copies
    would leave their row's path early (see :func:`detour_share`)."""
    if algorithm != "auto" or columns is None:
        return False
    kind = type(model)
    if kind in _FORESTS:
        trees = model.estimators_
    elif kind in _GRADIENT_BOOSTING:
        trees = model.estimators_.ravel()
    elif kind in _SINGLE_TREES:
        trees = [model]
    else:
        return False
    # Estimated on up to 16 of the trees, evenly spaced: a forest's trees
    # are alike, and all of a 100-tree forest's took 78 ms before its walk.
    trees = list(trees)[:: max(1, len(trees) // 16)]
    share = detour_share([e.tree_ for e in trees], columns)
    return DETOUR_COST * (share + 1 / (n_repeats * len(columns))) > 1


# What a node costs the walk's detours, in nodes a stacked predict walks
# (scikit-learn's Cython): 1.0 to 1.5 in three forests of benchmarks/trees.py
# (10,000 rows, 5 repeats; the walk's time over the generic path's against
# detour_share + 1 / (repeats x features): 0.19 -> 0.28, 0.21 -> 0.22, 0.53
# -> 0.72). The walk pays below a share of about 0.6. (Gradient boosting's
# shallow trees, share 0.06, walk in 0.49 of the generic path's time: the
# row's own path weighs more there, but the walk still pays.)
DETOUR_COST = 1.5


def detour_share(trees, columns):
    """The share of a row's path a permuted copy walks again: per tree and
    group of `columns`, the expected number of path nodes below the path's
    first split on the group (where a copy can leave it and walk a subtree of
    its own) over the expected path length, the expectations over the
    training rows (``weighted_n_node_samples``); averaged over the groups and
    trees. Near 0 when each feature is split on deep in few paths (many
    features), near 1 when every feature is split on near the root (deep
    trees over few features): the walk then costs a predict per copy and
    more."""
    # All trees' nodes side by side, children numbered in the whole: one
    # numpy step per depth for all of them. It runs before a widget's first
    # bars (16 trees of a 100-tree forest on 20,000 rows: 8.2 ms, 11.3 ms
    # tree by tree).
    starts = np.cumsum([0] + [tree.node_count for tree in trees])
    left, right, feature, reach = [], [], [], []
    for tree, at in zip(trees, starts, strict=False):
        left.append(np.where(tree.children_left == -1, -1, tree.children_left + at))
        right.append(np.where(tree.children_right == -1, -1, tree.children_right + at))
        feature.append(tree.feature)
        samples = tree.weighted_n_node_samples
        reach.append(samples / samples[0])
    left, right, feature, reach = map(np.concatenate, (left, right, feature, reach))
    inner = left != -1
    # member[f, g]: column f is in group g (columns beyond: none).
    n_columns = max(max(group) for group in columns) + 1
    member = np.zeros((max(n_columns, feature.max() + 1), len(columns)), bool)
    for g, group in enumerate(columns):
        member[list(group), g] = True
    # below[n, g]: node n lies under a split on group g. Level by level: a
    # node's children are numbered after it.
    below = np.zeros((len(left), len(columns)), bool)
    level = starts[:-1]
    while level.size:
        level = level[inner[level]]
        seen = below[level] | member[feature[level]]
        below[left[level]] = seen
        below[right[level]] = seen
        level = np.concatenate([left[level], right[level]])
    # Per tree: the expected path length, and per group the expected nodes
    # walked again (sums over each tree's inner nodes).
    on_paths = np.where(inner, reach, 0.0)
    path_length = np.add.reduceat(on_paths, starts[:-1])
    walked = np.add.reduceat(on_paths[:, None] * below, starts[:-1])
    kept = path_length > 0  # a single leaf: nothing to walk
    if not kept.any():
        return 0.0
    return float(np.mean(walked[kept].mean(axis=1) / path_length[kept]))


def tree_shortcut(algorithm, model, X, methods, donor=None, obstacle=None):
    """``(TreeModel, X, donor)`` as the trees read them where the shortcut
    applies to `model` on `X` (and `donor`), else None; with
    ``algorithm="tree"`` a ValueError says why not. `obstacle`: a reason of
    the caller's own (a custom scorer, the recursion method)."""
    if algorithm == "generic":
        return None
    reason = obstacle or unsupported(model, X, methods)
    if reason is None:
        trees = TreeModel.of(model, X, methods)
        X_in = trees.as_model_input(X)
        donor_in = None if donor is None else trees.as_model_input(donor)
        if X_in is not None and (donor is None or donor_in is not None):
            return trees, X_in, donor_in
        reason = "X holds NaN or infinity"
    if algorithm == "tree":
        raise ValueError(f"algorithm='tree': {reason}.")
    return None


def check_tree_algorithm(estimator, X, methods, obstacle=None):
    """For ``algorithm="tree"``, before any work: a ValueError unless the
    model (a column-wise pipeline's final step, if so) can take the shortcut."""
    view = columnwise_view(estimator, X.shape[1])
    model = estimator if view is None else view.model
    reason = obstacle or unsupported(model, X if view is None else None, methods)
    if reason is not None:
        raise ValueError(f"algorithm='tree': {reason}.")


def walks_needed(estimator):
    """Whether `estimator` (or a pipeline's final step) would take the tree
    shortcut while its compiled walks are not loaded in this process yet: the
    first shortcut call then compiles them (a few seconds, once per
    environment: numba caches them) or loads them from the cache."""
    import sys

    model = final_estimator(estimator)
    if type(model) not in _SUPPORTED:
        return False
    # The module may be half imported by another thread: then the walks are
    # needed, and load_walks waits for that import.
    routing = sys.modules.get(f"{__package__}.tree_routing")
    walks = [getattr(routing, name, None) for name in _WALKS]
    return not all(walk is not None and walk.signatures for walk in walks)


_ROUTING_LOCK = threading.Lock()
_WALKS = ("route_copies", "route_queries", "route_grid")


def _routing():
    """The walks' module. numba loads on first use, not with the package
    (0.2 s and more), and under a lock: two runs starting together (the
    views of a ModelInspector) could otherwise see it half imported."""
    with _ROUTING_LOCK:
        from . import tree_routing
    return tree_routing


def load_walks():
    """Compile (or load from numba's cache) the walks, on arrays of the very
    types the shortcut passes (float32 and float64 input), so that its first
    real call starts at once."""
    routing = _routing()
    route_copies, route_queries = routing.route_copies, routing.route_queries

    nodes = np.full((1, 4), -1, dtype=np.int64)  # one leaf
    bitsets = np.zeros((0, 2, 8), dtype=np.uint32)
    leaf_value = np.zeros((1, 1))
    one = np.zeros(1, dtype=np.int64)
    trees = (one, one, nodes, bitsets, leaf_value, 0)
    for dtype in (np.float32, np.float64):
        X = np.zeros((2, 1), dtype=dtype)  # two rows: a real broadcast
        grid_point = np.broadcast_to(X[:1, None, :], (1, 2, 1))
        route_queries(X, one, grid_point, *trees, np.zeros((2, 1, 1)))
        routing.route_grid(
            np.ascontiguousarray(X.T), X[:1, 0].copy(), 0, *trees, np.zeros((2, 1, 1))
        )
        route_copies(
            X, X.copy(), one, np.array([0, 1]), np.zeros((1, 1), dtype=np.int64),
            one, np.array([0, 1]), *trees, np.array([0, 1]), 0, 2,
            np.zeros((2, 1, 1)),
        )  # fmt: skip
