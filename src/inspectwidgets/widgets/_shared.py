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
scorers: the header's held-out scores are the Importance run's baseline.
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
            kept = plan.baseline(X, y, None)
            with self._lock:
                kept = self._baselines.setdefault(key, kept)
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
                yield result
        finally:
            stream.close()
        with self._lock:
            if run.baseline is not None:
                self._baselines.setdefault((rows, names), run.baseline)
            if result is not None and result.complete:
                self._results.setdefault(key, []).append(result)
