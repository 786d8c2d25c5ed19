"""The permutation-importance widget against scikit-learn's function.

    python benchmarks/widget.py [--quick] [--runs N] [--rows N]

The issue's case: a random forest (100 trees, min_samples_leaf=5) on 30
features, 5 repeats, on 20,000 rows. Per run, side by side: scikit-learn's
``permutation_importance``, ours, and the widget from ``run()`` to its first
bars (the first ``_chart`` with importances) and to completion (``wait()``).
Ours and the widget's final importances must equal scikit-learn's, bit for
bit (a difference exits 1). See README.md beside this file.
"""

import statistics
import sys
import time

import _agreement
import _timing
import numpy as np
import sklearn
from sklearn.inspection import permutation_importance as sklearn_importance
from trees import forest_classifier  # the forest, as trees.py times it

import inspectwidgets
from inspectwidgets import PermutationImportanceWidget, permutation_importance

QUICK_ROWS = 1000
N_REPEATS = 5


def widget_seconds(model, X, y):
    """Seconds to the first bars and to completion, and the final result."""
    seen = {}

    def on_chart(change):
        if change["new"] and "first" not in seen:
            seen["first"] = time.perf_counter() - started

    widget = PermutationImportanceWidget(model, X, y, n_repeats=N_REPEATS, run=False)
    widget.observe(on_chart, "_chart")
    started = time.perf_counter()
    widget.run()
    status = widget.wait(timeout=600)
    done = time.perf_counter() - started
    if status != "done":
        sys.exit(f"widget ended {status!r}: {widget.error}")
    return seen["first"], done, widget.result.importances()


def main():
    def add_rows(parser):
        parser.add_argument(
            "--rows", type=int, default=20_000, help="rows inspected (default: 20,000)"
        )

    args, runs = _timing.parse_runs(
        __doc__.splitlines()[0],
        f"smoke test: 1 run, {QUICK_ROWS:,} rows, 1 BLAS/OpenMP thread",
        add_rows,
    )
    _timing.restart_single_threaded_if_quick(args.quick)
    n_rows = QUICK_ROWS if args.quick else args.rows
    model, X, y = forest_classifier(n_rows)
    agreement = _agreement.Agreement()
    print(_timing.describe_environment([np, sklearn, inspectwidgets]))
    print(
        f"RandomForestClassifier(100 trees), {n_rows:,} rows x 30 features, "
        f"n_repeats={N_REPEATS}; median of {runs} run(s) after a warm-up of each, "
        "alternating which goes first."
    )

    def sklearn_call():
        return sklearn_importance(model, X, y, n_repeats=N_REPEATS, random_state=0)

    def our_call():
        return permutation_importance(model, X, y, n_repeats=N_REPEATS, random_state=0)

    calls = {"sklearn": sklearn_call, "ours": our_call}
    for call in calls.values():
        call()
    widget_seconds(model, X, y)
    times = {"sklearn": [], "ours": [], "first bars": [], "widget done": []}
    results = {}
    for run in range(runs):
        for who in _timing.rotated(["sklearn", "ours", "widget"], run):
            if who in calls:
                started = time.perf_counter()
                results[who] = calls[who]()
                times[who].append(time.perf_counter() - started)
            else:
                first, done, importances = widget_seconds(model, X, y)
                times["first bars"].append(first)
                times["widget done"].append(done)
    expected = results["sklearn"].importances
    agreement.require_identical("widget importances", importances, expected)
    agreement.require_identical(
        "our importances", results["ours"].importances, expected
    )
    medians = {name: statistics.median(values) for name, values in times.items()}
    rows = [
        [name, f"{seconds:.2f}", f"{seconds / medians['sklearn']:.3f}"]
        for name, seconds in medians.items()
    ]
    print()
    print(_timing.format_table([("", "<"), ("s", ">"), ("/ sklearn", ">")], rows))
    agreement.exit_if_any()


if __name__ == "__main__":
    main()
