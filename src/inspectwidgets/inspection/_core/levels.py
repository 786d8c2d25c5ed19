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

The one place this is decided: the overview's grid, the PD widget's grid,
the cohort form, the categories a rule tree may split on (ICE clusters,
conditional importance: rule_inputs.py), the ALE (refused) and the cohort
rules shown (`rule_naming_only`) all ask `level_summary`.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from pandas.api.types import is_bool_dtype, is_numeric_dtype

from .cohort_rules import Condition, parse_rule

if TYPE_CHECKING:
    from collections.abc import Callable

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


UNNAMED_VALUE = f"<a value in fewer than {MIN_ROWS} rows>"
"""What a rule shows in place of a value `level_summary` does not name."""

# A name in backticks (kept whole: it may hold quotes), or a text value of the
# rule language (cohort_rules.py): 'text' or "text", backslash escapes.
_NAME_OR_TEXT = re.compile(r"`(?:[^`]|``)*`|'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def replace_text_values(rule: str, replace: Callable[[str], str | None]) -> str:
    """`rule` (cohort_rules.py's language) with each quoted text value
    ``'pro'`` written ``replace('pro')``, or kept where that is None.
    Column names (in backticks, or as written) are left alone."""

    def one(match: re.Match) -> str:
        token = match.group()
        if token.startswith("`"):
            return token
        try:
            value = ast.literal_eval(token)
        except (ValueError, SyntaxError):  # quotes in a bare name ("it's")
            return token
        shown = replace(value)
        return token if shown is None else shown

    return _NAME_OR_TEXT.sub(one, rule)


def rule_naming_only(
    rule: str, names: list[str], column: Callable[[str], object]
) -> str:
    """`rule` as a page may show it: each text value it compares a column
    with nearly one value per row to (``email == 'a@b.c'``), where
    `level_summary` does not name that value, written `UNNAMED_VALUE`.
    `column(name)` gives a column's values; a rule that does not parse is
    returned as it is (it was refused before it was shown).

    >>> ids = {"email": [f"p{i}@x.org" for i in range(30)]}
    >>> rule_naming_only("email == 'p3@x.org'", ["email"], ids.get)
    'email == <a value in fewer than 5 rows>'
    """
    try:
        tree = parse_rule(rule, names)
    except ValueError:
        return rule
    hidden: set[str] = set()
    for condition in _conditions(tree):
        values = (
            condition.value
            if isinstance(condition.value, tuple)
            else (condition.value,)
        )
        texts = {v for v in values if isinstance(v, str)}
        if not texts:
            continue
        summary = level_summary(column(condition.name))
        if summary is not None:
            hidden |= texts - {str(v) for v in summary.named}
    if not hidden:
        return rule
    return replace_text_values(rule, lambda v: UNNAMED_VALUE if v in hidden else None)


def _conditions(tree):
    if isinstance(tree, Condition):
        yield tree
        return
    for part in tree.parts:
        yield from _conditions(part)
