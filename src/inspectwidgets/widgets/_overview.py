"""The Effects overview of the PD widget: every feature's partial dependence
as small multiples, most important first (ModelInspector's Effects view shows
it too, ordered by its permutation importances once computed).

Its own thread beside the widget's run: the overview is one engine call
(:func:`~inspectwidgets.iter_partial_dependence_overview`) whose snapshots
become ``_overview``; a newer request (rows, shown again) cancels the older
and its snapshots are dropped. The payload holds what the front end draws,
nothing it would compute: the panels in order, each one's x values (numbers,
or category labels), its averages of the class shown, its missing point and
its note.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

import numpy as np
import traitlets

from ..inspection import iter_partial_dependence_overview
from ..inspection._core import WithCallersConfig
from ..inspection._partial_dependence import value_label
from ._base import describe_error

OVERVIEW_GRID_RESOLUTION = 20
"""Grid values per numeric panel: a panel 150 px wide shows no more."""

SPREAD_LABEL = "PD spread (Greenwell et al. 2018)"


class OverviewPanels(traitlets.HasTraits):
    """The `overview` trait and its computation, for PartialDependenceWidget
    (which provides ``_estimator``, ``_X``, ``_engine_kwargs`` and
    ``target``)."""

    overview = traitlets.Bool(False).tag(sync=True)
    """Show every feature's partial dependence as small multiples, most
    important first; clicking one shows that feature."""

    _overview = traitlets.Dict().tag(sync=True)

    def _init_overview(self):
        # Python-only state (set before the traits' observers run).
        self._overview_generation = 0
        self._overview_cancel = threading.Event()
        self._overview_importances = None  # ({feature: value}, label) or None
        self.overview_result = None

    def set_overview_importances(
        self, importances: Mapping[str, float] | None, label: str = "importance"
    ) -> None:
        """Order the overview by `importances` (``{feature: value}``, every
        feature), described in the panel's header by `label`; None: by each
        partial dependence's spread. Nothing is predicted again."""
        self._overview_importances = (
            None if importances is None else (dict(importances), label)
        )
        result = self.overview_result
        if result is not None:
            self._publish_overview(result, "done" if result.complete else "running")

    def _start_overview(self):
        """Compute the overview on a thread; a running one is cancelled."""
        self._overview_generation += 1
        generation = self._overview_generation
        self._overview_cancel.set()
        cancel = self._overview_cancel = threading.Event()
        self.overview_result = None
        self._overview = {"status": "running", "progress": 0.0, "panels": []}
        kwargs = self._engine_kwargs
        # Integer codes listed as categorical stay categories; the engine
        # takes the other integer columns as numbers.
        X, estimator = self._X, self._estimator
        thread = threading.Thread(
            target=WithCallersConfig(self._overview_work),
            args=(generation, cancel, estimator, X, kwargs["categorical_features"]),
            daemon=True,
            name="inspectwidgets-overview",
        )
        thread.start()
        self._overview_thread = thread

    def _overview_work(self, generation, cancel, estimator, X, categorical):
        try:
            stream = iter_partial_dependence_overview(
                estimator,
                X,
                categorical_features=categorical,
                grid_resolution=OVERVIEW_GRID_RESOLUTION,
                percentiles=self._engine_kwargs["percentiles"],
                cancel=cancel,
            )
            for result in stream:
                if generation != self._overview_generation:
                    return
                self.overview_result = result
                self._publish_overview(result, "running")
            if generation == self._overview_generation and self.overview_result:
                status = "done" if self.overview_result.complete else "cancelled"
                self._publish_overview(self.overview_result, status)
        except Exception as exc:  # shown in the panel, never a frozen spinner
            if generation == self._overview_generation:
                self._overview = {
                    "status": "error",
                    "progress": 0.0,
                    "error": describe_error(exc),
                    "panels": [],
                }

    def _publish_overview(self, result, status):
        importances = self._overview_importances
        label = SPREAD_LABEL
        if importances is not None:
            try:
                result = result.with_importances(importances[0])
                label = importances[1]
            except ValueError:  # importances of other features: keep the spread
                result = result.with_importances(None)
        self._overview = overview_payload(result, self.target, status, label)

    def close(self) -> None:
        """Stop the overview's thread too (after its current chunk)."""
        # Absent when __init__ raised before _init_overview: ipywidgets closes
        # the half-made widget again when it is collected.
        cancel = getattr(self, "_overview_cancel", None)
        if cancel is not None:
            cancel.set()
        super().close()  # type: ignore[misc]

    def cancel_overview(self) -> None:
        """Stop the overview after its current chunk."""
        self._overview_cancel.set()

    def wait_overview(self, timeout: float | None = None) -> bool:
        """Block until the overview's thread is done (True) or `timeout`."""
        thread = getattr(self, "_overview_thread", None)
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True

    @traitlets.observe("overview")
    def _on_overview(self, change):
        if change.new and self.overview_result is None:
            self._start_overview()

    @traitlets.observe("target")
    def _on_overview_target(self, change):
        if self.overview_result is not None:
            status = self._overview.get("status", "done")
            self._publish_overview(self.overview_result, status)


def overview_payload(result, target, status, order_label):
    """What the front end draws of `result` (a PartialDependenceOverview):
    the panels in order, each with the averages of the class `target` (the
    only output for a regressor or a binary classifier's positive class)."""
    output = _output_index(result.output_names, target)
    return {
        "status": status,
        "progress": float(result.progress),
        "error": "",
        "order_by": result.order_by,
        "order_label": order_label,
        "target": "" if result.output_names is None else str(target),
        "panels": [_panel(p, output) for p in result.panels],
    }


def _output_index(output_names, target):
    if output_names is None:
        return 0
    names = [str(n) for n in output_names]
    return names.index(str(target)) if str(target) in names else len(names) - 1


def _panel(panel, output):
    """One panel: x values (numbers, or category labels), y of the output,
    the missing point's y apart (None when there is none)."""
    base = {
        "feature": panel.feature,
        "categorical": panel.categorical,
        "importance": _finite(panel.importance),
        "note": panel.note,
        "x": [],
        "y": [],
        "missing_y": None,
        "state": "failed" if panel.failed else "pending",
    }
    if panel.failed or panel.average is None:
        return base
    grid = panel.grid_values
    y = panel.average[output]
    missing_y = None
    if panel.missing:
        grid, missing_y, y = grid[:-1], float(y[-1]), y[:-1]
    if panel.categorical:
        x = [value_label(v) for v in grid]  # as the single view labels them
    else:
        x = [float(v) for v in np.asarray(grid, dtype=float)]
    return {
        **base,
        "x": x,
        "y": [float(v) for v in y],
        "missing_y": missing_y,
        "state": "done",
    }


def _finite(value):
    value = float(value)
    return value if np.isfinite(value) else None
