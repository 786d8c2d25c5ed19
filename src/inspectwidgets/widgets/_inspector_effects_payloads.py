"""What the several-model Effects panel draws (its `_models_curves` trait)
and tabulates: every model's curve of one feature (with, on demand, the same
rows' ICE curves, optionally centered), or every model's surface of a pair;
partial dependence, or accumulated local effects.

Every number is computed here or by the engine; the JS only draws (the one
colour scale shared by the surfaces is the extent of what it draws).
"""

from __future__ import annotations

import numpy as np

from ._serialization import binary_array


def effect_values(result):
    """The values drawn, outputs first: the partial dependence's average,
    or the ALE centred on the data."""
    return result.average if hasattr(result, "average") else result.centered


def output_index(result, target):
    """The index of the output drawn: `target`'s (a class label as text),
    else the last (a binary classifier's positive class, a regressor's
    only one)."""
    names = [str(name) for name in result.output_names or ()]
    return names.index(target) if target in names else len(effect_values(result)) - 1


def _numeric(result, axis):
    """Whether feature `axis` is drawn on a number line (else its labels)."""
    grid = np.asarray(result.grid_values[axis])
    return not result.categorical[axis] and np.issubdtype(grid.dtype, np.number)


def _axis(result, axis):
    """Grid values as numbers (None) or labels, and the grid's points kept:
    a surface leaves a numeric feature's missing point out, as the Effects
    view's surface does."""
    grid = result.grid_values[axis]
    keep = slice(None, -1) if result.has_missing_point(axis) else slice(None)
    if _numeric(result, axis):
        return binary_array(np.asarray(grid[keep], dtype=float)), None, keep
    return None, [str(v) for v in grid[keep]], keep


def centered_curves(average, individual):
    """The curves shifted to 0 at the first grid value, as scikit-learn's
    PartialDependenceDisplay draws them with ``centered=True``: each ICE
    curve minus its own first value, the average minus its first value."""
    average = average - average[..., :1]
    if individual is not None:
        individual = individual - individual[..., :1]
    return average, individual


def curves_of(results, target, *, individual, centered):
    """Each model's average over the grid, shape (n_models, n_grid), and
    with `individual` its ICE curves, (n_models, n_rows, n_grid)."""
    averages, curves = [], []
    for result in results.values():
        output = output_index(result, target)
        ice = result.individual[output] if individual else None
        average, ice = (
            centered_curves(result.average[output], ice)
            if centered
            else (result.average[output], ice)
        )
        averages.append(average)
        curves.append(ice)
    return np.array(averages, dtype=float), (
        np.array(curves, dtype=float) if individual else None
    )


def _common(results, features, target):
    first = next(iter(results.values()))
    output = (first.output_names or [None])[output_index(first, target)]
    return {
        "effect": "pd" if hasattr(first, "average") else "ale",
        "features": list(features),
        "models": list(results),
        "output": "" if output is None else str(output),
        "response": first.response_method,
    }


def curves_payload(results, features, target, *, individual=False, centered=False):
    """One feature: the grid (numbers, NaN last for the missing point; or
    labels for a categorical or non-numeric feature), each model's average
    and, with `individual`, the same drawn rows' ICE curves of every model."""
    first = next(iter(results.values()))
    grid = first.grid_values[0]
    numeric = _numeric(first, 0)
    average, ice = curves_of(results, target, individual=individual, centered=centered)
    return {
        **_common(results, features, target),
        "kind": "curves",
        "grid": binary_array(np.asarray(grid, dtype=float)) if numeric else None,
        "labels": None if numeric else [str(v) for v in grid],
        "average": binary_array(average),
        "individual": None if ice is None else binary_array(ice),
        "centered": bool(centered),
    }


def surface_payload(results, features, target):
    """A pair: both grids and each model's surface, (n_models, n_x, n_y)."""
    first = next(iter(results.values()))
    grid, labels, rows = _axis(first, 0)
    grid_y, labels_y, columns = _axis(first, 1)
    average = np.array(
        [r.average[output_index(r, target)][rows, columns] for r in results.values()],
        dtype=float,
    )
    return {
        **_common(results, features, target),
        "kind": "surface",
        "grid": grid,
        "labels": labels,
        "grid_y": grid_y,
        "labels_y": labels_y,
        "average": binary_array(average),
    }


def _ale_axis(result, axis):
    """A feature's ALE edges as numbers (None) or its ordered categories."""
    edges = result.edges[axis]
    if result.categorical[axis]:
        return None, [str(c) for c in edges]
    return binary_array(np.asarray(edges, dtype=float)), None


def ale_payload(results, features, target):
    """Each model's accumulated local effects over the same edges (the
    bins are X's quantiles, the categories' order X's: the same for every
    model): curves of one feature, or a pair's second-order surfaces."""
    first = next(iter(results.values()))
    values = np.array(
        [r.centered[output_index(r, target)] for r in results.values()], dtype=float
    )
    grid, labels = _ale_axis(first, 0)
    payload = {
        **_common(results, features, target),
        "grid": grid,
        "labels": labels,
        "average": binary_array(values),
    }
    if len(features) == 1:
        return {**payload, "kind": "curves", "individual": None, "centered": False}
    grid_y, labels_y = _ale_axis(first, 1)
    return {**payload, "kind": "surface", "grid_y": grid_y, "labels_y": labels_y}
