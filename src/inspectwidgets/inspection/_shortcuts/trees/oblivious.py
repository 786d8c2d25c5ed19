"""The compiled walk of oblivious trees (CatBoost's, ``catboost``).

An oblivious tree tests the same splits on every path: the leaf a row
reaches is a number whose bit i says whether split i sent it right. A copy of
X in which a few columns change reaches, in each tree, the leaf of its row
with only the bits of the splits on those columns set again. So each row's
leaf indices are made once (:func:`leaf_indices`), and each copy costs, per
row and tree, its changed splits' tests and one leaf value's addition
(:func:`add_copy`), never the splits on columns it keeps.

Invariants, as CatBoost's evaluator (``from_catboost``'s module doc): values
are float32 widened to float64, compared ``value > border`` with the border a
float32 widened (the same comparison as in float32); NaN compares false and
sets the bit only where the split's ``nan_right``; each row's sums start
where the caller's ``out`` starts (+0.0) and add each tree's leaf value in
tree order, output by output, as CatBoost's ``CalculateLeafValues`` does.
"""

import numpy as np

from ..kernels import compiled


@compiled(nogil=True, inline="always")
def _goes_right(value, border, nan_right):
    """CatBoost's bit: ``value > border``, NaN by ``nan_right``."""
    if np.isnan(value):
        return nan_right
    return value > border


@compiled(nogil=True)
def leaf_indices(Xt, start, feature, border, nan_right, base):
    """Each row's leaf index in each tree into `base` (n_trees, n_rows): bit
    i set where split i of the tree sends the row right. `Xt`: the rows
    transposed (n_columns, n_rows), so that a split's tests stream over one
    column."""
    for t in range(start.shape[0] - 1):
        row = base[t]
        row[:] = 0
        for q in range(start[t], start[t + 1]):
            column, bit = Xt[feature[q]], np.int32(1) << (q - start[t])
            limit = border[q]
            # Branch-free, one loop per NaN side: the compiler vectorises it.
            if nan_right[q]:
                for i in range(row.shape[0]):
                    right = (column[i] > limit) | np.isnan(column[i])
                    row[i] |= bit * np.int32(right)
            else:
                for i in range(row.shape[0]):
                    row[i] |= bit * np.int32(column[i] > limit)


@compiled(nogil=True)
def add_copy(base, values, changed, start, leaf_start, leaf_value, index, out):
    """One copy's leaf sums into `out` (n_outputs, n_rows), tree by tree over
    all rows (each row's sums add the trees in order; the rows' additions are
    independent, and a tree's leaves stay in the cache): the rows' leaf
    indices `base` (n_trees, n_rows), with the bits of the tree's splits on
    the copy's columns set again from `values` (the copy's columns, by
    column: (n_columns, n_rows)). `changed`: ``(start, bit, column, border,
    nan_right)``, the splits of tree t on the copy's columns at
    ``start[t]:start[t + 1]`` of the others. `leaf_value`: (n_outputs,
    n_leaves), by output. `index`: scratch of n_rows int32."""
    c_start, c_bit, c_column, c_border, c_nan_right = changed
    for t in range(base.shape[0]):
        first = leaf_start[t]
        lo, hi = c_start[t], c_start[t + 1]
        leaves = base[t]
        if lo != hi:
            leaves = index
            index[:] = base[t]
            for q in range(lo, hi):
                bit = np.int32(1) << c_bit[q]
                column, border, nan_right = (
                    values[c_column[q]],
                    c_border[q],
                    c_nan_right[q],
                )
                for i in range(index.shape[0]):
                    if _goes_right(column[i], border, nan_right):
                        index[i] |= bit
                    else:
                        index[i] &= ~bit
        width = np.int64(1) << (start[t + 1] - start[t])
        for k in range(out.shape[0]):
            table, sums = leaf_value[k, first : first + width], out[k]
            for i in range(sums.shape[0]):
                sums[i] += table[leaves[i]]


# Rows a grid walk takes at once: its copies' sums of them (50 grid points:
# 100 KiB) stay in a core's cache while every tree adds to them.
GRID_ROW_BLOCK = 256


@compiled(nogil=True)
def add_grid(base, keep, bits, start, leaf_start, leaf_value, out):
    """Leaf sums of copies whose columns take the same values in every row
    (partial dependence's grid points) into `out` (n_copies, n_outputs,
    n_rows), tree by tree over a block of rows at a time (each row's sums
    add the trees in order). Copy g's leaf index in tree t is the row's with
    the bits ``keep[t]`` kept and ``bits[g, t]`` set: copies setting the same
    bits (all of them, in a tree that tests none of the columns; a few groups
    where it does) reach the same leaf, gathered once and added to each."""
    n_rows, n_copies = base.shape[1], out.shape[0]
    values = np.empty(GRID_ROW_BLOCK)
    done = np.empty(n_copies, dtype=np.bool_)
    for low in range(0, n_rows, GRID_ROW_BLOCK):
        high = min(low + GRID_ROW_BLOCK, n_rows)
        for t in range(base.shape[0]):
            first = leaf_start[t]
            width = np.int64(1) << (start[t + 1] - start[t])
            leaves, kept = base[t], keep[t]
            for k in range(out.shape[1]):
                table = leaf_value[k, first : first + width]
                done[:] = False
                for g0 in range(n_copies):
                    if done[g0]:
                        continue
                    pattern = bits[g0, t]
                    for i in range(low, high):
                        values[i - low] = table[(leaves[i] & kept) | pattern]
                    for g in range(g0, n_copies):
                        if done[g] or bits[g, t] != pattern:
                            continue
                        done[g] = True
                        sums = out[g, k]
                        for i in range(low, high):
                            sums[i] += values[i - low]
