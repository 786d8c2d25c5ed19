"""The Effects overview (every feature's partial dependence) against
scikit-learn looping partial_dependence over the features, side by side.

    python benchmarks/overview.py [--quick] [--runs N] [--ours-only]

The issue's target (#30): 20 features x 10,000 rows of a tree model drawn in
at most 1 s warm. Two models: HistGradientBoostingRegressor (defaults:
100 iterations, 31 leaves) and RandomForestRegressor (100 trees, max_depth=10,
n_jobs=1), both fitted on 10,000 other rows of make_regression. Grids of 20
values per feature (the overview's default) and method="brute" everywhere:
the overview averages over X's rows, as the brute method does (scikit-learn's
recursion, its "auto" for these models, weights by training samples instead
and gives other numbers).

Contenders, each called once untimed, then side by side in rotating order
(_timing.time_side_by_side):

- ``sklearn loop``: sklearn.inspection.partial_dependence per feature.
- ``ours loop``: inspectwidgets.partial_dependence per feature.
- ``overview``: inspectwidgets.partial_dependence_overview, all features.
- ``widget``: PartialDependenceWidget's overview from request to payload
  (its thread, the engine, the `_overview` trait), the widget made
  beforehand; the browser's drawing of 20 small svgs is not included.

Check, outside the timer: every feature's overview average equals scikit-learn's
bit for bit (trees); the script exits with status 1 after the table if not.
``--ours-only`` times the overview and the widget alone (the target's
question, in minutes instead of a quarter of an hour of scikit-learn's loop)
and checks against scikit-learn called once, untimed.
"""

import argparse
import functools
import sys

import _timing
import numpy as np
from sklearn.datasets import make_regression
from sklearn.ensemble import HistGradientBoostingRegressor, RandomForestRegressor
from sklearn.inspection import partial_dependence as sklearn_pd

from inspectwidgets import (
    PartialDependenceWidget,
    partial_dependence,
    partial_dependence_overview,
)

N_FEATURES, N_ROWS, QUICK_ROWS, GRID = 20, 10_000, 2_000, 20


@functools.cache
def data(n_rows):
    X, y = make_regression(
        n_samples=2 * n_rows, n_features=N_FEATURES, n_informative=10, random_state=0
    )
    return X[:n_rows], y[:n_rows], X[n_rows:]


def models(n_rows):
    X_fit, y_fit, X = data(n_rows)
    return {
        "HistGradientBoosting": HistGradientBoostingRegressor(random_state=0),
        "RandomForest (100, depth 10)": RandomForestRegressor(
            n_estimators=100, max_depth=10, random_state=0, n_jobs=1
        ),
    }, (X_fit, y_fit, X)


def contenders(model, X):
    features = range(X.shape[1])
    widget = PartialDependenceWidget(model, X, run=False)

    def widget_payload():
        widget._start_overview()
        widget.wait_overview()
        assert widget._overview["status"] == "done"
        return widget._overview

    return {
        "sklearn loop": lambda: [
            sklearn_pd(model, X, [f], method="brute", grid_resolution=GRID)
            for f in features
        ],
        "ours loop": lambda: [
            partial_dependence(model, X, [f], method="brute", grid_resolution=GRID)
            for f in features
        ],
        "overview": lambda: partial_dependence_overview(model, X, grid_resolution=GRID),
        "widget": widget_payload,
    }, widget


def agrees(overview, sklearn_results):
    """Every feature's average and grid equal scikit-learn's, bit for bit."""
    for f, expected in enumerate(sklearn_results):
        panel = overview[f"x{f}"]
        if not (
            np.array_equal(panel.grid_values, expected["grid_values"][0])
            and np.array_equal(panel.average, expected["average"])
        ):
            return False
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--ours-only", action="store_true")
    args = parser.parse_args()
    _timing.restart_single_threaded_if_quick(args.quick)
    runs = 1 if args.quick else args.runs
    n_rows = QUICK_ROWS if args.quick else N_ROWS
    fitted, (X_fit, y_fit, X) = models(n_rows)
    print(f"{N_FEATURES} features x {n_rows:,} rows, grids of {GRID}, {runs} runs")
    print(f"{'model':<30}{'contender':<14}{'s':>8}{'vs sklearn':>12}")
    ok = True
    for name, model in fitted.items():
        model.fit(X_fit, y_fit)
        calls, widget = contenders(model, X)
        reference = None
        if args.ours_only:
            reference = calls.pop("sklearn loop")()
            calls.pop("ours loop")
        seconds, results = _timing.time_side_by_side(calls, runs)
        for contender, s in seconds.items():
            ratio = s / seconds.get("sklearn loop", np.nan)
            print(f"{name:<30}{contender:<14}{s:>8.2f}{ratio:>11.3f}x")
        same = agrees(results["overview"], reference or results["sklearn loop"])
        print(f"{name:<30}{'equal to sklearn, bit for bit:':<30} {same}")
        ok &= same
        widget.close()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
