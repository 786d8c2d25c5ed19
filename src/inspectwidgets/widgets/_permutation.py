"""The live permutation-importance widget."""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Literal

import traitlets
from numpy.typing import ArrayLike
from sklearn.metrics import check_scoring

from ..inspection._core import (
    Data,
    Estimator,
    FeatureGroups,
    check_fitted,
    check_X,
    quoted_names,
    resolve_features,
)
from ..inspection._permutation import (
    ScoringPlan,
    SubgroupImportanceResult,
    builtin_score_name,
    permutation_run,
    resamples_scorers,
)
from ._base import ComputationWidget
from ._figures import new_figure
from ._importance_method import (
    FITTING_PHASE,
    METHODS,
    deferred_stream,
    importance_run,
    store_settings,
)
from ._importance_split import ImportanceSplit, split_figure
from ._options import OWN_SCORE, STATIC, scorer_options
from ._permutation_payloads import chart_payload, subgroup_chart_payload
from ._review_header import BadModelCheck
from ._selection import FeatureSelection
from ._workload import Workload, is_large, rows_text, workload_text

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


class PermutationImportanceWidget(
    ImportanceSplit, Workload, FeatureSelection, ComputationWidget
):
    """Permutation importance that fills in live while it is computed.

    Pick features, repeats and scorers in the widget (or set the traits of the
    same names from Python) and the bar chart updates after every repeat
    round. The computation runs in a background thread, so other cells run
    meanwhile; a change of settings cancels the run in flight and starts a new
    one. Switching the displayed scorer or the kind of chart never recomputes.

    Parameters
    ----------
    estimator : fitted estimator
    X : ndarray or DataFrame of shape (n_samples, n_features)
        Data to permute, ideally held out from training.
    y : array-like of shape (n_samples,)
    scoring : str or list of str, default=None
        Scorer names; None uses the estimator's default metric (R² for
        regressors, accuracy for classifiers).
    n_repeats : int, default=5
    features : list or dict, default=None
        Columns (or ``{label: [columns]}`` groups) to compute; None for all.
    random_state : int, default=0
    method : {"marginal", "conditional"}, default="marginal"
        Permute each feature over every row (scikit-learn's permutation
        importance), or only within the subgroups of rows alike in the
        features that predict it
        (:func:`~inspectwidgets.conditional_permutation_importance`, its
        default subgroup trees, fitted on `X`); hovering a feature shows
        its subgroups' rules.
    n_jobs, sample_weight, max_samples
        As in :func:`~inspectwidgets.permutation_importance`.
    n_bootstrap : int or None, default=None
        Resamples of the rows for the held-out interval shown in the
        tooltips (see :func:`~inspectwidgets.permutation_importance`), where
        every scorer allows it (r2, (root) mean squared, absolute and
        percentage errors, accuracy, log loss); None for none.
    max_features : int, default=25
        Most important features drawn; the rest are counted, not sent.
    kind : {"bar", "box", "table"}, default="bar"
        Mean importance with ±std error bars, box plots of the repeats, or a
        table (the first two as in :meth:`PermutationImportanceDisplay.plot`).
    scorer : str, default=None
        The scorer drawn (one of `scoring`); the first of `scoring` when None.
    split_by : str, default=None
        A column of X of 2 to 10 values: the importance within each subgroup
        of its rows (missing values one; see `ImportanceSplit`), one bar
        per subgroup, those of fewer than 30 rows greyed.
    run : bool, default=True
        Start computing at once.

    Attributes
    ----------
    result : PermutationImportanceResult, SubgroupImportanceResult or None
        The latest (possibly partial) result of the current settings.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.linear_model import Ridge
    >>> from inspectwidgets import PermutationImportanceWidget, permutation_importance
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> model = Ridge(alpha=1e-2).fit(X, y)
    >>> w = PermutationImportanceWidget(model, X, y, n_repeats=5, random_state=0)
    >>> w  # doctest: +SKIP
    >>> w.wait()  # the computation runs in a background thread
    'done'
    >>> r = permutation_importance(model, X, y, n_repeats=5, random_state=0)
    >>> np.allclose(w.result.importances("r2"), r.importances, rtol=1e-12, atol=0)
    True
    >>> w.to_frame().shape  # feature, scorer, repeat, importance, scores
    (50, 6)
    """

    _esm = STATIC / "permutation_widget.js"
    _css = STATIC / "permutation_widget.css"

    features = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """Labels of the features (or groups) to compute."""

    n_repeats = traitlets.Int(5, min=1).tag(sync=True)
    """Permutations per feature."""

    scoring = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """Names of the scorers computed; all share the same predictions."""

    scorer = traitlets.Unicode("").tag(sync=True)
    """The scorer drawn (one of `scoring`)."""

    kind = traitlets.Enum(("bar", "box", "table"), default_value="bar").tag(sync=True)
    """Bars with ±std error bars, box plots of the repeats, or a table."""

    max_features = traitlets.Int(25, min=1).tag(sync=True)
    """How many of the most important features are drawn."""

    random_state = traitlets.Int(0, min=0, max=2**32 - 1).tag(sync=True)
    """Seed of the permutations (scikit-learn's scheme)."""

    method = traitlets.Enum(METHODS, default_value="marginal").tag(sync=True)
    """"marginal" (every row) or "conditional" (within the subgroups of
    rows alike in the features that predict the permuted one)."""

    _method_options = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The methods this view computes (the switch shows when several)."""
    _methods: tuple[str, ...] = METHODS

    _feature_options = traitlets.List(traitlets.Unicode()).tag(sync=True)
    _scorer_options = traitlets.List(traitlets.Unicode()).tag(sync=True)
    _repeats_done = traitlets.Int(0).tag(sync=True)
    _repeats_total = traitlets.Int(0).tag(sync=True)
    _chart = traitlets.Dict().tag(sync=True)

    _RERUN_ON = (
        "features",
        "n_repeats",
        "scoring",
        "random_state",
        "method",
        "split_by",
    )

    _shared = None
    """``(SharedPermutations, rows)`` when a ModelInspector shares this
    view's permutations with its other views (widgets/_shared.py)."""

    def __init__(
        self,
        estimator: Estimator,
        X: Data,
        y: ArrayLike,
        *,
        scoring: str | list[str] | None = None,
        n_repeats: int = 5,
        features: FeatureGroups = None,
        random_state: int = 0,
        method: Literal["marginal", "conditional"] = "marginal",
        n_jobs: int | None = None,
        sample_weight: ArrayLike | None = None,
        max_samples: int | float = 1.0,
        n_bootstrap: int | None = None,
        max_features: int = 25,
        kind: Literal["bar", "box", "table"] = "bar",
        scorer: str | None = None,
        split_by: str | None = None,
        run: bool = True,
    ) -> None:
        check_fitted(estimator)
        X = check_X(X)
        labels, columns = resolve_features(X, features)
        all_labels, all_columns = resolve_features(X, None)
        # Groups and single columns the user may pick, each with its columns.
        self._columns = dict(zip(all_labels, all_columns, strict=True))
        self._columns.update(zip(labels, columns, strict=True))
        scoring = self._scoring_names(estimator, scoring)
        self._estimator, self._X, self._y = estimator, X, y
        self._engine_kwargs = dict(
            n_jobs=n_jobs, sample_weight=sample_weight, max_samples=max_samples
        )
        self._n_bootstrap = n_bootstrap
        # The inspector's warning, said here too (None in an inspector's child).
        self._bad_model = BadModelCheck(estimator, X, y)
        split_options = self._init_split(X, all_labels)
        self._ready = False
        super().__init__(
            features=labels,
            n_repeats=n_repeats,
            scoring=scoring,
            scorer=scorer or scoring[0],
            kind=kind,
            max_features=max_features,
            random_state=random_state,
            _method_options=list(self._methods),
            method=method,
            _feature_options=list(self._columns),
            _scorer_options=list(dict.fromkeys(scoring + scorer_options(estimator, y))),
            _split_options=split_options,
            split_by=split_by,
        )
        # Fail early, in Python, for settings the engine would refuse.
        self._stream(cancel=None)
        self._ready = True
        if run:
            self.run()

    @staticmethod
    def _scoring_names(estimator, scoring):
        if scoring is None:
            return [builtin_score_name(estimator) or OWN_SCORE]
        if isinstance(scoring, str):
            return [scoring]
        if isinstance(scoring, (list, tuple)) and all(
            isinstance(s, str) for s in scoring
        ):
            return list(scoring)
        raise TypeError(
            "scoring must be a scorer name or a list of names for the widget; "
            f"got {type(scoring).__name__}. For custom scorers use "
            "inspectwidgets.permutation_importance."
        )

    # ComputationWidget hooks ------------------------------------------------

    def _check_features(self):
        unknown = [f for f in self.features if f not in self._columns]
        if unknown:
            raise ValueError(
                f"features: unknown {quoted_names(unknown)}; choose from "
                f"{quoted_names(list(self._columns))}."
            )

    def _stream(self, cancel):
        self._check_features()
        scoring = engine_scoring(self._estimator, self.scoring)
        params = dict(
            scoring=scoring,
            n_bootstrap=self._resamples(scoring),
            n_repeats=self.n_repeats,
            random_state=self.random_state,
            features={label: self._columns[label] for label in self.features},
            cancel=cancel,
            **self._engine_kwargs,
        )
        # Checked here, on the caller's thread, whatever the method: the
        # conditional run takes the same arguments but fits its subgroup
        # trees as it is made, so it is made on the worker thread. The
        # settings are read now: they may change before the worker starts.
        if self.split_by is not None:
            stream = self._split_stream(params)
            self._workload = self._describe()
            return stream  # a subgroup result: not shared with other views
        run = permutation_run(self._estimator, self._X, self._y, **params)
        self._workload = self._describe()  # once the engine checked max_samples
        settings = store_settings(
            self.method,
            self.n_repeats,
            self.random_state,
            self._engine_kwargs["max_samples"],
        )
        if self.method == "marginal":
            return self._streamed(run, settings)
        method = self.method
        return deferred_stream(
            lambda: self._streamed(self._fitted_run(method, params), settings)
        )

    def _fitted_run(self, method, params):
        """The `method` run, its subgroups fitted, the status line saying so
        unless the run was superseded meanwhile."""
        with self._lock:
            if not params["cancel"].is_set():
                self._phase = FITTING_PHASE
        try:
            return importance_run(method, self._estimator, self._X, self._y, **params)
        finally:
            with self._lock:
                if self._phase == FITTING_PHASE:
                    self._phase = ""

    def _streamed(self, run, settings):
        """What the worker consumes: `run`'s results, shared with the
        inspector's other views under `settings` where it shares them."""
        # The first bars before the first round is done: on a big model a
        # round takes seconds.
        run.stream_first_round = True
        if self._shared is None:
            return iter(run)
        store, rows = self._shared
        return store.stream(rows, run, settings)

    def _resamples(self, scoring):
        """`n_bootstrap` where this view's scorers allow it, else None."""
        if self._n_bootstrap is None:
            return None
        if resamples_scorers(ScoringPlan(self._estimator, scoring)):
            return self._n_bootstrap
        return None

    def _describe(self):
        """Every row unless the user passed `max_samples` (the sampling
        changes the estimate, so it is never chosen for them)."""
        if not is_large(self._X):
            return ""
        n_rows = self._X.shape[0]
        max_samples = self._engine_kwargs["max_samples"]
        if isinstance(max_samples, numbers.Integral):
            used = int(max_samples)
        else:
            used = int(max_samples * n_rows)  # as scikit-learn counts it
        return workload_text(
            rows_text(used, n_rows, "max_samples"),
            f"{len(self.features)} features",
            f"{self.n_repeats} repeats",
        )

    def _show(self, result):
        self._repeats_done = int(result.rounds_done)
        self._repeats_total = result.n_repeats
        self._chart = self._chart_of(result)
        return result

    # What the chart's "repeats" are and how wide its error bars are drawn
    # (in std), for the subclasses drawing resampled results
    # (widgets/_resampled.py).
    _chart_extras = {
        "unit": "repeats",
        "spread": 1.0,
        # The repeats reshuffle the same rows: their spread says nothing of
        # how the importance would move on another held-out sample.
        "spread_label": "std over the repeats' shuffles, not over held-out samples",
        "baseline_note": "",
    }

    def _chart_of(self, result):
        split = isinstance(result, SubgroupImportanceResult)
        payload = (subgroup_chart_payload if split else chart_payload)(
            result, self.max_features
        )
        check = None if split else self._bad_model
        warning = "" if check is None else check.warning(result.baseline_scores)
        return {**payload, **self._chart_extras, "warning": warning}

    def _progress_of(self, result):
        return result.rounds_done, result.n_repeats

    # Reactions to settings ----------------------------------------------------

    @traitlets.observe(*_RERUN_ON)
    def _on_settings(self, change):
        if not self._ready:
            return
        if (
            change["name"] == "scoring"
            and self.scoring
            and self.scorer not in self.scoring
        ):
            self.scorer = self.scoring[0]
        self.run()

    @traitlets.validate("method")
    def _check_method(self, proposal):
        if proposal.value not in self._methods:
            raise traitlets.TraitError(
                f"method: {type(self).__name__} computes "
                f"{' or '.join(map(repr, self._methods))} importance only; "
                f"got {proposal.value!r}."
            )
        return proposal.value

    @traitlets.observe("max_features")
    def _on_max_features(self, change):
        if self.result is not None:
            self._chart = self._chart_of(self.result)

    # Results in Python --------------------------------------------------------

    def _require_result(self):
        if self.result is None:
            raise RuntimeError(
                "No result yet: the computation has not finished a repeat round. "
                "Call wait() first."
            )
        return self.result

    def to_frame(self) -> pd.DataFrame:
        """Tidy DataFrame of the current result: feature, scorer, repeat,
        importance (plus baseline and permuted scores); split by a column,
        ``subgroup``, ``size``, ``n_permuted`` and ``small`` first."""
        return self._require_result().to_frame()

    def figure(self) -> Figure:
        """A matplotlib Figure of the chart as currently set (`scorer`,
        `kind`, `max_features`); the "table" kind draws bars, and so does
        a split, one bar per subgroup.

        The figure is not registered with pyplot, so returning it from a cell
        shows it once.
        """
        from ..plotting import PermutationImportanceDisplay
        from ..plotting._permutation import chart_size

        result = self._require_result()
        n_bars = min(self.max_features, len(result.feature_names))
        if isinstance(result, SubgroupImportanceResult):
            return split_figure(result, self.scorer, self.max_features)
        figure = new_figure(chart_size(n_bars))
        PermutationImportanceDisplay(result).plot(
            ax=figure.subplots(),
            kind="box" if self.kind == "box" else "bar",
            scorer=self.scorer,
            max_features=self.max_features,
        )
        return figure


def engine_scoring(estimator, names):
    """The widget's scorer names as the engine takes them: the estimator's
    own ``score`` for `OWN_SCORE`."""
    return {
        name: check_scoring(estimator) if name == OWN_SCORE else name for name in names
    } or []
