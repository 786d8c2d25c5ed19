"""Importance measures side by side: a dot plot on one normalized scale."""

import numpy as np

from ..inspection import compare_importances
from ..inspection._comparison.comparison import normalized_measures


class ImportanceComparisonDisplay:
    """What MDI, ESL relative importance and permutation importance (train,
    test) say about each feature, on one normalized scale.

    ``__init__`` only stores the table of :func:`~inspectwidgets.compare_importances`;
    :meth:`from_estimator` computes it; :meth:`plot` draws.

    Attributes
    ----------
    figure_, ax_ : matplotlib Figure and Axes
    """

    def __init__(self, frame):
        self.frame = frame

    @classmethod
    def from_estimator(
        cls, estimator, X_train, y_train, X_test, y_test, *, ax=None, **kwargs
    ):
        """Compare (keyword arguments as in ``compare_importances``) and plot."""
        frame = compare_importances(
            estimator, X_train, y_train, X_test, y_test, **kwargs
        )
        return cls(frame).plot(ax=ax)

    def plot(self, *, ax=None):
        import matplotlib.pyplot as plt

        frame = self.frame
        if ax is None:
            _, ax = plt.subplots(
                figsize=(7, 1.4 + 0.35 * len(frame)), layout="constrained"
            )
        rows = np.arange(len(frame))[::-1]
        measures = normalized_measures(frame)
        offsets = (
            np.linspace(-0.25, 0.25, len(measures)) if len(measures) > 1 else [0.0]
        )
        for (_, label, values, std), offset in zip(measures, offsets, strict=True):
            ax.errorbar(
                values,
                rows + offset,
                xerr=std,
                fmt="o",
                markersize=5,
                capsize=2,
                label=label,
            )
        flagged = [
            f"{name} *" if note else name
            for name, note in zip(frame.index, frame["notes"], strict=True)
        ]
        ax.set_yticks(rows, labels=flagged)
        ax.axvline(0, color="0.3", linewidth=0.8, linestyle="--")
        ax.set_xlabel("importance / largest importance of that measure")
        ax.legend(loc="lower right", fontsize="small")
        title = "Importance measures compared"
        if frame["notes"].astype(bool).any():
            title += " (* flagged: see the table's notes)"
        ax.set_title(title, fontsize="medium")
        self.ax_, self.figure_ = ax, ax.figure
        return self
