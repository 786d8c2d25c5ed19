"""The permutation widget without a browser: traits, threads, cancellation."""

import random
import time

import numpy as np
import pandas as pd
import pytest
from common.gated import HANG_GUARD, GatedRegressor
from ipywidgets.widgets.widget import _remove_buffers
from numpy.testing import assert_array_equal
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.datasets import load_diabetes, make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import Ridge

from inspectwidgets import (
    PermutationImportanceDisplay,
    PermutationImportanceWidget,
    permutation_importance,
)
from inspectwidgets.widgets._serialization import binary_array, decode_binary_array

from numerics import assert_blas_close


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    return Ridge(alpha=1e-2).fit(X, y), X, y


class SlowRegressor(RegressorMixin, BaseEstimator):
    """Predicts X's first column after a pause; can fail after some calls."""

    def __init__(self, delay=0.02, fail_after=None):
        self.delay = delay
        self.fail_after = fail_after

    def fit(self, X, y):
        self.calls_ = 0
        return self

    def predict(self, X):
        self.calls_ += 1
        if self.fail_after is not None and self.calls_ > self.fail_after:
            raise RuntimeError("the model broke down")
        time.sleep(self.delay)
        return np.asarray(X)[:, 0].astype(float)


def test_trait_flow_matches_the_engine(diabetes):
    model, X, y = diabetes
    w = PermutationImportanceWidget(
        model, X, y, n_repeats=6, scoring=["r2", "neg_mean_absolute_error"]
    )
    assert w.wait(timeout=HANG_GUARD) == "done"
    assert (w.status, w.progress, w.error) == ("done", 1.0, "")
    assert (w._repeats_done, w._repeats_total) == (6, 6)
    expected = permutation_importance(
        model,
        X,
        y,
        n_repeats=6,
        random_state=0,
        scoring=["r2", "neg_mean_absolute_error"],
    )
    for name in ("r2", "neg_mean_absolute_error"):
        # Ridge predicts with BLAS, and the widget's chunks are sized by time.
        assert_blas_close(w.result.importances(name), expected[name].importances)
        chart = w._chart["scorers"][name]
        mean = decode_binary_array(chart["mean"])
        order = np.argsort(-expected[name].importances_mean, kind="stable")
        assert chart["features"] == list(X.columns[order])
        np.testing.assert_allclose(
            mean, expected[name].importances_mean[order], rtol=1e-6
        )
        assert decode_binary_array(chart["values"]).shape == (10, 6)
    assert w._scorer_options[:2] == ["r2", "neg_mean_absolute_error"]
    assert "roc_auc" not in w._scorer_options


def test_python_trait_changes_rerun_and_display_changes_do_not(diabetes):
    model, X, y = diabetes
    w = PermutationImportanceWidget(
        model, X, y, n_repeats=3, scoring=["r2", "explained_variance"]
    )
    w.wait(timeout=HANG_GUARD)
    w.n_repeats = 4
    assert w.wait(timeout=HANG_GUARD) == "done" and w.result.n_repeats_done == 4
    before = w.result
    w.scorer = "explained_variance"
    w.kind = "box"
    assert w.result is before and w.status == "done"
    w.max_features = 3
    assert w._chart["scorers"]["r2"]["n_hidden"] == 7 and w.result is before
    w.scoring = ["neg_mean_squared_error"]
    w.wait(timeout=HANG_GUARD)
    assert w.scorer == "neg_mean_squared_error"
    assert list(w._chart["scorers"]) == ["neg_mean_squared_error"]


def test_run_and_stop_requests_from_the_front_end(diabetes):
    _, X, y = diabetes
    model = SlowRegressor(delay=0.05).fit(X, y)
    w = PermutationImportanceWidget(model, X, y, n_repeats=200, run=False)
    assert w.status == "idle" and w.result is None
    w._run_requests += 1  # what the Run button does
    deadline = time.monotonic() + 30
    while w.result is None and time.monotonic() < deadline:
        time.sleep(0.01)
    w._stop_requests += 1  # what the Stop button does
    assert w.wait(timeout=HANG_GUARD) == "cancelled"
    done = w.result.n_repeats_done
    assert 1 <= done < 200
    expected = permutation_importance(model, X, y, n_repeats=200, random_state=0)
    # Stopped within the first round, the result holds the features done.
    rows = [list(X.columns).index(f) for f in w.result.feature_names]
    assert_array_equal(w.result.importances(), expected.importances[rows, :done])


def test_fifty_quick_changes_end_in_the_result_of_the_last_settings(diabetes):
    model, X, y = diabetes
    rng = random.Random(0)
    w = PermutationImportanceWidget(model, X, y, n_repeats=3)
    options = list(X.columns)
    for _ in range(50):
        change = rng.choice(["features", "n_repeats", "scoring", "random_state"])
        if change == "features":
            w.features = rng.sample(options, rng.randint(1, len(options)))
        elif change == "n_repeats":
            w.n_repeats = rng.randint(1, 8)
        elif change == "scoring":
            w.scoring = rng.sample(
                ["r2", "neg_mean_squared_error", "explained_variance"], 2
            )
        else:
            w.random_state = rng.randint(0, 100)
    assert w.wait(timeout=60) == "done"
    expected = permutation_importance(
        model,
        X,
        y,
        n_repeats=w.n_repeats,
        random_state=w.random_state,
        scoring=list(w.scoring),
        features=list(w.features),
    )
    assert list(w.result.feature_names) == list(w.features)
    for name in w.scoring:
        assert_blas_close(w.result.importances(name), expected[name].importances)
        assert set(w._chart["scorers"]) == set(w.scoring)


def test_a_model_failing_mid_run_is_reported_and_the_widget_recovers(diabetes):
    _, X, y = diabetes
    model = SlowRegressor(delay=0, fail_after=2).fit(X, y)
    w = PermutationImportanceWidget(model, X, y, n_repeats=50)
    assert w.wait(timeout=HANG_GUARD) == "error"
    assert w.error == "RuntimeError: the model broke down"
    model.fail_after = None
    w.run()
    assert w.wait(timeout=HANG_GUARD) == "done" and w.error == ""


def test_bad_settings_show_inline_and_bad_construction_raises(diabetes):
    model, X, y = diabetes
    w = PermutationImportanceWidget(model, X, y, n_repeats=2)
    w.wait(timeout=HANG_GUARD)
    w.n_repeats = True  # an int to traitlets (and to scikit-learn's constraints)
    assert w.status == "error" and "n_repeats must be an int >= 1" in w.error
    w.n_repeats, w.scoring = 2, ["r3"]
    assert w.status == "error" and "Did you mean 'r2'" in w.error
    w.scoring = ["r2"]
    assert w.wait(timeout=HANG_GUARD) == "done"
    with pytest.raises(TypeError, match="unexpected keyword argument 'n_repeat'"):
        PermutationImportanceWidget(model, X, y, n_repeat=3)
    with pytest.raises(ValueError, match="unknown feature 'nope'"):
        PermutationImportanceWidget(model, X, y, features=["nope"])
    with pytest.raises(ValueError, match="not fitted"):
        PermutationImportanceWidget(Ridge(), X, y)


def test_groups_classifier_scorers_frame_and_figure():
    X, y = make_classification(n_samples=300, n_features=5, random_state=0)
    X = pd.DataFrame(X, columns=["a", "b", "c", "d", "e"])
    model = RandomForestClassifier(n_estimators=10, random_state=0).fit(X, y)
    w = PermutationImportanceWidget(
        model,
        X,
        y,
        n_repeats=2,
        features={"ab": ["a", "b"], "c": "c"},
        scoring=["accuracy", "roc_auc", "neg_log_loss"],
    )
    assert w.wait(timeout=HANG_GUARD) == "done"
    assert w.features == ["ab", "c"]
    assert set(w._feature_options) == {"ab", "a", "b", "c", "d", "e"}
    assert {"roc_auc", "average_precision", "neg_log_loss"} <= set(w._scorer_options)
    frame = w.to_frame()
    assert list(frame.columns[:4]) == ["feature", "scorer", "repeat", "importance"]
    assert len(frame) == 2 * 3 * 2
    figure = w.figure()
    assert figure.axes[0].get_title().startswith("Permutation importance")
    data, _ = w._repr_mimebundle_()
    assert data["image/png"] and "application/vnd.jupyter.widget-view+json" in data


def test_figure_draws_the_display_settings_of_the_same_names(diabetes):
    from matplotlib.figure import Figure

    model, X, y = diabetes
    settings = dict(kind="box", scorer="explained_variance", max_features=3)
    w = PermutationImportanceWidget(
        model, X, y, n_repeats=2, scoring=["r2", "explained_variance"], **settings
    )
    assert w.wait(timeout=HANG_GUARD) == "done"
    (ax,) = w.figure().axes
    expected = PermutationImportanceDisplay(w.result).plot(
        ax=Figure().subplots(), **settings
    )
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [t.get_text() for t in expected.ax_.get_yticklabels()]
    assert len(labels) == 3
    assert ax.get_xlabel() == "Decrease in explained_variance when permuted"
    assert not ax.patches and len(ax.lines) == len(expected.ax_.lines)  # boxes


def test_only_the_top_features_cross_the_comm_as_binary():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 1000))
    y = X[:, :5].sum(axis=1)
    model = Ridge().fit(X, y)
    w = PermutationImportanceWidget(model, X, y, n_repeats=2, max_features=25)
    assert w.wait(timeout=60) == "done"
    chart = w._chart["scorers"]["r2"]
    assert len(chart["features"]) == 25 and chart["n_hidden"] == 975
    state, _, buffers = _remove_buffers(w.get_state(["_chart"]))
    assert len(buffers) == 4
    assert sum(len(bytes(b)) for b in buffers) == 4 * (25 * 3 + 25 * 2)
    assert len(str(state)) < 5_000


def test_binary_array_round_trip():
    values = np.arange(12, dtype=float).reshape(3, 4) / 7
    payload = binary_array(values)
    assert payload["dtype"] == "float32" and payload["shape"] == [3, 4]
    assert isinstance(payload["data"], memoryview)
    assert_array_equal(decode_binary_array(payload), values.astype(np.float32))


def test_kernel_stays_free_while_computing(diabetes):
    _, X, y = diabetes
    model = GatedRegressor().fit(X, y)
    w = PermutationImportanceWidget(model, X, y, n_repeats=100)
    # Returned while a prediction waits: a constructor that waited for the
    # work would have timed the gate out, and nothing would wait here.
    model.wait_for_a_waiting_call()
    assert w.status == "running"
    model.open()
    w.cancel()
    assert w.wait(timeout=HANG_GUARD) == "cancelled"


def test_first_tree_run_says_it_is_compiling(monkeypatch):
    from inspectwidgets.widgets import _base

    X, y = make_classification(n_samples=200, n_features=4, random_state=0)
    forest = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    seen = []
    w = PermutationImportanceWidget(forest, X, y, n_repeats=2, run=False)
    # As in a fresh environment: the walk is not loaded yet.
    monkeypatch.setattr(_base, "walks_needed", lambda estimator: True)
    monkeypatch.setattr(_base, "load_walks", lambda *model: seen.append(w._phase))
    w.run()
    assert w.wait(timeout=60) == "done"
    assert seen == ["compiling the tree walk (first use)"]
    assert w._phase == ""
    # Once loaded (or for other models), no such phase.
    from inspectwidgets.inspection._shortcuts import load_walks, walks_needed

    load_walks()
    assert not walks_needed(forest) and not walks_needed(Ridge().fit(X, y))


def test_first_bars_come_before_the_first_round_is_done(diabetes):
    _, X, y = diabetes
    # 0.05 s a call: the first round goes in chunks of a few features.
    model = SlowRegressor(delay=0.05).fit(X, y)
    seen = []
    w = PermutationImportanceWidget(model, X, y, n_repeats=2, run=False)
    w.observe(
        lambda change: seen.append(
            (
                change["new"]["n_pending"],
                len(change["new"]["scorers"]["r2"]["features"]),
                w._repeats_done,
            )
        ),
        "_chart",
    )
    w.run()
    assert w.wait(timeout=60) == "done"
    first_round = [s for s in seen if s[0] > 0]
    assert first_round, seen
    for pending, shown, repeats_done in first_round:
        # Bars for the features done; the status counts repeat 1's features.
        assert shown + pending == 10 and repeats_done == 0
    assert seen[-1] == (0, 10, 2)
    expected = permutation_importance(model, X, y, n_repeats=2, random_state=0)
    assert_array_equal(w.result.importances("r2"), expected.importances)
