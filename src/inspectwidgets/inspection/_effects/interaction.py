"""Friedman and Popescu's H statistic, from partial dependence at the data.

For a set of columns S, one batch of copies gives every partial dependence
the statistic needs: in copy ``i`` every row ``l`` of the subsample takes S's
values from row ``i``, so its prediction is ``M[i, l] = f(x_S^i, x_-S^l)``.
The row means of M are the partial dependence on S at the data points,
``PD_S(x_S^i)``, and its column means that on the other columns,
``PD_-S(x_-S^l)``; the diagonal is ``f(x_i)``. One n x n batch per feature
and per pair: ``n_samples**2 * (n_features + n_pairs)`` predictions. For
tree models whose response is affine in the leaf values, the three come
from the trees' structure instead (``exact_trees``), without the batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from .._core.budget import x_bytes
from .._core.chunks import DEFAULT_MAX_MEMORY
from .._core.effect_params import n_targets
from .._core.hints import (
    Algorithm,
    Column,
    Data,
    Estimator,
    RandomState,
    ResponseMethod,
    Scale,
)
from .._core.validation import quoted
from .._shortcuts import path_of
from .copies import CopyPredictor
from .exact_trees import ExactTreeDependence
from .footprint import check_n_samples
from .interaction_params import checked_arguments

# Default pairs: those among `n_top` (5) features with the largest H²_j, as
# Friedman & Popescu (section 8.1) look at pairs only for features that
# interact at all.
# A partial dependence whose root mean square is below this fraction of the
# model's output (not centred: rounding scales with the values, and the exact
# tree path sums them in another order) is 0 up to rounding: its H² would be
# noise / noise.
NEGLIGIBLE = 1e-10


def interaction_strength(
    estimator: Estimator,
    X: Data,
    features: Sequence[Column] | None = None,
    *,
    pairs: Literal["all"] | Sequence[tuple[Column, Column]] | None = None,
    n_top: int = 5,
    n_samples: int | None = 300,
    random_state: RandomState = None,
    sample_weight: ArrayLike | None = None,
    response_method: ResponseMethod = "auto",
    scale: Scale = "probability",
    classes: ArrayLike | None = None,
    feature_names: ArrayLike | None = None,
    max_memory: int = DEFAULT_MAX_MEMORY,
    algorithm: Algorithm = "auto",
) -> pd.DataFrame:
    """Friedman and Popescu's H² interaction statistics (2008).

    With partial dependences centred to mean 0 over the data points ``x_i``
    of a subsample (not over a grid), for a feature j against all others
    (eq. 46) and for a pair j, k (eq. 44)::

        H²_j  = sum_i (F(x_i) - F_j(x_ij) - F_-j(x_i,-j))² / sum_i F(x_i)²
        H²_jk = sum_i (F_jk(x_ij, x_ik) - F_j(x_ij) - F_k(x_ik))²
                / sum_i F_jk(x_ij, x_ik)²

    H² is the share of the variance of F (of F_jk) that the feature (the
    pair) explains only together with the others (with each other): 0 for an
    additive model, 1 for a pure interaction. Where the denominator is 0 up
    to rounding (a feature or pair without effect: a root mean square below
    1e-10 of the model output's) H² is NaN. Friedman & Popescu
    note that H²_jk of features with weak effects can be large and unstable;
    read it beside H²_j.

    Cost: ``n**2`` predictions per feature in `features` and per pair, with
    ``n = min(n_samples, n_rows)``: for each feature (or pair) S, the
    subsample's rows predicted with S taken from each data point in turn,
    which gives ``PD_S`` (row means), ``PD_-S`` (column means) and ``f``
    at once. 8 features and their 28 pairs on 300 rows: 3.24 million
    predictions, through the batcher and the tree shortcut like
    :func:`partial_dependence`'s.

    Exact tree path: for scikit-learn's trees, forests, gradient boosting and
    histogram gradient boosting, where the response is an affine function of
    the leaf values (regressors, except histogram boosting with a Poisson or
    Gamma loss; trees' and forests' class probabilities; boosting
    classifiers' ``decision_function``), ``PD_S``, ``PD_-S`` and ``f`` come
    from each tree's structure: a leaf's value weighted by the share of
    background rows whose other columns lead to it, summed over the leaves
    each data point's S can reach (the interventional decomposition behind
    FastPD and interventional TreeSHAP). A few walks per tree and subset
    instead of n² predictions, with the model's own comparisons (float32
    thresholds, missing values, categories). The same sums in another order:
    equal to the batch's to rounding, not bit for bit. A boosting
    classifier's probabilities and ``scale="log_odds"`` are a link of each
    copy's leaf sum, which the average cannot pass through: their copies are
    predicted (through the tree shortcut) as above.

    Parameters
    ----------
    estimator : object
        A fitted regressor or classifier (or a pipeline ending in one).
    X : ndarray or DataFrame of shape (n_rows, n_columns)
        The data. Not modified.
    features : list of int or str, default=None
        The features whose H²_j (against all other columns) is computed;
        None: every column.
    pairs : None, "all" or list of pairs, default=None
        The pairs whose H²_jk is computed. None: the pairs among the `n_top`
        features of `features` with the largest H²_j (largest over the
        outputs; NaN last, ties in column order); "all": every pair of
        `features`; or pairs of column names or indices.
    n_top : int, default=5
        With ``pairs=None``: how many features' pairs are computed
        (``n_top * (n_top - 1) / 2`` pairs). Ignored otherwise.
    n_samples : int or None, default=300
        Rows drawn (without replacement) from X as the data points; None or
        more than X has: every row, undrawn. A number whose n x n batches
        would not fit in half the memory available is refused (ValueError
        naming the largest that fits) before any prediction.
    random_state : int, RandomState instance or None, default=None
        Draws the rows.
    sample_weight : array-like of shape (n_rows,), default=None
        Weights of X's rows, as the R package hstats takes them (``w``): the
        partial dependences average the drawn rows with their weights, are
        centred by their weighted means, and the sums of the statistics are
        weighted sums (``sum_i w_i (...)² / sum_i w_i F²``). Finite,
        non-negative, not all zero. With `n_samples` rows drawn, the draw is
        uniform (as hstats's) and each drawn row keeps its weight; if all the
        drawn rows weigh 0 a ValueError says so. Integer weights give what
        repeating each row that many times would.
    response_method : {"auto", "predict_proba", "decision_function"}, \
            default="auto"
        For classifiers, as in :func:`partial_dependence`.
    scale : {"probability", "log_odds"}, default="probability"
        "log_odds": the statistic of the centred log-odds (ESL eq. 10.52), on
        which Friedman & Popescu compute it for classifiers.
    classes : array-like of class labels, default=None
        Classifiers: the classes kept (one row of results each); None: the
        positive class of a binary classifier, every class otherwise.
    feature_names : array-like of str, default=None
        Names of X's columns.
    max_memory : int, default=64 MiB
        Upper bound on the bytes of stacked copies held at once.
    algorithm : {"auto", "tree", "linear", "generic"}, default="auto"
        "auto" and "tree": the exact tree path where it applies (see
        above), else the copies through the tree shortcut as in
        :func:`partial_dependence` ("tree" raises where the model cannot
        take it); "linear" (and "auto" on a linear model): the copies'
        decisions through the linear shortcut, as in
        :func:`partial_dependence`; "generic": the copies predicted by the
        model.

    Returns
    -------
    frame : DataFrame
        One row per statistic and output: ``kind`` ("one_vs_rest" or
        "pair"), ``feature``, ``partner`` (NaN for one_vs_rest),
        ``output``, ``h_squared`` and ``h`` (its square root); largest first
        within each kind. ``frame.attrs`` holds ``n_samples`` (rows used),
        ``n_predictions`` (the model's predictions of copies: 0 on the exact
        tree path) and ``algorithm``, the path that ran: "exact_tree",
        "tree", "linear" or "generic".

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.ensemble import HistGradientBoostingRegressor
    >>> from inspectwidgets import interaction_strength
    >>> rng = np.random.RandomState(0)
    >>> X = rng.uniform(-1, 1, size=(500, 3))
    >>> y = X[:, 0] * X[:, 1] + X[:, 2]
    >>> model = HistGradientBoostingRegressor(random_state=0).fit(X, y)
    >>> h = interaction_strength(model, X, n_samples=100, random_state=0)
    >>> h.loc[h["kind"] == "pair", ["feature", "partner"]].iloc[0].tolist()
    ['x0', 'x1']
    """
    a = checked_arguments(**locals())
    pd_of, counted = {}, {"n_predictions": 0}
    dependences, path = _dependence_path(a)

    def dependence(subset):
        if subset not in pd_of:
            pd_of[subset] = dependences(subset)
            if path != "exact_tree":
                counted["n_predictions"] += len(a.rows) ** 2
        return pd_of[subset]

    records = []
    for j in a.chosen:
        F_j, F_rest, F, level = dependence((j,))
        outputs = a.output_names or tuple(range(F.shape[1]))
        h2 = _ratio(F - F_j - F_rest, F, F, level, a.weights)
        records += _records("one_vs_rest", a.names[j], None, outputs, h2)
    wanted = a.wanted
    if wanted is None:
        wanted = _top_pairs(records, a.names, a.n_top)
    for j, k in wanted:
        F_jk = dependence(tuple(sorted((j, k))))[0]
        outputs = a.output_names or tuple(range(F_jk.shape[1]))
        F, level = dependence((j,))[2:]
        difference = F_jk - dependence((j,))[0] - dependence((k,))[0]
        h2 = _ratio(difference, F_jk, F, level, a.weights)
        records += _records("pair", a.names[j], a.names[k], outputs, h2)
    frame = pd.DataFrame(
        records, columns=["kind", "feature", "partner", "output", "h_squared"]
    )
    frame["h"] = np.sqrt(frame["h_squared"])
    # One-vs-rest first, then pairs; largest first within each.
    frame = frame.sort_values(
        ["kind", "h_squared"], ascending=[True, False], kind="stable"
    ).reset_index(drop=True)
    frame.attrs.update(n_samples=len(a.rows), **counted, algorithm=path)
    return frame


def _dependence_path(a):
    """``(dependences, path)``: what gives the centred ``PD_S``, ``PD_-S``
    and ``f`` of a subset (and f's mean, :func:`_centred`), and which path
    it is: "exact_tree" (the trees'
    structure, ``exact_trees``), else "tree" (the n x n batch through the
    tree shortcut) or "generic" (the batch predicted)."""
    data, responses = a.data, a.responses
    generic = CopyPredictor(a.estimator, data, data, (), responses, "generic")
    if a.algorithm != "generic":
        exact = ExactTreeDependence.of(generic, responses)
        if isinstance(exact, ExactTreeDependence):
            _check_size(a, generic, exact=True)
            return (
                lambda subset: _centred(exact(subset, a.weights), a.weights),
                "exact_tree",
            )
    # One predictor (pipeline view, flattened trees) for every subset.
    predictor = generic
    if a.algorithm != "generic":
        predictor = CopyPredictor(a.estimator, data, data, (), responses, a.algorithm)
    _check_size(a, predictor, exact=False)
    path = path_of(predictor.shortcut and predictor.shortcut.model)
    return (
        lambda subset: _dependences(predictor, subset, a.max_memory, a.weights),
        path,
    )


def _check_size(a, predictor, exact):
    """Refuse an `n_samples` whose run would not fit in the memory budget,
    before the first subset's dependences (``footprint``)."""
    n_top = min(a.n_top, len(a.chosen))
    n_pairs = n_top * (n_top - 1) // 2 if a.wanted is None else len(a.wanted)
    check_n_samples(
        a.n_samples,
        a.X.shape[0],
        n_outputs=len(a.output_names or ()) or n_targets(a.estimator),
        n_subsets=len(a.chosen) + n_pairs,
        copy_row_bytes=predictor.bytes_per_copy_row,
        exact=exact,
        max_memory=a.max_memory,
        x_bytes=x_bytes(a.X),
    )


def _top_pairs(records, names, n_top):
    """The pairs among the `n_top` features of largest one-vs-rest H²
    (their largest over outputs), each pair in column order."""
    strongest = pd.DataFrame(records).groupby("feature", sort=False).h_squared.max()
    top = strongest.fillna(-1).sort_values(ascending=False, kind="stable")
    top = sorted(names.index(f) for f in top.index[:n_top])
    return [(a, b) for i, a in enumerate(top) for b in top[i + 1 :]]


def _dependences(predictor, subset, max_memory, weights):
    """Centred ``PD_S``, ``PD_-S`` and ``f`` at the data points, each of shape
    (n, n_outputs), from the n x n batch of the module doc: weighted means
    over the background rows, centred by their weighted mean over the
    points (hstats' ``wrowmean`` and ``wcenter``)."""
    n = predictor.n_rows
    per_copy = n * (predictor.bytes_per_copy_row + 16 * 4)
    step = max(1, int(max_memory // per_copy))
    blocks = [
        predictor.per_copy(range(s, min(s + step, n)), subset)
        for s in range(0, n, step)
    ]
    M = np.concatenate(blocks)  # (n copies, n rows, n_outputs)
    own = _mean(M, 1, weights)
    rest = _mean(M, 0, weights)
    f = M[np.arange(n), np.arange(n)]
    return _centred((own, rest, f), weights)


def _centred(values, weights):
    """Each of ``(PD_S, PD_-S, f)`` minus its (weighted) mean over the
    points, and that mean of f (the model output's level)."""
    means = [_mean(v, 0, weights) for v in values]
    return (*(v - m for v, m in zip(values, means, strict=True)), means[2])


def _mean(values, axis, weights):
    """The (weighted) mean of `values` along `axis`."""
    if weights is None:
        return values.mean(axis=axis)
    shape = [1] * values.ndim
    shape[axis] = -1
    return (values * weights.reshape(shape)).sum(axis=axis) / weights.sum()


def _ratio(difference, reference, call_model, level, weights=None):
    """``sum (difference²) / sum (reference²)`` per output (weighted sums
    with `weights`); NaN where the reference is 0 up to rounding (its root
    mean square below `NEGLIGIBLE` times the model output's, the centred
    `call_model` plus its `level`): 0/0 is no statistic."""
    w = 1.0 if weights is None else weights[:, None]
    numerator = (w * difference**2).sum(axis=0)
    denominator = (w * reference**2).sum(axis=0)
    floor = NEGLIGIBLE**2 * (w * (call_model**2 + level**2)).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(
            (denominator > floor) & (denominator > 0), numerator / denominator, np.nan
        )


def _records(kind, feature, partner, outputs, h2):
    return [
        {
            "kind": kind,
            "feature": feature,
            "partner": partner,
            "output": o,
            "h_squared": v,
        }
        for o, v in zip(outputs, h2, strict=True)
    ]


def select_output(frame, target):
    """The rows of one output of an interaction_strength frame."""
    outputs = list(dict.fromkeys(frame["output"]))
    if target is None:
        chosen = outputs[-1]
    else:
        matches = [o for o in outputs if o == target or str(o) == str(target)]
        if not matches:
            raise ValueError(
                f"target must be one of {outputs} (or its str); got {quoted(target)}."
            )
        chosen = matches[0]
    return frame[frame["output"] == chosen]


def pair_matrix(frame):
    """The features of the pairs (in order of appearance) and the symmetric
    matrix of their H², NaN where a pair was not computed (and on the
    diagonal)."""
    pairs = frame[frame["kind"] == "pair"]
    names = list(dict.fromkeys([*pairs["feature"], *pairs["partner"]]))
    order = {n: i for i, n in enumerate(names)}
    matrix = np.full((len(names), len(names)), np.nan)
    for a, b, h2 in zip(
        pairs["feature"], pairs["partner"], pairs["h_squared"], strict=True
    ):
        matrix[order[a], order[b]] = matrix[order[b], order[a]] = h2
    return names, matrix
