"""Widgets driven by a cluster-backed run.

joblib's ``parallel_config`` is per thread and widgets compute on their own:
a widget created (or whose ``run()`` is called) inside
``parallel_config(backend="dask")`` must still send its chunks to the
cluster, give the local numbers, stream, cancel and never stay "running".
"""

import time

import joblib
import numpy as np
import pytest
from common.gated import HANG_GUARD
from numpy.testing import assert_array_equal
from sklearn.ensemble import RandomForestRegressor
from sklearn.linear_model import Ridge

from inspectwidgets import (
    PartialDependenceWidget,
    PermutationImportanceWidget,
    partial_dependence,
    permutation_importance,
)

from numerics import assert_blas_close

distributed = pytest.importorskip("distributed")

TIMEOUT = HANG_GUARD


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(1_000, 5))
    y = X[:, 0] + 2 * X[:, 1] * X[:, 2] + rng.normal(scale=0.1, size=len(X))
    return X, y


@pytest.fixture(scope="module")
def forest(data):
    return RandomForestRegressor(20, max_depth=6, random_state=0).fit(*data)


def tasks_run(client, action):
    """How many tasks the cluster ran while `action()` ran."""
    with distributed.get_task_stream(client) as stream:
        action()
    return len(stream.data)


def test_widgets_created_inside_config_compute_there(client, data, forest):
    X, y = data
    widgets = {}

    def create():
        with joblib.parallel_config(backend="dask"):
            widgets["pi"] = PermutationImportanceWidget(
                forest, X, y, n_repeats=4, random_state=0
            )
            widgets["pd"] = PartialDependenceWidget(
                forest, X, features=[1], kind="both", grid_resolution=9
            )
        # Waited for outside the block: the widgets' threads took it along.
        for widget in widgets.values():
            assert widget.wait(TIMEOUT) == "done", widget.error

    assert tasks_run(client, create) > 0
    pi, pd = widgets["pi"], widgets["pd"]
    local = permutation_importance(forest, X, y, n_repeats=4, random_state=0)
    assert_array_equal(pi.result.importances("r2"), local.importances)
    local_pd = partial_dependence(
        forest,
        X,
        [1],
        kind="both",
        grid_resolution=9,
        method="brute",
        n_ice=100,
        random_state=0,
    )
    assert_array_equal(pd.result.average, local_pd.average)
    assert_array_equal(pd.result.individual, local_pd.individual)

    # A change of settings from the page (outside any block) reruns on the
    # backend the widget was created under.
    def rerun():
        pi.n_repeats = 6
        assert pi.wait(TIMEOUT) == "done", pi.error

    assert tasks_run(client, rerun) > 0
    local = permutation_importance(forest, X, y, n_repeats=6, random_state=0)
    assert_array_equal(pi.result.importances("r2"), local.importances)
    for widget in widgets.values():
        widget.close()


def test_run_inside_config_and_local_otherwise(client, data, forest):
    X, y = data
    widget = PermutationImportanceWidget(forest, X, y, n_repeats=3, run=False)

    def local_run():
        widget.run()
        assert widget.wait(TIMEOUT) == "done", widget.error

    assert tasks_run(client, local_run) == 0

    def remote_run():
        with joblib.parallel_config(backend="dask"):
            widget.run()
        assert widget.wait(TIMEOUT) == "done", widget.error

    assert tasks_run(client, remote_run) > 0
    local = permutation_importance(forest, X, y, n_repeats=3, random_state=0)
    assert_array_equal(widget.result.importances("r2"), local.importances)
    widget.close()


class SlowRidge(Ridge):
    """Ridge taking 0.1 s per 1,000 rows predicted, so that a run lasts long
    enough to stream several rounds and be cancelled. The time grows with
    the rows, as a model's does: the engine's chunks stop growing at a few
    copies (ChunkSchedule doubles a chunk only while it is fast), so no one
    chunk can hold the rest of the run, however loaded the machine."""

    def predict(self, X):
        time.sleep(0.1 * len(X) / 1_000)
        return super().predict(X)


def test_streaming_and_cancel_on_the_cluster(client, data):
    X, y = data
    model = SlowRidge().fit(X, y)
    with joblib.parallel_config(backend="dask"):
        widget = PermutationImportanceWidget(
            model, X, y, n_repeats=30, random_state=0, run=False
        )
    seen = []

    def on_round(change):
        seen.append(change.new)
        if len(seen) == 2:
            widget.cancel()

    widget.observe(on_round, names=["_repeats_done"])
    widget.run()
    assert widget.wait(TIMEOUT) == "cancelled"
    # Rounds arrive one by one, in order, and the cancel stops the run early.
    assert seen[:2] == [1, 2], seen
    done = widget.result.n_repeats_done
    assert 2 <= done < 30
    local = permutation_importance(model, X, y, n_repeats=done, random_state=0)
    assert_blas_close(widget.result.importances("r2"), local.importances)

    widget.unobserve(on_round, names=["_repeats_done"])
    widget.n_repeats = 4  # reruns, on the cluster, to the end
    assert widget.wait(TIMEOUT) == "done", widget.error
    local = permutation_importance(model, X, y, n_repeats=4, random_state=0)
    assert_blas_close(widget.result.importances("r2"), local.importances)
    widget.close()


def test_widgets_computing_at_once_share_the_backend(client, data):
    """Widgets created in one block share joblib's backend instance, whose
    calls keep state on it: they take turns, and all finish."""
    X, y = data
    model = SlowRidge().fit(X, y)
    with joblib.parallel_config(backend="dask"):
        widgets = [
            PermutationImportanceWidget(model, X, y, n_repeats=r, random_state=0)
            for r in (2, 3, 4)
        ]
    for widget, n_repeats in zip(widgets, (2, 3, 4), strict=True):
        assert widget.wait(TIMEOUT) == "done", widget.error
        local = permutation_importance(model, X, y, n_repeats=n_repeats, random_state=0)
        assert_blas_close(widget.result.importances("r2"), local.importances)
        widget.close()


def test_cancelling_one_widget_leaves_the_other_running(client, data):
    """joblib's dask backend, cancelled, drops every result it is waiting
    for, the other widget's too: without turns the other would hang."""
    X, y = data
    model = SlowRidge().fit(X, y)
    with joblib.parallel_config(backend="dask"):
        first = PermutationImportanceWidget(model, X, y, n_repeats=30)
        second = PermutationImportanceWidget(model, X, y, n_repeats=3)
    deadline = time.monotonic() + TIMEOUT
    while first._repeats_done < 1 and second._repeats_done < 1:
        assert time.monotonic() < deadline, "no round in time"
        time.sleep(0.05)
    first.cancel()
    assert first.wait(TIMEOUT) == "cancelled"
    assert second.wait(TIMEOUT) == "done", second.error
    local = permutation_importance(model, X, y, n_repeats=3, random_state=0)
    assert_blas_close(second.result.importances("r2"), local.importances)
    first.close()
    second.close()


def test_failing_chunk_ends_in_error(client, data):
    """A model raising on a worker: the widget says so, never stays running."""
    X, y = data
    model = FailingRidge().fit(X, y)
    with joblib.parallel_config(backend="dask"):
        widget = PermutationImportanceWidget(model, X, y, n_repeats=3)
    assert widget.wait(TIMEOUT) == "error"
    assert "predict failed on a worker" in widget.error
    widget.close()


class FailingRidge(Ridge):
    """Ridge that predicts X once (the baseline, in this process), then fails
    on the cluster's workers."""

    def predict(self, X):
        import os

        if os.getpid() != self.home:
            raise ValueError("predict failed on a worker")
        return super().predict(X)

    def fit(self, X, y):
        import os

        self.home = os.getpid()
        return super().fit(X, y)
