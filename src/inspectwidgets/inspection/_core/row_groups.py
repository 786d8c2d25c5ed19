"""Subgroups of rows: a label per row (a column of X, or an array) as codes,
the way every engine splits its rows by `subgroups`.

Labels keep their order of first appearance; a missing label (NaN, None,
``pd.NA``, ``NaT``) is a subgroup of its own, named :data:`MISSING_LABEL`,
rather than an error or rows silently left out. Labels of any dtype are
taken (strings, categoricals, nullable integers, bools): pandas factorizes
them.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .columns import column_position
from .validation import quoted

MISSING_LABEL = "missing"
"""How a missing value is named: a chart's category, a missing label's subgroup."""

MIN_SUBGROUP_SIZE = 30
"""Subgroups of fewer rows are flagged `small`: kept and drawn (greyed), never
dropped. The rule of thumb for a mean to be read as an estimate: its standard
error is the rows' spread over sqrt(n), more than 18% of that spread below
30 rows."""


@dataclass(frozen=True)
class RowGroups:
    """Each row's subgroup code (0 .. k-1), the k labels, and each's rows."""

    codes: np.ndarray
    labels: tuple
    sizes: np.ndarray

    def rows(self, group: int) -> np.ndarray:
        """Positions of `group`'s rows, in X's order."""
        return np.flatnonzero(self.codes == group)


def row_groups(subgroups, n_rows, X=None):
    """The :class:`RowGroups` of `subgroups`: one label per row (array-like
    of shape (n_rows,)) or, where X is given, a column of X by name (or by
    position for an array X)."""
    if X is not None and _names_a_column(subgroups):
        position = column_position(X, subgroups, "subgroups")
        subgroups = (
            X.iloc[:, position] if hasattr(X, "iloc") else np.asarray(X)[:, position]
        )
    if np.ndim(subgroups) != 1 or len(subgroups) != n_rows:
        raise ValueError(
            f"subgroups has shape {np.shape(subgroups)}; pass one label per row "
            f"of X ({n_rows},)"
            + (" or the name of a column of X." if X is not None else ".")
        )
    labels = pd.Series(np.asarray(subgroups, dtype=object)).reset_index(drop=True)
    codes, uniques = pd.factorize(labels, use_na_sentinel=True)
    names = [_label(u) for u in uniques]
    if np.any(codes < 0):
        codes = np.where(codes < 0, len(names), codes)
        names.append(MISSING_LABEL)
    codes = codes.astype(np.intp)
    return RowGroups(codes, tuple(names), np.bincount(codes, minlength=len(names)))


def check_min_size(min_size):
    """`min_size`, an int >= 1."""
    if (
        isinstance(min_size, bool)
        or not isinstance(min_size, numbers.Integral)
        or min_size < 1
    ):
        raise ValueError(f"min_size must be an int >= 1; got {quoted(min_size)}.")
    return int(min_size)


def _names_a_column(subgroups):
    return isinstance(subgroups, (str, numbers.Integral)) and not isinstance(
        subgroups, bool
    )


def _label(value):
    return value.item() if isinstance(value, np.generic) else value
