"""Several models' permutation importance in one run against their single runs.

    python benchmarks/compare_models.py [--quick] [--runs N]

Two tree models (histogram gradient boosting and a random forest of 100
trees, fitted on 5,000 rows) on 20,000 held-out rows x 20 features, 5
repeats: `compare_permutation_importance` of both against the sum of their
two `permutation_importance` runs, timed side by side after a warm-up, the
order rotating from run to run (issue #34's target: at most 1.1x the sum).
Then the first round: the seconds until `iter_compare_permutation_importance`
yields its first result, beside the two single streams' first rounds. Ratios
are printed, never asserted; exits with status 1 if a model's importances
differ from its single run's (bit for bit: both go through the tree walk).
Measurements in results/permutation.md ("Several models").
"""

import argparse
import statistics
import sys
import time

import _timing
import numpy as np
from sklearn.datasets import make_regression
from sklearn.ensemble import HistGradientBoostingRegressor, RandomForestRegressor

from inspectwidgets import (
    compare_permutation_importance,
    iter_compare_permutation_importance,
    iter_permutation_importance,
    permutation_importance,
)

N_REPEATS = 5
RANDOM_STATE = 0


def fitted(n_rows):
    """The two models, fitted on 5,000 rows, and `n_rows` held-out rows."""
    X, y = make_regression(
        n_samples=5000 + n_rows, n_features=20, n_informative=10, noise=10,
        random_state=0,
    )  # fmt: skip
    X_train, y_train, X_test, y_test = X[:5000], y[:5000], X[5000:], y[5000:]
    models = {
        "boosting": HistGradientBoostingRegressor(random_state=0),
        "forest": RandomForestRegressor(100, random_state=0, n_jobs=1),
    }
    for model in models.values():
        model.fit(X_train, y_train)
    return models, X_test, y_test


def together(models, X, y):
    result = compare_permutation_importance(
        models, X, y, n_repeats=N_REPEATS, random_state=RANDOM_STATE
    )
    return {name: result.importances(name) for name in models}


def one_by_one(models, X, y):
    return {
        name: permutation_importance(
            model, X, y, n_repeats=N_REPEATS, random_state=RANDOM_STATE
        ).importances
        for name, model in models.items()
    }


def first_round_together(models, X, y):
    start = time.perf_counter()
    stream = iter_compare_permutation_importance(
        models, X, y, n_repeats=N_REPEATS, random_state=RANDOM_STATE
    )
    next(stream)
    seconds = time.perf_counter() - start
    stream.close()
    return seconds


def first_round_one_by_one(models, X, y):
    seconds = 0.0
    for model in models.values():
        start = time.perf_counter()
        stream = iter_permutation_importance(
            model, X, y, n_repeats=N_REPEATS, random_state=RANDOM_STATE
        )
        next(stream)
        seconds += time.perf_counter() - start
        stream.close()
    return seconds


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="5,000 rows, 1 thread")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    _timing.restart_single_threaded_if_quick(args.quick)
    n_rows = 5000 if args.quick else 20000
    models, X, y = fitted(n_rows)
    print(
        f"{n_rows} rows x {X.shape[1]} features, {N_REPEATS} repeats, {args.runs} runs"
    )
    medians, results = _timing.time_side_by_side(
        {
            "two models together": lambda: together(models, X, y),
            "two single runs": lambda: one_by_one(models, X, y),
        },
        args.runs,
    )
    ratio = medians["two models together"] / medians["two single runs"]
    for name, seconds in medians.items():
        print(f"  {name:<22} {seconds:7.2f} s")
    print(f"  together / singles     {ratio:7.2f}x  (target <= 1.1x)")
    firsts = {"first round together": [], "first rounds, singles": []}
    first_round_together(models, X, y)  # warm-up
    for run in range(args.runs):
        order = _timing.rotated(list(firsts), run)
        for name in order:
            function = (
                first_round_together
                if name == "first round together"
                else first_round_one_by_one
            )
            firsts[name].append(function(models, X, y))
    for name, seconds in firsts.items():
        print(f"  {name:<22} {statistics.median(seconds):7.2f} s")
    equal = all(
        np.array_equal(
            results["two models together"][name], results["two single runs"][name]
        )
        for name in models
    )
    print(f"  importances equal to each single run, bit for bit: {equal}")
    return 0 if equal else 1


if __name__ == "__main__":
    sys.exit(main())
