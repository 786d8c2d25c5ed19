"""The inspector header's scores as a figure: per scorer, the model's
held-out score beside the dummy's (and the other models' and each cohort's
where the header has them), the bad-model warning as the title."""

from __future__ import annotations

import textwrap

import numpy as np

from .._text import mpl_name, mpl_text

# Where the model barely beats the dummy, its bar takes the warning's colour.
_MODEL, _DUMMY, _OTHER, _BARELY, _COHORT = "C0", "0.6", "C2", "C1", "#9ecae1"


def draw_header_scores(figure, frame, warning=""):
    """Draw `frame` (``ModelInspector.to_frame("header")``) on `figure`: one
    axes per scorer, a horizontal bar per score the frame holds, and
    `warning` (the header's) as the title. Returns the axes."""
    scorers = list(dict.fromkeys(frame["scorer"]))
    axes = figure.subplots(1, len(scorers), squeeze=False)[0]
    if "cohort" in frame:
        whole = frame[frame["cohort"] == "all rows"]
        cohorts = frame[frame["cohort"] != "all rows"]
    else:
        whole, cohorts = frame, frame.iloc[:0]
    others = [
        c for c in frame.columns
        if c not in ("cohort", "n_rows", "scorer", "model", "dummy", "barely")
    ]  # fmt: skip
    for ax, scorer in zip(axes, scorers, strict=True):
        row = whole[whole["scorer"] == scorer].iloc[0]
        bars = [("model", row["model"], _BARELY if row["barely"] else _MODEL)]
        bars.append(("dummy", row["dummy"], _DUMMY))
        bars += [(mpl_name(other), row[other], _OTHER) for other in others]
        for _, cohort in cohorts[cohorts["scorer"] == scorer].iterrows():
            label = f"{mpl_name(cohort['cohort'])} (n = {int(cohort['n_rows']):,})"
            bars.append((label, cohort["model"], _COHORT))
        labels, values, colors = zip(*bars, strict=True)
        positions = np.arange(len(bars))[::-1]
        ax.barh(positions, np.nan_to_num(np.asarray(values, float)), color=colors)
        ax.set_yticks(positions, labels)
        for position, value in zip(positions, values, strict=True):
            finite = np.isfinite(value)
            # At the bar's end, outside it.
            right = not finite or value >= 0
            ax.annotate(
                f"{value:.3g}" if finite else "n/a",
                (value if finite else 0, position),
                xytext=(3 if right else -3, 0), textcoords="offset points",
                ha="left" if right else "right", va="center", fontsize="small",
            )  # fmt: skip
        ax.use_sticky_edges = False  # room for the labels beside 0 too
        ax.margins(x=0.2)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_xlabel(mpl_name(scorer))
    title = warning or "Held-out scores beside a dummy's"
    # About 11 characters of a medium title per inch of the figure.
    width = int(11 * figure.get_figwidth())
    figure.suptitle(mpl_text(textwrap.fill(title, width)), fontsize="medium")
    return axes
