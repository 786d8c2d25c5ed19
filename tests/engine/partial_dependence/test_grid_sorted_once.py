"""The grid and the feature's distribution from one sort of the column: the
same bits as scikit-learn's grid (``np.unique``, ``mquantiles``) and as
numpy's and scipy's own summaries of the unsorted column."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from scipy.stats.mstats import mquantiles
from sklearn.impute import SimpleImputer
from sklearn.inspection import partial_dependence as sklearn_partial_dependence
from sklearn.linear_model import Ridge
from sklearn.pipeline import make_pipeline

from inspectwidgets import partial_dependence

from numerics import assert_blas_close

pytestmark = pytest.mark.usefixtures("quiet_single_threaded")

N_ROWS = 400


def _columns():
    """Columns whose grid takes each path: spread between percentiles, or
    the unique values (few of them, or exactly grid_resolution - 1)."""
    rng = np.random.default_rng(3)
    normal = rng.normal(size=N_ROWS)
    return {
        "floats": normal,
        "ints": rng.integers(-500, 500, N_ROWS),
        "few ints": rng.integers(0, 7, N_ROWS),
        "duplicates": np.round(normal, 1),  # ties on most values
        "ten values": rng.integers(0, 10, N_ROWS) * 0.1,  # grid_resolution 11
        "signed zeros": np.where(normal > 0, normal, rng.choice([0.0, -0.0], N_ROWS)),
        "float32": normal.astype(np.float32),
        # Past 2**53: neighbours round to the same float in the distribution.
        "huge ints": rng.integers(2**53, 2**53 + 2**40, N_ROWS, dtype=np.int64),
    }


def _model(X):
    """A Ridge taking X's two columns (fitted apart: the grid is X's)."""
    rng = np.random.default_rng(0)
    return Ridge().fit(rng.normal(size=(50, 2)), rng.normal(size=50))


@pytest.mark.parametrize("name", list(_columns()))
@pytest.mark.parametrize(
    ("percentiles", "grid_resolution"),
    [((0.05, 0.95), 100), ((0, 1), 11), ((0.1, 0.35), 30), ((0, 1), 2)],
)
def test_grid_is_scikit_learns_bit_for_bit(name, percentiles, grid_resolution):
    column = _columns()[name]
    X = np.c_[column, np.ones(N_ROWS)]
    model = _model(X)
    kwargs = dict(percentiles=percentiles, grid_resolution=grid_resolution)
    try:
        expected = sklearn_partial_dependence(model, X, [0], **kwargs)["grid_values"]
    except ValueError as refused:  # percentiles too close: refused alike
        assert "too close" in str(refused)
        with pytest.raises(ValueError, match="too close"):
            partial_dependence(model, X, [0], **kwargs)
        return
    got = partial_dependence(model, X, [0], **kwargs)["grid_values"]
    assert got[0].dtype == expected[0].dtype
    assert_array_equal(got[0], expected[0])
    # Bits, not only values: -0.0 and 0.0 compare equal.
    assert got[0].tobytes() == expected[0].tobytes()


@pytest.mark.parametrize(
    "column",
    [
        pd.array(np.linspace(0, 1, 200), dtype="Float64"),
        pd.array([True, False] * 100, dtype="boolean"),
        np.r_[np.linspace(0, 1, 199), np.nan],
        np.r_[np.linspace(0, 1, 197), [np.nan] * 3],
    ],
    ids=[
        "Float64",
        "boolean",
        "NaN last unique",
        "NaN among quantiles",
    ],
)
@pytest.mark.parametrize("grid_resolution", [3, 100])
def test_nullable_and_missing_columns_keep_scikit_learns_grid(column, grid_resolution):
    # scikit-learn is given the nullable columns as float64, the values our
    # grid reads. (Both refuse a frame's integer columns, Int64 too, unless
    # they are categorical.)
    X = pd.DataFrame({"x": column, "other": np.arange(len(column), dtype=float)})
    as_floats = X.astype(float)
    model = make_pipeline(SimpleImputer(), Ridge()).fit(as_floats, X["other"])
    kwargs = dict(grid_resolution=grid_resolution)
    expected = sklearn_partial_dependence(model, as_floats, ["x"], **kwargs)
    got = partial_dependence(model, X, ["x"], missing="sklearn", **kwargs)
    assert_array_equal(got["grid_values"][0], expected["grid_values"][0])
    assert_blas_close(got["average"], expected["average"])


def _distribution_of(column):
    X = np.c_[column, np.ones(len(column))]
    model = _model(X)
    result = partial_dependence(model, X, [0], return_result=True, grid_resolution=5)
    return result.distributions[0]


@pytest.mark.parametrize("name", list(_columns()))
def test_distribution_is_numpys_and_scipys_on_the_unsorted_column(name):
    column = _columns()[name]
    values = column.astype(np.float64)
    finite = values[np.isfinite(values)]
    distribution = _distribution_of(column)
    edges = np.histogram_bin_edges(finite, bins="auto")
    n_bins = min(len(edges) - 1, 50)
    counts, edges = np.histogram(finite, bins=n_bins, range=(edges[0], edges[-1]))
    assert distribution.n_missing == len(values) - len(finite)
    assert_array_equal(distribution.bin_edges, edges)
    assert_array_equal(distribution.counts, counts)
    deciles = np.asarray(mquantiles(finite, prob=np.arange(0.1, 1.0, 0.1)))
    assert_array_equal(distribution.deciles, deciles)


def test_histogram_counts_values_on_the_edges_as_numpy_does():
    # Every value a bin edge (and many copies of each): where numpy's
    # arithmetic and a search of the edges could part ways.
    edges = np.linspace(-3.3, 7.1, 51)
    column = np.random.default_rng(0).permutation(np.repeat(edges, 7))
    distribution = _distribution_of(column)
    ends = (column.min(), column.max())
    auto = np.histogram_bin_edges(column, bins="auto")
    counts, _ = np.histogram(column, bins=min(len(auto) - 1, 50), range=ends)
    assert_array_equal(distribution.counts, counts)
