"""A decision tree's leaf as a readable rule: the conditions on X's columns
that lead to it ("tenure <= 14 and plan = 'pro'"), written from the tree's
nodes and the columns it was fitted on (rule_inputs.ColumnCoding).

Shared by conditional permutation importance (a feature's subgroups) and ICE
clustering (what sets a cluster's rows apart).
"""

import numpy as np


def leaf_rule(nodes, leaf, columns, has_missing):
    """The conditions leading to node `leaf` of `nodes` (a fitted tree's
    ``tree_``), readable: the columns' (`columns`: the tree's inputs, as
    ColumnCoding.columns) intervals for numbers, (in)equalities for
    categories, "missing" where NaN goes (`has_missing`: whether each input
    has missing values). "all rows" for the root."""
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
        column = columns[nodes.feature[parent]]
        entry = bounds.setdefault(
            column.source,
            {"column": column, "low": None, "high": None, "in": None, "out": []},
        )
        entry["has_missing"] = has_missing[nodes.feature[parent]]
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
            entry["high" if went_left else "low"] = threshold
        elif went_left:
            entry["out"].append(column.category)
        else:
            entry["in"] = column.category
    parts = [_condition(entry) for entry in bounds.values()]
    return " and ".join(parts) if parts else "all rows"


def _condition(entry):
    column = entry["column"]
    name = column.name
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
        text = f"{low:.4g} < {name} <= {high:.4g}"
    elif low is not None:
        text = f"{name} > {low:.4g}"
    elif high is not None:
        text = f"{name} <= {high:.4g}"
    else:  # only the missing values' split
        return f"{name} is not missing"
    return f"({text} or {name} is missing)" if missing else text
