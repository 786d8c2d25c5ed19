"""The compiled walks behind the tree shortcut (see ``models``).

A copy of X in which only a few columns change is, for every tree, the same
walk as X itself except at nodes that split on a changed column. So each row
walks each tree once, carrying all its copies (the "queries"): at a node on an
unchanged column they all go the same way; at a node on a changed column they
are partitioned by the same comparison the tree makes (:func:`_partition`),
and each part goes on. Every query ends in exactly the leaf a prediction would
reach, at a cost close to one prediction per row instead of one per copy.

Three walks: :func:`route_grid` for a grid of values of one column, the same
for every row (partial dependence's grid points), taking all rows down each
tree at once; :func:`route_queries` for other copies whose values are the same
for every row (2-way grids, categories, missing values), starting all of them
at the root, row by row; :func:`route_copies` for copies whose values differ by
row (permutations), following the row's own path. One walk could do the last
two, but was slower on partial dependence (benchmarks/results/trees.md).

Invariants of every walk:

- Input dtype. X and every value a copy takes are in the model's own input
  dtype, as ``TreeModel.as_model_input`` makes them: float32 for
  scikit-learn's trees, forests and gradient boosting (their ``check_array``),
  float64 for histogram gradient boosting (after its own encoder). A value is
  compared as the model's Cython compares it: widened to float64, ``<=`` the
  float64 threshold (:func:`_sends_left`).
- Summation order. ``out`` starts from what the model starts from
  (``TreeModel.start``); each tree adds its leaf value to every copy reaching
  that leaf, trees in the model's order for every output, as its predict adds
  them. Walks reorder copies, rows and blocks of trees, never the trees a sum
  receives: each copy gets one leaf a tree.
- Stack bound. A pending part is pushed only at a split, for the child not
  taken: at a node of depth d (root at 0) at most d parts are pending, and
  splits lie above the deepest leaf, at ``max_depth``. So ``max_depth + 1``
  rows hold them and the root's; the stacks keep one more, a free margin.

The walks take the trees as ``nodes.WalkTrees`` and unpack them once:
helpers called per node take arrays, since numba counts an array taken out of
a tuple, or a slice, in and out at every use. The compiled code holds
``nodes``' constants: ``kernels.compiled`` keys numba's cache on that file
too, so changing them compiles the walks again.
"""

import numpy as np

from ..kernels import compiled
from .nodes import (
    CATEGORICAL,
    FEATURE,
    FEATURE_MASK,
    FLAGS_SHIFT,
    LEFT,
    NAN_LEFT,
    RIGHT,
    THRESHOLD,
    TREE_BLOCK_BYTES,
)


@compiled(nogil=True, inline="always")
def _test(node, nodes, thresholds):
    """The test at split `node`: its flags and its threshold. A loop
    partitioning many values reads them once, before it: its stores might
    alias the node arrays, so the compiler would read them again for every
    value."""
    return nodes[node, FEATURE] >> FLAGS_SHIFT, thresholds[node, THRESHOLD]


@compiled(nogil=True, inline="always")
def _sends_left(value, flag, limit, node, nodes, bitsets):
    """The model's rule at `node`, whose test :func:`_test` read: ``value <=
    limit`` in float64 (a float32 value widened, as scikit-learn's trees
    compare), NaN by the node's learned direction; or, at a categorical split
    of a histogram gradient boosting model, its predictor's test: the
    category's bit in the node's left set, else in the feature's known set
    (right), else missing."""
    if flag == 0:  # most nodes: NaN compares false, so goes right
        return value <= limit
    if np.isnan(value):
        return flag & NAN_LEFT != 0
    if flag & CATEGORICAL == 0:
        return value <= limit
    if value < 0:
        return flag & NAN_LEFT != 0
    # Its Cython casts the value to uint8: categories are ordinal codes below
    # max_bins (<= 255), so truncation keeps them.
    code = np.int64(value) & 255
    word, bit = code >> 5, code & 31
    sets = bitsets[nodes[node, THRESHOLD]]
    if (sets[0, word] >> bit) & 1:
        return True
    if (sets[1, word] >> bit) & 1:
        return False
    return flag & NAN_LEFT != 0


@compiled(nogil=True, inline="always")
def _goes_left(value, node, nodes, thresholds, bitsets):
    """Whether `node` sends one `value` left (:func:`_sends_left`)."""
    flag, limit = _test(node, nodes, thresholds)
    return _sends_left(value, flag, limit, node, nodes, bitsets)


@compiled(nogil=True, inline="always")
def _partition(order, lo, hi, values, row, at, shift, test, node, nodes, bitsets,
               side_first):  # fmt: skip
    """Reorder ``order[lo:hi]`` so that the queries `node` sends to
    `side_first` (True: left) come first; return where the others start.
    `test`: the node's, as :func:`_test` read it. Query `q`'s value is
    ``values[row, q]``, or ``values[row, at[q] + shift]`` with `at` (None
    compiles the first form alone). Indices, not a slice of `values`: a slice
    is a new array, counted in and out at every node."""
    flag, limit = test
    mid = lo
    for j in range(lo, hi):
        q = order[j]
        value = values[row, q] if at is None else values[row, at[q] + shift]
        first = _sends_left(value, flag, limit, node, nodes, bitsets) == side_first
        # Branch-free (Lomuto): the sides are unpredictable.
        order[j] = order[mid]
        order[mid] = q
        mid += first
    return mid


@compiled(nogil=True, inline="always")
def _push(stack, top, node, lo, hi, low_point, high_point):
    """Put a part pending for :func:`route_grid` at `top` of its stack."""
    stack[top, 0], stack[top, 1], stack[top, 2] = node, lo, hi
    stack[top, 3], stack[top, 4] = low_point, high_point


# Longer than most functions, a third of it docstring: one loop nest over
# trees and pending parts, whose state (stack, node, rows and points) every
# step reads; the steps that need no more are helpers (_partition, _push).
@compiled(nogil=True)
def route_grid(Xt, grid, column, trees, out):
    """Every grid point's leaf values for every row, added tree by tree into
    `out`: the rows go down each tree together, split by the tree's own test
    at a node on another column (a partition of their indices) and all of
    them both ways at a node on `column`, with the grid points on each side
    of its threshold (a bisection). So a node's arrays are read once per
    tree and rows, not once per row, and the rows' tests stream.

    Parameters
    ----------
    Xt : float32 or float64 array of shape (n_columns, n_rows)
        The rows the copies are made of, transposed: a node's partition reads
        one column's values, contiguous.
    grid : array of shape (n_points,)
        The values `column` takes, increasing, none missing, in X's dtype;
        no categorical split tests `column`.
    column : int
        The column the grid replaces.
    trees : WalkTrees
        The trees (see ``nodes``).
    out : float64 array of shape (n_rows, n_outputs, n_points)
        Where the leaf values are added, onto what the model starts from.
        A leaf's value is added to the points reaching it, which lie side by
        side here.
    """
    roots, outputs, nodes, bitsets, leaf_value, max_depth = trees
    thresholds = nodes.view(np.float64)
    n_rows = Xt.shape[1]
    width = leaf_value.shape[1]
    rows = np.empty(n_rows, dtype=np.int64)
    # Pending parts: node, rows lo:hi (of `rows`), grid points lo:hi.
    stack = np.empty((max_depth + 2, 5), dtype=np.int64)
    for t in range(roots.shape[0]):
        for r in range(n_rows):
            rows[r] = r
        _push(stack, 0, roots[t], 0, n_rows, 0, grid.shape[0])
        top = 1
        while top > 0:
            top -= 1
            node, lo, hi = stack[top, 0], stack[top, 1], stack[top, 2]
            low_point, high_point = stack[top, 3], stack[top, 4]
            while nodes[node, LEFT] != -1:
                f = nodes[node, FEATURE] & FEATURE_MASK
                if f == column:
                    # The first point sent right, by bisection.
                    a, b = low_point, high_point
                    while a < b:
                        half = (a + b) >> 1
                        if grid[half] <= thresholds[node, THRESHOLD]:
                            a = half + 1
                        else:
                            b = half
                    if a == low_point:
                        node = nodes[node, RIGHT]
                    elif a == high_point:
                        node = nodes[node, LEFT]
                    else:
                        # Both sides take every row: the left one reorders
                        # them within lo:hi only, so the set stays the same.
                        _push(stack, top, nodes[node, RIGHT], lo, hi, a, high_point)
                        top += 1
                        node, high_point = nodes[node, LEFT], a
                    continue
                test = _test(node, nodes, thresholds)
                mid = _partition(
                    rows, lo, hi, Xt, f, None, 0, test, node, nodes, bitsets, True
                )
                if mid == lo:
                    node = nodes[node, RIGHT]
                elif mid == hi:
                    node = nodes[node, LEFT]
                else:
                    _push(
                        stack, top, nodes[node, RIGHT], mid, hi, low_point, high_point
                    )
                    top += 1
                    node, hi = nodes[node, LEFT], mid
            first = outputs[t]
            for k in range(width):
                value = leaf_value[node, k]
                for j in range(lo, hi):
                    sums = out[rows[j], first + k]
                    for q in range(low_point, high_point):  # side by side
                        sums[q] += value


# As route_grid: one loop nest, its steps in helpers; a third is docstring.
@compiled(nogil=True)
def route_queries(X, columns, values, trees, out):
    """Every query's leaf values, added tree by tree into `out`.

    Parameters
    ----------
    X : float32 or float64 array of shape (n_rows, n_columns)
        The rows the copies are made of.
    columns : int64 array of shape (n_changed,)
        The columns a copy changes.
    values : array of shape (n_changed, n_queries), X's dtype
        ``values[c, q]``: changed column `c`'s value in copy `q`, the same for
        every row.
    trees : WalkTrees
        The trees (see ``nodes``).
    out : float64 array of shape (n_rows, n_outputs, n_queries)
        Where the trees' leaf values are added, in order, onto what the
        model starts from (see ``TreeModel.start``).
    """
    roots, outputs, nodes, bitsets, leaf_value, max_depth = trees
    thresholds = nodes.view(np.float64)
    n_rows = X.shape[0]
    n_queries = values.shape[1]
    width = leaf_value.shape[1]
    changed = np.full(X.shape[1], -1, dtype=np.int64)
    for c in range(columns.shape[0]):
        changed[columns[c]] = c
    order = np.empty(n_queries, dtype=np.int64)
    stack_node = np.empty(max_depth + 2, dtype=np.int64)
    stack_lo = np.empty(max_depth + 2, dtype=np.int64)
    stack_hi = np.empty(max_depth + 2, dtype=np.int64)
    # Trees outer, rows inner: a tree's nodes stay in cache across the rows,
    # and every output still receives the trees in the model's order.
    for t in range(roots.shape[0]):
        for i in range(n_rows):
            for q in range(n_queries):
                order[q] = q
            stack_node[0], stack_lo[0], stack_hi[0] = roots[t], 0, n_queries
            top = 1
            while top > 0:
                top -= 1
                node, lo, hi = stack_node[top], stack_lo[top], stack_hi[top]
                while nodes[node, LEFT] != -1:
                    f = nodes[node, FEATURE] & FEATURE_MASK
                    c = changed[f]
                    if c < 0:
                        go_left = _goes_left(X[i, f], node, nodes, thresholds, bitsets)
                        node = nodes[node, LEFT] if go_left else nodes[node, RIGHT]
                        continue
                    test = _test(node, nodes, thresholds)
                    mid = _partition(
                        order, lo, hi, values, c, None, 0, test, node, nodes,
                        bitsets, True,
                    )  # fmt: skip
                    if mid == lo:
                        node = nodes[node, RIGHT]
                    elif mid == hi:
                        node = nodes[node, LEFT]
                    else:
                        stack_node[top], stack_lo[top], stack_hi[top] = (
                            nodes[node, RIGHT], mid, hi,
                        )  # fmt: skip
                        top += 1
                        node, hi = nodes[node, LEFT], mid
                first = outputs[t]
                for k in range(width):
                    value = leaf_value[node, k]
                    sums = out[i, first + k]
                    for j in range(lo, hi):
                        sums[order[j]] += value


# Inlined into route_copies: a call per detour was slower. Its arrays come
# one by one, not bundled as the walks take them: taken out of a tuple, each
# is counted in and out at every detour.
@compiled(nogil=True, inline="always")
def _route_rows(
    X, i, g, node, lo, hi, first, values, offset, position, nodes, thresholds,
    bitsets, leaf_value, order, stack, on_path, out,
):  # fmt: skip
    """Route the copies ``order[lo:hi]`` of row `i`, all of group `g`, from
    `node` down to their leaves, add the leaf values to their sums in
    ``out[i]`` from output `first` on and mark them off the path (the arrays
    are :func:`route_copies`')."""
    stack[0, 0], stack[0, 1], stack[0, 2] = node, lo, hi
    top = 1
    while top > 0:
        top -= 1
        node, lo, hi = stack[top, 0], stack[top, 1], stack[top, 2]
        while nodes[node, LEFT] != -1:
            f = nodes[node, FEATURE] & FEATURE_MASK
            at = position[g, f]
            if at < 0:
                go_left = _goes_left(X[i, f], node, nodes, thresholds, bitsets)
                node = nodes[node, LEFT] if go_left else nodes[node, RIGHT]
                continue
            test = _test(node, nodes, thresholds)
            mid = _partition(
                order, lo, hi, values, i, offset, at, test, node, nodes, bitsets,
                True,
            )  # fmt: skip
            if mid == lo:
                node = nodes[node, RIGHT]
            elif mid == hi:
                node = nodes[node, LEFT]
            else:
                stack[top, 0], stack[top, 1], stack[top, 2] = (
                    nodes[node, RIGHT],
                    mid,
                    hi,
                )
                top += 1
                node, hi = nodes[node, LEFT], mid
        for j in range(lo, hi):
            on_path[order[j]] = False
        for k in range(leaf_value.shape[1]):
            value = leaf_value[node, k]
            sums = out[i, first + k]
            for j in range(lo, hi):
                sums[order[j]] += value


# The walk's loops nest five deep (tree blocks, row blocks, trees, rows, the
# path's nodes) around the partition of each group's copies: split up, the
# state they share (order, on_path_end, the path's test) would travel through
# every call.
@compiled(nogil=True)
def route_copies(X, copies, trees, tree_blocks, row_start, row_stop, out):
    """Leaf values of modified copies of X, added tree by tree into `out`.

    `copies` is a ``nodes.CopyLayout``. Copies ``group_start[g]:
    group_start[g + 1]`` belong to group `g`; column `f` is the group's
    ``position[g, f]``-th column (-1: not in the group), and in copy `q` it
    holds ``values[i, offset[q] + position[g, f]]`` at row `i` (`values` in
    X's dtype). The groups holding column `f` are ``column_groups[
    column_group_start[f]:column_group_start[f + 1]]``.

    Each row walks each tree's own path once. Every copy follows it until a
    node on one of its group's columns sends it the other way; only then does
    it walk a subtree of its own (:func:`_route_rows`). Copies that never
    leave the path end in the row's own leaf. So the work per row and tree is
    one path plus the copies' detours, not one path per copy.

    Trees ``tree_blocks[b]:tree_blocks[b + 1]`` are walked before the next
    block, so their nodes stay in a core's cache while all the rows walk them
    (a forest's trees took their nodes from memory again for every block of
    rows); every copy still receives the trees in order.

    Rows ``row_start:row_stop`` only (threads take disjoint ranges); `out` has
    shape (n_rows, n_outputs, n_copies), initialized as for
    :func:`route_queries`.
    """
    roots, outputs, nodes, bitsets, leaf_value, max_depth = trees
    thresholds = nodes.view(np.float64)
    values, offset, group_start, position, column_groups, column_group_start = copies
    n_groups = group_start.shape[0] - 1
    n_copies = offset.shape[0]
    width = leaf_value.shape[1]
    # Each group's copies stay within its own range of `order`; walks only
    # reorder them there, so no row needs a fresh order.
    order = np.arange(n_copies)
    on_path_end = np.empty(n_groups, dtype=np.int64)
    stack = np.empty((max_depth + 2, 3), dtype=np.int64)
    # Which copies end in the row's own leaf: they get its value together.
    on_path = np.empty(n_copies, dtype=np.bool_)
    # Rows in blocks whose values and sums stay in a core's cache while the
    # block's trees walk them, tree after tree (a tree's branches then repeat
    # from row to row).
    rows = max(16, TREE_BLOCK_BYTES // (8 * (values.shape[1] + n_copies * width + 1)))
    for b in range(tree_blocks.shape[0] - 1):
        for block_start in range(row_start, row_stop, rows):
            block_stop = min(block_start + rows, row_stop)
            for t in range(tree_blocks[b], tree_blocks[b + 1]):
                first = outputs[t]
                for i in range(block_start, block_stop):
                    for g in range(n_groups):
                        on_path_end[g] = group_start[g + 1]
                    on_path[:] = True
                    # Down the row's own path: at a node on a group's column, the
                    # group's copies still on the path that go the other way leave
                    # it and walk their own subtree. Each copy gets one leaf a
                    # tree, so the order copies reach theirs in changes no sum.
                    # A branch, not a select, where the test decides: the
                    # processor goes on down its guess instead of waiting
                    # for the test.
                    node = roots[t]
                    while True:
                        left = nodes[node, LEFT]
                        if left == -1:
                            break
                        f = nodes[node, FEATURE] & FEATURE_MASK
                        test = _test(node, nodes, thresholds)
                        flag, limit = test
                        go_left = _sends_left(
                            X[i, f], flag, limit, node, nodes, bitsets
                        )
                        for held in range(
                            column_group_start[f], column_group_start[f + 1]
                        ):
                            g = column_groups[held]
                            lo, hi = group_start[g], on_path_end[g]
                            keep = _partition(
                                order, lo, hi, values, i, offset, position[g, f],
                                test, node, nodes, bitsets, go_left,
                            )  # fmt: skip
                            if keep < hi:
                                other = nodes[node, RIGHT] if go_left else left
                                _route_rows(
                                    X, i, g, other, keep, hi, first, values, offset,
                                    position, nodes, thresholds, bitsets, leaf_value,
                                    order, stack, on_path, out,
                                )  # fmt: skip
                            on_path_end[g] = keep
                        if go_left:
                            node = left
                            continue
                        node = nodes[node, RIGHT]
                    # A select, not a branch: the sums add as one vector.
                    for k in range(width):
                        value = leaf_value[node, k]
                        sums = out[i, first + k]
                        for q in range(n_copies):
                            sums[q] = sums[q] + value if on_path[q] else sums[q]
