"""Columns of X by name or position: how an engine's `features` argument
resolves to positions, with errors that name the unknown or repeated label."""

import numbers
from collections.abc import Mapping

import numpy as np

from .validation import quoted, quoted_names


def column_names(X):
    """The names of X's columns: the DataFrame's labels or 'x0', 'x1', ..."""
    if hasattr(X, "columns"):
        return [str(c) for c in X.columns]
    return [f"x{i}" for i in range(X.shape[1])]


def _column_index(X, column, argument, names=None):
    """Resolve one column to its position in X: integers are positions (as in
    scikit-learn), anything else is a DataFrame column label or, for arrays,
    one of `names` (e.g. scikit-learn's `feature_names`)."""
    n_columns = X.shape[1]
    if isinstance(column, numbers.Integral) and not isinstance(column, bool):
        if not -n_columns <= column < n_columns:
            raise ValueError(
                f"{argument}: column index {column} is out of range for X with "
                f"{n_columns} columns (valid: 0 to {n_columns - 1})."
            )
        return int(column) % n_columns
    if hasattr(X, "columns") and column in X.columns:
        position = X.columns.get_loc(column)
        if not isinstance(position, numbers.Integral):  # a slice or a mask
            raise ValueError(
                f"{argument}: X has more than one column named {quoted(column)}; "
                "give X's columns unique names, or select by position."
            )
        return position
    if not hasattr(X, "columns") and names is not None and column in names:
        return list(names).index(column)
    if hasattr(X, "columns"):
        hint = f"X's columns are {quoted_names(list(X.columns))}."
    elif names is not None:
        hint = f"feature_names are {quoted_names(list(names))}."
    else:
        hint = "X is an array without column names; select columns by index."
    raise ValueError(f"{argument}: unknown feature {quoted(column)}. {hint}")


def column_position(X, column, argument, names=None):
    """Position in X of one column given by index or name; the error names
    `argument`. Unlike Python indexing, negative indices are refused."""
    is_index = isinstance(column, numbers.Integral) and not isinstance(column, bool)
    if is_index and column < 0:
        raise ValueError(
            f"{argument}: column index {column} is negative; pass an index "
            f"in [0, {X.shape[1] - 1}]."
        )
    return _column_index(X, column, argument, names)


def resolve_features(X, features):
    """Resolve `features` to labels and the column positions permuted together.

    Parameters
    ----------
    X : ndarray or DataFrame of shape (n_samples, n_columns)
    features : None, list of column names/indices, or mapping
        None selects every column; a list selects single columns; a mapping
        ``{label: column or list of columns}`` defines groups whose columns
        share one row permutation.

    Returns
    -------
    labels : list of str
    columns : list of tuple of int
    """
    names = column_names(X)
    if features is None:
        return names, [(i,) for i in range(X.shape[1])]
    if isinstance(features, Mapping):
        items = list(features.items())
    elif isinstance(features, (str, numbers.Integral)):
        items = [(features, features)]
    else:
        try:
            items = [(f, f) for f in features]
        except TypeError:
            raise TypeError(
                "features must be a list of column names/indices or a mapping "
                f"{{label: columns}}; got {type(features).__name__}."
            ) from None
    if not items:
        raise ValueError(
            "features is empty; pass at least one column name or index, "
            "or None to use every column."
        )
    labels, columns = [], []
    for label, spec in items:
        argument = f"features[{quoted(label)}]"
        spec = list(spec) if isinstance(spec, (list, tuple, np.ndarray)) else [spec]
        if not spec:
            raise ValueError(f"{argument}: a group needs at least one column.")
        positions = [_column_index(X, c, argument) for c in spec]
        if len(set(positions)) != len(positions):
            repeated = sorted({names[p] for p in positions if positions.count(p) > 1})
            raise ValueError(
                f"{argument} names column(s) {quoted_names(repeated)} more than once; "
                "list each column of a group once."
            )
        if isinstance(label, numbers.Integral) and not isinstance(label, bool):
            label = names[positions[0]] if len(positions) == 1 else str(label)
        labels.append(str(label))
        columns.append(tuple(positions))
    if len(set(labels)) != len(labels):
        repeated = sorted({label for label in labels if labels.count(label) > 1})
        raise ValueError(
            f"features contains duplicate labels: {quoted_names(repeated)}."
        )
    return labels, columns
