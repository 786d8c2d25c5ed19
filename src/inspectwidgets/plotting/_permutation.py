"""Permutation importance as a matplotlib chart: bars with error bars, or boxes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, Self, cast

import numpy as np
from numpy.typing import ArrayLike

from .._text import mpl_name, mpl_text
from ..inspection import (
    PermutationImportanceResult,
    SubgroupImportanceResult,
    permutation_importance,
    subgroup_permutation_importance,
)
from ..inspection._core import Data, Estimator
from ._subgroup_bars import draw_subgroup_bars

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def chart_size(n_bars):
    """Figure size (inches) that gives each drawn feature a readable row."""
    return (6.4, 1.2 + 0.3 * max(n_bars, 1))


class PermutationImportanceDisplay:
    """Permutation importance chart, as in scikit-learn's examples.

    Use :meth:`from_estimator` to compute and plot, or :meth:`from_result` to
    plot a :class:`~inspectwidgets.PermutationImportanceResult` (for example a
    widget's ``result``). ``__init__`` only stores the result.

    A :class:`~inspectwidgets.SubgroupImportanceResult` (``subgroups=``) is
    drawn as grouped bars: one bar per subgroup for each feature, with a
    legend giving each subgroup's size; subgroups below the result's
    `min_size` are greyed and hatched, and the title says why.

    Parameters
    ----------
    result : PermutationImportanceResult or SubgroupImportanceResult

    Attributes
    ----------
    figure_ : matplotlib Figure
    ax_ : matplotlib Axes
    artists_ : list
        The bars (or box artists) drawn.
    bars_by_subgroup_ : dict
        For a subgroup result: each subgroup's bars, by its label.
    """

    def __init__(
        self, result: PermutationImportanceResult | SubgroupImportanceResult
    ) -> None:
        if not isinstance(
            result, (PermutationImportanceResult, SubgroupImportanceResult)
        ):
            raise TypeError(
                "result must be a PermutationImportanceResult (use "
                "permutation_importance(..., return_result=True)) or a "
                "SubgroupImportanceResult; got "
                f"{type(result).__name__}."
            )
        self.result = result

    @classmethod
    def from_estimator(
        cls,
        estimator: Estimator,
        X: Data,
        y: ArrayLike | None,
        *,
        ax: Axes | None = None,
        kind: Literal["bar", "box"] = "bar",
        scorer: str | None = None,
        max_features: int = 20,
        interval: bool | None = None,
        subgroups: Any = None,
        **kwargs: Any,
    ) -> Self:
        """Compute permutation importance (keyword arguments as in
        :func:`~inspectwidgets.permutation_importance`, ``n_bootstrap``
        included) and plot it. With `subgroups` (a label per row, or a column
        of X), each subgroup's: :func:`~inspectwidgets.subgroup_permutation_importance`
        (its keyword arguments, ``min_size`` included)."""
        # return_result=True: the result, never scikit-learn's Bunch.
        result: PermutationImportanceResult | SubgroupImportanceResult
        if subgroups is not None:
            result = cast(
                SubgroupImportanceResult,
                subgroup_permutation_importance(
                    estimator, X, y, subgroups=subgroups, return_result=True, **kwargs
                ),
            )
        else:
            result = cast(
                PermutationImportanceResult,
                permutation_importance(estimator, X, y, return_result=True, **kwargs),
            )
        return cls(result).plot(
            ax=ax,
            kind=kind,
            scorer=scorer,
            max_features=max_features,
            interval=interval,
        )

    @classmethod
    def from_result(
        cls,
        result: PermutationImportanceResult | SubgroupImportanceResult,
        *,
        ax: Axes | None = None,
        kind: Literal["bar", "box"] = "bar",
        scorer: str | None = None,
        max_features: int = 20,
        interval: bool | None = None,
    ) -> Self:
        """Plot an existing result."""
        return cls(result).plot(
            ax=ax,
            kind=kind,
            scorer=scorer,
            max_features=max_features,
            interval=interval,
        )

    def plot(
        self,
        *,
        ax: Axes | None = None,
        kind: Literal["bar", "box"] = "bar",
        scorer: str | None = None,
        max_features: int = 20,
        interval: bool | None = None,
    ) -> Self:
        """Draw the chart.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; a new figure is created when None.
        kind : {"bar", "box"}, default="bar"
            Mean importance with ±std error bars, or box plots of the repeats.
        scorer : str, default=None
            Scorer to show; required when the result holds several.
        max_features : int, default=20
            Draw the most important features only; the title says how many
            are hidden.
        interval : bool or None, default=None
            Draw the held-out interval (a result computed with
            ``n_bootstrap``) as whiskers beside each bar or box: it also
            covers the sampling noise of the held-out rows, which the
            repeats' spread does not. None draws it when the result has it.

        Returns
        -------
        self
        """
        import matplotlib.pyplot as plt

        if kind not in ("bar", "box"):
            raise ValueError(f'kind must be "bar" or "box"; got {kind!r}.')
        result = self.result
        if isinstance(result, SubgroupImportanceResult):
            return self._plot_subgroups(ax, kind, scorer, max_features, interval)
        scorer = result._scorer(scorer)
        if interval is None:
            interval = result.n_bootstrap is not None
        if interval and result.n_bootstrap is None:
            raise ValueError(
                "interval: this result has no resamples of the held-out rows; "
                "compute it with n_bootstrap=200 (for instance)."
            )
        shown, hidden = result.top(scorer, max_features)
        importances = result.importances(scorer)[shown]
        names = [result.feature_names[i] for i in shown]
        if ax is None:
            _, ax = plt.subplots(figsize=chart_size(len(names)), layout="constrained")
        positions = np.arange(len(names))[::-1]
        if kind == "bar" or importances.shape[1] == 0:
            mean = (
                importances.mean(axis=1)
                if importances.shape[1]
                else np.zeros(len(names))
            )
            std = (
                importances.std(axis=1)
                if importances.shape[1]
                else np.zeros(len(names))
            )
            colors = np.where(mean < 0, "tab:red", "tab:blue")
            self.artists_ = list(
                ax.barh(positions, mean, xerr=std, color=colors, capsize=3)
            )
        else:
            boxes = ax.boxplot(
                importances.T, positions=positions, orientation="horizontal", widths=0.6
            )
            self.artists_ = boxes["boxes"]
        self.interval_lines_ = None
        if interval and importances.shape[1]:
            self.interval_lines_ = _draw_interval(
                ax, positions, result.interval(scorer)[shown]
            )
        ax.set_yticks(positions, labels=[mpl_name(n) for n in names])
        ax.axvline(0, color="0.3", linewidth=0.8, linestyle="--")
        ax.set_xlabel(mpl_text(f"Decrease in {scorer} when permuted"))
        title = _title(result, scorer, kind, hidden, self.interval_lines_)
        ax.set_title(mpl_text(title), fontsize="medium")
        self.ax_ = ax
        self.figure_ = ax.figure
        return self

    def _plot_subgroups(self, ax, kind, scorer, max_features, interval):
        """:meth:`plot` of a subgroup result: grouped bars (_subgroup_bars.py)."""
        import matplotlib.pyplot as plt

        result = self.result
        if kind != "bar" or interval:
            raise ValueError(
                "A subgroup result is drawn as bars (kind='bar'), without "
                f"held-out intervals; got kind={kind!r}, interval={interval!r}."
            )
        if ax is None:
            n_bars = min(len(result.feature_names), max_features)
            _, ax = plt.subplots(
                figsize=chart_size(0.75 * n_bars * max(1, len(result.labels))),
                layout="constrained",
            )
        self.artists_, self.bars_by_subgroup_ = draw_subgroup_bars(
            ax, result, scorer, max_features
        )
        self.interval_lines_ = None
        self.ax_, self.figure_ = ax, ax.figure
        return self


def _draw_interval(ax, positions, bounds):
    """The held-out interval as thin whiskers just below each bar's centre."""
    low, high = bounds[:, 0], bounds[:, 1]
    middle = (low + high) / 2
    return ax.errorbar(
        middle,
        positions - 0.3,
        xerr=[middle - low, high - middle],
        fmt="none",
        ecolor="0.15",
        elinewidth=1.2,
        capsize=4,
        label="held-out interval",
    )


def _title(result, scorer, kind, hidden, interval_lines):
    """What the chart shows, and what its bars and whiskers cover."""
    baseline = result.baseline_scores[scorer]
    # A conditional result holds its subgroups (conditional_importance.md).
    what = "Permutation" if result.subgroups is None else "Conditional permutation"
    title = (
        f"{what} importance ({result.n_repeats_done} of "
        f"{result.n_repeats} repeats, baseline {scorer} = {baseline:.3g})"
    )
    if kind == "bar":
        title += "\nbars: ± std over the repeats' shuffles of these rows"
    if interval_lines is not None:
        title += (
            f"\nwhiskers: {100 * result.confidence_level:g} % interval over "
            f"{result.n_bootstrap} resamples of the held-out rows "
            "(their sampling noise too)"
        )
    if hidden:
        title += f"\n{hidden} more features not shown"
    if result.pending_features:
        title += f"\n{len(result.pending_features)} features not permuted yet"
    return title
