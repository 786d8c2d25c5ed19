"""Whether the tree walk takes a model (:func:`take`, :func:`check`), and,
under ``algorithm="auto"``, whether it pays (:func:`predicts_faster`): the
tree shortcut's row in ``_shortcuts.choice``."""

import numpy as np

from ..._core.pipeline import columnwise_view
from .kinds import FORESTS, GRADIENT_BOOSTING, SINGLE_TREES, other_library, unsupported
from .lightgbm import LightGBMTrees, is_lightgbm
from .models import TreeModel


def predicts_faster(model, algorithm="auto", columns=None, n_repeats=1):
    """Whether, under ``algorithm="auto"``, predicting stacked copies beats
    walking them: with the permuted `columns` (one tuple per feature or
    group) of a single tree, a forest, gradient boosting or LightGBM, where
    most copies would leave their row's path early (see
    :func:`detour_share`). LightGBM's trees are weighed by the same cost,
    tuned on scikit-learn's predict and not re-tuned on LightGBM's (the walk
    wins by far on benchmarks/results/boosting_libraries.md's models)."""
    if algorithm != "auto" or columns is None:
        return False
    kind = type(model)
    reader = other_library(model)
    if reader is not None:
        shapes = reader.tree_shapes(model)
        if shapes is None:
            return False
    elif kind in FORESTS:
        shapes = [e.tree_ for e in model.estimators_]
    elif kind in GRADIENT_BOOSTING:
        shapes = [e.tree_ for e in model.estimators_.ravel()]
    elif kind in SINGLE_TREES:
        shapes = [model.tree_]
    elif is_lightgbm(model) and unsupported(model, None, ()) is None:
        shapes = LightGBMTrees.of(model).text.trees
    else:
        return False
    # Estimated on up to 16 of the trees, evenly spaced: a forest's trees
    # are alike, and all of them would delay the walk (benchmarks/results/trees.md).
    shapes = list(shapes)[:: max(1, len(shapes) // 16)]
    if is_lightgbm(model):
        shapes = LightGBMTrees.detour_trees(shapes)
    share = detour_share(shapes, columns)
    return DETOUR_COST * (share + 1 / (n_repeats * len(columns))) > 1


# What a node of the walk's detours costs, in nodes a stacked predict walks
# (scikit-learn's Cython); tuned on benchmarks/results/trees.md, re-checked by
# `benchmarks/trees.py --case detour`. With it, the walk is chosen below a
# detour share of about 0.6.
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
    # numpy step per depth for all of them, faster than tree by tree: it runs
    # before a widget's first bars.
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
    # A group the model never reads (a column its pipeline drops) is empty.
    n_columns = max((max(group) for group in columns if len(group)), default=-1) + 1
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


def take(model, X, methods, donor=None):
    """``(TreeModel, X, donor)`` as the trees read them where the walk
    applies to `model` on `X` (and `donor`), else why not (a str)."""
    reason = unsupported(model, X, methods)
    if reason is not None:
        return reason
    trees = TreeModel.of(model, X, methods)
    if trees is None:
        return (
            "the model's private attributes are not what the shortcut reads "
            "(another scikit-learn release?)"
        )
    X_in = trees.as_model_input(X)
    donor_in = None if donor is None else trees.as_model_input(donor)
    if X_in is None or (donor is not None and donor_in is None):
        if trees.flavour is not None:
            return (
                "X is not what LightGBM's predict reads as it is (its number "
                "of columns, category columns or a column that is not numeric)"
            )
        return trees.unreadable
    return trees, X_in, donor_in


def check(estimator, X, methods):
    """Why the walk cannot take `estimator` (a column-wise pipeline's final
    step, if so) whatever X's values, or None: for ``algorithm="tree"``,
    before any work."""
    view = columnwise_view(estimator, X.shape[1])
    model = estimator if view is None else view.model
    return unsupported(model, X if view is None else None, methods)
