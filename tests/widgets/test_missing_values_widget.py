"""The partial dependence widget on features with missing values and integer
features: the curve of the observed grid, the missing value's point beside
it (the engine's numbers with ``missing="observed"``), the rows missing the
value in the distribution, or the reason there is no point."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.compose import make_column_transformer
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OrdinalEncoder

from inspectwidgets import PartialDependenceWidget, partial_dependence
from inspectwidgets.widgets._serialization import decode_binary_array

WAIT = 60


@pytest.fixture(scope="module")
def table():
    rng = np.random.default_rng(0)
    n = 200
    X = pd.DataFrame(
        {
            "charges": rng.gamma(2.0, 30.0, n),
            "tenure": rng.integers(0, 72, n),
            "plan": rng.choice(["basic", "plus", "pro"], n).astype(object),
        }
    )
    X.loc[rng.random(n) < 0.08, "charges"] = np.nan
    X.loc[rng.random(n) < 0.08, "plan"] = np.nan
    y = np.nan_to_num(X["charges"].to_numpy(), nan=200.0) / 30 + X["tenure"] / 20
    encode = make_column_transformer(
        (OrdinalEncoder(encoded_missing_value=np.nan), ["plan"]),
        remainder="passthrough",
    )
    model = make_pipeline(encode, HistGradientBoostingRegressor(max_iter=15))
    return model.fit(X, y), X


def _done(widget):
    try:
        assert widget.wait(timeout=WAIT) == "done", widget.error
        return widget._curve
    finally:
        widget.close()


def test_numeric_feature_draws_observed_curve_and_missing_point(table):
    model, X = table
    kwargs = dict(grid_resolution=8, n_ice=10, random_state=0)
    curve = _done(PartialDependenceWidget(model, X, features=["charges"], **kwargs))
    engine = partial_dependence(
        model, X, ["charges"], method="brute", kind="both", missing="observed",
        return_result=True, **kwargs,
    )  # fmt: skip
    grid = decode_binary_array(curve["grid"])
    assert np.isfinite(grid).all() and len(grid) == 8
    assert_array_equal(grid, engine.grid_values[0][:-1].astype(np.float32))
    assert_array_equal(
        decode_binary_array(curve["average"]), engine.average[0, :-1].astype("f4")
    )
    point = curve["missing"]
    assert point["n_missing"] == int(X["charges"].isna().sum()) > 0
    assert point["average"] == pytest.approx(engine.average[0, -1])
    assert_array_equal(
        decode_binary_array(point["individual"]),
        engine.individual[0, :, -1].astype("f4"),
    )
    assert curve["distribution"]["n_missing"] == point["n_missing"]


def test_integer_feature_is_drawn_as_numbers(table):
    model, X = table
    curve = _done(
        PartialDependenceWidget(model, X, features=["tenure"], grid_resolution=6)
    )
    engine = partial_dependence(
        model, X.astype({"tenure": float}), ["tenure"], method="brute",
        grid_resolution=6, kind="both",
    )  # fmt: skip
    assert_array_equal(
        decode_binary_array(curve["grid"]), engine["grid_values"][0].astype("f4")
    )
    assert curve["missing"] is None
    assert X["tenure"].dtype == np.int64


def test_categorical_missing_value_is_a_category_labelled_missing(table):
    model, X = table
    curve = _done(PartialDependenceWidget(model, X, features=["plan"]))
    assert curve["grid_labels"] == ["basic", "plus", "pro", "missing"]
    assert curve["distribution"]["labels"][-1] == "missing"
    assert np.isfinite(decode_binary_array(curve["average"])).all()


def test_a_model_refusing_missing_values_gets_a_note_not_a_point(table):
    _, X = table
    X = X[["charges", "tenure"]]
    model = LinearRegression().fit(X.fillna(0.0), X["tenure"])
    curve = _done(PartialDependenceWidget(model, X, features=["charges"]))
    assert curve["missing"]["average"] is None
    assert curve["missing"]["n_missing"] > 0
    assert (
        "LinearRegression does not take a missing 'charges'" in (curve["missing_note"])
    )
    assert np.isfinite(decode_binary_array(curve["average"])).all()


def test_a_surface_leaves_the_missing_points_out(table):
    model, X = table
    kwargs = dict(grid_resolution=5, random_state=0)
    curve = _done(
        PartialDependenceWidget(model, X, features=["charges", "tenure"], **kwargs)
    )
    grid, grid_y = (decode_binary_array(curve[k]) for k in ("grid", "grid_y"))
    average = decode_binary_array(curve["average"])
    assert np.isfinite(grid).all() and np.isfinite(grid_y).all()
    assert average.shape == (len(grid), len(grid_y)) == (5, 5)
    engine = partial_dependence(
        model, X.astype({"tenure": float}), ["charges", "tenure"], method="brute",
        missing="observed", return_result=True, **kwargs,
    )  # fmt: skip
    assert engine.missing == (True, False)
    assert_array_equal(average, engine.average[0, :-1, :].astype("f4"))
