"""Friedman and Popescu's H statistic, from partial dependence at the data.

For a set of columns S, one batch of copies gives every partial dependence
the statistic needs: in copy ``i`` every row ``l`` of the subsample takes S's
values from row ``i``, so its prediction is ``M[i, l] = f(x_S^i, x_-S^l)``.
The row means of M are the partial dependence on S at the data points,
``PD_S(x_S^i)``, and its column means that on the other columns,
``PD_-S(x_-S^l)``; the diagonal is ``f(x_i)``. One n x n batch per feature
and per pair: ``n_samples**2 * (n_features + n_pairs)`` predictions.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.utils import check_random_state

from .._core.chunks import DEFAULT_MAX_MEMORY
from .._core.columns import column_position
from .._core.effect_params import (
    check_pd_estimator,
    check_pd_X,
    column_labels,
    resolve_classes,
)
from .._core.hints import (
    Algorithm,
    Column,
    Data,
    Estimator,
    RandomState,
    ResponseMethod,
    Scale,
)
from .._core.responses import Responses
from .._core.tree_choice import check_algorithm_fits, path_of
from .._core.validation import (
    ALGORITHMS,
    check_algorithm,
    check_columns,
    check_max_memory,
    check_random_state_argument,
    quoted,
)
from .copies import CopyPredictor
from .run import check_response

# Default pairs: those among `n_top` (5) features with the largest H²_j, as
# Friedman & Popescu (section 8.1) look at pairs only for features that
# interact at all.
# A partial dependence whose root mean square is below this fraction of the
# model's (centred) output is 0 up to rounding: its H² would be noise / noise.
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
    1e-10 of the centred model output's) H² is NaN. Friedman & Popescu
    note that H²_jk of features with weak effects can be large and unstable;
    read it beside H²_j.

    Cost: ``n**2`` predictions per feature in `features` and per pair, with
    ``n = min(n_samples, n_rows)``: for each feature (or pair) S, the
    subsample's rows predicted with S taken from each data point in turn,
    which gives ``PD_S`` (row means), ``PD_-S`` (column means) and ``f``
    at once. 8 features and their 28 pairs on 300 rows: 3.24 million
    predictions, through the batcher and the tree shortcut like
    :func:`partial_dependence`'s.

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
        more than X has: every row, undrawn.
    random_state : int, RandomState instance or None, default=None
        Draws the rows.
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
        As in :func:`partial_dependence`.

    Returns
    -------
    frame : DataFrame
        One row per statistic and output: ``kind`` ("one_vs_rest" or
        "pair"), ``feature``, ``partner`` (NaN for one_vs_rest),
        ``output``, ``h_squared`` and ``h`` (its square root); largest first
        within each kind. ``frame.attrs`` holds ``n_samples`` (rows used),
        ``n_predictions`` (the model's, or the shortcut's) and ``algorithm``
        (the path that ran: "tree", "linear" or "generic").

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
    check_pd_estimator(estimator)
    X = check_columns(estimator, check_pd_X(X))
    if X.shape[0] < 2:
        raise ValueError(
            f"X has {X.shape[0]} row(s); the interaction strength compares "
            "partial dependence across rows and needs at least two."
        )
    check_random_state_argument(random_state, "interaction_strength")
    if isinstance(n_top, bool) or not isinstance(n_top, numbers.Integral) or n_top < 2:
        raise ValueError(f"n_top must be an int >= 2; got {n_top!r}.")
    method, scale = check_response(estimator, response_method, scale)
    output_names, columns = resolve_classes(estimator, classes, method)
    responses = Responses(method, scale, columns)
    max_memory = check_max_memory(max_memory)
    algorithm = check_algorithm(algorithm, ALGORITHMS)
    check_algorithm_fits(algorithm, estimator, X, responses.methods)
    names = [str(n) for n in column_labels(X, feature_names)]
    given = None if hasattr(X, "columns") else names
    chosen = _positions(X, features, "features", given)
    wanted = _pairs(X, pairs, chosen, given)
    rows = _subsample(X.shape[0], n_samples, random_state)
    data = X.iloc[rows] if hasattr(X, "iloc") else X[rows]
    pd_of, n_predictions = {}, 0

    # One predictor (pipeline view, flattened trees) for every subset.
    predictor = CopyPredictor(estimator, data, data, (), responses, algorithm)

    def dependence(subset):
        nonlocal n_predictions
        if subset not in pd_of:
            pd_of[subset] = _dependences(predictor, subset, max_memory)
            n_predictions += len(rows) ** 2
        return pd_of[subset]

    records = []
    for j in chosen:
        F_j, F_rest, F = dependence((j,))
        outputs = output_names or tuple(range(F.shape[1]))
        h2 = _ratio(F - F_j - F_rest, F, F)
        records += _records("one_vs_rest", names[j], None, outputs, h2)
    if wanted is None:
        wanted = _top_pairs(records, names, n_top)
    for j, k in wanted:
        F_jk = dependence(tuple(sorted((j, k))))[0]
        outputs = output_names or tuple(range(F_jk.shape[1]))
        F = dependence((j,))[2]
        h2 = _ratio(F_jk - dependence((j,))[0] - dependence((k,))[0], F_jk, F)
        records += _records("pair", names[j], names[k], outputs, h2)
    frame = pd.DataFrame(
        records, columns=["kind", "feature", "partner", "output", "h_squared"]
    )
    frame["h"] = np.sqrt(frame["h_squared"])
    # One-vs-rest first, then pairs; largest first within each.
    frame = frame.sort_values(
        ["kind", "h_squared"], ascending=[True, False], kind="stable"
    ).reset_index(drop=True)
    path = path_of(predictor.trees and predictor.trees[0])
    frame.attrs.update(n_samples=len(rows), n_predictions=n_predictions, algorithm=path)
    return frame


def _top_pairs(records, names, n_top):
    """The pairs among the `n_top` features of largest one-vs-rest H²
    (their largest over outputs), each pair in column order."""
    strongest = pd.DataFrame(records).groupby("feature", sort=False).h_squared.max()
    top = strongest.fillna(-1).sort_values(ascending=False, kind="stable")
    top = sorted(names.index(f) for f in top.index[:n_top])
    return [(a, b) for i, a in enumerate(top) for b in top[i + 1 :]]


def _dependences(predictor, subset, max_memory):
    """Centred ``PD_S``, ``PD_-S`` and ``f`` at the data points, each of shape
    (n, n_outputs), from the n x n batch of the module doc."""
    n = predictor.n_rows
    per_copy = n * (predictor.bytes_per_copy_row + 16 * 4)
    step = max(1, int(max_memory // per_copy))
    blocks = [
        predictor.per_copy(range(s, min(s + step, n)), subset)
        for s in range(0, n, step)
    ]
    M = np.concatenate(blocks)  # (n copies, n rows, n_outputs)
    own = M.mean(axis=1)
    rest = M.mean(axis=0)
    f = M[np.arange(n), np.arange(n)]
    return tuple(v - v.mean(axis=0) for v in (own, rest, f))


def _ratio(difference, reference, call_model):
    """``sum (difference²) / sum (reference²)`` per output; NaN where the
    reference is 0 up to rounding (its root mean square below
    `NEGLIGIBLE` times the centred model output's): 0/0 is no statistic."""
    numerator = (difference**2).sum(axis=0)
    denominator = (reference**2).sum(axis=0)
    floor = NEGLIGIBLE**2 * (call_model**2).sum(axis=0)
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


def _positions(X, features, argument, names):
    if features is None:
        return list(range(X.shape[1]))
    if isinstance(features, (str, numbers.Integral)):
        features = [features]
    positions = [
        column_position(X, f, f"{argument}[{i}]", names) for i, f in enumerate(features)
    ]
    if not positions or len(set(positions)) != len(positions):
        raise ValueError(
            f"{argument} must list distinct columns, at least one; "
            f"got {quoted(features)}."
        )
    return positions


def _pairs(X, pairs, chosen, names):
    """The pairs asked for, as positions; None: choose after H²_j."""
    if pairs is None:
        return None
    if isinstance(pairs, str):
        if pairs != "all":
            raise ValueError(
                f"pairs must be None, 'all' or a list of pairs; got {pairs!r}."
            )
        return [(a, b) for i, a in enumerate(chosen) for b in chosen[i + 1 :]]
    resolved = []
    for i, pair in enumerate(pairs):
        if isinstance(pair, str) or np.ndim(pair) != 1 or len(pair) != 2:
            raise ValueError(
                f"pairs[{i}] must be a pair of columns; got {quoted(pair)}."
            )
        a, b = (column_position(X, c, f"pairs[{i}]", names) for c in pair)
        if a == b:
            raise ValueError(f"pairs[{i}] names the same column twice: {quoted(pair)}.")
        resolved.append((a, b))
    return resolved


def _subsample(n_rows, n_samples, random_state):
    """Sorted rows drawn without replacement, or every row."""
    if n_samples is not None and (
        isinstance(n_samples, bool)
        or not isinstance(n_samples, numbers.Integral)
        or n_samples < 2
    ):
        raise ValueError(f"n_samples must be None or an int >= 2; got {n_samples!r}.")
    if n_samples is None or n_samples >= n_rows:
        return np.arange(n_rows)
    rng = check_random_state(random_state)
    return np.sort(rng.choice(n_rows, n_samples, replace=False))


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
