"""How a partial-dependence run predicts its grid: planned once, before any
chunk.

:func:`plan_run` decides, from a validated
:class:`~.run.PartialDependenceRun`, what the copies are made of (X, or a
column-wise pipeline's transformed X), which grid points are predicted once
for a group, whether the tree walk, tree-by-tree boosting or the model
predicts them, and how many fit in a chunk. The run's loop
(:meth:`~.run.PartialDependenceRun.run`) then only executes the
:class:`RunPlan`.
"""

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from .._core.batching import make_batcher
from .._core.chunks import ChunkSchedule
from .._core.pipeline import columnwise_view
from .._core.responses import Responses
from .._shortcuts import choose_shortcut, path_of
from .._shortcuts.trees import walk_block_bytes
from .accumulation import GridGroups
from .chunks import PredictedChunks
from .tree_splits import grid_point_groups
from .treewise import TreewiseBoosting

# Chunks stop growing at this size (or max_memory, if smaller): larger ones pay
# the per-call overhead no less rarely, and buffers this small are recycled by
# the allocator from chunk to chunk instead of being mapped and faulted in
# afresh (measured in benchmarks/results/partial_dependence.md).
CHUNK_BYTES = 64 * 2**20
# The first chunk holds this fraction of the grid (coarse points first), so a
# streamed curve shows its outline early; later chunks double while they are
# fast (see ChunkSchedule).
FIRST_CHUNK_FRACTION = 1 / 8


@dataclass(frozen=True)
class RunPlan:
    """What a run's loop executes."""

    chunks: PredictedChunks
    schedule: ChunkSchedule
    groups: GridGroups  # grid points predicted alike, in schedule order


def plan_run(run, snapshots):
    """The :class:`RunPlan` of `run` (brute method), streamed in growing
    chunks for `snapshots`, else in full-size chunks from the start."""
    source, rows, columns, model = _prediction_space(run)
    batcher = make_batcher(source)
    # Grid points a tree ensemble provably predicts alike are predicted once
    # (see tree_splits).
    groups = GridGroups(grid_point_groups(model, rows, columns), run.shape)
    # Tree models: each row walks each tree once with all the chunk's grid
    # points (see _shortcuts/trees/replay.py); linear models add each point's
    # contribution to X's decisions (see _shortcuts/linear/models.py).
    shortcut = choose_shortcut(
        run.algorithm,
        model,
        source,
        run._methods(),
        donor=rows,
        obstacle=run._not_brute(),
    )
    run.computed_by = path_of(shortcut and shortcut.model)
    # Boosting the walk cannot take (sparse input, NaN in scikit-learn's
    # gradient boosting): each tree on its own few cells (see treewise). The
    # walk is faster where both apply (benchmarks/trees.py).
    treewise = None
    if shortcut is None:
        treewise = TreewiseBoosting.of(model, source, rows, columns, groups.n_groups)
    n_rows = run.X.shape[0]
    cap, block_bytes = _chunk_cap(
        run, n_rows, batcher, shortcut is not None, run.computed_by == "linear"
    )
    # Streamed: a coarse first chunk, then chunks growing while they are
    # fast. Otherwise nobody watches: full-size chunks from the start.
    first = cap
    if snapshots:
        first = max(1, int(np.ceil(groups.n_groups * FIRST_CHUNK_FRACTION)))
    chunks = PredictedChunks(
        order=groups.order,
        representatives=groups.representatives,
        n_rows=n_rows,
        columns=columns,
        responses=Responses(run.response_method, run.scale, run.output_columns),
        shortcut=shortcut,
        walk_block_bytes=block_bytes,
        tree_threads=walk_threads(run, shortcut),
        treewise=treewise,
        batcher=batcher,
        rows=rows,
        model=model,
        linear=run.computed_by == "linear",
    )
    # The tree shortcut's cost grows slowly with the points a chunk holds:
    # after the coarse first chunk, chunks double whatever their time.
    schedule = ChunkSchedule(groups.n_groups, first, cap, eager=shortcut is not None)
    return RunPlan(chunks=chunks, schedule=schedule, groups=groups)


def _chunk_cap(run, n_rows, batcher, walked, linear=False):
    """The most grid points a chunk holds, and what a block of the walk's
    rows may hold (None unless `walked`).

    A copy, its raw predictions and their processed values. The tree
    shortcut stacks no copy and walks a chunk in blocks of rows (see
    ``chunks._walk_chunk``): a copy holds only its values, beside the
    blocks'. (The flattened trees are the model's size, whatever X's: not
    counted, as the model is not.) CHUNK_BYTES keeps stacked copies of X
    small enough for the allocator to recycle; each chunk costs the shortcut
    a walk of every row through every tree: it takes all `max_memory`
    allows. The linear shortcut holds a copy's decisions, the link's values
    and the responses kept.
    """
    if linear:
        return max(1, int(run.max_memory // (24 * n_rows * run.n_raw_outputs))), None
    if not walked:
        per_copy = n_rows * 16 * run.n_raw_outputs + batcher.bytes_per_copy
        budget, block_bytes = min(run.max_memory, CHUNK_BYTES), None
    else:
        per_copy = n_rows * 8 * run.n_outputs
        block_bytes = walk_block_bytes(run.max_memory)
        budget = run.max_memory - block_bytes
    return max(1, int(budget // per_copy)), block_bytes


def _prediction_space(run):
    """The data the copies are made of, the rows holding the grid values
    (same columns), the columns to set and the model predicting them.

    Normally X, the grid rows and the estimator. For a pipeline whose
    preprocessing is provably column-wise: X and the grid rows transformed
    (once each), the transformed columns of the features and the final step,
    which then sees exactly what the pipeline gives it.
    """
    view = columnwise_view(run.estimator, run.X.shape[1])
    if view is not None:
        try:
            transformed, rows = view.transform(run.X), view.transform(run.rows)
        except (ValueError, TypeError):
            # A value of a feature that every copy replaces (None where the
            # encoder knows only strings): scikit-learn's copies never show
            # it to the preprocessing; the pipeline predicting them will say
            # if another column cannot pass.
            return run.X, run.rows, tuple(run.positions), run.estimator
        dense = (
            isinstance(transformed, np.ndarray)
            and isinstance(rows, np.ndarray)
            and transformed.dtype == rows.dtype
        )
        csr = all(
            sparse.issparse(m) and m.format == "csr" and m.has_sorted_indices
            for m in (transformed, rows)
        ) and (transformed.dtype == rows.dtype)
        if dense or csr:
            return transformed, rows, view.map_columns(run.positions), view.model
    return run.X, run.rows, tuple(run.positions), run.estimator


def walk_threads(run, shortcut):
    """Threads of a chunk's tree walk: chunks run one at a time here, so the
    walk takes the threads the model's own predict would; a remote worker's
    are the backend's."""
    if run.runner.remote or shortcut is None:
        return 1
    return shortcut.model.predict_threads()
