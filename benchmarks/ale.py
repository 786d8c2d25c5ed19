"""Accumulated local effects and H² against our partial dependence, side by side.

    python benchmarks/ale.py [--quick] [--runs N]

Two cases:

- 1-way ALE with 20 quantile bins against our 1-way partial dependence on a
  20-point grid (method="brute", kind="average"), and effector 0.6's ALE with
  20 (equal-width) bins where installed, on 10,000 rows of a 100-tree random
  forest. ALE predicts 2 copies of X, PD 20: the target is ALE <= 0.5x PD.
- Friedman & Popescu's H² for 8 features and all their 28 pairs on a 300-row
  subsample of a HistGradientBoosting regressor: 300² x 36 = 3.24 million
  predictions; the target is <= 10 s.

Checks, outside the timer: ALE through the tree shortcut equals the generic
path ("auto" for a forest) bit for bit, and H² through the shortcut ("auto")
equals the generic path's to 1e-12; the script exits with status 1, after the
table, if not.
"""

import functools
import warnings

import _agreement
import _timing
import numpy as np
import pandas as pd
import sklearn
from sklearn.datasets import make_regression
from sklearn.ensemble import HistGradientBoostingRegressor, RandomForestRegressor

import inspectwidgets
from inspectwidgets import (
    accumulated_local_effects,
    interaction_strength,
    partial_dependence,
)

N_BINS = 20
QUICK_ROWS = 1000
H_SAMPLES, QUICK_H_SAMPLES = 300, 60


@functools.cache
def forest(n_rows):
    X, y = make_regression(n_samples=2 * n_rows, n_features=8, noise=5, random_state=0)
    model = RandomForestRegressor(n_estimators=100, random_state=0, n_jobs=1)
    return model.fit(X[n_rows:], y[n_rows:]), X[:n_rows]


@functools.cache
def boosting():
    X, y = make_regression(
        n_samples=10_000, n_features=8, n_informative=8, random_state=0
    )
    y = y + 0.05 * X[:, 0] * X[:, 1] * np.abs(y).mean()  # something to find
    model = HistGradientBoostingRegressor(max_iter=100, random_state=0)
    return model.fit(X[5000:], y[5000:]), X[:5000]


def effector_ale(model, X):
    """effector's ALE of feature 0 with 20 fixed bins, every row, or None."""
    try:
        import effector
    except ImportError:
        return None

    def run():
        ale = effector.ALE(X, model.predict, nof_instances="all")
        bins = effector.axis_partitioning.Fixed(nof_bins=N_BINS, min_points_per_bin=0)
        ale.fit([0], centering=True, binning_method=bins)
        return ale.eval(0, np.linspace(X[:, 0].min(), X[:, 0].max(), N_BINS + 1))

    return run


def ale_case(n_rows, runs, agreement):
    model, X = forest(n_rows)
    contenders = {
        "ALE": lambda: accumulated_local_effects(model, X, 0, grid_resolution=N_BINS),
        "PD": lambda: partial_dependence(
            model,
            X,
            [0],
            grid_resolution=N_BINS,
            method="brute",
            correlation_threshold=None,
        ),  # fmt: skip
    }
    peer = effector_ale(model, X)
    if peer is not None:
        contenders["effector ALE"] = peer
    medians, results = _timing.time_side_by_side(contenders, runs)
    # "auto" predicts a forest's stacked copies; the shortcut must agree.
    tree = accumulated_local_effects(
        model, X, 0, grid_resolution=N_BINS, algorithm="tree"
    )
    agreement.require_identical(
        "ALE tree vs generic", tree.centered, results["ALE"].centered
    )
    rows = [
        ["1-way ALE, RF 100 trees", str(n_rows), f"{medians['ALE']:.3f}",
         f"PD grid {N_BINS}", f"{medians['PD']:.3f}",
         f"{medians['ALE'] / medians['PD']:.2f}"],
    ]  # fmt: skip
    if peer is not None:
        rows.append(
            ["1-way ALE, RF 100 trees", str(n_rows), f"{medians['ALE']:.3f}",
             "effector ALE", f"{medians['effector ALE']:.3f}",
             f"{medians['ALE'] / medians['effector ALE']:.2f}"]
        )  # fmt: skip
    return rows


def h_case(n_samples, runs, agreement):
    model, X = boosting()

    def h(algorithm="auto"):
        return interaction_strength(
            model, X, pairs="all", n_samples=n_samples, random_state=0,
            algorithm=algorithm,
        )  # fmt: skip

    medians, results = _timing.time_side_by_side({"H2": h}, runs)
    generic = h("generic")
    agreement.max_difference(
        "H² tree vs generic", results["H2"]["h_squared"], generic["h_squared"]
    )
    n_predictions = results["H2"].attrs["n_predictions"]
    top = results["H2"].query("kind == 'pair'").iloc[0]
    print(f"H²: {n_predictions:,} predictions; strongest pair "
          f"{top.feature} x {top.partner}: H² = {top.h_squared:.3f}")  # fmt: skip
    return [
        ["H² 8 features + 28 pairs, HistGB", str(n_samples), f"{medians['H2']:.3f}",
         "target 10 s", "10.000", f"{medians['H2'] / 10:.2f}"],
    ]  # fmt: skip


COLUMNS = [
    ("case", "<"),
    ("rows", ">"),
    ("ours s", ">"),
    ("against", "<"),
    ("their s", ">"),
    ("ratio", ">"),
]


def main():
    args, runs = _timing.parse_runs(
        __doc__.splitlines()[0],
        f"smoke test: 1 run, {QUICK_ROWS} rows (H²: {QUICK_H_SAMPLES}), 1 thread",
    )
    _timing.restart_single_threaded_if_quick(args.quick)
    print("accumulated_local_effects and interaction_strength")
    print(_timing.describe_environment([np, pd, sklearn, inspectwidgets]))
    print(_timing.describe_method(runs, args.quick, "the contenders"))
    agreement = _agreement.Agreement()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        rows = ale_case(QUICK_ROWS if args.quick else 10_000, runs, agreement)
        rows += h_case(QUICK_H_SAMPLES if args.quick else H_SAMPLES, runs, agreement)
    print()
    print(_timing.format_table(COLUMNS, rows))
    agreement.exit_if_any()


if __name__ == "__main__":
    main()
