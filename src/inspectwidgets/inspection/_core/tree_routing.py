"""The compiled walk behind the tree shortcut (see ``trees.py``).

A copy of X in which only a few columns change is, for every tree, the same
walk as X itself except at nodes that split on a changed column. So each row
walks each tree once, carrying all its copies (the "queries"): at a node on an
unchanged column they all go the same way; at a node on a changed column they
are partitioned by the same comparison the tree makes, and each part goes on.
Every query ends in exactly the leaf a prediction would reach, at a cost close
to one prediction per row instead of one per copy.

Exactness: X and the queries are float32 as scikit-learn casts them, compared
``x <= threshold`` in float64 as its Cython does, NaN routed by the node's
``missing_go_to_left``; leaf values are added tree after tree, in the model's
order, into zeros, as ``ForestClassifier.predict_proba`` and
``ForestRegressor.predict`` add them (with ``n_jobs=None``).
"""

import numpy as np
from numba import njit


@njit(nogil=True, cache=True)
def route_queries(
    X, columns, values, roots, left, right, feature, threshold, nan_left,
    leaf_value, max_depth, out, accumulate,
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
    left, right, feature, threshold, nan_left : node arrays
    leaf_value : float64 array of shape (n_nodes, n_outputs)
    max_depth : int
        The deepest tree's depth: bounds the stack of pending parts.
    out : float64 array of shape (n_queries, n_rows, n_outputs)
        Zeros when `accumulate` (trees are added in order), else written.
    accumulate : bool
        Add the leaf values (ensembles) rather than store them (one tree).
    """
    n_rows = X.shape[0]
    n_queries = values.shape[0]
    n_outputs = leaf_value.shape[1]
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
            top = 0
            stack_node[0], stack_lo[0], stack_hi[0] = roots[t], 0, n_queries
            top = 1
            while top > 0:
                top -= 1
                node, lo, hi = stack_node[top], stack_lo[top], stack_hi[top]
                while left[node] != -1:
                    c = changed[feature[node]]
                    if c < 0:
                        x = X[i, feature[node]]
                        if np.isnan(x):
                            go_left = nan_left[node] != 0
                        else:
                            go_left = x <= threshold[node]
                        node = left[node] if go_left else right[node]
                        continue
                    # Partition order[lo:hi]: queries going left first.
                    mid = lo
                    for j in range(lo, hi):
                        q = order[j]
                        v = values[q, i, c]
                        if np.isnan(v):
                            go_left = nan_left[node] != 0
                        else:
                            go_left = v <= threshold[node]
                        if go_left:
                            order[j], order[mid] = order[mid], q
                            mid += 1
                    if mid == lo:
                        node = right[node]
                    elif mid == hi:
                        node = left[node]
                    else:
                        stack_node[top], stack_lo[top], stack_hi[top] = (
                            right[node], mid, hi,
                        )  # fmt: skip
                        top += 1
                        node, hi = left[node], mid
                for j in range(lo, hi):
                    q = order[j]
                    for k in range(n_outputs):
                        if accumulate:
                            out[q, i, k] += leaf_value[node, k]
                        else:
                            out[q, i, k] = leaf_value[node, k]
