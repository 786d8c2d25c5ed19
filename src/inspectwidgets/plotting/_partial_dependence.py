"""Partial dependence and ICE curves as a matplotlib chart."""

from __future__ import annotations

import numbers
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, Literal, Self

import numpy as np

from .._text import mpl_name, mpl_text, visible
from ..inspection import (
    DEFAULT_CORRELATION_THRESHOLD,
    IceClusters,
    PartialDependenceResult,
    ice_clusters,
    ice_percentiles,
    partial_dependence,
)
from ..inspection._core import (
    Column,
    Data,
    Estimator,
    column_position,
    output_quantity,
)
from ..inspection._partial_dependence import MISSING_LABEL, value_label
from ._ice_summaries import draw_bands, draw_clusters, draw_subgroups

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D
    from numpy.typing import ArrayLike


class PartialDependenceDisplay:
    """Partial dependence (and ICE) of one feature, or a surface of two.

    ``__init__`` only stores a :class:`~inspectwidgets.PartialDependenceResult`;
    :meth:`from_estimator` computes one; :meth:`plot` draws: the average as a
    bold line over translucent ICE lines with decile ticks for one numeric
    feature, points per category for a categorical one, filled contours for
    two numeric features, cells when one of the two is categorical.

    The artists drawn are kept under scikit-learn's names, each holding what
    scikit-learn's ``PartialDependenceDisplay`` keeps for one of its axes.

    Attributes
    ----------
    figure_, ax_ : matplotlib Figure and Axes
    lines_ : list of Line2D
        The ICE lines and then the average line (one feature); empty for two.
    bands_ : list of PolyCollection or LineCollection
        With ``ice="bands"``: the 5-95% and 25-75% bands of the ICE curves
        (filled for a numeric feature, bars per category); their median is
        the last ICE line in `lines_`.
    subgroup_lines_ : list of Line2D
        With `subgroups`: each subgroup's partial dependence (and its value
        at the missing point), in the legend with its size.
    cluster_lines_ : list of Line2D
        With ``ice="clusters"``: the centered average, then each cluster's
        mean centered curve, in the legend with its count and first rule.
    clusters_ : IceClusters or None
        The clusters drawn.
    missing_lines_ : list of Line2D
        A numeric feature's missing point (``missing="observed"`` on a model
        that accepts missing values), drawn right of the curve past a dashed
        line: the ICE values at it and their average; empty otherwise.
    deciles_vlines_ : LineCollection or None
        The deciles of one numeric feature, as ticks on the x axis.
    contours_ : QuadContourSet or None
        The filled contours of two numeric features.
    heatmaps_ : QuadMesh or None
        The cells of two features of which one (or both) is categorical.
    """

    def __init__(self, result: PartialDependenceResult) -> None:
        if not isinstance(result, PartialDependenceResult):
            raise TypeError(
                "result must be a PartialDependenceResult (use "
                "partial_dependence(..., return_result=True)); got "
                f"{type(result).__name__}."
            )
        self.result = result

    @classmethod
    def from_estimator(
        cls,
        estimator: Estimator,
        X: Data,
        features: Column | Sequence[Column],
        *,
        ax: Axes | None = None,
        target: Hashable | None = None,
        ice: Literal["lines", "bands", "clusters"] = "lines",
        subgroups: ArrayLike | Column | None = None,
        n_clusters: int | None = None,
        **kwargs: Any,
    ) -> Self:
        """Compute (keyword arguments as in ``partial_dependence``) and plot
        `target`, `ice` and `subgroups` (see :meth:`plot`; they need the ICE
        curves, so `kind` defaults to "both" with any). `subgroups` may also
        name a column of X. With ``ice="clusters"``, the clusters
        (:func:`~inspectwidgets.ice_clusters`, `n_clusters` of them, or
        chosen) come with their rules on X. The correlation check is on
        (``correlation_threshold=DEFAULT_CORRELATION_THRESHOLD``) unless
        `correlation_threshold` says otherwise. `missing` defaults to
        "observed", as in the widget: a feature's missing value is its own
        point, drawn beside the curve (or its own category), where
        scikit-learn's grid would be NaN; a column without missing values
        gets scikit-learn's grid either way."""
        kwargs.setdefault("correlation_threshold", DEFAULT_CORRELATION_THRESHOLD)
        kwargs.setdefault("missing", "observed")
        if ice != "lines" or subgroups is not None:
            kwargs.setdefault("kind", "both")
        result = partial_dependence(
            estimator, X, features, return_result=True, **kwargs
        )
        if isinstance(subgroups, (str, numbers.Integral)):
            subgroups = column_of(X, subgroups, "subgroups")
        clusters = None
        if ice == "clusters":
            clusters = ice_clusters(result, X, n_clusters=n_clusters)
        return cls(result).plot(
            ax=ax,
            target=target,
            ice=ice,
            subgroups=subgroups,
            sample_weight=kwargs.get("sample_weight"),
            clusters=clusters,
        )

    def plot(
        self,
        *,
        ax: Axes | None = None,
        target: Hashable | None = None,
        ice: Literal["lines", "bands", "clusters"] = "lines",
        subgroups: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        clusters: IceClusters | None = None,
    ) -> Self:
        """Draw the curve or surface of one output of the result.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; a new figure is created when None.
        target : class label or int, default=None
            Classifiers: the class drawn, one of ``result.output_names``, or
            its ``str`` (the value of :class:`PartialDependenceWidget`'s
            ``target``). Multi-output regressors: the index of the output.
            None draws the last output: the positive class of a binary
            classifier, the last class of a multiclass one.
        ice : {"lines", "bands", "clusters"}, default="lines"
            A curve's ICE (when the result has them): one thin line per row,
            the 5-95% and 25-75% bands and the median of
            :func:`~inspectwidgets.ice_percentiles` (for thousands of rows),
            or the clusters of their shapes: each cluster's mean centered
            curve, its count and its first rule, over the centered average.
        subgroups : array-like of shape (n_rows,), default=None
            A label per row of X: each subgroup's partial dependence
            (:func:`~inspectwidgets.subgroup_partial_dependence`) is drawn
            over the overall one, instead of ICE lines; subgroups of few
            rows dashed grey.
        sample_weight : array-like of shape (n_rows,), default=None
            With `subgroups`: the weights the result was computed with.
        clusters : IceClusters, default=None
            With ``ice="clusters"``: the clusters to draw (of this result;
            :func:`~inspectwidgets.ice_clusters` with X, for their rules).
            None: computed here, without rules.

        Returns
        -------
        self
        """
        import matplotlib.pyplot as plt

        result = self.result
        names = result.feature_names
        if len(names) > 2:
            raise ValueError(
                "PartialDependenceDisplay draws one feature (a curve) or two (a "
                f"surface); this result has {len(names)}: {list(names)}."
            )
        output = output_index(result, target)
        if ice not in ("lines", "bands", "clusters"):
            raise ValueError(
                f'ice must be "lines", "bands" or "clusters"; got {ice!r}.'
            )
        if len(names) == 2 and (ice != "lines" or subgroups is not None):
            raise ValueError(
                f"ice={ice!r} and subgroups draw curves of one feature; this "
                f"result is a surface of {list(names)}."
            )
        if ice == "clusters" and subgroups is not None:
            raise ValueError(
                "subgroups and ice='clusters' are two ways of splitting the "
                "rows; draw one at a time."
            )
        if ice == "clusters" and clusters is None:
            clusters = ice_clusters(result)
        self._ice, self._subgroups, self.clusters_ = ice, subgroups, clusters
        self._sample_weight = sample_weight
        if ax is None:
            _, ax = plt.subplots(layout="constrained")
        self.lines_: list[Line2D] = []
        self.missing_lines_: list[Line2D] = []
        self.subgroup_lines_: list[Line2D] = []
        self.cluster_lines_: list[Line2D] = []
        self.bands_: list[Any] = []
        self.deciles_vlines_ = self.contours_ = self.heatmaps_ = None
        if len(names) == 2:
            self._surface(ax, output)
        else:
            self._curve(ax, output)
        self.ax_, self.figure_ = ax, ax.figure
        return self

    def _curve(self, ax, output):
        result = self.result
        grid = result.grid_values[0]
        done = result.done
        average = None if result.kind == "individual" else result.average[output]
        ice = None if result.individual is None else result.individual[output]
        # Strings not listed as categorical (scikit-learn's grid is then
        # their unique values) are drawn as categories too.
        categorical = result.categorical[0] or not _numeric(grid)
        lines = ice is not None and self._ice == "lines" and self._subgroups is None
        # The missing point of a numeric feature is not a place on its axis:
        # drawn apart, right of the curve (as the widget draws it).
        keep, missing_at = slice(None), None
        if result.has_missing_point(0) and not categorical:
            missing_at = self._missing_point(
                ax,
                grid[:-1],
                None if average is None or not done[-1] else average[-1],
                None if not lines or not done[-1] else ice[:, -1],
            )
            keep = slice(None, -1)
            grid, done = grid[keep], done[keep]
            average = None if average is None else average[keep]
        x = np.arange(len(grid)) if categorical else np.asarray(grid, dtype=float)
        if lines:
            self.lines_ += ax.plot(
                x[done], ice[:, keep][:, done].T, color="tab:blue", alpha=0.15, lw=0.8
            )
        elif ice is not None and self._ice == "bands":
            draw_bands(
                self,
                ax,
                x[done],
                ice_percentiles(result).values[output][:, keep][:, done],
                categorical,
            )
        elif self._ice == "clusters":
            draw_clusters(self, ax, x, done, output, keep, categorical)
        if average is not None and self._ice != "clusters":
            style = dict(marker="o", linestyle="none") if categorical else {}
            self.lines_ += ax.plot(
                x[done],
                average[done],
                color="tab:orange",
                lw=2.5,
                label="average" if self._subgroups is None else "all rows",
                **style,
            )
        if self._subgroups is not None:
            draw_subgroups(self, ax, x, done, output, keep, missing_at, categorical)
        if self._subgroups is not None or self._ice != "lines":
            ax.legend(fontsize="small")
        self._curve_axes(ax, x, grid, categorical, output)

    def _curve_axes(self, ax, x, grid, categorical, output):
        """A curve's x ticks (the categories, or the deciles as scikit-learn
        draws them) and labels."""
        result = self.result
        if categorical:
            ax.set_xticks(x, labels=[mpl_name(value_label(v)) for v in grid])
        elif result.distributions[0].deciles is not None:
            # As scikit-learn draws them: short ticks up from the x axis.
            self.deciles_vlines_ = ax.vlines(
                result.distributions[0].deciles,
                0,
                0.05,
                color="k",
                transform=ax.get_xaxis_transform(),
            )
        ax.set_xlabel(names_label(result.feature_names[0], result.warnings))
        centered = result.centered or self._ice == "clusters"
        ax.set_ylabel(
            y_label(
                result,
                output,
                "centered partial dependence" if centered else "partial dependence",
            )
        )

    def _missing_point(self, ax, observed, average, ice):
        """The predictions with the feature missing, at a place of their own
        right of the observed grid past a dashed line, ticked "missing": the
        ICE values as dots, their average as a diamond. Nothing but the line
        and the tick until computed. Returns that place on the x axis."""
        from matplotlib.ticker import FixedLocator, FuncFormatter, MaxNLocator

        lo, hi = float(np.min(observed)), float(np.max(observed))
        width = hi - lo or 1.0
        at, separator = hi + 0.12 * width, hi + 0.06 * width
        ax.axvline(separator, color="0.6", lw=0.8, linestyle="--")
        if ice is not None:
            self.missing_lines_ += ax.plot(
                np.full(len(ice), at), ice, "o", color="tab:blue", alpha=0.3, ms=2
            )
        if average is not None:
            self.missing_lines_ += ax.plot(
                [at], [average], "D", color="tab:orange", ms=7, label=MISSING_LABEL
            )
        ax.set_xlim(lo - 0.03 * width, hi + 0.18 * width)
        # Ticks on the observed range only, then the missing point's.
        ticks = [t for t in MaxNLocator(nbins=6).tick_values(lo, hi) if lo <= t <= hi]
        ax.xaxis.set_major_locator(FixedLocator([*ticks, at]))
        ax.xaxis.set_major_formatter(
            FuncFormatter(lambda x, _: MISSING_LABEL if x == at else f"{x:g}")
        )
        return at

    def _surface(self, ax, output):
        result = self.result
        # A surface has no place for a numeric feature's missing point: left
        # out, as the widget leaves it out (its curve shows it).
        categorical = [
            result.categorical[axis] or not _numeric(result.grid_values[axis])
            for axis in (0, 1)
        ]
        keep = [
            slice(None, -1)
            if result.has_missing_point(axis) and not categorical[axis]
            else slice(None)
            for axis in (0, 1)
        ]
        grids = [g[k] for g, k in zip(result.grid_values, keep, strict=True)]
        values = result.average[output][keep[0], keep[1]].T
        if any(categorical):
            # Cells, not contours: there is nothing between two categories.
            xs, ys = (
                np.arange(len(g)) if is_categorical else np.asarray(g, dtype=float)
                for g, is_categorical in zip(grids, categorical, strict=True)
            )
            surface = self.heatmaps_ = ax.pcolormesh(
                xs, ys, values, shading="nearest", cmap="viridis"
            )
            for axis, grid, is_categorical in zip(
                (ax.xaxis, ax.yaxis), grids, categorical, strict=True
            ):
                if is_categorical:
                    labels = [mpl_name(value_label(v)) for v in grid]
                    axis.set_ticks(np.arange(len(grid)), labels=labels)
        else:
            xs, ys = (np.asarray(g, dtype=float) for g in grids)
            surface = self.contours_ = ax.contourf(
                xs, ys, values, levels=12, cmap="viridis"
            )
        ax.figure.colorbar(
            surface, ax=ax, label=y_label(result, output, "partial dependence")
        )
        ax.set_xlabel(mpl_name(result.feature_names[0]))
        ax.set_ylabel(mpl_name(result.feature_names[1]))


def output_index(result, target, n_outputs=None):
    """Index into the first axis of `result.average` (of `n_outputs` outputs,
    by default that axis's length) of `target`: a class label (or its
    ``str``) for classifiers, an output index for regressors; None for the
    last output."""
    n_outputs = result.average.shape[0] if n_outputs is None else n_outputs
    if target is None:
        return n_outputs - 1
    labels = result.output_names
    if labels is None:
        if (
            isinstance(target, numbers.Integral)
            and not isinstance(target, bool)
            and 0 <= target < n_outputs
        ):
            return int(target)
        raise ValueError(
            "target must be None or the index of an output (0 to "
            f"{n_outputs - 1}) for a regressor's result; got {target!r}."
        )
    for i, label in enumerate(labels):
        if label == target or str(label) == str(target):
            return i
    raise ValueError(
        "target must be one of the result's classes "
        f"{np.asarray(labels).tolist()} (or its str); got {target!r}."
    )


def y_label(result, output, what):
    """`what` the values are ("partial dependence"), and for a classifier,
    on a second line, the class they are of (its probability, log-odds or
    decision function): a figure of one class among several said which
    nowhere (#52 item 4)."""
    quantity = output_quantity(result, output, visible)
    return mpl_text(what if quantity is None else f"{what}\n{quantity}")


def column_of(X, column, argument):
    """The values of X's column `column` (a name, or a position), for an
    argument that may name one; the error names `argument`."""
    position = column_position(X, column, argument)
    return X.iloc[:, position] if hasattr(X, "iloc") else np.asarray(X)[:, position]


def names_label(feature, warnings):
    """The x label, marked when the curve comes with a correlation warning."""
    return (
        mpl_text(f"{visible(feature)} (correlated with other features: read with care)")
        if warnings
        else mpl_name(feature)
    )


def _numeric(values):
    try:
        np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        return False
    return True
