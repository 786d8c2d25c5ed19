"""Cohorts: named rules on X's columns ("age < 30 and plan == 'pro'"), each a
boolean mask over X's rows, and together a label per row for every engine's
`subgroups` (row_groups.py).

The rules are parsed by cohort_rules.py (no ``eval``). Over X:

- a numeric, integer, bool or nullable column (Int64, Float64, boolean) is
  compared as float64 (True as 1); a text value against it is refused;
- a string, object or category column is compared by text (a number value
  as its text: ``code == 3`` matches the category ``"3"``); only ``==``,
  ``!=`` and ``in`` apply to it;
- a missing value (NaN, None, ``pd.NA``, ``NaT``) meets no comparison, not
  even ``!=`` or ``not in``: ``x != 3`` leaves the rows where x is missing
  out (pandas' ``query`` keeps them), and ``is missing`` /
  ``is not missing`` test them. An infinite number is a number.
"""

from __future__ import annotations

import numbers
import operator
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .cohort_rules import Both, Condition, Either, parse_rule
from .columns import column_names
from .hints import Data
from .rule_inputs import column_kind
from .validation import quoted, quoted_names

REST = "rest"
"""The label of the rows in no cohort."""

_ORDER = {
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}


@dataclass(frozen=True)
class Cohort:
    """A named subset of X's rows: those meeting `rule`.

    Parameters
    ----------
    name : str
        The cohort's label in every chart, legend and table.
    rule : str
        Conditions on X's columns, ``feature op value`` joined by ``and``
        (``or`` and parentheses too): ``op`` is one of ``<``, ``<=``, ``>``,
        ``>=``, ``==`` (or ``=``), ``!=``, ``in [...]``, ``not in [...]``,
        ``is missing`` or ``is not missing``; a value is a number, a quoted
        text, True or False; a name is written as is, or in backticks (a
        backtick inside written twice). ``"all rows"`` is every row. A
        missing value meets no comparison. A rule longer than 1,000,000
        characters, of more than 1,000 conditions or 32 parentheses deep
        is refused.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from inspectwidgets import Cohort
    >>> X = pd.DataFrame({"age": [25, 40, np.nan], "plan": ["pro", "pro", "free"]})
    >>> Cohort("young pro", "age < 30 and plan == 'pro'").mask(X)
    array([ True, False, False])
    """

    name: str
    rule: str

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(
                "cohorts: a cohort's name must be a non-empty str; got "
                f"{quoted(self.name)}."
            )
        if self.name == REST:
            raise ValueError(
                f"cohorts: {REST!r} names the rows in no cohort; choose another name."
            )
        if not isinstance(self.rule, str):
            raise TypeError(
                f"cohorts: cohort {quoted(self.name)}'s rule must be a str; "
                f"got {quoted(self.rule)}."
            )

    def mask(self, X: Data, feature_names: list[str] | None = None) -> np.ndarray:
        """Whether each row of X meets the rule: a bool array of shape
        (n_samples,). `feature_names` names an array's columns (a frame's
        are its own)."""
        table = _table(X)
        names = _names(table, feature_names)
        return _evaluate(parse_rule(self.rule, names), table, names)


def check_cohorts(cohorts):
    """`cohorts` (a dict {name: rule}, or a list of Cohort or {"name", "rule"}
    dicts) as a tuple of Cohort, names unique."""
    if isinstance(cohorts, dict):
        items = [Cohort(name, rule) for name, rule in cohorts.items()]
    elif isinstance(cohorts, (list, tuple)):
        items = [_one(c) for c in cohorts]
    else:
        raise TypeError(
            "cohorts: a dict {name: rule} or a list of Cohort; got "
            f"{type(cohorts).__name__}."
        )
    names = [c.name for c in items]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(
            f"cohorts: names must be unique; {quoted_names(repeated)} repeat."
        )
    return tuple(items)


def cohort_labels(
    X: Data,
    cohorts: dict[str, str] | Sequence[Cohort | dict[str, str]],
    feature_names: list[str] | None = None,
) -> np.ndarray:
    """One label per row of X: the name of the first cohort (in order) whose
    rule the row meets, else ``"rest"``.

    Parameters
    ----------
    X : ndarray or DataFrame of shape (n_samples, n_features)
    cohorts : dict of str to str, or list of Cohort
        ``{name: rule}``; a row meeting several rules counts in the first.
    feature_names : list of str, default=None
        The columns' names of an array X.

    Returns
    -------
    labels : ndarray of object, shape (n_samples,)
        Ready for the engines' `subgroups`.

    Examples
    --------
    >>> import pandas as pd
    >>> from inspectwidgets import cohort_labels
    >>> X = pd.DataFrame({"age": [25, 40, 61], "plan": ["pro", "pro", "free"]})
    >>> cohort_labels(X, {"young": "age < 30", "pro": "plan == 'pro'"}).tolist()
    ['young', 'pro', 'rest']
    """
    checked = check_cohorts(cohorts)
    table = _table(X)
    labels = np.full(table.shape[0], REST, dtype=object)
    taken = np.zeros(table.shape[0], dtype=bool)
    for cohort in checked:
        inside = cohort.mask(table, feature_names) & ~taken
        labels[inside] = cohort.name
        taken |= inside
    return labels


def _one(cohort):
    if isinstance(cohort, Cohort):
        return cohort
    if isinstance(cohort, dict) and set(cohort) == {"name", "rule"}:
        return Cohort(cohort["name"], cohort["rule"])
    raise TypeError(
        "cohorts: each cohort is a Cohort or a dict with keys 'name' and "
        f"'rule'; got {quoted(cohort)}."
    )


def _table(X):
    """A frame as it is, anything else as a 2-D array."""
    table = X if isinstance(X, pd.DataFrame) else np.asarray(X)
    if table.ndim != 2:
        raise ValueError(f"X: a 2-D array or DataFrame; got shape {table.shape}.")
    return table


def _names(X, feature_names):
    if feature_names is None:
        return column_names(X)
    names = [str(n) for n in feature_names]
    if len(names) != X.shape[1]:
        raise ValueError(
            f"feature_names: {len(names)} names for X's {X.shape[1]} columns."
        )
    return names


def _evaluate(tree, X, names):
    if isinstance(tree, Condition):
        return _condition(tree, X, names.index(tree.name))
    masks = [_evaluate(part, X, names) for part in tree.parts]
    if isinstance(tree, Either):
        return np.logical_or.reduce(masks)
    assert isinstance(tree, Both)
    return np.logical_and.reduce(masks) if masks else np.ones(X.shape[0], bool)


def _condition(condition, X, position):
    column = X.iloc[:, position] if hasattr(X, "iloc") else np.asarray(X)[:, position]
    text = _is_text(X, position, column)
    if text:
        # Each distinct value tested once (a category's codes as they are).
        codes, uniques = pd.factorize(column, use_na_sentinel=True)
        missing = codes < 0
    else:
        numbers_ = _floats(column)
        missing = np.isnan(numbers_)
    if condition.op in ("is missing", "is not missing"):
        return missing if condition.op == "is missing" else ~missing
    if text:
        return _text_condition(condition, codes, uniques)
    wanted = condition.value
    for value in wanted if isinstance(wanted, tuple) else (wanted,):
        _check_number(condition, value)
    with np.errstate(invalid="ignore"):
        if condition.op in _ORDER:
            met = _ORDER[condition.op](numbers_, float(condition.value))
        else:
            met = np.isin(numbers_, [float(v) for v in condition.value])
            met = ~met if condition.op == "not in" else met
    return met & ~missing


def _is_text(X, position, column):
    """Whether the column is compared by text (strings, objects,
    categories), not as numbers."""
    if hasattr(X, "iloc"):
        return column_kind(X, position) == "categorical"
    return _array_kind(column) == "categorical"


def _floats(column):
    """A numeric column as float64, NaN where missing (``pd.NA``, None)."""
    if hasattr(column, "to_numpy"):
        return column.to_numpy(dtype=np.float64, na_value=np.nan)
    if column.dtype.kind in "fiub":
        return column.astype(np.float64)
    values = np.asarray(column, dtype=object)
    missing = np.asarray(pd.isna(values), dtype=bool)
    numbers_ = np.full(len(values), np.nan)
    numbers_[~missing] = values[~missing].astype(np.float64)
    return numbers_


def _text_condition(condition, codes, uniques):
    """The rows (`codes` into the distinct values `uniques`, -1 where
    missing) meeting an equality on text."""
    if condition.op not in ("==", "!=", "in", "not in"):
        raise ValueError(
            f"cohorts: {quoted(condition.name)} holds text or categories; "
            f"{condition.op!r} orders numbers only: use ==, != or in."
        )
    wanted = (
        condition.value if isinstance(condition.value, tuple) else (condition.value,)
    )
    texts = {str(v) for v in wanted} | {_as_text(v) for v in wanted}
    # A value as printed (the text tree_rules writes) or as a whole number.
    hits = np.array(
        [str(u) in texts or _as_text(u) in texts for u in uniques], dtype=bool
    )
    if condition.op in ("!=", "not in"):
        hits = ~hits
    present = codes >= 0
    met = np.zeros(len(codes), dtype=bool)
    met[present] = hits[codes[present]]
    return met


def _as_text(value):
    """A number as the text of a category: 3.0 as "3" (a category of ints
    with a missing value reads as floats)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _check_number(condition, value):
    if isinstance(value, str):
        raise ValueError(
            f"cohorts: {quoted(condition.name)} is numeric; compare it with a "
            f"number, not the text {quoted(value)}."
        )
    assert isinstance(value, (numbers.Real, bool))


def _array_kind(values):
    """A column of an object or numeric ndarray: numbers (floats, ints,
    bools) or text."""
    if values.dtype.kind in "fiub":
        return "numeric"
    try:
        values[~np.asarray(pd.isna(values), dtype=bool)].astype(np.float64)
    except (TypeError, ValueError):
        return "categorical"
    return "numeric"
