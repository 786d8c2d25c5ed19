"""The paired differences a figure of several models' importances drew
(`PermutationComparisonDisplay` with several pairs, the inspector's
`figure("importance")`), read back from its matplotlib artists alone: the
markers' offsets, the whiskers' segments, the legend's names; no pixels."""

import numpy as np
from matplotlib.colors import to_rgba


def drawn_pairs(figure):
    """`{(first, second): pair}` in the legend's order, each pair a dict:
    `features` (the feature of each mark, from the importance panel's tick
    labels), `mean`, `low`, `high` (the whiskers' ends), `flagged` (solid
    marks), `offsets` (each mark's distance from its row), `color`."""
    ax, difference_ax = figure.axes[:2]
    ticks = ax.get_yticks()
    labels = [label.get_text() for label in ax.get_yticklabels()]
    names = [text.get_text() for text in difference_ax.get_legend().get_texts()]
    assert names[-1] == "hollow: the interval includes 0", names
    pairs = [tuple(name.split(": ")[0].split(" − ")) for name in names[:-1]]
    containers = difference_ax.containers
    assert len(containers) == 2 * len(pairs), (len(containers), pairs)
    drawn = {}
    for k, pair in enumerate(pairs):
        parts = [_marks(c, flagged, ticks, labels) for c, flagged in zip(
            containers[2 * k : 2 * k + 2], (True, False), strict=True
        )]  # fmt: skip
        pair_marks = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
        colors = {
            to_rgba(c.lines[0].get_color()) for c in containers[2 * k : 2 * k + 2]
        }
        assert len(colors) == 1, (pair, colors)
        drawn[pair] = {**pair_marks, "color": colors.pop()}
    return drawn


def _marks(container, flagged, ticks, labels):
    marker = container.lines[0]
    x, y = np.asarray(marker.get_xydata(), dtype=float).reshape(-1, 2).T
    # Solid marks are the flagged ones, hollow ones the others.
    solid = marker.get_markerfacecolor() != "none"
    assert solid == flagged, (marker.get_markerfacecolor(), flagged)
    [whiskers] = container.lines[2]
    segments = np.asarray(whiskers.get_segments(), dtype=float).reshape(-1, 2, 2)
    assert np.array_equal(segments[:, 0, 1], y) and np.array_equal(segments[:, 1, 1], y)
    row = np.abs(y[:, None] - ticks[None, :]).argmin(axis=1)
    return {
        "features": np.array([labels[r] for r in row], dtype=object),
        "mean": x,
        "low": segments[:, 0, 0],
        "high": segments[:, 1, 0],
        "flagged": np.full(len(x), flagged),
        "offsets": y - ticks[row],
    }
