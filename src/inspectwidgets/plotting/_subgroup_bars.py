"""Permutation importance by subgroup: grouped bars, a legend with the
subgroups' sizes, small subgroups greyed."""

from __future__ import annotations

import numpy as np

from .._text import mpl_name, mpl_text, visible
from ..inspection._partial_dependence import value_label
from ._ice_summaries import SUBGROUP_COLORS


def draw_subgroup_bars(ax, result, scorer, max_features):
    """Draw `result` (a SubgroupImportanceResult) on `ax`: for each of the
    `max_features` features of the largest size-weighted mean importance,
    one bar per subgroup (mean ± std over the repeats). Returns the bars,
    and each subgroup's by its label."""
    scorer = result.results[0]._scorer(scorer)
    mean = result.importances_mean(scorer)  # (groups, features)
    std = result.importances_std(scorer)
    shown, hidden = result.top(scorer, max_features)
    n_groups = len(result.labels)
    height = 0.8 / n_groups
    positions = np.arange(len(shown))[::-1]
    bars, by_label = [], {}
    for g, label in enumerate(result.labels):
        small = bool(result.small[g])
        name = f"{visible(value_label(label))} (n={result.sizes[g]:,})"
        if small:
            name += " - few rows"
        container = ax.barh(
            positions + 0.4 - height * (g + 0.5),
            np.nan_to_num(mean[g, shown]),
            height=height,
            xerr=np.nan_to_num(std[g, shown]),
            color="0.75" if small else SUBGROUP_COLORS[g % len(SUBGROUP_COLORS)],
            hatch="//" if small else None,
            edgecolor="0.5" if small else None,
            capsize=2,
            label=mpl_text(name),
        )
        by_label[label] = container
        bars += list(container)
    ax.set_yticks(positions, labels=[mpl_name(result.feature_names[i]) for i in shown])
    ax.axvline(0, color="0.3", linewidth=0.8, linestyle="--")
    ax.set_xlabel(mpl_text(f"Decrease in {scorer} when permuted within the subgroup"))
    ax.legend(
        fontsize="small",
        title="subgroup (rows)",
        title_fontsize="small",
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
    )
    ax.set_title(_title(result, hidden), fontsize="medium")
    return bars, by_label


def _title(result, hidden):
    title = (
        f"Permutation importance by subgroup ({result.n_repeats_done} of "
        f"{result.n_repeats} repeats)\nbars: ± std over the repeats' shuffles "
        "of each subgroup's rows"
    )
    if result.small.any():
        title += (
            f"\ngreyed: fewer than {result.min_size} rows, an estimate from few rows"
        )
    if hidden:
        title += f"\n{hidden} more features not shown"
    return title
