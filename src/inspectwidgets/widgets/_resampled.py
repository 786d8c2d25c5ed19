"""Cross-validated and out-of-bag permutation importance, drawn by the
permutation widget's own chart and controls (ModelInspector's Importance
view on "cv" and "oob").

Each subclass streams its engine (CrossValRun: a clone fitted per fold;
OobRun: Breiman's out-of-bag scores of a bagged ensemble), a fold or a
member at a time, cancellable, and shows every snapshot as a
PermutationImportanceResult so the chart, "Top k", the table and `figure()`
work unchanged:

- cross-validated: one "repeat" per fold, the fold's importance averaged
  over its repeats; the baseline is the folds' mean held-out score. The
  chart's error bars are ±1.96 std across folds, the engine's `ci_low` and
  `ci_high`.
- out-of-bag: the engine's repeats, each the drop in score averaged over
  the members scored so far; the baseline is the members' mean out-of-bag
  score.

`to_frame()` gives the engine's numbers in the engine's terms (fold or
repeat, and each fold's own baseline).

Partial results: a cross-validated snapshot holds the folds done (of
`n_splits`, so ``result.complete`` says whether all are); an out-of-bag one
has every repeat of the members scored so far.
"""

import inspect
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._text import mpl_text
from ..inspection._core import bind_arguments
from ..inspection._permutation import (
    CrossValRun,
    OobRun,
    PermutationImportanceResult,
    cross_val_permutation_importance,
    oob_permutation_importance,
)
from ._permutation import PermutationImportanceWidget, engine_scoring


@dataclass(frozen=True)
class _Step:
    """One snapshot: the engine's (FoldsDone or MembersDone) and the result
    the chart draws."""

    done: object
    result: PermutationImportanceResult


class _ResampledImportance(PermutationImportanceWidget):
    """A PermutationImportanceWidget over a resampling engine (below)."""

    _engine_run: Any = None  # CrossValRun or OobRun
    # Their engines permute over every row: no conditional variant.
    _methods = ("marginal",)
    _splits = False  # nor subgroups: a fold's rows are its split
    _engine_function: Any = None  # the one-shot whose parameters it takes

    def __init__(self, estimator, X, y, *, cv=5, **kwargs):
        self._cv = cv
        self.done = None
        super().__init__(estimator, X, y, **kwargs)

    def _stream(self, cancel):
        self._check_features()
        params = dict(
            scoring=engine_scoring(self._estimator, self.scoring),
            n_repeats=self.n_repeats,
            random_state=self.random_state,
            n_jobs=self._engine_kwargs["n_jobs"],
            features={label: self._columns[label] for label in self.features},
        )
        if self._engine_run is CrossValRun:
            params["cv"] = self._cv
        run = self._engine_run(
            **bind_arguments(
                inspect.signature(self._engine_function),
                (self._estimator, self._X, self._y),
                params,
            )
        )
        run.cancel = cancel
        return (_Step(done, self._as_result(done)) for done in run)

    def _show(self, step):
        self.done = step.done
        self._repeats_done, self._repeats_total = self._progress_of(step)
        self._chart = self._chart_of(step.result)
        return step.result

    def _progress_of(self, step):
        return step.done.n_done, self._total(step.done)

    def _as_result(self, done):
        """The chart's result: each scorer's importances (folds or repeats
        as columns) below its baseline."""
        first = done.bunches[done.names[0]]
        baselines = {n: self._baseline(b) for n, b in done.bunches.items()}
        return PermutationImportanceResult(
            feature_names=tuple(str(f) for f in first.feature_names),
            feature_columns=done.feature_columns,
            scorer_names=done.names,
            baseline_scores=baselines,
            permuted_scores={
                n: baselines[n] - b.importances for n, b in done.bunches.items()
            },
            n_repeats=self._n_columns(done),
            multimetric=done.multimetric,
        )

    def to_frame(self):
        """feature, scorer, fold or repeat, importance, baseline_score (the
        fold's own, or the members' mean out-of-bag score)."""
        self._require_result()
        frames = []
        for name, b in self.done.bunches.items():
            n_features, n_columns = b.importances.shape
            frames.append(
                pd.DataFrame(
                    {
                        "feature": np.repeat(b.feature_names, n_columns),
                        "scorer": name,
                        self._column: np.tile(np.arange(n_columns), n_features),
                        "importance": b.importances.ravel(),
                        "baseline_score": np.tile(
                            self._baselines(b, n_columns), n_features
                        ),
                    }
                )
            )
        return pd.concat(frames, ignore_index=True)

    def figure(self):
        """The permutation widget's figure, titled in folds or members, with
        error bars of the chart's width (±1.96 std across folds for a
        cross-validated result)."""
        figure = super().figure()
        ax = figure.axes[0]
        result, extras = self.result, self._chart_extras
        spread = extras["spread"]
        bars = next((c for c in ax.containers if getattr(c, "errorbar", None)), None)
        if bars is not None and spread != 1:
            shown, _ = result.top(self.scorer, self.max_features)
            std = result.importances(self.scorer)[shown].std(axis=1)
            for artist in (*bars.errorbar[1], *bars.errorbar[2]):
                artist.remove()
            ax.errorbar(
                [bar.get_width() for bar in bars],
                [bar.get_y() + bar.get_height() / 2 for bar in bars],
                xerr=spread * std,
                fmt="none",
                ecolor="black",
                capsize=3,
            )
        baseline = result.baseline_scores[self.scorer]
        ax.set_title(
            mpl_text(
                f"{self._title} ({self.done.n_done} of {self._total(self.done)} "
                f"{extras['unit']}; bars ±{extras['spread_label']})\n"
                f"{self.scorer} = {baseline:.3g}: {extras['baseline_note']}"
            ),
            fontsize="medium",
        )
        return figure


class CrossValidatedImportance(_ResampledImportance):
    """Permutation importance on the held-out fold of each split of `X`
    (the training data), a clone of the estimator fitted per fold
    (:func:`~inspectwidgets.cross_val_permutation_importance`)."""

    _engine_run = CrossValRun
    _engine_function = staticmethod(cross_val_permutation_importance)
    _chart_extras = {
        "unit": "folds",
        "spread": 1.96,
        "spread_label": "1.96 std across folds",
        "baseline_note": "the folds' mean held-out score",
    }
    _column = "fold"  # a fold's importance: its mean over the repeats
    _title = "Cross-validated permutation importance"

    def _baseline(self, bunch):
        return float(np.mean(bunch.baseline_scores))

    def _baselines(self, bunch, n_columns):
        return bunch.baseline_scores

    def _n_columns(self, done):
        return done.n_splits

    def _total(self, done):
        return done.n_splits


class OutOfBagImportance(_ResampledImportance):
    """Breiman's out-of-bag permutation importance of a bagged ensemble on
    its training data (:func:`~inspectwidgets.oob_permutation_importance`)."""

    _engine_run = OobRun
    _engine_function = staticmethod(oob_permutation_importance)
    _chart_extras = {
        "unit": "members",
        "spread": 1.0,
        "spread_label": "std over repeats",
        "baseline_note": "the members' mean out-of-bag score",
    }
    _column = "repeat"  # the drop averaged over the members
    _title = "Out-of-bag permutation importance"

    def _baseline(self, bunch):
        return bunch.baseline_score

    def _baselines(self, bunch, n_columns):
        return np.full(n_columns, bunch.baseline_score)

    def _n_columns(self, done):
        return done.bunches[done.names[0]].importances.shape[1]  # the repeats

    def _total(self, done):
        return done.n_members
