"""Background computation shared by the widgets: one run at a time, latest wins.

A widget asks for a run with :meth:`ComputationWidget.run`; the run calls the
widget's ``_stream(cancel)``, which validates the settings and returns the
engine's stream. The stream is consumed on a worker thread so the kernel stays
free. A new request cancels the run in flight (the engine checks its cancel
event between prediction chunks) and only the newest request is started;
results of a superseded run are never applied, because every callback checks
the run's generation under the lock.
Every run ends in a final status, whatever it raises, with the traceback in
``error_details`` and in the log; ``close()`` cancels the run and ends the
thread.

A run's chunks go where joblib's configuration says (``docs/large_data.md``):
that configuration is per thread, so the remote backend (dask, ...) active
when ``run()`` is called, else the one active when the widget was created,
is entered again on the worker thread.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
import time
import traceback
from typing import TYPE_CHECKING, Literal, TypeAlias, get_args

import traitlets

from ..inspection._core import (
    WithCallersConfig,
    chunk_progress,
    remote_config,
    step_progress,
)
from ..inspection._shortcuts import load_walks, walks_needed
from ._figures import NotebookPicture

if TYPE_CHECKING:
    from matplotlib.figure import Figure


Status: TypeAlias = Literal["idle", "running", "done", "cancelled", "error"]
STATUSES: tuple[Status, ...] = get_args(Status)

# The phase a running widget shows for a step before its chunks (see
# report_step); the front end adds the step's time left.
STEP_TEXT = {"baseline": "baseline score on all {total:,} rows: {percent}%"}

logger = logging.getLogger(__name__)


def describe_error(exc):
    """One line a user can act on: the exception's own message, with its type."""
    message = str(exc).strip() or "no message"
    return f"{type(exc).__name__}: {message}"


def format_traceback(exc):
    """The whole traceback of `exc`, as Python prints it."""
    return "".join(traceback.format_exception(exc))


class ComputationWidget(NotebookPicture):
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

    error_details = traitlets.Unicode("").tag(sync=True)
    """The last error's traceback, for a bug report; empty when there is none."""

    _phase = traitlets.Unicode("").tag(sync=True)
    """What a running computation is doing before its first result, if
    anything the progress count does not say (compiling the tree walk; the
    baseline score of a big X, with its own time left in `_eta_seconds`)."""

    _elapsed_seconds = traitlets.Float(0.0).tag(sync=True)
    _eta_seconds = traitlets.Float(-1.0).tag(sync=True)
    _run_requests = traitlets.Int(0).tag(sync=True)
    _stop_requests = traitlets.Int(0).tag(sync=True)

    # Run and Stop: counters the front end adds one to.
    _frontend_inputs = frozenset({"_run_requests", "_stop_requests"})

    _idle_timeout = 30.0
    """Seconds an idle worker thread waits for a request before it ends."""

    _close_timeout = 5.0
    """Seconds close() waits for the worker to finish its current chunk."""

    def __init__(self, **kwargs):
        # Set before the traits, whose observers may look at them.
        self._lock = threading.Condition()
        self._generation = 0
        self._cancel = threading.Event()
        self._pending = None
        self._active = False
        self._worker = None
        self._closed = False
        self.result = None
        self._result_generation = None
        self._joblib_config = remote_config()
        super().__init__(**kwargs)

    # Public API -----------------------------------------------------------

    def run(self) -> None:
        """Start (or restart) the computation with the current settings.

        Cancels a run in flight. Returns at once; use :meth:`wait` to block.
        Invalid settings set ``status="error"`` and ``error`` instead of raising.
        """
        with self._lock:
            if self._closed:
                raise RuntimeError(
                    "This widget is closed; create a new one to compute again."
                )
            self._generation += 1
            generation = self._generation
            self._cancel.set()
            cancel = self._cancel = threading.Event()
        config = remote_config() or self._joblib_config
        try:
            with config() if config else contextlib.nullcontext():
                stream = self._stream(cancel)
        except BaseException as exc:  # bad settings: shown inline, widget stays usable
            logger.info("%s: settings refused", type(self).__name__, exc_info=exc)
            # Finished even on KeyboardInterrupt: the run it superseded will
            # not finish for it, and "running" would stay forever.
            self._finish(generation, "error", exc)
            if not isinstance(exc, Exception):
                raise
            return
        with self._lock:
            if generation != self._generation:
                return
            # The stream is iterated on the worker, under the user's
            # scikit-learn configuration of now.
            consume = WithCallersConfig(self._consume)
            self._pending = (generation, stream, cancel, config, consume)
            self._started_at = time.perf_counter()
            with self.hold_sync():
                self.status, self.error, self.progress = "running", "", 0.0
                self.error_details = ""
                self._eta_seconds, self._elapsed_seconds = -1.0, 0.0
            self._ensure_worker()
            self._lock.notify_all()

    def _publish(self, snapshot):
        """Show `snapshot` as the result of a finished run, without computing
        (a subclass's result kept from an earlier run): the run in flight is
        cancelled and superseded, as by a new request."""
        with self._lock:
            if self._closed:
                return
            self._generation += 1
            generation = self._generation
            self._cancel.set()
            self._pending = None
            with self.hold_sync():
                self.result = self._show(snapshot)
                self._result_generation = generation
        self._finish(generation, "done")

    def cancel(self) -> None:
        """Stop the run in flight after its current prediction chunk; what
        was computed so far (repeats, grid points) stays in ``result``."""
        with self._lock:
            self._cancel.set()

    def close(self) -> None:
        """Cancel the run in flight, end the worker thread and close the widget.

        Waits up to ``_close_timeout`` seconds for the worker to stop (it
        stops after the current prediction chunk); `run()` afterwards raises
        RuntimeError.
        """
        if "_lock" not in vars(self):  # a constructor refused its arguments
            super().close()
            return
        with self._lock:
            self._closed = True
            # A newer generation: nothing of the cancelled run is published.
            self._generation += 1
            self._cancel.set()
            self._pending = None
            worker = self._worker
            if self.status == "running":
                self.status = "cancelled"
            self._lock.notify_all()
        if worker is not None and worker is not threading.current_thread():
            worker.join(self._close_timeout)
        super().close()

    def wait(self, timeout: float | None = None) -> Status:
        """Block until no run is pending or in flight; return the status.

        The whole state is then sent to the front end again, from the
        caller's cell: the run's updates went out from the worker thread,
        some perhaps between two cells, where a headless executor (nbclient,
        the docs build) drops them, and its saved widget state would show
        the run unfinished.

        Raises TimeoutError if `timeout` seconds pass first.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._lock:
            while self._pending is not None or self._active:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    raise TimeoutError(f"still {self.status} after {timeout} s")
                self._lock.wait(remaining)
            self.send_state()
            return self.status

    # Worker -----------------------------------------------------------------

    def _ensure_worker(self):
        # Called under the lock, where the worker also decides to exit: a
        # worker that has not cleared `_worker` will still see `_pending`.
        if self._worker is None:
            self._worker = threading.Thread(
                target=self._work, name=f"{type(self).__name__}-worker", daemon=True
            )
            self._worker.start()

    def _work(self):
        while True:
            with self._lock:
                idle_until = time.monotonic() + self._idle_timeout
                # `_pending` is checked after every wake-up, timed out or not:
                # a request made while this wait was timing out is taken.
                while self._pending is None:
                    remaining = idle_until - time.monotonic()
                    if remaining <= 0 or self._closed:
                        self._worker = None
                        return
                    self._lock.wait(remaining)
                generation, stream, cancel, config, consume = self._pending
                self._pending = None
                self._active = True
            try:
                consume(generation, stream, cancel, config)
            finally:
                with self._lock:
                    self._active = False
                    self._lock.notify_all()

    def _consume(self, generation, stream, cancel, config):
        failure, snapshot = None, None
        try:
            try:
                self._prepare(generation)
                # The stream's chunks are cut, sent and timed on this thread.
                with (
                    config() if config else contextlib.nullcontext(),
                    chunk_progress(functools.partial(self._on_chunk, generation)),
                    step_progress(functools.partial(self._on_step, generation)),
                ):
                    for snapshot in stream:
                        with self._lock:
                            if generation != self._generation:
                                break
                            with self.hold_sync():
                                self.result = self._show(snapshot)
                                self._result_generation = generation
                                self._update_timing(snapshot)
                            # A stop lands between snapshots, not only
                            # between chunks (one chunk can complete
                            # thousands of rounds), after showing the work
                            # done.
                            if cancel.is_set():
                                break
            finally:
                stream.close()
        # A model raising mid-run, even KeyboardInterrupt or SystemExit: shown
        # inline, and the worker lives on so the widget stays usable.
        except BaseException as exc:  # noqa: BLE001
            failure = exc
        if failure is not None:
            logger.error("%s: the run failed", type(self).__name__, exc_info=failure)
            self._finish(generation, "error", failure)
        else:
            # A stop that lands after the last chunk stopped nothing.
            stopped = cancel.is_set() and not getattr(snapshot, "complete", False)
            self._finish(generation, "cancelled" if stopped else "done")

    def _prepare(self, generation):
        """Compile the tree walk first, saying so, where this run's model
        would otherwise compile it inside its first chunk (once per
        environment; later processes load it from numba's cache)."""
        estimator = getattr(self, "_estimator", None)
        if not walks_needed(estimator):
            return
        with self._lock:
            if generation != self._generation:
                return
            self._phase = "compiling the tree walk (first use)"
        try:
            load_walks(estimator)
        finally:
            self._phase = ""

    def _on_chunk(self, generation, done, total):
        """Progress and time left from the chunks done, until the run's first
        result: on a big input the engine's first result (a whole repeat
        round) can take many chunks, and the first chunk's time is already
        an estimate. Where a run has several parts (the comparison's stages,
        PD and ALE), this counts the first part only; results then count
        them all."""
        with self._lock:
            if generation != self._generation or self._result_generation == generation:
                return
            elapsed = time.perf_counter() - self._started_at
            with self.hold_sync():
                self._elapsed_seconds = elapsed
                self._eta_seconds = elapsed / done * (total - done)
                self.progress = done / total

    def _on_step(self, generation, step, done, total):
        """A step before the chunks (the baseline of a big X): its progress in
        the phase, and its own time left from its blocks so far."""
        now = time.perf_counter()
        with self._lock:
            if generation != self._generation:
                return
            if done == 0:
                self._step_started_at = now
            with self.hold_sync():
                if done >= total:
                    self._phase, self._eta_seconds = "", -1.0
                    return
                self._phase = STEP_TEXT[step].format(
                    percent=100 * done // total, total=total
                )
                elapsed = now - self._step_started_at
                self._eta_seconds = elapsed / done * (total - done) if done else -1.0

    def _update_timing(self, snapshot):
        elapsed = time.perf_counter() - self._started_at
        done, total = self._progress_of(snapshot)
        self.progress = done / total if total else 1.0
        self._elapsed_seconds = elapsed
        self._eta_seconds = elapsed / done * (total - done) if done else -1.0

    def _finish(self, generation, status, failure=None):
        """Set the final status of run `generation`, with `failure`'s message
        and traceback if it failed; nothing if a newer run superseded it."""
        error = "" if failure is None else describe_error(failure)
        details = "" if failure is None else format_traceback(failure)
        with self._lock:
            if generation != self._generation:
                return
            with self.hold_sync():
                self.status, self.error, self.error_details = status, error, details
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

    def _picture_result(self):
        return None if self.status == "running" else self.result

    # Subclass hooks -----------------------------------------------------------

    def _stream(self, cancel):
        raise NotImplementedError

    def _show(self, snapshot):
        raise NotImplementedError

    def _progress_of(self, snapshot):
        raise NotImplementedError

    def figure(self) -> Figure:
        """A matplotlib Figure of what the widget shows."""
        raise NotImplementedError
