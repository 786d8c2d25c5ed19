"""Importance measures side by side: a dot plot on one normalized scale."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

import numpy as np
from numpy.typing import ArrayLike

from .._text import mpl_name, mpl_text
from ..inspection._comparison import compare_importances, normalized_measures
from ..inspection._core import Data, Estimator

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes


class ImportanceComparisonDisplay:
    """What MDI, ESL relative importance and permutation importance (train,
    test) say about each feature, on one normalized scale.

    Rows keep the table's order (its ``sort_by``). Permutation whiskers span
    the interval (mean ± 2 std over the repeats); values whose interval
    includes 0 are drawn hollow: within noise, however long the normalized
    scale makes them look.

    ``__init__`` only stores the table of :func:`~inspectwidgets.compare_importances`;
    :meth:`from_estimator` computes it; :meth:`plot` draws.

    Attributes
    ----------
    figure_, ax_ : matplotlib Figure and Axes
    within_noise_ : dict of str to Line2D
        The hollow markers over the values within noise, by measure key
        ("permutation_train", "permutation_test"), for measures with some.
    """

    def __init__(self, frame: pd.DataFrame) -> None:
        self.frame = frame

    @classmethod
    def from_estimator(
        cls,
        estimator: Estimator,
        X_train: Data,
        y_train: ArrayLike,
        X_test: Data,
        y_test: ArrayLike,
        *,
        ax: Axes | None = None,
        **kwargs: Any,
    ) -> Self:
        """Compare (keyword arguments as in ``compare_importances``) and plot."""
        frame = compare_importances(
            estimator, X_train, y_train, X_test, y_test, **kwargs
        )
        return cls(frame).plot(ax=ax)

    def plot(self, *, ax: Axes | None = None) -> Self:
        import matplotlib.pyplot as plt
        from matplotlib.lines import Line2D

        frame = self.frame
        if ax is None:
            _, ax = plt.subplots(
                # Wider than the chart: the legend sits beside it.
                figsize=(8.5, 1.6 + 0.35 * len(frame)),
                layout="constrained",
            )
        rows = np.arange(len(frame))[::-1]
        measures = normalized_measures(frame)
        offsets = (
            np.linspace(-0.25, 0.25, len(measures)) if len(measures) > 1 else [0.0]
        )
        self.within_noise_ = {}
        for measure, offset in zip(measures, offsets, strict=True):
            hollow = _draw_measure(ax, measure, rows + offset)
            if hollow is not None:
                self.within_noise_[measure.key] = hollow
        flagged = [
            f"{mpl_name(name)} *" if note else mpl_name(name)
            for name, note in zip(frame.index, frame["notes"], strict=True)
        ]
        ax.set_yticks(rows, labels=flagged)
        ax.axvline(0, color="0.3", linewidth=0.8, linestyle="--")
        ax.set_xlabel(
            "importance / largest importance of that measure\n"
            "(whiskers: mean ± 2 std over repeats)"
        )
        handles, labels = ax.get_legend_handles_labels()
        if self.within_noise_:
            proxy = Line2D(
                [], [], marker="o", color="0.4", markerfacecolor="none", ls="none"
            )
            handles.append(proxy)
            labels.append("within noise (interval includes 0)")
        # Beside the axes, never over them: inside, it hid the very points a
        # reader is asked to compare (the lower rows, where features cancel).
        ax.legend(
            handles,
            labels,
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
            fontsize="small",
            frameon=False,
        )
        title = "Importance measures compared"
        if frame["notes"].astype(bool).any():
            title += " (* flagged: see the table's notes)"
        ax.set_title(title, fontsize="medium")
        self.ax_, self.figure_ = ax, ax.figure
        return self


def _draw_measure(ax, measure, rows):
    """One measure's dots and whiskers at heights `rows`; returns the hollow
    dots drawn over its features within noise, or None."""
    # Whiskers over the interval the flags rest on (none while it is
    # unknown), so a hollow dot's whisker crosses 0.
    xerr = None
    if measure.normalized_low is not None:
        xerr = np.array(
            [
                measure.normalized - measure.normalized_low,
                measure.normalized_high - measure.normalized,
            ]
        )
    drawn = ax.errorbar(
        measure.normalized,
        rows,
        xerr=xerr,
        fmt="o",
        markersize=5,
        capsize=2,
        label=mpl_text(measure.label),
    )
    if measure.within_noise is None or not measure.within_noise.any():
        return None
    # Hollow over the filled dot (above it: errorbar lifts its markers over
    # the default zorder, which had hidden the hollow ones under them): on
    # one normalized scale, noise would otherwise look as large as the top
    # feature.
    (hollow,) = ax.plot(
        measure.normalized[measure.within_noise],
        rows[measure.within_noise],
        "o",
        markersize=5,
        markerfacecolor=ax.get_facecolor(),
        markeredgecolor=drawn.lines[0].get_color(),
        linestyle="none",
        zorder=drawn.lines[0].get_zorder() + 0.1,
    )
    return hollow
