"""The permutation widget's chart as the front end draws it: every scorer's
top features as binary arrays, a conditional result's subgroup rules, and a
split's subgroups (grouped bars)."""

import numpy as np

from ..inspection._partial_dependence import value_label
from ._serialization import binary_array


def chart_payload(result, max_features):
    """What the front end draws: for every scorer its top features, as binary
    float32 arrays, so switching scorer needs no round trip to Python."""
    scorers, drawn = {}, {}
    for name in result.scorer_names:
        shown, hidden = result.top(name, max_features)
        importances = result.importances(name)[shown]
        done = importances.shape[1]
        mean = importances.mean(axis=1) if done else np.zeros(len(shown))
        std = importances.std(axis=1) if done else np.zeros(len(shown))
        drawn.update(dict.fromkeys(result.feature_names[i] for i in shown))
        scorers[name] = {
            "features": [result.feature_names[i] for i in shown],
            "n_hidden": int(hidden),
            "baseline": float(result.baseline_scores[name]),
            "greater_is_better": True,
            "mean": binary_array(mean),
            "std": binary_array(std),
            "permuted_mean": binary_array(result.baseline_scores[name] - mean),
            "values": binary_array(importances),
        }
        if result.n_bootstrap is not None:
            bounds = result.interval(name)[shown]
            scorers[name]["interval_low"] = binary_array(bounds[:, 0])
            scorers[name]["interval_high"] = binary_array(bounds[:, 1])
    interval_label = ""
    if result.n_bootstrap is not None:
        interval_label = (
            f"{100 * result.confidence_level:g} % interval over resampled held-out rows"
        )
    return {
        "interval_label": interval_label,
        "repeats_done": result.n_repeats_done,
        "n_repeats": result.n_repeats,
        "n_features": len(result.feature_names),
        "n_pending": len(result.pending_features),
        "scorers": scorers,
        "method": "marginal" if result.subgroups is None else "conditional",
        # The subgroups' rules of the features drawn, for their tooltips.
        "subgroups": subgroups_payload(result, drawn),
    }


def subgroups_payload(result, features):
    """Each of `features`' subgroups as ``[rule, size]`` pairs, in the
    engine's order, for the tooltips; {} for a marginal result."""
    if result.subgroups is None:
        return {}
    return {
        name: [[group.rule, int(group.size)] for group in result.subgroups[name]]
        for name in features
    }


def subgroup_chart_payload(result, max_features):
    """A SubgroupImportanceResult as the grouped bars draw it: the
    subgroups (labels, sizes, the small ones) and, for every scorer, its
    top features by the size-weighted mean (`result.top`), each subgroup's
    mean and std as (subgroups, features) float32 arrays, NaN where a
    subgroup has no number (no repeat yet, or a score undefined on it)."""
    scorers = {}
    for name in result.scorer_names:
        shown, hidden = result.top(name, max_features)
        scorers[name] = {
            "features": [result.feature_names[i] for i in shown],
            "n_hidden": int(hidden),
            "baselines": [float(r.baseline_scores[name]) for r in result.results],
            "mean": binary_array(result.importances_mean(name)[:, shown]),
            "std": binary_array(result.importances_std(name)[:, shown]),
        }
    return {
        "interval_label": "",
        "repeats_done": result.n_repeats_done,
        "n_repeats": result.n_repeats,
        "n_features": len(result.feature_names),
        "n_pending": len(result.pending_features),
        "scorers": scorers,
        "method": "marginal",
        "subgroups": {},
        "groups": {
            "labels": [value_label(label) for label in result.labels],
            "sizes": [int(size) for size in result.sizes],
            "n_permuted": [int(n) for n in result.n_permuted],
            "small": [bool(small) for small in result.small],
            "min_size": int(result.min_size),
        },
    }
