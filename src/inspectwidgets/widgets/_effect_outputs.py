"""What the partial dependence widget gives back in Python: `to_frame()` and
`figure()` of what its chart shows.

A one-way partial dependence split by a column (or a cluster rule) gives
each subgroup's curve, its size and whether it is small; ICE summaries give
the percentile bands or the clusters (the PD Display's ``ice="bands"`` and
``ice="clusters"``, with the clusters' rules); otherwise the average over
the grid, the ALE, or the surface. All of it is read from the curves the run
computed (the clusters the chart shows, not clustered again).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..inspection import ice_percentiles, subgroup_partial_dependence
from ._effect_groups import drawn_rows, with_drawn_curves
from ._figures import new_figure

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


class EffectOutputs:
    """`to_frame()` and `figure()` of PartialDependenceWidget."""

    # What it reads of the widget (its traits, its IceSummaries, its run).
    result: Any
    kind: str
    target: str
    n_ice: int
    split_by: str | None
    ice_mode: str
    _X: Any
    _snapshot: Any
    _clusters: Any
    _engine_kwargs: dict[str, Any]
    _split_labels: Any

    def _shown_summary(self):
        """What the chart draws beyond the average and the thin lines:
        "split", "bands", "clusters" or None (a curve of every row's ICE is
        needed, which a one-way partial dependence keeps for a summary)."""
        snapshot = self._snapshot
        result = snapshot.pd
        if (
            snapshot.ale is not None
            or result is None
            or len(result.feature_names) != 1
            or result.individual is None
            or result.ice_rows is not None
        ):
            return None
        if self.split_by is not None:
            return "split"
        if self.kind == "average":
            return None
        if self.ice_mode == "bands":
            return "bands"
        clusters = self._clusters
        if self.ice_mode == "clusters" and clusters and clusters[0] is result:
            return "clusters"
        return None

    def _require_result(self):
        if self.result is None:
            raise RuntimeError("No result yet; call wait() first.")
        return self.result

    def to_frame(self) -> pd.DataFrame:
        """Tidy DataFrame of what the chart shows: each subgroup's partial
        dependence when split (``subgroup``, ``size``, ``small``, the grid,
        ``output``, ``average``), the ICE curves' percentiles with
        ``ice_mode="bands"``, each cluster's mean curve with
        ``ice_mode="clusters"`` (:meth:`IceClusters.to_frame`; their rules:
        ``IceClusters.rules_to_frame``), with the ICE lines drawn (kind
        "individual" or "both") the average's and the drawn rows' curves
        (``PartialDependenceResult.to_frame(ice=True)``: ``curve``, ``row``,
        ``value``), else the average over the grid (the ALE for the ALE
        kinds)."""
        result = self._require_result()
        shown = self._shown_summary()
        if shown == "split":
            return subgroup_partial_dependence(
                result,
                self._split_labels(),
                sample_weight=self._engine_kwargs["sample_weight"],
            ).to_frame()
        if shown == "bands":
            return ice_percentiles(result).to_frame()
        if shown == "clusters":
            return self._clusters[1].to_frame()
        lines = self._drawn_lines(shown)
        if (
            lines is not None
            and lines.individual is not None
            and self.kind != "average"
        ):
            return lines.to_frame(ice=True)
        return result.to_frame()

    def _drawn_lines(self, shown):
        """The one-way partial dependence with the ICE curves the chart
        draws as thin lines (`n_ice` rows'; every row's curve is kept while
        a summary was on), or None where it draws none of its own."""
        result = self._snapshot.pd
        if shown is not None or self._snapshot.ale is not None:
            return None
        if result is None or len(result.feature_names) != 1:
            return None
        rows = drawn_rows(len(self._X), self.n_ice, self._engine_kwargs["random_state"])
        return with_drawn_curves(result, rows)

    def figure(self) -> Figure:
        """A matplotlib Figure of the current curve or surface, as the chart
        shows it: each subgroup's curve with its size (small ones greyed),
        the percentile bands, or the clusters' mean curves with their rules."""
        from ..plotting import AccumulatedLocalEffectsDisplay, PartialDependenceDisplay

        self._require_result()
        figure = new_figure((6.4, 4.8))
        ax = figure.subplots()
        # The trait holds the class label as a string ("" for regressors),
        # which the Displays' `target` accepts.
        target = self.target or None
        snapshot = self._snapshot
        if snapshot.ale is not None:
            AccumulatedLocalEffectsDisplay(snapshot.ale, snapshot.pd).plot(
                ax=ax, target=target
            )
            return figure
        shown = self._shown_summary()
        options = {}
        if shown == "split":
            # The bands stay under the subgroups' curves, as in the chart; a
            # split draws its curves instead of the clusters'.
            bands = self.ice_mode == "bands" and self.kind != "average"
            options = dict(
                subgroups=self._split_labels(),
                sample_weight=self._engine_kwargs["sample_weight"],
                ice="bands" if bands else "lines",
            )
        elif shown == "bands":
            options = dict(ice="bands")
        elif shown == "clusters":
            options = dict(ice="clusters", clusters=self._clusters[1])
        result = self._drawn_lines(shown) or snapshot.pd
        PartialDependenceDisplay(result).plot(ax=ax, target=target, **options)
        return figure
