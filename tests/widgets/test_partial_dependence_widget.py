"""The partial dependence widget without a browser."""

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from numpy.testing import assert_allclose
from sklearn.compose import make_column_transformer
from sklearn.datasets import load_diabetes, load_iris
from sklearn.ensemble import GradientBoostingClassifier, RandomForestRegressor
from sklearn.linear_model import Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder
from sklearn.svm import LinearSVC

from inspectwidgets import (
    PartialDependenceDisplay,
    PartialDependenceWidget,
    iter_partial_dependence,
    partial_dependence,
)
from inspectwidgets.widgets._serialization import decode_binary_array


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    return RandomForestRegressor(n_estimators=20, random_state=0).fit(X, y), X


def test_curve_equals_the_engine_and_streams_to_completion(diabetes):
    model, X = diabetes
    w = PartialDependenceWidget(model, X, features="bmi", grid_resolution=20, n_ice=30)
    assert w.wait(timeout=60) == "done"
    expected = partial_dependence(
        model,
        X,
        ["bmi"],
        grid_resolution=20,
        kind="both",
        n_ice=30,
        random_state=0,
        return_result=True,
    )
    curve = w._curve
    assert curve["grid_done"] == 20 and curve["features"] == ["bmi"]
    assert_allclose(
        decode_binary_array(curve["grid"]), expected.grid_values[0], rtol=1e-6
    )
    assert_allclose(
        decode_binary_array(curve["average"]), expected.average[0], rtol=1e-5
    )
    assert decode_binary_array(curve["individual"]).shape == (30, 20)
    assert curve["distribution"]["kind"] == "histogram"
    assert decode_binary_array(curve["distribution"]["deciles"]).shape == (9,)
    # What the chart draws: the average's curve and the 30 ICE curves.
    frame = w.to_frame()
    assert frame.shape[0] == 20 * 31
    assert_allclose(frame["value"], expected.to_frame(ice=True)["value"], rtol=1e-5)
    assert w.figure().axes


def test_two_features_give_a_surface_and_centering_anchors_curves(diabetes):
    model, X = diabetes
    w = PartialDependenceWidget(model, X, features=["bmi", "bp"], grid_resolution=10)
    assert w.wait(timeout=60) == "done"
    assert decode_binary_array(w._curve["average"]).shape == (10, 10)
    assert w._curve["distribution_y"]["kind"] == "histogram"
    w.features, w.centered = ["s5"], True
    assert w.wait(timeout=60) == "done"
    ice = decode_binary_array(w._curve["individual"])
    assert_allclose(ice[:, 0], 0, atol=1e-6)


def test_classes_scale_and_correlation_warning():
    X, y = load_iris(return_X_y=True, as_frame=True)
    model = GradientBoostingClassifier(n_estimators=10, random_state=0).fit(X, y)
    w = PartialDependenceWidget(
        model, X, features="petal width (cm)", scale="log_odds", grid_resolution=8
    )
    assert w.wait(timeout=60) == "done"
    assert w._target_options == ["0", "1", "2"] and w.target == "2"
    # The class name isolated inside the sentence (#49).
    assert "centered log-odds of class \u20682\u2069" in w._curve["y_label"]
    correlated = w._curve["correlated"]
    assert {c["partner"] for c in correlated} == {
        "petal length (cm)",
        "sepal length (cm)",
    }
    assert all(c["feature"] == "petal width (cm)" for c in correlated)
    assert all(abs(c["rho"]) >= 0.8 for c in correlated)
    assert "strongly correlated" in correlated[0]["message"]
    average = decode_binary_array(w._curve["average"])
    w.target = "0"
    assert w.wait(timeout=60) == "done"
    assert not np.allclose(decode_binary_array(w._curve["average"]), average)
    # The Display's `target` takes the trait's value; figure() draws it.
    drawn = w.figure().axes[0].lines[-1].get_ydata()
    assert_allclose(drawn, w.result.average[0])
    display = PartialDependenceDisplay(w.result).plot(
        ax=Figure().subplots(), target=w.target
    )
    assert_allclose(display.lines_[-1].get_ydata(), drawn)
    w.target = "7"
    assert w.status == "error" and "not a class shown here" in w.error


def test_bad_settings_inline_and_bad_construction_raises(diabetes):
    model, X = diabetes
    w = PartialDependenceWidget(model, X, features="bmi", grid_resolution=5)
    w.wait(timeout=60)
    w.features = ["bmi", "bmi"]
    assert w.status == "error" and "features" in w.error
    w.features = ["bmi"]
    assert w.wait(timeout=60) == "done"
    with pytest.raises(ValueError, match="nope"):
        PartialDependenceWidget(model, X, features="nope")


def test_string_columns_and_non_string_labels():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {0: rng.choice(["red", "green", "blue"], 300), 1: rng.normal(size=300)}
    )
    y = (X[0] == "red") * 2.0 + X[1]
    encode = make_column_transformer((OneHotEncoder(), [0]), remainder="passthrough")
    model = make_pipeline(encode, Ridge()).fit(X, y)
    # No categorical_features: the string column is categorical anyway.
    w = PartialDependenceWidget(model, X, features=0, grid_resolution=10)
    assert w.features == ["0"] and w._categorical == ["0"]
    assert w.wait(timeout=60) == "done"
    expected = partial_dependence(
        model, X, [0], categorical_features=[0], kind="both", return_result=True
    )
    assert w._curve["grid_labels"] == ["blue", "green", "red"]
    assert_allclose(
        decode_binary_array(w._curve["average"]), expected.average[0], rtol=1e-6
    )
    w.features = ["0", "1"]
    assert w.wait(timeout=60) == "done"
    assert "image/png" in w._repr_mimebundle_()[0]  # the static chart draws
    w.features = ["2"]
    assert w.status == "error" and "not among X's columns" in w.error


def test_averages_are_brute_force_whatever_the_kind(diabetes):
    # A forest has a recursion; the widget must not switch to it for "average".
    model, X = diabetes
    w = PartialDependenceWidget(model, X, features="bmi", grid_resolution=10)
    assert w.wait(timeout=60) == "done"
    both = decode_binary_array(w._curve["average"])
    w.kind = "average"
    assert w.wait(timeout=60) == "done"
    assert w.result.method == "brute"
    assert_allclose(decode_binary_array(w._curve["average"]), both)


def test_decision_function_is_labelled_as_such():
    X, y = load_iris(return_X_y=True, as_frame=True)
    model = LinearSVC(random_state=0).fit(X, y)
    w = PartialDependenceWidget(
        model, X, features="sepal width (cm)", grid_resolution=5
    )
    assert w.wait(timeout=60) == "done"
    assert w._curve["y_label"] == "decision function, class \u20682\u2069"


def test_a_class_change_redraws_the_stored_result_without_predicting(monkeypatch):
    from inspectwidgets.widgets import _effect_streams

    X, y = load_iris(return_X_y=True, as_frame=True)
    model = GradientBoostingClassifier(n_estimators=5, random_state=0).fit(X, y)
    streams = []

    def counted(*args, **kwargs):
        streams.append(kwargs)
        return iter_partial_dependence(*args, **kwargs)

    monkeypatch.setattr(_effect_streams, "iter_partial_dependence", counted)
    w = PartialDependenceWidget(model, X, features="petal width (cm)", run=False)
    w.grid_resolution = 8
    w.run()
    assert w.wait(timeout=60) == "done"
    n_streams, result = len(streams), w.result
    expected = partial_dependence(
        model,
        X,
        ["petal width (cm)"],
        grid_resolution=8,
        kind="both",
        n_ice=100,
        random_state=0,
        method="brute",
        return_result=True,
    )
    for target, output in [("0", 0), ("1", 1), ("2", 2)]:
        w.target = target
        assert w.status == "done" and w.result is result
        assert_allclose(
            decode_binary_array(w._curve["average"]),
            expected.average[output],
            rtol=1e-6,
        )
        assert f"class \u2068{target}\u2069" in w._curve["y_label"]
    assert len(streams) == n_streams  # no new engine run, so no prediction
    # After an error (an unknown class), a valid class computes again.
    w.target = "7"
    assert w.status == "error"
    w.target = "1"
    assert w.wait(timeout=60) == "done" and len(streams) == n_streams + 1


def test_a_widget_refused_at_construction_closes_quietly_when_collected(monkeypatch):
    """ipywidgets closes a widget again when it is collected: one whose
    __init__ raised (here on an unfitted model) must not raise from close()."""
    import gc
    import sys

    from sklearn.exceptions import NotFittedError

    X, _ = load_diabetes(return_X_y=True, as_frame=True)
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    with pytest.raises(NotFittedError):
        PartialDependenceWidget(Ridge(), X, features="bmi")
    gc.collect()
    assert [str(hook.exc_value) for hook in unraisable] == []
