"""Predicting modified copies of X through a tree model without predicting them.

Permutation importance and partial dependence predict copies of X in which a
few columns (a feature, a group, a one-hot block) take other values. For
scikit-learn's trees and forests, ``route_queries`` walks each row through
each tree once with all of the row's copies (see ``tree_routing``), and this
module turns the leaf values into what the model's own ``predict``,
``predict_proba`` or ``predict_log_proba`` returns on the stacked copies, bit
for bit: the same float32 input, comparisons, leaf values, summation order
and division.

Used for DecisionTree*, ExtraTree*, RandomForest* and ExtraTrees* of
scikit-learn (exact types: a subclass may predict otherwise), single-output
classifiers and any regressor, on dense finite input; anything else takes
the generic path. A forest with ``n_jobs`` > 1 adds its trees in whatever
order its threads finish; we add them in order, as it does with one job.
"""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
from scipy import sparse
from sklearn.ensemble import (
    ExtraTreesClassifier,
    ExtraTreesRegressor,
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
_CLASSIFIERS = (
    DecisionTreeClassifier,
    ExtraTreeClassifier,
    RandomForestClassifier,
    ExtraTreesClassifier,
)
# Whatever is not here (decision_function, apply, ...) takes the generic path.
_METHODS = {"predict", "predict_proba", "predict_log_proba"}


class TreeModel:
    """A fitted tree model flattened for the walks of ``tree_routing``.

    Build with :meth:`of`, which returns None for a model or input the
    shortcut does not reproduce exactly.
    """

    def __init__(self, model, trees):
        self.model = model
        self.classifier = type(model) in _CLASSIFIERS
        self.forest = type(model) in _FORESTS
        self.n_trees = len(trees)
        sizes = [tree.node_count for tree in trees]
        offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
        self.roots = offsets

        # One row per node (see tree_routing): children (indices into the
        # stacked nodes, -1 at a leaf), feature, threshold's float64 bits.
        self.nodes = np.empty((int(np.sum(sizes)), 4), dtype=np.int64)
        for tree, start in zip(trees, offsets, strict=True):
            block = self.nodes[start : start + tree.node_count]
            for column, children in enumerate(
                (tree.children_left, tree.children_right)
            ):
                block[:, column] = np.where(children == -1, -1, children + start)
            block[:, 2] = tree.feature
            block[:, 3] = np.asarray(tree.threshold, np.float64).view(np.int64)
        self.nan_left = np.concatenate(
            [np.asarray(t.missing_go_to_left, np.uint8) for t in trees]
        )
        if self.classifier:
            # tree_.value holds class fractions: predict_proba's rows.
            n_classes = int(model.n_classes_)
            values = [t.value[:, 0, :n_classes] for t in trees]
        else:
            values = [t.value[:, :, 0] for t in trees]
        self.leaf_value = np.ascontiguousarray(np.concatenate(values), np.float64)
        self.max_depth = int(max(t.max_depth for t in trees))

    @classmethod
    def of(cls, model, X, methods):
        """The flattened `model`, or None where the shortcut does not apply
        (:func:`unsupported` says why)."""
        if unsupported(model, X, methods) is not None:
            return None
        if type(model) in _FORESTS:
            return cls(model, [estimator.tree_ for estimator in model.estimators_])
        return cls(model, [model.tree_])

    def bytes_per_copy(self, n_rows, n_columns=1):
        """Memory one copy costs the shortcut: the values of its columns, its
        leaf sums (twice, while reordered) and the responses made of them."""
        return n_rows * (4 * n_columns + 24 * self.leaf_value.shape[1])

    def as_float32(self, X):
        """X as the model sees it (float32, C order as the walk reads rows),
        or None if it holds NaN or infinity: the model's own checks then
        decide, on the generic path."""
        X = check_array(X, dtype=np.float32, ensure_all_finite=False, order="C")
        return X if np.isfinite(X).all() else None

    def predict(self, X, copies, methods, donor=None, n_threads=1):
        """The model's `methods` on copies of `X` stacked in order, as
        ``method(batcher.build(copies, donor))`` returns them (see
        ``batching``): in copy ``(rows, columns)``, row ``i`` takes `columns`
        from row ``rows[i]`` of X, or, with a `donor`, from donor row `rows`
        for every row. X and `donor` come from :meth:`as_float32`.
        """
        # numba loads on first use, not with the package (0.2 s and more).
        from . import tree_routing

        if donor is None:
            out = self._permuted(tree_routing.route_copies, X, copies, n_threads)
        else:
            out = self._donated(tree_routing.route_queries, X, copies, donor)
        if self.forest:
            out /= self.n_trees
        return self._responses(out, methods)

    def _empty(self, shape):
        # A forest's predict adds its trees into zeros; -0.0 is the exact
        # identity of addition, so a single tree's leaf value comes out as is.
        return np.full(shape, 0.0 if self.forest else -0.0)

    def _permuted(self, route_copies, X, copies, n_threads):
        """Leaf sums of copies whose rows come from X itself: every group's
        copies in one walk per row and tree (:func:`route_copies`)."""
        n_rows, n_columns = X.shape
        groups = {}
        for b, (_, columns) in enumerate(copies):
            groups.setdefault(tuple(columns), []).append(b)
        order = [b for blocks in groups.values() for b in blocks]
        group_start = np.cumsum([0] + [len(b) for b in groups.values()])
        position = np.full((len(groups), n_columns), -1, dtype=np.int64)
        widths = []
        for g, columns in enumerate(groups):
            position[g, list(columns)] = np.arange(len(columns))
            widths += [len(columns)] * len(groups[columns])
        # Column -> the groups holding it, as compressed rows.
        holds = position.T >= 0
        column_groups = np.nonzero(holds)[1].astype(np.int64)
        column_group_start = np.concatenate([[0], np.cumsum(holds.sum(axis=1))])
        # Row-major values of every copy's columns: a row's copies lie side by
        # side in memory, as the walk reads them.
        offset = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)
        values = np.empty((n_rows, int(np.sum(widths))), dtype=np.float32)
        for q, b in enumerate(order):
            rows, columns = copies[b]
            values[:, offset[q] : offset[q] + len(columns)] = X[
                np.asarray(rows)[:, None], list(columns)
            ]
        out = self._empty((n_rows, len(copies), self.leaf_value.shape[1]))
        bounds = np.linspace(0, n_rows, max(1, min(n_threads, n_rows)) + 1)
        ranges = list(zip(bounds[:-1].astype(int), bounds[1:].astype(int), strict=True))

        def route(rows):
            route_copies(
                X, values, offset, group_start.astype(np.int64), position,
                column_groups, column_group_start.astype(np.int64), self.roots,
                self.nodes, self.nan_left, self.leaf_value, self.max_depth,
                rows[0], rows[1], out,
            )  # fmt: skip

        if len(ranges) == 1:
            route(ranges[0])
        else:
            with ThreadPoolExecutor(len(ranges)) as pool:
                list(pool.map(route, ranges))
        # Copy-major, in the copies' own order, as the stacked copies are.
        stacked = np.empty((len(copies), n_rows, out.shape[2]))
        stacked[order] = out.transpose(1, 0, 2)
        return stacked.reshape(len(copies) * n_rows, -1)

    def _donated(self, route_queries, X, copies, donor):
        """Leaf sums of copies whose columns take one donor row's values."""
        n_rows, n_outputs = X.shape[0], self.leaf_value.shape[1]
        stacked = np.empty((len(copies), n_rows, n_outputs))
        for columns in dict.fromkeys(tuple(c) for _, c in copies):
            blocks = [b for b, (_, c) in enumerate(copies) if tuple(c) == columns]
            rows = np.asarray([copies[b][0] for b in blocks])
            columns = np.asarray(columns, dtype=np.int64)
            values = donor[np.ix_(rows, columns)][:, None, :]
            values = np.broadcast_to(values, (len(blocks), n_rows, len(columns)))
            # Row-major: a row's copies side by side, as the walk adds to them.
            out = self._empty((n_rows, len(blocks), n_outputs))
            route_queries(
                X, columns, values, self.roots, self.nodes, self.nan_left,
                self.leaf_value, self.max_depth, out,
            )  # fmt: skip
            stacked[blocks] = out.transpose(1, 0, 2)
        return stacked.reshape(len(copies) * n_rows, n_outputs)

    def _responses(self, out, methods):
        model, responses = self.model, {}
        if not self.classifier:
            responses["predict"] = out[:, 0] if model.n_outputs_ == 1 else out
            return responses
        for method in methods:
            if method == "predict_proba":
                responses[method] = out
            elif method == "predict_log_proba":
                responses[method] = np.log(out)
            else:
                responses[method] = model.classes_.take(np.argmax(out, axis=1), axis=0)
        return responses


def unsupported(model, X, methods):
    """Why the tree shortcut cannot predict `model` on `X` (None if it can).
    X may be None when not known yet."""
    kind = type(model)
    if kind not in _SINGLE_TREES + _FORESTS:
        return (
            f"{kind.__name__} is not one of scikit-learn's trees or forests "
            "(DecisionTree*, ExtraTree*, RandomForest*, ExtraTrees*)"
        )
    if kind in _CLASSIFIERS and model.n_outputs_ != 1:
        return "a multi-output classifier takes the generic path"
    if not set(methods) <= _METHODS:
        return f"the scorers need {', '.join(sorted(set(methods) - _METHODS))}"
    if X is not None and sparse.issparse(X):
        return "the data reaching the trees is sparse"
    return None


def tree_shortcut(algorithm, model, X, methods, donor=None, obstacle=None):
    """``(TreeModel, X, donor)`` as the trees see them (float32) where the
    shortcut applies to `model` on `X` (and `donor`), else None; with
    ``algorithm="tree"`` a ValueError says why not. `obstacle`: a reason of
    the caller's own (a custom scorer, the recursion method)."""
    if algorithm == "generic":
        return None
    reason = obstacle or unsupported(model, X, methods)
    if reason is None:
        trees = TreeModel.of(model, X, methods)
        X32 = trees.as_float32(X)
        donor32 = None if donor is None else trees.as_float32(donor)
        if X32 is not None and (donor is None or donor32 is not None):
            return trees, X32, donor32
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
    if type(model) not in _SINGLE_TREES + _FORESTS:
        return False
    routing = sys.modules.get(f"{__package__}.tree_routing")
    return routing is None or not (
        routing.route_copies.signatures and routing.route_queries.signatures
    )


def load_walks():
    """Compile (or load from numba's cache) the walks, on arrays of the very
    types the shortcut passes, so that its first real call starts at once."""
    from .tree_routing import route_copies, route_queries

    X = np.zeros((2, 1), dtype=np.float32)  # two rows: a real broadcast
    nodes = np.full((1, 4), -1, dtype=np.int64)  # one leaf
    nan_left = np.zeros(1, dtype=np.uint8)
    leaf_value = np.zeros((1, 1))
    one = np.zeros(1, dtype=np.int64)
    grid_point = np.broadcast_to(X[:1, None, :], (1, 2, 1))
    route_queries(
        X, one, grid_point, one, nodes, nan_left, leaf_value, 0,
        np.zeros((2, 1, 1)),
    )  # fmt: skip
    route_copies(
        X, X.copy(), one, np.array([0, 1]), np.zeros((1, 1), dtype=np.int64), one,
        np.array([0, 1]), one, nodes, nan_left, leaf_value, 0, 0, 2,
        np.zeros((2, 1, 1)),
    )  # fmt: skip
