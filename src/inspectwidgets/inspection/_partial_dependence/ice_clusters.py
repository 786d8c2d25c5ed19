"""ICE clusters: which rows' curves share a shape, and what sets them apart.

From a result's ICE curves, without another prediction:

1. each curve is centered (shifted to 0 at the first grid point, c-ICE,
   Goldstein et al. 2015), so that curves group by shape, not by level;
2. k-means (scikit-learn's ``KMeans``: k-means++, one initialization, the
   run's seed) groups the centered curves, for the k given or, else, for
   each k in 2..6 and keeps the k of the largest mean silhouette
   (Rousseeuw 1987) of the clustered curves, taken on at most
   :data:`SILHOUETTE_ROWS` of them drawn as ``silhouette_score`` draws them;
3. a shallow decision tree on X predicts each row's cluster; its leaves,
   written as rules (_core/tree_rules.py), say which rows fall in a cluster
   ("tenure <= 14 and contract = 'monthly'").

Clusters are numbered by size, largest first.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from sklearn.cluster import KMeans
from sklearn.metrics import pairwise_distances
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils import check_random_state
from threadpoolctl import threadpool_limits

from .._core.columns import column_names
from .._core.compat import _safe_indexing
from .._core.hints import Data, RandomState
from .._core.rule_inputs import ColumnCoding
from .._core.tree_rules import RuleValues, leaf_rule
from .._core.validation import check_random_state_argument, check_X, quoted
from .ice_summary import _one_way_curves, _outputs
from .result import PartialDependenceResult

CANDIDATE_CLUSTERS = range(2, 7)
"""The k tried when `n_clusters` is None."""

SILHOUETTE_ROWS = 2000
"""Curves the silhouette is taken on, at most (drawn as scikit-learn's
``silhouette_score(sample_size=...)`` draws them): its distances grow with
the square of the rows, and 2,000 curves rank 2 to 6 clusters alike."""


@dataclass(frozen=True)
class ClusterRule:
    """One leaf of the tree telling the clusters apart.

    Attributes
    ----------
    rule : str
        The conditions on X's columns leading to the leaf.
    size : int
        Rows of X in the leaf.
    precision : float
        Share of the leaf's rows in the cluster.
    coverage : float
        Share of the cluster's rows in the leaf.
    """

    rule: str
    size: int
    precision: float
    coverage: float


@dataclass(frozen=True)
class IceClusters:
    """ICE curves grouped by shape, with rules on X for each group.

    Attributes
    ----------
    feature_names, grid_values, output_names : tuple
        As in the partial dependence result.
    labels : ndarray of int of shape (n_curves,)
        Each curve's cluster, 0 the largest.
    sizes : ndarray of int of shape (n_clusters,)
    centered_average : ndarray of shape (n_clusters, n_outputs, n_grid)
        Each cluster's mean centered curve (what k-means clustered).
    average : ndarray of shape (n_clusters, n_outputs, n_grid)
        Each cluster's mean curve: the partial dependence on its rows.
    silhouette : dict of int to float
        The mean silhouette of each k tried (just the k given, if given;
        empty when all curves have one shape).
    rules : tuple of tuple of ClusterRule, or None
        Per cluster, the tree's leaves where it is the commonest, most of its
        rows first; empty for a cluster the tree cannot tell apart at its
        depth. None without X.
    tree_accuracy : float or None
        Share of the curves whose cluster the tree's leaves predict.
    ice_rows : ndarray of int or None
        Rows of X behind the curves, None for all rows.
    rule_rows : tuple of tuple of ndarray, or None
        Per cluster and rule (as `rules`), the positions among the curves of
        the rule's rows: the leaf's own rows, those the rule's text selects
        in X (the rows behind the curves). None without X.
    """

    feature_names: tuple[str, ...]
    grid_values: tuple[np.ndarray, ...]
    output_names: tuple[Any, ...] | None
    labels: np.ndarray
    sizes: np.ndarray
    centered_average: np.ndarray
    average: np.ndarray
    silhouette: dict[int, float]
    rules: tuple[tuple[ClusterRule, ...], ...] | None
    tree_accuracy: float | None
    ice_rows: np.ndarray | None
    rule_rows: tuple[tuple[np.ndarray, ...], ...] | None = None

    @property
    def n_clusters(self) -> int:
        return len(self.sizes)

    def to_frame(self) -> pd.DataFrame:
        """One row per cluster, output and grid point: ``cluster``,
        ``size``, the feature's value, ``output``, ``centered_average`` and
        ``average``."""
        n_clusters, n_outputs, n_grid = self.average.shape
        return pd.DataFrame(
            {
                "cluster": np.repeat(np.arange(n_clusters), n_outputs * n_grid),
                "size": np.repeat(self.sizes, n_outputs * n_grid),
                self.feature_names[0]: np.tile(
                    np.asarray(self.grid_values[0], dtype=object),
                    n_clusters * n_outputs,
                ),
                "output": np.tile(
                    np.repeat(_outputs(self.output_names, n_outputs), n_grid),
                    n_clusters,
                ),
                "centered_average": self.centered_average.ravel(),
                "average": self.average.ravel(),
            }
        )

    def rules_to_frame(self) -> pd.DataFrame:
        """One row per rule: ``cluster``, ``rule``, ``size``, ``precision``,
        ``coverage``."""
        rows = [
            {"cluster": c, **vars(rule)}
            for c, rules in enumerate(self.rules or ())
            for rule in rules
        ]
        columns = ["cluster", "rule", "size", "precision", "coverage"]
        return pd.DataFrame(rows, columns=columns)


def ice_clusters(
    result: PartialDependenceResult,
    X: Data | None = None,
    *,
    n_clusters: int | None = None,
    max_depth: int = 3,
    random_state: RandomState = 0,
) -> IceClusters:
    """Group a one-way result's ICE curves by shape (k-means on the centered
    curves) and say what sets each group's rows apart (rules of a shallow
    tree on X); no prediction.

    Parameters
    ----------
    result : PartialDependenceResult
        Of one feature, with ICE curves (``kind="individual"`` or ``"both"``).
        Several outputs (classes) are clustered together: a curve is its
        outputs' curves end to end.
    X : ndarray or DataFrame, default=None
        The data the result was computed on (its rows behind the curves are
        taken where the curves are of drawn rows, ``n_ice``), for the rules;
        None: no rules. The feature's own columns are left out of the tree:
        a row's curve does not depend on its own value of the feature.
    n_clusters : int >= 1 or None, default=None
        The number of clusters; None: the k in 2..6 of the largest mean
        silhouette.
    max_depth : int >= 1, default=3
        Depth of the tree on X: at most ``2**max_depth`` rules.
    random_state : int, RandomState instance or None, default=0
        Seeds k-means, the silhouette's draw and the tree (one int drawn
        from it where it is not an int): the same seed gives the same
        clusters.

    Returns
    -------
    IceClusters

    Examples
    --------
    Two groups of rows with opposite effects of x0, set apart by x1:

    >>> import numpy as np
    >>> from sklearn.ensemble import GradientBoostingRegressor
    >>> from inspectwidgets import ice_clusters, partial_dependence
    >>> rng = np.random.RandomState(0)
    >>> X = rng.uniform(-1, 1, size=(500, 2))
    >>> y = np.where(X[:, 1] > 0.2, X[:, 0], -X[:, 0])
    >>> model = GradientBoostingRegressor(random_state=0).fit(X, y)
    >>> pd_result = partial_dependence(
    ...     model, X, [0], kind="both", grid_resolution=10, return_result=True
    ... )
    >>> clusters = ice_clusters(pd_result, X)
    >>> clusters.n_clusters, clusters.sizes.tolist()
    (2, [311, 189])
    >>> [rules[0].rule for rules in clusters.rules]
    ['x1 <= 0.2', 'x1 > 0.2']
    """
    curves = _one_way_curves(result, "ice_clusters")
    if not np.isfinite(curves).all():
        raise ValueError(
            "result: its ICE curves hold NaN or infinity (a partial result, or "
            "a model predicting them); ice_clusters needs finite curves."
        )
    centered = curves - curves[..., :1]
    n_outputs, n_rows, n_grid = curves.shape
    flat = np.moveaxis(centered, 0, 1).reshape(n_rows, n_outputs * n_grid)
    seed = _seed(random_state)
    n_clusters = _check_n_clusters(n_clusters, n_rows)
    max_depth = _check_max_depth(max_depth)
    X = None if X is None else check_X(X)
    rows = None if X is None else _rows_of_curves(result, X, n_rows)
    labels, silhouette = _cluster(flat, n_clusters, seed)
    # Numbered by size, largest first (ties by the first row).
    sizes = np.bincount(labels)
    order = sorted(range(len(sizes)), key=lambda c: (-sizes[c], np.argmax(labels == c)))
    labels = np.argsort(order)[labels]
    sizes = sizes[order]
    rules = accuracy = rule_rows = None
    if rows is not None:
        rules, accuracy, rule_rows = _rules(
            rows, X, result.feature_columns, labels, max_depth, seed
        )
    return IceClusters(
        feature_names=result.feature_names,
        grid_values=result.grid_values,
        output_names=result.output_names,
        labels=labels,
        sizes=sizes,
        centered_average=_means(centered, labels, len(sizes)),
        average=_means(curves, labels, len(sizes)),
        silhouette=silhouette,
        rules=rules,
        tree_accuracy=accuracy,
        ice_rows=result.ice_rows,
        rule_rows=rule_rows,
    )


def _seed(random_state):
    check_random_state_argument(random_state, "ice_clusters")
    if isinstance(random_state, numbers.Integral):
        return int(random_state)
    return int(check_random_state(random_state).randint(np.iinfo(np.int32).max))


def _check_n_clusters(n_clusters, n_rows):
    if n_clusters is None:
        return None
    if (
        isinstance(n_clusters, bool)
        or not isinstance(n_clusters, numbers.Integral)
        or not 1 <= n_clusters <= n_rows
    ):
        raise ValueError(
            f"n_clusters must be an int in [1, {n_rows}] (the curves) or None; "
            f"got {quoted(n_clusters)}."
        )
    return int(n_clusters)


def _check_max_depth(max_depth):
    if (
        isinstance(max_depth, bool)
        or not isinstance(max_depth, numbers.Integral)
        or max_depth < 1
    ):
        raise ValueError(f"max_depth must be an int >= 1; got {quoted(max_depth)}.")
    return int(max_depth)


def _rows_of_curves(result, X, n_rows):
    """X's rows behind the curves."""
    X = check_X(X)
    if result.ice_rows is not None and X.shape[0] != n_rows:
        if X.shape[0] <= int(np.max(result.ice_rows)):
            raise ValueError(
                f"X has {X.shape[0]} rows; the result's curves are of rows up "
                f"to {int(np.max(result.ice_rows))} of the X it was computed on."
            )
        return _safe_indexing(X, result.ice_rows, axis=0)
    if X.shape[0] != n_rows:
        raise ValueError(
            f"X has {X.shape[0]} rows; the result holds {n_rows} ICE curves, "
            "one per row of the X it was computed on. Pass that X."
        )
    return X


def _cluster(flat, n_clusters, seed):
    """Each curve's cluster, and the mean silhouette of each k tried."""
    at_most = max(n_clusters or 0, max(CANDIDATE_CLUSTERS))
    n_rows, n_shapes = len(flat), _distinct_shapes(flat, at_most)
    if n_clusters == 1 or n_shapes == 1:
        return np.zeros(n_rows, dtype=np.intp), {}
    if n_clusters is not None and n_clusters > n_shapes:
        raise ValueError(
            f"n_clusters={n_clusters}, but the centered curves have only "
            f"{n_shapes} distinct shapes; ask for at most {n_shapes}."
        )
    if n_clusters is not None:
        candidates = [n_clusters]
    else:  # the silhouette needs 2 <= k <= n_rows - 1
        candidates = [
            k for k in CANDIDATE_CLUSTERS if k <= n_shapes and k < n_rows
        ] or [2]
    # One thread (OpenMP's and BLAS's): on curves this small, threads cost
    # more than they save, and far more on a busy machine
    # (benchmarks/results/ice_clusters.md).
    with threadpool_limits(limits=1):
        fits = {
            k: KMeans(n_clusters=k, n_init=1, random_state=seed).fit(flat).labels_
            for k in candidates
        }
        sample = np.random.RandomState(seed).permutation(n_rows)[:SILHOUETTE_ROWS]
        distances = pairwise_distances(flat[sample])
        scores = {
            k: _mean_silhouette(distances, fits[k][sample])
            for k in candidates
            if 1 < k < len(sample)
        }
    best = max(candidates, key=lambda k: (scores.get(k, -np.inf), -k))
    return fits[best].astype(np.intp), scores


def _distinct_shapes(flat, at_most):
    """Distinct rows of `flat`, counted up to `at_most` (sorting 10,000 rows
    to count them all would take longer than the k-means)."""
    seen = set()
    for row in flat:
        seen.add(row.tobytes())
        if len(seen) >= at_most:
            break
    return len(seen)


def _mean_silhouette(distances, labels):
    """Rousseeuw's silhouette averaged over the rows of `distances`: a row's
    mean distance to the other rows of its cluster (a), the smallest mean
    distance to another cluster's rows (b), (b - a) / max(a, b); 0 for a row
    alone in its cluster."""
    clusters, labels = np.unique(labels, return_inverse=True)
    if len(clusters) < 2:
        return float("nan")
    members = np.eye(len(clusters))[labels]  # rows x clusters
    counts = members.sum(axis=0)
    sums = distances @ members
    own_count = counts[labels] - 1
    with np.errstate(invalid="ignore", divide="ignore"):
        a = sums[np.arange(len(labels)), labels] / own_count
        others = sums / counts
    others[np.arange(len(labels)), labels] = np.inf
    b = others.min(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        s = (b - a) / np.maximum(a, b)
    s[own_count == 0] = 0.0
    return float(np.nan_to_num(s).mean())


def _means(curves, labels, n_clusters):
    """Each cluster's mean curve: (n_clusters, n_outputs, n_grid)."""
    sums = np.zeros((n_clusters, curves.shape[0], curves.shape[2]))
    np.add.at(sums, labels, np.moveaxis(curves, 1, 0))
    return sums / np.bincount(labels, minlength=n_clusters)[:, None, None]


def _rules(X, X_all, feature_columns, labels, max_depth, seed):
    """Per cluster, the leaves of a tree on X (the curves' rows; but the
    feature's columns) where it is the commonest; the tree's accuracy; and
    each rule's rows. The rules are exact on every row of `X_all` (X's
    rows among them): a cohort made of a rule is drawn from all of them."""
    n_clusters = labels.max() + 1
    if n_clusters == 1:
        every_row = ((np.arange(len(labels)),),)
        return ((ClusterRule("all rows", len(labels), 1.0, 1.0),),), 1.0, every_row
    names = column_names(X)
    coding = ColumnCoding(X, names)
    inputs = coding.inputs(X)
    kept = coding.other_columns(set(feature_columns))
    if not kept:
        empty = tuple(() for _ in range(n_clusters))
        return empty, float(np.mean(labels == 0)), empty
    tree = DecisionTreeClassifier(max_depth=max_depth, random_state=seed)
    tree.fit(inputs[:, kept], labels)
    leaf_of_row = tree.apply(inputs[:, kept])
    leaves = np.unique(leaf_of_row)
    counts = np.zeros((len(leaves), n_clusters), dtype=np.intp)
    np.add.at(counts, (np.searchsorted(leaves, leaf_of_row), labels), 1)
    commonest = counts.argmax(axis=1)
    values = RuleValues(coding, (X_all,))
    sizes = np.bincount(labels, minlength=n_clusters)
    rules = [[] for _ in range(n_clusters)]
    for i, leaf in enumerate(leaves):
        c = commonest[i]
        rules[c].append(
            (
                np.flatnonzero(leaf_of_row == leaf),
                ClusterRule(
                    rule=leaf_rule(tree.tree_, leaf, kept, values),
                    size=int(counts[i].sum()),
                    precision=float(counts[i, c] / counts[i].sum()),
                    coverage=float(counts[i, c] / sizes[c]),
                ),
            )
        )
    accuracy = float(counts[np.arange(len(leaves)), commonest].sum() / len(labels))
    ordered = [sorted(r, key=lambda pair: -pair[1].coverage) for r in rules]
    return (
        tuple(tuple(rule for _, rule in r) for r in ordered),
        accuracy,
        tuple(tuple(rows for rows, _ in r) for r in ordered),
    )
