"""Helpers shared by the benchmark scripts: side-by-side timing, memory, tables."""

import gc
import os
import platform
import statistics
import time
import tracemalloc


def time_side_by_side(contenders, runs):
    """Median wall time of each contender, measured side by side.

    Every run calls each contender once, in order, so that slow drifts of a
    noisy machine (other jobs, CPU frequency) hit all of them alike; medians
    then discard the odd run that was disturbed anyway.

    Parameters
    ----------
    contenders : dict of str to callable
        Functions without arguments.
    runs : int
        Number of runs.

    Returns
    -------
    medians : dict of str to float
        Median seconds of each contender.
    results : dict of str to object
        What each contender returned in the last run.
    """
    seconds = {name: [] for name in contenders}
    results = {}
    for _ in range(runs):
        for name, func in contenders.items():
            # Collect now so that nobody pays for the previous call's garbage.
            gc.collect()
            start = time.perf_counter()
            results[name] = func()
            seconds[name].append(time.perf_counter() - start)
    return {name: statistics.median(s) for name, s in seconds.items()}, results


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
