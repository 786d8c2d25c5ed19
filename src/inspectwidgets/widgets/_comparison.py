"""The importance comparison widget: measures side by side, classes, clusters."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import traitlets
from numpy.typing import ArrayLike
from sklearn.utils import Bunch

from ..inspection import DEFAULT_CORRELATION_THRESHOLD
from ..inspection._comparison import (
    CONDITIONAL,
    SORT_COLUMNS,
    check_correlation_threshold,
    groups_at,
    numeric_clusters,
    plan_comparison,
)
from ..inspection._core import Data, Estimator
from ..inspection._permutation import builtin_score_name, permutation_run
from ._base import ComputationWidget
from ._comparison_payloads import (
    correlation_payload,
    groups_payload,
    measures_payload,
    per_class_payload,
)
from ._figures import new_figure
from ._importance_method import deferred_stream, importance_run, store_settings
from ._options import OWN_SCORE, STATIC, scorer_options
from ._selection import FeatureSelection
from ._workload import (
    RowSubsample,
    is_large,
    resolve_max_rows,
    rows_text,
    seeded_rows,
    take_rows,
    workload_text,
)

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class _Step:
    """One snapshot of the comparison stream: which stage it belongs to and the
    engine's partial result for it."""

    stage: str  # "test", "train", "conditional" or "groups"
    result: object


class ImportanceComparisonWidget(RowSubsample, FeatureSelection, ComputationWidget):
    """MDI, ESL relative importance and permutation importance side by side.

    Measures view: every measure on one normalized scale with the flags of
    :func:`~inspectwidgets.compare_importances` explained; permutation values
    whose interval (mean ± 2 std) includes 0 are drawn hollow, "within noise",
    and the tooltip gives each measure in its own units. Per-class view: ESL
    relative importance of each class of a K-class gradient boosting model.
    Correlation view: features grouped when every pair's ``|Spearman ρ|``
    reaches `correlation_threshold`; moving it regroups them and reruns
    grouped permutation importance on the test data, live. Permutation
    importance on the test data streams first, then on the training data,
    then (with `conditional`) conditional permutation importance on the
    test data.

    Parameters
    ----------
    estimator : fitted estimator (a tree model, or a pipeline ending in one,
        for the impurity measures)
    X_train, y_train, X_test, y_test : training and held-out data
    scoring : str, default=None
        One scorer name; the estimator's default metric when None.
    n_repeats : int, default=30
        As in :func:`~inspectwidgets.compare_importances`, whose default it
        shares (enough repeats for the intervals behind the flags).
    correlation_threshold : float in [0, 1], default=0.8
        The ``|Spearman ρ|`` every pair of a group reaches
        (:func:`~inspectwidgets.cluster_features`; the default is
        ``DEFAULT_CORRELATION_THRESHOLD``).
    random_state : int, default=0
    conditional : bool, default=False
        Also compute conditional permutation importance on the test data
        (:func:`~inspectwidgets.conditional_permutation_importance`, its
        default subgroups), a measure beside the marginal one with the same
        repeats and seed: the two differ only by the subgroups, and a
        feature nothing else predicts gets exactly its marginal numbers. On
        demand: it is another permutation run of the test rows, plus the
        subgroup trees.
    n_jobs : int, default=None
    view : {"measures", "classes", "correlation"}, default="measures"
    sort_by : {"permutation_test", "permutation_train", "mdi", \
            "relative_importance", "permutation_conditional"}, \
            default="permutation_test"
        The measure ordering the features, largest first; changing it
        re-sorts without recomputing.
    max_rows : int, default=None
        Rows of the training and of the test data computed at most: above
        it, a seeded subsample of each (`random_state`), as ModelInspector
        draws it. None: every row, or 10,000 where either has more than
        1,000,000 cells (rows x columns; ``docs/large_data.md``). The status
        line says which, with a field to change it. The correlation
        clusters are of the whole training data.
    run : bool, default=True
        Start computing at once.

    Attributes
    ----------
    result : Bunch
        ``frame`` (the comparison table so far), ``groups`` (the clusters) and
        ``grouped`` (grouped permutation importance, possibly partial).
    """

    _esm = STATIC / "comparison_widget.js"
    _css = STATIC / "comparison_widget.css"

    scoring = traitlets.Unicode().tag(sync=True)
    """The scorer of the permutation measures."""

    n_repeats = traitlets.Int(30, min=1).tag(sync=True)
    """Permutations per feature (and per group)."""

    correlation_threshold = traitlets.Float(
        DEFAULT_CORRELATION_THRESHOLD, min=0.0, max=1.0
    ).tag(sync=True)
    """The ``|Spearman ρ|`` every pair of features in a group reaches."""

    random_state = traitlets.Int(0, min=0, max=2**32 - 1).tag(sync=True)
    """Seed of the permutations."""

    view = traitlets.Enum(
        ("measures", "classes", "correlation"), default_value="measures"
    ).tag(sync=True)
    """Which chart is shown."""

    conditional = traitlets.Bool(False).tag(sync=True)
    """Whether the conditional permutation measure (test rows) is computed."""

    sort_by = traitlets.Enum(
        (*SORT_COLUMNS, CONDITIONAL), default_value="permutation_test"
    ).tag(sync=True)
    """The measure ordering the features of the measures view, largest first."""

    _shared = None
    """``(SharedPermutations, {"train": rows, "test": rows})`` when a
    ModelInspector shares this view's permutations with its other views
    (widgets/_shared.py); the groups are permuted on the test rows."""

    _scorer_options = traitlets.List(traitlets.Unicode()).tag(sync=True)
    _measures = traitlets.Dict().tag(sync=True)
    _per_class = traitlets.Dict().tag(sync=True)
    _correlation = traitlets.Dict().tag(sync=True)
    _groups = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        estimator: Estimator,
        X_train: Data,
        y_train: ArrayLike,
        X_test: Data,
        y_test: ArrayLike,
        *,
        scoring: str | None = None,
        n_repeats: int = 30,
        correlation_threshold: float = DEFAULT_CORRELATION_THRESHOLD,
        random_state: int = 0,
        conditional: bool = False,
        n_jobs: int | None = None,
        view: Literal["measures", "classes", "correlation"] = "measures",
        sort_by: Literal[
            "permutation_test",
            "permutation_train",
            "mdi",
            "relative_importance",
            "permutation_conditional",
        ] = "permutation_test",
        max_rows: int | None = None,
        run: bool = True,
    ) -> None:
        plan = plan_comparison(
            estimator,
            X_train,
            X_test,
            scoring=scoring,
            # The engine's measures; the conditional one is the widget's.
            sort_by="permutation_test" if sort_by == CONDITIONAL else sort_by,
        )
        X_train, X_test = plan.X_train, plan.X_test
        if scoring is not None and not isinstance(scoring, str):
            raise TypeError(
                "scoring must be a scorer name for the widget; "
                f"got {type(scoring).__name__}."
            )
        scoring = scoring or builtin_score_name(estimator) or OWN_SCORE
        self._estimator = estimator
        self._full_data = {"train": (X_train, y_train), "test": (X_test, y_test)}
        self._data, self._rows_key = None, None
        self._n_jobs = n_jobs
        self._plan = plan  # the impurity columns, and the table of results
        self._ready = False
        self._cache = None  # settings and results of the last full comparison
        self._conditional = None  # the conditional measure's latest result
        self._clusters = numeric_clusters(X_train)
        super().__init__(
            scoring=scoring,
            n_repeats=n_repeats,
            correlation_threshold=check_correlation_threshold(correlation_threshold),
            random_state=random_state,
            conditional=conditional,
            view=view,
            sort_by=sort_by,
            _scorer_options=list(
                dict.fromkeys([scoring, *scorer_options(estimator, y_test)])
            ),
            _per_class=per_class_payload(estimator, X_train.shape[1]),
            _correlation=correlation_payload(self._clusters),
            max_rows=resolve_max_rows(max_rows, X_train, X_test),
            _n_rows=max(X_train.shape[0], X_test.shape[0]),
        )
        self._stream(cancel=None)  # invalid settings fail here, in Python
        self._ready = True
        if run:
            self.run()

    # ComputationWidget hooks --------------------------------------------------

    def _settings(self):
        return (self.scoring, self.n_repeats, self.random_state, self.max_rows)

    def _use_rows(self):
        """The seeded subsamples of at most `max_rows` rows, drawn again
        only when `max_rows` or `random_state` changed."""
        key = (self.max_rows, self.random_state)
        if key == self._rows_key:
            return
        data = {}
        for stage, (X, y) in self._full_data.items():
            rows = seeded_rows(X.shape[0], self.max_rows, self.random_state)
            data[stage] = take_rows(rows, X, y)
        self._data, self._rows_key = data, key

    def _describe(self):
        full = {stage: X for stage, (X, _) in self._full_data.items()}
        used = {stage: X.shape[0] for stage, (X, _) in self._data.items()}
        if not any(is_large(X) or used[s] < X.shape[0] for s, X in full.items()):
            return ""
        return workload_text(
            ", ".join(
                f"{stage} {rows_text(used[stage], full[stage].shape[0])}"
                for stage in ("test", "train")
            ),
            f"{full['test'].shape[1]} features",
            f"{self.n_repeats} repeats",
        )

    def _engine(self, stage, cancel, features=None):
        data = "train" if stage == "train" else "test"
        X, y = self._data[data]
        method = "conditional" if stage == "conditional" else "marginal"
        params = dict(
            scoring=None if self.scoring == OWN_SCORE else self.scoring,
            n_repeats=self.n_repeats,
            random_state=self.random_state,
            n_jobs=self._n_jobs,
            features=features,
            cancel=cancel,
        )
        settings = store_settings(method, self.n_repeats, self.random_state, 1.0)

        def stream(run):
            if self._shared is None:
                return iter(run)
            store, rows = self._shared
            return store.stream(rows[data], run, settings)

        if method == "marginal":
            return stream(permutation_run(self._estimator, X, y, **params))
        # The subgroup trees are fitted as the run is made: on the worker
        # thread. Its arguments are the test stage's, checked with it.
        return deferred_stream(
            lambda: stream(importance_run(method, self._estimator, X, y, **params))
        )

    def _stream(self, cancel):
        self._use_rows()
        self._workload = self._describe()
        # Every engine stream is created (and so validated) before any work.
        stages = []
        fresh = self._cache is None or self._cache.settings != self._settings()
        if fresh:
            stages += [
                ("test", self._engine("test", cancel)),
                ("train", self._engine("train", cancel)),
            ]
        if self.conditional and (fresh or self._cache.conditional is None):
            stages.append(("conditional", self._engine("conditional", cancel)))
        groups = self._current_groups()
        stages.append(("groups", self._engine("groups", cancel, features=groups)))
        self._stages_total = len(stages)
        self._stage_index = 0
        return self._chain(stages)

    def _chain(self, stages):
        for index, (stage, stream) in enumerate(stages):
            self._stage_index = index
            for result in stream:
                yield _Step(stage, result)

    def _show(self, step):
        if step.stage == "test":
            self._test, self._train, self._conditional = step.result, None, None
        elif step.stage == "train":
            self._train = step.result
            if step.result.complete:
                self._cache = Bunch(
                    settings=self._settings(),
                    test=self._test,
                    train=self._train,
                    conditional=None,
                )
        elif step.stage == "conditional":
            self._conditional = step.result
            if step.result.complete:
                self._cache.conditional = step.result
        if step.stage in ("test", "train", "conditional"):
            frame = self._frame()
            self._measures = measures_payload(
                frame, self._test, self._train, self.sort_by, self._plan.note
            )
            return Bunch(frame=frame, groups=None, grouped=None)
        else:
            self._test, self._train = self._cache.test, self._cache.train
            self._conditional = self._cache.conditional
            groups = self._current_groups()
            self._groups = groups_payload(
                self.correlation_threshold, step.result, groups
            )
            return Bunch(frame=self._frame(), groups=groups, grouped=step.result)

    def _progress_of(self, step):
        done = self._stage_index * self.n_repeats + step.result.n_repeats_done
        return done, self._stages_total * self.n_repeats

    # Reactions to settings ----------------------------------------------------

    @traitlets.observe(
        "scoring", "n_repeats", "random_state", "correlation_threshold", "max_rows"
    )
    def _on_settings(self, change):
        if self._ready:
            self.run()

    @traitlets.observe("conditional")
    def _on_conditional(self, change):
        if not self._ready:
            return
        cache = self._cache
        if change.new and (
            cache is None
            or cache.settings != self._settings()
            or cache.conditional is None
        ):
            self.run()  # the conditional stage, the others kept
        else:
            self._on_sort_by(change)  # the table with or without its columns

    @traitlets.observe("sort_by")
    def _on_sort_by(self, change):
        # Only the order (or the columns shown) changes: redraw what is
        # shown, under the worker's lock so a snapshot arriving meanwhile
        # cannot interleave.
        with self._lock:
            if self.result is None:
                return
            frame = self._frame()
            with self.hold_sync():
                self.result = Bunch(**{**self.result, "frame": frame})
                self._measures = measures_payload(
                    frame, self._test, self._train, self.sort_by, self._plan.note
                )

    # Results in Python --------------------------------------------------------

    def _frame(self):
        conditional = self._conditional if self.conditional else None
        return self._plan.frame(self._test, self._train, self.sort_by, conditional)

    def _current_groups(self):
        """Clusters of the numeric features at `correlation_threshold`, plus
        every other column on its own (each column on its own without
        clusters)."""
        return groups_at(
            self._clusters, self._data["test"][0], self.correlation_threshold
        )

    def to_frame(self) -> pd.DataFrame:
        """The comparison table (as :func:`compare_importances` returns it)."""
        if self.result is None:
            raise RuntimeError("No result yet; call wait() first.")
        return self.result.frame

    def figure(self) -> Figure:
        """A matplotlib Figure of the measures view."""
        from ..plotting import ImportanceComparisonDisplay

        frame = self.to_frame()
        figure = new_figure((7, 1.4 + 0.35 * len(frame)))
        ImportanceComparisonDisplay(frame).plot(ax=figure.subplots())
        return figure
