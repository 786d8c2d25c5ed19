"""What the data looks like along a partial dependence curve.

A partial dependence curve averages predictions at grid values that may be
rare in the data, or combined with values of correlated features that never
occur together. The distribution of each feature (deciles and a histogram, or
category counts) and a rank-correlation check put the curve in context.
"""

import numpy as np
import pandas as pd
from scipy.stats.mstats import mquantiles

from .._core.correlation import spearman_matrix
from .grid import feature_column, sorted_quantiles
from .result import CorrelatedFeature, FeatureDistribution

MAX_BINS = 50
# Rows used by the correlation check; more only sharpen an estimate of |rho|
# that is compared against a threshold. Evenly spaced rows are taken beyond.
MAX_CORRELATION_ROWS = 10_000


def _as_float(data):
    """The column as a float ndarray, or None if it is not numeric."""
    values = np.asarray(data)
    if values.dtype.kind in "iuf":
        return values.astype(np.float64, copy=False)
    if values.dtype == object:
        try:
            return values.astype(np.float64)
        except (TypeError, ValueError):
            return None
    return None


def feature_distribution(X, column, name, categorical, grid_values, ordered=None):
    """Deciles and a histogram of a numeric feature, category counts otherwise.

    Categorical features (and non-numeric columns) count the rows equal to each
    grid value; numeric ones summarize their finite values: the deciles that
    scikit-learn's display draws (``mquantiles`` at 0.1, ..., 0.9) and a
    histogram with numpy's "auto" bins, at most ``MAX_BINS``. `ordered`, the
    column's values sorted with no NaN among them (``grid.sorted_numbers``),
    spares sorting them again.
    """
    if ordered is not None and not categorical:
        return _sorted_distribution(name, ordered.astype(np.float64, copy=False))
    data = feature_column(X, column)
    values = None if categorical else _as_float(data)
    if values is None:
        counted = pd.Series(np.asarray(data, dtype=object)).value_counts(dropna=False)
        counts = counted.reindex(pd.Index(grid_values, dtype=object), fill_value=0)
        n_missing = int(pd.isna(np.asarray(data, dtype=object)).sum())
        return FeatureDistribution(
            feature=name,
            categorical=True,
            n_missing=n_missing,
            counts=counts.to_numpy(dtype=np.int64),
            categories=np.asarray(grid_values),
        )
    return _numeric_distribution(name, values, values[np.isfinite(values)])


def _sorted_distribution(name, ordered):
    """`_numeric_distribution` of a column whose float values sorted, no NaN
    among them, are `ordered`: its finite values are a slice (infinities sort
    to the ends), and the summaries depend only on which values there are."""
    low = np.searchsorted(ordered, -np.inf, side="right")
    high = np.searchsorted(ordered, np.inf, side="left")
    return _numeric_distribution(name, ordered, ordered[low:high], is_sorted=True)


def _numeric_distribution(name, values, finite, is_sorted=False):
    """Deciles and histogram of `finite`, the finite ones of `values`."""
    if finite.size == 0:
        return FeatureDistribution(
            feature=name,
            categorical=False,
            n_missing=int(values.size),
            counts=np.zeros(0, dtype=np.int64),
            bin_edges=np.zeros(0),
            deciles=np.full(9, np.nan),
        )
    counts, edges = _auto_histogram(finite, is_sorted)
    return FeatureDistribution(
        feature=name,
        categorical=False,
        n_missing=int(values.size - finite.size),
        counts=counts,
        bin_edges=edges,
        deciles=_deciles(finite, is_sorted),
    )


def _auto_histogram(finite, is_sorted):
    """Counts and edges of `finite` in numpy's "auto" bins, at most MAX_BINS.
    Far outliers: numpy < 2.1 builds every "auto" bin's edge before the cap
    (more than memory holds; there would be MAX_BINS), and a range wider than
    the largest float has no equal bins, so those take MAX_BINS bins over the
    halved values, their edges doubled (exact: a power of 2)."""
    with np.errstate(over="ignore", invalid="ignore"):
        try:
            edges = np.histogram_bin_edges(finite, bins="auto")
        except (ValueError, OverflowError, MemoryError):
            edges = None
        if edges is not None and np.isfinite(edges[-1] - edges[0]):
            n_bins = min(len(edges) - 1, MAX_BINS)
            return _histogram(finite, n_bins, (edges[0], edges[-1]), is_sorted)
    counts, halved = np.histogram(finite / 2, bins=MAX_BINS)
    return counts, halved * 2


def _histogram(finite, n_bins, ends, is_sorted):
    """``np.histogram(finite, n_bins, range=ends)``: equal bins between the
    same ends, counted by numpy's arithmetic (it sorts values given edges).
    Values sorted are counted by searching the edges, as numpy counts given
    edges: the same counts (each bin ``[edge, next edge)``, the last closed)."""
    if not is_sorted:
        return np.histogram(finite, bins=n_bins, range=ends)
    edges = np.histogram_bin_edges(finite[:0], bins=n_bins, range=ends)
    below = finite.searchsorted(edges[:-1], "left")
    below_last = finite.searchsorted(edges[-1:], "right")
    return np.diff(np.concatenate([below, below_last])), edges


def _deciles(finite, is_sorted):
    """``mquantiles`` at 0.1, ..., 0.9 (the same bits when `finite` is
    sorted: `grid.sorted_quantiles`)."""
    prob = np.arange(0.1, 1.0, 0.1)
    if is_sorted and finite.size >= 2:
        return sorted_quantiles(finite, prob)
    return np.asarray(mquantiles(finite, prob=prob))


def _numeric_columns(X, rows):
    """Float values of X's numeric, non-categorical columns, by position."""
    numeric = {}
    for j in range(X.shape[1]):
        column = feature_column(X, j)
        if isinstance(getattr(column, "dtype", None), pd.CategoricalDtype):
            continue
        values = _as_float(column if rows is None else np.asarray(column)[rows])
        if values is not None:
            numeric[j] = values
    return numeric


def correlated_features(X, columns, names, is_categorical, threshold):
    """Numeric features whose |Spearman rho| with a feature of the curve is at
    least `threshold`.

    Parameters
    ----------
    X : ndarray or DataFrame
    columns : list of int
        Positions of the features of the partial dependence.
    names : list of str
        Names of every column of X.
    is_categorical : list of bool
        For each of `columns`; categorical features are not checked.
    threshold : float

    Returns
    -------
    correlated : tuple of CorrelatedFeature
        Strongest first.
    """
    rows = None
    if X.shape[0] > MAX_CORRELATION_ROWS:
        rows = np.linspace(0, X.shape[0] - 1, MAX_CORRELATION_ROWS).astype(np.intp)
    numeric = _numeric_columns(X, rows)
    order = list(numeric)
    rho = spearman_matrix(np.column_stack(list(numeric.values()))) if numeric else None
    found = []
    for column, categorical in zip(columns, is_categorical, strict=True):
        if categorical or column not in numeric:
            continue
        i = order.index(column)
        for j, partner in enumerate(order):
            if partner != column and abs(rho[i, j]) >= threshold:
                found.append(
                    CorrelatedFeature(names[column], names[partner], float(rho[i, j]))
                )
    return tuple(sorted(found, key=lambda c: -abs(c.spearman_rho)))
