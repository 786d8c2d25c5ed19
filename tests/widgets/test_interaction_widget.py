"""The interaction widget without a browser: H² and the pair's surface are
the engine's, choosing a pair keeps H², bad settings are refused clearly."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.datasets import load_iris
from sklearn.ensemble import GradientBoostingClassifier

from inspectwidgets import (
    InteractionWidget,
    accumulated_local_effects,
    interaction_strength,
    partial_dependence,
)
from inspectwidgets.widgets import _interaction
from inspectwidgets.widgets._serialization import decode_binary_array as decode

WAIT = 60


class Products(RegressorMixin, BaseEstimator):
    """x0 x1 + x2 + x3²: one interacting pair."""

    def fit(self, X, y):
        self.n_features_in_ = np.shape(X)[1]
        return self

    def predict(self, X):
        X = np.asarray(X, dtype=float)
        return X[:, 0] * X[:, 1] + X[:, 2] + X[:, 3] ** 2


@pytest.fixture(scope="module")
def interacting():
    X = np.random.default_rng(0).uniform(-1, 1, size=(300, 5))
    return Products().fit(X, None), X


@pytest.fixture
def h2_calls(monkeypatch):
    calls = []

    def counted(*args, **kwargs):
        calls.append(kwargs)
        return interaction_strength(*args, **kwargs)

    monkeypatch.setattr(_interaction, "interaction_strength", counted)
    return calls


def test_h2_traits_are_the_engines(interacting):
    model, X = interacting
    w = InteractionWidget(model, X, n_samples=60, n_top=3, random_state=1)
    assert w.wait(timeout=WAIT) == "done", w.error
    expected = interaction_strength(model, X, n_top=3, n_samples=60, random_state=1)
    pd.testing.assert_frame_equal(w.to_frame(), expected)
    h2 = w._h2
    assert h2["features"][:2] in (["x0", "x1"], ["x1", "x0"])
    assert len(h2["features"]) == 3 and h2["n_samples"] == 60
    matrix = decode(h2["matrix"])
    assert np.isnan(np.diag(matrix)).all()
    assert_allclose(matrix, matrix.T)
    pair = expected[(expected["kind"] == "pair")]
    top = pair.iloc[0]
    i, j = h2["features"].index(top["feature"]), h2["features"].index(top["partner"])
    assert matrix[i, j] == pytest.approx(top["h_squared"], rel=1e-6)
    assert top["h_squared"] > 0.9  # x0 x1: a pure interaction
    single = expected[expected["kind"] == "one_vs_rest"].set_index("feature")
    assert_allclose(
        decode(h2["one_vs_rest"]),
        single.loc[h2["features"], "h_squared"],
        rtol=1e-6,
    )
    assert w._curve == {}


def test_choosing_a_pair_draws_it_and_keeps_h2(interacting, h2_calls):
    model, X = interacting
    w = InteractionWidget(model, X, n_samples=40, n_top=3, grid_resolution=6)
    assert w.wait(timeout=WAIT) == "done"
    assert len(h2_calls) == 1
    frame = w.result
    w.pair = ["x0", "x1"]
    assert w.wait(timeout=WAIT) == "done", w.error
    assert len(h2_calls) == 1 and w.result is frame  # H² kept
    expected = partial_dependence(
        model, X, [0, 1], grid_resolution=6, method="brute", return_result=True
    )
    assert w._curve["features"] == ["x0", "x1"]
    assert_allclose(decode(w._curve["average"]), expected.average[0], rtol=1e-6)
    w.kind = "ale"
    assert w.wait(timeout=WAIT) == "done", w.error
    ale = accumulated_local_effects(model, X, [0, 1], grid_resolution=6)
    assert_allclose(decode(w._curve["average"]), ale.centered[0], atol=1e-6)
    assert w._curve["effect"] == "ale" and len(h2_calls) == 1
    w.n_top = 2  # an H² setting: computed again
    assert w.wait(timeout=WAIT) == "done" and len(h2_calls) == 2
    assert len(w._h2["features"]) == 2
    w.run()  # Run recomputes H² too
    assert w.wait(timeout=WAIT) == "done" and len(h2_calls) == 3


def test_bad_settings_are_refused_naming_them(interacting):
    model, X = interacting
    w = InteractionWidget(model, X, n_samples=30, n_top=2)
    assert w.wait(timeout=WAIT) == "done"
    w.pair = ["x0", "x0"]
    assert w.status == "error" and w.error.startswith("ValueError: pair:")
    w.pair = ["x0", "nope"]
    assert w.status == "error" and "not among X's columns" in w.error
    w.pair = []
    assert w.wait(timeout=WAIT) == "done"
    w.features = ["x0"]
    assert w.status == "error" and "at least two" in w.error
    with pytest.raises(ValueError, match="pair"):
        InteractionWidget(model, X, pair=["x0"])
    with pytest.raises(Exception, match="n_top"):
        InteractionWidget(model, X, n_top=1)


def test_categorical_pair_h2_works_and_its_ale_is_refused():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {"c": rng.choice(["a", "b"], 200), "x": rng.uniform(-1, 1, 200),
         "z": rng.uniform(-1, 1, 200)}
    )  # fmt: skip
    before = X.copy()

    class Switch(RegressorMixin, BaseEstimator):
        """x where c is "a", -x where "b": c and x interact."""

        def fit(self, X, y):
            self.n_features_in_ = 3
            return self

        def predict(self, X):
            sign = np.where(np.asarray(X["c"]) == "a", 1.0, -1.0)
            return sign * np.asarray(X["x"], dtype=float) + np.asarray(X["z"])

    w = InteractionWidget(
        Switch().fit(X, None), X, n_samples=50, n_top=3, grid_resolution=4
    )
    assert w.wait(timeout=WAIT) == "done", w.error
    matrix, names = decode(w._h2["matrix"]), w._h2["features"]
    assert matrix[names.index("c"), names.index("x")] > 0.8  # near 1: sampling
    w.pair = ["c", "x"]
    assert w.wait(timeout=WAIT) == "done", w.error  # 2-way PD takes categories
    assert w._curve["categorical"] == [True, False]
    w.kind = "ale"
    assert w.status == "error" and "numeric" in w.error
    pd.testing.assert_frame_equal(X, before)


def test_a_class_change_redraws_without_computing(h2_calls):
    X, y = load_iris(return_X_y=True, as_frame=True)
    model = GradientBoostingClassifier(n_estimators=5, random_state=0).fit(X, y)
    w = InteractionWidget(model, X, n_samples=30, n_top=2, scale="log_odds")
    assert w.wait(timeout=WAIT) == "done", w.error
    shown = {}
    for target in ["0", "1", "2"]:
        w.target = target
        assert w.status == "done"
        shown[target] = decode(w._h2["one_vs_rest"]).copy()
    assert len(h2_calls) == 1
    assert not np.allclose(shown["0"], shown["1"])


class Sleeping(Products):
    """Products, sleeping `delay` s per predict call (one chunk)."""

    def __init__(self, delay=0.1):
        self.delay = delay

    def predict(self, X):
        import time

        time.sleep(self.delay)
        return super().predict(X)


def test_cancel_during_the_surface_keeps_h2_and_a_valid_partial_surface():
    import time

    X = np.random.default_rng(0).uniform(-1, 1, size=(400, 4))
    model = Sleeping().fit(X, None)
    w = InteractionWidget(
        model, X, n_samples=10, n_top=2, pair=["x0", "x1"], kind="ale",
        grid_resolution=4,
    )  # fmt: skip
    deadline = time.monotonic() + WAIT
    while w.pair_result is None and time.monotonic() < deadline:
        time.sleep(0.01)
    w.cancel()
    assert w.wait(timeout=WAIT) == "cancelled"
    frame, partial = w.result, w.pair_result
    assert frame is not None and 0 < partial.n_rows_done < partial.n_rows
    assert w._curve["features"] == ["x0", "x1"]
    model.delay = 0.0
    w.grid_resolution = 3  # a surface setting: H² is kept, the pair computed
    assert w.wait(timeout=WAIT) == "done", w.error
    assert w.result is frame and w.pair_result.done
