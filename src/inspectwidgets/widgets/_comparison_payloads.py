"""The comparison widget's traits as the front end draws them: the
measures, the per-class relative importance, the correlation matrix and
dendrogram, and the grouped permutation importance (numbers as binary
arrays)."""

import numpy as np

from ..inspection._comparison import (
    FLAG_EVIDENCE,
    WITHIN_NOISE,
    normalized_measures,
    per_class_relative_importance,
)
from ._serialization import binary_array


def measures_payload(frame, test, train, sort_by, note=""):
    """The measures view's trait: every measure in `frame`'s order, raw and
    normalized, with the intervals and "within noise" marks of the
    permutation measures and the intervals each flag rests on; `note` says
    why a measure is missing (`ComparisonPlan.note`)."""
    scorer = test.scorer_names[0]
    measures = []
    for measure in normalized_measures(frame, scorer=scorer):
        entry = {
            "key": measure.key,
            "label": measure.label,
            "units": measure.units,
            "values": binary_array(measure.raw),
            "normalized": binary_array(measure.normalized),
        }
        if measure.std is not None:
            entry.update(
                std=binary_array(measure.std),
                normalized_std=binary_array(measure.normalized_std),
                low=binary_array(measure.low),
                high=binary_array(measure.high),
                normalized_low=binary_array(measure.normalized_low),
                normalized_high=binary_array(measure.normalized_high),
                within_noise=binary_array(measure.within_noise),
            )
        measures.append(entry)
    return {
        "features": [str(f) for f in frame.index],
        "measures": measures,
        "notes": list(frame["notes"]),
        "flag_evidence": {flag: list(keys) for flag, keys in FLAG_EVIDENCE.items()},
        "within_noise_note": WITHIN_NOISE,
        "measures_note": note,
        "sort_by": sort_by,
        "repeats_done": test.n_repeats_done if train is None else train.n_repeats_done,
        "n_repeats": test.n_repeats,
        "scorer": scorer,
        "baseline_test": float(test.baseline_scores[scorer]),
        "baseline_train": (
            float(train.baseline_scores[train.scorer_names[0]])
            if train is not None
            else None
        ),
    }


def per_class_payload(estimator, n_columns):
    per_class = per_class_relative_importance(estimator, n_columns)
    if per_class is None:
        return {}
    classes, values = per_class
    names = getattr(estimator, "feature_names_in_", None)
    features = (
        [str(n) for n in names]
        if names is not None
        else [f"x{i}" for i in range(n_columns)]
    )
    return {
        "classes": [str(c) for c in classes],
        "features": features,
        "values": binary_array(values),
    }


def correlation_payload(clusters):
    if clusters is None:
        return {}
    from scipy.cluster import hierarchy

    order = hierarchy.leaves_list(clusters.linkage)
    return {
        "features": [str(clusters.feature_names[i]) for i in order],
        "matrix": binary_array(clusters.correlation[np.ix_(order, order)]),
        "linkage": binary_array(clusters.linkage),
        "leaf_order": [int(i) for i in order],
        # The height axis runs over every |ρ|, 1 (bottom) to 0 (top).
        "max_distance": 1.0,
    }


def groups_payload(correlation_threshold, result, groups):
    order, _ = result.top()
    importances = result.importances()[order]
    done = importances.shape[1]
    return {
        "correlation_threshold": float(correlation_threshold),
        "groups": [
            {
                "label": result.feature_names[i],
                "members": [str(m) for m in groups[result.feature_names[i]]],
            }
            for i in order
        ],
        "mean": binary_array(
            importances.mean(axis=1) if done else np.zeros(len(order))
        ),
        "std": binary_array(importances.std(axis=1) if done else np.zeros(len(order))),
        "repeats_done": result.n_repeats_done,
        "n_repeats": result.n_repeats,
        "scorer": result.scorer_names[0],
        "baseline": float(result.baseline_scores[result.scorer_names[0]]),
    }
