"""Partial dependence through the linear shortcut in one pass, written
straight into the result's arrays.

A linear model's decision at row ``i`` and grid point ``g`` is X's decision
at row ``i`` less the features' contribution, plus the grid point's
(``_shortcuts/linear/models.py``): an outer sum. A one-shot run (nobody watches
snapshots) computes it a block of rows at a time, in the ICE array's own
layout (rows, grid points): the block's decisions, the model's link on them
and the averages' partial sums stay in the CPU's cache, and each ICE value
is written to memory once. The chunk loop instead stacks copies point by
point and stores them transposed, several passes over the ICE array's size
(most of its time at 100,000 rows x 100 grid points on 50 columns,
benchmarks/results/linear.md). Streamed runs keep the chunk loop, so a live
chart fills in coarse to fine.

Blocks run on as many threads as scikit-learn's own compiled code takes
(``_openmp_effective_n_threads``: numpy's additions and the model's link
release the GIL) and write disjoint rows; their sums are added in block
order, so the numbers do not depend on the threads. For one output with
every row's curve kept as is (a GLM's prediction), a block's decisions are
added straight into the ICE array and the model's link works there; its
values are checked finite through their sums (NaN and infinities reach a
sum), the values themselves only when a sum is not.

Where the values are the decisions themselves (a regressor's prediction
with no link, a decision function), a grid point's average is the rows'
average decision less the feature's, plus the point's contribution: no sum
over the ICE array, whose writing (memory-bound) is then all that is left.
That holds where no sum can overflow, checked from the largest magnitudes;
otherwise the blocks run and say which values are not finite.
"""

import functools
import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .._core.compat import _openmp_effective_n_threads

# Decisions a block holds (1 MiB of float64): the block's decisions, the
# link's values and the responses kept stay in a core's cache. At least
# MIN_BLOCK_ROWS rows (a pair's grid has 10,000 points), so that the
# model's own per-call checks are paid rarely; within `max_memory` with
# every thread's block in flight.
BLOCK_VALUES = 2**17
MIN_BLOCK_ROWS = 64


def linear_grid_arrays(run, chunks):
    """``(average, individual, done)`` of `run` over its whole grid, shaped
    as a result holds them, or None if `run` was cancelled first.

    `chunks` is the run's plan (:class:`~.chunks.PredictedChunks`) through
    the linear shortcut; every grid point is its own group. Averages are
    ``np.average``'s over the rows (with the run's `sample_weight`), summed
    block by block in row order (or of the decisions, see the module doc);
    centering subtracts the first grid point's values afterwards, as the
    chunk loop does.
    """
    linear, _, donor = chunks.shortcut
    rest, given = linear.grid_parts(chunks.columns, donor[chunks.representatives])
    responses = chunks.responses
    if responses.scale != "log_odds" and linear.returns_decisions(
        responses.response_method
    ):
        columns = responses.output_columns
        if columns is not None:
            rest, given = rest[:, columns], given[:, columns]
        if _sums_stay_finite(rest, given):
            return _decision_arrays(run, rest, given)
    n_rows, n_points = rest.shape[0], given.shape[0]
    n_threads = _openmp_effective_n_threads()
    block_rows = _block_rows(run.max_memory, n_points * linear.n_outputs, n_threads)
    blocks = _GridBlocks(run, chunks, rest, given)
    lows = range(0, n_rows, block_rows)
    # The first block alone: it makes the ICE array, in its values' dtype.
    sums = [blocks.sums(0, min(block_rows, n_rows))]
    rest_of = functools.partial(_block_sums, blocks, block_rows, n_rows)
    if len(lows) > 1 and n_threads > 1:
        with ThreadPoolExecutor(min(n_threads, len(lows) - 1)) as pool:
            sums += pool.map(rest_of, lows[1:])
    else:
        sums += map(rest_of, lows[1:])
    if any(s is None for s in sums):
        return None
    total_sums = sums[0]
    for block_sums in sums[1:]:
        total_sums = total_sums + block_sums
    weights = run.sample_weight
    total = n_rows if weights is None else weights.sum()
    average = (total_sums / total).T  # outputs, points
    if run.centered:
        average = average - average[:, :1]
    shape = run.shape
    individual = blocks.individual
    if individual is not None:
        individual = individual.reshape(individual.shape[:2] + shape)
    return average.reshape(-1, *shape), individual, np.ones(shape, dtype=bool)


def _sums_stay_finite(rest, given):
    """Whether every ``rest[i] + given[g]`` is finite: rounding is monotone,
    so none exceeds the largest magnitudes' sum."""
    bound = max(float(rest.max()), -float(rest.min())) + max(
        float(given.max()), -float(given.min())
    )
    return math.isfinite(bound)  # NaN anywhere makes it NaN


def _decision_arrays(run, rest, given):
    """:func:`linear_grid_arrays` where the values are the decisions
    themselves (a regressor's prediction, a decision function): a grid
    point's average is the rows' average of `rest` plus the point's
    contribution, one pass over the rows; the ICE values are their sums,
    written by row blocks on threads."""
    if run._cancelled():
        return None
    average = np.average(rest, axis=0, weights=run.sample_weight)[:, None] + given.T
    if run.centered:
        average = average - average[:, :1]
    shape = run.shape
    done = np.ones(shape, dtype=bool)
    if run.kind == "average":
        return average.reshape(-1, *shape), None, done
    rows = rest if run.ice_rows is None else rest[run.ice_rows]
    n_outputs, n_points = rest.shape[1], given.shape[0]
    individual = np.empty((n_outputs, len(rows), n_points), rest.dtype)

    def write(low):
        if run._cancelled():
            return False
        high = min(low + block_rows, len(rows))
        for k in range(n_outputs):
            lines = individual[k, low:high]
            np.add(rows[low:high, k, None], given[:, k], out=lines)
            if run.centered:  # as the chunk loop: each line less its first value
                np.subtract(lines, rows[low:high, k, None] + given[0, k], out=lines)
        return True

    # A few blocks per thread: even when a core is busy elsewhere, the
    # threads finish together.
    n_threads = _openmp_effective_n_threads()
    block_rows = max(-(-len(rows) // (4 * n_threads)), MIN_BLOCK_ROWS)
    lows = range(0, len(rows), block_rows)
    with ThreadPoolExecutor(min(n_threads, len(lows))) as pool:
        if not all(pool.map(write, lows)):
            return None
    individual = individual.reshape(individual.shape[:2] + shape)
    return average.reshape(-1, *shape), individual, done


def _block_sums(blocks, block_rows, n_rows, low):
    return blocks.sums(low, min(low + block_rows, n_rows))


class _GridBlocks:
    """Rows ``low:high`` of the grid's responses: their weighted sums over
    the rows, each grid point's, and their ICE values written in place."""

    def __init__(self, run, chunks, rest, given):
        self.run, self.chunks = run, chunks
        self.linear = chunks.shortcut.model
        self.rest, self.given = rest, given
        self.individual = None
        # Rows written as they are: a block's decisions go straight there.
        self.in_place = (
            run.kind != "average"
            and run.ice_rows is None
            and not run.centered
            and self.linear.n_outputs == 1
        )

    def sums(self, low, high):
        """The block's sums, (grid points, outputs); None if cancelled."""
        if self.run._cancelled():
            return None
        with np.errstate(over="ignore", invalid="ignore"):  # refused below
            return self._sums(low, high)

    def _sums(self, low, high):
        run, linear = self.run, self.linear
        into = None
        if self.in_place and self.individual is not None:
            into = self.individual[0, low:high]  # rows, points
            np.add(self.rest[low:high, :1], self.given[:, 0], out=into)
            decisions = into.reshape(-1, 1)
        else:
            decisions = self.rest[low:high, None, :] + self.given[None, :, :]
            decisions = decisions.reshape(-1, linear.n_outputs)
        responses = self.chunks.responses
        values = responses(
            lambda method, d=decisions: linear.respond(method, d), check_finite=False
        )
        values = values.reshape(high - low, self.given.shape[0], -1)
        weights = run.sample_weight
        weighted = values if weights is None else values * weights[low:high, None, None]
        block_sums = weighted.sum(axis=0)
        if not np.isfinite(block_sums).all():
            responses.check_finite(values)
        if run.kind != "average":
            self._keep(values, low, high, into)
        return block_sums

    def _keep(self, values, low, high, into):
        """The block's ICE values into the ICE array, (outputs, ICE rows,
        grid points), made by the first block."""
        run = self.run
        if self.individual is None:
            n_ice = len(self.rest) if run.ice_rows is None else len(run.ice_rows)
            dtype = np.result_type(values.dtype, np.float16)
            self.individual = np.empty((values.shape[2], n_ice, values.shape[1]), dtype)
        if into is not None and _same_memory(values, into):
            return  # the link kept its values where the decisions were
        first, stop = low, high
        if run.ice_rows is not None:
            first, stop = np.searchsorted(run.ice_rows, [low, high])
            values = values[run.ice_rows[first:stop] - low]
        if run.centered:  # each row's line less its value at the first point
            values = values - values[:, :1]
        self.individual[:, first:stop] = values.transpose(2, 0, 1)


def _same_memory(values, into):
    """Whether `values` are `into`'s elements in `into`'s order."""
    return (
        values.size == into.size
        and values.flags.c_contiguous
        and values.ctypes.data == into.ctypes.data
    )


def _block_rows(max_memory, values_per_row, n_threads):
    """Rows per block: BLOCK_VALUES' worth, at least MIN_BLOCK_ROWS, and
    `n_threads` blocks' decisions, link values and responses within
    `max_memory`."""
    rows = max(BLOCK_VALUES // values_per_row, MIN_BLOCK_ROWS)
    budget = max_memory // (24 * values_per_row * n_threads)
    return max(1, min(rows, int(budget)))
