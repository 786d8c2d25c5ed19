"""interaction_strength's arguments checked, and what follows from them:
the columns, the pairs, the drawn rows and their weights."""

import numbers
from types import SimpleNamespace

import numpy as np
from sklearn.utils import check_random_state

from .._core.columns import column_position
from .._core.effect_params import (
    check_pd_estimator,
    check_pd_X,
    column_labels,
    resolve_classes,
)
from .._core.responses import Responses
from .._core.validation import (
    ALGORITHMS,
    check_algorithm,
    check_columns,
    check_effect_weights,
    check_max_memory,
    check_random_state_argument,
    quoted,
)
from .._shortcuts import check_algorithm_fits
from .run import check_response


def checked_arguments(**arguments):
    """interaction_strength's arguments checked, and what follows from them:
    the columns, pairs, drawn rows and their weights."""
    a = SimpleNamespace(**arguments)
    estimator = a.estimator
    check_pd_estimator(estimator)
    X = a.X = check_columns(estimator, check_pd_X(a.X))
    if X.shape[0] < 2:
        raise ValueError(
            f"X has {X.shape[0]} row(s); the interaction strength compares "
            "partial dependence across rows and needs at least two."
        )
    check_random_state_argument(a.random_state, "interaction_strength")
    n_top = a.n_top
    if isinstance(n_top, bool) or not isinstance(n_top, numbers.Integral) or n_top < 2:
        raise ValueError(f"n_top must be an int >= 2; got {n_top!r}.")
    method, scale = check_response(estimator, a.response_method, a.scale)
    a.output_names, columns = resolve_classes(estimator, a.classes, method)
    a.responses = Responses(method, scale, columns)
    a.max_memory = check_max_memory(a.max_memory)
    a.algorithm = check_algorithm(a.algorithm, ALGORITHMS)
    check_algorithm_fits(a.algorithm, estimator, X, a.responses.methods)
    a.names = [str(n) for n in column_labels(X, a.feature_names)]
    given = None if hasattr(X, "columns") else a.names
    a.chosen = _positions(X, a.features, "features", given)
    a.wanted = _pairs(X, a.pairs, a.chosen, given)
    weights = None
    if a.sample_weight is not None:
        weights = check_effect_weights(a.sample_weight, X.shape[0])
    a.rows = _subsample(X.shape[0], a.n_samples, a.random_state)
    a.data = X.iloc[a.rows] if hasattr(X, "iloc") else X[a.rows]
    if weights is not None:
        weights = weights[a.rows]
        if not weights.any():
            raise ValueError(
                "sample_weight is 0 for every row drawn (n_samples="
                f"{a.n_samples!r}): nothing to average; draw more rows."
            )
    a.weights = weights
    return a


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
