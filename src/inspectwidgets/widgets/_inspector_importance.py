"""ModelInspector's Importance view of several models (held-out rows): one
:func:`~inspectwidgets.iter_compare_permutation_importance` run, every model
scored on the same permuted copies, drawn per feature as one mark per model
with its spread over the repeats, and the reviewed model's paired
difference with each other model, with its interval (the design is in
widgets/_inspector.py).

The flag the front end shows on a feature is the engine's
``PairedDifference.differs``: only where the t-interval over repeats
excludes 0, never without the interval (none with fewer than 2 repeats).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import traitlets

from ..inspection._permutation import builtin_score_name, models_run
from ._base import ComputationWidget
from ._figures import new_figure
from ._inspector_reviewed import check_reviewed
from ._options import OWN_SCORE
from ._permutation import engine_scoring
from ._serialization import binary_array

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


def models_chart(result, scorer, max_features, reviewed=None):
    """What the front end draws: the `max_features` features some model
    relies on most (ordered by the largest mean importance among the
    models), each model's mean and std over the repeats, and the reviewed
    model's (the first by default) paired difference with each other."""
    names = result.model_names
    importances = [np.asarray(result.importances(m, scorer), float) for m in names]
    done = result.n_repeats_done
    n_features = len(result.feature_names)
    if done:
        means = np.array([values.mean(axis=1) for values in importances])
        stds = np.array([values.std(axis=1) for values in importances])
    else:
        means = stds = np.zeros((len(names), n_features))
    order = np.argsort(-means.max(axis=0), kind="stable")[:max_features]
    reviewed = names[0] if reviewed is None else reviewed
    return {
        "scorer": scorer,
        "scorers": list(result.scorer_names),
        "models": list(names),
        "reviewed": reviewed,
        "features": [result.feature_names[i] for i in order],
        "n_hidden": int(n_features - len(order)),
        # A first round in progress: the features some model has yet to do.
        "n_pending": len(result.pending_features),
        "mean": binary_array(means[:, order]),
        "std": binary_array(stds[:, order]),
        "repeats_done": int(done),
        "n_repeats": int(result.n_repeats),
        "differences": [
            _difference(result.paired_difference(reviewed, other, scorer), order)
            for other in names
            if other != reviewed
        ],
    }


def _difference(paired, order):
    """One paired difference as drawn, its features in `order`."""
    interval = paired.interval[order]
    first, second = paired.models
    return {
        "first": first,
        "second": second,
        "confidence_level": paired.confidence_level,
        "mean": binary_array(paired.mean[order]),
        "low": binary_array(interval[:, 0]),
        "high": binary_array(interval[:, 1]),
        # The engine's flag: only where the interval excludes 0.
        "differs": [bool(flag) for flag in paired.differs[order]],
    }


class ModelsImportance(ComputationWidget):
    """Several models' permutation importances on the held-out rows, streamed
    round by round; shown only inside :class:`ModelInspector` (no comm of
    its own)."""

    n_repeats = traitlets.Int(5, min=1).tag(sync=True)
    """Permutations per feature (the inspector's)."""

    scoring = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """Scorer names, every model scored with each."""

    scorer = traitlets.Unicode().tag(sync=True)
    """The scorer drawn (one of `scoring`)."""

    max_features = traitlets.Int(20, min=1).tag(sync=True)
    """Features drawn at most."""

    reviewed = traitlets.Unicode().tag(sync=True)
    """The reviewed model (the inspector's `reviewed`): its paired
    difference with each other model is drawn."""

    _models_chart = traitlets.Dict().tag(sync=True)
    """The chart as drawn (:func:`models_chart`)."""

    def __init__(
        self,
        models: dict,
        X,
        y,
        *,
        scoring: str | list[str] | None = None,
        n_repeats: int = 5,
        random_state: int = 0,
        n_jobs: int | None = None,
        run: bool = True,
    ) -> None:
        self._models = dict(models)
        # The reviewed model: the tree walk compiled before its first chunk.
        self._estimator = next(iter(self._models.values()))
        self._X, self._y = X, y
        self._random_state, self._n_jobs = random_state, n_jobs
        if scoring is None:
            names = [builtin_score_name(self._estimator) or OWN_SCORE]
        else:
            names = [scoring] if isinstance(scoring, str) else list(scoring)
        # Told each model's held-out scores as results come (the
        # inspector's header: no prediction of its own).
        self.on_baselines = None
        self._ready = False
        super().__init__(
            n_repeats=n_repeats,
            scoring=names,
            scorer=names[0],
            reviewed=next(iter(self._models)),
        )
        self._ready = True
        if run:
            self.run()

    @property
    def reviewed_result(self):
        """The reviewed model's PermutationImportanceResult (None before one)."""
        if self.result is None:
            return None
        return self.result.results[self.reviewed]

    @traitlets.validate("reviewed")
    def _check_reviewed(self, proposal):
        return check_reviewed(self._models, proposal.value)

    def _stream(self, cancel):
        scoring = engine_scoring(self._estimator, self.scoring)
        if OWN_SCORE in self.scoring:
            # Each model's own `score`, as the engine takes scoring=None.
            scoring = None if len(self.scoring) == 1 else scoring
        run = models_run(
            self._models,
            self._X,
            self._y,
            scoring=scoring,
            n_repeats=self.n_repeats,
            random_state=self._random_state,
            n_jobs=self._n_jobs,
            cancel=cancel,
        )
        # The first marks after one small chunk of each model: a round of a
        # big forest takes seconds.
        run.stream_first_round = True
        return iter(run)

    def _show(self, result):
        self._models_chart = self._chart(result)
        if self.on_baselines is not None:
            self.on_baselines(
                {name: r.baseline_scores for name, r in result.results.items()}
            )
        return result

    def _chart(self, result):
        return models_chart(
            result, self._drawn(result), self.max_features, self.reviewed
        )

    def _drawn(self, result):
        names = result.scorer_names
        return self.scorer if self.scorer in names else names[0]

    def _progress_of(self, result):
        return result.rounds_done, result.n_repeats

    @traitlets.observe("n_repeats", "scoring")
    def _on_settings(self, change):
        if self._ready:
            self.run()

    @traitlets.observe("scorer", "max_features", "reviewed")
    def _on_drawn(self, change):
        if self.result is not None:
            self._models_chart = self._chart(self.result)

    def to_frame(self) -> pd.DataFrame:
        """Tidy DataFrame: model, feature, scorer, repeat, importance (plus
        baseline and permuted scores)."""
        if self.result is None:
            raise RuntimeError("No result yet; call wait() first.")
        return self.result.to_frame()

    def figure(self) -> Figure:
        """A matplotlib Figure of the models' importances and, on the same
        rows, the reviewed model's paired difference with each other model
        (every pair the chart flags), each with its interval."""
        from ..plotting import PermutationComparisonDisplay
        from ..plotting._model_comparison import comparison_height

        if self.result is None:
            raise RuntimeError("No result yet; call wait() first.")
        pairs = [
            (self.reviewed, name) for name in self._models if name != self.reviewed
        ]
        shown = min(self.max_features, len(self.result.feature_names))
        figure = new_figure((10.0, max(5.0, comparison_height(shown, len(pairs)))))
        ax, difference_ax = figure.subplots(1, 2, sharey=True, width_ratios=[3, 2])
        PermutationComparisonDisplay(self.result).plot(
            scorer=self._drawn(self.result),
            max_features=self.max_features,
            ax=ax,
            difference=pairs or False,
            difference_ax=difference_ax,
        )
        return figure
