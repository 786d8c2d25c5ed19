"""Groups of correlated features, for grouped permutation importance."""

import numpy as np
from scipy.cluster import hierarchy
from scipy.spatial.distance import squareform
from scipy.stats import rankdata
from sklearn.utils import Bunch

from .._core.validation import check_X, column_names


def cluster_features(X, *, threshold=None, n_clusters=None):
    """Cluster features on Spearman rank correlation, as in scikit-learn's
    multicollinear-features example.

    Features are joined by Ward linkage on the distance ``1 - |ρ|``; cutting the
    tree at `threshold` (or into `n_clusters`) gives groups of features that
    move together. Permuting one feature of such a group leaves its partners
    to carry the signal, so its permutation importance looks small; pass
    ``result.groups`` as ``features=`` to permutation importance to permute each
    group at once.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Numeric features.
    threshold : float, default=None
        Linkage distance at which to cut (``fcluster(..., criterion="distance")``).
    n_clusters : int, default=None
        Number of groups wanted (``criterion="maxclust"``). Give at most one of
        `threshold` and `n_clusters`; with neither, `threshold` is 1.

    Returns
    -------
    result : Bunch
        groups : dict of str to list
            Label (the names of up to three members) -> column names (for a
            DataFrame) or indices, in X's column order.
        labels : ndarray of shape (n_features,)
            Cluster number of each feature, from 1.
        linkage : ndarray of shape (n_features - 1, 4)
            SciPy linkage matrix, for a dendrogram.
        correlation : ndarray of shape (n_features, n_features)
            Spearman correlations over the rows without missing values (0 where
            a feature is constant).
        feature_names : ndarray of str
            The columns' names (x0, x1, ... for an array).

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from inspectwidgets import cluster_features
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> clusters = cluster_features(X, n_clusters=3)
    >>> clusters.groups
    {'age + bmi + bp (+2)': ['age', 'bmi', 'bp', 's5', 's6'],
     'sex + s3 + s4': ['sex', 's3', 's4'], 's1 + s2': ['s1', 's2']}
    >>> clusters.labels.shape, clusters.linkage.shape
    ((10,), (9, 4))
    """
    if threshold is not None and n_clusters is not None:
        raise ValueError(
            "Give threshold or n_clusters, not both; "
            f"got threshold={threshold!r} and n_clusters={n_clusters!r}."
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
    if threshold is not None and not threshold >= 0:
        raise ValueError(f"threshold must be >= 0; got {threshold!r}.")
    values = _float_values(X, names)
    # Spearman's rho is Pearson's on ranks; rows with a missing value are left out.
    ranks = rankdata(values[~np.isnan(values).any(axis=1)], axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        correlation = np.corrcoef(ranks, rowvar=False)
    correlation = np.nan_to_num(correlation, nan=0.0)
    # Symmetric with a unit diagonal, as squareform and Ward need.
    correlation = (correlation + correlation.T) / 2
    np.fill_diagonal(correlation, 1.0)
    distance = 1 - np.abs(correlation)
    linkage = hierarchy.ward(squareform(distance, checks=False))
    if n_clusters is not None:
        labels = hierarchy.fcluster(linkage, n_clusters, criterion="maxclust")
    else:
        labels = hierarchy.fcluster(
            linkage, 1.0 if threshold is None else threshold, criterion="distance"
        )
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


def groups_at(clusters, X, threshold):
    """Every column of X in one group: the numeric ones as `clusters` (from
    :func:`numeric_clusters`) cut at linkage distance `threshold`, every other
    column on its own; each column on its own when `clusters` is None."""
    columns = list(X.columns) if hasattr(X, "columns") else list(range(X.shape[1]))
    if clusters is None:
        return {str(c): [c] for c in columns}
    # By name, as the clusters know the columns ('x0', ... for an array).
    clustered = {str(name) for name in clusters.feature_names}
    names = column_names(X)
    numeric = [c for c, n in zip(columns, names, strict=True) if n in clustered]
    groups = groups_of(
        hierarchy.fcluster(clusters.linkage, threshold, criterion="distance"),
        numeric,
    )
    groups.update({str(c): [c] for c in columns if c not in numeric})
    return groups


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
                f"column {names[j]!r} is not ({error}); encode it first (for "
                "example with an OrdinalEncoder)."
            ) from error
    return values
