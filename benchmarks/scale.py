"""Large data: local threads against a dask LocalCluster, and the memory budget.

    python benchmarks/scale.py [--quick] [--runs N] [--rows N [N ...]]
                               [--no-budgets] [--target [ROWS]]

First table: permutation importance and partial dependence of a
HistGradientBoosting and a random forest model on 10^4 to 10^6 rows (--quick:
10^4 and 10^5), run on this process's threads (the default) and inside
``joblib.parallel_config(backend="dask")`` on a LocalCluster of 2 worker
processes with 1 thread each; median seconds side by side, warm-up first,
order alternating; peak extra memory of this process (tracemalloc) for each.
Second table: one permutation importance (HistGB, 10,000 x 20) at several
``max_memory`` budgets: seconds and peak extra memory, against scikit-learn's.
(--no-budgets: the first table only.) --target: the issue's target instead,
1,000,000 x 50 (or ROWS x 50): permutation importance with max_samples=100,000
and partial dependence on a 10,000-row seeded subsample, engine and widgets,
threads only: seconds, seconds to a widget's first update, peak extra memory
traced and resident (benchmarks/_scale_target.py).
Exits with status 1, after the tables, if a dask run's numbers differ from the
local run's (exactly, trees predict row by row) or ours from scikit-learn's.
See docs/large_data.md.
"""

import functools

import _agreement
import _timing
import joblib
import numpy as np
import sklearn
from sklearn.datasets import make_regression
from sklearn.ensemble import HistGradientBoostingRegressor, RandomForestRegressor
from sklearn.inspection import permutation_importance as sklearn_importance

import inspectwidgets
from inspectwidgets import partial_dependence, permutation_importance

RANDOM_STATE = 0
N_FEATURES = 20
MIB = 2**20
ROWS = (10_000, 100_000, 1_000_000)
QUICK_ROWS = (10_000,)
# Permutation importance on at most this many rows (max_samples), as one
# would on a million; partial dependence on every row.
PI_SAMPLES = 100_000
N_REPEATS = 5
PD_GRID = 20
BUDGETS_MIB = (1, 2, 4, 8, 16, 32, 64, 128, 256)
QUICK_BUDGETS_MIB = (4, 64)
# scikit-learn's call dominates the budget table: fewer repeats in --quick.
QUICK_BUDGET_REPEATS = 1


@functools.cache
def fitted(kind, n_features=N_FEATURES, n_informative=8):
    """A model fitted on 20,000 rows: what is timed is inspection, on rows
    of the same distribution drawn afterwards."""
    X, y = make_regression(
        20_000,
        n_features,
        n_informative=n_informative,
        noise=5,
        random_state=RANDOM_STATE,
    )
    if kind == "HistGB":
        model = HistGradientBoostingRegressor(max_iter=100, random_state=0)
    else:
        model = RandomForestRegressor(
            50, max_depth=10, min_samples_leaf=5, random_state=0
        )
    return model.fit(X, y)


@functools.cache
def rows(n):
    X, y = make_regression(
        n, N_FEATURES, n_informative=8, noise=5, random_state=RANDOM_STATE
    )
    return X, y


def calls(kind, n):
    """The two inspections to time, each a function of no argument."""
    model = fitted(kind)
    X, y = rows(n)
    return {
        "PI": lambda: (
            permutation_importance(
                model,
                X,
                y,
                n_repeats=N_REPEATS,
                random_state=RANDOM_STATE,
                max_samples=min(n, PI_SAMPLES),
                n_jobs=None,
            ).importances
        ),
        "PD": lambda: (
            partial_dependence(
                model, X, [0], grid_resolution=PD_GRID, method="brute"
            ).average
        ),
    }


def on_dask(func):
    def run():
        with joblib.parallel_config(backend="dask"):
            return func()

    return run


def scale_table(row_counts, runs, agreement):
    out = []
    for n in row_counts:
        for kind in ("HistGB", "RF"):
            for name, call in calls(kind, n).items():
                medians, results = _timing.time_side_by_side(
                    {"threads": call, "dask": on_dask(call)}, runs
                )
                label = f"{name} {kind} {n:,} x {N_FEATURES}"
                # Trees predict row by row: the same bits wherever they ran.
                agreement.require_identical(label, results["dask"], results["threads"])
                diff = float(np.max(np.abs(results["dask"] - results["threads"])))
                peaks = {
                    where: _timing.peak_memory(func) / MIB
                    for where, func in (("threads", call), ("dask", on_dask(call)))
                }
                out.append(
                    [
                        label,
                        f"{medians['threads']:.2f}",
                        f"{medians['dask']:.2f}",
                        f"{medians['dask'] / medians['threads']:.2f}",
                        f"{peaks['threads']:.0f}",
                        f"{peaks['dask']:.0f}",
                        f"{diff:.0e}",
                    ]
                )
    return _timing.format_table(
        [
            ("case", "<"),
            ("threads s", ">"),
            ("dask s", ">"),
            ("dask/threads", ">"),
            ("threads MiB", ">"),
            ("dask MiB", ">"),
            ("max |diff|", ">"),
        ],
        out,
    )


def budget_table(budgets, runs, agreement, n_repeats=N_REPEATS):
    """Seconds and peak extra memory of one permutation importance at each
    max_memory, with scikit-learn's call as the reference."""
    model = fitted("HistGB")
    X, y = rows(10_000)
    kwargs = {"n_repeats": n_repeats, "random_state": RANDOM_STATE}
    contenders = {"sklearn": lambda: sklearn_importance(model, X, y, **kwargs)}
    for budget in budgets:
        contenders[budget] = functools.partial(
            permutation_importance, model, X, y, max_memory=budget * MIB, **kwargs
        )
    medians, results = _timing.time_side_by_side(contenders, runs)
    out = []
    for name, seconds in medians.items():
        peak = _timing.peak_memory(contenders[name]) / MIB
        diff = agreement.max_difference(
            f"max_memory={name}", results[name].importances,
            results["sklearn"].importances,
        )  # fmt: skip
        out.append(
            [
                "scikit-learn" if name == "sklearn" else f"{name}",
                f"{seconds:.3f}",
                f"{seconds / medians['sklearn']:.2f}",
                f"{peak:.1f}",
                f"{diff:.0e}",
            ]
        )
    return _timing.format_table(
        [
            ("max_memory MiB", ">"),
            ("seconds", ">"),
            ("/sklearn", ">"),
            ("peak MiB", ">"),
            ("max |diff|", ">"),
        ],
        out,
    )


def main():
    def add_arguments(parser):
        parser.add_argument(
            "--rows", type=int, nargs="+", help=f"row counts (default: {ROWS})"
        )
        parser.add_argument(
            "--no-budgets", action="store_true", help="skip the max_memory table"
        )
        parser.add_argument(
            "--target", type=int, nargs="?", const=1_000_000, metavar="ROWS",
            help="the 1,000,000 x 50 target instead (or ROWS x 50)",
        )  # fmt: skip

    args, runs = _timing.parse_runs(
        __doc__.splitlines()[0],
        f"smoke test: 1 run, rows {QUICK_ROWS}, budgets {QUICK_BUDGETS_MIB} MiB "
        f"with n_repeats={QUICK_BUDGET_REPEATS}",
        add_arguments,
    )
    if args.target:
        from _scale_target import N_FEATURES as TARGET_FEATURES
        from _scale_target import target_table

        print(f"Target: {args.target:,} x {TARGET_FEATURES}, local threads")
        print(_timing.describe_environment([np, sklearn, joblib, inspectwidgets]))
        print(target_table(args.target, ("HistGB", "RF")))
        return
    from distributed import Client, LocalCluster

    agreement = _agreement.Agreement()
    print("Large data: local threads vs dask LocalCluster(2 x 1 thread)")
    print(_timing.describe_environment([np, sklearn, joblib, inspectwidgets]))
    print(_timing.describe_method(runs, False, "threads and dask"))
    print(
        f"PI: n_repeats={N_REPEATS}, max_samples=min(rows, {PI_SAMPLES:,}), "
        f"n_jobs=None; PD: one feature, {PD_GRID} grid points, every row."
    )
    print(
        "MiB: peak extra memory of this process (tracemalloc; the workers' "
        "own memory is not in it)."
    )
    print()
    row_counts = args.rows or (QUICK_ROWS if args.quick else ROWS)
    with (
        LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
        ) as cluster,
        Client(cluster),
    ):
        print(scale_table(row_counts, runs, agreement))
    if args.no_budgets:
        agreement.exit_if_any()
        return
    print()
    budgets = QUICK_BUDGETS_MIB if args.quick else BUDGETS_MIB
    n_repeats = QUICK_BUDGET_REPEATS if args.quick else N_REPEATS
    print(
        f"max_memory: permutation importance, HistGB 10,000 x {N_FEATURES}, "
        f"n_repeats={n_repeats}, n_jobs=None"
    )
    print(budget_table(budgets, runs, agreement, n_repeats))
    agreement.exit_if_any()


if __name__ == "__main__":
    main()
