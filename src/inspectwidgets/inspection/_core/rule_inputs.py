"""X's columns as a rule tree reads them, and a feature as it predicts it.

Conditional permutation importance fits, for each feature, a shallow tree on
the other columns (_permutation/subgroups.py); ICE clustering fits one on X
to tell its clusters apart (_partial_dependence/ice_clusters.py). Their
leaves are written as rules by tree_rules.py. scikit-learn's trees take floats, NaN
included (missing values go to the side the split learned, since 1.3; the
oldest version we support is 1.6), so:

- numeric, integer, bool and nullable columns (Int64, Float64, boolean) are
  read as float64, ``pd.NA`` as NaN;
- an infinite value is read as missing;
- string, object and category columns become one 0/1 indicator per category,
  NaN where the value is missing, for the `MAX_INDICATORS` categories most
  frequent in X_fit (ties by their text): a split on one reads "color =
  'red'" or "color != 'red'"; rarer categories are told apart by none of them.

The feature itself (the tree's target) is a number for a numeric column, a
class (its text) for a string, category or bool column, and, for a group of
columns, each column's value standardized (numeric) or its indicators, one
output each: a multi-output regression, whose squared error on indicators is
the Gini impurity (sum over classes of p(1 - p)), so a group's tree splits as
a classification tree would on its categories.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
from pandas.api.types import is_bool_dtype, is_numeric_dtype

from .._core.dtypes import float_column
from .levels import level_summary

# Categories of a string column the trees can tell apart (the most frequent).
MAX_INDICATORS = 30


@dataclass(frozen=True)
class EncodedColumn:
    """One column of the trees' inputs: X's column `source`, as a number
    (`category` None; 0 or 1 if `boolean`) or as the indicator of `category`."""

    source: int
    name: str
    category: object = None
    boolean: bool = False


class ColumnCoding:
    """How X's columns are read by the subgroup trees, learnt on X_fit."""

    def __init__(self, X_fit, names):
        self.names = names
        self.kinds = [column_kind(X_fit, p) for p in range(X_fit.shape[1])]
        self.categories = [
            _frequent_categories(_objects(X_fit, p)) if k == "categorical" else None
            for p, k in enumerate(self.kinds)
        ]
        self.columns = []
        for p, kind in enumerate(self.kinds):
            if kind == "categorical":
                self.columns += [
                    EncodedColumn(p, names[p], c) for c in self.categories[p]
                ]
            else:
                self.columns.append(EncodedColumn(p, names[p], boolean=kind == "bool"))

    def inputs(self, X):
        """Every column of X as the trees read it: (n_rows, len(columns)),
        float32 as scikit-learn's trees read it (no copy of theirs), an
        infinite value as missing (the trees refuse it)."""
        block = np.empty((X.shape[0], len(self.columns)), dtype=np.float32)
        start = 0
        for p, kind in enumerate(self.kinds):
            if kind == "categorical":
                values = _indicators(_objects(X, p), self.categories[p])
            else:
                values = float_column(X, p)[:, np.newaxis]
            block[:, start : start + values.shape[1]] = values
            start += values.shape[1]
        block[np.isinf(block)] = np.nan
        return block

    def exact_values(self, X, position):
        """Input `position` (of :attr:`columns`) of X as float64, as a
        cohort compares it (cohorts.py), NaN where :meth:`inputs` reads a
        missing value (an infinite number too, or one float32 cannot hold):
        what a rule's thresholds must split as the tree does."""
        column = self.columns[position]
        if column.category is not None:
            values = _indicators(_objects(X, column.source), [column.category])[:, 0]
        else:
            values = float_column(X, column.source).copy()
        with np.errstate(over="ignore"):
            values[np.isinf(values.astype(np.float32))] = np.nan
        return values

    def other_columns(self, own):
        """Positions in :meth:`inputs` of the columns not in `own`."""
        return [i for i, c in enumerate(self.columns) if c.source not in own]

    def target(self, X, own):
        """The feature (columns `own`) as its tree predicts it: a float
        vector (regression), an object vector of classes (classification) or
        a float matrix (a group); NaN or None where missing."""
        if len(own) == 1:
            p = own[0]
            if self.kinds[p] == "numeric":
                return _finite_or_nan(float_column(X, p))
            values = _objects(X, p)
            missing = pd.isna(values)
            labels = np.array([str(v) for v in values], dtype=object)
            labels[missing] = None
            return labels
        outputs = []
        for p in own:
            if self.kinds[p] == "numeric":
                column = _finite_or_nan(float_column(X, p))
                spread = np.nanstd(column) if np.isfinite(column).any() else 0.0
                center = np.nanmean(column) if np.isfinite(column).any() else 0.0
                outputs.append(((column - center) / (spread or 1.0))[:, None])
            else:
                values = _objects(X, p)
                outputs.append(_indicators(values, _frequent_categories(values)))
        return np.hstack(outputs)


def column_kind(X, position):
    """ "numeric" (floats, integers, nullable numbers), "bool" or
    "categorical" (strings, objects, categories)."""
    column = X.iloc[:, position] if hasattr(X, "iloc") else X[:, position]
    dtype = column.dtype
    if is_bool_dtype(dtype):
        return "bool"
    if is_numeric_dtype(dtype):
        return "numeric"
    if isinstance(column, np.ndarray) and dtype.kind == "O":
        try:  # an object array of numbers, as check_array keeps mixed X
            np.asarray(column, dtype=np.float64)
        except (TypeError, ValueError):
            return "categorical"
        return "numeric"
    return "categorical"


def _finite_or_nan(column):
    """The feature as its tree predicts it: an infinite value as missing."""
    return np.where(np.isinf(column), np.nan, column)


def _objects(X, position):
    column = X.iloc[:, position] if hasattr(X, "iloc") else X[:, position]
    return np.asarray(column, dtype=object)


def _frequent_categories(values):
    """The `MAX_INDICATORS` most frequent non-missing values, most frequent
    first, ties by their text (so the same data give the same columns). Of a
    column with nearly one value per row (an ID, an e-mail), only the values
    `level_summary` names: a rule ("email = 'a@b.c'") is shown, and saved
    in a page, where a value held by fewer than `MIN_ROWS` rows would name
    a person."""
    present = values[~pd.isna(values)]
    uniques, counts = np.unique(present.astype(str), return_counts=True)
    order = sorted(range(len(uniques)), key=lambda i: (-counts[i], uniques[i]))
    summary = level_summary(values)
    if summary is not None:
        nameable = {str(value) for value in summary.named}
        order = [i for i in order if uniques[i] in nameable]
    return [str(uniques[i]) for i in order[:MAX_INDICATORS]]


def _indicators(values, categories):
    missing = pd.isna(values)
    text = np.array([str(v) for v in values], dtype=object)
    block = np.column_stack(
        [(text == c).astype(np.float64) for c in categories] or [np.zeros(len(values))]
    )
    block[missing] = np.nan
    return block if categories else block[:, :0]
