"""Leaf sums of a flattened tree model turned into its responses.

``TreeModel.predict`` lands here: the copies are walked (``routing``),
a block of rows at a time where memory asks, on threads taking disjoint
ranges of rows, and the leaf sums become what the model's own ``predict``,
``predict_proba``, ``predict_log_proba`` or ``decision_function`` returns on
the stacked copies, by the model's own steps after its trees.
"""

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .kinds import GRADIENT_BOOSTING, HIST_GRADIENT_BOOSTING
from .nodes import CopyLayout
from .walks import routing

# What the tree shortcut holds for a block of rows of a chunk (the walk's leaf
# sums, their copy-major copy and the responses made of them; at most half of
# max_memory), so that a chunk holds its copies' responses and little else:
# partial dependence's 50 grid points over 100,000 rows take one walk instead
# of four (benchmarks/results/trees.md).
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


def predict(trees, X, copies, methods, donor, n_threads, block_bytes):
    """:meth:`TreeModel.predict <.models.TreeModel.predict>` of
    `trees`."""
    walks = routing()

    if trees.column_of is not None:
        copies = [(r, tuple(trees.column_of[list(c)])) for r, c in copies]
    if donor is not None:
        raw = _donated(trees, walks, X, copies, donor, n_threads)
        return trees.responses(trees._averaged(raw), methods)
    walk = _PermutedWalk(trees, walks.route_copies, X, copies, n_threads)
    n_rows = len(X)
    # The walk's buffers, and the block's responses until copied.
    widest = max(len(c) for _, c in copies)
    responses = 8 * trees.n_outputs * len(methods)
    per_row = (trees.bytes_per_copy(1, widest) + responses) * len(copies)
    blocks = row_blocks(n_rows, per_row, block_bytes)
    if len(blocks) <= 1:
        return trees.responses(trees._averaged(walk(0, n_rows)), methods)
    responses = None
    for low, high in blocks:
        block = trees.responses(trees._averaged(walk(low, high)), methods)
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


def _donated(trees, routing, X, copies, donor, n_threads):
    """Leaf sums of copies whose columns take one donor row's values."""
    n_rows, n_outputs = X.shape[0], trees.n_outputs
    # In the sums' own dtype (XGBoost's float32 margins stay float32).
    stacked = np.empty((len(copies), n_rows, n_outputs), dtype=trees.start.dtype)
    walks = []
    for columns in dict.fromkeys(tuple(c) for _, c in copies):
        blocks = [b for b, (_, c) in enumerate(copies) if tuple(c) == columns]
        rows = np.asarray([copies[b][0] for b in blocks])
        columns = np.asarray(columns, dtype=np.int64)
        values = donor[np.ix_(rows, columns)]
        # Per row and output, the copies side by side: the walks add a
        # leaf's value to the copies reaching it.
        out = trees._empty(n_rows, len(blocks))
        if trees._is_grid(columns, values):
            grid = np.ascontiguousarray(values[:, 0])

            def route(start, stop, column=columns[0], grid=grid, out=out):
                routing.route_grid(
                    np.ascontiguousarray(X[start:stop].T), grid, column,
                    trees.walk_trees, out[start:stop],
                )  # fmt: skip

        else:
            # Column by column, the copies side by side.
            values = np.ascontiguousarray(values.T)

            def route(start, stop, columns=columns, values=values, out=out):
                routing.route_queries(
                    X[start:stop], columns, values, trees.walk_trees, out[start:stop]
                )

        walks.append((route, blocks, out))

    # Each thread takes its range of rows through every columns' walk (one
    # pool for them all: several features' grids, as the overview has,
    # would otherwise start a pool each).
    def route_all(start, stop):
        for route, _, _ in walks:
            route(start, stop)

    _in_row_ranges(n_rows, n_threads, route_all)
    for _, blocks, out in walks:
        stacked[blocks] = out.transpose(2, 0, 1)
    return stacked.reshape(len(copies) * n_rows, n_outputs)


def leaf_responses(trees, raw, methods):
    """What each of `methods` returns, from the leaf sums `raw` of shape
    (n_rows, n_outputs), by the model's own steps after its trees."""
    if trees.flavour is not None:  # another library's (``lightgbm``)
        return trees.flavour.responses(raw, methods)
    model, kind = trees.model, type(trees.model)
    boosting = kind in GRADIENT_BOOSTING + HIST_GRADIENT_BOOSTING
    if kind in HIST_GRADIENT_BOOSTING:
        # Its raw predictions are Fortran-ordered: the softmax's sums over
        # classes then add in the same order.
        raw = np.asfortranarray(raw)
    if not trees.classifier:
        if kind in HIST_GRADIENT_BOOSTING:
            return {"predict": trees.link(raw.ravel())}
        if boosting or model.n_outputs_ == 1:
            return {"predict": raw.ravel() if boosting else raw[:, 0]}
        return {"predict": raw}
    decision = raw.ravel() if raw.shape[1] == 1 else raw
    responses = {}
    for method in methods:
        if method == "decision_function":
            responses[method] = decision
        elif method == "predict":
            responses[method] = model.classes_[_encoded_classes(trees, decision)]
        else:
            # A forest's leaf sums are its probabilities; boosting's loss
            # makes them (HistGradientBoosting passes the (n, 1) raw,
            # GradientBoosting the ravelled decision: it reads both alike).
            proba = raw
            if boosting:
                proba = trees.link(raw if kind in HIST_GRADIENT_BOOSTING else decision)
            responses[method] = proba if method == "predict_proba" else np.log(proba)
    return responses


def _encoded_classes(trees, decision):
    kind = type(trees.model)
    if decision.ndim == 2 or kind not in GRADIENT_BOOSTING + HIST_GRADIENT_BOOSTING:
        return np.argmax(decision, axis=1)
    # Binary boosting: GradientBoosting predicts the positive class from
    # raw >= 0, HistGradientBoosting from raw > 0.
    if kind in GRADIENT_BOOSTING:
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
        layout = CopyLayout(values, self.offset, self.group_start, self.position,
                            self.column_groups, self.column_group_start)  # fmt: skip

        def route(start, stop):
            self.route_copies(
                X, layout, trees.walk_trees, trees._tree_blocks, start, stop, out
            )

        _in_row_ranges(n_rows, self.n_threads, route)
        stacked = np.empty((len(copies), n_rows, trees.n_outputs), out.dtype)
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
