"""The compiled sums behind the linear shortcut's squared errors: a
regressor's r2, MSE and RMSE of a permuted copy without the copy's
predictions.

In a copy whose column j takes row ``perm[i]``'s value in row ``i``, a
linear regressor predicts ``d_i = (base_i - own_i) + own[perm_i]`` (X's
decisions less column j's contribution, plus the donor row's:
``models``), and r2, MSE and RMSE read the copy through
``S = sum_i w_i (y_i - d_i)**2`` alone. The numpy path makes every copy's
``d`` (a gather and an addition into a chunk's array), its errors, their
squares, and then sums them. :func:`error_sum` computes each term with the
same operations in the same order, and adds the terms in numpy's own order
(``pairwise_sum`` in numpy's ``loops_utils.h``: at most 128 terms on eight
accumulators, longer runs split in halves rounded down to a multiple of 8):
the same bits, in one pass over the rows, with no array of the rows' size.
Without weights no product is taken (numpy's path takes none either).
numpy 2.0 ran a reduction through a buffer of ``np.getbufsize()`` values
(8,192), summed pairwise one buffer after another, where numpy 2.4 sums a
row's terms pairwise all at once: which the installed numpy does is read
from np.sum itself (:func:`numpys_block`).
"""

import functools

import numpy as np

from ..kernels import compiled

# numpy's PW_BLOCKSIZE: runs up to this long are summed on 8 accumulators.
_LEAF = 128
# Runs are halved down to 128 terms: fewer than log2(n) levels of pending
# runs, so 64 covers any array numpy can hold.
_DEPTH = 64
# A block no row reaches: every term summed pairwise at once.
_WHOLE = 2**62


@compiled(nogil=True)
def error_sum(y, base, own, weight, perm, block):
    """``sum_i weight_i (y_i - ((base_i - own_i) + own[perm_i]))**2`` in
    numpy's order (see the module doc): pairwise within blocks of `block`
    terms (:func:`numpys_block`), the blocks added one after another;
    `weight` None for none."""
    terms = np.empty(_LEAF)
    stack = np.empty((3, _DEPTH), np.int64)
    sums = np.empty(_DEPTH)
    total = 0.0
    n_rows = y.shape[0]
    for low in range(0, n_rows, block):
        size = min(block, n_rows - low)
        total += _pairwise(y, base, own, weight, perm, low, size, terms, stack, sums)
    return total


@compiled(nogil=True)
def _pairwise(y, base, own, weight, perm, first, n_terms, terms, stack, sums):
    """numpy's pairwise_sum of the terms of rows ``first:first + n_terms``.
    Its recursion on a stack of (low, size, stage): a run is split (stage
    0), its left half summed (1), its right half summed (2), then the
    halves' sums added."""
    lows, sizes, stages = stack[0], stack[1], stack[2]
    n_sums, top = 0, 0
    lows[0], sizes[0], stages[0] = first, n_terms, 0
    while top >= 0:
        low, size = lows[top], sizes[top]
        if size > _LEAF:
            half = size // 2
            half -= half % 8
            if stages[top] == 0:
                stages[top] = 1
                top += 1
                lows[top], sizes[top], stages[top] = low, half, 0
            elif stages[top] == 1:
                stages[top] = 2
                top += 1
                lows[top], sizes[top], stages[top] = low + half, size - half, 0
            else:
                sums[n_sums - 2] += sums[n_sums - 1]
                n_sums -= 1
                top -= 1
            continue
        # Views indexed from 0: numba then checks no index for wrapping.
        y_run, base_run = y[low : low + size], base[low : low + size]
        own_run, perm_run = own[low : low + size], perm[low : low + size]
        if weight is None:
            for k in range(size):
                e = y_run[k] - ((base_run[k] - own_run[k]) + own[perm_run[k]])
                terms[k] = e * e
        else:
            weight_run = weight[low : low + size]
            for k in range(size):
                e = y_run[k] - ((base_run[k] - own_run[k]) + own[perm_run[k]])
                terms[k] = weight_run[k] * (e * e)
        sums[n_sums] = _run_sum(terms, size)
        n_sums += 1
        top -= 1
    return sums[0]


@compiled(nogil=True)
def _run_sum(terms, size):
    """numpy's sum of one run of at most 128 terms."""
    if size < 8:
        total = 0.0
        for k in range(size):
            total += terms[k]
        return total
    r0, r1, r2, r3 = terms[0], terms[1], terms[2], terms[3]
    r4, r5, r6, r7 = terms[4], terms[5], terms[6], terms[7]
    whole = size - size % 8
    for k in range(8, whole, 8):
        r0 += terms[k]
        r1 += terms[k + 1]
        r2 += terms[k + 2]
        r3 += terms[k + 3]
        r4 += terms[k + 4]
        r5 += terms[k + 5]
        r6 += terms[k + 6]
        r7 += terms[k + 7]
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    for k in range(whole, size):
        total += terms[k]
    return total


# Rows of X read at a time by `contributions`: 64 rows of 50 columns take
# 25 KB, within the CPU's first cache, while each column's 64 products are
# written side by side.
_ROW_BLOCK = 64


@compiled(nogil=True)
def contributions(X, coef, out):
    """``out[j, i] = X[i, j] * coef[j]``: every column's contribution to
    the decisions (the products ``models`` takes column by column),
    in one pass over X's rows, where reading a column of a C-ordered X
    reads all of X."""
    n_rows, n_columns = X.shape
    for low in range(0, n_rows, _ROW_BLOCK):
        high = min(low + _ROW_BLOCK, n_rows)
        for j in range(n_columns):
            weight = coef[j]
            for i in range(low, high):
                out[j, i] = X[i, j] * weight


@functools.cache
def numpys_block():
    """How many terms the installed numpy sums pairwise before adding the
    next ones: all of a row's (_WHOLE) or a buffer's (``np.getbufsize()``);
    read once from np.sum on values where the two orders differ. None if
    neither gives its bits (then the copies are predicted, not summed)."""
    # Terms of one magnitude: their roundings add up differently in the two
    # orders (tests/engine/permutation/test_error_sums.py checks they do).
    n_values = 3 * np.getbufsize() + 1000
    values = 1.0 + np.random.default_rng(1).random(n_values)
    zeros, rows = np.zeros(n_values), np.arange(n_values)
    expected = np.sum(values**2)
    for block in (_WHOLE, np.getbufsize()):
        if error_sum(values, zeros, zeros, None, rows, block) == expected:
            return block
    return None
