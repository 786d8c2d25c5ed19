"""Accumulated local effects against what the mathematics says they are."""

import numpy as np
import pandas as pd
import pytest
from known_functions import KnownFunction, additive, g1, g2, g3, product
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures

from inspectwidgets import accumulated_local_effects, partial_dependence

# Differences of sums of three terms of order 1: rounding of a few ulps.
ROUNDING = 1e-12


@pytest.fixture(scope="module")
def additive_data():
    rng = np.random.RandomState(0)
    X = np.column_stack(
        [rng.uniform(-1, 1, 600), rng.normal(size=600), rng.exponential(size=600)]
    )
    return KnownFunction(additive).fit(X), X


@pytest.mark.parametrize("feature, g", [(0, g1), (1, g2), (2, g3)])
def test_additive_model_ale_is_the_component_at_the_edges(additive_data, feature, g):
    """f = g1(x1) + g2(x2) + g3(x3): every row's change across its bin is
    g(z_k) - g(z_{k-1}), so the uncentred ALE at the edges is g(z_k) - g(z_0)
    and the centred one subtracts the rows' (midpoint) mean of it."""
    model, X = additive_data
    ale = accumulated_local_effects(model, X, feature, grid_resolution=15)
    z = ale.edges[0]
    assert_array_equal(z, np.unique(np.quantile(X[:, feature], np.linspace(0, 1, 16))))
    assert_allclose(ale.uncentered[0], g(z) - g(z[0]), atol=ROUNDING)
    assert_allclose(ale.local_effects[0], np.diff(g(z)), atol=ROUNDING)
    # Every row of a bin changes by the same amount: no spread.
    assert_allclose(ale.local_effects_std[0], 0, atol=ROUNDING)
    index = np.clip(np.searchsorted(z, X[:, feature], side="left"), 1, len(z) - 1)
    assert_array_equal(ale.bin_counts, np.bincount(index - 1, minlength=len(z) - 1))
    midpoint_values = (g(z[:-1]) + g(z[1:])) / 2 - g(z[0])
    offset = midpoint_values @ ale.bin_counts / len(X)
    assert_allclose(ale.centered[0], g(z) - g(z[0]) - offset, atol=ROUNDING)


def test_centred_ale_has_mean_zero_over_the_rows_with_weights(additive_data):
    """The centring weights every bin by its rows (here by their weights):
    the rows' mean of the effect, each row at its bin's midpoint, is 0."""
    model, X = additive_data
    weights = np.random.RandomState(1).uniform(0.1, 3, len(X))
    ale = accumulated_local_effects(model, X, 1, sample_weight=weights)
    z = ale.edges[0]
    index = np.clip(np.searchsorted(z, X[:, 1], side="left"), 1, len(z) - 1)
    assert_allclose(ale.bin_counts, np.bincount(index - 1, weights, len(z) - 1))
    midpoints = (ale.centered[0, :-1] + ale.centered[0, 1:]) / 2
    assert abs(np.average(midpoints[index - 1], weights=weights)) < ROUNDING


def test_second_order_ale_of_an_additive_model_is_zero(additive_data):
    model, X = additive_data
    ale = accumulated_local_effects(model, X, [0, 2], grid_resolution=6)
    assert ale.centered.shape == (1, 7, 7)
    # Every row's second difference across its cell cancels g1 and g3.
    assert_allclose(ale.local_effects, 0, atol=ROUNDING)
    assert_allclose(ale.uncentered, 0, atol=ROUNDING)
    assert_allclose(ale.centered, 0, atol=ROUNDING)


def test_second_order_ale_of_a_product_is_the_product_minus_main_effects():
    """f = x1 x2 on a grid: every cell's second difference is
    (z_a - z_{a-1})(z_b - z_{b-1}), so the accumulated surface is
    (x1 - z1_0)(x2 - z2_0) at the corners, exactly."""
    rng = np.random.RandomState(0)
    X = rng.uniform(0, 1, size=(800, 2))
    model = KnownFunction(product).fit(X)
    ale = accumulated_local_effects(model, X, [0, 1], grid_resolution=5)
    z1, z2 = ale.edges
    assert_allclose(ale.uncentered[0], np.outer(z1 - z1[0], z2 - z2[0]), atol=ROUNDING)
    # Centred: the weighted mean over the cells (each at its corners' mean)
    # of the pure second-order effect is 0.
    c = ale.centered[0]
    corners = (c[:-1, :-1] + c[:-1, 1:] + c[1:, :-1] + c[1:, 1:]) / 4
    assert abs((corners * ale.bin_counts).sum()) < ROUNDING


def test_categorical_ale_of_an_additive_model_is_the_category_effect():
    """f = h(c) + x: between neighbouring categories every row changes by
    h(next) - h(this); the ALE at the categories is h - its weighted mean."""
    rng = np.random.RandomState(0)
    n = 500
    levels = np.array(["a", "b", "c", "d"])
    effect = {"a": 0.0, "b": 2.0, "c": -1.0, "d": 0.5}
    category = rng.choice(levels, n, p=[0.1, 0.2, 0.3, 0.4])
    # The numeric column's distribution shifts with the category, so the
    # ordering has something to go by: a < b < c < d in its mean.
    shift = {"a": 0.0, "b": 1.0, "c": 2.0, "d": 3.0}
    x = np.array([shift[c] for c in category]) + rng.normal(scale=0.3, size=n)
    frame = pd.DataFrame({"c": category, "x": x})

    def function(values):
        return np.array([effect[c] for c in values[:, 0]]) + values[:, 1].astype(float)

    class Categorical(KnownFunction):
        def predict(self, X):
            return self.function(np.asarray(X, dtype=object))

    model = Categorical(function).fit(frame)
    ale = accumulated_local_effects(model, frame, "c", categorical_features=["c"])
    assert list(ale.edges[0]) in (list(levels), list(levels[::-1]))
    h = np.array([effect[c] for c in ale.edges[0]])
    counts = np.array([np.sum(category == c) for c in ale.edges[0]])
    assert_array_equal(ale.bin_counts, counts)
    assert_allclose(ale.uncentered[0], h - h[0], atol=ROUNDING)
    assert_allclose(ale.centered[0], h - h @ counts / n, atol=ROUNDING)
    assert_allclose(ale.local_effects[0], np.diff(h), atol=ROUNDING)
    frame_out = ale.to_frame()
    assert list(frame_out["c"]) == list(ale.edges[0])


def test_correlated_features_pd_extrapolates_where_ale_does_not():
    """A model of y = x1 x2 trained on strongly correlated x1, x2 (x2 = x1 +
    noise, both in about [0, 1]).

    Expected direction: the effect of x1 at x1 is the slope x2, and near x1
    the data hold x2 close to x1. ALE moves each row only within its bin, so
    its slope in a bin is the mean of x2 among the bin's rows: about x1,
    rising from ~0 to ~1. PD moves every row to every x1 and averages over
    all of x2, combinations that never occur: its slope is mean(x2), about
    0.5, everywhere. So PD's slope is larger than ALE's in the lowest bins
    and smaller in the highest; ALE's slopes follow E[x2 | x1 in bin].
    """
    rng = np.random.RandomState(0)
    x1 = rng.uniform(0, 1, 3000)
    x2 = x1 + rng.normal(scale=0.05, size=3000)
    X = np.column_stack([x1, x2])
    y = x1 * x2 + rng.normal(scale=0.01, size=3000)
    model = make_pipeline(PolynomialFeatures(2), LinearRegression()).fit(X, y)
    ale = accumulated_local_effects(model, X, 0, grid_resolution=10)
    z = ale.edges[0]
    ale_slopes = ale.local_effects[0] / np.diff(z)
    pd_result = partial_dependence(
        model, X, [0], custom_values={0: z}, correlation_threshold=None
    )
    pd_slopes = np.diff(pd_result.average[0]) / np.diff(z)
    # The fitted polynomial is not exactly x1 x2 (collinear terms trade
    # off), so PD's slope drifts a little: within 0.05 of mean(x2), while
    # ALE's slopes span about 0.05 to 0.95.
    assert_allclose(pd_slopes, x2.mean(), atol=0.05)
    index = np.clip(np.searchsorted(z, x1, side="left"), 1, len(z) - 1)
    conditional = np.array([x2[index == k].mean() for k in range(1, len(z))])
    assert_allclose(ale_slopes, conditional, atol=0.03)
    assert pd_slopes[0] > ale_slopes[0] + 0.3
    assert pd_slopes[-1] < ale_slopes[-1] - 0.3
