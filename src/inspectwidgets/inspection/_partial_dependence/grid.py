"""The grid of a partial dependence, built exactly as scikit-learn builds it.

`grid_axes` follows ``sklearn.inspection._partial_dependence._grid_from_X``
step by step (unique values for categorical and low-cardinality features,
otherwise ``grid_resolution`` evenly spaced points between two percentiles
from ``mquantiles``, ``custom_values`` taking precedence), with errors that
name the argument and the value received. `coarse_to_fine` orders the grid
points so that a streamed curve shows its whole outline first (`grid_rows`, in
``_core``, sets the features to every grid point as scikit-learn's loop does).
"""

import numbers
from collections.abc import Iterable

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.stats.mstats import mquantiles

from .._core.compat import _safe_indexing
from .._core.validation import quoted


def feature_column(X, position):
    """Column `position` of X: a Series for a DataFrame, else a 1-D array (a
    sparse matrix's column made dense: the grid and summaries need its zeros).
    """
    column = _safe_indexing(X, position, axis=1)
    return column.toarray().ravel() if sparse.issparse(column) else column


def check_percentiles(percentiles):
    """Return `percentiles` as a pair of floats in [0, 1], strictly increasing."""
    if (
        isinstance(percentiles, (str, bytes))
        or not isinstance(percentiles, Iterable)
        or len(percentiles) != 2
        or not all(
            isinstance(p, numbers.Real) and not isinstance(p, bool) for p in percentiles
        )
    ):
        raise ValueError(
            "'percentiles' must be a sequence of 2 elements: numbers in [0, 1], "
            f"such as (0.05, 0.95); got {percentiles!r}."
        )
    low, high = percentiles
    if not (0 <= low <= 1 and 0 <= high <= 1):
        raise ValueError(
            f"'percentiles' values must be in [0, 1]; got {percentiles!r}."
        )
    if low >= high:
        raise ValueError(
            "percentiles[0] must be strictly less than percentiles[1]; "
            f"got {percentiles!r}."
        )
    return percentiles


def check_grid_resolution(grid_resolution):
    if not isinstance(grid_resolution, numbers.Integral) or isinstance(
        grid_resolution, bool
    ):
        raise TypeError(
            f"grid_resolution must be an int >= 2; got {grid_resolution!r} "
            f"of type {type(grid_resolution).__name__}."
        )
    if grid_resolution < 2:
        raise ValueError(
            f"'grid_resolution' must be strictly greater than 1; got {grid_resolution}."
        )
    return int(grid_resolution)


def custom_axis(values, name, index):
    """scikit-learn's conversion of the `custom_values` entry `name` for the
    feature at `index` in `features`: strings make an object array; the result
    must be 1-D and not empty."""
    try:
        values = list(values)
    except TypeError:
        raise TypeError(
            f"custom_values[{quoted(name)}] must be a 1-D array-like of grid values; "
            f"got {type(values).__name__}."
        ) from None
    dtype = object if any(isinstance(v, str) for v in values) else None
    axis = np.asarray(values, dtype=dtype)
    if axis.ndim != 1:
        raise ValueError(
            "The custom grid for some features is not a one-dimensional array. "
            f"Feature {index}: {axis.ndim} dimensions (custom_values[{quoted(name)}] "
            f"has shape {axis.shape})."
        )
    if axis.size == 0:
        raise ValueError(f"custom_values[{quoted(name)}] is empty; give grid values.")
    return axis


MISSING = ("sklearn", "observed")


def check_missing(missing):
    if not isinstance(missing, str) or missing not in MISSING:
        raise ValueError(f"missing must be one of {list(MISSING)}; got {missing!r}.")
    return missing


def missing_mask(data):
    """Which entries of a column are missing: NaN, None, ``pd.NA`` or
    ``pd.NaT``, whatever the column's dtype."""
    return np.asarray(pd.isna(data), dtype=bool)


def missing_value(data, mask):
    """The column's own missing value (NaN, None or ``pd.NA``), as it holds it:
    the value the model sees at the missing point."""
    if getattr(data, "dtype", None) is not None and data.dtype.kind == "f":
        return np.nan
    first = int(np.flatnonzero(mask)[0])
    value = data.iloc[first] if hasattr(data, "iloc") else data[first]
    return np.nan if value is pd.NaT else value


def grid_axes(
    X, columns, names, is_categorical, percentiles, grid_resolution, custom, missing
):
    """The grid values of each feature, as scikit-learn's ``_grid_from_X``.

    Parameters
    ----------
    X : ndarray or DataFrame of shape (n_samples, n_columns)
    columns : list of int
        Positions in X of the features of the partial dependence.
    names : list of str
        Their names, for error messages.
    is_categorical : list of bool
    percentiles : pair of float
    grid_resolution : int
    custom : dict of int to ndarray
        Grid values given by the user, keyed by position in `columns`.
    missing : {"sklearn", "observed"}
        "sklearn": scikit-learn's grid, missing values included (NaN is then
        the last unique value, or makes the percentiles NaN: refused here).
        "observed": the grid of the observed values, then the feature's
        missing value as its last grid value when it has missing values.

    Returns
    -------
    values : list of 1-D ndarray
        ``values[i]`` holds the grid values of feature ``columns[i]``.
    has_missing : list of bool
        Whether ``values[i]`` ends with the missing value added by
        ``missing="observed"``.
    ordered : list of 1-D ndarray or None
        ``ordered[i]`` holds every value of feature ``columns[i]`` sorted
        (see `sorted_numbers`) when its column is integers or floats with no
        missing value, for its distribution to reuse; None otherwise.
    """
    values, has_missing, ordered = [], [], []
    for i, (column, name, categorical) in enumerate(
        zip(columns, names, is_categorical, strict=True)
    ):
        if i in custom:
            values.append(custom[i])
            has_missing.append(False)
            ordered.append(None)
            continue
        data = feature_column(X, column)
        mask = missing_mask(data)
        n_missing = int(mask.sum())
        observed = missing == "observed" and n_missing > 0
        if observed:
            if n_missing == len(mask):
                raise ValueError(
                    f"features: column {quoted(name)} holds only missing values, so "
                    "there is no observed value to build its grid from; pick "
                    "another feature, or fill the column."
                )
            kept = data[~mask]
            data = kept.to_numpy() if hasattr(kept, "to_numpy") else kept
        column_sorted = sorted_numbers(data)
        # The distribution counts the missing values: it takes the whole column.
        ordered.append(None if n_missing else column_sorted)
        axis = _axis(
            data, i, name, categorical, percentiles, grid_resolution, n_missing > 0,
            column_sorted,
        )  # fmt: skip
        if observed:
            axis = _append(axis, missing_value(feature_column(X, column), mask))
        elif n_missing and axis.dtype.kind == "f" and np.isnan(axis).all():
            raise ValueError(
                f"features: column {quoted(name)} holds {n_missing} missing value(s), "
                "which make its percentiles (and scikit-learn's grid) NaN; pass "
                "missing='observed' for a grid of the observed values with the "
                "missing value as its own last point, or impute the column."
            )
        values.append(axis)
        has_missing.append(observed)
    return values, has_missing, ordered


def sorted_numbers(data):
    """`data`'s values sorted as ``np.unique`` and ``mquantiles`` sort them
    (numpy's default sort of a contiguous copy), or None unless they are
    integers or floats without NaN: one sort serves the grid and the
    feature's distribution."""
    values = np.asarray(data)
    if values.ndim != 1 or values.dtype.kind not in "iuf":
        return None
    ordered = np.sort(values)
    if ordered.dtype.kind == "f" and ordered.size and np.isnan(ordered[-1]):
        return None  # NaN sorts last
    return ordered


def sorted_quantiles(ordered, prob):
    """``scipy.stats.mstats.mquantiles(data, prob)`` (its default
    ``alphap=betap=0.4``) of `data` whose values sorted are `ordered`, at
    least 2 of them: scipy's ``_quantiles1D`` step by step, so the numbers
    are the same bits."""
    alphap = betap = 0.4
    p = np.atleast_1d(np.asarray(prob))
    m = alphap + p * (1.0 - alphap - betap)
    n = len(ordered)
    aleph = n * p + m
    k = np.floor(aleph.clip(1, n - 1)).astype(int)
    gamma = (aleph - k).clip(0, 1)
    return (1.0 - gamma) * ordered[(k - 1).tolist()] + gamma * ordered[k.tolist()]


def _n_unique(ordered):
    """How many distinct values `ordered` (sorted, no NaN) holds, counted as
    ``np.unique`` counts them (-0.0 equals 0.0)."""
    if ordered.size == 0:
        return 0
    return 1 + int(np.count_nonzero(ordered[1:] != ordered[:-1]))


def _axis(
    data, i, name, categorical, percentiles, grid_resolution, has_missing, ordered
):
    """scikit-learn's grid values of one column: its unique values, or evenly
    spaced values between two percentiles. `ordered` (the column sorted, or
    None) spares sorting it again when the grid is not its unique values."""
    spread = not categorical and ordered is not None
    if spread and _n_unique(ordered) >= grid_resolution:
        low, high = sorted_quantiles(ordered, percentiles)
        return _spread(low, high, name, percentiles, grid_resolution)
    try:
        uniques = np.unique(data)
    except TypeError as exc:
        # scikit-learn's first words (its tests match them); the column's name.
        if has_missing:
            raise ValueError(
                f"The column #{i} contains mixed data types: column {quoted(name)} "
                "holds missing values among strings, which cannot be sorted into "
                "a grid; pass missing='observed' for a grid of the observed "
                "categories with the missing value as its own last point, fill "
                "the missing values, or pass custom_values."
            ) from exc
        raise ValueError(
            f"The column #{i} contains mixed data types: column {quoted(name)} holds "
            "values of types that cannot be sorted together into a grid (such "
            "as numbers and strings); convert it to one type, or pass "
            "custom_values."
        ) from exc
    if categorical or uniques.shape[0] < grid_resolution:
        return uniques
    if uniques.dtype.kind in "OSU" and not _all_numbers(uniques):
        # scikit-learn fails in mquantiles ("can't multiply sequence by
        # non-int of type 'float'"); say which column, and the fix.
        raise ValueError(
            f"features: column {quoted(name)} holds strings, which have no "
            "percentiles to spread a numeric grid between; list it in "
            "categorical_features."
        )
    low, high = mquantiles(data, prob=percentiles, axis=0)
    return _spread(low, high, name, percentiles, grid_resolution)


def _spread(low, high, name, percentiles, grid_resolution):
    """`grid_resolution` evenly spaced values from `low` to `high`, the
    column's percentiles (refused when too close, as scikit-learn does)."""
    if np.allclose(low, high):
        raise ValueError(
            "percentiles are too close to each other, unable to build the "
            f"grid: percentiles={tuple(percentiles)!r} give the same value "
            f"({low:.6g}) for feature {quoted(name)}. Please choose percentiles "
            "that are further apart."
        )
    return np.linspace(low, high, num=grid_resolution, endpoint=True)


def _all_numbers(values):
    return all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values)


def _append(axis, value):
    """`axis` with `value` last, in a dtype that holds both."""
    if axis.dtype.kind == "f" and (value is pd.NA or value is None or value != value):
        return np.append(axis, np.nan)
    out = np.empty(len(axis) + 1, dtype=object)
    out[:-1] = axis
    out[-1] = value
    return out


def _levels(n):
    """How coarse each of `n` grid positions is: the ends first, then the
    positions divisible by the largest powers of two."""
    index = np.arange(n)
    levels = np.zeros(n, dtype=np.int64)
    for bit in range(1, max(n, 2).bit_length() + 1):
        levels[index % (1 << bit) == 0] = bit
    levels[0] = levels[-1] = n.bit_length() + 1
    return levels


def coarse_to_fine(shape):
    """Flat indices of a grid of `shape`, coarse points first.

    A point is as coarse as its finest coordinate; points equally coarse keep
    their grid order. The first point is always the grid's first point (the
    anchor of centered curves), and any prefix of the order covers the grid
    about evenly, so partial results already show the curve's outline.
    """
    per_axis = np.meshgrid(*[_levels(n) for n in shape], indexing="ij")
    level = np.min(np.stack([p.ravel() for p in per_axis]), axis=0)
    return np.argsort(-level, kind="stable")
