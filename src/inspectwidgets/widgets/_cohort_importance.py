"""ModelInspector's held-out importance per cohort: one
:func:`~inspectwidgets.iter_subgroup_permutation_importance` run over the
cohorts' labels (each cohort's rows permuted and scored among themselves, as
scikit-learn's `permutation_importance` on those rows; the rows in no cohort
as "rest"), drawn per feature as one mark per cohort with its spread over the
repeats (js/src/inspector/cohort_importance.js). Each cohort's baseline
score, the run's own, is the header's score of the cohort: no other
prediction.

A cohort of fewer than ``min_size`` rows (the engine's
``MIN_SUBGROUP_SIZE``) is drawn greyed with a note, never dropped.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import numpy as np
import traitlets

from ..inspection import iter_subgroup_permutation_importance
from ._base import ComputationWidget
from ._figures import new_figure
from ._permutation import engine_scoring
from ._serialization import binary_array

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


def cohort_chart(result, scorer, max_features, order=()):
    """What the front end draws: the `max_features` features some cohort
    relies on most (by the largest mean importance among the cohorts),
    each cohort's mean and std over the repeats, its size and whether it is
    small, and each cohort's held-out (baseline) score of every scorer; the
    cohorts in `order` (their names, as listed), not the rows'."""
    result = _in_order(result, order)
    done = result.n_repeats_done
    n_features = len(result.feature_names)
    if done:
        means = result.importances_mean(scorer)
        stds = result.importances_std(scorer)
    else:
        means = stds = np.zeros((len(result.labels), n_features))
    order = np.argsort(-np.nanmax(means, axis=0), kind="stable")[:max_features]
    return {
        "scorer": scorer,
        "scorers": list(result.scorer_names),
        "cohorts": [str(label) for label in result.labels],
        "sizes": [int(size) for size in result.sizes],
        "small": [bool(small) for small in result.small],
        "min_size": int(result.min_size),
        "features": [result.feature_names[i] for i in order],
        "n_hidden": int(n_features - len(order)),
        "mean": binary_array(means[:, order]),
        "std": binary_array(stds[:, order]),
        "repeats_done": int(done),
        "n_repeats": int(result.n_repeats),
        "scores": [
            {name: float(r.baseline_scores[name]) for name in result.scorer_names}
            for r in result.results
        ],
    }


def _in_order(result, order):
    """`result` with its subgroups in `order` (those present; any other
    after them)."""
    rank = {name: i for i, name in enumerate(order)}
    positions = sorted(
        range(len(result.labels)), key=lambda i: rank.get(result.labels[i], len(rank))
    )
    return dataclasses.replace(
        result,
        labels=tuple(result.labels[i] for i in positions),
        sizes=result.sizes[positions],
        n_permuted=result.n_permuted[positions],
        small=result.small[positions],
        results=tuple(result.results[i] for i in positions),
    )


class CohortImportance(ComputationWidget):
    """Permutation importance within each cohort of the held-out rows,
    streamed round by round; shown only inside :class:`ModelInspector` (no
    comm of its own)."""

    n_repeats = traitlets.Int(5, min=1).tag(sync=True)
    """Permutations per feature (the inspector's)."""

    scorer = traitlets.Unicode().tag(sync=True)
    """The scorer drawn (one of the inspector's)."""

    max_features = traitlets.Int(20, min=1).tag(sync=True)
    """Features drawn at most."""

    _cohort_chart = traitlets.Dict().tag(sync=True)
    """The chart as drawn (:func:`cohort_chart`)."""

    def __init__(
        self,
        estimator,
        X,
        y,
        *,
        labels,
        order: tuple[str, ...] = (),
        scoring: list[str],
        n_repeats: int = 5,
        random_state: int = 0,
        n_jobs: int | None = None,
        run: bool = True,
    ) -> None:
        self._estimator, self._X, self._y = estimator, X, y
        self._labels = np.asarray(labels, dtype=object)
        self._order = tuple(order)
        self._scoring = list(scoring)
        self._random_state, self._n_jobs = random_state, n_jobs
        self._ready = False
        super().__init__(n_repeats=n_repeats, scorer=self._scoring[0])
        self._ready = True
        if run:
            self.run()

    def set_labels(self, labels, order):
        """Other cohorts: a label per row, the cohorts' `order`; the run in
        flight is cancelled (its bars were of the old cohorts), the next
        run is the caller's."""
        self.cancel()
        self._labels = np.asarray(labels, dtype=object)
        self._order = tuple(order)

    def _stream(self, cancel):
        return iter_subgroup_permutation_importance(
            self._estimator,
            self._X,
            self._y,
            subgroups=self._labels,
            scoring=engine_scoring(self._estimator, self._scoring),
            n_repeats=self.n_repeats,
            random_state=self._random_state,
            n_jobs=self._n_jobs,
            cancel=cancel,
        )

    def _show(self, result):
        self._cohort_chart = cohort_chart(
            result, self._drawn(result), self.max_features, self._order
        )
        return result

    def _drawn(self, result):
        names = result.scorer_names
        return self.scorer if self.scorer in names else names[0]

    def _progress_of(self, result):
        return result.n_repeats_done, result.n_repeats

    @traitlets.observe("scorer", "max_features")
    def _on_drawn(self, change):
        if self.result is not None:
            self._cohort_chart = cohort_chart(
                self.result, self._drawn(self.result), self.max_features, self._order
            )

    def to_frame(self) -> pd.DataFrame:
        """Tidy DataFrame: cohort, size, n_permuted, small, then feature,
        scorer, repeat, importance (and baseline and permuted scores)."""
        if self.result is None:
            raise RuntimeError("No result yet; call wait() first.")
        frame = _in_order(self.result, self._order).to_frame()
        return frame.rename(columns={"subgroup": "cohort"})

    def figure(self) -> Figure:
        """A matplotlib Figure of each cohort's importances: grouped bars,
        sizes in the legend, small cohorts greyed (the Display's)."""
        from ..plotting import PermutationImportanceDisplay

        if self.result is None:
            raise RuntimeError("No result yet; call wait() first.")
        figure = new_figure((6.4, 4.8))
        PermutationImportanceDisplay(_in_order(self.result, self._order)).plot(
            ax=figure.subplots(),
            scorer=self._drawn(self.result),
            max_features=self.max_features,
        )
        return figure
