"""What the partial dependence widget's front end draws (its `_curve`
trait): partial dependence, accumulated local effects, or both on one axis.

Every number is computed here (or by the engine); the JS only draws. Arrays
go as float32 buffers (`binary_array`).
"""

import numpy as np

from .._text import isolate
from ..inspection._core import output_quantity
from ..inspection._partial_dependence import value_label
from ._serialization import binary_array


def output_index(result, target):
    if result.output_names is None:
        return 0
    labels = [str(name) for name in result.output_names]
    return labels.index(target) if target in labels else len(labels) - 1


def _quantity(result, target):
    """What the values are: the class's probability, log-odds or decision
    function; None for a regressor's prediction."""
    return output_quantity(result, output_index(result, target), isolate)


def _y_label(result, target):
    label = _quantity(result, target) or "partial dependence (prediction)"
    return f"{label}, change from the first grid value" if result.centered else label


def _correlated(result):
    return [
        {
            "feature": c.feature,
            "partner": c.partner,
            "rho": float(c.spearman_rho),
            "message": c.message,
        }
        for c in result.correlated
    ]


def _distribution(summary, grid):
    """The feature's distribution for drawing beside the curve: histogram bins
    outside the grid's range are left out (the axes span the grid) and the
    outer edges are clipped to it."""
    if summary.categorical:
        return {
            "kind": "categories",
            "labels": [value_label(c) for c in summary.categories],
            "counts": binary_array(summary.counts),
            "n_missing": summary.n_missing,
        }
    edges, counts = summary.bin_edges, summary.counts
    low, high = float(np.min(grid)), float(np.max(grid))
    inside = (edges[1:] > low) & (edges[:-1] < high)
    if inside.any():
        first, last = np.flatnonzero(inside)[[0, -1]]
        counts = counts[first : last + 1]
        edges = np.clip(edges[first : last + 2], low, high)
    return {
        "kind": "histogram",
        "edges": binary_array(edges),
        "counts": binary_array(counts),
        "deciles": binary_array(summary.deciles),
        "n_missing": summary.n_missing,
    }


def _axis(result, axis):
    """Grid positions and labels of one feature: values for numeric features
    (without the missing point), 0..k-1 with the category labels for
    categorical ones."""
    values = result.grid_values[axis]
    if result.categorical[axis]:
        return np.arange(len(values), dtype=float), [value_label(v) for v in values]
    if result.has_missing_point(axis):
        values = values[:-1]
    return np.asarray(values, dtype=float), []


def curve_payload(result, target, n_rows, steps=None):
    """What the front end draws, as float32 buffers. One-way curves carry only
    the grid points computed so far (the engine fills the grid coarse to fine),
    so the drawn line refines instead of showing gaps. `steps`: the same ICE
    rows at every step of a tree model (see ``split_grid``), sent once
    complete: a step function with a gap would claim values between points
    not computed yet."""
    output = output_index(result, target)
    common = {
        "features": list(result.feature_names),
        "n_rows": int(n_rows),
        "y_label": _y_label(result, target),
        "correlated": _correlated(result),
        "effect": "pd",
    }
    grid, labels = _axis(result, 0)
    common["distribution"] = _distribution(result.distributions[0], grid)
    common["missing_note"] = result.missing_note
    if len(result.feature_names) == 1:
        done = result.done
        average = result.average[output] if result.kind != "individual" else None
        individual = (
            result.individual[output] if result.individual is not None else None
        )
        missing = _missing_point(result, average, individual, n_rows)
        if result.has_missing_point(0):
            done = done[:-1]
            average = None if average is None else average[:-1]
            individual = None if individual is None else individual[:, :-1]
        return {
            **common,
            "categorical": bool(result.categorical[0]),
            "grid": binary_array(grid[done]),
            "grid_labels": [label for label, d in zip(labels, done, strict=False) if d],
            "grid_done": int(done.sum()),
            "average": None if average is None else binary_array(average[done]),
            "individual": (
                None if individual is None else binary_array(individual[:, done])
            ),
            "steps": _steps(steps, output),
            "missing": missing,
        }
    grid_y, labels_y = _axis(result, 1)
    # A surface of numeric features leaves their missing points out.
    rows = slice(None, -1) if result.has_missing_point(0) else slice(None)
    columns = slice(None, -1) if result.has_missing_point(1) else slice(None)
    return {
        **common,
        "categorical": [bool(c) for c in result.categorical],
        "grid": binary_array(grid),
        "grid_labels": labels,
        "grid_y": binary_array(grid_y),
        "grid_y_labels": labels_y,
        "grid_done": int(result.done[rows, columns].all(axis=1).sum()),
        "average": binary_array(result.average[output][rows, columns]),
        "distribution_y": _distribution(result.distributions[1], grid_y),
    }


def _missing_point(result, average, individual, n_rows):
    """The missing point of a numeric feature, drawn beside the curve: its
    average and ICE values (None until computed), and the rows missing the
    value; None when the feature has no missing value or is categorical."""
    summary = result.distributions[0]
    if result.categorical[0] or not summary.n_missing:
        return None
    point = {"n_missing": int(summary.n_missing), "n_rows": int(n_rows)}
    point |= {"average": None, "individual": None}
    if result.has_missing_point(0) and result.done[-1]:
        if average is not None:
            point["average"] = float(average[-1])
        if individual is not None:
            point["individual"] = binary_array(individual[:, -1])
    return point


def _steps(steps, output):
    if steps is None or not steps.complete:
        return None
    return {
        "grid": binary_array(np.asarray(steps.grid_values[0], dtype=float)),
        "individual": binary_array(steps.individual[output]),
    }


# Accumulated local effects ------------------------------------------------------


def _ale_y_label(ale, target, overlay):
    quantity = _quantity(ale, target) or "prediction"
    if overlay:
        return f"{quantity}: PD and ALE, each centred on the data"
    return f"accumulated local effect on the {quantity}"


def _ale_axis(ale, axis):
    """Edges of a numeric feature, or 0..K-1 with the ordered categories."""
    edges = ale.edges[axis]
    if ale.categorical[axis]:
        # A missing value's category is "missing", as partial dependence's.
        return np.arange(len(edges), dtype=float), [value_label(c) for c in edges]
    return np.asarray(edges, dtype=float), []


def _bin_counts(ale, axis, counts):
    """Rows per bin drawn under the curve, as a histogram over the bin
    edges (or bars per category)."""
    grid, labels = _ale_axis(ale, axis)
    if ale.categorical[axis]:
        return {
            "kind": "categories",
            "labels": labels,
            "counts": binary_array(counts),
        }
    return {
        "kind": "histogram",
        "edges": binary_array(grid),
        "counts": binary_array(counts),
        "deciles": binary_array(np.zeros(0)),
    }


def effects_payload(ale, pd_result, target, n_rows):
    """`_curve` for accumulated local effects: one feature's ALE with its
    band and rows per bin (and, given `pd_result`, the partial dependence at
    the same edges, centred alike), or a pair's second-order ALE surface."""
    output = output_index(ale, target)
    overlay = pd_result is not None
    common = {
        "features": list(ale.feature_names),
        "n_rows": int(n_rows),
        "y_label": _ale_y_label(ale, target, overlay),
        "correlated": _correlated(pd_result) if overlay else [],
        "effect": "overlay" if overlay else "ale",
    }
    grid, labels = _ale_axis(ale, 0)
    if len(ale.feature_names) == 1:
        lower, upper = (bound[output] for bound in ale.band())
        average = ale.center_partial_dependence(pd_result)[output] if overlay else None
        return {
            **common,
            "categorical": bool(ale.categorical[0]),
            "grid": binary_array(grid),
            "grid_labels": labels,
            "grid_done": len(grid),
            "average": None if average is None else binary_array(average),
            "individual": None,
            "ale": {
                "values": binary_array(ale.centered[output]),
                "lower": binary_array(lower),
                "upper": binary_array(upper),
            },
            "distribution": _bin_counts(ale, 0, ale.bin_counts),
        }
    grid_y, labels_y = _ale_axis(ale, 1)
    return {
        **common,
        "y_label": "second-order " + common["y_label"],
        "categorical": [False, False],
        "grid": binary_array(grid),
        "grid_labels": labels,
        "grid_y": binary_array(grid_y),
        "grid_y_labels": labels_y,
        "grid_done": len(grid),
        "average": binary_array(ale.centered[output]),
        "distribution": _bin_counts(ale, 0, ale.bin_counts.sum(axis=1)),
        "distribution_y": _bin_counts(ale, 1, ale.bin_counts.sum(axis=0)),
    }
