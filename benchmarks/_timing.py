"""Helpers shared by the benchmark scripts: side-by-side timing, threads, memory,
tables."""

import gc
import os
import platform
import statistics
import sys
import time
import tracemalloc

# Read when BLAS and OpenMP load; see restart_single_threaded_if_quick.
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def time_side_by_side(contenders, runs, warm_up=True, keep_results=True):
    """Median wall time of each contender, measured side by side.

    Each contender is first called once untimed, so that no timed call pays
    for imports, first-use compilation or cold caches. Every run then calls
    each contender once, so that slow drifts of a noisy machine (other jobs,
    CPU frequency) hit all of them alike; medians discard the odd run that
    was disturbed anyway. The order rotates by one from run to run, so that
    no contender always goes first (caches cold from the setup) or always
    follows the same one (caches warmed by it).

    Parameters
    ----------
    contenders : dict of str to callable
        Functions without arguments.
    runs : int
        Number of timed runs.
    warm_up : bool, default=True
        False where the same contenders' code already ran in this process on
        other data (a smaller size of the same case): a large case's untimed
        call would only double its time.
    keep_results : bool, default=True
        False frees each result as soon as it is timed (each contender is
        then called once more, untimed, for the results returned): a large
        result held while the next call runs makes that call's fresh memory
        cost more on some machines (benchmarks/results/linear.md).

    Returns
    -------
    medians : dict of str to float
        Median seconds of each contender.
    results : dict of str to object
        What each contender returned in the last run.
    """
    for func in contenders.values() if warm_up else ():
        func()
    seconds = {name: [] for name in contenders}
    results = {}
    for run in range(runs):
        for name in rotated(list(contenders), run):
            # Collect now so that nobody pays for the previous call's garbage.
            gc.collect()
            start = time.perf_counter()
            result = contenders[name]()
            seconds[name].append(time.perf_counter() - start)
            if keep_results:
                results[name] = result
            del result
    if not keep_results:
        results = {name: func() for name, func in contenders.items()}
    return {name: statistics.median(s) for name, s in seconds.items()}, results


def rotated(items, steps):
    """`items` rotated left by `steps`: [a, b, c] by 1 is [b, c, a]."""
    steps %= len(items)
    return items[steps:] + items[:steps]


def restart_single_threaded_if_quick(quick):
    """With ``--quick``, run this script again with one BLAS and OpenMP thread.

    On a shared 2-core machine, OpenMP threads wait at every barrier for a
    partner that another job has descheduled: one scikit-learn partial
    dependence of a HistGradientBoosting model took 28 s, and 1 s the next
    time. One thread keeps the smoke test short and its ratios steady. It
    takes the environment, read when the libraries load: threadpoolctl's
    OpenMP limit holds for the calling thread only, and our permutation
    importance predicts in a worker thread, which would keep the default.
    """
    if not quick or all(os.environ.get(v) == "1" for v in THREAD_VARIABLES):
        return
    os.environ.update(dict.fromkeys(THREAD_VARIABLES, "1"))
    os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])


def describe_method(runs, quick, contenders="sklearn, ours and floor"):
    """Lines saying how the table was measured."""
    threads = "1 BLAS and OpenMP thread (--quick)" if quick else "default threads"
    return (
        f"Median seconds of {runs} timed run(s), after one untimed warm-up call "
        f"of each contender;\n{contenders} alternate within each run, in an "
        f"order rotating from run to run; {threads}."
    )


def peak_memory(func):
    """Peak bytes allocated while `func` runs, on top of what existed before.

    tracemalloc sees Python objects and numpy (hence pandas) buffers, but not
    what compiled code allocates with plain malloc, such as OpenMP scratch
    space: the figure is a lower bound on the process's growth.
    """
    gc.collect()
    tracemalloc.start()
    try:
        func()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def peak_rss(func):
    """Peak growth of this process's resident memory while `func` runs, in
    bytes, sampled every 5 ms on a thread (psutil): unlike `peak_memory`, it
    sees what compiled code allocates, and pages the allocator keeps."""
    import threading

    import psutil

    process = psutil.Process()
    gc.collect()
    baseline = process.memory_info().rss
    peak = baseline
    done = threading.Event()

    def sample():
        nonlocal peak
        while not done.wait(0.005):
            peak = max(peak, process.memory_info().rss)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        func()
    finally:
        done.set()
        sampler.join()
    return max(peak, process.memory_info().rss) - baseline


def describe_environment(modules):
    """One line with the versions of `modules`, Python and the CPU count."""
    versions = ", ".join(f"{m.__name__} {m.__version__}" for m in modules)
    return (
        f"{versions}; Python {platform.python_version()}; "
        f"os.cpu_count()={os.cpu_count()}"
    )


def format_table(columns, rows):
    """A plain-text table for terminals and notes.

    Parameters
    ----------
    columns : list of (str, str)
        Each column's title and alignment, "<" (left) or ">" (right).
    rows : list of list of str
        Cells, already formatted; "" leaves a cell blank.
    """
    widths = [
        max([len(title)] + [len(row[i]) for row in rows])
        for i, (title, _) in enumerate(columns)
    ]

    def line(cells):
        padded = (
            f"{cell:{align}{width}}"
            for cell, (_, align), width in zip(cells, columns, widths, strict=True)
        )
        return "  ".join(padded).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([line([title for title, _ in columns]), rule, *map(line, rows)])


def parse_runs(description, quick_help, add_arguments=None):
    """Parse ``--quick`` and ``--runs`` (and any arguments `add_arguments`
    adds to the parser); return the arguments and the runs per case."""
    import argparse

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help=quick_help)
    parser.add_argument(
        "--runs", type=int, default=5, help="runs per case (default: 5)"
    )
    if add_arguments is not None:
        add_arguments(parser)
    args = parser.parse_args()
    if args.runs < 1:
        parser.error(f"--runs must be at least 1; got {args.runs}.")
    return args, 1 if args.quick else args.runs
