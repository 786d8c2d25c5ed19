"""ICE percentile bands and subgroup partial dependence, checked against their
definitions computed here from the model's own predictions, not against the
engine's result arrays."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import LinearRegression
from sklearn.tree import DecisionTreeRegressor

from inspectwidgets import (
    ice_percentiles,
    partial_dependence,
    subgroup_partial_dependence,
)

from numerics import assert_blas_close


def brute_ice(model, X, column, grid):
    """ICE by definition: every row's prediction with `column` set to each
    grid value in turn, shape (n_rows, n_grid)."""
    curves = []
    for value in grid:
        copy = X.copy()
        if isinstance(copy, pd.DataFrame):
            copy[column] = value
        else:
            copy[:, column] = value
        curves.append(model.predict(copy))
    return np.column_stack(curves)


@pytest.fixture(scope="module")
def messy():
    """A frame with a string category, NaN in the feature, a nullable float
    and a subgroup column with missing labels; histogram boosting with
    native categories handles it all."""
    rng = np.random.RandomState(0)
    n = 600
    X = pd.DataFrame(
        {
            "x": rng.uniform(-1, 1, n),
            "count": pd.array(rng.randint(0, 5, n).astype(float), dtype="Float64"),
            "plan": pd.Categorical(rng.choice(["basic", "pro", "team"], n)),
        }
    )
    X.loc[rng.rand(n) < 0.1, "x"] = np.nan
    slope = X["plan"].map({"basic": -2.0, "pro": 1.0, "team": 3.0}).astype(float)
    y = slope * X["x"].fillna(0) + 0.1 * X["count"].astype(float)
    model = HistGradientBoostingRegressor(
        max_iter=50, categorical_features="from_dtype", random_state=0
    ).fit(X, y)
    return model, X


def test_subgroup_average_is_the_groups_own_partial_dependence(messy):
    """Each subgroup's curve is the mean over its rows of their predictions
    with x set to each grid value (the partial dependence on that subgroup's
    rows), with a missing label a subgroup of its own; no model call."""
    model, X = messy
    result = partial_dependence(
        model,
        X,
        ["x"],
        kind="both",
        grid_resolution=7,
        missing="observed",
        return_result=True,
    )
    labels = np.array(X["plan"].astype(object))
    labels[::50] = None  # 12 rows without a label
    calls = []
    original = model.predict
    model.predict = lambda data: calls.append(1) or original(data)
    try:
        by_group = subgroup_partial_dependence(result, labels)
    finally:
        del model.predict
    assert not calls
    assert set(by_group.labels) == {"basic", "pro", "team", "missing"}
    ice = brute_ice(model, X, "x", result.grid_values[0])
    for label, size, curve, small in zip(
        by_group.labels, by_group.sizes, by_group.average[:, 0], by_group.small,
        strict=True,
    ):  # fmt: skip
        rows = pd.isna(labels) if label == "missing" else labels == label
        assert size == rows.sum()
        assert small == (size < 30)
        # The same sum in another order (numpy's mean sums pairwise).
        np.testing.assert_allclose(curve, ice[rows].mean(axis=0), rtol=1e-13)
    assert by_group.small.tolist().count(True) == 1  # the 12 unlabelled rows
    frame = by_group.to_frame()
    assert len(frame) == 4 * len(result.grid_values[0])
    assert frame.groupby("subgroup")["size"].first().sum() == len(X)


def test_weighted_subgroups_and_one_group_is_the_overall_average():
    """With the weights the partial dependence was computed with, one subgroup
    holding every row gives the overall (weighted) average, and each group's
    curve is its rows' weighted mean of predictions."""
    rng = np.random.RandomState(1)
    X = rng.normal(size=(300, 3))
    y = X[:, 0] * (X[:, 1] > 0) + X[:, 2]
    weight = rng.uniform(0.1, 3, size=300)
    model = DecisionTreeRegressor(max_depth=5, random_state=0).fit(X, y)
    result = partial_dependence(
        model, X, [0], kind="both", sample_weight=weight, method="brute",
        grid_resolution=9, return_result=True,
    )  # fmt: skip
    whole = subgroup_partial_dependence(result, np.zeros(300), sample_weight=weight)
    np.testing.assert_allclose(whole.average[0], result.average, rtol=1e-13)
    groups = np.where(X[:, 1] > 0, "up", "down")
    by_group = subgroup_partial_dependence(result, groups, sample_weight=weight)
    ice = brute_ice(model, X, 0, result.grid_values[0])
    for label, curve in zip(by_group.labels, by_group.average[:, 0], strict=True):
        rows = groups == label
        expected = (weight[rows, None] * ice[rows]).sum(0) / weight[rows].sum()
        np.testing.assert_allclose(curve, expected, rtol=1e-13)
    zero = np.where(groups == "up", 0.0, weight)
    nothing = subgroup_partial_dependence(result, groups, sample_weight=zero)
    up = nothing.labels.index("up")
    assert np.all(np.isnan(nothing.average[up])) and nothing.small[up]


def test_percentile_bands_are_numpys_percentiles_of_the_curves(messy):
    model, X = messy
    result = partial_dependence(
        model,
        X,
        ["x"],
        kind="both",
        grid_resolution=6,
        missing="observed",
        return_result=True,
    )
    ice = brute_ice(model, X, "x", result.grid_values[0])
    bands = ice_percentiles(result, [95, 5, 50, 50])
    assert bands.percentiles == (5.0, 50.0, 95.0)
    assert_array_equal(bands.values[0], np.percentile(ice, [5, 50, 95], axis=0))
    centered = ice_percentiles(result, centered=True)
    assert_array_equal(
        centered.values[0],
        np.percentile(ice - ice[:, :1], [5, 25, 50, 75, 95], axis=0),
    )
    frame = bands.to_frame()
    assert list(frame.columns) == ["x", "output", "percentile", "value"]
    assert len(frame) == 3 * len(result.grid_values[0])  # 6 and "missing"


def test_linear_models_ice_are_parallel_lines_whose_bands_collapse_when_centered():
    """The textbook case: a linear model's ICE curves are parallel, so once
    centered every percentile is the same line (Goldstein et al. 2015)."""
    rng = np.random.RandomState(0)
    X = rng.normal(size=(500, 3))
    model = LinearRegression().fit(X, X @ [2.0, -1.0, 0.5])
    result = partial_dependence(
        model, X, [0], kind="both", grid_resolution=10, return_result=True
    )
    bands = ice_percentiles(result, centered=True).values[0]
    for band in bands:
        assert_blas_close(band, bands[2])
    assert_blas_close(
        bands[2], 2.0 * (result.grid_values[0] - result.grid_values[0][0])
    )


def test_bad_inputs_are_refused_with_what_to_do(messy):
    model, X = messy
    average_only = partial_dependence(
        model, X, ["x"], missing="observed", return_result=True
    )
    with pytest.raises(ValueError, match='kind="both"'):
        ice_percentiles(average_only)
    with pytest.raises(TypeError, match="return_result=True"):
        ice_percentiles(partial_dependence(model, X, ["count"], kind="both"))
    both = partial_dependence(model, X, ["count"], kind="both", return_result=True)
    for bad in ([-1, 50], [50, 101], ["median"], []):
        with pytest.raises(
            ValueError, match=r"percentiles must be numbers in \[0, 100\]"
        ):
            ice_percentiles(both, bad)
    with pytest.raises(ValueError, match=r"one label per row of X \(600,\)"):
        subgroup_partial_dependence(both, X["plan"][:-1])
    with pytest.raises(ValueError, match="non-negative"):
        subgroup_partial_dependence(both, X["plan"], sample_weight=-np.ones(len(X)))
    drawn = partial_dependence(
        model, X, ["count"], kind="both", n_ice=100, random_state=0, return_result=True
    )
    with pytest.raises(ValueError, match="n_ice=None"):
        subgroup_partial_dependence(drawn, X["plan"])
    surface = partial_dependence(
        model, X, ["plan", "count"], method="brute", return_result=True
    )
    with pytest.raises(ValueError, match="ICE curves"):
        subgroup_partial_dependence(surface, X["plan"])
