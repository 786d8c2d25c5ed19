"""The compiled walks behind the exact tree H²: partial dependence at the
data points through the trees' structure, without n² predictions.

For one tree and a set of columns S, the prediction at a copy ``(x_S^i,
x_-S^l)`` is the value of the one leaf L whose path the copy satisfies: its
splits on S by ``x_S^i`` and its other splits by ``x_-S^l``. So (interventional
decomposition, as in FastPD, Liu et al. ICML 2025, and interventional
TreeSHAP)::

    PD_S(x_S^i) = sum_l w_l f(x_S^i, x_-S^l)
                = sum_L value(L) [x_S^i meets L's S-splits] share_-S(L)

with ``share_-S(L) = sum_l w_l [x_-S^l meets L's other splits]`` (weights
summing to 1), and ``PD_-S`` the same with S and its complement swapped.
Per tree, :func:`tree_dependences`

1. marks the nodes whose subtree splits on S (``has_own``) and on another
   column (``has_other``);
2. gets every leaf's two shares by walking the background rows down the tree
   together: partitioned by the tree's own test at a split on the columns
   they follow, all of them both ways at the others (a node's rows are
   reordered within its range only, so the range holds the same set for both
   children, as in ``route_grid``). Below the last split on the followed
   columns every leaf under the node takes the rows' weight: it is added once
   there and passed down to the leaves afterwards;
3. sums ``value(L) * share(L)`` over each subtree, and
4. walks every data point the other way round: its own branch at a split on
   the columns it follows, both ways at the others, adding a node's subtree
   sum as soon as nothing below splits on the columns it follows. Only the
   followed splits tell points apart, so the subtree sums are first added up
   per *head* (the child of the nearest followed split above, or the root)
   and each point tests only the followed splits (:func:`_skeleton`): a
   deep forest's point then tests about one split in eight of those it
   would pass, on 8 features.

The rows are both the data points and the background, so for ``PD_-S`` the
shares on S's splits need no walk of their own: the points' walk over S's
splits adds each row's weight to every head it reaches
(:func:`_walk_and_weigh`), and a leaf's share is its head's
(:func:`_head_shares`). Only the shares on the other columns (cheap for a
small S: the rows are partitioned at nearly every split) are walked as in 2.

Each leaf a copy can reach is counted once per data point, as the n² copies
would reach it, so the result is the mean of the copies' predictions up to
the order of the additions (not bit for bit). The tests are the model's own:
``_sends_left`` of ``routing`` (float64 ``<=`` on values in the model's
input dtype, missing values and histogram boosting's categories as the model
routes them), compiled into these walks: ``kernels.compiled`` keys numba's
cache on ``routing`` and ``nodes`` too.
"""

import numpy as np

from ..kernels import compiled
from .nodes import FEATURE, FEATURE_MASK, LEFT, RIGHT
from .routing import _sends_left, _test


@compiled(nogil=True)
def _preorder(root, nodes, order):
    """The tree's nodes from `root`, each before its children, into `order`;
    returns how many."""
    stack = np.empty(order.shape[0], dtype=np.int64)
    stack[0], top, count = root, 1, 0
    while top > 0:
        top -= 1
        node = stack[top]
        order[count] = node
        count += 1
        if nodes[node, LEFT] != -1:
            stack[top] = nodes[node, RIGHT]
            stack[top + 1] = nodes[node, LEFT]
            top += 2
    return count


@compiled(nogil=True)
def _split_below(order, count, root, nodes, in_set, has_own, has_other):
    """Per node (indexed from `root`): whether its subtree splits on a
    column of the set, and on another column."""
    for o in range(count - 1, -1, -1):
        node = order[o]
        at = node - root
        if nodes[node, LEFT] == -1:
            has_own[at], has_other[at] = False, False
            continue
        own = in_set[nodes[node, FEATURE] & FEATURE_MASK]
        left, right = nodes[node, LEFT] - root, nodes[node, RIGHT] - root
        has_own[at] = own or has_own[left] or has_own[right]
        has_other[at] = (not own) or has_other[left] or has_other[right]


# One loop over the pending parts; its steps (test, partition) inline. The
# docstring is half of it.
@compiled(nogil=True)
def _shares(X, w, rows, root, nodes, thresholds, bitsets, in_set, follow_set,
            has_followed, stack, share, alive):  # fmt: skip
    """Every node's weight ``share[node - root]`` of the rows meeting its
    path's splits on the followed columns (the set's if `follow_set`, else
    the others), given where their weight enters: at the first node under
    which nothing splits on a followed column (the caller passes it down).
    ``alive[node - root]``: some row reaches the node (set here down to
    where the weight enters; the caller passes it down too).
    """
    n = X.shape[0]
    for r in range(n):
        rows[r] = r
    stack[0, 0], stack[0, 1], stack[0, 2] = root, 0, n
    top = 1
    while top > 0:
        top -= 1
        node, lo, hi = stack[top, 0], stack[top, 1], stack[top, 2]
        while True:
            alive[node - root] = True
            if not has_followed[node - root]:
                total = 0.0
                for j in range(lo, hi):
                    total += w[rows[j]]
                share[node - root] += total
                break
            f = nodes[node, FEATURE] & FEATURE_MASK
            if in_set[f] != follow_set:
                # Not followed: every row both ways, the same range.
                stack[top, 0], stack[top, 1], stack[top, 2] = nodes[node, RIGHT], lo, hi
                top += 1
                node = nodes[node, LEFT]
                continue
            flag, limit = _test(node, nodes, thresholds)
            mid = lo
            for j in range(lo, hi):
                r = rows[j]
                if _sends_left(X[r, f], flag, limit, node, nodes, bitsets):
                    rows[j] = rows[mid]
                    rows[mid] = r
                    mid += 1
            if mid < hi:
                stack[top, 0], stack[top, 1], stack[top, 2] = (
                    nodes[node, RIGHT],
                    mid,
                    hi,
                )
                top += 1
            if mid == lo:
                break
            node, hi = nodes[node, LEFT], mid


@compiled(nogil=True)
def _subtree_sums(order, count, root, nodes, leaf_value, share, alive,
                  has_followed, sums):  # fmt: skip
    """``sums[node - root, k]``: the sum over the leaves under the node of
    ``value(L, k) * share(L)``, with the shares first passed down from the
    nodes where the rows' weight entered (`share`, modified), and `alive`
    below them."""
    for o in range(count):
        node = order[o]
        if nodes[node, LEFT] != -1:
            at = node - root
            left, right = nodes[node, LEFT] - root, nodes[node, RIGHT] - root
            share[left] += share[at]
            share[right] += share[at]
            if alive[at] and not has_followed[at]:
                alive[left], alive[right] = True, True
    _sum_up(order, count, root, nodes, leaf_value, share, sums)


@compiled(nogil=True)
def _sum_up(order, count, root, nodes, leaf_value, share, sums):
    """``sums[node - root, k]``: the sum over the leaves L under the node of
    ``value(L, k) * share[L - root]``."""
    for o in range(count - 1, -1, -1):
        node = order[o]
        at = node - root
        for k in range(leaf_value.shape[1]):
            if nodes[node, LEFT] == -1:
                sums[at, k] = leaf_value[node, k] * share[at]
            else:
                left, right = nodes[node, LEFT] - root, nodes[node, RIGHT] - root
                sums[at, k] = sums[left, k] + sums[right, k]


@compiled(nogil=True)
def _head_shares(order, count, root, nodes, in_set, head_weight, share):
    """``share[node - root]``: the weight of the rows meeting the node's
    path's splits on S, which is that of its head (:func:`_skeleton`, S
    followed), as :func:`_walk_and_weigh` gathered it."""
    share[0] = head_weight[0]
    for o in range(count):
        node = order[o]
        if nodes[node, LEFT] == -1:
            continue
        at = node - root
        on_set = in_set[nodes[node, FEATURE] & FEATURE_MASK]
        for child in (nodes[node, LEFT] - root, nodes[node, RIGHT] - root):
            share[child] = head_weight[child] if on_set else share[at]


@compiled(nogil=True)
def _skeleton(order, count, root, nodes, in_set, follow_set, has_followed, sums,
              head_of, group_sum, next_start, next_split):  # fmt: skip
    """The tree as the data points walk it, reduced to the followed splits.

    A node's *head* is the child of its nearest followed split above (the
    root if none): the data points reaching a node are those reaching its
    head, since only followed splits tell them apart. So every node where
    nothing below is followed (a *terminal*, where a point adds the subtree
    sum) adds its sum to its head's ``group_sum`` once, and a point adds the
    group sums of the heads it reaches, testing only the followed splits
    that hang from each (``next_split[next_start[h]:next_start[h + 1]]``):
    not the other splits, nor the terminals one by one.
    """
    group_sum[:count] = 0.0
    next_start[: count + 1] = 0
    head_of[0] = 0
    if not has_followed[0]:
        group_sum[0] += sums[0]
    for o in range(count):
        at = order[o] - root
        if not has_followed[at]:
            continue
        node = at + root
        followed = in_set[nodes[node, FEATURE] & FEATURE_MASK] == follow_set
        if followed:
            next_start[head_of[at] + 1] += 1
        for child in (nodes[node, LEFT] - root, nodes[node, RIGHT] - root):
            head_of[child] = child if followed else head_of[at]
            if not has_followed[child]:
                group_sum[head_of[child]] += sums[child]
    for h in range(count):
        next_start[h + 1] += next_start[h]
    filled = next_start[:count].copy()
    for o in range(count):
        at = order[o] - root
        node = at + root
        if has_followed[at] and (
            in_set[nodes[node, FEATURE] & FEATURE_MASK] == follow_set
        ):
            next_split[filled[head_of[at]]] = at
            filled[head_of[at]] += 1


@compiled(nogil=True)
def _add_point(X, i, root, nodes, thresholds, bitsets, alive, group_sum,
               next_start, next_split, stack, out, first):  # fmt: skip
    """Add to ``out[i, first:]`` the group sums of the heads data point `i`
    reaches (:func:`_skeleton`), leaving out the subtrees no background row
    reaches (they add 0)."""
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        h = stack[top]
        if not alive[h]:
            continue
        for k in range(group_sum.shape[1]):
            out[i, first + k] += group_sum[h, k]
        for e in range(next_start[h], next_start[h + 1]):
            node = next_split[e] + root
            f = nodes[node, FEATURE] & FEATURE_MASK
            flag, limit = _test(node, nodes, thresholds)
            if _sends_left(X[i, f], flag, limit, node, nodes, bitsets):
                stack[top] = nodes[node, LEFT] - root
            else:
                stack[top] = nodes[node, RIGHT] - root
            top += 1


@compiled(nogil=True)
def _walk_and_weigh(X, i, weight, root, nodes, thresholds, bitsets, group_sum,
                    next_start, next_split, stack, out, first,
                    head_weight):  # fmt: skip
    """:func:`_add_point` over every head data point `i` reaches (none left
    out), adding its `weight` to each: the rows are the background too, so
    this one walk gives both the point's ``PD_S`` and, summed over the rows,
    every head's background weight on S's splits (:func:`_head_shares`)."""
    stack[0] = 0
    top = 1
    while top > 0:
        top -= 1
        h = stack[top]
        head_weight[h] += weight
        for k in range(group_sum.shape[1]):
            out[i, first + k] += group_sum[h, k]
        for e in range(next_start[h], next_start[h + 1]):
            node = next_split[e] + root
            f = nodes[node, FEATURE] & FEATURE_MASK
            flag, limit = _test(node, nodes, thresholds)
            if _sends_left(X[i, f], flag, limit, node, nodes, bitsets):
                stack[top] = nodes[node, LEFT] - root
            else:
                stack[top] = nodes[node, RIGHT] - root
            top += 1


# The steps of one tree in order, over every tree: their buffers are
# allocated once for the largest tree; the docstring is a third of it.
@compiled(nogil=True)
def tree_dependences(X, w, in_set, trees, own_pd, other_pd, f, with_f):
    """Add every tree's part of ``PD_S``, ``PD_-S`` and ``f`` at the rows of
    `X` (see the module doc), trees in order.

    Parameters
    ----------
    X : float32 or float64 array of shape (n_rows, n_columns)
        The data points, also the background rows, in the model's input
        dtype (``TreeModel.as_model_input``).
    w : float64 array of shape (n_rows,)
        The background rows' weights, summing to 1.
    in_set : bool array of shape (n_columns,)
        The columns of S, as the trees number them.
    trees : WalkTrees
        The trees (see ``nodes``).
    own_pd, other_pd, f : float64 arrays of shape (n_rows, n_outputs)
        Where ``PD_S``, ``PD_-S`` and the predictions' leaf values add.
    with_f : bool
        Whether to walk the rows for `f` (the same for every S).
    """
    roots, outputs, nodes, bitsets, leaf_value, max_depth = trees
    thresholds = nodes.view(np.float64)
    n, width = X.shape[0], leaf_value.shape[1]
    ends = np.empty(roots.shape[0], dtype=np.int64)
    ends[:-1] = roots[1:]
    ends[-1] = nodes.shape[0]
    size = np.max(ends - roots)
    order = np.empty(size, dtype=np.int64)
    has_own = np.empty(size, dtype=np.bool_)
    has_other = np.empty(size, dtype=np.bool_)
    share = np.empty(size, dtype=np.float64)
    own_alive = np.empty(size, dtype=np.bool_)
    other_alive = np.empty(size, dtype=np.bool_)
    own_sums = np.empty((size, width), dtype=np.float64)
    other_sums = np.empty((size, width), dtype=np.float64)
    rows = np.empty(n, dtype=np.int64)
    head_of = np.empty(size, dtype=np.int64)
    own_group = np.empty((size, width), dtype=np.float64)
    other_group = np.empty((size, width), dtype=np.float64)
    own_start = np.empty(size + 1, dtype=np.int64)
    other_start = np.empty(size + 1, dtype=np.int64)
    own_next = np.empty(size, dtype=np.int64)
    other_next = np.empty(size, dtype=np.int64)
    heads = np.empty(size, dtype=np.int64)
    head_weight = np.empty(size, dtype=np.float64)
    # A pending part per split above the deepest leaf (see routing).
    stack = np.empty((max_depth + 2, 3), dtype=np.int64)
    for t in range(roots.shape[0]):
        root, first = roots[t], outputs[t]
        count = _preorder(root, nodes, order)
        _split_below(order, count, root, nodes, in_set, has_own, has_other)
        # PD_S: the background's other columns, the point's S.
        share[:count], own_alive[:count] = 0.0, False
        _shares(X, w, rows, root, nodes, thresholds, bitsets, in_set, False,
                has_other, stack, share, own_alive)  # fmt: skip
        _subtree_sums(order, count, root, nodes, leaf_value, share, own_alive,
                      has_other, own_sums)  # fmt: skip
        _skeleton(order, count, root, nodes, in_set, True, has_own, own_sums,
                  head_of, own_group, own_start, own_next)  # fmt: skip
        # One walk of S's splits per row: its PD_S, and (the rows are the
        # background) the weights that give PD_-S's shares.
        head_weight[:count] = 0.0
        for i in range(n):
            _walk_and_weigh(X, i, w[i], root, nodes, thresholds, bitsets, own_group,
                            own_start, own_next, heads, own_pd, first,
                            head_weight)  # fmt: skip
        _head_shares(order, count, root, nodes, in_set, head_weight, share)
        for at in range(count):
            other_alive[at] = share[at] > 0
        _sum_up(order, count, root, nodes, leaf_value, share, other_sums)
        _skeleton(order, count, root, nodes, in_set, False, has_other, other_sums,
                  head_of, other_group, other_start, other_next)  # fmt: skip
        for i in range(n):
            _add_point(X, i, root, nodes, thresholds, bitsets, other_alive,
                       other_group, other_start, other_next, heads, other_pd,
                       first)  # fmt: skip
            if not with_f:
                continue
            node = root
            while nodes[node, LEFT] != -1:
                f_ = nodes[node, FEATURE] & FEATURE_MASK
                flag, limit = _test(node, nodes, thresholds)
                if _sends_left(X[i, f_], flag, limit, node, nodes, bitsets):
                    node = nodes[node, LEFT]
                else:
                    node = nodes[node, RIGHT]
            for k in range(width):
                f[i, first + k] += leaf_value[node, k]
