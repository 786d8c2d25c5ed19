"""Widgets under rapid changes, side by side, and with slow models: every run
ends in the engine's result for the final settings, cancel stops within one
prediction chunk, and the caller is never blocked. See docs/reliability.md."""

import random
import threading
import time

import numpy as np
import pytest
from gated import GatedRegressor
from matrix import data, forest
from numpy.testing import assert_allclose
from pandas.testing import assert_frame_equal
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.linear_model import LinearRegression

from inspectwidgets import (
    ImportanceComparisonWidget,
    PartialDependenceWidget,
    PermutationImportanceWidget,
    compare_importances,
    conditional_permutation_importance,
    partial_dependence,
    permutation_importance,
)

from numerics import assert_blas_close

N_CHANGES = 200
WAIT = 60


class SleepingRegressor(RegressorMixin, BaseEstimator):
    """Predicts X's first column, sleeping `delay` s per predict call: one
    call is one prediction chunk of the engine."""

    def __init__(self, delay=0.1):
        self.delay = delay

    def fit(self, X, y):
        self.n_features_in_ = np.shape(X)[1]
        return self

    def predict(self, X):
        time.sleep(self.delay)
        return np.asarray(X, dtype=float)[:, 0]


@pytest.fixture(scope="module")
def regression():
    X, y = data()
    return LinearRegression().fit(X, y), X, y


def _settle(w):
    """Wait for the last request; run once more if it was a stop."""
    status = w.wait(timeout=WAIT)
    if status != "done":
        w.run()
        status = w.wait(timeout=WAIT)
    assert status == "done", w.error


def _run_or_stop(w, rng):
    """One in five changes is a press of Run or Stop instead."""
    if rng.random() < 0.1:
        w.cancel()
        return True
    if rng.random() < 0.1:
        w.run()
        return True
    return False


def test_permutation_widget_survives_200_random_changes(regression):
    model, X, y = regression
    rng = random.Random(0)
    w = PermutationImportanceWidget(model, X, y, n_repeats=2)
    options = ["x0", "x1", "x2"]
    scorers = ["r2", "neg_mean_squared_error", "explained_variance"]
    for _ in range(N_CHANGES):
        if _run_or_stop(w, rng):
            continue
        change = rng.choice(
            ["features", "n_repeats", "scoring", "random_state", "method"]
        )
        if change == "features":
            w.features = rng.sample(options, rng.randint(1, 3))
        elif change == "method":
            w.method = rng.choice(["marginal", "conditional"])
        elif change == "n_repeats":
            w.n_repeats = rng.randint(1, 5)
        elif change == "scoring":
            w.scoring = rng.sample(scorers, rng.randint(1, 2))
        else:
            w.random_state = rng.randint(0, 1000)
    _settle(w)
    engine = (
        conditional_permutation_importance
        if w.method == "conditional"
        else permutation_importance
    )
    expected = engine(
        model,
        X,
        y,
        n_repeats=w.n_repeats,
        random_state=w.random_state,
        scoring=list(w.scoring),
        features=[int(f[1:]) for f in w.features],
    )
    # A list of scorers, even of one, gives a dict (as scikit-learn's).
    expected = expected if isinstance(expected, dict) else {w.scoring[0]: expected}
    for name in w.scoring:
        assert_blas_close(w.result.importances(name), expected[name].importances)
    w.close()


def test_partial_dependence_widget_survives_200_random_changes(regression):
    model, X, _ = regression
    rng = random.Random(1)
    w = PartialDependenceWidget(model, X, grid_resolution=5, n_ice=10)
    for _ in range(N_CHANGES):
        if _run_or_stop(w, rng):
            continue
        change = rng.choice(["features", "kind", "centered", "grid", "n_ice"])
        if change == "features":
            w.features = rng.sample(["x0", "x1", "x2"], rng.randint(1, 2))
        elif change == "kind":
            w.kind = rng.choice(["average", "individual", "both"])
        elif change == "centered":
            w.centered = not w.centered
        elif change == "grid":
            w.grid_resolution = rng.randint(2, 8)
        else:
            w.n_ice = rng.randint(1, 30)
    _settle(w)
    two_way = len(w.features) == 2
    expected = partial_dependence(
        model,
        X,
        [int(f[1:]) for f in w.features],
        method="brute",
        grid_resolution=w.grid_resolution,
        kind="average" if two_way else w.kind,
        centered=w.centered and not two_way,
        n_ice=None if two_way or w.kind == "average" else w.n_ice,
        random_state=0,
        return_result=True,
    )
    if expected.kind != "individual":
        assert_allclose(w.result.average, expected.average, rtol=1e-6, atol=1e-9)
    if expected.individual is not None:
        assert_allclose(w.result.individual, expected.individual, rtol=1e-6, atol=1e-9)
    w.close()


def test_comparison_widget_survives_200_random_changes():
    X, y = data()
    model = forest().fit(X, y)
    rng = random.Random(2)
    w = ImportanceComparisonWidget(model, X, y, X, y, n_repeats=1)
    for _ in range(N_CHANGES):
        if _run_or_stop(w, rng):
            continue
        change = rng.choice(
            [
                "n_repeats",
                "random_state",
                "correlation_threshold",
                "scoring",
                "conditional",
            ]
        )
        if change == "conditional":
            w.conditional = not w.conditional
        elif change == "n_repeats":
            w.n_repeats = rng.randint(1, 3)
        elif change == "random_state":
            w.random_state = rng.randint(0, 1000)
        elif change == "correlation_threshold":
            w.correlation_threshold = rng.uniform(0, 1)
        else:
            w.scoring = rng.choice(["r2", "neg_mean_absolute_error"])
    # The last change asks for the conditional measure (while a run may be
    # in flight): it is checked below against the engine.
    w.conditional = True
    _settle(w)
    expected = compare_importances(
        model,
        X,
        y,
        X,
        y,
        scoring=w.scoring,
        n_repeats=w.n_repeats,
        random_state=w.random_state,
    )
    frame = w.to_frame()
    conditional = [c for c in frame if c.startswith("permutation_conditional")]
    assert bool(conditional) == w.conditional
    assert_frame_equal(frame.drop(columns=conditional), expected)
    if w.conditional:
        on_test = conditional_permutation_importance(
            model,
            X,
            y,
            scoring=w.scoring,
            n_repeats=w.n_repeats,
            random_state=w.random_state,
        )
        assert_allclose(
            frame.loc[list(on_test.feature_names), "permutation_conditional_mean"],
            on_test.importances_mean,
        )
    w.close()


class RecordingRegressor(SleepingRegressor):
    """A SleepingRegressor noting which thread predicted, from when to when."""

    def fit(self, X, y):
        self.calls_ = []
        return super().fit(X, y)

    def predict(self, X):
        started = time.perf_counter()
        values = super().predict(X)
        self.calls_.append(
            (threading.current_thread().name, started, time.perf_counter())
        )
        return values


def test_two_widgets_on_the_same_model_run_at_once():
    X, y = data()
    model = RecordingRegressor(delay=0.05).fit(X, y)
    permutation = PermutationImportanceWidget(model, X, y, n_repeats=10)
    dependence = PartialDependenceWidget(model, X, grid_resolution=20, n_ice=60)
    assert permutation.wait(timeout=WAIT) == dependence.wait(timeout=WAIT) == "done"
    # Their predictions overlapped in time. Permutation importance predicts
    # on its widget's thread, partial dependence on a pool of its own.
    spans = {True: [], False: []}
    for thread, start, end in model.calls_:
        spans[thread.startswith("PermutationImportanceWidget")].append((start, end))
    assert spans[True] and spans[False]
    assert any(a < d and c < b for a, b in spans[True] for c, d in spans[False])
    expected = permutation_importance(model, X, y, n_repeats=10, random_state=0)
    assert_allclose(permutation.result.importances(), expected.importances)
    curve = partial_dependence(
        model, X, [0], grid_resolution=20, kind="both", n_ice=60, random_state=0
    )
    assert_allclose(dependence.result.average, curve["average"], rtol=1e-6)
    permutation.close()
    dependence.close()


def _gated_widgets():
    """Each widget on a gated model: its first predict calls run, so a
    result is shown, and the next one waits for the test."""
    X, y = data()
    return {
        "permutation": lambda model: PermutationImportanceWidget(
            model.fit(X, y), X, y, n_repeats=1000
        ),
        "partial dependence": lambda model: PartialDependenceWidget(
            model.fit(X, y), X, grid_resolution=1000, n_ice=10
        ),
    }


@pytest.mark.parametrize("name", ["permutation", "partial dependence"])
def test_cancel_lets_the_chunk_in_flight_end_and_starts_no_other(name):
    """One predict call is one chunk: cancel() while a chunk is in flight,
    that chunk ends and no other starts. Both widgets predict one chunk at
    a time (permutation's n_jobs=None, partial dependence without a pool)."""
    model = GatedRegressor(free_calls=2)
    w = _gated_widgets()[name](model)
    model.wait_for_a_waiting_call()
    model.mark("cancel")
    w.cancel()
    model.open()
    assert w.wait(timeout=WAIT) == "cancelled"
    assert model.after("cancel") == ["predict ended"]
    assert w.result is not None  # the chunks done before cancel are kept
    w.close()


def test_a_slow_model_keeps_the_caller_free():
    """run() and a change of setting return while a prediction is still
    waiting: the caller never waits for the model."""
    X, y = data()
    model = GatedRegressor().fit(X, y)
    w = PermutationImportanceWidget(model, X, y, n_repeats=50, run=False)
    w.run()
    model.wait_for_a_waiting_call()
    model.mark("run() returned")
    assert w.status == "running"
    w.n_repeats = 40  # a change while it runs: the old run is cancelled
    model.mark("n_repeats set")
    model.open()
    assert w.wait(timeout=WAIT) == "done"
    # Both returned before the waiting prediction ended.
    later = model.after("run() returned")
    assert later.index("n_repeats set") < later.index("predict ended")
    assert w.result.n_repeats_done == 40
    w.close()
