"""ModelInspector: one call, one model review, every view linked.

Design: one anywidget over the three existing widgets, not a copy of them.
The inspector holds a PermutationImportanceWidget, an
ImportanceComparisonWidget and a PartialDependenceWidget as *embedded*
children: real instances (their engine, their threads, their latest-wins rule,
their `to_frame` and `figure`) that open no comm of their own. Each child's
synced traits are mirrored into one inspector trait (``_importance``,
``_comparison``, ``_effects``: ``{"state": ..., "versions": ...}``), and the
inspector's front end renders each child's own ESM module with a small model
proxy over that trait (js/src/inspector/sub_model.js); a write from a child's
controls comes back as a message and is set on the child. So each chart, its
controls and its tooltips are the widget's own code; the inspector adds the
header, the tabs, the one status line and the linking, and the whole review
is one widget state, which is what `save_html` embeds. The children and
their mirroring are in widgets/_inspector_views.py.

The alternative, an ipywidgets container of the three widgets, would need a
widget manager to render a saved page and could not switch views or share
one status line without Python.

Laziness: a view computes when it is shown (Importance on any rows, or
Comparison tab; the Effects panel once a feature is selected) and its inputs
are new; switching back to a computed view starts nothing. The arguments are
checked once, here, up front (each view also checks its own settings when
made, as it does alone). Opening on held-out importance, that run starts
before the Effects and Comparison views are made: its first bars wait for
neither (benchmarks/results/inspector.md).

Sharing: the views that permute the same rows with the same settings share
one SharedPermutations (widgets/_shared.py): the header's held-out scores are
the Importance run's baseline (from its first walk of X on a tree model,
arriving with the first bars; scored apart only when no such run starts,
_inspector_views.py), computed once; the Comparison view's test
(train) measure is the Importance view's result on held-out (training) rows
when its rows are those rows, i.e. at most `max_rows` of them, and the other
way round. Above `max_rows` the Comparison view permutes a subsample: other
inputs, computed on their own (its stages still share that subsample's
baseline).
"""

from __future__ import annotations

import contextlib
import threading
from typing import TYPE_CHECKING, Literal

import traitlets
from numpy.typing import ArrayLike

from ..inspection import Cohort
from ..inspection._core import (
    Data,
    Estimator,
    Models,
    RandomState,
    column_names,
    quoted_names,
)
from ._embedding import PERMUTATION_VIEWS
from ._figures import NotebookPicture
from ._inspector_cohorts import InspectorCohorts
from ._inspector_models import check_other_models, split_models
from ._inspector_results import InspectorResults
from ._inspector_reviewed import check_reviewed, review
from ._inspector_views import IMPORTANCE_ON, InspectorViews, check_review_arguments
from ._options import STATIC
from ._shared import SharedPermutations
from ._workload import MAX_ROWS

if TYPE_CHECKING:
    from ._base import ComputationWidget


class ModelInspector(
    InspectorCohorts, InspectorResults, InspectorViews, NotebookPicture
):
    """A linked review of a fitted model: header, importance, comparison, effects.

    Parameters
    ----------
    estimator : fitted estimator or Pipeline, or dict or list of them
        Several models (``{name: model}``, or a list named by class as in
        :func:`~inspectwidgets.compare_permutation_importance`): the header
        scores each on the held-out rows, the held-out Importance view draws
        each (one run on the same permuted copies, the reviewed model's
        paired difference with each other model flagged where its interval
        excludes 0), and a panel under Effects draws each one's partial
        dependence of the selected feature; the other views review one, the
        first until `reviewed` (the header's model menu) names another.
    X : ndarray or DataFrame of shape (n_samples, n_features)
        Held-out data the review is about.
    y : array-like of shape (n_samples,)
    X_train, y_train : training data, default=None
        Fit the dummy baseline, feed the Comparison view and the Importance
        view on training rows (both unavailable without them).
    scoring : str or list of str, default=None
        Scorer names; the estimator's default metric when None. The
        Comparison view uses the first.
    n_repeats : int, default=5
        Permutations per feature in every permutation view: Importance (on
        any rows) and Comparison.
    random_state : int, RandomState instance or None, default=None
        One seed for every view (shown in the header); a RandomState or None
        draws it from that generator or from numpy's global one.
    max_rows : int, default=5000
        Above this many rows, Effects and Comparison use a seeded random
        subsample of this many rows (train and test alike); Importance always
        uses every row.
    selected_features : list of str, default=None
        The selection (one feature, or two for a 2-way surface).
    view : {"importance", "comparison"}, default="importance"
    importance_on : {"test", "train", "cv", "oob"}, default="test"
        What the Importance view shows: permutation importance on the
        held-out `X`; on the training data (where the model may rely on
        features that do not generalize); cross-validated on the training
        data, a clone fitted per fold (5 folds; bars ±1.96 std across
        folds); or out-of-bag, for a bagged ensemble fitted with bootstrap
        on the training data. "train", "cv" and "oob" need `X_train` and
        `y_train`; "oob" a RandomForest*, ExtraTrees* or Bagging* with
        ``bootstrap=True`` (not a pipeline). Each computes the first time it
        is shown.
    method : {"marginal", "conditional"}, default="marginal"
        The Importance view's permutation on test and training rows (see
        :class:`PermutationImportanceWidget`; its switch changes it); the
        cross-validated and out-of-bag views are marginal, and so is the
        held-out view of several models ("conditional" is refused then).
    n_jobs : int, default=None
    cohorts : dict of str to str, or list of Cohort, default=None
        Named rules on X's columns, ``{"young pro": "age < 30 and plan ==
        'pro'"}`` (the language of :class:`~inspectwidgets.Cohort`), also
        built in the header: each cohort's rows and held-out scores in the
        header, its importance under the held-out Importance view, its
        partial dependence under Effects (from the ICE curves). A row
        meeting several rules counts in the first; the others are "rest".
    run : bool, default=True
        Compute the shown views at once.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.ensemble import HistGradientBoostingRegressor
    >>> from sklearn.model_selection import train_test_split
    >>> from inspectwidgets import ModelInspector
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> model = HistGradientBoostingRegressor(max_iter=50, random_state=0)
    >>> model = model.fit(X_train, y_train)
    >>> inspector = ModelInspector(
    ...     model, X_test, y_test, X_train=X_train, y_train=y_train, random_state=0
    ... )
    >>> inspector.wait()["importance"]  # the views compute in background threads
    'done'
    >>> importance = inspector.to_frame("importance")
    >>> importance.groupby("feature").importance.mean().idxmax()
    'bmi'
    >>> inspector.selected_features = ["bmi"]  # as a click on its bar does
    >>> inspector.wait()["effects"], list(inspector.to_frame("effects"))
    ('done', ['bmi', 'output', 'curve', 'row', 'value', 'done'])
    """

    _esm = STATIC / "inspector_widget.js"
    _css = STATIC / "inspector_widget.css"

    view = traitlets.Enum(("importance", "comparison"), default_value="importance").tag(
        sync=True
    )
    """The tab shown above the Effects panel."""

    selected_features = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The selected feature(s), shown in every view and drawn by Effects."""

    importance_on = traitlets.Enum(tuple(IMPORTANCE_ON), default_value="test").tag(
        sync=True
    )
    """What the Importance view shows: held-out, training, cross-validated
    or out-of-bag permutation importance."""

    n_repeats = traitlets.Int(5, min=1).tag(sync=True)
    """Permutations per feature in every permutation view; a view's own
    repeats control sets this."""

    max_rows = traitlets.Int(MAX_ROWS, min=1).tag(sync=True)
    """Rows Effects and Comparison use at most (a seeded subsample)."""

    reviewed = traitlets.Unicode("").tag(sync=True)
    """Of several models, the name of the one the single-model views review
    (the first by default): Importance on training rows, cross-validated
    and out-of-bag, Comparison, Effects, the header's scores and warning;
    the held-out Importance view draws its paired difference with each
    other model. "" for one model."""

    _header = traitlets.Dict().tag(sync=True)
    _importance = traitlets.Dict().tag(sync=True)
    _importance_train = traitlets.Dict().tag(sync=True)
    _importance_cv = traitlets.Dict().tag(sync=True)
    _importance_oob = traitlets.Dict().tag(sync=True)
    _importance_options = traitlets.Dict().tag(sync=True)
    """Each `importance_on` option: "" when available, else why not."""
    _comparison = traitlets.Dict().tag(sync=True)
    _effects = traitlets.Dict().tag(sync=True)
    _effects_models = traitlets.Dict().tag(sync=True)
    """Several models: each one's partial dependence of the selected feature."""

    def __init__(
        self,
        estimator: Estimator | Models,
        X: Data,
        y: ArrayLike,
        *,
        X_train: Data | None = None,
        y_train: ArrayLike | None = None,
        scoring: str | list[str] | None = None,
        n_repeats: int = 5,
        random_state: RandomState = None,
        max_rows: int = MAX_ROWS,
        selected_features: list[str] | None = None,
        view: Literal["importance", "comparison"] = "importance",
        importance_on: Literal["test", "train", "cv", "oob"] = "test",
        method: Literal["marginal", "conditional"] = "marginal",
        n_jobs: int | None = None,
        cohorts: dict[str, str] | list[Cohort] | None = None,
        run: bool = True,
    ) -> None:
        # Several models: the views review one (`reviewed`), the header
        # scores all.
        estimator, self._reviewed_name, self._other_models = split_models(estimator)
        self._models = (
            {self._reviewed_name: estimator, **self._other_models}
            if self._other_models
            else {}
        )
        self._model_scores: dict[str, dict[str, float]] = {}
        X, y, X_train, y_train, random_state = check_review_arguments(
            estimator, X, y, X_train, y_train, n_repeats, random_state
        )
        check_other_models(self._other_models, X, y)
        self._estimator, self._X, self._y = estimator, X, y
        self._train = (X_train, y_train)
        self._random_state, self._n_jobs = int(random_state), n_jobs
        self._names = column_names(X)
        self._lock = threading.RLock()
        self._version = 0
        self._children: dict[str, ComputationWidget] = {}
        self._dirty: set[str] = set()
        self._ready = False
        self._started = False  # run() was called: shown views compute
        self._overview_opened = False  # the Effects overview shown once
        self._shared = SharedPermutations()
        # Each model's own (see _inspector_reviewed.py).
        self._stores = {self._reviewed_name: self._shared}
        super().__init__(
            view=view,
            max_rows=max_rows,
            n_repeats=n_repeats,
            reviewed=self._reviewed_name or "",
        )
        importance = self._held_out_importance(scoring, method)
        self._scoring, self._method = list(importance.scoring), method
        self._importance_options = self._training_views()
        self.importance_on = importance_on
        late = run and self._tab() == "importance" and selected_features is None
        if not late:  # else after the held-out run starts (its first bars)
            self._build_subsampled()
        self._open_header(run)
        self.on_msg(self._on_message)
        if selected_features is not None:
            self.selected_features = list(selected_features)
        self._init_cohorts(cohorts)
        self._ready = True
        importance.observe(self._on_importance_status, names=["status"])
        if run:
            self.run()
        if late:
            self._build_subsampled_late()

    # Laziness -------------------------------------------------------------------

    def _tab(self):
        """The view shown in the tab: Importance (on the rows of
        `importance_on`) or Comparison."""
        if self.view == "importance":
            return IMPORTANCE_ON[self.importance_on]
        return self.view

    def _shown(self):
        shown = {self._tab()}
        if self.selected_features:
            shown.add("effects")
            shown.add("effects_models")
        return shown & set(self._children)

    def _refresh(self):
        """Run every shown view whose inputs changed since its last run."""
        if not self._started:
            return
        for key in sorted(self._shown() & self._dirty):
            self._dirty.discard(key)
            self._children[key].run()

    @contextlib.contextmanager
    def _quietly(self, key):
        """Change a child's settings without it rerunning (its `_ready`
        guard); it is marked to run when next shown."""
        child = self._children[key]
        ready, child._ready = child._ready, False
        try:
            yield child
        finally:
            child._ready = ready
        self._dirty.add(key)

    @traitlets.validate("selected_features")
    def _check_selection(self, proposal):
        features = list(dict.fromkeys(str(f) for f in proposal.value))
        unknown = [f for f in features if f not in self._names]
        if unknown:
            raise traitlets.TraitError(
                f"selected_features: {quoted_names(unknown)} not among X's "
                f"columns; choose from {quoted_names(self._names)}."
            )
        if len(features) > 2:
            raise traitlets.TraitError(
                "selected_features: select one feature (a curve) or two (a "
                f"surface); got {features}."
            )
        return features

    @traitlets.observe("selected_features")
    def _on_selection(self, change):
        effects = self._children.get("effects")
        if effects is None or not self.selected_features:
            return
        if list(effects.features) != self.selected_features:
            with self._quietly("effects") as child:
                child.features = self.selected_features
        self._follow_effects()
        if self._ready:
            self._refresh()

    def _on_effects_features(self, change):
        # The Effects view's own feature selects are the selection too.
        if list(change.new) != self.selected_features:
            self.selected_features = list(change.new)

    @traitlets.validate("reviewed")
    def _check_reviewed(self, proposal):
        return check_reviewed(self._models, proposal.value)

    @traitlets.observe("reviewed")
    def _on_reviewed(self, change):
        if self._ready:
            review(self, change.new)

    @traitlets.validate("importance_on")
    def _check_importance_on(self, proposal):
        reason = self._importance_options.get(proposal.value, "")
        if reason:
            raise traitlets.TraitError(
                f"importance_on: {proposal.value!r} is unavailable for this model "
                f"and data: {reason}"
            )
        return proposal.value

    @traitlets.observe("n_repeats")
    def _on_n_repeats(self, change):
        for key in PERMUTATION_VIEWS:
            child = self._children.get(key)
            if child is not None and child.n_repeats != change.new:
                with self._quietly(key):
                    child.n_repeats = change.new
        if self._ready:
            self._refresh()

    @traitlets.observe("view", "importance_on")
    def _on_view(self, change):
        if self._ready:
            self._refresh()

    @traitlets.observe("max_rows")
    def _on_max_rows(self, change):
        n = self._X.shape[0]
        if not self._ready or min(change.old, n) == min(change.new, n):
            return  # the same rows: nothing to recompute
        self._build_subsampled()
        self._header_rows(min(self.max_rows, self._X.shape[0]))
        self._refresh()

    # Public API -------------------------------------------------------------------

    @property
    def views(self) -> dict[str, ComputationWidget]:
        """The widgets behind the views: ``{"importance": ...,
        "importance_train": ..., "importance_cv": ..., "importance_oob": ...,
        "comparison": ..., "effects": ..., "effects_models": ...}`` (those
        on training data only with it, "importance_oob" only for a bagged
        ensemble, "effects_models" only for several models)."""
        return dict(self._children)

    def run(self) -> None:
        """Compute the shown views whose inputs changed since their last run
        (what the inspector does by itself unless made with ``run=False``);
        from then on views compute when shown."""
        self._started = True
        self._refresh()

    def close(self) -> None:
        # Empty when the constructor refused its arguments.
        for child in getattr(self, "_children", {}).values():
            child.close()
        super().close()
