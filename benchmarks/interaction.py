"""H² on tree models: the exact tree path against the generic one, side by side.

    python benchmarks/interaction.py [--quick] [--runs N] [--models NAME ...]

Friedman & Popescu's H² of 5 features (against all others) and their 10
pairs on 600 data points (``n_samples=600``, ``pairs="all"``), for a
GradientBoostingRegressor (100 trees), a HistGradientBoostingRegressor (200
iterations) and a RandomForestRegressor (100 trees), each fitted on 5,000
rows of 8 features. Ours: ``algorithm="auto"``, which takes the exact tree
path (partial dependence at the data points through the trees' structure);
against ``algorithm="generic"`` (600² x 15 = 5.4 million predictions by the
model). Targets: >= 20x, >= 20x and >= 10x faster than the generic path.

sklearn-gbmi (Friedman's training-weighted recursion through the trees: a
different estimand, comparable in cost only) is timed beside the gradient
boosting case where it imports; its 1.0.4 does not build on Python 3.11 with
scikit-learn >= 1.3 (a C file generated before Python 3.11, a .pyx using
scikit-learn's removed ``SIZE_t``).

Checks, outside the timer: the exact path's H² equals the generic path's to
the benchmarks' tolerance (1e-12; the same sums in another order); the script
exits with status 1, after the table, if not. The generic path is slow
(5.4 million predictions a case): --runs defaults to 1 here, and the script
takes a few minutes on an idle machine.
"""

import functools
import sys
import warnings

import _agreement
import _timing
import numpy as np
import pandas as pd
import sklearn
from sklearn.datasets import make_regression
from sklearn.ensemble import (
    GradientBoostingRegressor,
    HistGradientBoostingRegressor,
    RandomForestRegressor,
)

import inspectwidgets
from inspectwidgets import interaction_strength

N_POINTS, QUICK_POINTS = 600, 100
FEATURES = [0, 1, 2, 3, 4]
TARGETS = {"GradientBoosting": 20, "HistGradientBoosting": 20, "RandomForest": 10}


@functools.cache
def data():
    X, y = make_regression(
        n_samples=10_000, n_features=8, n_informative=8, random_state=0
    )
    y = y + 0.05 * X[:, 0] * X[:, 1] * np.abs(y).mean()  # something to find
    return X[:5000], y[:5000], X[5000:]


def models():
    return {
        "GradientBoosting": GradientBoostingRegressor(n_estimators=100, random_state=0),
        "HistGradientBoosting": HistGradientBoostingRegressor(
            max_iter=200, random_state=0
        ),
        "RandomForest": RandomForestRegressor(
            n_estimators=100, max_depth=12, random_state=0, n_jobs=1
        ),
    }


def gbmi_pairs():
    """sklearn-gbmi's h_all_pairs, or None where it does not import."""
    try:
        from sklearn_gbmi import h_all_pairs
    except ImportError:
        return None
    return h_all_pairs


def case(name, model, n_points, runs, agreement):
    X_train, y_train, X = data()
    model.fit(X_train, y_train)

    def h(algorithm):
        return interaction_strength(
            model, X, FEATURES, pairs="all", n_samples=n_points, random_state=0,
            algorithm=algorithm,
        )  # fmt: skip

    contenders = {"exact": lambda: h("auto"), "generic": lambda: h("generic")}
    rows = np.sort(np.random.RandomState(0).choice(len(X), n_points, replace=False))
    gbmi = gbmi_pairs()
    if gbmi is not None and name == "GradientBoosting":
        contenders["sklearn-gbmi"] = lambda: gbmi(model, X[rows][:, FEATURES])
    medians, results = time_paths(contenders, runs)
    exact, generic = results["exact"], results["generic"]
    if exact.attrs["algorithm"] != "exact_tree":
        agreement.mismatches.append(f"{name}: took {exact.attrs['algorithm']}")
    difference = agreement.max_difference(
        f"H² {name} exact vs generic", exact["h_squared"], generic["h_squared"]
    )
    ratio = medians["generic"] / medians["exact"]
    table = [
        [f"{name} ({len(model_trees(model))} trees)", str(n_points),
         f"{medians['exact']:.3f}", "generic", f"{medians['generic']:.3f}",
         f"{ratio:.1f}x", f">= {TARGETS[name]}x", f"{difference:.1e}"],
    ]  # fmt: skip
    if "sklearn-gbmi" in medians:
        table.append(
            [f"{name} ({len(model_trees(model))} trees)", str(n_points),
             f"{medians['exact']:.3f}", "sklearn-gbmi (other estimand)",
             f"{medians['sklearn-gbmi']:.3f}",
             f"{medians['sklearn-gbmi'] / medians['exact']:.1f}x", "", ""]
        )  # fmt: skip
    return table


def time_paths(contenders, runs):
    """Median seconds of each contender, alternating in an order rotating
    from run to run, as ``_timing.time_side_by_side`` but with a warm-up
    call of the exact path only (numba's walks load or compile on first
    use): the generic path needs none, and takes minutes."""
    import gc
    import statistics
    import time

    contenders["exact"]()
    seconds = {name: [] for name in contenders}
    results = {}
    for run in range(runs):
        for name in _timing.rotated(list(contenders), run):
            gc.collect()
            start = time.perf_counter()
            results[name] = contenders[name]()
            seconds[name].append(time.perf_counter() - start)
    return {name: statistics.median(s) for name, s in seconds.items()}, results


def model_trees(model):
    if hasattr(model, "_predictors"):
        return model._predictors
    return np.ravel(model.estimators_)


COLUMNS = [
    ("case", "<"),
    ("points", ">"),
    ("exact s", ">"),
    ("against", "<"),
    ("their s", ">"),
    ("speed-up", ">"),
    ("target", "<"),
    ("max |diff|", ">"),
]


def main():
    def add_models(parser):
        parser.add_argument(
            "--models", nargs="+", choices=list(TARGETS), default=list(TARGETS),
            help="the cases to run (default: all)",
        )  # fmt: skip

    args, runs = _timing.parse_runs(
        __doc__.splitlines()[0],
        f"smoke test: 1 run, {QUICK_POINTS} points, 1 thread",
        add_models,
    )
    if not args.quick and "--runs" not in " ".join(sys.argv):
        runs = 1  # the generic path takes minutes
    _timing.restart_single_threaded_if_quick(args.quick)
    print("interaction_strength: exact tree path against the generic path")
    print(_timing.describe_environment([np, pd, sklearn, inspectwidgets]))
    print(
        f"Median seconds of {runs} timed run(s), after one untimed warm-up call "
        "of the exact path (numba); the paths alternate, in an order rotating "
        "from run to run."
    )
    if gbmi_pairs() is None:
        print("sklearn-gbmi: not importable here (see the module doc)")
    agreement = _agreement.Agreement()
    n_points = QUICK_POINTS if args.quick else N_POINTS
    table = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for name, model in models().items():
            if name in args.models:
                table += case(name, model, n_points, runs, agreement)
    print()
    print(_timing.format_table(COLUMNS, table))
    agreement.exit_if_any()


if __name__ == "__main__":
    main()
