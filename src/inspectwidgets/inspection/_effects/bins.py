"""The bins of accumulated local effects: quantile edges, and an order of
categories.

Numeric features: the unique quantiles of the feature at levels
``0, 1/K, ..., 1`` (K = `grid_resolution`, linear interpolation), as Apley &
Zhu (2020, section 3.1) and alibi take them. Row ``i`` falls in bin ``k`` when
``z_{k-1} < x_i <= z_k``; the smallest value joins the first bin.

Categorical features have no order, and ALE needs one: categories are put in
the order of the first coordinate of a classical multidimensional scaling of
their dissimilarity, the sum over the other features of the distance between
the feature's distribution within the two categories (Kolmogorov-Smirnov for
numeric features, total variation for categorical ones), as Apley & Zhu
suggest (section 5.3) and Molnar's iml package does. Missing values are one
more category (see `category_order`).
"""

import numpy as np
import pandas as pd

from .._core.dtypes import float_column
from .._core.validation import quoted


def quantile_edges(values, n_bins):
    """Unique quantiles of `values` at ``linspace(0, 1, n_bins + 1)``,
    missing values (NaN) left out."""
    values = values[~np.isnan(values)]
    return np.unique(np.quantile(values, np.linspace(0, 1, n_bins + 1)))


def bin_index(values, edges):
    """Bin ``k`` in ``1..K`` of every value: ``z_{k-1} < x <= z_k``, the
    smallest edge in bin 1."""
    index = np.searchsorted(edges, values, side="left")
    return np.clip(index, 1, len(edges) - 1)


def numeric_column(X, position, name):
    """Column `position` of X as float64, NaN where a value is missing
    (integer, nullable and bool columns included: their edges are quantiles
    between the values, set in a float copy of the column; see
    ``_core.dtypes``)."""
    try:
        return float_column(X, position)
    except (TypeError, ValueError):
        raise ValueError(
            f"features: column {quoted(name)} is not numeric; pass it in "
            "categorical_features for a categorical ALE."
        ) from None


def category_order(X, position, names, categorical):
    """The categories of column `position`, ordered as the module doc says,
    and each row's position in that order.

    `categorical` marks the other columns taken as categorical.
    """
    column = pd.Series(np.asarray(_column(X, position), dtype=object))
    # A missing value (NaN, None, pd.NA) is a category of its own, ordered
    # among the others as they are, as partial dependence's "missing"
    # category; the model predicts its rows with the feature missing.
    codes, categories = pd.factorize(column, sort=True, use_na_sentinel=False)
    k = len(categories)
    if k < 2:
        raise ValueError(
            f"features: column {quoted(names[position])} has a single category; ALE "
            "needs at least two."
        )
    distance = np.zeros((k, k))
    for other in range(X.shape[1]):
        if other == position:
            continue
        values = _column(X, other)
        if categorical[other] or not _is_numeric(values):
            distance += _total_variation(codes, k, values)
        else:
            distance += _kolmogorov_smirnov(codes, k, np.asarray(values, float))
    order = np.argsort(_first_mds_coordinate(distance), kind="stable")
    rank = np.empty(k, dtype=np.intp)
    rank[order] = np.arange(k)
    return np.asarray(categories)[order], rank[codes]


def _column(X, position):
    return X.iloc[:, position].to_numpy() if hasattr(X, "iloc") else X[:, position]


def _is_numeric(values):
    try:
        np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return True


def _kolmogorov_smirnov(codes, k, values):
    """Largest gap between the empirical distribution functions of `values`
    within every two categories, shape (k, k)."""
    points = np.unique(values[~np.isnan(values)])
    if points.size == 0:  # a column of missing values only: no evidence
        return np.zeros((k, k))
    cdfs = np.empty((k, len(points)))
    for c in range(k):
        within = np.sort(values[(codes == c) & ~np.isnan(values)])
        cdfs[c] = np.searchsorted(within, points, side="right") / max(len(within), 1)
    return np.abs(cdfs[:, None, :] - cdfs[None, :, :]).max(axis=2)


def _total_variation(codes, k, values):
    """Half the L1 distance between the frequencies of `values` within every
    two categories, shape (k, k)."""
    other, _ = pd.factorize(pd.Series(np.asarray(values, dtype=object)))
    table = np.zeros((k, other.max() + 2))
    np.add.at(table, (codes, other + 1), 1)  # NaN (-1) is a level of its own
    frequencies = table / table.sum(axis=1, keepdims=True)
    return 0.5 * np.abs(frequencies[:, None, :] - frequencies[None, :, :]).sum(axis=2)


def _first_mds_coordinate(distance):
    """Classical (Torgerson) scaling to one dimension: the leading
    eigenvector of the double-centred squared distances, scaled; its sign is
    fixed so the first category (sorted) comes first among ties."""
    k = len(distance)
    centering = np.eye(k) - 1 / k
    b = -0.5 * centering @ (distance**2) @ centering
    eigenvalues, eigenvectors = np.linalg.eigh(b)
    coordinate = eigenvectors[:, -1] * np.sqrt(max(eigenvalues[-1], 0))
    if coordinate[0] > 0:
        coordinate = -coordinate
    return coordinate
