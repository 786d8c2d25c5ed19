"""The subgroups of conditional permutation importance (cs-PFI).

Molnar, König, Bischl & Casalicchio (2023) permute a feature within the
leaves of a shallow tree that predicts it from the other features, so that a
permuted value comes from rows alike in what the feature depends on. Their
reference code fits R's conditional inference trees (``partykit::ctree``):
a node is split only where a test of independence between the feature and
the other columns rejects at level 0.05 (Bonferroni-adjusted), leaves of at
least 30 rows. We fit scikit-learn's CART tree (``DecisionTreeRegressor`` for
a numeric feature, ``DecisionTreeClassifier`` for a string, category or bool
one, a multi-output regressor for a group: _core/rule_inputs.py) and then keep,
from the root down, only the splits a test finds significant, as ctree stops:

- a numeric feature (each output of a group): the F test of the two
  children's means, ``F = SSB / (SSW / (n - 2))`` on 1 and n - 2 degrees of
  freedom (a group: the smallest p-value times its outputs);
- a class: Pearson's chi-squared test of the 2 x K table of the children's
  class counts, on K - 1 degrees of freedom;

the p-value multiplied by the splits CART chose among (at most the input
columns times ``n_node - 1``: Bonferroni, which also covers CART's choice of
the best one), and the split kept where that is at most `alpha`. Below a
split not kept, nothing is kept. A feature the others do not predict thus
keeps its root: one subgroup of every row, whose permutation is exactly the
marginal one (schedule.within_subgroups).

The tree is fitted on X_fit's rows where the feature is not missing; every
row of X then falls in a leaf, missing values of the other columns going
where the tree's splits learnt to send them.
"""

import warnings
from dataclasses import dataclass

import numpy as np
from joblib import Parallel, delayed
from scipy import stats
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from .._core.parallel import WithCallersConfig, local_joblib_calls
from .._core.rule_inputs import ColumnCoding
from .._core.tree_rules import RuleValues, leaf_rule
from .result import Subgroup


@dataclass(frozen=True)
class SubgroupSettings:
    """The subgroup trees' knobs (see conditional_permutation_importance)."""

    max_depth: int | None
    min_samples_leaf: int | float
    alpha: float


@dataclass(frozen=True)
class FeatureSubgroups:
    """One feature's subgroups: each row of X's subgroup (0 .. k-1), and the
    subgroups' rules in that order."""

    codes: np.ndarray
    rules: tuple


def fit_subgroups(X, X_fit, names, feature_columns, settings, seed, n_threads=1):
    """Every feature's :class:`FeatureSubgroups`, its tree seeded with `seed`;
    the trees fitted on `n_threads` local threads (scikit-learn's trees fit
    without the GIL), each alike whatever the others."""
    coding = ColumnCoding(X_fit, names)
    inputs_fit, inputs = coding.inputs(X_fit), coding.inputs(X)
    # The rules are exact on X's rows (the subgroups') and on the trees'.
    values = RuleValues(coding, (X,) if X_fit is X else (X, X_fit))
    jobs = (
        delayed(WithCallersConfig(_feature_subgroups))(
            coding, values, inputs_fit, inputs, X_fit, own, settings, seed
        )
        for own in feature_columns
    )
    with local_joblib_calls():
        return Parallel(n_jobs=n_threads)(jobs)


def subgroups_of(feature, codes):
    """The :class:`Subgroup` rules of `feature` with their sizes among the
    rows whose subgroups are `codes`, leaving out subgroups with no row."""
    sizes = np.bincount(codes, minlength=len(feature.rules))
    return tuple(
        Subgroup(rule=rule, size=int(size))
        for rule, size in zip(feature.rules, sizes, strict=True)
        if size
    )


def _root(n_rows):
    return FeatureSubgroups(np.zeros(n_rows, dtype=np.uint8), ("all rows",))


def _feature_subgroups(coding, values, inputs_fit, inputs, X_fit, own, settings, seed):
    others = coding.other_columns(set(own))
    target = coding.target(X_fit, list(own))
    present = ~_missing(target)
    nothing_to_predict = target.ndim == 2 and target.shape[1] == 0
    if not others or present.sum() < 2 or nothing_to_predict:
        return _root(len(inputs))
    x_fit, target = inputs_fit[present][:, others], target[present]
    classes = target.dtype == object
    tree_class = DecisionTreeClassifier if classes else DecisionTreeRegressor
    tree = tree_class(
        max_depth=settings.max_depth,
        min_samples_leaf=settings.min_samples_leaf,
        random_state=seed,
    )
    with warnings.catch_warnings():
        # A category of many levels is still classes, not a regression.
        warnings.filterwarnings("ignore", "The number of unique classes", UserWarning)
        tree.fit(x_fit, target)
    kept = _significant_splits(tree, x_fit, target, classes, settings.alpha)
    subgroup_of_node = _stopped_nodes(tree.tree_, kept)
    leaves = np.unique(subgroup_of_node[tree.tree_.children_left == -1])
    if len(leaves) == 1:
        return _root(len(inputs))
    codes = np.searchsorted(leaves, subgroup_of_node[tree.apply(inputs[:, others])])
    rules = tuple(leaf_rule(tree.tree_, leaf, others, values) for leaf in leaves)
    # The smallest integers that hold them: the per-copy stable sort of the
    # codes (schedule.within_subgroups) is then numpy's radix sort.
    return FeatureSubgroups(codes.astype(np.min_scalar_type(len(leaves) - 1)), rules)


def _missing(target):
    if target.dtype == object:
        return np.array([v is None for v in target])
    missing = np.isnan(target)
    return missing if missing.ndim == 1 else missing.any(axis=1)


def _significant_splits(tree, x_fit, target, classes, alpha):
    """Whether each node's split passes its test (see the module doc)."""
    nodes = tree.tree_
    path = tree.decision_path(x_fit).T.tocsr()  # nodes x rows
    if classes:
        responses = (target[:, None] == tree.classes_[None, :]).astype(np.float64)
    else:
        responses = target.reshape(len(target), -1)
    counts = np.asarray(path.sum(axis=1)).ravel()
    sums = path @ responses
    squares = path @ responses**2
    n_inputs = x_fit.shape[1]
    kept = np.zeros(nodes.node_count, dtype=bool)
    for node in np.flatnonzero(nodes.children_left != -1):
        left, right = nodes.children_left[node], nodes.children_right[node]
        n = counts[node]
        if classes:
            p = _chi2_p(sums[left], sums[right])
        else:
            p = _f_p(counts, sums, squares, node, left, right)
        kept[node] = min(1.0, p * n_inputs * max(1, n - 1)) <= alpha
    return kept


def _f_p(counts, sums, squares, node, left, right):
    """The smallest p-value, times the outputs, of the F tests that the two
    children's means of each output are equal."""
    n, n_left, n_right = counts[node], counts[left], counts[right]
    if n <= 2:
        return 1.0
    mean_left, mean_right = sums[left] / n_left, sums[right] / n_right
    between = n_left * n_right / n * (mean_left - mean_right) ** 2
    total = squares[node] - sums[node] ** 2 / n
    within = np.maximum(total - between, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = between / (within / (n - 2))
    f = np.where(within > 0, f, np.where(between > 0, np.inf, 0.0))
    p = stats.f.sf(f, 1, n - 2)
    return float(p.min() * len(p))


def _chi2_p(left_counts, right_counts):
    """Pearson's chi-squared test of the children's class counts."""
    table = np.vstack([left_counts, right_counts])
    table = table[:, table.sum(axis=0) > 0]
    if table.shape[1] < 2:
        return 1.0
    expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0) / table.sum()
    statistic = ((table - expected) ** 2 / expected).sum()
    return float(stats.chi2.sf(statistic, table.shape[1] - 1))


def _stopped_nodes(nodes, kept):
    """Each node's subgroup: itself below kept splits only, else the first
    node above it whose split was not kept (node ids are in depth-first
    order, a parent before its children)."""
    subgroup = np.arange(nodes.node_count)
    for node in range(nodes.node_count):
        left = nodes.children_left[node]
        if left == -1:
            continue
        for child in (left, nodes.children_right[node]):
            stopped = subgroup[node] != node or not kept[node]
            subgroup[child] = subgroup[node] if stopped else child
    return subgroup
