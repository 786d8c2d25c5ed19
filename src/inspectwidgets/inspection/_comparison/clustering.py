"""Groups of correlated features, for grouped permutation importance."""

from __future__ import annotations

import numpy as np
from scipy.cluster import hierarchy
from scipy.spatial.distance import squareform
from sklearn.utils import Bunch

from .._core.columns import column_names
from .._core.correlation import DEFAULT_CORRELATION_THRESHOLD, spearman_matrix
from .._core.hints import Data
from .._core.validation import check_X, quoted


def cluster_features(
    X: Data,
    *,
    correlation_threshold: float | None = None,
    n_clusters: int | None = None,
) -> Bunch:
    """Group features whose Spearman rank correlations are all strong.

    Features are joined by complete linkage on the distance ``1 - |ρ|``: two
    groups merge at the largest distance between their members, so cutting
    the tree at ``1 - correlation_threshold`` gives groups in which **every**
    pair has ``|ρ| >= correlation_threshold``, and no feature is grouped with
    one it is less correlated with. (scikit-learn's multicollinear-features
    example cuts a Ward linkage instead, whose heights are not in units of ρ:
    at its cut of 1 it groups features with ρ near 0.) Permuting one feature
    of such a group leaves its partners to carry the signal, so its
    permutation importance looks small; pass ``result.groups`` as
    ``features=`` to permutation importance to permute each group at once.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Numeric features.
    correlation_threshold : float in [0, 1], default=None
        The ``|Spearman ρ|`` every pair in a group reaches. None:
        ``DEFAULT_CORRELATION_THRESHOLD`` (0.8), unless `n_clusters` is given.
    n_clusters : int, default=None
        Number of groups wanted (``fcluster(..., criterion="maxclust")`` on the
        same tree). Give at most one of `correlation_threshold` and
        `n_clusters`.

    Returns
    -------
    result : Bunch
        groups : dict of str to list
            Label (the names of up to three members) -> column names (for a
            DataFrame) or indices, in X's column order.
        labels : ndarray of shape (n_features,)
            Cluster number of each feature, from 1.
        linkage : ndarray of shape (n_features - 1, 4)
            SciPy's complete linkage matrix, for a dendrogram: a merge's
            height is ``1 - |ρ|`` of its least correlated pair.
        correlation : ndarray of shape (n_features, n_features)
            Spearman correlations, each pair over the rows where both
            features are present (0 where a feature is constant there, or
            fewer than 3 rows have both).
        feature_names : ndarray of str
            The columns' names (x0, x1, ... for an array).

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from inspectwidgets import cluster_features
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> clusters = cluster_features(X, correlation_threshold=0.7)
    >>> [members for members in clusters.groups.values() if len(members) > 1]
    [['s1', 's2'], ['s3', 's4']]
    >>> clusters.labels.shape, clusters.linkage.shape
    ((10,), (9, 4))
    """
    if correlation_threshold is not None and n_clusters is not None:
        raise ValueError(
            "Give correlation_threshold or n_clusters, not both; got "
            f"correlation_threshold={correlation_threshold!r} and "
            f"n_clusters={n_clusters!r}."
        )
    X = check_X(X)
    names = column_names(X)
    if X.shape[1] < 2:
        raise ValueError(f"X needs at least 2 features to cluster; got {X.shape[1]}.")
    if n_clusters is not None and not 1 <= n_clusters <= X.shape[1]:
        raise ValueError(
            f"n_clusters must be between 1 and the {X.shape[1]} features; "
            f"got {n_clusters}."
        )
    if correlation_threshold is not None:
        check_correlation_threshold(correlation_threshold)
    correlation = np.nan_to_num(spearman_matrix(_float_values(X, names)), nan=0.0)
    # Symmetric with a unit diagonal, as squareform and Ward need.
    correlation = (correlation + correlation.T) / 2
    np.fill_diagonal(correlation, 1.0)
    distance = 1 - np.abs(correlation)
    linkage = hierarchy.complete(squareform(distance, checks=False))
    if n_clusters is not None:
        labels = hierarchy.fcluster(linkage, n_clusters, criterion="maxclust")
    else:
        labels = _cut(linkage, correlation_threshold)
    columns = list(X.columns) if hasattr(X, "columns") else list(range(X.shape[1]))
    groups = groups_of(labels, columns)
    return Bunch(
        groups=groups,
        labels=labels,
        linkage=linkage,
        correlation=correlation,
        feature_names=np.asarray(names, dtype=object),
    )


def numeric_clusters(X):
    """:func:`cluster_features` of X's numeric columns, or None when X has
    fewer than two of them.

    Correlation needs two columns, so with fewer there is nothing to cluster:
    :func:`groups_at` then puts every column in a group of its own (grouped
    permutation importance becomes the plain one). `X` is checked already.
    """
    if hasattr(X, "select_dtypes"):
        numeric = X.select_dtypes("number")
    else:
        numeric = X if np.issubdtype(X.dtype, np.number) else X[:, :0]
    if numeric.shape[1] < 2:
        return None
    return cluster_features(numeric)


def groups_at(clusters, X, correlation_threshold):
    """Every column of X in one group: the numeric ones as `clusters` (from
    :func:`numeric_clusters`) cut at `correlation_threshold`, every other
    column on its own; each column on its own when `clusters` is None."""
    columns = list(X.columns) if hasattr(X, "columns") else list(range(X.shape[1]))
    if clusters is None:
        return {str(c): [c] for c in columns}
    # By name, as the clusters know the columns ('x0', ... for an array).
    clustered = {str(name) for name in clusters.feature_names}
    names = column_names(X)
    numeric = [c for c, n in zip(columns, names, strict=True) if n in clustered]
    groups = groups_of(_cut(clusters.linkage, correlation_threshold), numeric)
    groups.update({str(c): [c] for c in columns if c not in numeric})
    return groups


def check_correlation_threshold(value):
    """`value` as a float in [0, 1], or a ValueError naming it."""
    if not isinstance(value, (int, float, np.integer, np.floating)) or not (
        0 <= value <= 1
    ):
        raise ValueError(
            "correlation_threshold is the |Spearman rho| at which features are "
            f"grouped, a number between 0 and 1; got {value!r}."
        )
    return float(value)


def _cut(linkage, correlation_threshold):
    """Cluster numbers of a complete linkage on ``1 - |ρ|`` cut so that every
    pair in a cluster has ``|ρ| >= correlation_threshold``."""
    if correlation_threshold is None:
        correlation_threshold = DEFAULT_CORRELATION_THRESHOLD
    return hierarchy.fcluster(
        linkage, 1.0 - correlation_threshold, criterion="distance"
    )


def groups_of(labels, columns):
    """``{label: [columns]}`` for cluster numbers `labels`, one per column."""
    groups = {}
    for cluster in dict.fromkeys(labels):
        members = [
            c for c, label in zip(columns, labels, strict=True) if label == cluster
        ]
        groups[_group_label([str(m) for m in members])] = members
    return groups


def _group_label(names):
    if len(names) <= 3:
        return " + ".join(names)
    return f"{' + '.join(names[:3])} (+{len(names) - 3})"


def _float_values(X, names):
    """X as floats, NaN where a value is missing (``pd.NA`` of nullable
    columns included); a column that is not numeric is named."""
    columns = (
        [X.iloc[:, j] for j in range(X.shape[1])]
        if hasattr(X, "iloc")
        else list(np.asarray(X).T)
    )
    values = np.empty((X.shape[0], X.shape[1]))
    for j, column in enumerate(columns):
        try:
            if hasattr(column, "to_numpy"):
                values[:, j] = column.to_numpy(dtype=float, na_value=np.nan)
            else:
                values[:, j] = np.asarray(column, dtype=float)
        except (TypeError, ValueError) as error:
            raise ValueError(
                "cluster_features ranks X's columns, so they must be numeric: "
                f"column {quoted(names[j])} is not ({error}); encode it first (for "
                "example with an OrdinalEncoder)."
            ) from error
    return values
