"""The permutation-importance widget's first update on 1,000,000 x 50.

    python benchmarks/first_update.py [--runs N]

Issue 13's case (as ``scale.py --target`` times it, without its memory
tracing): HistGB and a random forest fitted on 20,000 rows, the widget on
1,000,000 x 50 float64 rows with ``max_samples=100_000`` and 5 repeats,
timed from its creation to its first chart (the first bars) and to its
first time left (the baseline's, which scores all 1,000,000 rows in blocks
first); then cancelled. Never asserted.
"""

import argparse
import threading
import time

from scale import fitted
from sklearn.datasets import make_regression

from inspectwidgets import PermutationImportanceWidget

N_ROWS, N_FEATURES = 1_000_000, 50


def first_update(model, X, y):
    """Seconds to the first time left and the first bars, and the features
    the first bars leave pending."""
    seen = {}
    drawn = threading.Event()

    def on_chart(change):
        if change["new"] and "bars" not in seen:
            seen["bars"] = time.perf_counter() - started
            seen["pending"] = change["new"]["n_pending"]
            drawn.set()

    def on_eta(change):
        if change["new"] >= 0 and "eta" not in seen:
            seen["eta"] = time.perf_counter() - started

    started = time.perf_counter()
    widget = PermutationImportanceWidget(
        model, X, y, n_repeats=5, max_samples=100_000, run=False
    )
    widget.observe(on_chart, "_chart")
    widget.observe(on_eta, "_eta_seconds")
    widget.run()
    drawn.wait(300)
    widget.cancel()
    widget.wait()
    widget.close()
    return seen


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    runs = parser.parse_args().runs
    X, y = make_regression(
        N_ROWS, N_FEATURES, n_informative=10, noise=5, random_state=1
    )
    print(f"{N_ROWS:,} x {N_FEATURES}, max_samples=100,000, n_repeats=5")
    for kind in ("HistGB", "RF"):
        model = fitted(kind, n_features=N_FEATURES)
        for run in range(runs):
            seen = first_update(model, X, y)
            print(
                f"{kind:6}  run {run + 1}: first time left {seen['eta']:.2f} s, "
                f"first bars {seen['bars']:.2f} s "
                f"({seen['pending']} of {N_FEATURES} features pending)"
            )


if __name__ == "__main__":
    main()
