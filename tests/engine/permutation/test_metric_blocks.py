"""The vectorized metrics score many copies a block of copies at a time (so
that their temporaries stay small): each copy's score must be the bits of the
whole-array formula, whatever the blocks, and scikit-learn's to rounding."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.linear_model import Ridge
from sklearn.metrics import (
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    r2_score,
)

from inspectwidgets import permutation_importance
from inspectwidgets.inspection._permutation import vectorized_metrics

from numerics import assert_blas_close


def _whole_array(metric, y, predictions, weight):
    """scikit-learn's formulas over every copy at once, written out."""
    w = np.ones_like(y) if weight is None else weight
    if metric is r2_score:
        numerator = np.sum(w * (y - predictions) ** 2, axis=1)
        return 1 - numerator / np.sum(w * (y - np.average(y, weights=weight)) ** 2)
    if metric is mean_squared_error:
        return np.average((y - predictions) ** 2, axis=1, weights=weight)
    if metric is mean_absolute_error:
        return np.average(np.abs(predictions - y), axis=1, weights=weight)
    relative = np.abs(predictions - y) / np.maximum(np.abs(y), np.finfo(np.float64).eps)
    return np.average(relative, axis=1, weights=weight)


@pytest.mark.parametrize(
    "metric",
    [r2_score, mean_squared_error, mean_absolute_error, mean_absolute_percentage_error],
)
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("copies_per_block", [1, 3, 7, 100])
def test_blocks_give_the_whole_arrays_bits(
    monkeypatch, metric, weighted, copies_per_block
):
    rng = np.random.default_rng(0)
    n_copies, n_rows = 7, 1_001
    y = rng.normal(size=n_rows)
    predictions = y + rng.normal(size=(n_copies, n_rows))
    weight = rng.uniform(0.5, 2, n_rows) if weighted else None
    monkeypatch.setattr(
        vectorized_metrics, "_BLOCK_BYTES", copies_per_block * n_rows * 8
    )
    taken = []
    real = vectorized_metrics._by_copy_blocks

    def spy(reduce, values):
        taken.append(values.shape[0])
        return real(reduce, values)

    monkeypatch.setattr(vectorized_metrics, "_by_copy_blocks", spy)
    scores = vectorized_metrics.VECTORIZED[metric](y, predictions, weight, None)
    assert taken == [n_copies]  # the blocked path scored them
    assert_array_equal(scores, _whole_array(metric, y, predictions, weight))
    for copy, score in zip(predictions, scores, strict=True):
        assert_blas_close(score, metric(y, copy, sample_weight=weight))


def test_importance_under_blocks_is_scikit_learns(monkeypatch):
    """A run's r2 scores, scored a copy at a time (a nullable integer and an
    integer column among the features), match scikit-learn's, and the
    blocks do not change a bit of the run's own."""
    from sklearn.inspection import permutation_importance as sklearn_importance

    rng = np.random.default_rng(1)
    n = 400
    X = pd.DataFrame(
        {
            "a": rng.normal(size=n),
            "b": pd.array(rng.integers(0, 5, n), dtype="Int64"),
            "c": rng.integers(-3, 3, n),
        }
    )
    y = X["a"] * 2 + X["c"] + rng.normal(size=n)
    model = Ridge().fit(X, y)
    whole = permutation_importance(model, X, y, n_repeats=4, random_state=0)
    monkeypatch.setattr(vectorized_metrics, "_BLOCK_BYTES", 1)
    blocked = permutation_importance(model, X, y, n_repeats=4, random_state=0)
    assert_array_equal(blocked.importances, whole.importances)
    reference = sklearn_importance(model, X, y, n_repeats=4, random_state=0)
    assert_blas_close(blocked.importances, reference.importances)
