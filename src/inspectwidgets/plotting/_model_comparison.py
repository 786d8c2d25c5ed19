"""Several models' permutation importances as one matplotlib chart: a dot
per model and feature with the repeats' spread, and beside it the paired
differences between pairs of models with their intervals over repeats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Self, TypeAlias

import numpy as np
from numpy.typing import ArrayLike

from .._text import mpl_name, mpl_text, visible
from ..inspection import (
    PairedDifference,
    PermutationComparisonResult,
    compare_permutation_importance,
)
from ..inspection._core import Data, Models
from ._permutation import chart_size

if TYPE_CHECKING:
    from matplotlib.axes import Axes

Pairs: TypeAlias = tuple[str, str] | Sequence[tuple[str, str]] | bool
"""`difference`: one pair of model names, several, True (the first two
models) or False (none)."""


class PermutationComparisonDisplay:
    """Several models' permutation importances on one chart.

    Left, one row per feature (the most important for any model first): each
    model's mean importance as a dot with the repeats' standard deviation as
    whiskers, one colour per model. Right, on the same rows, the paired
    difference between two models (``first`` minus ``second``) per feature
    with its t-interval over repeats (:class:`~inspectwidgets.PairedDifference`);
    a difference whose interval excludes 0 is drawn solid, others hollow and
    grey. Several pairs (``difference=[("a", "b"), ("a", "c")]``) are drawn
    side by side within each feature's row, one colour per pair (the model
    that tells the pairs apart keeps its dot's colour), solid where the
    interval excludes 0 and hollow where it does not, a legend naming each
    pair with how many features differ.

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
        The paired differences' axes (None with one model, or
        ``difference=False``).
    markers_ : dict of str to matplotlib ErrorbarContainer
        Each model's dots and whiskers.
    differences_ : list of PairedDifference
        The differences drawn, one per pair, in the order given.
    difference_ : PairedDifference or None
        The first of `differences_` (the one drawn, with one pair).
    difference_markers_ : list of matplotlib ErrorbarContainer
        Pair by pair in the order of `differences_`: the features whose
        interval excludes 0, then the others (two per pair).
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
        difference: Pairs = True,
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
        difference: Pairs = True,
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
        difference: Pairs = True,
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
        difference : (str, str), list of (str, str) or bool, default=True
            The pairs of models whose paired difference is drawn beside
            (first minus second), in the importances' feature order: one
            pair ``("a", "b")``, or several ``[("a", "b"), ("a", "c")]``;
            True: the first two models; False: none.
        ax, difference_ax : matplotlib Axes, default=None
            Axes to draw on; a new figure is created when `ax` is None.
            Give `difference_ax` sharing `ax`'s y axis: the differences are
            drawn on the importances' rows.

        Returns
        -------
        self

        Examples
        --------
        The first model against each other one:

        >>> from sklearn.datasets import load_diabetes
        >>> from sklearn.ensemble import RandomForestRegressor
        >>> from sklearn.linear_model import Ridge
        >>> from sklearn.tree import DecisionTreeRegressor
        >>> from inspectwidgets import (
        ...     PermutationComparisonDisplay,
        ...     compare_permutation_importance,
        ... )
        >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
        >>> models = {
        ...     "forest": RandomForestRegressor(20, random_state=0).fit(X, y),
        ...     "ridge": Ridge().fit(X, y),
        ...     "tree": DecisionTreeRegressor(max_depth=3).fit(X, y),
        ... }
        >>> result = compare_permutation_importance(
        ...     models, X, y, n_repeats=5, random_state=0
        ... )
        >>> display = PermutationComparisonDisplay(result).plot(
        ...     difference=[("forest", "ridge"), ("forest", "tree")]
        ... )
        >>> [paired.models for paired in display.differences_]
        [('forest', 'ridge'), ('forest', 'tree')]
        >>> len(display.difference_markers_)
        4
        """
        result = self.result
        scorer = result._first._scorer(scorer)
        pairs = self._pairs(difference)
        names = result.model_names
        means = np.array([_mean(result.importances(m, scorer)) for m in names])
        stds = np.array([_std(result.importances(m, scorer)) for m in names])
        order = np.argsort(-np.nanmax(means, axis=0), kind="stable")
        shown, hidden = order[:max_features], max(0, len(order) - max_features)
        labels = [result.feature_names[i] for i in shown]
        if ax is None:
            ax, difference_ax = _new_axes(len(labels), len(pairs))
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
                label=mpl_name(name),
            )
        ax.set_yticks(positions, labels=[mpl_name(label) for label in labels])
        ax.axvline(0, color="0.3", linewidth=0.8, linestyle="--")
        ax.set_xlabel(mpl_text(f"Decrease in {scorer} when permuted (mean ± std)"))
        ax.legend(fontsize="small", loc="best")
        title = (
            f"{len(names)} models, {result.n_repeats_done} repeats, same permutations"
        )
        if hidden:
            title += f" ({hidden} features hidden)"
        ax.set_title(title, fontsize="medium")
        self.differences_: list[PairedDifference] = []
        self.difference_markers_: list[Any] = []
        self.difference_ax_: Axes | None = None
        if pairs and difference_ax is not None:
            self.differences_ = [
                result.paired_difference(first, second, scorer)
                for first, second in pairs
            ]
            self._draw_differences(difference_ax, positions, shown)
            self.difference_ax_ = difference_ax
        self.difference_: PairedDifference | None = (
            self.differences_[0] if self.differences_ else None
        )
        self.ax_ = ax
        self.figure_ = ax.figure
        return self

    def _pairs(self, difference):
        """The pairs of models whose differences are drawn: a list of
        (first, second), empty for none."""
        names = self.result.model_names
        if difference is False or (difference is True and len(names) < 2):
            return []
        if difference is True:
            return [(names[0], names[1])]
        one_pair = isinstance(difference, (tuple, list)) and all(
            isinstance(name, str) for name in difference
        )
        pairs = [difference] if one_pair else difference
        if not isinstance(pairs, (tuple, list)):
            reason = "expected a pair or a list of pairs"
            raise ValueError(_pairs_error(names, difference, reason))
        checked = []
        for pair in pairs:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                reason = f"{pair!r} is not a pair of model names"
                raise ValueError(_pairs_error(names, difference, reason))
            for name in pair:
                if name not in names:
                    reason = f"{name!r} is not one of the models"
                    raise ValueError(_pairs_error(names, difference, reason))
            first, second = pair
            if first == second:
                reason = f"{first!r} is paired with itself"
                raise ValueError(_pairs_error(names, difference, reason))
            if (first, second) in checked:
                reason = f"the pair {(first, second)!r} is repeated"
                raise ValueError(_pairs_error(names, difference, reason))
            checked.append((first, second))
        return checked

    def _draw_differences(self, ax, positions, shown):
        differences = self.differences_
        level = round(100 * differences[0].confidence_level)
        interval = f"{level} % t-interval over repeats"
        if len(differences) > 1:
            self._draw_pairs(ax, positions, shown)
            ax.set_xlabel(f"Paired difference ({interval})")
        else:
            [paired] = differences
            for flagged, style in ((True, "k"), (False, "0.6")):
                self.difference_markers_.append(
                    _difference_bars(ax, paired, shown, positions, flagged, style)
                )
            first, second = paired.models
            ax.set_xlabel(
                mpl_text(f"{visible(first)} − {visible(second)} ({interval})")
            )
            ax.set_title(
                f"Paired difference: {int(paired.differs.sum())} features differ",
                fontsize="medium",
            )
            ax.legend(fontsize="small", loc="best")
        ax.axvline(0, color="0.3", linewidth=0.8, linestyle="--")

    def _draw_pairs(self, ax, positions, shown):
        """Several pairs: each in its colour, spread within a feature's row
        as the models' dots are. The legend naming them stands above the
        panel, in place of its title: inside, it would hide marks wherever
        the pairs fill the panel."""
        from matplotlib.lines import Line2D

        differences = self.differences_
        colors = _pair_colors(self.result.model_names, differences)
        offsets = np.linspace(0.25, -0.25, len(differences))
        handles = []
        for paired, color, offset in zip(differences, colors, offsets, strict=True):
            for flagged in (True, False):
                self.difference_markers_.append(
                    _difference_bars(
                        ax, paired, shown, positions + offset, flagged, color
                    )
                )
            first, second = paired.models
            label = mpl_text(
                f"{visible(first)} − {visible(second)}: "
                f"{int(paired.differs.sum())} features differ"
            )
            handles.append(
                Line2D([], [], color=color, marker="D", ls="none", label=label)
            )
        hollow = "hollow: the interval includes 0"
        handles.append(
            Line2D([], [], color="0.4", marker="d", mfc="none", ls="none", label=hollow)
        )
        ax.legend(
            handles=handles,
            title=f"Paired differences of {len(differences)} pairs",
            title_fontsize="medium",
            fontsize="small",
            loc="lower center",
            bbox_to_anchor=(0.5, 1.0),
            frameon=False,
        )


def _new_axes(n_features, n_pairs):
    """A new figure's importances' axes, and beside them, sharing their y
    axis, the differences' axes (None without a pair)."""
    import matplotlib.pyplot as plt

    width, height = chart_size(n_features)[0], comparison_height(n_features, n_pairs)
    if not n_pairs:
        _, ax = plt.subplots(figsize=(width, height), layout="constrained")
        return ax, None
    _, (ax, difference_ax) = plt.subplots(
        1,
        2,
        figsize=(width * 1.6, height),
        sharey=True,
        width_ratios=[3, 2],
        layout="constrained",
    )
    return ax, difference_ax


def comparison_height(n_features: int, n_pairs: int) -> float:
    """Figure height (inches): a readable row per feature with one mark per
    pair in it, and above the panel room for the legend of several pairs.
    One pair or none: the single-model chart's height."""
    height = 1.2 + max(0.3, 0.1 * n_pairs) * max(n_features, 1)
    if n_pairs > 1:
        height += 0.25 * (n_pairs + 2)
    return height


def _pairs_error(names, difference, reason):
    return (
        "difference must be True, False, two of the models "
        f"{list(names)} or a list of such pairs; got {difference!r}: {reason}."
    )


def _pair_colors(names, differences):
    """Each pair's colour: the colour of the model that tells the pairs
    apart (the second when every pair's second differs, as the reviewed
    model against each other one; else the first), the colours after the
    models' where neither does."""
    firsts = [names.index(paired.models[0]) for paired in differences]
    seconds = [names.index(paired.models[1]) for paired in differences]
    for models in (seconds, firsts):
        if len(set(models)) == len(models):
            return [f"C{i}" for i in models]
    return [f"C{len(names) + k}" for k in range(len(differences))]


def _difference_bars(ax, paired, shown, positions, flagged, color):
    """One pair's features whose interval excludes 0 (`flagged`: solid
    diamonds) or includes it (hollow), with their intervals as whiskers
    (none where there is no interval: fewer than 2 repeats)."""
    mean = paired.mean[shown]
    bounds = paired.interval[shown]
    rows = paired.differs[shown] == flagged
    finite = np.isfinite(bounds).all(axis=1)
    low = np.where(finite, mean - bounds[:, 0], 0.0)
    high = np.where(finite, bounds[:, 1] - mean, 0.0)
    return ax.errorbar(
        mean[rows],
        positions[rows],
        xerr=[low[rows], high[rows]],
        fmt="D" if flagged else "d",
        color=color,
        mfc=color if flagged else "none",
        capsize=3,
        label="interval excludes 0" if flagged else "includes 0",
    )


def _mean(importances):
    if importances.shape[1] == 0:
        return np.zeros(len(importances))
    return np.asarray(importances, dtype=float).mean(axis=1)


def _std(importances):
    if importances.shape[1] == 0:
        return np.zeros(len(importances))
    return np.asarray(importances, dtype=float).std(axis=1)
