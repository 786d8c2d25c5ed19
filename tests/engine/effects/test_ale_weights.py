"""ALE's sample weights: negative, non-finite and all-zero weights refused;
a row of weight 0 changes nothing."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.ensemble import GradientBoostingRegressor

from inspectwidgets import accumulated_local_effects


@pytest.fixture(scope="module")
def fitted():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(200, 3))
    y = X[:, 0] * X[:, 1] + X[:, 2]
    return GradientBoostingRegressor(n_estimators=20, random_state=0).fit(X, y), X


@pytest.mark.parametrize(
    "bad, message",
    [
        (-0.5, r"sample_weight\[7\] = -0.5"),
        (np.inf, r"sample_weight\[7\] = inf"),
        (np.nan, r"sample_weight\[7\] = nan"),
    ],
)
def test_negative_or_non_finite_weights_are_refused(fitted, bad, message):
    model, X = fitted
    w = np.ones(len(X))
    w[7] = bad
    before = w.copy()
    with pytest.raises(ValueError, match="finite and non-negative") as error:
        accumulated_local_effects(model, X, 0, sample_weight=w)
    assert error.match(message)
    assert_array_equal(w, before)


def test_all_zero_weights_are_refused(fitted):
    model, X = fitted
    with pytest.raises(ValueError, match="sample_weight is 0 for every row"):
        accumulated_local_effects(model, X, [0, 1], sample_weight=np.zeros(len(X)))


def test_a_row_of_weight_zero_changes_nothing(fitted):
    """A zero-weight row's other features may take any value: its local
    effect enters no mean, count or centring. Its own value of the feature
    still places the (unweighted) quantile edges, so it is kept."""
    model, X = fitted
    w = np.random.RandomState(1).uniform(0.5, 2, len(X))
    w[:20] = 0
    moved = X.copy()
    moved[:20, 1:] = np.random.RandomState(2).normal(size=(20, 2)) * 5
    for features in (0, [0, 1]):
        if features != 0:
            moved[:20, 1] = X[:20, 1]  # the pair's edges too
        a = accumulated_local_effects(model, X, features, sample_weight=w)
        b = accumulated_local_effects(model, moved, features, sample_weight=w)
        assert_allclose(a.centered, b.centered, rtol=1e-12, atol=1e-12)
        assert_allclose(a.bin_counts, b.bin_counts)
        assert np.isfinite(a.centered).all()
    c = accumulated_local_effects(
        model, X, 0, sample_weight=pd.array(np.round(w * 3), dtype="Int64")
    )
    assert np.isfinite(c.centered).all()
