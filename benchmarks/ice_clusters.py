"""ICE clustering of 10,000 curves x 50 points against the same steps written
with scikit-learn's defaults, side by side.

    python benchmarks/ice_clusters.py [--quick] [--runs N]

The curves: `partial_dependence(kind="both", grid_resolution=50)` of a
HistGradientBoosting regressor on 10,000 rows of a frame whose `tenure`
effect has three shapes (set by `plan` and `age`), computed once, outside
the timer. Timed:

- ours: `ice_clusters(result, X)`, k chosen by silhouette among 2..6, with
  the rules of its tree on X; and with `n_clusters=3` given;
- scikit-learn's defaults, the same steps: `KMeans(k, n_init=1,
  random_state=0)` for k in 2..6 (default threads), `silhouette_score(...,
  sample_size=2000, random_state=0)` for each, a depth-3 tree on X.

The target (issue #34): 10,000 curves x 50 points clustered in <= 0.5 s.
Checks, outside the timer: both choose the same k and the same partition
(adjusted Rand index 1); the script exits with status 1, after the table,
if not.
"""

import sys

import _timing
import numpy as np
import pandas as pd
import sklearn
from sklearn.cluster import KMeans
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.metrics import adjusted_rand_score, silhouette_score
from sklearn.tree import DecisionTreeClassifier

import inspectwidgets
from inspectwidgets import ice_clusters, partial_dependence

N_ROWS, QUICK_ROWS, N_GRID = 10_000, 2_000, 50


def curves(n_rows):
    rng = np.random.RandomState(0)
    X = pd.DataFrame(
        {
            "tenure": rng.uniform(0, 1, n_rows),
            "age": rng.uniform(20, 70, n_rows),
            "visits": rng.poisson(3, n_rows).astype(float),
            "plan": rng.randint(0, 2, n_rows).astype(float),
        }
    )
    slope = np.where(X["plan"] == 1, 3.0, np.where(X["age"] > 45, -2.0, 0.0))
    y = slope * X["tenure"] + 0.05 * X["visits"] + 0.1 * rng.normal(size=n_rows)
    model = HistGradientBoostingRegressor(max_iter=60, random_state=0).fit(X, y)
    result = partial_dependence(
        model, X, ["tenure"], kind="both", grid_resolution=N_GRID, return_result=True
    )
    return X, result


def sklearn_steps(X, result):
    centered = result.individual[0] - result.individual[0][:, :1]
    best = None
    for k in range(2, 7):
        labels = KMeans(n_clusters=k, n_init=1, random_state=0).fit(centered).labels_
        score = silhouette_score(centered, labels, sample_size=2000, random_state=0)
        if best is None or score > best[0]:
            best = (score, k, labels)
    inputs = X.drop(columns="tenure").to_numpy()
    DecisionTreeClassifier(max_depth=3, random_state=0).fit(inputs, best[2])
    return best[1], best[2]


COLUMNS = [
    ("case", "<"),
    ("curves", ">"),
    ("ours s", ">"),
    ("sklearn steps s", ">"),
    ("ratio", ">"),
    ("target", ">"),
    ("k", ">"),
    ("ARI", ">"),
]


def main():
    args, runs = _timing.parse_runs(
        __doc__.splitlines()[0], f"smoke test: 1 run, {QUICK_ROWS} curves, 1 thread"
    )
    _timing.restart_single_threaded_if_quick(args.quick)
    print("ice_clusters")
    print(_timing.describe_environment([np, pd, sklearn, inspectwidgets]))
    print(_timing.describe_method(runs, args.quick, "the contenders"))
    n_rows = QUICK_ROWS if args.quick else N_ROWS
    X, result = curves(n_rows)
    medians, results = _timing.time_side_by_side(
        {
            "chosen": lambda: ice_clusters(result, X),
            "given": lambda: ice_clusters(result, X, n_clusters=3),
            "sklearn": lambda: sklearn_steps(X, result),
        },
        runs,
    )
    k, labels = results["sklearn"]
    rows, failed = [], []
    for case in ("chosen", "given"):
        ours = results[case]
        ari = adjusted_rand_score(labels, ours.labels)
        if ours.n_clusters != k or ari != 1.0:
            failed.append(f"{case}: k={ours.n_clusters} (sklearn {k}), ARI {ari}")
        rows.append(
            [
                f"{case} k" if case == "given" else "k by silhouette, rules",
                f"{n_rows:,} x {N_GRID}",
                f"{medians[case]:.3f}",
                f"{medians['sklearn']:.3f}",
                f"{medians[case] / medians['sklearn']:.2f}x",
                "<= 0.5 s",
                str(ours.n_clusters),
                f"{ari:.3f}",
            ]
        )
    print()
    print(_timing.format_table(COLUMNS, rows))
    if failed:
        print("\n".join(failed), file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
