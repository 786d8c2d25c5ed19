"""The several-model Effects panel as a matplotlib Figure, drawn from its
`to_frame()` (what the panel draws): every model's curve on one axis; with
ICE curves, a panel per model on one y scale; a pair's surfaces, a panel per
model with one colour scale."""

from __future__ import annotations

import numpy as np

from .._text import mpl_name
from ._figures import new_figure


def _y_label(centered, ale=False):
    if ale:
        return "accumulated local effect"
    label = "partial dependence"
    return f"{label}, change from the first grid value" if centered else label


def _curves(frame, feature, centered, column):
    figure = new_figure((6.4, 4.0))
    ax = figure.subplots()
    for name, rows in frame.groupby("model", sort=False):
        ax.plot(rows[feature], rows[column], label=mpl_name(name))
    ax.set_xlabel(mpl_name(feature))
    ax.set_ylabel(_y_label(centered, column == "ale"))
    ax.legend(title="model")
    return figure


def _ice(frame, feature, centered):
    models = list(frame["model"].unique())
    figure = new_figure((3.2 * len(models), 3.6))
    axes = np.atleast_1d(figure.subplots(1, len(models), sharey=True, squeeze=False))[0]
    for ax, name in zip(axes, models, strict=True):
        rows = frame[frame["model"] == name]
        for _, curve in rows.groupby("row", sort=False):
            ax.plot(curve[feature], curve["individual"], color="C0", alpha=0.15, lw=0.6)
        first = rows[rows["row"] == rows["row"].iloc[0]]
        ax.plot(first[feature], first["average"], color="C1", lw=2, label="average")
        ax.set_title(mpl_name(name))
        ax.set_xlabel(mpl_name(feature))
    axes[0].set_ylabel(_y_label(centered))
    axes[0].legend()
    return figure


def _ticks(set_ticks, values):
    """At most six of a grid's values as tick labels, at their cells."""
    positions = range(0, len(values), max(1, len(values) // 6))
    labels = [
        f"{values[k]:.3g}" if isinstance(values[k], float) else mpl_name(values[k])
        for k in positions
    ]
    set_ticks(list(positions), labels)


def _surfaces(frame, features, column):
    from matplotlib.colors import Normalize

    models = list(frame["model"].unique())
    # One colour scale over every model's surface, as the panel draws them.
    norm = Normalize(np.nanmin(frame[column]), np.nanmax(frame[column]))
    figure = new_figure((3.4 * len(models) + 0.8, 3.4))
    axes = figure.subplots(1, len(models), squeeze=False)[0]
    image = None
    for ax, name in zip(axes, models, strict=True):
        rows = frame[frame["model"] == name]
        x = rows[features[0]].unique()
        y = rows[features[1]].unique()
        values = rows[column].to_numpy(float).reshape(len(x), len(y))
        image = ax.imshow(
            values.T, origin="lower", aspect="auto", norm=norm, cmap="viridis"
        )
        _ticks(ax.set_xticks, x)
        _ticks(ax.set_yticks, y)
        ax.set_title(mpl_name(name))
        ax.set_xlabel(mpl_name(features[0]))
    axes[0].set_ylabel(mpl_name(features[1]))
    figure.colorbar(image, ax=list(axes), label=_y_label(False, column == "ale"))
    return figure


def models_figure(frame, features, *, individual, centered, ale):
    """The Figure of `frame` (ModelsEffects.to_frame())."""
    column = "ale" if ale else "average"
    if len(features) == 2:
        return _surfaces(frame, features, column)
    if individual:
        return _ice(frame, features[0], centered)
    return _curves(frame, features[0], centered, column)
