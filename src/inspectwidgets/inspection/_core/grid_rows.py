"""Rows set to grid values, as scikit-learn's partial dependence sets them:
shared by partial dependence and accumulated local effects."""

import warnings

import numpy as np
from scipy import sparse

from .validation import quoted


def grid_rows(X, positions, grid, values, names):
    """A copy of X's first row per grid point, with the features set to it.

    Set exactly as scikit-learn sets them on its copy of X (element by element,
    pandas' ``iloc`` for DataFrames), so the values and dtypes the model sees
    are the same. Errors (a value the column cannot hold) name the feature.
    """
    n_points = grid.shape[0]
    index = np.indices([len(v) for v in values]).reshape(len(values), -1)
    if sparse.issparse(X):
        # The batcher takes only the features' columns from these rows.
        rows = sparse.csr_matrix((n_points, X.shape[1]), dtype=X.dtype).tolil()
        for i, position in enumerate(positions):
            rows[:, position] = grid[:, [i]]
        rows = rows.tocsr()
        rows.sort_indices()
        return rows
    if not hasattr(X, "iloc"):
        rows = np.empty((n_points, X.shape[1]), dtype=X.dtype)
        rows[:] = X[0]
        for i, position in enumerate(positions):
            rows[:, position] = grid[:, i]
        return rows
    rows = X.iloc[np.zeros(n_points, dtype=np.intp)].reset_index(drop=True)
    for i, position in enumerate(positions):
        # The grid values of this feature, with the grid's dtype.
        axis = np.empty(len(values[i]), dtype=grid.dtype)
        axis[:] = values[i]
        if axis.dtype == np.float64 and X.dtypes.iloc[position] == np.float64:
            # Floats into a float column: what pandas would store, at once.
            rows.isetitem(position, axis[index[i]])
            continue
        column = X.iloc[np.zeros(len(axis), dtype=np.intp), [position]].copy()
        with warnings.catch_warnings():
            # scikit-learn silences pandas' warning on setting a categorical
            # column from a string, and so do we.
            warnings.simplefilter("ignore", FutureWarning)
            for j, value in enumerate(axis):
                try:
                    column.iloc[j, 0] = value
                except (TypeError, ValueError) as exc:
                    raise type(exc)(
                        f"features: column {quoted(names[position])} of dtype "
                        f"{X.dtypes.iloc[position]} cannot hold the grid value "
                        f"{quoted(value)}: {exc}"
                    ) from exc
        rows.isetitem(position, column.iloc[:, 0].array.take(index[i]))
    return rows
