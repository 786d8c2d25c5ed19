"""How an overview predicts every feature's grid in one run, planned once.

Each feature's grid is built and validated by its own
:class:`~.run.PartialDependenceRun` (the grid, missing values, categories:
one concept, one place). The overview then predicts them all as one run
would predict one feature: the features' grid rows stacked into one donor,
each row setting its own feature's columns (``PredictedChunks.row_columns``),
so that the model (or a column-wise pipeline's preprocessing) is prepared once,
a tree model is flattened and its splits read once, and every chunk predicts
several features' grid points in one walk or one batched call.
"""

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from .._core.batching import make_batcher
from .._core.chunks import ChunkSchedule
from .._core.pipeline import columnwise_view
from .._core.responses import Responses
from .._shortcuts import choose_shortcut, path_of
from .chunks import PredictedChunks
from .plan import FIRST_CHUNK_FRACTION, _chunk_cap, walk_threads
from .tree_splits import grid_point_groups_of_each


@dataclass(frozen=True)
class OverviewPlan:
    """What the overview's loop executes: chunks of grid-point groups (each
    predicted once, by its first point) and, per group, its feature."""

    chunks: PredictedChunks
    schedule: ChunkSchedule
    group_of_point: tuple  # per feature: each grid point's group (global)
    n_groups: int
    walked: bool  # whether the tree shortcut predicts the groups


def plan_overview(runs, snapshots):
    """The :class:`OverviewPlan` of the features' validated `runs` (one
    feature each, brute method, the same estimator and X), or None when their
    grid rows cannot be stacked into one donor (then each run predicts its
    own)."""
    space = _shared_space(runs)
    if space is None:
        return None
    source, rows, columns, model = space
    donor = _stacked(rows)
    if donor is None:
        return None
    run = runs[0]
    row_columns, group_of_point, representatives = [], [], []
    cells = grid_point_groups_of_each(model, rows, columns)
    n_groups = n_points = 0
    for i, feature_rows in enumerate(rows):
        n = feature_rows.shape[0]
        groups = None if cells is None else cells[i]
        if groups is None:
            groups = np.arange(n)
        first = np.unique(groups, return_index=True)[1]
        representatives.append(first + n_points)
        group_of_point.append(groups + n_groups)
        row_columns += [columns[i]] * n
        n_groups += len(first)
        n_points += n
    shortcut = choose_shortcut(
        run.algorithm, model, source, run._methods(), donor=donor, obstacle=None
    )
    linear = path_of(shortcut and shortcut.model) == "linear"
    batcher = make_batcher(source)
    n_rows = run.X.shape[0]
    cap, block_bytes = _chunk_cap(run, n_rows, batcher, shortcut is not None, linear)
    chunks = PredictedChunks(
        # Feature by feature: each feature's panel completes as early as it can.
        order=np.arange(n_groups),
        representatives=np.concatenate(representatives),
        n_rows=n_rows,
        columns=columns[0],
        responses=Responses(run.response_method, run.scale, run.output_columns),
        shortcut=shortcut,
        walk_block_bytes=block_bytes,
        tree_threads=walk_threads(run, shortcut),
        treewise=None,
        batcher=batcher,
        rows=donor,
        model=model,
        row_columns=tuple(row_columns),
        linear=linear,
    )
    first = cap
    if snapshots:
        # At least the first feature's groups: the first snapshot has a panel.
        first_feature = len(np.unique(group_of_point[0]))
        first = max(first_feature, int(np.ceil(n_groups * FIRST_CHUNK_FRACTION)))
        first = min(first, cap)
    schedule = ChunkSchedule(n_groups, first, cap, eager=shortcut is not None)
    return OverviewPlan(
        chunks=chunks,
        schedule=schedule,
        group_of_point=tuple(group_of_point),
        n_groups=n_groups,
        walked=shortcut is not None,
    )


def _shared_space(runs):
    """``(source, rows per feature, columns per feature, model)``: X and the
    estimator, or, for a column-wise pipeline, X transformed once, each
    feature's grid rows transformed and its transformed columns with the final
    step (as ``plan._prediction_space`` does for one feature)."""
    run = runs[0]
    view = columnwise_view(run.estimator, run.X.shape[1])
    if view is None:
        return (
            run.X,
            [r.rows for r in runs],
            [tuple(r.positions) for r in runs],
            (run.estimator),
        )
    transformed = view.transform(run.X)
    rows = [view.transform(r.rows) for r in runs]
    dense = isinstance(transformed, np.ndarray) and all(
        isinstance(r, np.ndarray) and r.dtype == transformed.dtype for r in rows
    )
    csr = all(
        sparse.issparse(m) and m.format == "csr" and m.dtype == transformed.dtype
        for m in (transformed, *rows)
    )
    if not (dense or csr):
        return None
    columns = [tuple(view.map_columns(r.positions)) for r in runs]
    return transformed, rows, columns, view.model


def _stacked(rows):
    """The features' grid rows as one donor of the same kind and dtypes, or
    None if they do not stack (a column's dtype differing between them)."""
    first = rows[0]
    if sparse.issparse(first):
        donor = sparse.vstack(rows, format="csr")
        donor.sort_indices()
        return donor
    if isinstance(first, np.ndarray):
        return np.concatenate(rows)
    import pandas as pd

    if any(not r.dtypes.equals(first.dtypes) for r in rows):
        return None
    donor = pd.concat(rows, ignore_index=True)
    return donor if donor.dtypes.equals(first.dtypes) else None
