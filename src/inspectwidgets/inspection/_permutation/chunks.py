"""What one chunk of a permutation-importance run does: predict its permuted
copies (walked through the trees, or stacked for the model) and score them."""

from dataclasses import dataclass

import numpy as np

from .bootstrap import bootstrap_scores
from .schedule import within_subgroups
from .scoring import ScoringPlan


@dataclass(frozen=True)
class PermutedChunks:
    """What every chunk of a run reads (shipped once to remote workers)."""

    plan: ScoringPlan
    model: object
    batcher: object  # stacks the copies the model predicts, or None
    shortcut: object  # Chosen.model: the tree walk or the linear shortcut, or None
    shortcut_rows: object  # the rows as the shortcut reads them
    y: object
    sample_weight: object
    permutations: list
    columns: list
    job_order: np.ndarray
    baseline_rides: bool  # X's own predictions ride the first chunk
    walk_from: int  # the fewest copies the walk takes; fewer are predicted
    walk_block_bytes: int
    n_threads: int
    bootstrap: object = None  # the held-out resamples (bootstrap.py), or None
    # X's scores under them, which the copies' start from (by name,
    # bootstrap.ResampledLoss); None where X rides the first chunk: every
    # chunk then leaves its resamples to the run (LaterResamples).
    resampled_baseline: dict | None = None
    # Whether the first chunk, X's riding, leaves its scores under the
    # resamples for after its results are shown: a widget's first bars.
    resample_first_later: bool = False
    # A conditional run's subgroups: per feature, None (one subgroup: the
    # repeat's permutation) or its rows' codes and the rows sorted by them.
    subgroups: tuple | None = None
    # Where the linear shortcut scores the copies from the sums of their
    # squared errors, never predicting them: how (scoring.ErrorSumScoring).
    error_sum_scoring: object = None


def score_chunk(c, start, stop):
    """Every scorer's score of the permuted copies of the jobs at
    ``job_order[start:stop]``; their scores under each held-out resample
    (arrays of shape (copies, n_bootstrap)), or None without a bootstrap;
    and the :class:`~.scoring.Baseline` of X itself where it rides this
    chunk (the first), else None.

    X rides as one more copy, whose columns take their own rows' values: it
    never leaves its rows' paths, so the walk carries it almost for free,
    where the model's predict of X costs as much as a permuted copy's
    (benchmarks/results/permutation.md)."""
    copies = _copies(c, start, stop)
    rides = c.baseline_rides and start == 0
    if rides:
        copies.insert(0, (np.arange(len(c.shortcut_rows)), copies[0][1]))
    if c.shortcut is not None and (rides or len(copies) >= c.walk_from):
        return _walk(c, copies, rides)
    return score_stacked(c, c.batcher.build(copies), copies)


def score_shared_chunk(shared, start, stop):
    """:func:`score_chunk` of every run in `shared` (a tuple of
    :class:`PermutedChunks` permuting the same columns of the same rows,
    their copies stacked, none walked, X's baseline predicted before): the
    copies stacked once, each model predicting them once."""
    first = shared[0]
    copies = _copies(first, start, stop)
    stacked = first.batcher.build(copies)
    return tuple(score_stacked(c, stacked, copies) for c in shared)


def _copies(c, start, stop):
    """The (rows, columns) of the copies of the jobs at ``job_order[start:stop]``."""
    n_features = len(c.columns)
    return [
        (_permutation(c, j // n_features, j % n_features), c.columns[j % n_features])
        for j in c.job_order[start:stop]
    ]


def score_stacked(c, stacked, copies):
    """`score_chunk` of the `copies` stacked in `stacked`: the model predicts
    them in one call."""
    outputs = c.plan.predict(stacked, c.model)
    scores = c.plan.score_blocks(
        outputs,
        len(copies),
        c.y,
        c.sample_weight,
        lambda b: c.batcher.block(stacked, b),
    )
    return scores, _resampled(c, outputs, copies), None


def _permutation(c, repeat, feature):
    """The rows feature `feature`'s copy takes at `repeat`: the repeat's
    permutation, within the feature's subgroups in a conditional run."""
    permutation = c.permutations[repeat]
    if c.subgroups is None or c.subgroups[feature] is None:
        return permutation
    return within_subgroups(permutation, c.subgroups[feature])


def _resampled(c, outputs, copies):
    """The copies' scores under the held-out resamples, from the same
    predictions (see bootstrap.py)."""
    if c.bootstrap is None:
        return None
    donors = [permutation for permutation, _ in copies]
    if c.resampled_baseline is None:
        return LaterResamples(c.plan, c.y, c.bootstrap, outputs, donors)
    return bootstrap_scores(
        c.plan, outputs, len(copies), c.y, c.bootstrap, donors, c.resampled_baseline
    )


def _walk(c, copies, rides):
    """`score_chunk` through the shortcut (the tree walk, bit for bit the
    model's predictions; or the linear one), without stacking the copies."""
    if c.error_sum_scoring is not None:  # X's baseline never rides then
        scores = c.error_sum_scoring.scores(
            lambda weight: c.shortcut.error_sums(
                c.shortcut_rows, copies, c.error_sum_scoring.y, weight, c.n_threads
            )
        )
        return scores, None, None
    outputs = c.shortcut.predict(
        c.shortcut_rows,
        copies,
        c.plan.response_methods,
        n_threads=c.n_threads,
        block_bytes=c.walk_block_bytes,
    )
    baseline = None
    if rides:  # scored first, as when predicted before the run
        n_rows = len(c.shortcut_rows)
        baseline = c.plan.baseline_of(
            {m: v[:n_rows] for m, v in outputs.items()},
            c.shortcut_rows,
            c.y,
            c.sample_weight,
        )
        outputs = {m: v[n_rows:] for m, v in outputs.items()}
    copies = copies[1:] if rides else copies
    scores = c.plan.score_blocks(outputs, len(copies), c.y, c.sample_weight, None)
    return scores, _resampled(c, outputs, copies), baseline


@dataclass(frozen=True)
class LaterResamples:
    """What a chunk's scores under the held-out resamples take, where X's
    predictions ride the first chunk: the copies' scores start from X's
    (bootstrap.bootstrap_scores), so they are scored once X's are, by the
    run (`later_resamples_scored`). The same calls on the same predictions
    as in a chunk: the same numbers, bit for bit."""

    plan: ScoringPlan
    y: object
    bootstrap: object
    outputs: dict  # the copies' predictions
    donors: list  # each copy's permutation

    def resampled_baseline(self, baseline):
        """`baseline` (X's, from the first chunk) also scored under the
        resamples."""
        if baseline.bootstrap_losses is not None:
            return baseline
        return self.plan.resample_baseline(baseline, self.y, self.bootstrap)

    def scores(self, baseline):
        """The copies' scores under the resamples (as `score_chunk` returns
        them), from `baseline` scored under them."""
        return bootstrap_scores(
            self.plan,
            self.outputs,
            len(self.donors),
            self.y,
            self.bootstrap,
            self.donors,
            baseline.bootstrap_losses,
        )


def later_resamples_scored(results, run, job_order, resampled, first_later):
    """The runner's chunk `results`, as they come, with their LaterResamples
    scored once X's baseline is (the first chunk brings it): the first
    chunk's, if `first_later` and chunks are left, once the run has yielded
    what it brought (when it asks for the next chunk; a widget's first
    bars, timed in benchmarks/results/inspector.md), else at once; the
    others' as they come, or with the first if they come before it. Into
    `resampled` (each scorer's (job, resample) scores) and `run.baseline`."""
    n_jobs, arrived = len(job_order), 0
    waiting = []  # the chunks that came before X's

    def store(start, stop, later, baseline):
        for name, values in later.scores(baseline).items():
            resampled[name][job_order[start:stop]] = values

    for start, stop, (scores, chunk_resampled, baseline) in results:
        arrived += stop - start
        if not isinstance(chunk_resampled, LaterResamples):
            yield start, stop, (scores, chunk_resampled, baseline)
            continue
        later = chunk_resampled
        if baseline is None:  # X does not ride this chunk
            known = run.baseline
            if known is None or known.bootstrap_losses is None:
                waiting.append((start, stop, later))
                yield start, stop, (scores, None, None)
            else:
                yield start, stop, (scores, later.scores(known), None)
            continue
        if first_later and arrived < n_jobs:
            yield start, stop, (scores, None, baseline)
            baseline = run.baseline = later.resampled_baseline(run.baseline)
            store(start, stop, later, baseline)
        else:
            baseline = later.resampled_baseline(baseline)
            chunk_resampled = later.scores(baseline)
        for chunk in waiting:
            store(*chunk, baseline)
        waiting.clear()
        if not (first_later and arrived < n_jobs):
            yield start, stop, (scores, chunk_resampled, baseline)
