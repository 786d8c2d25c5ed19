"""The partial dependence widget's accumulated local effects kinds, without a
browser: traits set from the engine, what a kind switch recomputes, cancel,
bad settings."""

import time

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.datasets import load_diabetes, load_iris
from sklearn.ensemble import GradientBoostingClassifier, RandomForestRegressor

from inspectwidgets import (
    AccumulatedLocalEffectsResult,
    PartialDependenceWidget,
    accumulated_local_effects,
    iter_accumulated_local_effects,
    iter_partial_dependence,
    partial_dependence,
)
from inspectwidgets.widgets import _effect_streams
from inspectwidgets.widgets._serialization import decode_binary_array as decode

WAIT = 60


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    return RandomForestRegressor(n_estimators=10, random_state=0).fit(X, y), X


@pytest.fixture
def streams(monkeypatch):
    """The engine streams the widget starts, by kind ("pd" or "ale")."""
    started = []

    def counted(name, function):
        def wrapper(*args, **kwargs):
            started.append(name)
            return function(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(
        _effect_streams,
        "iter_partial_dependence",
        counted("pd", iter_partial_dependence),
    )
    monkeypatch.setattr(
        _effect_streams,
        "iter_accumulated_local_effects",
        counted("ale", iter_accumulated_local_effects),
    )
    return started


def test_ale_traits_are_the_engines(diabetes):
    model, X = diabetes
    w = PartialDependenceWidget(model, X, features="bmi", kind="ale", grid_resolution=8)
    assert w.wait(timeout=WAIT) == "done", w.error
    expected = accumulated_local_effects(model, X, "bmi", grid_resolution=8)
    assert isinstance(w.result, AccumulatedLocalEffectsResult)
    assert w.pd_result is None
    curve = w._curve
    assert curve["effect"] == "ale" and curve["average"] is None
    assert_allclose(decode(curve["grid"]), expected.edges[0], rtol=1e-6)
    assert_allclose(decode(curve["ale"]["values"]), expected.centered[0], rtol=1e-5)
    lower, upper = expected.band()
    assert_allclose(decode(curve["ale"]["lower"]), lower[0], rtol=1e-5)
    assert_allclose(decode(curve["ale"]["upper"]), upper[0], rtol=1e-5)
    # The band is the spread of the local effects of the bin ending there.
    assert_allclose(
        upper[0][1:] - expected.centered[0][1:], expected.local_effects_std[0]
    )
    assert_allclose(decode(curve["distribution"]["counts"]), expected.bin_counts)
    assert_allclose(
        decode(curve["distribution"]["edges"]), expected.edges[0], rtol=1e-6
    )
    assert curve["y_label"] == "accumulated local effect on the prediction"
    assert_allclose(w.to_frame()["effect"], expected.to_frame()["effect"])


def test_overlay_is_pd_at_the_ale_edges_centred_alike(diabetes):
    model, X = diabetes
    w = PartialDependenceWidget(
        model, X, features="bmi", kind="average_and_ale", grid_resolution=8
    )
    assert w.wait(timeout=WAIT) == "done", w.error
    ale = accumulated_local_effects(model, X, "bmi", grid_resolution=8)
    column = X.columns.get_loc("bmi")
    pd_result = partial_dependence(
        model,
        X,
        [column],
        custom_values={column: ale.edges[0]},
        method="brute",
        return_result=True,
    )
    curve = w._curve
    assert curve["effect"] == "overlay"
    drawn = decode(curve["average"])
    assert_allclose(drawn, ale.center_partial_dependence(pd_result)[0], rtol=1e-5)
    # Centred as the ALE: weighted mean 0 over the rows at bin midpoints.
    midpoints = (drawn[:-1] + drawn[1:]) / 2
    assert abs(midpoints @ ale.bin_counts) < 1e-3 * np.abs(drawn).max() * len(X)
    assert_allclose(decode(curve["ale"]["values"]), ale.centered[0], rtol=1e-5)
    assert w.result.done and w.pd_result.complete
    assert len(w.figure().axes[0].lines) == 2  # the static picture has both


def test_kind_switches_recompute_only_what_is_missing(diabetes, streams):
    model, X = diabetes
    w = PartialDependenceWidget(model, X, features="bmi", kind="ale", grid_resolution=6)
    assert w.wait(timeout=WAIT) == "done"
    # Construction validates by opening the stream once, then the run.
    assert streams == ["ale", "ale"]
    ale = w.result
    streams.clear()
    w.kind = "average_and_ale"  # the ALE is kept: only the PD is computed
    assert w.wait(timeout=WAIT) == "done"
    assert streams == ["pd"] and w.result is ale
    w.kind = "ale"  # everything needed is held: redrawn at once
    assert w.status == "done" and w._curve["effect"] == "ale"
    w.centered = True  # means nothing for ALE: no run
    w.kind = "average_and_ale"
    assert w.status == "done" and w._curve["effect"] == "overlay"
    assert streams == ["pd"]
    w.kind = "average"  # a PD on its own grid
    assert w.wait(timeout=WAIT) == "done"
    assert streams == ["pd", "pd"] and w._curve["effect"] == "pd"
    w.grid_resolution = 5  # new bins: computed again
    w.kind = "ale"
    assert w.wait(timeout=WAIT) == "done"
    assert streams[-1] == "ale" and len(w.result.edges[0]) == 6
    streams.clear()
    w.run()  # Run recomputes everything
    assert w.wait(timeout=WAIT) == "done" and streams == ["ale"]


class SleepingRegressor(RegressorMixin, BaseEstimator):
    """Predicts X's first column, sleeping `delay` s per predict call (one
    chunk of the engine)."""

    def __init__(self, delay=0.2):
        self.delay = delay

    def fit(self, X, y):
        self.n_features_in_ = np.shape(X)[1]
        return self

    def predict(self, X):
        time.sleep(self.delay)
        return np.asarray(X, dtype=float)[:, 0]


def test_cancel_keeps_a_valid_partial_ale_and_nothing_is_held():
    X = np.random.default_rng(0).normal(size=(400, 2))
    model = SleepingRegressor().fit(X, X[:, 0])
    w = PartialDependenceWidget(model, X, kind="average_and_ale", grid_resolution=4)
    deadline = time.monotonic() + WAIT
    while w.result is None and time.monotonic() < deadline:
        time.sleep(0.01)
    w.cancel()
    assert w.wait(timeout=WAIT) == "cancelled"
    assert w.result is not None and 0 < w.result.n_rows_done < w.result.n_rows
    assert w.pd_result is None  # the PD never started
    assert w._held == {}  # a partial ALE is never reused
    model.delay = 0.0
    w.kind = "ale"
    assert w.wait(timeout=WAIT) == "done" and w.result.done


def test_bad_settings_are_refused_naming_them_and_leave_the_widget_usable(diabetes):
    model, X = diabetes
    w = PartialDependenceWidget(model, X, features="bmi", kind="ale", grid_resolution=5)
    assert w.wait(timeout=WAIT) == "done"
    w.features = ["bmi", "bp"]
    assert w.wait(timeout=WAIT) == "done", w.error  # a pair's 2-way ALE
    assert decode(w._curve["average"]).shape == (6, 6)
    assert w._curve["y_label"].startswith("second-order")
    w.kind = "average_and_ale"
    assert w.status == "error" and w.error.startswith("ValueError: kind:")
    assert "one feature" in w.error
    w.features = ["bmi"]
    assert w.wait(timeout=WAIT) == "done"
    with pytest.raises(ValueError, match="kind: 'average_and_ale'"):
        PartialDependenceWidget(
            model, X, features=["bmi", "bp"], kind="average_and_ale"
        )
    with pytest.raises(Exception, match="kind"):
        PartialDependenceWidget(model, X, kind="pdp")


def test_a_second_feature_under_the_overlay_draws_the_pairs_ale(diabetes, streams):
    """The page offers PD and ALE for one feature only: picking a second one
    while it is shown switches `kind` to the pair's ALE (one run, no error),
    so the kind dropdown shows what is computed."""
    model, X = diabetes
    w = PartialDependenceWidget(
        model, X, features="bmi", kind="average_and_ale", grid_resolution=5
    )
    assert w.wait(timeout=WAIT) == "done", w.error
    changes = []
    w.observe(lambda change: changes.append(change["new"]), names=["kind"])
    n_streams = len(streams)
    w.features = ["bmi", "bp"]  # as the page's second dropdown sends it
    assert w.wait(timeout=WAIT) == "done", w.error
    assert (w.kind, w.error, changes) == ("ale", "", ["ale"])
    assert streams[n_streams:] == ["ale"]
    assert w._curve["features"] == ["bmi", "bp"]
    assert w._curve["y_label"].startswith("second-order")
    expected = accumulated_local_effects(model, X, ["bmi", "bp"], grid_resolution=5)
    assert_allclose(decode(w._curve["average"]), expected.centered[0], rtol=1e-5)
    w.features = ["bmi"]  # back to one feature: its ALE, as the trait says
    assert w.wait(timeout=WAIT) == "done", w.error
    assert w.kind == "ale" and w._curve["features"] == ["bmi"]


def test_categorical_pair_is_refused_clearly_and_x_is_untouched():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"c": rng.choice(["a", "b", "c"], 200), "x": rng.normal(size=200)})
    before = X.copy()
    model = _FirstNumeric().fit(X, X["x"])
    w = PartialDependenceWidget(model, X, features=["x"], kind="ale", grid_resolution=4)
    assert w.wait(timeout=WAIT) == "done", w.error
    w.features = ["c", "x"]
    assert w.status == "error" and "numeric" in w.error
    w.features = ["c"]  # one categorical feature: ordered categories
    assert w.wait(timeout=WAIT) == "done", w.error
    assert w._curve["categorical"] is True
    assert sorted(w._curve["grid_labels"]) == ["a", "b", "c"]
    pd.testing.assert_frame_equal(X, before)


class _FirstNumeric(RegressorMixin, BaseEstimator):
    """x plus 1 where c is "b": a model of a frame with a string column."""

    def fit(self, X, y):
        self.n_features_in_ = 2
        return self

    def predict(self, X):
        return np.asarray(X["x"], dtype=float) + (np.asarray(X["c"]) == "b")


def test_classifier_classes_and_log_odds(streams):
    X, y = load_iris(return_X_y=True, as_frame=True)
    model = GradientBoostingClassifier(n_estimators=5, random_state=0).fit(X, y)
    w = PartialDependenceWidget(
        model, X, features="petal width (cm)", kind="average_and_ale",
        grid_resolution=5, scale="log_odds",
    )  # fmt: skip
    assert w.wait(timeout=WAIT) == "done", w.error
    # The class name isolated inside the sentence (#49).
    assert "centered log-odds of class \u20682\u2069" in w._curve["y_label"]
    expected = accumulated_local_effects(
        model, X, "petal width (cm)", grid_resolution=5, scale="log_odds"
    )
    n_streams = len(streams)
    for target, output in [("0", 0), ("1", 1)]:
        w.target = target  # every class is computed: redrawn, not predicted
        assert w.status == "done"
        assert_allclose(
            decode(w._curve["ale"]["values"]), expected.centered[output], rtol=1e-5
        )
        assert f"class \u2068{target}\u2069" in w._curve["y_label"]
    assert len(streams) == n_streams


# Seeds whose last kind is, in turn, "average", "ale" and "average_and_ale".
@pytest.mark.parametrize("seed", [0, 1, 4])
def test_random_changes_end_in_the_engines_result_for_the_final_settings(
    diabetes, seed
):
    """50 seeded random changes of features, kind and grid, some while a run
    streams, some back to settings already computed (kept parts): the final
    traits are the engine's for the final settings."""
    model, X = diabetes
    rng = np.random.default_rng(seed)
    w = PartialDependenceWidget(model, X, features="bmi", kind="ale", grid_resolution=4)
    for _ in range(50):
        change = rng.choice(["features", "kind", "grid"])
        if change == "features":
            w.features = [str(rng.choice(["bmi", "bp", "s5"]))]
        elif change == "kind":
            w.kind = str(rng.choice(["ale", "average_and_ale", "average"]))
        else:
            w.grid_resolution = int(rng.integers(3, 6))
        if rng.random() < 0.3:
            w.wait(timeout=WAIT)
    assert w.wait(timeout=WAIT) == "done", w.error
    assert w.kind == {0: "average", 1: "ale", 4: "average_and_ale"}[seed]
    feature, bins = w.features[0], w.grid_resolution
    curve = w._curve
    if w.kind == "average":
        expected = partial_dependence(
            model, X, [feature], grid_resolution=bins, method="brute",
            return_result=True,
        )  # fmt: skip
        assert_allclose(decode(curve["average"]), expected.average[0], rtol=1e-5)
        return
    ale = accumulated_local_effects(model, X, feature, grid_resolution=bins)
    assert curve["features"] == [feature]
    assert_allclose(decode(curve["grid"]), ale.edges[0], rtol=1e-6)
    assert_allclose(decode(curve["ale"]["values"]), ale.centered[0], rtol=1e-5)
    if w.kind == "average_and_ale":
        column = X.columns.get_loc(feature)
        dependence = partial_dependence(
            model, X, [column], custom_values={column: ale.edges[0]},
            method="brute", return_result=True,
        )  # fmt: skip
        assert_allclose(
            decode(curve["average"]),
            ale.center_partial_dependence(dependence)[0],
            rtol=1e-5,
            atol=1e-6,
        )


def test_a_categorical_feature_with_missing_values_gets_a_missing_category():
    """Issue #52, item 9: the widget refused it; now its missing values are
    the category "missing", as partial dependence's."""
    from sklearn.compose import make_column_transformer
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import Ridge
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    rng = np.random.default_rng(0)
    n = 300
    X = pd.DataFrame(
        {
            "tenure": rng.integers(0, 72, n).astype(float),
            "plan": pd.Series(rng.choice(["basic", "pro", None], n)),
        }
    )
    y = X["tenure"] / 10 + 3 * (X["plan"] == "pro") + 5 * X["plan"].isna()
    plan = make_pipeline(
        SimpleImputer(strategy="constant", fill_value="zz"), OneHotEncoder()
    )
    model = make_pipeline(
        make_column_transformer((plan, ["plan"]), remainder="passthrough"), Ridge()
    ).fit(X, y)
    w = PartialDependenceWidget(
        model, X, features="plan", kind="ale", categorical_features=["plan"]
    )
    assert w.wait(60) == "done", w.error
    assert sorted(w._curve["grid_labels"]) == ["basic", "missing", "pro"]
    frame = w.to_frame()
    assert frame["plan"].isna().sum() == 1  # the missing category's row
    w.close()
