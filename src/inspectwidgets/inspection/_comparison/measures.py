"""A comparison table's measures on one scale, for the charts (the Display and
the widget draw the same numbers)."""

import numpy as np
from sklearn.utils import Bunch

from .comparison import INTERVAL_STDS, MIN_INTERVAL_REPEATS
from .own_importances import OWN_MEASURES

#: What a hollow ("within noise") mark means, for the charts' legends.
WITHIN_NOISE = (
    f"hollow: within noise, the interval mean ± {INTERVAL_STDS} std includes 0 "
    f"(or fewer than {MIN_INTERVAL_REPEATS} repeats are done)"
)


def within_noise(low, high):
    """Whether each interval fails to exclude 0 (True where it is NaN: no
    evidence of a non-zero importance yet)."""
    low, high = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
    return ~((low > 0) | (high < 0))


#: (key, label, units) of each measure; a permutation measure's columns are
#: its key plus _mean, _std, _low and _high, and its units name the scorer.
MEASURES = (
    ("mdi", "MDI (train, impurity)", "share of the impurity decrease"),
    ("relative_importance", "ESL relative importance", "% of the top feature"),
    *OWN_MEASURES,
    ("permutation_train", "Permutation (train)", "decrease in {scorer}"),
    ("permutation_test", "Permutation (test)", "decrease in {scorer}"),
    ("permutation_conditional", "Conditional (test)", "decrease in {scorer}"),
)


def normalized_measures(frame, scorer=""):
    """Each available measure of a comparison table, in raw units and scaled
    by its largest absolute value so that all fit on [-1, 1].

    The scale is for drawing only: it makes the top of every measure 1, noise
    included, so each permutation measure carries its interval and
    `within_noise` (the interval includes 0) for the chart to mark.

    Returns
    -------
    list of Bunch
        key, column, label, units (`scorer` filled in), raw (the values),
        normalized;
        for the permutation measures also std, normalized_std, low, high,
        normalized_low, normalized_high and within_noise (None for the
        impurity measures).
    """
    measures = []
    for key, label, units in MEASURES:
        column = key if key in frame else f"{key}_mean"
        if column not in frame:
            continue  # a measure not computed (the conditional one)
        values = frame[column].to_numpy(dtype=float)
        if np.isnan(values).all():
            continue
        scale = np.nanmax(np.abs(values)) or 1.0
        measure = Bunch(
            key=key,
            column=column,
            label=label,
            units=units.format(scorer=scorer or "score"),
            raw=values,
            normalized=values / scale,
            std=None,
            normalized_std=None,
            low=None,
            high=None,
            normalized_low=None,
            normalized_high=None,
            within_noise=None,
        )
        if column != key:
            measure.std = frame[f"{key}_std"].to_numpy(dtype=float)
            measure.normalized_std = measure.std / scale
            measure.low = frame[f"{key}_low"].to_numpy(dtype=float)
            measure.high = frame[f"{key}_high"].to_numpy(dtype=float)
            measure.normalized_low = measure.low / scale
            measure.normalized_high = measure.high / scale
            measure.within_noise = within_noise(measure.low, measure.high)
        measures.append(measure)
    return measures
