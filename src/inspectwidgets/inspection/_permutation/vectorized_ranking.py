"""ROC AUC of many permuted copies at once, scikit-learn's number bit for bit.

scikit-learn's ``roc_auc_score`` sorts a copy's scores (stable, descending),
keeps the last row of each run of tied scores as a threshold, sums the
weights of positives and negatives down to each threshold (``tps``,
``fps``), drops the thresholds collinear with their neighbours (``roc_curve``'s
``drop_intermediate``), divides by the totals and takes the trapezoids of
the curve. Its per-call checks (``type_of_target``, label binarising, the
validation of every array) cost more than that arithmetic.

Here the copies are sorted in one call, and each copy's curve is built from
the same arrays scikit-learn builds, so the trapezoids sum the same terms in
the same order. The sort need not be stable: the order of tied rows only
changes the running sums between thresholds, never at them, when the sums
are exact (counts without weights; integer weights summing below 2**53).
With other weights, a copy whose scores tie is handed to scikit-learn's own
function (the order of its running sums is the stable sort's); a copy
without ties has one order whatever the sort.

Multiclass scores follow ``_multiclass_roc_auc_score``: one-vs-rest (macro,
weighted or micro average) and one-vs-one (macro or weighted prevalence,
without sample weights, as scikit-learn requires) from the same binary
curves.
"""

from itertools import combinations

import numpy as np
from sklearn.metrics import roc_auc_score

from .._core.compat import trapezoid
from .class_targets import class_targets

# Integer weights whose sums stay below this are summed exactly in any order.
_EXACT_SUM = 2.0**53


def roc_auc(y, scores, weight, classes, multi_class="raise", average="macro"):
    """Each copy's ``roc_auc_score(y, scores[c], sample_weight=weight,
    multi_class=..., average=...)``, or None outside the cases reproduced
    (the caller then scores copy by copy with scikit-learn's function).

    `scores` is the response the scorer sees, for all copies: shape
    (n_copies, n_rows) for a binary classifier (its decision function, or
    the probability of ``classes[-1]``), (n_copies, n_rows, n_classes) for
    multiclass probabilities.
    """
    targets = class_targets(y, weight, classes)
    if targets is None or scores.dtype.kind != "f" or not np.isfinite(scores).all():
        return None
    if scores.ndim == 2:
        if targets.n_classes != 2:
            return None
        curve = targets.derived("roc binary", lambda t: _curve(t, t.index == 1, weight))
        if curve is None:
            return None
        aucs, redo = _binary_aucs(scores, curve)
    elif scores.ndim == 3 and scores.shape[2] == targets.n_classes:
        if not all(np.allclose(1, copy.sum(axis=1)) for copy in scores):
            return None  # scikit-learn refuses scores that are not probabilities
        if multi_class == "ovr":
            found = _one_vs_rest(targets, scores, weight, average)
        elif multi_class == "ovo" and weight is None:
            found = _one_vs_one(targets, scores, average)
        else:
            found = None
        if found is None:
            return None
        aucs, redo = found
    else:
        return None
    for c in np.flatnonzero(redo):
        # Tied scores under weights whose running sums round by their order.
        aucs[c] = roc_auc_score(
            y, scores[c], sample_weight=weight, multi_class=multi_class, average=average
        )
    return aucs


class _Curve:
    """What a binary ROC curve reads of y and the weights: the rows kept
    (scikit-learn drops zero weights before sorting), each kept row's
    contribution to the true and to the false positives (``y_true *
    weight`` and ``(1 - y_true) * weight``, 1 and 0 without weights: a
    product per row, the same whatever order the rows are then taken in),
    and whether running sums in any order are exact."""

    def __init__(self, kept, positive, weight):
        self.kept = kept  # row indices, or None for every row
        positive = positive.astype(np.float64)
        self.weighted = weight is not None
        if weight is None:
            self.true, self.false = positive, None
        else:
            self.true, self.false = positive * weight, (1 - positive) * weight
        self.exact = weight is None or (
            np.array_equal(weight, np.round(weight)) and weight.sum() < _EXACT_SUM
        )


def _curve(targets, positive, weight):
    """The :class:`_Curve` of rows labelled `positive`, or None where
    scikit-learn's curve would warn or raise (negative weights; a class
    left without weight)."""
    if weight is None:
        return _Curve(None, positive, None)
    weight = np.asarray(weight, dtype=np.float64)
    if not (weight >= 0).all():
        return None
    kept = np.flatnonzero(weight)
    positive, weight = positive[kept], weight[kept]
    if positive.all() or not positive.any():
        return None
    return _Curve(None if len(kept) == len(targets.index) else kept, positive, weight)


def _binary_aucs(scores, curve):
    """Each copy's binary ROC AUC (`scores` of shape (n_copies, n_rows)),
    and which copies it leaves to scikit-learn (tied scores whose running
    sums are not exact)."""
    if curve.kept is not None:
        scores = scores[:, curve.kept]
    n_copies, n_rows = scores.shape
    order = np.argsort(scores, axis=1)
    aucs = np.empty(n_copies)
    redo = np.zeros(n_copies, dtype=bool)
    for c in range(n_copies):
        descending = order[c, ::-1]
        distinct = np.flatnonzero(np.diff(scores[c, descending]))
        if not curve.exact and len(distinct) < n_rows - 1:
            redo[c] = True
            continue
        thresholds = np.concatenate([distinct, [n_rows - 1]])
        aucs[c] = _area(curve, descending, thresholds)
    return aucs, redo


def _area(curve, descending, thresholds):
    """The trapezoids under the ROC curve of rows in `descending` order, as
    ``confusion_matrix_at_thresholds``, ``roc_curve`` and ``auc`` make them."""
    tps = np.cumsum(curve.true[descending])[thresholds]
    if curve.weighted:
        fps = np.cumsum(curve.false[descending])[thresholds]
    else:
        fps = 1 + thresholds.astype(np.float64) - tps
    if fps.shape[0] > 2:
        corners = np.concatenate(
            [[True], np.logical_or(np.diff(fps, 2), np.diff(tps, 2)), [True]]
        )
        fps, tps = fps[corners], tps[corners]
    tps = np.concatenate([[0.0], tps])
    fps = np.concatenate([[0.0], fps])
    return float(trapezoid(tps / tps[-1], fps / fps[-1]))


def _one_vs_rest(targets, scores, weight, average):
    """``_average_binary_score`` of each class against the rest: the class
    columns' AUCs averaged (macro, or weighted by each class's weight), or
    one curve of every (row, class) cell (micro)."""
    n_copies, n_rows, n_classes = scores.shape
    if average == "micro":
        curve = targets.derived("roc micro", lambda t: _micro_curve(t, weight))
        if curve is None:
            return None
        return _binary_aucs(scores.reshape(n_copies, n_rows * n_classes), curve)
    if average not in ("macro", "weighted"):
        return None
    curves = targets.derived(
        "roc ovr",
        lambda t: [_curve(t, t.index == k, weight) for k in range(n_classes)],
    )
    if any(curve is None for curve in curves):
        return None
    per_class = np.empty((n_copies, n_classes))
    redo = np.zeros(n_copies, dtype=bool)
    for k, curve in enumerate(curves):
        per_class[:, k], class_redo = _binary_aucs(
            np.ascontiguousarray(scores[..., k]), curve
        )
        redo |= class_redo
    class_weight = None
    if average == "weighted":
        class_weight = targets.derived("roc ovr weights", _class_weights)
        if class_weight is None:
            return None
    aucs = np.array([np.average(row, weights=class_weight) for row in per_class])
    return aucs, redo


def _one_hot(targets):
    """``label_binarize(y, classes=classes)``, as integers."""
    return (targets.index[:, None] == np.arange(targets.n_classes)).astype(int)


def _micro_curve(targets, weight):
    """The curve of every (row, class) cell, raveled as scikit-learn does."""
    repeated = None if weight is None else np.repeat(weight, targets.n_classes)
    return _curve(targets, _one_hot(targets).ravel() == 1, repeated)


def _class_weights(targets):
    """The support of each class that the weighted average weighs by, as
    ``_average_binary_score`` sums it; None where scikit-learn would return
    0 (no support at all)."""
    one_hot = _one_hot(targets)
    if targets.weight is None:
        support = np.sum(one_hot, axis=0)
    else:
        one_hot = np.asarray(one_hot, dtype=targets.weight.dtype)
        support = np.sum(np.multiply(one_hot, targets.weight.reshape(-1, 1)), axis=0)
    if np.isclose(np.sum(support), 0):
        return None
    return support


def _one_vs_one(targets, scores, average):
    """``_average_multiclass_ovo_score``: each pair of classes on their own
    rows, each class of the pair taken as positive in turn, the pairs'
    means averaged (weighted by the pair's share of the rows)."""
    if average not in ("macro", "weighted"):
        return None
    n_copies, _, n_classes = scores.shape
    pairs = targets.derived("roc ovo", _pairs)
    pair_scores = np.empty((n_copies, len(pairs)))
    redo = np.zeros(n_copies, dtype=bool)
    for ix, (a, b, rows, a_curve, b_curve, _) in enumerate(pairs):
        a_scores, a_redo = _binary_aucs(scores[:, rows, a], a_curve)
        b_scores, b_redo = _binary_aucs(scores[:, rows, b], b_curve)
        pair_scores[:, ix] = (a_scores + b_scores) / 2
        redo |= a_redo | b_redo
    prevalence = None
    if average == "weighted":
        prevalence = np.array([pair[5] for pair in pairs])
    aucs = np.array([np.average(row, weights=prevalence) for row in pair_scores])
    return aucs, redo


def _pairs(targets):
    """Each pair (a, b) of classes: its rows, the curves of a and of b as
    the positive class on them, and its prevalence."""
    pairs = []
    for a, b in combinations(range(targets.n_classes), 2):
        a_mask, b_mask = targets.index == a, targets.index == b
        ab_mask = np.logical_or(a_mask, b_mask)
        rows = np.flatnonzero(ab_mask)
        pairs.append(
            (
                a,
                b,
                rows,
                _Curve(None, a_mask[rows], None),
                _Curve(None, b_mask[rows], None),
                np.average(ab_mask),
            )
        )
    return pairs
