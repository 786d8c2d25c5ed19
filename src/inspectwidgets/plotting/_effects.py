"""Accumulated local effects and H² interaction strength as matplotlib charts."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, Literal, Self

import numpy as np
import pandas as pd

from .._text import mpl_name
from ..inspection import (
    AccumulatedLocalEffectsResult,
    PartialDependenceResult,
    SubgroupAccumulatedLocalEffects,
    accumulated_local_effects,
    interaction_strength,
    partial_dependence,
    subgroup_accumulated_local_effects,
)
from ..inspection._core import Column, Data, Estimator, float_features
from ..inspection._effects import pair_matrix, select_output
from ..inspection._partial_dependence import value_label
from ._ice_summaries import draw_subgroup_effects
from ._partial_dependence import output_index, y_label

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D

# The rows-per-bin strip under an ALE curve, and the gap above it, as
# fractions of the curve's axes.
STRIP_HEIGHT, STRIP_GAP = 0.16, 0.03

# Arguments of `accumulated_local_effects` that the partial dependence of the
# overlay takes too, so both describe the same model output.
_SHARED = (
    "sample_weight",
    "response_method",
    "categorical_features",
    "scale",
    "classes",
)


class AccumulatedLocalEffectsDisplay:
    """Accumulated local effects of one feature (optionally over its partial
    dependence), or the second-order effect of a pair.

    ``__init__`` only stores an
    :class:`~inspectwidgets.AccumulatedLocalEffectsResult` (and a partial
    dependence computed at its edges); :meth:`from_estimator` computes them;
    :meth:`plot` draws: the centred ALE as a line over a band of plus or minus
    the standard deviation of the rows' local effects in each bin, the rows
    per bin as bars in a strip below, and the partial dependence centred as the
    ALE is (:meth:`AccumulatedLocalEffectsResult.center`), so the two compare
    like with like. A pair: filled contours of the second-order effect.

    A :class:`~inspectwidgets.SubgroupAccumulatedLocalEffects` (``subgroups=``)
    is drawn as each subgroup's centred ALE of one feature, labelled with its
    size; small subgroups dashed grey, a subgroup without an ALE listed in
    the legend with "no ALE".

    Parameters
    ----------
    result : AccumulatedLocalEffectsResult or SubgroupAccumulatedLocalEffects
    partial_dependence : PartialDependenceResult, default=None
        The partial dependence of the same feature computed at
        ``result.edges[0]`` (``custom_values``), drawn over the ALE.

    Attributes
    ----------
    figure_, ax_ : matplotlib Figure and Axes
    lines_ : list of Line2D
        The ALE line, then the partial dependence line (if any).
    band_ : PolyCollection or None
        The band of the rows' local effects (one feature): their spread
        within each bin, whose width is set by the bin count; not a
        confidence band.
    bars_ : BarContainer or None
        Rows per bin, in a strip of their own under the curve (``bars_ax_``,
        a child of ``ax_`` sharing its x axis; the figure's layout must leave
        room below the axes, as a constrained layout does).
    contours_ : QuadContourSet or None
        The second-order effect of a pair.
    subgroup_lines_ : list of Line2D
        For a subgroup result: each subgroup's ALE.
    """

    def __init__(
        self,
        result: AccumulatedLocalEffectsResult | SubgroupAccumulatedLocalEffects,
        partial_dependence: PartialDependenceResult | None = None,
    ) -> None:
        if isinstance(result, SubgroupAccumulatedLocalEffects):
            if partial_dependence is not None:
                raise ValueError(
                    "partial_dependence is drawn over one ALE; a subgroup "
                    "result draws each subgroup's ALE alone."
                )
            self.result: (
                AccumulatedLocalEffectsResult | SubgroupAccumulatedLocalEffects
            ) = result
            self.partial_dependence = None
            return
        if not isinstance(result, AccumulatedLocalEffectsResult):
            raise TypeError(
                "result must be an AccumulatedLocalEffectsResult or a "
                f"SubgroupAccumulatedLocalEffects; got {type(result).__name__}."
            )
        if partial_dependence is not None:
            if not isinstance(partial_dependence, PartialDependenceResult):
                raise TypeError(
                    "partial_dependence must be a PartialDependenceResult or "
                    f"None; got {type(partial_dependence).__name__}."
                )
            if len(result.edges) != 1 or len(partial_dependence.grid_values[0]) != len(
                result.edges[0]
            ):
                raise ValueError(
                    "partial_dependence must be computed at the ALE's edges of "
                    "one feature (custom_values={feature: result.edges[0]})."
                )
        self.result = result
        self.partial_dependence = partial_dependence

    @classmethod
    def from_estimator(
        cls,
        estimator: Estimator,
        X: Data,
        features: Column | Sequence[Column],
        *,
        with_partial_dependence: bool = False,
        ax: Axes | None = None,
        target: Hashable | None = None,
        subgroups: Any = None,
        **kwargs: Any,
    ) -> Self:
        """Compute (keyword arguments as in ``accumulated_local_effects``) and
        plot `target` (see :meth:`plot`). With `with_partial_dependence`, also
        the partial dependence at the ALE's edges (brute force, the same
        rows, weights, classes and scale). With `subgroups` (a label per row,
        or a column of X), each subgroup's ALE
        (:func:`~inspectwidgets.subgroup_accumulated_local_effects`)."""
        if subgroups is not None:
            if with_partial_dependence:
                raise ValueError(
                    "with_partial_dependence draws over one ALE; with subgroups "
                    "each subgroup's ALE is drawn alone."
                )
            groups = subgroup_accumulated_local_effects(
                estimator, X, features, subgroups=subgroups, **kwargs
            )
            return cls(groups).plot(ax=ax, target=target)
        result = accumulated_local_effects(estimator, X, features, **kwargs)
        dependence = None
        if with_partial_dependence:
            shared = {k: kwargs[k] for k in _SHARED if k in kwargs}
            column = result.feature_columns[0]
            # The edges of an integer feature lie between its values: as the
            # ALE, the partial dependence sets them in a float copy of it.
            if not result.categorical[0]:
                X = float_features(X, [column])
            dependence = partial_dependence(
                estimator,
                X,
                [column],
                custom_values={column: result.edges[0]},
                method="brute",
                feature_names=kwargs.get("feature_names"),
                return_result=True,
                **shared,
            )
        return cls(result, dependence).plot(ax=ax, target=target)

    def plot(self, *, ax: Axes | None = None, target: Hashable | None = None) -> Self:
        """Draw the effect of one output of the result.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; a new figure is created when None.
        target : class label or int, default=None
            As in :meth:`PartialDependenceDisplay.plot`.

        Returns
        -------
        self
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(layout="constrained")
        self.lines_: list[Line2D] = []
        self.subgroup_lines_: list[Line2D] = []
        self.band_ = self.bars_ = self.bars_ax_ = self.contours_ = None
        if isinstance(self.result, SubgroupAccumulatedLocalEffects):
            self.subgroup_lines_ = draw_subgroup_effects(ax, self.result, target)
            self.lines_ += self.subgroup_lines_
            self.ax_, self.figure_ = ax, ax.figure
            return self
        result = self.result
        output = output_index(result, target, result.centered.shape[0])
        if len(result.edges) == 2:
            xs, ys = (np.asarray(e, dtype=float) for e in result.edges)
            self.contours_ = ax.contourf(
                xs, ys, result.centered[output].T, levels=12, cmap="viridis"
            )
            ax.figure.colorbar(
                self.contours_, ax=ax, label=y_label(result, output, "second-order ALE")
            )
            ax.set_xlabel(mpl_name(result.feature_names[0]))
            ax.set_ylabel(mpl_name(result.feature_names[1]))
        else:
            self._curve(ax, output)
        self.ax_, self.figure_ = ax, ax.figure
        return self

    def _curve(self, ax, output):
        result = self.result
        categorical = result.categorical[0]
        edges = result.edges[0]
        x = np.arange(len(edges)) if categorical else np.asarray(edges, dtype=float)
        lower, upper = (bound[output] for bound in result.band())
        self.band_ = ax.fill_between(
            x,
            lower,
            upper,
            color="tab:blue",
            alpha=0.2,
            lw=0,
            label="± std of rows' changes per bin (width set by the bin count)",
        )
        style = dict(marker="o") if categorical else {}
        self.lines_ += ax.plot(
            x, result.centered[output], color="tab:blue", lw=2.5, label="ALE", **style
        )
        if self.partial_dependence is not None:
            self.lines_ += ax.plot(
                x,
                result.center_partial_dependence(self.partial_dependence)[output],
                color="tab:orange",
                lw=2,
                linestyle="--",
                label="partial dependence (centred alike)",
                **style,
            )
        # Rows per bin in a strip of their own under the curve, sharing its x
        # axis: drawn inside the axes they lay under the legend and the band
        # (#52 item 4). A child of `ax`, so a constrained layout makes room.
        self.bars_ax_ = bars_ax = ax.inset_axes(
            [0, -STRIP_HEIGHT - STRIP_GAP, 1, STRIP_HEIGHT], sharex=ax
        )
        counts = np.asarray(result.bin_counts, dtype=float)
        if categorical:
            self.bars_ = bars_ax.bar(x, counts, width=0.6, color="gray", alpha=0.5)
            ax.set_xticks(x, labels=[mpl_name(value_label(c)) for c in edges])
        else:
            self.bars_ = bars_ax.bar(
                x[:-1], counts, width=np.diff(x), align="edge", color="gray", alpha=0.5
            )
        bars_ax.set_ylim(0, max(counts.max(), 1))
        bars_ax.set_yticks([max(counts.max(), 1)])
        bars_ax.tick_params(axis="y", labelsize="small")
        bars_ax.set_ylabel("rows per bin", rotation=0, ha="right", va="center")
        ax.tick_params(axis="x", labelbottom=False)
        bars_ax.set_xlabel(mpl_name(result.feature_names[0]))
        ax.set_ylabel(y_label(result, output, "accumulated local effect (centred)"))
        ax.legend(loc="best", fontsize="small")


class InteractionStrengthDisplay:
    """Friedman and Popescu's H² as bars (each feature against all others)
    and a heatmap (pairs).

    ``__init__`` only stores the DataFrame of
    :func:`~inspectwidgets.interaction_strength`; :meth:`from_estimator`
    computes it; :meth:`plot` draws one output's statistics.

    Attributes
    ----------
    figure_ : matplotlib Figure
    axes_ : list of Axes
        The axes drawn on: bars, heatmap, or both in that order.
    bars_ : BarContainer or None
        H²_j per feature, largest at the top.
    heatmap_ : AxesImage or None
        H²_jk of the pairs computed (NaN cells: pairs not computed).
    """

    def __init__(self, frame: pd.DataFrame) -> None:
        if not isinstance(frame, pd.DataFrame) or not {
            "kind",
            "feature",
            "partner",
            "output",
            "h_squared",
        } <= set(frame.columns):
            raise TypeError(
                "frame must be the DataFrame interaction_strength returns; got "
                f"{type(frame).__name__}."
            )
        self.frame = frame

    @classmethod
    def from_estimator(
        cls,
        estimator: Estimator,
        X: Data,
        *,
        kind: Literal["both", "bars", "heatmap"] = "both",
        target: Hashable | None = None,
        **kwargs: Any,
    ) -> Self:
        """Compute (keyword arguments as in ``interaction_strength``) and plot
        (see :meth:`plot`)."""
        return cls(interaction_strength(estimator, X, **kwargs)).plot(
            kind=kind, target=target
        )

    def plot(
        self,
        *,
        kind: Literal["both", "bars", "heatmap"] = "both",
        target: Hashable | None = None,
        axes: Axes | Sequence[Axes] | None = None,
    ) -> Self:
        """Draw H² of one output.

        Parameters
        ----------
        kind : {"both", "bars", "heatmap"}, default="both"
        target : class label or int, default=None
            The output drawn (a value of the frame's ``output`` column, or
            its ``str``); None: the last.
        axes : Axes or list of Axes, default=None
            One per chart drawn; a new figure when None.

        Returns
        -------
        self
        """
        import matplotlib.pyplot as plt

        if kind not in ("both", "bars", "heatmap"):
            raise ValueError(f"kind must be 'both', 'bars' or 'heatmap'; got {kind!r}.")
        frame = select_output(self.frame, target)
        n_charts = 2 if kind == "both" else 1
        if axes is None:
            _, axes = plt.subplots(
                1, n_charts, layout="constrained", figsize=(5 * n_charts, 4)
            )
        # numpy's stubs take no Axes: an array of objects here.
        axes = list(np.atleast_1d(axes))  # type: ignore[arg-type]
        if len(axes) != n_charts:
            raise ValueError(
                f"axes: kind={kind!r} draws on {n_charts}; got {len(axes)}."
            )
        self.bars_ = self.heatmap_ = None
        charts = iter(axes)
        if kind in ("both", "bars"):
            ax = next(charts)
            single = frame[frame["kind"] == "one_vs_rest"].iloc[::-1]
            rows = np.arange(len(single))
            self.bars_ = ax.barh(rows, single["h_squared"], color="tab:blue")
            ax.set_yticks(rows, labels=[mpl_name(f) for f in single["feature"]])
            ax.set_xlabel("H² against all other features")
        if kind in ("both", "heatmap"):
            ax = next(charts)
            names, matrix = pair_matrix(frame)
            self.heatmap_ = ax.imshow(matrix, vmin=0, vmax=1, cmap="viridis")
            labels = [mpl_name(name) for name in names]
            ax.set_xticks(range(len(names)), labels=labels, rotation=90)
            ax.set_yticks(range(len(names)), labels=labels)
            ax.figure.colorbar(self.heatmap_, ax=ax, label="H² of the pair")
        self.axes_, self.figure_ = axes, axes[0].figure
        return self
