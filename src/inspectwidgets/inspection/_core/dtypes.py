"""Integer, nullable and bool features as floats, in a new X.

Grids and bin edges lie between a feature's values (percentiles, quantiles):
set in an integer column they would be rounded (NumPy) or refused (pandas).
Methods that take such features numerically work on a copy of X whose
feature columns are float64, missing values (``pd.NA``) as NaN; the user's X
is never changed. The model then sees float values in those columns, which
scikit-learn's numeric estimators take as they take integers.
"""

import numpy as np


def float_column(X, position):
    """Column `position` of X as float64, NaN where missing; a TypeError or
    ValueError if it is not numeric."""
    column = X.iloc[:, position] if hasattr(X, "iloc") else X[:, position]
    if hasattr(column, "to_numpy"):
        return column.to_numpy(dtype=np.float64, na_value=np.nan)
    return np.asarray(column, dtype=np.float64)


def is_integer_like(X, position):
    """Whether column `position` holds integers or bools (nullable included);
    False for what is no frame or array (a list: the functions convert it)."""
    dtype = X.dtypes.iloc[position] if hasattr(X, "iloc") else getattr(X, "dtype", None)
    return getattr(dtype, "kind", "O") in "iub"


def float_features(X, positions):
    """X with its integer, nullable and bool columns at `positions` as
    float64: a new frame (the other columns shared, not copied) or array, or
    X itself when there is nothing to convert."""
    changed = [p for p in positions if is_integer_like(X, p)]
    if not changed:
        return X
    if not hasattr(X, "iloc"):
        return X.astype(np.float64)  # an integer or bool ndarray
    X = X.copy(deep=False)
    for p in changed:
        X.isetitem(p, float_column(X, p))
    return X
