"""A decision tree's leaf as a readable rule: the conditions on X's columns
that lead to it ("tenure <= 14 and plan = 'pro'"), written from the tree's
nodes and the columns it was fitted on (rule_inputs.ColumnCoding).

Shared by conditional permutation importance (a feature's subgroups) and ICE
clustering (what sets a cluster's rows apart); the inspector makes a rule a
cohort as it reads (cohorts.py), so a rule must select exactly its leaf's
rows, on the rows it describes:

- scikit-learn's trees compare float32(x) <= t (t the midpoint of two
  training values), a cohort compares the float64 x against the printed
  number d. On the rows, ``x <= d`` splits as the tree does for any d with
  (largest value going left) <= d < (smallest value going right), each
  value as float64 and its side by its float32: the shortest such decimal
  is printed (14.5 between integers as "14"), the one nearest t among
  equally short ones, ``repr`` where nothing shorter is in between;
- each condition is exact on every row, not only on the rows reaching its
  node, so the conditions of a path hold together: of two splits on a
  column, the tighter bound on each side is the path's.
"""

import math
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

import numpy as np

from .cohort_rules import rule_name


class RuleValues:
    """The values the rules of trees fitted on `coding`'s inputs must be
    exact on: each input column over the rows of `frames` (X's rows the rules
    describe, and the rows the tree was fitted on), read as cohorts read
    them; computed per column on first use."""

    def __init__(self, coding, frames):
        self.coding, self.frames = coding, tuple(frames)
        self._columns, self._texts = {}, {}

    def column(self, position):
        """Input `position`'s (of ``coding.columns``) sorted distinct values
        where the tree reads a number, as float64 and as the tree compares
        them (float32); and whether the tree reads a missing value there."""
        if position not in self._columns:
            values = np.concatenate(
                [self.coding.exact_values(X, position) for X in self.frames]
            )
            present = values[~np.isnan(values)]
            distinct = np.unique(present)
            self._columns[position] = (
                distinct,
                distinct.astype(np.float32).astype(np.float64),
                len(present) < len(values),
            )
        return self._columns[position]

    def threshold(self, position, threshold):
        """:func:`threshold_text` of input `position`'s split at `threshold`,
        written once (a node is on the path of every leaf below it)."""
        key = (position, threshold)
        if key not in self._texts:
            distinct, compared, _ = self.column(position)
            self._texts[key] = threshold_text(threshold, distinct, compared)
        return self._texts[key]


def leaf_rule(nodes, leaf, inputs, values):
    """The conditions leading to node `leaf` of `nodes` (a fitted tree's
    ``tree_``), readable and exact on `values`' rows (a RuleValues):
    intervals for numbers, (in)equalities for categories, "missing" where
    NaN goes. `inputs` are the tree's features' positions in
    ``values.coding.columns``. "all rows" for the root."""
    parents = {}
    for node in range(nodes.node_count):
        for child in (nodes.children_left[node], nodes.children_right[node]):
            if child != -1:
                parents[child] = node
    steps, node = [], leaf
    while node in parents:
        parent = parents[node]
        steps.append((parent, node == nodes.children_left[parent]))
        node = parent
    bounds = {}  # X's column -> what the path says of it
    for parent, went_left in reversed(steps):
        position = inputs[nodes.feature[parent]]
        column = values.coding.columns[position]
        has_missing = values.column(position)[2]
        entry = bounds.setdefault(
            column.source,
            {"column": column, "low": None, "high": None, "in": None, "out": []},
        )
        entry["has_missing"] = has_missing
        threshold = float(nodes.threshold[parent])
        if np.isinf(threshold):
            # scikit-learn's split of the missing values from the others:
            # those go right, every value left.
            entry["only missing" if not went_left else "not missing"] = True
            continue
        entry["missing"] = entry.get("missing", True) and bool(
            nodes.missing_go_to_left[parent] == went_left
        )
        if column.category is None:
            # The tighter of two bounds on a side: a deeper split usually is,
            # but scikit-learn before 1.9 could split a node's missing values
            # from the rest at a finite threshold above all of them (1.9
            # writes inf there), which bounds nothing on the path.
            side = "high" if went_left else "low"
            kept = entry.get(f"{side} threshold")
            if kept is None or (threshold < kept if went_left else threshold > kept):
                entry[f"{side} threshold"] = threshold
                entry[side] = values.threshold(position, threshold)
        elif went_left:
            entry["out"].append(column.category)
        else:
            entry["in"] = column.category
    parts = [_condition(entry, values.coding.names) for entry in bounds.values()]
    return " and ".join(parts) if parts else "all rows"


def threshold_text(threshold, distinct, compared):
    """The number d printed for a tree's ``x <= threshold``: the shortest
    decimal with ``x <= d`` true of exactly the values `distinct` (sorted,
    float64) whose float32 (`compared`) is at most `threshold`. Where no
    value lies on a side, the float32 neighbour of `threshold` bounds it,
    as it bounds the training values."""
    going_left = int(np.searchsorted(compared, threshold, side="right"))
    if going_left:
        low = float(distinct[going_left - 1])
    else:  # the largest float32 the tree sends left
        low = float(np.float32(threshold))
        if low > threshold:
            low = float(np.nextafter(np.float32(low), np.float32(-np.inf)))
    if going_left < len(distinct):
        high = float(distinct[going_left])
    else:  # the smallest float32 the tree sends right
        high = float(np.float32(threshold))
        if high <= threshold:
            high = float(np.nextafter(np.float32(high), np.float32(np.inf)))
    return shortest_decimal(low, high, threshold)


def shortest_decimal(low, high, near):
    """The shortest decimal text d with ``low <= float(d) < high`` (floats,
    low < high): the coarsest last digit that fits (fewest significant
    digits), the one nearest `near` among those; ``repr(low)`` where
    nothing shorter fits."""
    top = max(abs(low), abs(high))
    exponent = math.floor(math.log10(top)) + 1 if top else 0
    bounds = Decimal(low), Decimal(high), Decimal(near)
    # 17 significant digits tell any two floats apart: below that, repr.
    for digit in range(exponent, exponent - 18, -1):
        step = 10.0**digit if abs(digit) < 300 else 0.0
        if step and math.ceil(low / step) > math.floor(high / step) + 1:
            continue  # no multiple of step in between, give or take rounding
        texts = [
            text for text in _candidates(*bounds, digit) if low <= float(text) < high
        ]
        if texts:
            return min(texts, key=lambda t: (abs(float(t) - near), len(t)))
    return repr(low)


def _candidates(low, high, near, digit):
    """Multiples of 10**digit about [low, high], nearest `near` and at its
    ends, as texts: the caller keeps those whose float is in the interval
    (a decimal just below a float's exact value can still read as it)."""
    scaled = [bound.scaleb(-digit) for bound in (low, high, near)]
    ends = {
        value.to_integral_value(rounding)
        for value in scaled[:2]
        for rounding in (ROUND_FLOOR, ROUND_CEILING)
    }
    nearest = {
        min(max(scaled[2].to_integral_value(rounding), min(ends)), max(ends))
        for rounding in (ROUND_FLOOR, ROUND_CEILING)
    }
    return [_text(int(m), digit) for m in ends | nearest]


def _text(multiple, digit):
    """``multiple * 10**digit`` as its shortest text: plain, or with an
    exponent where that is shorter ("1e+12")."""
    if multiple == 0:
        return "0"
    if digit >= 0:
        plain = str(multiple * 10**digit)
    else:
        sign = "-" if multiple < 0 else ""
        digits = str(abs(multiple)).rjust(-digit + 1, "0")
        plain = f"{sign}{digits[:digit]}.{digits[digit:]}".rstrip("0").rstrip(".")
    significant = len(str(abs(multiple)).rstrip("0"))
    scientific = f"{float(plain):.{significant}g}"
    return scientific if len(scientific) < len(plain) else plain


def _condition(entry, names):
    column = entry["column"]
    # Quoted unless plain: a name holding "` > 0 or `" reads back as itself.
    name = rule_name(column.name, names)
    if entry.get("only missing"):
        return f"{name} is missing"
    missing = (
        entry["has_missing"]
        and entry.get("missing", True)
        and not entry.get("not missing")
    )
    low, high = entry["low"], entry["high"]
    if entry["in"] is not None:
        text = f"{name} = {entry['in']!r}"
    elif entry["out"]:
        shown = ", ".join(repr(c) for c in entry["out"])
        text = (
            f"{name} != {shown}"
            if len(entry["out"]) == 1
            else f"{name} not in {{{shown}}}"
        )
    elif column.boolean and (low is not None or high is not None):
        text = f"{name} = {low is not None}"
    elif low is not None and high is not None:
        text = f"{low} < {name} <= {high}"
    elif low is not None:
        text = f"{name} > {low}"
    elif high is not None:
        text = f"{name} <= {high}"
    else:  # only the missing values' split
        return f"{name} is not missing"
    return f"({text} or {name} is missing)" if missing else text
