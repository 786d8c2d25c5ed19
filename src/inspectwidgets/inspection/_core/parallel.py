"""Where an engine's chunks run: this process's threads, or joblib's backend.

Every engine cuts its work into chunks (a `ChunkSchedule`) and hands them,
with one *context* (the model, the data and whatever else every chunk reads),
to :class:`ChunkRunner`. By default the chunks run on a pool of threads in
this process: scikit-learn's trees, forests, boosting and BLAS predict without
the GIL, so threads share X and the model for free (``docs/large_data.md``
has the measurements). Inside ``joblib.parallel_config(backend=...)`` naming
a backend that runs elsewhere (dask.distributed, ray, ...), the chunks go
through :class:`joblib.Parallel` to that backend instead, the context shipped
to each worker once.

Chunks complete in any order; the runner yields each with its ``(start,
stop)`` and the engines place results by position, so the numbers do not
depend on where or in which order the chunks ran.
"""

import contextlib
import functools
import threading
import time
import warnings
import weakref
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

from joblib import Parallel, delayed, effective_n_jobs, parallel_config
from joblib.parallel import (
    LokyBackend,
    MultiprocessingBackend,
    SequentialBackend,
    ThreadingBackend,
    get_active_backend,
)
from sklearn import config_context, get_config

# joblib's own backends, all on this machine. Under them the engine's threads
# run the chunks: processes would each need a copy of X and the model for
# predictions that threads already run in parallel (see the module doc).
LOCAL_BACKENDS = (
    LokyBackend,
    MultiprocessingBackend,
    SequentialBackend,
    ThreadingBackend,
)


def remote_backend():
    """The active joblib backend if it runs chunks away from this process's
    threads (dask.distributed, ray, ...), else None."""
    backend, _ = get_active_backend()
    return None if isinstance(backend, LOCAL_BACKENDS) else backend


def remote_config():
    """The remote joblib backend active in this thread, as a callable that
    enters it again in another thread (joblib keeps its configuration per
    thread, so a computation handed to another thread would run locally);
    None where the active backend is local. Widgets capture it in the
    user's thread and enter it on their worker thread.
    """
    backend, n_jobs = get_active_backend()
    if isinstance(backend, LOCAL_BACKENDS):
        return None
    return functools.partial(parallel_config, backend=backend, n_jobs=n_jobs)


class WithCallersConfig:
    """`function`, called under the scikit-learn configuration that the
    thread making this had (``sklearn.set_config``, ``config_context``).

    scikit-learn keeps its configuration per thread, and a new thread starts
    with the defaults: a pipeline fitted under
    ``set_config(transform_output="pandas")`` whose later step selects
    columns by name fails to predict on another thread. scikit-learn's own
    ``sklearn.utils.parallel.delayed`` carries the configuration into
    joblib's workers; this does it for everything the engine and the widgets
    run on a thread of their own that may call the model. Picklable where
    `function` is (a remote backend's workers). Threads that run only the
    engine's arithmetic (the tree walks, the linear shortcut's row blocks)
    need none.
    """

    def __init__(self, function):
        self.function = function
        self.config = get_config()

    def __call__(self, *args, **kwargs):
        with config_context(**self.config):
            return self.function(*args, **kwargs)


_progress = threading.local()

# One lock per remote backend instance. Within a thread, joblib's calls on a
# backend come one after another; widgets share the instance across threads,
# and a backend such as dask's keeps per-call state on itself (its result
# collector stops when any call ends), so concurrent calls would hang.
_backend_locks: weakref.WeakKeyDictionary[object, threading.Lock] = (
    weakref.WeakKeyDictionary()
)
_backend_locks_lock = threading.Lock()


def _backend_lock(backend):
    with _backend_locks_lock:
        return _backend_locks.setdefault(backend, threading.Lock())


@contextlib.contextmanager
def _listening(kind, listener):
    """`listener` hears this thread's progress of `kind` within the block."""
    previous = getattr(_progress, kind, None)
    setattr(_progress, kind, listener)
    try:
        yield
    finally:
        setattr(_progress, kind, previous)


def chunk_progress(listener):
    """Call ``listener(done, total)`` after every chunk a ChunkRunner
    iterated on this thread completes: the jobs of its schedule done so far,
    and all of them. The engines yield results at their own pace (a
    permutation round, a grid point's group); a widget hears the first chunk
    before that, and times the run from it."""
    return _listening("listener", listener)


def chunk_listener():
    """This thread's :func:`chunk_progress` listener, or None: for a run
    made of several runs (several models' permutation importances) to
    report their chunks as one."""
    return getattr(_progress, "listener", None)


def step_progress(listener):
    """Call ``listener(step, done, total)`` as a step a run takes on this
    thread before its chunks advances (see :func:`report_step`): on a big X,
    permutation importance's baseline scores every row, in blocks, for
    seconds before the first chunk."""
    return _listening("step_listener", listener)


def report_step(step, done, total):
    """Tell this thread's :func:`step_progress` listener, if any, that `done`
    of `total` units of `step` are done (0 when it starts)."""
    listener = getattr(_progress, "step_listener", None)
    if listener is not None:
        listener(step, done, total)


class ChunkRunner:
    """Runs an engine's chunks where joblib's configuration says.

    Parameters
    ----------
    n_jobs : int or None
        Threads for the local path, as joblib counts them (None: 1, unless
        a ``parallel_config`` sets it). Under a remote backend, the workers
        that backend reports (for dask, every worker thread of the cluster).
    threads : bool, default=True
        Whether the engine spreads chunks over local threads at all. Engines
        without an ``n_jobs`` of their own (partial dependence) pass False:
        one chunk at a time here, and a remote backend's workers otherwise.
    """

    def __init__(self, n_jobs=None, threads=True):
        self.backend = remote_backend()
        if self.backend is not None or threads:
            self.n_workers = effective_n_jobs(n_jobs)
        else:
            self.n_workers = 1
        self._lock = threading.Lock()

    @property
    def remote(self):
        return self.backend is not None

    def run(self, schedule, task, context, cancelled=lambda: False):
        """Run every chunk of `schedule`, yielding results as they complete.

        Parameters
        ----------
        schedule : ChunkSchedule
            Hands out the chunks; told how long each took.
        task : callable
            ``task(context, start, stop)``, a module-level function (it is
            pickled by reference for a remote backend).
        context : object
            What every chunk reads. Shipped to each remote worker once.
        cancelled : callable, default: never
            Checked before each chunk is handed out and after each result:
            once it returns True no chunk starts and the iteration ends.

        Yields
        ------
        start, stop, result
            Every chunk's jobs and what `task` returned, in completion order.
        """
        task = WithCallersConfig(task)
        if self.remote:
            chunks = self._remote(schedule, task, context, cancelled)
        elif self.n_workers == 1:
            chunks = self._inline(schedule, task, context, cancelled)
        else:
            chunks = self._threads(schedule, task, context, cancelled)
        listener = getattr(_progress, "listener", None)
        if listener is None:
            return chunks
        return _reported(chunks, schedule.n_jobs, listener)

    def _take(self, schedule):
        with self._lock:
            return schedule.take()

    def _record(self, schedule, seconds):
        with self._lock:
            schedule.record(seconds)

    def _inline(self, schedule, task, context, cancelled):
        while not cancelled() and (chunk := schedule.take()) is not None:
            start, stop, result, seconds = _timed(task, context, *chunk)
            schedule.record(seconds)
            yield start, stop, result
            # A chunk's values may be large (partial dependence's): not held
            # here while the next one is computed.
            del result

    def _threads(self, schedule, task, context, cancelled):
        pending = set()
        with ThreadPoolExecutor(max_workers=self.n_workers) as pool:

            def submit():
                chunk = None if cancelled() else self._take(schedule)
                if chunk is not None:
                    pending.add(pool.submit(_timed, task, context, *chunk))

            for _ in range(self.n_workers):
                submit()
            try:
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for future in sorted(done, key=lambda f: f.result()[0]):
                        pending.discard(future)
                        start, stop, result, seconds = future.result()
                        self._record(schedule, seconds)
                        yield start, stop, result
                        if cancelled():
                            return
                        submit()
            finally:
                for future in pending:
                    future.cancel()

    def _remote(self, schedule, task, context, cancelled):
        # Runs on the same backend take turns (see `_backend_locks`); a run
        # waiting for its turn can still be cancelled.
        lock = _backend_lock(self.backend)
        while not lock.acquire(timeout=0.1):
            if cancelled():
                return
        try:
            yield from self._remote_turn(schedule, task, context, cancelled)
        finally:
            lock.release()

    def _remote_turn(self, schedule, task, context, cancelled):
        shipped = Shipped(context)
        finished = threading.Event()

        def chunks():
            # Consumed by joblib as workers free up, possibly on its
            # callback thread: a chunk is cut only when a worker can take it,
            # so its size reflects the chunks timed before it.
            while not finished.is_set() and not cancelled():
                chunk = self._take(schedule)
                if chunk is None:
                    return
                yield delayed(_timed_remote)(task, shipped, *chunk)

        outputs = Parallel(
            # The backend seen when the runner was made, even where it is
            # iterated in another thread (a widget's), which joblib would
            # send to its default backend.
            backend=self.backend,
            n_jobs=self.n_workers,
            return_as="generator_unordered",
            # One chunk per task, and no more in flight than workers: each
            # holds up to its share of max_memory.
            batch_size=1,
            pre_dispatch="n_jobs",
        )(chunks())
        try:
            for start, stop, result, seconds in outputs:
                self._record(schedule, seconds)
                yield start, stop, result
                if cancelled():
                    return
        except Exception as error:
            if _from_backend(error):
                name = type(self.backend).__name__
                raise RuntimeError(
                    f"The joblib backend ({name}) lost a chunk of this "
                    f"computation ({type(error).__name__}: {error}); a worker "
                    "holding the model and data probably died. Run it again."
                ) from error
            raise
        finally:
            finished.set()
            with warnings.catch_warnings():
                # joblib counts the chunks still running when a run is
                # cancelled or stopped early; they are meant to be dropped.
                warnings.filterwarnings("ignore", "\\d+ tasks which were still")
                outputs.close()


def _reported(chunks, total, listener):
    # Closing this generator closes `chunks` at once: a remote run's
    # cleanup (dropping the chunks still running) must not wait for gc.
    with contextlib.closing(chunks):
        done = 0
        for start, stop, result in chunks:
            done += stop - start
            listener(done, total)
            yield start, stop, result
            del result


def _from_backend(error):
    """Whether `error` is the backend's (a lost worker or lost data) rather
    than the chunk's own, which joblib re-raises as it was raised."""
    from concurrent.futures import CancelledError

    module = type(error).__module__ or ""
    return isinstance(error, CancelledError) or module.split(".")[0] in (
        "distributed",
        "ray",
    )


class Shipped:
    """A run's context, passed to joblib as an argument of every chunk.

    joblib's dask backend scatters an argument to the cluster once per
    ``Parallel`` call, instead of pickling it into every task, when dask
    sizes it above 1 kB; dask sizes a plain object by ``sys.getsizeof``, a
    few header bytes, so the model and X would travel with every chunk.
    The size reported here stands for what the context refers to.
    """

    def __init__(self, context):
        self.context = context

    def __sizeof__(self):
        return 2**20


def _timed(task, context, start, stop):
    started = time.perf_counter()
    result = task(context, start, stop)
    return start, stop, result, time.perf_counter() - started


def local_joblib_calls():
    """A context in which a model's own joblib calls (a forest's predict)
    run on local threads, `n_jobs` as set, whatever backend is active: a
    remote one counts the whole cluster as their jobs, and a forest then
    sums its trees in a racy order."""
    return parallel_config(backend="threading")


def _timed_remote(task, shipped, start, stop):
    # joblib's dask backend runs tasks with itself as the backend; on a
    # worker, as in this process, a model's own calls stay local.
    with local_joblib_calls():
        return _timed(task, shipped.context, start, stop)
