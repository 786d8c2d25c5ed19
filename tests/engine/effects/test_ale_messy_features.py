"""ALE of integer, nullable and partly missing numeric features, against the
definition written out here (Apley & Zhu 2020, eq. 15-16, over the rows that
hold a value), not against the engine's own output."""

import copy

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.ensemble import RandomForestRegressor

from inspectwidgets import accumulated_local_effects


def brute_force_ale(model, X, column, n_bins):
    """Quantile edges of the observed values; each observed row predicted
    at its bin's edges (the feature as float); mean differences accumulated
    and centred by the rows per bin at the bins' midpoints."""
    x = X[column].to_numpy(dtype=float, na_value=np.nan)
    held = ~np.isnan(x)
    z = np.unique(np.quantile(x[held], np.linspace(0, 1, n_bins + 1)))
    g, counts = [0.0], []
    for k in range(1, len(z)):
        lower = z[k - 1] if k > 1 else -np.inf
        rows = X[held & (x > lower) & (x <= z[k])].astype({column: float})
        change = model.predict(rows.assign(**{column: z[k]})) - model.predict(
            rows.assign(**{column: z[k - 1]})
        )
        g.append(g[-1] + (change.mean() if len(rows) else 0.0))
        counts.append(len(rows))
    g, counts = np.array(g), np.array(counts)
    centre = ((g[:-1] + g[1:]) / 2) @ counts / counts.sum()
    return z, g - centre


@pytest.fixture(scope="module")
def table():
    rng = np.random.default_rng(1)
    n = 300
    X = pd.DataFrame(
        {
            "years": rng.integers(0, 40, n),  # int64
            "calls": pd.array(rng.poisson(2.0, n), dtype="Int64"),
            "charges": rng.gamma(2.0, 30.0, n),
            "other": rng.normal(size=n),
        }
    )
    X.loc[rng.random(n) < 0.07, "calls"] = pd.NA
    X.loc[rng.random(n) < 0.07, "charges"] = np.nan
    numbers = X.astype(float).fillna(0.0)
    y = np.sqrt(numbers["years"]) + numbers["calls"] ** 2 / 4 + numbers["charges"] / 50
    model = RandomForestRegressor(20, max_depth=5, random_state=0)
    return model.fit(X.astype(float), y), X


@pytest.mark.parametrize("column", ["years", "calls", "charges"])
@pytest.mark.parametrize("n_bins", [4, 7])
def test_ale_of_integer_nullable_and_missing_columns(table, column, n_bins):
    model, X = table
    before = copy.deepcopy(X)
    ale = accumulated_local_effects(model, X, column, grid_resolution=n_bins)
    edges, expected = brute_force_ale(model, X, column, n_bins)
    assert_array_equal(ale.edges[0], edges)
    assert_allclose(ale.centered[0], expected, rtol=1e-12, atol=1e-12)
    n_missing = int(X[column].isna().sum())
    assert ale.n_missing == n_missing
    assert ale.bin_counts.sum() == len(X) - n_missing
    pd.testing.assert_frame_equal(X, before)


@pytest.mark.parametrize("step, n_bins", [(3, 7), (10, 6)])
def test_integer_edges_between_values_and_ties(table, step, n_bins):
    """Quantiles of integers fall between the values (kept unrounded:
    years // 3, 7 bins), or coincide on tied values and merge (years // 10,
    4 values, 6 bins: 3 bins), as for floats."""
    model, X = table
    X = X.assign(years=X["years"] // step)
    ale = accumulated_local_effects(model, X, "years", grid_resolution=n_bins)
    edges, expected = brute_force_ale(model, X, "years", n_bins)
    if step == 3:
        assert np.any(edges != np.round(edges))
    else:
        assert len(edges) == 4
    assert_array_equal(ale.edges[0], edges)
    assert_allclose(ale.centered[0], expected, rtol=1e-12, atol=1e-12)


def test_integer_ndarray_is_not_converted_in_place(table):
    model, X = table
    values = X[["years", "other"]].assign(other=0).to_numpy()  # int64 array
    model = RandomForestRegressor(5, random_state=0).fit(values, values[:, 0] ** 0.5)
    before = values.copy()
    ale = accumulated_local_effects(model, values, 0, grid_resolution=5)
    assert values.dtype == np.int64
    assert_array_equal(values, before)
    assert np.isfinite(ale.centered).all()
