"""Permutation importance within subgroups against scikit-learn run on each
subgroup's rows, and against one plain run of ours, side by side.

    python benchmarks/subgroup_importance.py [--quick] [--runs N]

Case: a HistGradientBoosting classifier (100 iterations) on 20,000 rows x 10
features (5,000 with --quick), 4 subgroups of 40%, 30%, 25% and 5% of the rows,
`n_repeats=5`, `random_state=0`. Timed: `subgroup_permutation_importance`
(every subgroup in one run), scikit-learn's `permutation_importance` called
on each subgroup's rows in turn, and our `permutation_importance` of all rows
(what the subgroup run predicts, once). Checked outside the timer: each
subgroup's importances equal scikit-learn's on its rows bit for bit (a tree
model); the script exits with status 1, after the table, if not.
"""

import _agreement
import _timing
import numpy as np
import pandas as pd
import sklearn
from sklearn.datasets import make_classification
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.inspection import permutation_importance as sklearn_importance

import inspectwidgets
from inspectwidgets import permutation_importance, subgroup_permutation_importance

N_ROWS, QUICK_ROWS = 20_000, 5_000
SHARES = {"basic": 0.40, "pro": 0.30, "team": 0.25, "trial": 0.05}
KWARGS = dict(n_repeats=5, random_state=0)


def case(n_rows):
    X, y = make_classification(
        n_samples=n_rows, n_features=10, n_informative=5, random_state=0
    )
    model = HistGradientBoostingClassifier(max_iter=100, random_state=0).fit(X, y)
    rng = np.random.RandomState(1)
    labels = rng.choice(list(SHARES), size=n_rows, p=list(SHARES.values()))
    return model, X, y, labels


def sklearn_per_subgroup(model, X, y, labels):
    results = {}
    for label in pd.unique(labels):
        rows = labels == label
        results[label] = sklearn_importance(model, X[rows], y[rows], **KWARGS)
    return results


COLUMNS = [
    ("contender", "<"),
    ("rows", ">"),
    ("seconds", ">"),
    ("/ ours by subgroup", ">"),
]


def main():
    args, runs = _timing.parse_runs(
        __doc__.splitlines()[0], f"smoke test: 1 run, {QUICK_ROWS} rows, 1 thread"
    )
    _timing.restart_single_threaded_if_quick(args.quick)
    print("subgroup_permutation_importance")
    print(_timing.describe_environment([np, pd, sklearn, inspectwidgets]))
    print(_timing.describe_method(runs, args.quick, "the contenders"))
    n_rows = QUICK_ROWS if args.quick else N_ROWS
    model, X, y, labels = case(n_rows)
    medians, results = _timing.time_side_by_side(
        {
            "ours, by subgroup": lambda: subgroup_permutation_importance(
                model, X, y, subgroups=labels, return_result=True, **KWARGS
            ),
            "sklearn, each subgroup": lambda: sklearn_per_subgroup(model, X, y, labels),
            "ours, all rows": lambda: permutation_importance(model, X, y, **KWARGS),
        },
        runs,
    )
    agreement = _agreement.Agreement()
    ours, theirs = results["ours, by subgroup"], results["sklearn, each subgroup"]
    for label, expected in theirs.items():
        agreement.require_identical(
            f"subgroup {label}", ours.group(label).importances(), expected.importances
        )
    base = medians["ours, by subgroup"]
    rows = [
        [name, f"{n_rows:,}", f"{seconds:.3f}", f"{seconds / base:.2f}x"]
        for name, seconds in medians.items()
    ]
    print()
    print(_timing.format_table(COLUMNS, rows))
    agreement.exit_if_any()


if __name__ == "__main__":
    main()
