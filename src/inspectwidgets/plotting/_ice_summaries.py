"""What the effect Displays draw beside one curve: the ICE's percentile
bands, subgroups' curves (partial dependence and ALE), and ICE clusters with
their rules."""

from __future__ import annotations

import textwrap

import numpy as np

from .._text import mpl_name, mpl_text, visible
from ..inspection import subgroup_partial_dependence
from ..inspection._partial_dependence import value_label

# Subgroups' and clusters' curves: tab10 without the ICE's blue and the
# average's orange.
SUBGROUP_COLORS = (
    "tab:green", "tab:red", "tab:purple", "tab:brown",
    "tab:pink", "tab:olive", "tab:cyan", "tab:gray",
)  # fmt: skip

# A rule in the legend is wrapped at this many characters.
RULE_WIDTH = 48


def draw_bands(display, ax, x, bands, categorical):
    """The ICE's 5-95% and 25-75% bands at `x` (`bands`: the five default
    percentiles by grid point), and their median dashed."""
    low, q1, median, q3, high = bands
    if categorical:  # bars at each category: nothing lies between two
        display.bands_ += [
            ax.vlines(x, low, high, color="tab:blue", alpha=0.3, lw=3),
            ax.vlines(x, q1, q3, color="tab:blue", alpha=0.6, lw=8),
        ]
    else:
        display.bands_ += [
            ax.fill_between(
                x, low, high, color="tab:blue", alpha=0.15, lw=0, label="ICE 5-95%"
            ),
            ax.fill_between(
                x, q1, q3, color="tab:blue", alpha=0.3, lw=0, label="ICE 25-75%"
            ),
        ]
    style = dict(marker="_", ls="none", ms=12) if categorical else dict(ls="--")
    display.lines_ += ax.plot(
        x, median, color="tab:blue", lw=1.2, label="ICE median", **style
    )


def draw_subgroups(display, ax, x, done, output, keep, missing_at, categorical):
    """Each subgroup's partial dependence over the overall one, labelled
    with its size; few rows: dashed grey. At the missing point (if any), a
    small diamond per subgroup."""
    groups = subgroup_partial_dependence(
        display.result, display._subgroups, sample_weight=display._sample_weight
    )
    for i, label in enumerate(groups.labels):
        curve = groups.average[i, output]
        small = bool(groups.small[i])
        color = "0.6" if small else SUBGROUP_COLORS[i % len(SUBGROUP_COLORS)]
        name = f"{visible(value_label(label))} (n={groups.sizes[i]:,}"
        name += ", few rows)" if small else ")"
        style = dict(marker="o", ls="none") if categorical else {}
        display.subgroup_lines_ += ax.plot(
            x[done], curve[keep][done], color=color, lw=1.6,
            ls="--" if small and not categorical else "-", label=mpl_text(name),
            **style,
        )  # fmt: skip
        if missing_at is not None and display.result.done[-1]:
            display.subgroup_lines_ += ax.plot(
                [missing_at], [curve[-1]], "D", color=color, ms=5
            )


def draw_clusters(display, ax, x, done, output, keep, categorical):
    """The centered average, and each cluster's mean centered curve labelled
    with its count and its first rule (the leaf covering most of its rows)."""
    clusters = display.clusters_
    result = display.result
    if clusters.labels.shape[0] != result.individual.shape[1]:
        raise ValueError(
            f"clusters: of {clusters.labels.shape[0]} curves; this result has "
            f"{result.individual.shape[1]}. Pass ice_clusters(result, X)."
        )
    style = dict(marker="o", ls="none") if categorical else {}
    curves = result.individual[output]
    average = (curves - curves[:, :1]).mean(axis=0)
    display.cluster_lines_ += ax.plot(
        x[done], average[keep][done], color="tab:orange", lw=2.5,
        label=f"all rows (n={len(curves):,})", **style,
    )  # fmt: skip
    for c in range(clusters.n_clusters):
        name = f"cluster {c} (n={clusters.sizes[c]:,})"
        if clusters.rules is not None:
            rules = clusters.rules[c]
            if rules:
                first = rules[0]
                name += "\n" + textwrap.fill(first.rule, RULE_WIDTH)
                name += f"\n  ({first.precision:.0%} of its rows in the cluster"
                name += f"; {len(rules) - 1} more rules)" if len(rules) > 1 else ")"
            else:
                name += "\n(no rule of the tree tells it apart)"
        curve = clusters.centered_average[c, output]
        display.cluster_lines_ += ax.plot(
            x[done], curve[keep][done], lw=1.8,
            color=SUBGROUP_COLORS[c % len(SUBGROUP_COLORS)], label=mpl_text(name),
            **style,
        )  # fmt: skip
    display.lines_ += display.cluster_lines_[:1]


def draw_subgroup_effects(ax, groups, target):
    """Each subgroup's centred ALE of one feature (`groups`: a
    SubgroupAccumulatedLocalEffects), labelled with its size; small ones
    dashed grey; a subgroup without an ALE named in the legend. Returns the
    lines."""
    from ._partial_dependence import output_index, y_label

    lines = []
    computed = [r for r in groups.results if r is not None]
    if computed and len(computed[0].edges) != 1:
        raise ValueError(
            "A subgroup result is drawn as curves of one feature; this one is "
            f"of {list(computed[0].feature_names)}."
        )
    for i, (label, result) in enumerate(
        zip(groups.labels, groups.results, strict=True)
    ):
        small = bool(groups.small[i])
        name = f"{visible(value_label(label))} (n={groups.sizes[i]:,}"
        name += ", few rows)" if small else ")"
        if result is None:
            lines += ax.plot(
                [], [], color="0.6", ls=":", label=mpl_text(name + ": no ALE")
            )
            continue
        output = output_index(result, target, result.centered.shape[0])
        edges = result.edges[0]
        categorical = result.categorical[0]
        x = np.arange(len(edges)) if categorical else np.asarray(edges, dtype=float)
        lines += ax.plot(
            x, result.centered[output], lw=1.8,
            color="0.6" if small else SUBGROUP_COLORS[i % len(SUBGROUP_COLORS)],
            ls="--" if small else "-", label=mpl_text(name),
            **(dict(marker="o") if categorical else {}),
        )  # fmt: skip
        if categorical:
            ax.set_xticks(x, labels=[mpl_name(c) for c in edges])
    what = "accumulated local effect (centred), by subgroup"
    if computed:
        first = computed[0]
        ax.set_xlabel(mpl_name(first.feature_names[0]))
        output = output_index(first, target, first.centered.shape[0])
        what = y_label(first, output, what)
    ax.set_ylabel(what)
    ax.legend(loc="best", fontsize="small")
    return lines
