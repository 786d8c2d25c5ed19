"""The compiled walk behind the tree shortcut (see ``tree_models`` and ``tree_replay``).

A copy of X in which only a few columns change is, for every tree, the same
walk as X itself except at nodes that split on a changed column. So each row
walks each tree once, carrying all its copies (the "queries"): at a node on an
unchanged column they all go the same way; at a node on a changed column they
are partitioned by the same comparison the tree makes, and each part goes on.
Every query ends in exactly the leaf a prediction would reach, at a cost close
to one prediction per row instead of one per copy. A grid of one column's
values, the same for every row, is walked the other way round: all rows down
each tree together (:func:`route_grid`).

Exactness: X and the queries are what the model's own predict walks (float32
for scikit-learn's trees, forests and gradient boosting, float64 for
histogram gradient boosting), compared as its Cython compares them (see
:func:`_sends_left`); leaf values are added tree after tree, in the model's
order, onto the model's starting values, as its predict adds them.
"""

import numpy as np
from numba import njit

from .tree_nodes import CATEGORICAL, FLAGS_SHIFT, NAN_LEFT, TREE_BLOCK_BYTES

_FEATURE = (1 << FLAGS_SHIFT) - 1


@njit(nogil=True, cache=True, inline="always")
def _test(node, nodes, threshold):
    """The test at split `node`: its flags and its threshold (`threshold` is
    the node array seen as float64: column 3). A loop partitioning many
    values reads them once, before it: its stores might alias the node
    arrays, so the compiler would read them again for every value (extra
    trees' partial dependence on 100,000 rows: 4.5 -> 3.1 s in the walk)."""
    return nodes[node, 2] >> FLAGS_SHIFT, threshold[node, 3]


@njit(nogil=True, cache=True, inline="always")
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
    sets = bitsets[nodes[node, 3]]
    if (sets[0, word] >> bit) & 1:
        return True
    if (sets[1, word] >> bit) & 1:
        return False
    return flag & NAN_LEFT != 0


@njit(nogil=True, cache=True, inline="always")
def _goes_left(value, node, nodes, threshold, bitsets):
    """Whether `node` sends one `value` left (:func:`_sends_left`)."""
    flag, limit = _test(node, nodes, threshold)
    return _sends_left(value, flag, limit, node, nodes, bitsets)


@njit(nogil=True, cache=True, inline="always")
def _partition(values, i, c, order, lo, hi, node, nodes, threshold, bitsets):
    """Reorder ``order[lo:hi]`` so the queries `node` sends left come
    first; return where the others start."""
    flag, limit = _test(node, nodes, threshold)
    mid = lo
    for j in range(lo, hi):
        q = order[j]
        v = values[q, i, c]
        go_left = _sends_left(v, flag, limit, node, nodes, bitsets)
        # Branch-free (Lomuto): the sides are unpredictable.
        order[j] = order[mid]
        order[mid] = q
        mid += go_left
    return mid


@njit(nogil=True, cache=True, inline="always")
def _push(stack, top, node, lo, hi, low_point, high_point):
    """Put a part pending for :func:`route_grid` at `top` of its stack."""
    stack[top, 0], stack[top, 1], stack[top, 2] = node, lo, hi
    stack[top, 3], stack[top, 4] = low_point, high_point


# Three walks: route_grid for a grid of values of one column, the same for
# every row (partial dependence's grid points), taking all rows down each
# tree at once; route_queries for other copies whose values are the same for
# every row (2-way grids, categories, missing values), starting all of them at
# the root, row by row; route_copies for copies whose values differ by row
# (permutations), following the row's own path. One walk can do the last two,
# but on 10,000 rows it made an extra-trees partial dependence 1.5x slower
# (0.38 s against 0.59 s per 100 grid points).
@njit(nogil=True, cache=True)
def route_grid(
    Xt, grid, column, roots, outputs, nodes, bitsets, leaf_value, max_depth, out,
):  # fmt: skip
    """Every grid point's leaf values for every row, added tree by tree into
    `out`: the rows go down each tree together, split by the tree's own test
    at a node on another column (a partition of their indices) and all of
    them both ways at a node on `column`, with the grid points on each side
    of its threshold (a bisection). So a node's arrays are read once per
    tree and rows, not once per row, and the rows' tests stream: a
    forest's partial dependence 1.5x, extra trees' 2.5x faster than walking
    the rows one by one (benchmarks/trees.py's models, 10,000 rows).

    Parameters
    ----------
    Xt : float32 or float64 array of shape (n_columns, n_rows)
        The rows the copies are made of, transposed: a node's partition reads
        one column's values (histogram boosting on 100,000 rows: 0.24 s
        against 1.31 s reading X's rows).
    grid : array of shape (n_points,)
        The values `column` takes, increasing, none missing, in X's dtype;
        no categorical split tests `column`.
    column : int
        The column the grid replaces.
    roots, outputs, nodes, bitsets, leaf_value, max_depth
        The trees, as for :func:`route_queries`.
    out : float64 array of shape (n_rows, n_outputs, n_points)
        Where the leaf values are added, onto what the model starts from.
        A leaf's value is added to the points reaching it, which lie side by
        side here.
    """
    threshold = nodes.view(np.float64)
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
            while nodes[node, 0] != -1:
                f = nodes[node, 2] & _FEATURE
                if f == column:
                    # The first point sent right, by bisection.
                    a, b = low_point, high_point
                    while a < b:
                        half = (a + b) >> 1
                        if grid[half] <= threshold[node, 3]:
                            a = half + 1
                        else:
                            b = half
                    if a == low_point:
                        node = nodes[node, 1]
                    elif a == high_point:
                        node = nodes[node, 0]
                    else:
                        # Both sides take every row: the left one reorders
                        # them within lo:hi only, so the set stays the same.
                        _push(stack, top, nodes[node, 1], lo, hi, a, high_point)
                        top += 1
                        node, high_point = nodes[node, 0], a
                    continue
                values = Xt[f]
                flag, limit = _test(node, nodes, threshold)
                mid = lo
                for j in range(lo, hi):
                    r = rows[j]
                    go_left = _sends_left(values[r], flag, limit, node, nodes, bitsets)
                    # Branch-free (Lomuto), as in _partition.
                    rows[j] = rows[mid]
                    rows[mid] = r
                    mid += go_left
                if mid == lo:
                    node = nodes[node, 1]
                elif mid == hi:
                    node = nodes[node, 0]
                else:
                    _push(stack, top, nodes[node, 1], mid, hi, low_point, high_point)
                    top += 1
                    node, hi = nodes[node, 0], mid
            first = outputs[t]
            for k in range(width):
                value = leaf_value[node, k]
                for j in range(lo, hi):
                    sums = out[rows[j], first + k]
                    for q in range(low_point, high_point):  # side by side
                        sums[q] += value


@njit(nogil=True, cache=True)
def route_queries(
    X, columns, values, roots, outputs, nodes, bitsets, leaf_value, max_depth,
    out,
):  # fmt: skip
    """Every query's leaf values, added tree by tree into `out`.

    Parameters
    ----------
    X : float32 array of shape (n_rows, n_columns)
        The rows the copies are made of.
    columns : int64 array of shape (n_changed,)
        The columns a copy changes.
    values : float32 array of shape (n_queries, n_rows, n_changed)
        ``values[q, i]``: the changed columns' values of row `i` in copy `q`
        (a broadcast view when every row gets the same values).
    roots : int64 array of shape (n_trees,)
        Each tree's root in the node arrays, whose children are indices into
        the same arrays (-1 at a leaf).
    outputs : int64 array of shape (n_trees,)
        The first output each tree adds to: a forest's trees add to every
        output (0), a boosting model's k-th tree of a stage to output k.
    nodes : int64 array of shape (n_nodes, 4)
        Per node: left child, right child (indices into `nodes`, -1 at a
        leaf), feature with the node's flags above ``FLAGS_SHIFT``
        (``NAN_LEFT``: its ``missing_go_to_left``; ``CATEGORICAL``), and the
        threshold's float64 bits: one cache line per node visited, as
        scikit-learn's own node struct.
    bitsets : uint32 array of shape (n_categorical_nodes, 2, 8)
        Per categorical split: its left categories, its feature's known ones.
    leaf_value : float64 array of shape (n_nodes, width)
        What a leaf adds to outputs ``outputs[t]:outputs[t] + width``.
    max_depth : int
        The deepest tree's depth: bounds the stack of pending parts.
    out : float64 array of shape (n_rows, n_outputs, n_queries)
        Where the trees' leaf values are added, in order, onto what the
        model starts from (see ``TreeModel.start``).
    """
    threshold = nodes.view(np.float64)
    n_rows = X.shape[0]
    n_queries = values.shape[0]
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
                while nodes[node, 0] != -1:
                    f = nodes[node, 2] & _FEATURE
                    c = changed[f]
                    if c < 0:
                        x = X[i, f]
                        go_left = _goes_left(x, node, nodes, threshold, bitsets)
                        node = nodes[node, 0] if go_left else nodes[node, 1]
                        continue
                    mid = _partition(
                        values, i, c, order, lo, hi, node, nodes, threshold,
                        bitsets,
                    )  # fmt: skip
                    if mid == lo:
                        node = nodes[node, 1]
                    elif mid == hi:
                        node = nodes[node, 0]
                    else:
                        stack_node[top], stack_lo[top], stack_hi[top] = (
                            nodes[node, 1], mid, hi,
                        )  # fmt: skip
                        top += 1
                        node, hi = nodes[node, 0], mid
                first = outputs[t]
                for k in range(width):
                    value = leaf_value[node, k]
                    sums = out[i, first + k]
                    for j in range(lo, hi):
                        sums[order[j]] += value


# Inlined into route_copies: a call per detour cost a quarter of the walk's
# time (a 100-tree forest on 20,000 rows, 8 copies: 1.08 -> 0.71 s).
@njit(nogil=True, cache=True, inline="always")
def _route_rows(
    X, i, g, position, values, offset, order, lo, hi, node, nodes, threshold,
    bitsets, leaf_value, first, stack, on_path, out,
):  # fmt: skip
    """Route the copies ``order[lo:hi]`` of row `i`, all of group `g`, from
    `node` down to their leaves, add the leaf values to their sums in
    ``out[i]`` from output `first` on and mark them off the path."""
    stack[0, 0], stack[0, 1], stack[0, 2] = node, lo, hi
    top = 1
    while top > 0:
        top -= 1
        node, lo, hi = stack[top, 0], stack[top, 1], stack[top, 2]
        while nodes[node, 0] != -1:
            f = nodes[node, 2] & _FEATURE
            at = position[g, f]
            if at < 0:
                x = X[i, f]
                go_left = _goes_left(x, node, nodes, threshold, bitsets)
                node = nodes[node, 0] if go_left else nodes[node, 1]
                continue
            flag, limit = _test(node, nodes, threshold)
            mid = lo
            for j in range(lo, hi):
                q = order[j]
                v = values[i, offset[q] + at]
                go_left = _sends_left(v, flag, limit, node, nodes, bitsets)
                order[j] = order[mid]
                order[mid] = q
                mid += go_left
            if mid == lo:
                node = nodes[node, 1]
            elif mid == hi:
                node = nodes[node, 0]
            else:
                stack[top, 0], stack[top, 1], stack[top, 2] = nodes[node, 1], mid, hi
                top += 1
                node, hi = nodes[node, 0], mid
        for j in range(lo, hi):
            on_path[order[j]] = False
        for k in range(leaf_value.shape[1]):
            value = leaf_value[node, k]
            sums = out[i, first + k]
            for j in range(lo, hi):
                sums[order[j]] += value


@njit(nogil=True, cache=True)
def route_copies(
    X, values, offset, group_start, position, column_groups, column_group_start,
    roots, outputs, nodes, bitsets, leaf_value, max_depth, tree_blocks,
    row_start, row_stop, out,
):  # fmt: skip
    """Leaf values of modified copies of X, added tree by tree into `out`.

    Copies ``group_start[g]:group_start[g + 1]`` belong to group `g`; column
    `f` is the group's ``position[g, f]``-th column (-1: not in the group), and
    in copy `q` it holds ``values[i, offset[q] + position[g, f]]`` at row `i`.
    The groups holding column `f` are ``column_groups[column_group_start[f]:
    column_group_start[f + 1]]``.

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
    threshold = nodes.view(np.float64)
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
    # from row to row): 30% off a histogram boosting model's permutation
    # importance, whose trees all fit in one block.
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
                    # for the test (a 100-tree forest on 20,000 rows, one
                    # copy: 0.41 -> 0.28 s).
                    node = roots[t]
                    while True:
                        left = nodes[node, 0]
                        if left == -1:
                            break
                        f = nodes[node, 2] & _FEATURE
                        flag, limit = _test(node, nodes, threshold)
                        x = X[i, f]
                        go_left = _sends_left(x, flag, limit, node, nodes, bitsets)
                        for held in range(
                            column_group_start[f], column_group_start[f + 1]
                        ):
                            g = column_groups[held]
                            at = position[g, f]
                            lo, hi = group_start[g], on_path_end[g]
                            keep = lo
                            for j in range(lo, hi):
                                q = order[j]
                                v = values[i, offset[q] + at]
                                stays = (
                                    _sends_left(v, flag, limit, node, nodes, bitsets)
                                    == go_left
                                )
                                order[j] = order[keep]
                                order[keep] = q
                                keep += stays
                            if keep < hi:
                                other = nodes[node, 1] if go_left else nodes[node, 0]
                                _route_rows(
                                    X, i, g, position, values, offset, order, keep, hi,
                                    other, nodes, threshold, bitsets,
                                    leaf_value, first, stack, on_path, out,
                                )  # fmt: skip
                            on_path_end[g] = keep
                        if go_left:
                            node = left
                            continue
                        node = nodes[node, 1]
                    # A select, not a branch: the sums add as one vector.
                    for k in range(width):
                        value = leaf_value[node, k]
                        sums = out[i, first + k]
                        for q in range(n_copies):
                            sums[q] = sums[q] + value if on_path[q] else sums[q]
