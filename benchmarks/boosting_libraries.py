"""Other libraries' boosted trees through the tree walk, against
scikit-learn's functions on the same fitted model.

    python benchmarks/boosting_libraries.py [--quick] [--runs N] [--rows N]

XGBoost (its own section below; other libraries get sections of their own):
a 200-tree XGBClassifier on 10,000 x 20 (binary), median seconds of
scikit-learn's ``permutation_importance`` (5 repeats) and ``partial_dependence``
(kind="both") against ours (``algorithm="auto"``: the walk, compiled walk
already loaded), and the exact H² against our generic path, side by side
(``_timing.time_side_by_side``: warm-up, alternating order). Our permutation
importances and partial dependences must equal scikit-learn's bit for bit,
the exact H² the generic path's within float32 sums (tests/numerics.py); a
difference exits 1. Results: benchmarks/results/boosting_libraries.md.
"""

import argparse
import os

import _agreement
import _timing
import numpy as np
from sklearn.datasets import make_classification
from sklearn.inspection import partial_dependence as sklearn_partial_dependence
from sklearn.inspection import permutation_importance as sklearn_importance

from inspectwidgets import (
    interaction_strength,
    partial_dependence,
    permutation_importance,
)

RANDOM_STATE = 0


# -- XGBoost -----------------------------------------------------------------


def xgboost_case(n_rows, n_trees=200, n_features=20):
    """A fitted XGBClassifier and the rows it is inspected on (NaN in one
    column: its trees learn where missing values go)."""
    import xgboost

    X, y = make_classification(
        n_samples=2 * n_rows, n_features=n_features, n_informative=10,
        random_state=RANDOM_STATE,
    )  # fmt: skip
    X[np.random.RandomState(RANDOM_STATE).rand(len(X)) < 0.1, 0] = np.nan
    model = xgboost.XGBClassifier(
        n_estimators=n_trees, max_depth=6, random_state=RANDOM_STATE
    ).fit(X[:n_rows], y[:n_rows])
    return model, X[n_rows:], y[n_rows:]


def xgboost_contenders(model, X, y, agreement):
    """``{case: (contenders, check)}``: each case's two contenders and the
    check of their results."""
    importance = dict(n_repeats=5, random_state=RANDOM_STATE)
    features = [1, 2, 3]
    dependence = dict(method="brute", kind="both", grid_resolution=50)
    h2 = dict(features=[1, 2, 3, 4], pairs="all", n_samples=300,
              random_state=RANDOM_STATE)  # fmt: skip

    def check_importance(results):
        ours, theirs = results["ours"], results["sklearn"]
        agreement.require_identical("permutation", ours.importances, theirs.importances)

    def check_dependence(results):
        for key in ("average", "individual"):
            agreement.require_identical(
                f"PD {key}", results["ours"][key], results["sklearn"][key]
            )

    def check_h2(results):
        exact, generic = results["ours"], results["generic"]
        a, b = exact["h_squared"].to_numpy(), generic["h_squared"].to_numpy()
        if exact.attrs["algorithm"] != "exact_tree" or not np.allclose(
            a, b, rtol=1e-5, atol=1e-5
        ):
            agreement.mismatches.append(
                f"H²: {exact.attrs['algorithm']}, max diff {np.abs(a - b).max():.1e}"
            )

    return {
        "permutation importance (5 repeats)": (
            {
                "sklearn": lambda: sklearn_importance(model, X, y, **importance),
                "ours": lambda: permutation_importance(model, X, y, **importance),
            },
            check_importance,
        ),
        "PD + ICE (3 features, 50 points)": (
            {
                "sklearn": lambda: sklearn_partial_dependence(
                    model, X, features, **dependence
                ),
                "ours": lambda: partial_dependence(model, X, features, **dependence),
            },
            check_dependence,
        ),
        "exact H² (4 features, 300 rows; vs our generic path)": (
            {
                "generic": lambda: interaction_strength(
                    model, X, algorithm="generic", **h2
                ),
                "ours": lambda: interaction_strength(model, X, **h2),
            },
            check_h2,
        ),
    }


def run_xgboost(rows, runs):
    model, X, y = xgboost_case(rows)
    agreement = _agreement.Agreement()
    print(f"XGBoost: XGBClassifier, 200 trees of depth 6, {rows:,} x 20, {runs} runs")
    print(f"{'case':55} {'theirs s':>9} {'ours s':>8} {'ratio':>7}")
    for case, (contenders, check) in xgboost_contenders(model, X, y, agreement).items():
        seconds, results = _timing.time_side_by_side(contenders, runs)
        check(results)
        theirs = seconds.get("sklearn", seconds.get("generic"))
        print(
            f"{case:55} {theirs:9.2f} {seconds['ours']:8.2f} "
            f"{theirs / seconds['ours']:6.1f}x"
        )
    return agreement


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 rows, 1 run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rows", type=int, default=10_000)
    args = parser.parse_args()
    rows, runs = (1000, 1) if args.quick else (args.rows, args.runs)
    print(f"os.cpu_count()={os.cpu_count()}, load {os.getloadavg()[0]:.1f}")
    run_xgboost(rows, runs).exit_if_any()


if __name__ == "__main__":
    main()
