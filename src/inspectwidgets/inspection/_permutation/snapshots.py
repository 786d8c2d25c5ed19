"""The results a permutation-importance run yields as its rounds come in:
consistent snapshots of the scores so far (every feature with the same
repeats), which later rounds do not modify."""

import numpy as np

from .result import PermutationImportanceResult


class RoundCollector:
    """A run's scores as its chunks come in, and the snapshots they complete.

    Scores are kept by job (repeat-major: a round is every feature at one
    repeat), one flat array per scorer; chunks take the jobs in the plan's
    `job_order`, complete in any order, and :meth:`add` returns the rounds
    (or, split, the first round's features) each one completes, in order.
    """

    def __init__(self, run, run_plan):
        self.run, self.plan = run, run_plan
        n_jobs = len(run_plan.chunks.job_order)
        self.scores = {name: np.full(n_jobs, np.nan) for name in run_plan.score_names}
        # The same under each held-out resample, (job, resample), if asked.
        self.resampled = {
            name: np.full((n_jobs, run.n_bootstrap), np.nan)
            for name in run_plan.score_names
            if run.bootstrap is not None
        }
        self.done = np.zeros(n_jobs, dtype=bool)
        self.rounds_done = 0
        self.first_round_shown = 0

    def add(self, start, stop, result):
        """Take one chunk's `result` (what `chunks.score_chunk` returns for
        the jobs at ``job_order[start:stop]``); the snapshots it completes."""
        run, run_plan = self.run, self.plan
        chunk_scores, chunk_resampled, baseline = result
        if baseline is not None:
            run.baseline = baseline
            run._check_baseline()
        jobs = run_plan.chunks.job_order[start:stop]
        for name in run_plan.score_names:
            self.scores[name][jobs] = chunk_scores[name]
            if chunk_resampled is not None:
                self.resampled[name][jobs] = chunk_resampled[name]
        self.done[jobs] = True
        if run.baseline is None:
            return []  # the chunk it rides has yet to come in
        n_features = len(run.feature_names)
        # Job f is feature f's first repeat (see plan._job_order).
        first_done = self.done[:n_features]
        n_first_done = int(first_done.sum())
        if run_plan.split_first_round and 0 < n_first_done < n_features:
            if n_first_done <= self.first_round_shown:
                return []
            self.first_round_shown = n_first_done
            return [first_round_snapshot(run, self.scores, self.resampled, first_done)]
        completed = 0
        while (
            self.rounds_done + completed < run.n_repeats
            and self.done[
                (self.rounds_done + completed) * n_features : (
                    self.rounds_done + completed + 1
                )
                * n_features
            ].all()
        ):
            completed += 1
        return self._rounds(completed)

    def _rounds(self, n):
        """The snapshots of the next `n` rounds, each made as it is taken: a
        chunk can complete thousands of rounds, and their snapshots held at
        once would grow with the square of the repeats (each holds every
        repeat before it)."""
        for _ in range(n):
            self.rounds_done += 1
            yield snapshot(self.run, self.scores, self.rounds_done, self.resampled)


def snapshot(run, scores, n_done, resampled=None):
    """Every feature's first `n_done` repeats. `scores` holds each scorer's
    scores by job (repeat-major), `resampled` the same under each held-out
    resample, shape (job, resample)."""
    n_features = len(run.feature_names)

    def by_round(s):
        return (
            s.reshape(run.n_repeats, n_features, -1)[:n_done].transpose(1, 0, 2).copy()
        )

    return PermutationImportanceResult(
        feature_names=tuple(run.feature_names),
        feature_columns=tuple(run.feature_columns),
        scorer_names=tuple(run.baseline.scores),
        baseline_scores=dict(run.baseline.scores),
        permuted_scores={
            name: s.reshape(run.n_repeats, -1)[:n_done].T.copy()
            for name, s in scores.items()
        },
        n_repeats=run.n_repeats,
        multimetric=run.baseline.multimetric,
        algorithm=getattr(run, "computed_by", "generic"),
        **_bootstrap_fields(run, resampled, by_round),
    )


def first_round_snapshot(run, scores, resampled, first_done):
    """The features whose first repeat is done, the others pending."""
    done = np.flatnonzero(first_done)
    n_features = len(run.feature_names)
    return PermutationImportanceResult(
        feature_names=tuple(run.feature_names[i] for i in done),
        feature_columns=tuple(run.feature_columns[i] for i in done),
        scorer_names=tuple(run.baseline.scores),
        baseline_scores=dict(run.baseline.scores),
        permuted_scores={
            name: s[:n_features][done, np.newaxis].copy() for name, s in scores.items()
        },
        n_repeats=run.n_repeats,
        multimetric=run.baseline.multimetric,
        algorithm=getattr(run, "computed_by", "generic"),
        pending_features=tuple(
            run.feature_names[i] for i in np.flatnonzero(~first_done)
        ),
        **_bootstrap_fields(
            run, resampled, lambda s: s[:n_features][done, np.newaxis].copy()
        ),
    )


def empty_snapshot(run):
    """A snapshot with no repeats (a run cancelled before its first round)."""
    n_jobs = run.n_repeats * len(run.feature_names)
    names = run.baseline.scores
    return snapshot(
        run,
        {name: np.empty(n_jobs) for name in names},
        0,
        {
            name: np.empty((n_jobs, run.n_bootstrap))
            for name in names
            if run.bootstrap is not None
        },
    )


def _bootstrap_fields(run, resampled, select):
    """The result's held-out resample fields: `select` takes a scorer's
    (job, resample) scores to (feature, repeat, resample). None until the
    baseline is scored under the resamples (the first bars, see
    ``chunks.LaterResamples``)."""
    if run.bootstrap is None or run.baseline.bootstrap_scores is None:
        return {}
    return {
        "bootstrap_baseline_scores": dict(run.baseline.bootstrap_scores),
        "bootstrap_permuted_scores": {name: select(s) for name, s in resampled.items()},
        "confidence_level": run.confidence_level,
    }
