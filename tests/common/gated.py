"""A model whose predictions wait for the test: tests of threads and cancel
assert the order of events (what had started when cancel() returned), never
how long something took, so they hold on a loaded CI machine."""

import threading

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin

# Seconds a gated predict waits before giving up: a guard against a hung
# test, not a measurement (a test that reaches it has failed anyway).
GATE_TIMEOUT = 60
# Seconds a test waits for a run to finish: also a hang guard only. Generous:
# a first run compiles the tree kernels (a fresh venv has no numba cache),
# and CI shares two cores between two pytest workers and Chromium.
HANG_GUARD = 300


class GatedRegressor(RegressorMixin, BaseEstimator):
    """Predicts X's first column. The first `free_calls` predict calls run at
    once; every later one waits until the test calls `open()`. `events` logs,
    in order, each call's start and end and the test's own `mark()`s."""

    def __init__(self, free_calls=0):
        self.free_calls = free_calls

    def fit(self, X, y=None):
        self.n_features_in_ = np.shape(X)[1]
        self._gate = threading.Event()
        self._lock = threading.Lock()
        self._waiting = threading.Condition(self._lock)
        self.events = []
        self.n_waiting = 0
        return self

    def predict(self, X):
        with self._lock:
            self.events.append("predict started")
            gated = self.events.count("predict started") > self.free_calls
            if gated:
                self.n_waiting += 1
                self._waiting.notify_all()
        if gated and not self._gate.wait(GATE_TIMEOUT):
            raise TimeoutError("the test never opened the gate")
        with self._lock:
            self.n_waiting -= gated
            self.events.append("predict ended")
        return np.asarray(X, dtype=float)[:, 0]

    def wait_for_a_waiting_call(self):
        """Block until some predict call waits at the gate."""
        with self._waiting:
            if not self._waiting.wait_for(lambda: self.n_waiting, GATE_TIMEOUT):
                raise TimeoutError("no predict call reached the gate")

    def mark(self, event):
        with self._lock:
            self.events.append(event)

    def open(self):
        self._gate.set()

    def after(self, event):
        """The events logged after the first `event`."""
        with self._lock:
            return self.events[self.events.index(event) + 1 :]
