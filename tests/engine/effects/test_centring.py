"""The ALE result's centring of other curves and its uncertainty band."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import BaseEstimator, RegressorMixin

from inspectwidgets import accumulated_local_effects, partial_dependence


class Additive(RegressorMixin, BaseEstimator):
    """f(x) = x0³ + sin(3 x1): no interaction."""

    def fit(self, X, y):
        self.n_features_in_ = 2
        return self

    def predict(self, X):
        X = np.asarray(X, dtype=float)
        return X[:, 0] ** 3 + np.sin(3 * X[:, 1])


@pytest.fixture(scope="module")
def independent():
    X = np.random.default_rng(0).uniform(-1, 1, size=(2000, 2))
    return Additive().fit(X, None), X


def test_center_reproduces_the_ales_own_centring(independent):
    model, X = independent
    ale = accumulated_local_effects(model, X, 0, grid_resolution=10)
    assert_array_equal(ale.center(ale.uncentered), ale.centered)


def test_pd_centred_alike_equals_ale_for_an_additive_model(independent):
    # Both are then x0³ minus its mean over the rows (bins at midpoints).
    model, X = independent
    ale = accumulated_local_effects(model, X, 0, grid_resolution=10)
    dependence = partial_dependence(
        model, X, [0], custom_values={0: ale.edges[0]}, method="brute",
        return_result=True,
    )  # fmt: skip
    assert_allclose(ale.center_partial_dependence(dependence), ale.centered, atol=1e-9)
    expected = ale.edges[0] ** 3
    assert_allclose(ale.centered[0], ale.center(expected[None])[0], atol=1e-9)


def test_a_partial_pd_is_centred_with_its_gaps_interpolated(independent):
    model, X = independent
    ale = accumulated_local_effects(model, X, 0, grid_resolution=4)
    dependence = partial_dependence(
        model, X, [0], custom_values={0: ale.edges[0]}, method="brute",
        return_result=True,
    )  # fmt: skip
    done = np.array([True, False, True, True, True])
    partial = type(dependence)(
        **{**vars(dependence), "done": done}
    )  # a snapshot with one edge missing
    centred = ale.center_partial_dependence(partial)
    assert np.isnan(centred[0, 1]) and np.isfinite(centred[0, [0, 2, 3, 4]]).all()
    filled = dependence.average.copy()
    filled[0, 1] = np.interp(ale.edges[0][1], ale.edges[0][done], filled[0, done])
    assert_allclose(centred[0, done], ale.center(filled)[0, done])
    with pytest.raises(ValueError, match="4 grid values|5 edges"):
        short = partial_dependence(
            model, X, [0], custom_values={0: ale.edges[0][:4]}, method="brute",
            return_result=True,
        )  # fmt: skip
        ale.center_partial_dependence(short)


class Product(Additive):
    """f(x) = x0 x1: each row's local effect depends on its x1."""

    def predict(self, X):
        X = np.asarray(X, dtype=float)
        return X[:, 0] * X[:, 1]


def test_band_is_the_local_effects_spread_and_refuses_pairs(independent):
    _, X = independent
    model = Product().fit(X, None)
    ale = accumulated_local_effects(model, X, 0, grid_resolution=5)
    assert (ale.local_effects_std > 0.05).all()
    lower, upper = ale.band()
    assert_allclose(upper[:, 1:] - ale.centered[:, 1:], ale.local_effects_std)
    assert_allclose(ale.centered - lower, upper - ale.centered)
    assert_allclose(upper[:, 0] - ale.centered[:, 0], ale.local_effects_std[:, 0])
    pair = accumulated_local_effects(model, X, [0, 1], grid_resolution=3)
    with pytest.raises(ValueError, match="one feature"):
        pair.band()
    with pytest.raises(ValueError, match="one feature"):
        pair.center(np.zeros((1, 4)))
    with pytest.raises(ValueError, match="shape"):
        ale.center(np.zeros((1, 3)))
