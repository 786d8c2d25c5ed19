"""The live partial dependence / ICE / accumulated local effects widget."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import traitlets
from numpy.typing import ArrayLike

from ..inspection import (
    DEFAULT_CORRELATION_THRESHOLD,
)
from ..inspection._core import (
    Column,
    Data,
    Estimator,
    check_fitted,
    check_X,
    column_names,
)
from ._base import ComputationWidget
from ._effect_groups import (
    IceSummaries,
    drawn_rows,
    with_drawn_curves,
)
from ._effect_outputs import EffectOutputs
from ._effect_parts import (
    KINDS,
    Effects,
    PartSettings,
    check_features,
    plan_parts,
    progress_of,
)
from ._effect_payloads import curve_payload, effects_payload, output_index
from ._effect_streams import EffectStreams
from ._options import STATIC, categorical_names, feature_names, target_options
from ._overview import OverviewPanels
from ._workload import (
    RowSubsample,
    is_large,
    resolve_max_rows,
    rows_text,
    seeded_rows,
    take_rows,
    workload_text,
)


class PartialDependenceWidget(
    EffectOutputs,
    IceSummaries,
    OverviewPanels,
    EffectStreams,
    RowSubsample,
    ComputationWidget,
):
    """Partial dependence and ICE curves that fill in while they are computed.

    One feature: the partial dependence (bold) over individual conditional
    expectation curves (thin, subsampled), optionally centered, above the
    feature's distribution. Two features: a heatmap with both distributions on
    the margins. ``kind="ale"`` draws accumulated local effects instead
    (:func:`~inspectwidgets.iter_accumulated_local_effects`: a pair's
    second-order effect for two features), with a band of the rows' local
    effects and the rows per bin; ``kind="average_and_ale"`` draws the
    partial dependence and the ALE of one feature on one axis. For
    classifiers, pick the class and the scale (probability or ESL's centered
    log-odds). A warning shows when the feature is strongly correlated with
    another, with buttons to switch to ALE or the overlay. The engine is
    :func:`~inspectwidgets.iter_partial_dependence`; the threading, status and
    cancellation rules are those of the permutation widget. Values are always
    computed by brute force over the rows of X (``method="brute"``), so the
    average is the mean of the ICE curves whatever the kind or the number of
    features; non-numeric columns are categorical.

    Parameters
    ----------
    estimator : fitted estimator
    X : ndarray or DataFrame of shape (n_samples, n_features)
    features : column or list of one or two columns, default=None
        The feature(s) to show, by label or int position; the first column
        when None. The trait holds them as strings.
    kind : {"average", "individual", "both", "ale", "average_and_ale"}, \
            default="both"
        The partial dependence (scikit-learn's kinds: one-way only, two-way
        surfaces are averages), the accumulated local effects, or the average
        partial dependence and the ALE overlaid. The overlay compares like
        with like: the partial dependence is computed at the ALE's bin edges,
        and both curves are centred the same way, to a weighted mean of 0
        over the rows with each bin's rows at the bin's midpoint
        (:meth:`AccumulatedLocalEffectsResult.center`). For an additive model
        on independent features the two then coincide; where they part, PD
        has averaged over combinations of values the data does not hold.
        Choosing a second feature while the kind is "average_and_ale" sets
        it to "ale", the pair's second-order effect (asking for the overlay
        of two features is an error).
    centered : bool, default=False
        Anchor every partial dependence curve at 0 at the first grid value
        (ALE is always centred on the data; see `kind`).
    grid_resolution : int, default=50
        Grid points of the partial dependence, or quantile bins of the ALE.
    n_ice : int, default=100
        ICE curves drawn (a random subsample of the rows).
    ice_steps : bool, default=False
        For a tree model: once the grid is done, redraw the ICE curves at
        every step of the model (:func:`~inspectwidgets.split_grid`, over the
        grid's range), exact between grid values where the grid only samples
        them. Another model, or a feature whose splits cannot be read, sets
        ``status="error"`` saying why.
    target : str, default=None
        Class shown for classifiers; the positive (last) class when None.
    scale : {"probability", "log_odds"}, default="probability"
    categorical_features, sample_weight, percentiles, random_state
        As in :func:`~inspectwidgets.partial_dependence`. `random_state`
        also draws the subsample of `max_rows` rows.
    split_by : str, default=None
        A column of X of 2 to 10 values (missing ones the group "missing"),
        or a cluster rule shown: one partial dependence curve per group, the
        mean of its rows' ICE curves (no other prediction), groups of fewer
        than 30 rows greyed. One-way partial dependence only.
    ice_mode : {"lines", "bands", "clusters"}, default="lines"
        ICE curves as thin lines, percentile bands (5-95, 25-75, median), or
        k-means clusters' mean curves with rules on X (click one to split by
        it). Summaries and `split_by` keep every row's curve.
    overview : bool, default=False
        Also show every feature's average partial dependence as small
        multiples (:func:`~inspectwidgets.partial_dependence_overview`, 20 grid
        values each, one y-scale for all), most important first: by the
        importances given to :meth:`set_overview_importances` (ModelInspector
        gives its permutation importances), else by each curve's spread. A
        click (or Enter) on a panel shows that feature. Computed on its own
        thread when first shown; ``overview_result`` holds the engine's result.
    max_rows : int, default=None
        Rows computed at most: above it, a seeded subsample of X (and of
        `sample_weight`), the same for the same `random_state`, and the
        numbers those of the function on those rows. None: every row, or
        10,000 where X has more than 1,000,000 cells (rows x columns;
        ``docs/large_data.md``). The status line says which, with a field
        to change it.
    run : bool, default=True
        Start computing at once.
    """

    _esm = STATIC / "pd_widget.js"
    _css = STATIC / "pd_widget.css"

    features = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """One feature (a curve) or two (a surface)."""

    kind = traitlets.Enum(KINDS, default_value="both").tag(sync=True)
    """Average curve, ICE curves, both, ALE, or average and ALE overlaid."""

    centered = traitlets.Bool(False).tag(sync=True)
    """Whether curves are anchored at 0 at the first grid value."""

    grid_resolution = traitlets.Int(50, min=2).tag(sync=True)
    """Grid points per numeric feature (at least 2, as in scikit-learn)."""

    n_ice = traitlets.Int(100, min=1).tag(sync=True)
    """ICE curves computed and drawn."""

    target = traitlets.Unicode("").tag(sync=True)
    """The class shown (classifiers); empty for regressors."""

    scale = traitlets.Enum(
        ("probability", "log_odds"), default_value="probability"
    ).tag(sync=True)
    """Class probability, or centered log-odds (ESL eq. 10.52)."""

    ice_steps = traitlets.Bool(False).tag(sync=True)
    """ICE curves at every step of a tree model (:func:`split_grid`), once
    computed; the average stays on the grid."""

    _steps_available = traitlets.Bool(False).tag(sync=True)
    _feature_options = traitlets.List(traitlets.Unicode()).tag(sync=True)
    _categorical = traitlets.List(traitlets.Unicode()).tag(sync=True)
    _target_options = traitlets.List(traitlets.Unicode()).tag(sync=True)
    _curve = traitlets.Dict().tag(sync=True)

    _RERUN_ON = (
        "features",
        "kind",
        "centered",
        "ice_steps",
        "grid_resolution",
        "n_ice",
        "scale",
    )

    def __init__(
        self,
        estimator: Estimator,
        X: Data,
        *,
        features: Column | Sequence[Column] | None = None,
        kind: Literal[
            "average", "individual", "both", "ale", "average_and_ale"
        ] = "both",
        centered: bool = False,
        grid_resolution: int = 50,
        n_ice: int = 100,
        ice_steps: bool = False,
        target: str | None = None,
        scale: Literal["probability", "log_odds"] = "probability",
        categorical_features: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        percentiles: tuple[float, float] = (0.05, 0.95),
        random_state: int = 0,
        max_rows: int | None = None,
        split_by: str | None = None,
        ice_mode: Literal["lines", "bands", "clusters"] = "lines",
        overview: bool = False,
        run: bool = True,
    ) -> None:
        # Over 60 lines only by the engine's parameters, written out.
        check_fitted(estimator)
        X = check_X(X)
        names = column_names(X)
        features = feature_names(features, names)
        targets = target_options(estimator)
        categorical = categorical_names(X, names, categorical_features)
        self._estimator, self._names = estimator, names
        self._full = (X, sample_weight)
        self._engine_kwargs = dict(
            # Columns by position: the names in the traits are strings, the
            # frame's labels need not be. Non-numeric columns are categorical.
            categorical_features=[names.index(n) for n in categorical] or None,
            sample_weight=sample_weight,
            percentiles=percentiles,
            random_state=random_state,
            # Ours, on here (the function leaves it off, as scikit-learn).
            correlation_threshold=DEFAULT_CORRELATION_THRESHOLD,
        )
        max_rows = resolve_max_rows(max_rows, X)
        # Before the traits: their observers read the rows (split_grid).
        self._X = self._subsample(max_rows)
        split_columns = self._init_summaries(self._X, names)
        self._ready = False
        # Complete results by part ("pd", "ale", ...): see `_refresh`.
        self._held: dict[str, tuple[PartSettings, object]] = {}
        # Feature -> why it has no steps ("": none).
        self._steps_problems: dict[str, str] = {}
        self._snapshot = Effects()
        self.pd_result = None
        self._init_overview()
        super().__init__(
            features=features,
            kind=kind,
            centered=centered,
            grid_resolution=grid_resolution,
            n_ice=n_ice,
            ice_steps=ice_steps,
            target=target if target is not None else (targets[-1] if targets else ""),
            scale=scale,
            _feature_options=names,
            _split_options=split_columns,
            split_by=split_by,
            ice_mode=ice_mode,
            _categorical=categorical,
            _target_options=targets,
            max_rows=max_rows,
            _n_rows=X.shape[0],
        )
        self._check_when_made()
        self._ready = True
        if run:
            self.run()
        if overview:
            self.overview = True

    # ComputationWidget hooks --------------------------------------------------

    def run(self) -> None:
        """Start (or restart) the computation with the current settings,
        recomputing every part (results kept from earlier runs are dropped).

        Cancels a run in flight. Returns at once; use :meth:`wait` to block.
        Invalid settings set ``status="error"`` and ``error`` instead of raising.
        """
        self._held = {}
        super().run()

    def _refresh(self):
        """After a settings change: redraw without predicting when every
        part the settings need was computed in full before (switching between
        ``"ale"`` and ``"average_and_ale"``, or ``centered`` in ALE kinds);
        else run, keeping what was computed for the same settings."""
        try:
            keys = self._keys()
        except ValueError:
            keys = None
        held = self._held
        if keys and all(held.get(part, (None,))[0] == key for part, key in keys):
            parts = {part: held[part][1] for part, _ in keys}
            self._publish(Effects(**parts, expects=tuple(parts)))
        else:
            super().run()

    def _keys(self):
        """The parts this run needs ("pd", "ale", "steps"), each with the
        settings its result depends on (`plan_parts`)."""
        check_features(self.features, self.target, self._target_options, self._names)
        return plan_parts(
            features=self.features,
            kind=self.kind,
            grid_resolution=self.grid_resolution,
            scale=self._scale(),
            n_ice=self.n_ice,
            centered=self.centered,
            steps=self.ice_steps and self._steps_problem,
            all_curves=self._all_curves(),
        )

    def _scale(self):
        return self.scale if self._target_options else "probability"

    def _subsample(self, max_rows):
        """The seeded subsample of at most `max_rows` rows of X, its
        `sample_weight` put in the engine's arguments."""
        X, weight = self._full
        rows = seeded_rows(len(X), max_rows, self._engine_kwargs["random_state"])
        X, self._engine_kwargs["sample_weight"] = take_rows(rows, X, weight)
        return X

    def _describe(self):
        X = self._full[0]
        if not is_large(X) and len(self._X) == len(X):
            return ""
        two_way = len(self.features) == 2
        points = f"{self.grid_resolution}{'²' if two_way else ''}"
        what = (
            f"{points} bins"
            if self.kind == "ale"
            else f"{points} grid points"
            + (" and ALE" if self.kind == "average_and_ale" else "")
        )
        return workload_text(
            rows_text(len(self._X), len(X)), f"{X.shape[1]} features", what
        )

    def _show(self, snapshot):
        self._snapshot = snapshot
        self.pd_result = snapshot.pd
        n_rows = len(self._X)
        if snapshot.ale is not None:
            self._curve = effects_payload(
                snapshot.ale, snapshot.pd, self.target, n_rows
            )
            return snapshot.ale
        result = snapshot.pd
        if result is None or len(result.feature_names) != 1:
            self._curve = curve_payload(result, self.target, n_rows, snapshot.steps)
            return result
        # Every row's curve kept for a summary: the drawn rows' as lines.
        rows = drawn_rows(n_rows, self.n_ice, self._engine_kwargs["random_state"])
        drawn = with_drawn_curves(result, rows)
        payload = curve_payload(drawn, self.target, n_rows, snapshot.steps)
        if self.kind == "average":
            payload["individual"] = None
        output = output_index(result, self.target)
        self._curve = self._summaries(payload, result, output)
        return result

    def _progress_of(self, snapshot):
        return progress_of(snapshot)

    @traitlets.observe("features")
    def _on_features(self, change):
        self._on_first_feature()

    @traitlets.observe(*_RERUN_ON)
    def _on_settings(self, change):
        if not self._ready:
            return
        if (
            change["name"] == "features"
            and len(self.features) == 2
            and self.kind == "average_and_ale"
        ):
            # A second feature picked while the one-feature overlay is shown:
            # the pair's ALE (its second-order effect) rather than an error
            # about a kind the page no longer offers. Setting `kind` reruns.
            self.kind = "ale"
            return
        self._refresh()

    @traitlets.observe("max_rows")
    def _on_max_rows(self, change):
        if not self._ready:
            return
        with self._lock:
            self._steps_problems = {}
            self._drop_rule_split()  # while the rows drawn are its rows
            self._X = self._subsample(self.max_rows)
            self._split_options = self._init_summaries(self._X, self._names)
        self.run()
        if self.overview:  # other rows: another overview
            self._start_overview()
        else:
            self.overview_result = None

    @traitlets.observe("target")
    def _on_target(self, change):
        """The engine computes every class: a new class is drawn from the
        stored result of the current run, without predicting again."""
        if not self._ready:
            return
        with self._lock:
            current = self._result_generation == self._generation
            if self.target in self._target_options and (
                self.status == "running"
                or (self.status in ("done", "cancelled") and current)
            ):
                # A run yet to show its first result reads `target` then.
                if current:
                    self._show(self._snapshot)
                return
        self.run()  # after an error, or to report an unknown class
