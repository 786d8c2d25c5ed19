"""Partial dependence through the linear shortcut in one pass, written
straight into the result's arrays.

A linear model's decision at row ``i`` and grid point ``g`` is X's decision
at row ``i`` less the features' contribution, plus the grid point's
(``_core.linear_models``): an outer sum. A one-shot run (nobody watches
snapshots) computes it a block of rows at a time, in the ICE array's own
layout (rows, grid points): the block's decisions, the model's link on them
and the averages' partial sums stay in the CPU's cache, and each ICE value
is written to memory once. The chunk loop instead stacks copies point by
point and stores them transposed, several passes over the ICE array's size
(most of its time at 100,000 rows x 100 grid points on 50 columns,
benchmarks/results/linear.md). Streamed runs keep the chunk loop, so a live
chart fills in coarse to fine.
"""

import numpy as np

# Decisions a block holds (1 MiB of float64): the block's decisions, the
# link's values and the responses kept stay in a core's cache. At least
# MIN_BLOCK_ROWS rows (a pair's grid has 10,000 points), so that the
# model's own per-call checks are paid rarely; within `max_memory`.
BLOCK_VALUES = 2**17
MIN_BLOCK_ROWS = 64


def linear_grid_arrays(run, chunks):
    """``(average, individual, done)`` of `run` over its whole grid, shaped
    as a result holds them, or None if `run` was cancelled first.

    `chunks` is the run's plan (:class:`~.chunks.PredictedChunks`) through
    the linear shortcut; every grid point is its own group. Averages are
    ``np.average``'s over the rows (with the run's `sample_weight`), summed
    block by block; centering subtracts the first grid point's values
    afterwards, as the chunk loop does.
    """
    linear, _, donor = chunks.trees
    rest, given = linear.grid_parts(chunks.columns, donor[chunks.representatives])
    n_rows, n_points = rest.shape[0], given.shape[0]
    weights = run.sample_weight
    ice_rows = run.ice_rows
    block_rows = _block_rows(run.max_memory, n_points * linear.n_outputs)
    sums = individual = None
    for low in range(0, n_rows, block_rows):
        if run._cancelled():
            return None
        high = min(low + block_rows, n_rows)
        decisions = rest[low:high, None, :] + given[None, :, :]
        flat = decisions.reshape(-1, linear.n_outputs)
        values = chunks.responses(lambda method, d=flat: linear.respond(method, d))
        values = values.reshape(high - low, n_points, -1)  # rows, points, outputs
        weighted = values if weights is None else values * weights[low:high, None, None]
        block_sums = weighted.sum(axis=0)
        sums = block_sums if sums is None else sums + block_sums
        if run.kind == "average":
            continue
        if individual is None:
            individual = _empty_ice(run, values, n_rows)
        first, stop = low, high
        if ice_rows is not None:
            first, stop = np.searchsorted(ice_rows, [low, high])
            values = values[ice_rows[first:stop] - low]
        if run.centered:  # each row's line less its value at the first point
            values = values - values[:, :1]
        individual[:, first:stop] = values.transpose(2, 0, 1)
    total = n_rows if weights is None else weights.sum()
    average = (sums / total).T  # outputs, points
    if run.centered:
        average = average - average[:, :1]
    shape = run.shape
    if individual is not None:
        individual = individual.reshape(individual.shape[:2] + shape)
    return average.reshape(-1, *shape), individual, np.ones(shape, dtype=bool)


def _empty_ice(run, values, n_rows):
    """The ICE array, (outputs, ICE rows, grid points), for `values` of
    shape (block rows, grid points, outputs)."""
    n_ice = n_rows if run.ice_rows is None else len(run.ice_rows)
    dtype = np.result_type(values.dtype, np.float16)
    return np.empty((values.shape[2], n_ice, values.shape[1]), dtype)


def _block_rows(max_memory, values_per_row):
    """Rows per block: BLOCK_VALUES' worth, at least MIN_BLOCK_ROWS, and
    the block's decisions, link values and responses within `max_memory`."""
    rows = max(BLOCK_VALUES // values_per_row, MIN_BLOCK_ROWS)
    return max(1, min(rows, int(max_memory // (24 * values_per_row))))
