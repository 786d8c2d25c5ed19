"""ComputationWidget's thread, status and close rules, through a real widget."""

import logging
import threading
import time

import numpy as np
import pytest
from common.gated import HANG_GUARD, GatedRegressor
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.linear_model import LinearRegression

from inspectwidgets import PermutationImportanceWidget


def _data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    return X, X @ [1.0, 0.5, 0.0] + rng.normal(scale=0.1, size=n)


class PausingRegressor(RegressorMixin, BaseEstimator):
    """Predicts X's first column, pausing `delay` s per call."""

    def __init__(self, delay=0.0):
        self.delay = delay

    def fit(self, X, y):
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X):
        time.sleep(self.delay)
        return np.asarray(X)[:, 0].astype(float)


@pytest.fixture
def widget():
    X, y = _data()
    w = PermutationImportanceWidget(LinearRegression().fit(X, y), X, y, n_repeats=1)
    assert w.wait(timeout=HANG_GUARD) == "done"
    yield w
    w.close()


def test_a_request_landing_as_the_idle_worker_times_out_is_not_lost(widget):
    # The worker's idle wait times out while run() holds the lock: run() sees
    # a live worker and starts none, so the worker must take the request.
    widget._idle_timeout = 0.01
    widget.run()
    assert widget.wait(timeout=HANG_GUARD) == "done"
    with widget._lock:
        time.sleep(0.1)  # the idle wait has timed out and waits for the lock
        widget.n_repeats = 2
    assert widget.wait(timeout=HANG_GUARD) == "done"
    assert widget.result.n_repeats_done == 2


def test_hammering_the_idle_timeout_loses_no_request(widget):
    widget._idle_timeout = 0.0005
    for n_repeats in [1, 2] * 150:
        widget.n_repeats = n_repeats
        assert widget.wait(timeout=HANG_GUARD) == "done"
        assert widget.result.n_repeats_done == n_repeats


def test_an_exception_from_closing_the_stream_still_finishes(widget, monkeypatch):
    class Stream:
        """The engine's stream, whose close() fails (as a generator's does
        when its cleanup raises)."""

        def __init__(self, inner):
            self.inner = inner

        def __iter__(self):
            return iter(self.inner)

        def close(self):
            raise OSError("could not release the pool")

    original = widget._stream
    monkeypatch.setattr(widget, "_stream", lambda cancel: Stream(original(cancel)))
    widget.run()
    assert widget.wait(timeout=HANG_GUARD) == "error"
    assert "could not release the pool" in widget.error
    monkeypatch.undo()
    widget.run()
    assert widget.wait(timeout=HANG_GUARD) == "done" and widget.error == ""


def test_the_traceback_is_kept_and_logged(caplog):
    X, y = _data()
    model = PausingRegressor().fit(X, y)
    w = PermutationImportanceWidget(model, X, y, n_repeats=1, run=False)
    model.delay = "not a number"  # time.sleep raises TypeError mid-run
    with caplog.at_level(logging.ERROR, logger="inspectwidgets"):
        w.run()
        assert w.wait(timeout=HANG_GUARD) == "error"
    assert w.error.startswith("TypeError:")
    assert "Traceback (most recent call last)" in w.error_details
    assert "in predict" in w.error_details
    assert [r.exc_info[0] for r in caplog.records] == [TypeError]
    model.delay = 0.0
    w.run()
    assert w.wait(timeout=HANG_GUARD) == "done"
    assert (w.error, w.error_details) == ("", "")
    w.close()


def test_close_cancels_the_run_and_ends_the_thread():
    """close() during a chunk: the chunk ends, no other starts, and close()
    returns once the worker thread has ended."""
    X, y = _data()
    model = GatedRegressor(free_calls=1).fit(X, y)
    w = PermutationImportanceWidget(model, X, y, n_repeats=500)
    assert w.status == "running"
    worker = w._worker
    model.wait_for_a_waiting_call()

    def open_once_cancelled():
        # close() joins the worker, which waits at the gate: open it from
        # here, once close() has cancelled the run.
        while not w._cancel.is_set():
            time.sleep(0.001)
        model.mark("gate opened")
        model.open()

    opener = threading.Thread(target=open_once_cancelled)
    opener.start()
    model.mark("close")
    w.close()
    model.mark("close returned")
    opener.join()
    assert model.after("close") == ["gate opened", "predict ended", "close returned"]
    assert not worker.is_alive()
    assert w.status == "cancelled"
    with pytest.raises(RuntimeError, match="closed"):
        w.run()


class InterruptingRegressor(PausingRegressor):
    """Raises KeyboardInterrupt from predict while `interrupt` is set."""

    interrupt = True

    def predict(self, X):
        if self.interrupt:
            raise KeyboardInterrupt
        return super().predict(X)


def test_a_keyboard_interrupt_inside_a_run_leaves_the_widget_usable():
    X, y = _data()
    model = InterruptingRegressor().fit(X, y)
    w = PermutationImportanceWidget(model, X, y, n_repeats=2)
    assert w.wait(timeout=HANG_GUARD) == "error"
    assert w.error.startswith("KeyboardInterrupt")
    InterruptingRegressor.interrupt = False
    try:
        w.n_repeats = 3
        assert w.wait(timeout=HANG_GUARD) == "done" and w.result.n_repeats_done == 3
    finally:
        InterruptingRegressor.interrupt = True
    w.close()


def test_wait_sends_the_final_state_from_the_callers_thread(monkeypatch):
    # A headless executor (nbclient, the docs build) keeps only the messages
    # sent while the cell that waits runs; the worker's may all have gone out
    # before it, between two cells.
    X, y = _data()
    widget = PermutationImportanceWidget(LinearRegression().fit(X, y), X, y)
    with widget._lock:  # the run ends without wait()
        while widget._pending is not None or widget._active:
            widget._lock.wait()
    sent = []
    monkeypatch.setattr(
        widget,
        "_send",
        lambda msg, buffers=None: sent.append((threading.current_thread(), msg)),
    )
    assert widget.wait(timeout=HANG_GUARD) == "done"
    (state,) = [
        msg["state"]
        for thread, msg in sent
        if thread is threading.current_thread() and msg["method"] == "update"
    ]
    assert state["status"] == "done" and state["progress"] == 1.0
    assert state["_repeats_done"] == state["_repeats_total"] == 5
    assert set(state) == set(widget.get_state())  # the whole state
    assert state["_chart"]["repeats_done"] == 5 and state["_chart"]["n_pending"] == 0
    widget.close()


@pytest.mark.parametrize("stop_after", ["first", "last"])
def test_a_stop_after_the_last_chunk_leaves_the_run_done(monkeypatch, stop_after):
    """Stop pressed as the last repeat arrives stopped nothing: the run is
    done. Pressed after the first of several, it stopped the run."""
    X, y = _data()
    show = PermutationImportanceWidget._show

    def stopping(self, snapshot):
        shown = show(self, snapshot)
        if stop_after == "first" or snapshot.complete:
            self.cancel()
        return shown

    monkeypatch.setattr(PermutationImportanceWidget, "_show", stopping)
    widget = PermutationImportanceWidget(
        LinearRegression().fit(X, y), X, y, n_repeats=5, random_state=0
    )
    status = widget.wait(timeout=HANG_GUARD)
    if stop_after == "last":
        assert status == "done" and widget.result.complete
        assert widget.progress == 1.0
    else:
        assert status == "cancelled" and not widget.result.complete
    widget.close()
