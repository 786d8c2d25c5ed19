"""How a permutation-importance run predicts its copies: planned once, before
any chunk.

:func:`plan_run` decides, from a validated :class:`~.importance.PermutationRun`,
where X's own scores come from (predicted first, or riding the first chunk's
tree walk), what is permuted (X, or a column-wise pipeline's transformed X),
whether the tree walk or the model predicts the copies, how many copies fit
in memory at once and in which order and chunks the jobs go. The run's loop
(:meth:`~.importance.PermutationRun.__iter__`) then only executes the
:class:`RunPlan`.
"""

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from .._core.batching import make_batcher
from .._core.chunks import ChunkSchedule
from .._core.compat import _safe_indexing
from .._core.parallel import local_joblib_calls
from .._core.pipeline import columnwise_view, final_estimator
from .._shortcuts import choose_shortcut, path_of
from .._shortcuts.trees import unsupported, walk_block_bytes
from .chunks import PermutedChunks


@dataclass(frozen=True)
class RunPlan:
    """What a run's loop executes."""

    chunks: PermutedChunks  # what every chunk reads, with the job order
    schedule: ChunkSchedule
    # The scores' names: the scorers' until the baseline rides in, else the
    # baseline's (a custom scorer returning a dict names its own).
    score_names: tuple
    # Whether the first round is also yielded feature by feature.
    split_first_round: bool
    # Whether the model predicts stacked copies of X's own rows (neither a
    # shortcut nor a pipeline's transformed rows): several models doing so
    # can share the copies (plan_shared_stacks).
    stacks_x: bool = False
    prediction: object = None  # the _Prediction planned


@dataclass(frozen=True)
class _Prediction:
    """How the permuted copies are predicted (see `_prediction`)."""

    model: object
    columns: list  # each feature's (or group's) columns in `source`
    source: object  # the rows to permute, for stacked copies
    shortcut: object  # Chosen.model: the tree walk or the linear shortcut, or None
    shortcut_rows: object  # the rows as the shortcut reads them, or None


# A walk follows each row's own path through every tree whatever the copies
# it carries, so a single copy costs it more than the model's own predict of
# it; from two copies on, the walk costs less. Both give the model's bits.
# Measured in benchmarks/results/permutation.md, re-checked by
# `benchmarks/permutation.py` ("fewest walked").
_FEWEST_WALKED = 2


# The rows of copies a chunk sums the squared errors of (the linear
# shortcut, chunks._walk): a few tenths of a second's work (timed in
# benchmarks/results/linear.md), so that a live display still moves.
_SUMMED_ROWS = 2**26


def _bytes_per_copy(run, batcher, output_bytes_per_row, walked):
    """A copy's outputs, and as much again twice while they are scored (the
    vectorized metrics' temporaries: residuals, their squares); a stacked
    copy of X unless walked (the walk's buffers take a block of rows at a
    time whatever its copies); a conditional copy's rows within their
    subgroups."""
    per_copy = 3 * batcher.n_rows * output_bytes_per_row
    if not walked:
        per_copy += batcher.bytes_per_copy
    if run.subgroup_orders is not None:
        per_copy += batcher.n_rows * np.dtype(np.intp).itemsize
    return per_copy


def plan_run(run):
    """The :class:`RunPlan` of `run`; X's baseline predicted on the way
    where it does not ride the first chunk (so a NaN score is refused before
    any permuted copy)."""
    rides, output_bytes_per_row = _baseline_route(run)
    prediction = _prediction(run)
    if rides and prediction.shortcut is None:
        rides = False
        run._predict_baseline()
    if not rides:
        output_bytes_per_row = run.baseline.output_bytes_per_row
    n_features = len(run.feature_names)
    walked = prediction.shortcut is not None
    error_sum_scoring = None if rides else _error_sum_scoring(run, prediction)
    watched = _laid_out_watched(run, prediction, error_sum_scoring)
    job_order = _job_order(run.n_repeats, n_features, walked, watched)
    batcher = make_batcher(prediction.source)
    per_copy = _bytes_per_copy(run, batcher, output_bytes_per_row, walked)
    in_flight = _bytes_in_flight(run, prediction, per_copy, rides)
    cap = _cap(run, prediction, per_copy, in_flight, error_sum_scoring)
    if walked:
        batcher = _batcher_beside_walk(run, prediction, batcher, per_copy, in_flight)
    runner = run.runner
    chunks = PermutedChunks(
        plan=run.plan,
        model=prediction.model,
        batcher=batcher,
        shortcut=prediction.shortcut,
        shortcut_rows=prediction.shortcut_rows,
        y=run._subsample(run.y),
        sample_weight=run._subsample(run.sample_weight),
        permutations=run.permutations,
        columns=prediction.columns,
        job_order=job_order,
        baseline_rides=rides,
        walk_from=_FEWEST_WALKED if batcher is not None else 1,
        walk_block_bytes=walk_block_bytes(run.max_memory),
        # A remote worker's threads are the backend's to count.
        n_threads=(
            1
            if runner.remote or not walked
            else prediction.shortcut.predict_threads(runner.n_workers)
        ),
        bootstrap=run.bootstrap,
        resampled_baseline=None if rides else run.baseline.bootstrap_losses,
        resample_first_later=run.watched,
        subgroups=run.subgroup_orders,
        error_sum_scoring=error_sum_scoring,
    )
    split = run.stream_first_round and run.watched
    return RunPlan(
        chunks=chunks,
        schedule=_schedule(
            run, len(job_order), n_features, walked, cap, split, watched
        ),
        score_names=run.plan.names if rides else tuple(run.baseline.scores),
        split_first_round=split,
        stacks_x=not walked
        and batcher is not None
        and prediction.model is run.estimator,
        prediction=prediction,
    )


def plan_shared_stacks(runs, run_plans):
    """The schedule of runs (of several models, on the same validated data)
    whose plans all stack X's own rows (`RunPlan.stacks_x`), chunks cut for
    all at once (`chunks.score_shared_chunk`): a chunk holds one stack of
    copies and every model's outputs of it, within the first run's budget."""
    first, first_plan = runs[0], run_plans[0]
    batcher = first_plan.chunks.batcher
    outputs_per_row = sum(run.baseline.output_bytes_per_row for run in runs)
    per_copy = _bytes_per_copy(first, batcher, outputs_per_row, False)
    in_flight = _bytes_in_flight(first, first_plan.prediction, per_copy, False)
    n_workers = first.runner.n_workers
    cap = max(1, int(in_flight // (per_copy * n_workers)))
    n_features = len(first.feature_names)
    n_jobs = len(first_plan.chunks.job_order)
    return _schedule(first, n_jobs, n_features, False, cap, False, first.watched)


def _laid_out_watched(run, prediction, error_sum_scoring):
    """Whether the chunks are laid out as for a watched run. Scores under
    resamples take a product over a chunk's copies (bootstrap.py), whose
    last bits follow the chunks: the linear shortcut's chunks are laid out
    as if watched, so that a one-shot run and a streamed one agree bit for
    bit (the tree walk is exact anyway; so are summed errors, each copy's
    own)."""
    return run.watched or (
        path_of(prediction.shortcut) == "linear" and error_sum_scoring is None
    )


def _cap(run, prediction, per_copy, in_flight, error_sum_scoring):
    """The most copies a chunk takes: as many as the memory budget holds
    for each worker, or, where the linear shortcut sums the copies' errors
    (a copy then holds nothing), a few tenths of a second's work."""
    if error_sum_scoring is not None:
        return max(1, _SUMMED_ROWS // prediction.shortcut_rows.shape[0])
    return max(1, int(in_flight // (per_copy * run.runner.n_workers)))


def _error_sum_scoring(run, prediction):
    """How the linear shortcut scores the copies from the sums of their
    squared errors, never predicting them (`chunks._walk`), or None: for a
    regressor whose prediction is its decision function, copies of single
    columns, and scorers reading those sums alone, with no held-out
    bootstrap (whose resamples read each row's prediction)."""
    if (
        path_of(prediction.shortcut) != "linear"
        or not prediction.shortcut.sums_errors(run.n_repeats * len(prediction.columns))
        or any(len(columns) != 1 for columns in prediction.columns)
        or run.bootstrap is not None
    ):
        return None
    return run.plan.error_sum_scoring(
        run._subsample(run.y), run._subsample(run.sample_weight)
    )


def _baseline_route(run):
    """Whether X's own predictions may ride the first chunk's walk, and the
    bytes of a row's outputs if so (else None: the baseline, now predicted
    or given, says)."""
    if _may_walk_x(run):
        # The model's own predict sees X's first row only: its checks of X's
        # columns (their number, names and types; the walk reads them as
        # they are) and the size of its responses. X's predictions then come
        # from the first chunk's walk, bit for bit the model's.
        with local_joblib_calls():
            first_row = run.plan.predict(_safe_indexing(run.X, slice(0, 1)))
        return True, sum(v.nbytes for v in first_row.values())
    if run.baseline is None:
        run._predict_baseline()
    else:  # given by reuse_baseline
        run._check_baseline()
    return False, None


def _may_walk_x(run):
    """Whether the tree shortcut may walk every row of X, so that X's own
    predictions can ride its first chunk (see `chunks.score_chunk`)."""
    return (
        run.baseline is None
        and run.rows is None
        and run.algorithm != "generic"
        and run._custom_scorer() is None
        and unsupported(final_estimator(run.estimator), None, run.plan.response_methods)
        is None
    )


def _prediction(run):
    """What is permuted and what predicts it: the tree walk where it applies
    (and, under "auto", pays), else the model on stacked copies."""
    source, columns, model = _permutation_space(run)
    chosen = choose_shortcut(
        run.algorithm,
        model,
        source,
        run.plan.response_methods,
        obstacle=run._custom_scorer(),
        permuted=columns,
        n_repeats=run.n_repeats,
    )
    shortcut, rows = chosen[:2] if chosen else (None, None)
    run.computed_by = path_of(shortcut)
    return _Prediction(model, columns, source, shortcut, rows)


def _permutation_space(run):
    """The data to permute, its column groups and the model predicting it.

    Normally X itself and the estimator. For a pipeline whose preprocessing
    is provably column-wise, the preprocessed rows (transformed once) and the
    final step, which then sees exactly what the pipeline gives it.
    """
    rows = run._subsample(run.X)
    view = columnwise_view(run.estimator, run.X.shape[1])
    if view is not None and run.plan.all_replayable:
        transformed = view.transform(rows)
        if isinstance(transformed, np.ndarray) or (
            sparse.issparse(transformed)
            and transformed.format == "csr"
            and transformed.has_sorted_indices
        ):
            columns = [view.map_columns(c) for c in run.feature_columns]
            return transformed, columns, view.model
    return rows, run.feature_columns, run.estimator


def _bytes_in_flight(run, prediction, per_copy, rides):
    """Bytes the chunks in flight may take: `max_memory` less what the run
    holds for its whole length (the permutations, and the rows the walk
    reads, float32 for a forest, and a block a worker, or the subsample or
    transform of X that is stacked); at least one copy a worker."""
    resident = sum(p.nbytes for p in run.permutations)
    for order in run.subgroup_orders or ():  # a conditional run's subgroups
        resident += 0 if order is None else sum(a.nbytes for a in order)
    if rides:  # X's own copy, in the first chunk
        resident += per_copy
    n_workers = run.runner.n_workers
    if prediction.shortcut is not None:
        block_bytes = walk_block_bytes(run.max_memory)
        resident += make_batcher(prediction.shortcut_rows).bytes_per_copy  # or CSR
        resident += block_bytes * n_workers
    elif prediction.source is not run.X:
        resident += getattr(prediction.source, "nbytes", 0)
    return max(run.max_memory - resident, per_copy * n_workers)


def _batcher_beside_walk(run, prediction, batcher, per_copy, in_flight):
    """What stacks the chunks the walk leaves to the model (fewer than
    `_FEWEST_WALKED` copies), or None where it walks them all.

    The walk reads tree_rows only; its smallest chunks are stacked from X
    itself, or else from tree_rows where the model reads them as it reads X
    (no other copy is kept for them), within the budget.
    """
    # The workers get tree_rows only; a linear copy costs less than a
    # stacked one, however few.
    if run.runner.remote or path_of(prediction.shortcut) == "linear":
        return None
    if prediction.source is not run.X:
        if not prediction.shortcut.predicts_walk_rows():
            return None
        batcher = make_batcher(prediction.shortcut_rows)
    stacked = (_FEWEST_WALKED - 1) * (batcher.bytes_per_copy + per_copy)
    if stacked * run.runner.n_workers > in_flight:
        return None
    return batcher


def _schedule(run, n_jobs, n_features, walked, cap, split, watched):
    """The chunks the jobs go in.

    Split, the first round comes in small chunks for a display to show as
    they come. The walk instead takes its blocks of rounds (the first round
    is one) in as few chunks as the budget and the workers allow, after the
    probe if watched (the first bars): each chunk walks every row's path, and
    a block shows nothing before all of it is done (measured in
    benchmarks/results/permutation.md).
    """
    full_size = walked and not watched
    walked_blocks = None
    if walked:
        walked_blocks = [
            b * n_features for b in _blocks_of_rounds(run.n_repeats, watched)[1:]
        ]
    return ChunkSchedule(
        n_jobs,
        cap if full_size else n_features,
        cap,
        probe=not full_size,
        split_first_round=split and not walked,
        block_ends=walked_blocks,
        shares=run.runner.n_workers,
    )


def _job_order(n_repeats, n_features, walked, watched):
    """The jobs in the order chunks take them (job ``j`` is repeat
    ``j // n_features`` of feature ``j % n_features``).

    Predicted copies go round by round (a round: every feature at one
    repeat). The tree walk shares each row's detours among a chunk's copies
    of one feature (a feature's further copies cost it a fraction of its
    first: benchmarks/results/permutation.md), so it takes the rounds in
    blocks, feature by feature within a block: a feature's repeats walk
    together. Watched, the first round comes alone (the first bars) and
    blocks grow from 4 rounds by doubling, so the display still moves;
    otherwise one block holds every round. Whatever the order, every round
    is yielded, each once all its jobs are done.
    """
    jobs = np.arange(n_repeats * n_features).reshape(n_repeats, n_features)
    if not walked:
        return jobs.ravel()
    bounds = _blocks_of_rounds(n_repeats, watched)
    return np.concatenate(
        [jobs[a:b].T.ravel() for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    )


def _blocks_of_rounds(n_repeats, watched):
    """Where the walk's blocks of rounds begin and end (see `_job_order`)."""
    if not watched:
        return [0, n_repeats]
    bounds, size = [0, 1], 4
    while bounds[-1] < n_repeats:
        stop = bounds[-1] + size
        # A remainder smaller than a block joins the last one.
        bounds.append(n_repeats if n_repeats - stop < size else stop)
        size *= 2
    return bounds
