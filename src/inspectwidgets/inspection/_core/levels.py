"""Which values of a text column a chart may name (#49).

A text column with nearly one value per row (an ID, an e-mail, a social
security number) names a person by each of its values: listed in a partial
dependence grid, an overview panel or the cohort form's suggestions, every
value lands in a review sent to others. Such a column is summarised, never
enumerated: its values found in at least `MIN_ROWS` rows (at most
`MAX_NAMED`, most frequent first) are named, the rest count as "other" and a
note says so. A column of at most `MAX_LEVELS` distinct values (a plan, a
region), or whose every value is held by `MIN_ROWS` rows or more (fifty
states over thousands of rows: no value picks out a person), is listed
whole, as scikit-learn lists it.

The one place this is decided: the overview's grid, the PD widget's grid and
the cohort form all ask `level_summary`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from pandas.api.types import is_bool_dtype, is_numeric_dtype

MAX_LEVELS = 20
"""A text column with more distinct values than this is summarised: a chart
of more categories is unreadable anyway, and IDs have many more."""

MIN_ROWS = 5
"""A value a summary names is shared by at least this many rows: one held by
a single row (or two) picks out a person."""

MAX_NAMED = 10
"""At most this many values are named in a summary, most frequent first."""


@dataclass(frozen=True)
class LevelSummary:
    """A text column summarised: the values it names and the rest.

    Attributes
    ----------
    named : tuple
        The values named (the column's own values, not their text), most
        frequent first; empty when no value is shared by `MIN_ROWS` rows.
    n_values : int
        Distinct non-missing values of the column.
    n_other_values, n_other_rows : int
        Distinct values left out, and the rows holding them.
    """

    named: tuple
    n_values: int
    n_other_values: int
    n_other_rows: int

    @property
    def note(self) -> str:
        """One sentence for the reader, under the chart or the form."""
        if not self.named:
            return (
                f"{self.n_values:,} distinct values, none in {MIN_ROWS} rows or "
                "more: no value is named (an ID or an e-mail names a person)."
            )
        return (
            f"{len(self.named)} of {self.n_values:,} distinct values shown (those "
            f"in {MIN_ROWS} rows or more, at most {MAX_NAMED}); "
            f"{self.n_other_values:,} other values ({self.n_other_rows:,} rows) "
            "are not named."
        )


def is_text(column: pd.Series) -> bool:
    """Whether `column` holds text (strings or categories of strings): not
    numbers, bools, nor an object column holding only numbers."""
    if is_bool_dtype(column.dtype) or is_numeric_dtype(column.dtype):
        return False
    if isinstance(column.dtype, pd.CategoricalDtype):
        return not is_numeric_dtype(column.dtype.categories.dtype)
    try:
        column.dropna().to_numpy(dtype=np.float64)
    except (TypeError, ValueError):
        return True
    return False


def level_summary(values: object) -> LevelSummary | None:
    """`values` (one column: a Series or a 1-D array) summarised, or None
    when it is not text, has at most `MAX_LEVELS` distinct values, or none
    of its values is held by fewer than `MIN_ROWS` rows (then every value
    may be listed).

    >>> summary = level_summary([f"id{i}" for i in range(100)] + ["x"] * 6)
    >>> summary.named, summary.n_values, summary.n_other_values
    (('x',), 101, 100)
    """
    column = values if isinstance(values, pd.Series) else pd.Series(values)
    if not is_text(column):
        return None
    # Counted as the values themselves (a grid sets rows to them), in an
    # object Series: a categorical's unused categories are not values.
    counts = pd.Series(column.to_numpy(dtype=object)).dropna().value_counts()
    if len(counts) <= MAX_LEVELS or counts.iloc[-1] >= MIN_ROWS:
        return None
    frequent = counts[counts >= MIN_ROWS].iloc[:MAX_NAMED]
    return LevelSummary(
        named=tuple(frequent.index),
        n_values=len(counts),
        n_other_values=len(counts) - len(frequent),
        n_other_rows=int(counts.sum() - frequent.sum()),
    )
