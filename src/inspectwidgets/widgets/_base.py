"""Background computation shared by the widgets: one run at a time, latest wins.

A widget asks for a run with :meth:`LiveComputation.request`, passing a function
that validates the settings and returns the engine's stream. The stream is
consumed on a worker thread so the kernel stays free. A new request cancels the
run in flight (the engine checks its cancel event between prediction chunks)
and only the newest request is started; results of a superseded run are never
applied, because every callback checks the run's generation under the lock.
"""

import base64
import io
import threading
import time

import anywidget
import traitlets

from ..inspection._core.trees import load_walks, walks_needed

STATUSES = ("idle", "running", "done", "cancelled", "error")


def describe_error(exc):
    """One line a user can act on: the exception's own message, with its type."""
    message = str(exc).strip() or "no message"
    return f"{type(exc).__name__}: {message}"


class ComputationWidget(anywidget.AnyWidget):
    """An anywidget whose computation runs on a background thread.

    Subclasses implement ``_stream(cancel)`` (validate and return an iterator
    of snapshots), ``_show(snapshot)`` (write traits for one snapshot and
    return what ``result`` becomes) and ``_progress_of(snapshot)``.
    """

    status = traitlets.Enum(STATUSES, default_value="idle").tag(sync=True)
    """Where the computation is: idle, running, done, cancelled or error."""

    progress = traitlets.Float(0.0, min=0.0, max=1.0).tag(sync=True)
    """Fraction of the work done, from 0 to 1."""

    error = traitlets.Unicode("").tag(sync=True)
    """The last error, in words; empty when there is none."""

    _phase = traitlets.Unicode("").tag(sync=True)
    """What a running computation is doing before its first result, if
    anything the progress count does not say (compiling the tree walk)."""

    _elapsed_seconds = traitlets.Float(0.0).tag(sync=True)
    _eta_seconds = traitlets.Float(-1.0).tag(sync=True)
    _run_requests = traitlets.Int(0).tag(sync=True)
    _stop_requests = traitlets.Int(0).tag(sync=True)

    def __init__(self, **kwargs):
        # Set before the traits, whose observers may look at them.
        self._lock = threading.Condition()
        self._generation = 0
        self._cancel = threading.Event()
        self._pending = None
        self._active = False
        self._worker = None
        self.result = None
        super().__init__(**kwargs)

    # Public API -----------------------------------------------------------

    def run(self):
        """Start (or restart) the computation with the current settings.

        Cancels a run in flight. Returns at once; use :meth:`wait` to block.
        Invalid settings set ``status="error"`` and ``error`` instead of raising.
        """
        with self._lock:
            self._generation += 1
            generation = self._generation
            self._cancel.set()
            cancel = self._cancel = threading.Event()
        try:
            stream = self._stream(cancel)
        except Exception as exc:  # bad settings: shown inline, widget stays usable
            self._finish(generation, "error", describe_error(exc))
            return
        with self._lock:
            if generation != self._generation:
                return
            self._pending = (generation, stream, cancel)
            self._started_at = time.perf_counter()
            with self.hold_sync():
                self.status, self.error, self.progress = "running", "", 0.0
                self._eta_seconds, self._elapsed_seconds = -1.0, 0.0
            self._ensure_worker()
            self._lock.notify_all()

    def cancel(self):
        """Stop the run in flight after its current prediction chunk; what
        was computed so far (repeats, grid points) stays in ``result``."""
        with self._lock:
            self._cancel.set()

    def wait(self, timeout=None):
        """Block until no run is pending or in flight; return the status.

        Raises TimeoutError if `timeout` seconds pass first.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            while self._pending is not None or self._active:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise TimeoutError(f"still {self.status} after {timeout} s")
                self._lock.wait(remaining)
        return self.status

    # Worker -----------------------------------------------------------------

    def _ensure_worker(self):
        if self._worker is None or not self._worker.is_alive():
            self._worker = threading.Thread(
                target=self._work, name=f"{type(self).__name__}-worker", daemon=True
            )
            self._worker.start()

    def _work(self):
        while True:
            with self._lock:
                while self._pending is None:
                    if not self._lock.wait(timeout=30):
                        self._worker = None
                        return
                generation, stream, cancel = self._pending
                self._pending = None
                self._active = True
            try:
                self._consume(generation, stream, cancel)
            finally:
                with self._lock:
                    self._active = False
                    self._lock.notify_all()

    def _consume(self, generation, stream, cancel):
        try:
            self._prepare(generation)
            for snapshot in stream:
                with self._lock:
                    if generation != self._generation:
                        return
                    with self.hold_sync():
                        self.result = self._show(snapshot)
                        self._update_timing(snapshot)
        except Exception as exc:  # a model raising mid-run: shown inline
            self._finish(generation, "error", describe_error(exc))
            return
        finally:
            stream.close()
        self._finish(generation, "cancelled" if cancel.is_set() else "done", "")

    def _prepare(self, generation):
        """Compile the tree walk first, saying so, where this run's model
        would otherwise compile it inside its first chunk (once per
        environment; later processes load it from numba's cache)."""
        if not walks_needed(getattr(self, "_estimator", None)):
            return
        with self._lock:
            if generation != self._generation:
                return
            self._phase = "compiling the tree walk (first use)"
        try:
            load_walks()
        finally:
            self._phase = ""

    def _update_timing(self, snapshot):
        elapsed = time.perf_counter() - self._started_at
        done, total = self._progress_of(snapshot)
        self.progress = done / total if total else 1.0
        self._elapsed_seconds = elapsed
        self._eta_seconds = elapsed / done * (total - done) if done else -1.0

    def _finish(self, generation, status, error):
        with self._lock:
            if generation != self._generation:
                return
            with self.hold_sync():
                self.status, self.error = status, error
                self._eta_seconds = 0.0 if status == "done" else -1.0
                if status == "done":
                    self.progress = 1.0
            self._lock.notify_all()

    @traitlets.observe("_run_requests")
    def _on_run_request(self, change):
        self.run()

    @traitlets.observe("_stop_requests")
    def _on_stop_request(self, change):
        self.cancel()

    # Static output -------------------------------------------------------------

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        # Where no widget manager runs (nbconvert, GitHub), the picture shows.
        if self.result is not None:
            buffer = io.BytesIO()
            self.figure().savefig(buffer, format="png", dpi=96)
            data = {**data, "image/png": base64.b64encode(buffer.getvalue()).decode()}
        return data, metadata

    # Subclass hooks -----------------------------------------------------------

    def _stream(self, cancel):
        raise NotImplementedError

    def _show(self, snapshot):
        raise NotImplementedError

    def _progress_of(self, snapshot):
        raise NotImplementedError

    def figure(self):
        """A matplotlib Figure of what the widget shows."""
        raise NotImplementedError
