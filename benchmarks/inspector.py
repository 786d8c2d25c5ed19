"""ModelInspector: a click on a bar to that feature's PD/ICE, kernel side.

    python benchmarks/inspector.py [--quick] [--runs N]

The issue's target: on a random forest of 100 trees and 2,000 held-out rows
(20 features), selecting a feature (what a click on its bar does) draws its
PD/ICE within 0.5 s. Measured here from setting ``selected_features`` to the
first Effects payload of that feature with grid points (what the front end
draws first) and to the finished curve, beside scikit-learn's
``partial_dependence(kind="both")`` of the same feature for scale. The
browser's own click-to-draw time is recorded by
``tests/browser/test_model_inspector_lab.py::test_click_to_effects_time`` in
``tests/output/browser/timings.json``. Never asserted; the Effects view's
curves must equal scikit-learn's (a difference exits 1).
"""

import statistics
import threading
import time

import _agreement
import _timing
import numpy as np
import sklearn
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.inspection import partial_dependence
from sklearn.model_selection import train_test_split

import inspectwidgets
from inspectwidgets import ModelInspector


def forest(n_rows=2000):
    X, y = make_classification(
        n_samples=2 * n_rows, n_features=20, n_informative=6, random_state=0
    )
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=n_rows, random_state=0
    )
    model = RandomForestClassifier(n_estimators=100, random_state=0, n_jobs=-1)
    return model.fit(X_train, y_train), X_test, y_test


def click_seconds(inspector, feature):
    """Seconds from selecting `feature` to its first drawable payload, and
    to the finished curve."""
    first = threading.Event()

    def on_effects(change):
        curve = change["new"]["state"].get("_curve") or {}
        if curve.get("features") == [feature] and curve.get("grid_done", 0) > 0:
            first.set()

    inspector.observe(on_effects, "_effects")
    started = time.perf_counter()
    inspector.selected_features = [feature]
    first.wait(60)
    to_first = time.perf_counter() - started
    inspector.views["effects"].wait(60)
    done = time.perf_counter() - started
    inspector.unobserve(on_effects, "_effects")
    return to_first, done


def main():
    args, runs = _timing.parse_runs(__doc__.splitlines()[0], "smoke test: 1 run")
    model, X, y = forest()
    print(_timing.describe_environment([np, sklearn, inspectwidgets]))
    print(
        "RandomForestClassifier(100 trees), 2,000 rows x 20 features; "
        f"median of {runs} run(s) after a warm-up, each on a new feature."
    )
    inspector = ModelInspector(model, X, y, n_repeats=3, random_state=0)
    for _ in range(3):
        inspector.wait(120)
    features = [f"x{i}" for i in range(20)]
    click_seconds(inspector, features[-1])  # warm-up (compiles the tree walk)
    agreement = _agreement.Agreement()
    firsts, dones, sklearn_times = [], [], []
    for run in range(runs):
        column = run % 19
        first, done = click_seconds(inspector, features[column])
        firsts.append(first)
        dones.append(done)
        started = time.perf_counter()
        expected = partial_dependence(
            model, X, [column], kind="both", grid_resolution=50
        )
        sklearn_times.append(time.perf_counter() - started)
        result = inspector.views["effects"].result
        agreement.max_difference(
            f"x{column} average", np.ravel(result.average), np.ravel(expected.average)
        )
    inspector.close()
    rows = [
        ["select -> first PD/ICE payload", f"{statistics.median(firsts):.3f}"],
        ["select -> curve done", f"{statistics.median(dones):.3f}"],
        [
            "sklearn partial_dependence(kind='both')",
            f"{statistics.median(sklearn_times):.3f}",
        ],
    ]
    print()
    print(_timing.format_table([("", "<"), ("s", ">")], rows))
    agreement.exit_if_any()


if __name__ == "__main__":
    main()
