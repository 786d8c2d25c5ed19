"""Permutation work shared between the views of one ModelInspector.

Several views permute the same rows with the same settings: the Importance
view and the Comparison view's test measure (held-out rows), the Importance
view on training rows and the Comparison view's train measure, the
Comparison view's single-column groups and its test measure. The inspector
gives its views one :class:`SharedPermutations`; each view hands it the
engine run it would start, and gets back either a kept complete result for
the same inputs or that run, whose complete result is then kept.

"The same inputs" is: the same rows (named by the inspector: "test" for the
held-out X, "train" for the training data, the Comparison view's subsample
by its size; rows None share nothing), the same `n_repeats`, `random_state`
and `max_samples` (hence the same permutations), every scorer asked for, and
every feature's columns. A feature's permuted scores depend only on its columns and the
repeat's permutation (PermutationImportanceResult.select), so a kept result
answers any subset of its features and scorers.

The scores of the unpermuted rows (the baseline) are kept too, per rows and
scorers, as soon as a run has them (with its first results): the header's
held-out scores are the Importance run's baseline, which on a tree model
comes from the run's first walk of the rows (X rides it), not from
predictions of its own. A caller waiting for a baseline registers with
:meth:`SharedPermutations.when_baseline`.
"""

import threading
from dataclasses import replace

from ..inspection._permutation import ScoringPlan, resamples_scorers


class SharedPermutations:
    """Complete permutation-importance results and baselines, by inputs."""

    def __init__(self):
        self._lock = threading.Lock()
        self._results = {}  # (rows, n_repeats, random_state, max_samples) -> [...]
        self._baselines = {}  # (rows, scorer names) -> Baseline
        self._waiting = {}  # (rows, scorer names) -> [callback(Baseline)]
        # Resamples of the held-out interval every run on these rows gets
        # where its scorers allow (the inspector's "test": 200), so that
        # the views computing them share their results.
        self.resamples = {}  # rows -> n_bootstrap

    def baseline(self, rows, estimator, X, y, scoring):
        """The scores of `estimator` on the unpermuted (`X`, `y`) for
        `scoring` (as the engine takes it), computed once per rows and
        scorers."""
        plan = ScoringPlan(estimator, scoring)
        key = (rows, plan.names)
        with self._lock:
            kept = self._baselines.get(key)
        if kept is None:
            kept = self._keep_baseline(key, plan.baseline(X, y, None))
        return kept

    @staticmethod
    def scorer_names(estimator, scoring):
        """The names a baseline of `scoring` keys its scores by."""
        return ScoringPlan(estimator, scoring).names

    def when_baseline(self, rows, estimator, scoring, callback):
        """Call ``callback(baseline)`` once the baseline of `rows` for
        `scoring` is kept (at once if it is), from the thread that keeps it."""
        key = (rows, self.scorer_names(estimator, scoring))
        with self._lock:
            kept = self._baselines.get(key)
            if kept is None:
                self._waiting.setdefault(key, []).append(callback)
        if kept is not None:
            callback(kept)

    def _keep_baseline(self, key, baseline):
        """Keep `baseline` unless one is kept for `key`; the kept one, after
        the callbacks waiting for it are called."""
        with self._lock:
            kept = self._baselines.setdefault(key, baseline)
            waiting = self._waiting.pop(key, [])
        for callback in waiting:
            callback(kept)
        return kept

    def stream(self, rows, run, settings):
        """What a view consumes instead of iterating `run` (a
        PermutationRun) itself: a kept complete result for the same inputs,
        or `run`, given the kept baseline if there is one, whose complete
        result is kept. `settings` is ``(n_repeats, random_state,
        max_samples)``; `rows` None shares nothing. What is kept is looked
        up when the stream starts, so a view's later stage finds what its
        earlier stages computed."""
        if rows is None:
            return iter(run)
        return self._shared_stream(rows, run, (rows, *settings))

    def _shared_stream(self, rows, run, key):
        names = run.plan.names
        n_bootstrap = self.resamples.get(rows)
        if (
            n_bootstrap is not None
            and run.bootstrap is None
            and resamples_scorers(run.plan)
        ):
            run.resample(n_bootstrap)
        with self._lock:
            for result in self._results.get(key, ()):
                if run.n_bootstrap is not None and (
                    result.n_bootstrap != run.n_bootstrap
                ):
                    continue  # without this run's resamples (same seed: same draws)
                kept = result.select(run.feature_columns, names, run.feature_names)
                if kept is not None:
                    # Whether it is multimetric is the asking run's to say.
                    yield replace(kept, multimetric=run.plan.multimetric)
                    return
            baseline = self._baselines.get((rows, names))
        if baseline is not None:
            run.reuse_baseline(baseline)
        stream = iter(run)
        try:
            result = None
            for result in stream:
                # Kept with the first results: the header shows its scores
                # as the first bars come.
                if baseline is None and run.baseline is not None:
                    baseline = self._keep_baseline((rows, names), run.baseline)
                yield result
        finally:
            stream.close()
        if result is not None and result.complete:
            with self._lock:
                self._results.setdefault(key, []).append(result)
