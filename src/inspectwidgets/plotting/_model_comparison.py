"""Several models' permutation importances as one matplotlib chart: a dot
per model and feature with the repeats' spread, and beside it the paired
difference between two models with its interval over repeats."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

import numpy as np
from numpy.typing import ArrayLike

from ..inspection import (
    PairedDifference,
    PermutationComparisonResult,
    compare_permutation_importance,
)
from ..inspection._core import Data, Models
from ._permutation import chart_size

if TYPE_CHECKING:
    from matplotlib.axes import Axes


class PermutationComparisonDisplay:
    """Several models' permutation importances on one chart.

    Left, one row per feature (the most important for any model first): each
    model's mean importance as a dot with the repeats' standard deviation as
    whiskers, one colour per model. Right, the paired difference between two
    models (``first`` minus ``second``) per feature with its t-interval over
    repeats (:class:`~inspectwidgets.PairedDifference`); a difference whose
    interval excludes 0 is drawn solid, others hollow and grey.

    Use :meth:`from_estimators` to compute and plot, or :meth:`from_result`
    to plot a :class:`~inspectwidgets.PermutationComparisonResult`.
    ``__init__`` only stores the result.

    Parameters
    ----------
    result : PermutationComparisonResult

    Attributes
    ----------
    figure_ : matplotlib Figure
    ax_ : matplotlib Axes
        The importances' axes.
    difference_ax_ : matplotlib Axes or None
        The paired difference's axes (None with one model, or
        ``difference=False``).
    markers_ : dict of str to matplotlib ErrorbarContainer
        Each model's dots and whiskers.
    difference_ : PairedDifference or None
        The difference drawn.
    difference_markers_ : list of matplotlib ErrorbarContainer
        The differences that differ from 0, then those that do not.
    """

    def __init__(self, result: PermutationComparisonResult) -> None:
        if not isinstance(result, PermutationComparisonResult):
            raise TypeError(
                "result must be a PermutationComparisonResult (from "
                f"compare_permutation_importance); got {type(result).__name__}."
            )
        self.result = result

    @classmethod
    def from_estimators(
        cls,
        models: Models,
        X: Data,
        y: ArrayLike | None,
        *,
        scorer: str | None = None,
        max_features: int = 20,
        difference: tuple[str, str] | bool = True,
        **kwargs: Any,
    ) -> Self:
        """Compute several models' permutation importances (keyword
        arguments as in :func:`~inspectwidgets.compare_permutation_importance`)
        and plot them.

        Examples
        --------
        >>> from sklearn.datasets import load_diabetes
        >>> from sklearn.ensemble import RandomForestRegressor
        >>> from sklearn.linear_model import Ridge
        >>> from inspectwidgets import PermutationComparisonDisplay
        >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
        >>> models = {
        ...     "ridge": Ridge().fit(X, y),
        ...     "forest": RandomForestRegressor(20, random_state=0).fit(X, y),
        ... }
        >>> display = PermutationComparisonDisplay.from_estimators(
        ...     models, X, y, n_repeats=5, random_state=0
        ... )
        >>> sorted(display.markers_)
        ['forest', 'ridge']
        >>> display.difference_.models
        ('ridge', 'forest')
        """
        result = compare_permutation_importance(models, X, y, **kwargs)
        return cls(result).plot(
            scorer=scorer, max_features=max_features, difference=difference
        )

    @classmethod
    def from_result(
        cls,
        result: PermutationComparisonResult,
        *,
        scorer: str | None = None,
        max_features: int = 20,
        difference: tuple[str, str] | bool = True,
    ) -> Self:
        """Plot an existing result."""
        return cls(result).plot(
            scorer=scorer, max_features=max_features, difference=difference
        )

    def plot(
        self,
        *,
        scorer: str | None = None,
        max_features: int = 20,
        difference: tuple[str, str] | bool = True,
        ax: Axes | None = None,
        difference_ax: Axes | None = None,
    ) -> Self:
        """Draw the chart.

        Parameters
        ----------
        scorer : str, default=None
            Scorer to show; required when the result holds several.
        max_features : int, default=20
            Draw the features most important for any model only; the title
            says how many are hidden.
        difference : (str, str) or bool, default=True
            The two models whose paired difference is drawn beside (first
            minus second); True: the first two models; False: none.
        ax, difference_ax : matplotlib Axes, default=None
            Axes to draw on; a new figure is created when `ax` is None.

        Returns
        -------
        self
        """
        import matplotlib.pyplot as plt

        result = self.result
        scorer = result._first._scorer(scorer)
        pair = self._pair(difference)
        names = result.model_names
        means = np.array([_mean(result.importances(m, scorer)) for m in names])
        stds = np.array([_std(result.importances(m, scorer)) for m in names])
        order = np.argsort(-np.nanmax(means, axis=0), kind="stable")
        shown, hidden = order[:max_features], max(0, len(order) - max_features)
        labels = [result.feature_names[i] for i in shown]
        if ax is None:
            width, height = chart_size(len(labels))
            if pair is None:
                _, ax = plt.subplots(figsize=(width, height), layout="constrained")
            else:
                _, (ax, difference_ax) = plt.subplots(
                    1,
                    2,
                    figsize=(width * 1.6, height),
                    sharey=True,
                    width_ratios=[3, 2],
                    layout="constrained",
                )
        positions = np.arange(len(labels))[::-1]
        # The models' dots spread within a feature's row, in the models' order.
        offsets = np.linspace(0.25, -0.25, len(names)) if len(names) > 1 else [0.0]
        self.markers_ = {}
        for i, name in enumerate(names):
            self.markers_[name] = ax.errorbar(
                means[i, shown],
                positions + offsets[i],
                xerr=stds[i, shown],
                fmt="o",
                color=f"C{i}",
                capsize=2,
                label=name,
            )
        ax.set_yticks(positions, labels=labels)
        ax.axvline(0, color="0.3", linewidth=0.8, linestyle="--")
        ax.set_xlabel(f"Decrease in {scorer} when permuted (mean ± std)")
        ax.legend(fontsize="small", loc="best")
        title = (
            f"{len(names)} models, {result.n_repeats_done} repeats, same permutations"
        )
        if hidden:
            title += f" ({hidden} features hidden)"
        ax.set_title(title, fontsize="medium")
        self.difference_: PairedDifference | None = None
        self.difference_markers_: list[Any] = []
        self.difference_ax_: Axes | None = None
        if pair is not None and difference_ax is not None:
            first, second = pair
            self.difference_ = result.paired_difference(first, second, scorer)
            self._draw_difference(difference_ax, positions, shown)
            self.difference_ax_ = difference_ax
        self.ax_ = ax
        self.figure_ = ax.figure
        return self

    def _pair(self, difference):
        """The two models whose difference is drawn, or None."""
        names = self.result.model_names
        if difference is False or len(names) < 2:
            return None
        if difference is True:
            return names[0], names[1]
        if (
            not isinstance(difference, (tuple, list))
            or len(difference) != 2
            or any(d not in names for d in difference)
        ):
            raise ValueError(
                "difference must be True, False or two of the models "
                f"{list(names)}; got {difference!r}."
            )
        return difference[0], difference[1]

    def _draw_difference(self, ax, positions, shown):
        paired = self.difference_
        mean = paired.mean[shown]
        bounds = paired.interval[shown]
        differs = paired.differs[shown]
        finite = np.isfinite(bounds).all(axis=1)
        low = np.where(finite, mean - bounds[:, 0], 0.0)
        high = np.where(finite, bounds[:, 1] - mean, 0.0)
        for flagged, style in ((True, "k"), (False, "0.6")):
            rows = differs == flagged
            self.difference_markers_.append(
                ax.errorbar(
                    mean[rows],
                    positions[rows],
                    xerr=[low[rows], high[rows]],
                    fmt="D" if flagged else "d",
                    color=style,
                    mfc=style if flagged else "none",
                    capsize=3,
                    label="interval excludes 0" if flagged else "includes 0",
                )
            )
        ax.axvline(0, color="0.3", linewidth=0.8, linestyle="--")
        first, second = paired.models
        level = round(100 * paired.confidence_level)
        ax.set_xlabel(f"{first} − {second} ({level} % t-interval over repeats)")
        ax.set_title(
            f"Paired difference: {int(paired.differs.sum())} features differ",
            fontsize="medium",
        )
        ax.legend(fontsize="small", loc="best")


def _mean(importances):
    if importances.shape[1] == 0:
        return np.zeros(len(importances))
    return np.asarray(importances, dtype=float).mean(axis=1)


def _std(importances):
    if importances.shape[1] == 0:
        return np.zeros(len(importances))
    return np.asarray(importances, dtype=float).std(axis=1)
