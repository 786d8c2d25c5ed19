"""ModelInspector: what its views sharing their permutations saves.

    python benchmarks/inspector_sharing.py [--runs N]

On a random forest of 100 trees and 2,000 held-out (and 2,000 training)
rows, 20 features: the time to show the Comparison tab once Importance is
done, then Importance on the training rows, with the views sharing their
work (widgets/_shared.py) and with sharing switched off (every view
computes its own). Alternating order after a warm-up; printed as ratios,
never asserted. The Comparison tables of both must be equal (else exit 1).
"""

import argparse
import statistics
import sys
import time

from pandas.testing import assert_frame_equal
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

from inspectwidgets import ModelInspector
from inspectwidgets.widgets import _shared


def settle(inspector):
    for _ in range(3):  # Effects starts when Importance finishes
        inspector.wait(600)


def review(data, shared):
    model, X_train, X_test, y_train, y_test = data
    original = _shared.SharedPermutations.stream
    if not shared:
        _shared.SharedPermutations.stream = lambda self, rows, run, settings: iter(run)
    try:
        inspector = ModelInspector(
            model, X_test, y_test, X_train=X_train, y_train=y_train,
            n_repeats=5, random_state=0, selected_features=["x0"], n_jobs=2,
        )  # fmt: skip
        settle(inspector)
        start = time.perf_counter()
        inspector.view = "comparison"
        settle(inspector)
        comparison = time.perf_counter() - start
        start = time.perf_counter()
        inspector.view = "importance"
        inspector.importance_on = "train"
        settle(inspector)
        train = time.perf_counter() - start
        frame = inspector.to_frame("comparison")
        inspector.close()
    finally:
        _shared.SharedPermutations.stream = original
    return comparison, train, frame


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    X, y = make_classification(
        n_samples=4000, n_features=20, n_informative=6, random_state=0
    )
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=2000, random_state=0
    )
    model = RandomForestClassifier(n_estimators=100, random_state=0, n_jobs=2)
    data = (model.fit(X_train, y_train), X_train, X_test, y_train, y_test)
    review(data, True)  # warm-up: the tree walk, caches
    times = {True: [], False: []}
    frames = {}
    for run in range(runs):
        for shared in (True, False) if run % 2 == 0 else (False, True):
            comparison, train, frames[shared] = review(data, shared)
            times[shared].append((comparison, train))
    try:
        assert_frame_equal(frames[True], frames[False])
    except AssertionError as error:
        print(f"the shared and unshared Comparison tables differ: {error}")
        sys.exit(1)
    for index, what in enumerate(
        ["Comparison after Importance", "Importance on training rows after"]
    ):
        on = statistics.median(t[index] for t in times[True])
        off = statistics.median(t[index] for t in times[False])
        print(
            f"{what}: shared {on:.2f} s, unshared {off:.2f} s "
            f"(shared/unshared {on / off:.2f})"
        )


if __name__ == "__main__":
    main()
