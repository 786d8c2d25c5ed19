"""The most memory a partial-dependence run takes, estimated from its sizes
before the grid is built (a grid of `grid_resolution` points is itself an
allocation), and the run refused where it would not fit (_core/budget.py).

A run holds the grid, a row of X per grid point (brute method), the average
and, for ICE, one curve per ICE row; the chunks in flight stay within
`max_memory`, and at least one copy of X is stacked whatever the budget.
Every axis of the grid has at most `grid_resolution` points and at most one
per row (the unique values, where fewer): their product bounds the grid.
tests/common/test_memory_budget.py measures the peak against this estimate.
"""

import numpy as np

from .._core.budget import check_budget

_FLOAT = np.dtype(np.float64).itemsize
_FIXED = 32 * 2**20  # the summaries, the correlation check, a pipeline's steps


def peak_bytes(
    grid_resolution, *, n_rows, n_columns, n_axes, n_outputs, n_ice_rows,
    max_memory, x_bytes,
):  # fmt: skip
    """An upper bound of a run's peak bytes (`n_ice_rows` 0 without ICE)."""
    n_points = min(grid_resolution, n_rows) ** n_axes
    # The curves, as computed and as the snapshot the caller holds (and
    # centered, or its percentiles); the grid and its rows of X.
    curves = 4 * n_points * n_outputs * (n_ice_rows + 1) * _FLOAT
    grid = 2 * n_points * (n_axes + n_columns) * _FLOAT
    one_copy = 2 * x_bytes + 3 * n_rows * n_outputs * _FLOAT
    return int(curves + grid + 2 * max_memory + one_copy + 2 * x_bytes + _FIXED)


def check_grid_size(grid_resolution, **sizes):
    """Refuse a `grid_resolution` whose run would not fit in the memory
    budget, naming the largest that does (sizes as :func:`peak_bytes`)."""
    return check_budget(
        "grid_resolution",
        grid_resolution,
        lambda resolution: peak_bytes(resolution, **sizes),
        low=2,
    )
