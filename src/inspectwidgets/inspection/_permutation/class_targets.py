"""A classifier's targets as positions in its classes, worked out once per
targets rather than once per chunk of permuted copies.

The vectorized log loss and ROC AUC read y through the position of each
row's label in ``classes_`` (scikit-learn's label encoding, when y holds
exactly the estimator's classes). Finding it costs a sort or hash of y
(``np.unique``), as much as scoring a few copies; a run scores hundreds of
chunks against the same y, so it is kept for the last few targets seen.
"""

import threading

import numpy as np

# Targets kept: a run's y, and a subsample's or a subgroup's beside it (each a copy
# of y and of the weights: few, as a run's memory budget does not count them).
_KEPT = 2
_kept: dict[tuple, tuple] = {}
_lock = threading.Lock()


class ClassTargets:
    """y (and its sample weights) as a classifier's metrics read them.

    `index` holds each row's position in `classes`; the weight-dependent
    pieces are worked out when a metric first asks.
    """

    def __init__(self, y, weight, classes):
        self.index = np.searchsorted(classes, y)
        self.n_classes = len(classes)
        self.weight = None if weight is None else np.asarray(weight, dtype=np.float64)
        self._derived = {}

    def derived(self, name, make):
        """``make(self)``, computed on first use and kept."""
        if name not in self._derived:
            self._derived[name] = make(self)
        return self._derived[name]


def class_targets(y, weight, classes):
    """The :class:`ClassTargets` of `y` when it holds exactly the estimator's
    `classes` (so that scikit-learn's label encoding of y is the order of
    the responses' columns), else None.

    Kept per contents, not per object: y is compared with the copy kept
    (one pass, far cheaper than ``np.unique``), so a y changed in place
    between two runs is never read stale.
    """
    if classes is None or y.ndim != 1:
        return None
    key = (id(y), None if weight is None else id(weight))
    with _lock:
        entry = _kept.get(key)
    if entry is not None and _same(entry, y, weight, classes):
        return entry[3]
    targets = None
    if np.array_equal(np.unique(y), classes):
        targets = ClassTargets(y, weight, classes)
    entry = (
        y.copy(),
        None if weight is None else np.array(weight, copy=True),
        np.array(classes, copy=True),
        targets,
    )
    with _lock:
        _kept[key] = entry
        while len(_kept) > _KEPT:
            del _kept[next(iter(_kept))]
    return targets


def _same(entry, y, weight, classes):
    kept_y, kept_weight, kept_classes, _ = entry
    if kept_y.dtype != y.dtype or kept_y.shape != y.shape:
        return False
    if (kept_weight is None) != (weight is None):
        return False
    return (
        np.array_equal(kept_y, y)
        and (weight is None or np.array_equal(kept_weight, weight))
        and kept_classes.shape == np.shape(classes)
        and np.array_equal(kept_classes, classes)
    )
