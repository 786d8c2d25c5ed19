"""What a permutation-importance run checks and draws once, whatever model
predicts it: X, y, the weights, the features, the budget and the random
draws. A run of one model (importance.py) and a run of several on the same
data (models.py) make it the same way, so both draw the same permutations
from the same `random_state`."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

import numpy as np

from .._core.budget import x_bytes
from .._core.columns import resolve_features
from .._core.validation import (
    ALGORITHMS,
    check_algorithm,
    check_cancel,
    check_columns,
    check_max_memory,
    check_max_samples,
    check_n_repeats,
    check_sample_weight,
    check_target,
    check_X,
    check_y,
    quoted,
)
from .footprint import check_run_size, n_scores_of
from .schedule import draw_seed, schedule_of_seed


@dataclass(frozen=True)
class ValidatedData:
    """A run's checked inputs and its draws (see :func:`validate_data`)."""

    X: object
    y: object
    sample_weight: object
    n_repeats: int
    feature_names: list
    feature_columns: list
    max_memory: int
    algorithm: str
    cancel: object
    seed: int  # the one int scikit-learn draws from random_state
    rows: np.ndarray | None  # the max_samples subsample, or None
    permutations: list  # one row permutation a repeat


@contextlib.contextmanager
def naming(label):
    """Errors raised within name the model `label` they concern (none for
    a run of one model, whose argument is `estimator`)."""
    if label is None:
        yield
        return
    try:
        yield
    except (TypeError, ValueError) as error:
        # The model's name stands for the argument a run of one would name.
        message = str(error).removeprefix("estimator: ")
        raise type(error)(f"models[{quoted(label)}]: {message}") from error


def validate_data(a, models):
    """The :class:`ValidatedData` of a run's arguments `a` (a namespace of
    iter_permutation_importance's parameters but the estimator's), for
    `models` ({label: fitted estimator}; label None for a run of one):
    X's columns and y checked against each of them."""
    X = check_X(a.X)
    for label, model in models.items():
        with naming(label):
            check_columns(model, X)
    n_samples = X.shape[0]
    y = check_y(a.y, n_samples)
    for label, model in models.items():
        with naming(label):
            check_target(model, y)
    sample_weight = check_sample_weight(a.sample_weight, n_samples)
    n_repeats = check_n_repeats(a.n_repeats)
    max_samples = check_max_samples(a.max_samples, n_samples)
    feature_names, feature_columns = resolve_features(X, a.features)
    max_memory = check_max_memory(a.max_memory)
    # Before the permutations are drawn: they alone can exceed the memory.
    n_bootstrap = getattr(a, "n_bootstrap", None)
    check_run_size(
        n_repeats,
        max_samples,
        len(feature_names),
        n_scores=n_scores_of(getattr(a, "scoring", None), len(models)),
        n_bootstrap=n_bootstrap if isinstance(n_bootstrap, int) else None,
        max_memory=max_memory,
        x_bytes=x_bytes(X),
    )
    algorithm = check_algorithm(a.algorithm, ALGORITHMS)
    cancel = check_cancel(a.cancel)
    seed = draw_seed(a.random_state)
    rows, permutations = schedule_of_seed(seed, n_samples, max_samples, n_repeats)
    return ValidatedData(
        X=X,
        y=y,
        sample_weight=sample_weight,
        n_repeats=n_repeats,
        feature_names=feature_names,
        feature_columns=feature_columns,
        max_memory=max_memory,
        algorithm=algorithm,
        cancel=cancel,
        seed=seed,
        rows=rows,
        permutations=permutations,
    )
