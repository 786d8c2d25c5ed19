"""Cohorts: what a rule costs against pandas' `query`, and what changing the
inspector's cohorts costs under Effects against the run it spares.

    python benchmarks/cohorts.py [--quick] [--runs N]

1. Masks: `Cohort(name, rule).mask(X)` against `X.query(...)` selecting the
   same rows (with `.notna()` where a missing value meets no comparison
   here), on 1,000,000 rows (100,000 with --quick) of a messy frame (NaN, a
   category, an Int64 and a string column), for three rules.
2. Effects: a ModelInspector of a HistGradientBoosting regressor on 10,000
   rows (2,000 with --quick), `tenure` selected; timed side by side: a rerun
   of the Effects view (`run()` + `wait()`, the predictions a split would
   cost computed apart) and a change of `cohorts` (the Effects split read
   again from every row's ICE curves).

Checked outside the timers: every mask equals pandas' rows; the cohort
changes predicted no row under Effects (the model counts the rows its
thread predicts); exit status 1 if not.
"""

import sys
import threading

import _timing
import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingRegressor

from inspectwidgets import Cohort, ModelInspector

RULES = [
    ("age < 30 and plan == 'pro'", "age < 30 and plan == 'pro'"),
    (
        "region != 'north' and seats >= 2",
        "region != 'north' and region.notna() and seats >= 2",
    ),
    (
        "(tenure <= 12 or age is missing) and plan in ['pro', 'team']",
        "(tenure <= 12 or age.isna()) and plan in ['pro', 'team']",
    ),
]


class Counted(HistGradientBoostingRegressor):
    """Counts the rows the Effects view's thread predicts."""

    effects_rows = 0

    def predict(self, X):
        if threading.current_thread().name.startswith("EmbeddedPartialDependence"):
            Counted.effects_rows += len(X)
        return super().predict(X)


def frame(n_rows, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "tenure": rng.uniform(0, 72, n_rows),
            "age": rng.integers(18, 80, n_rows).astype(float),
            "plan": pd.Categorical(rng.choice(["basic", "pro", "team"], n_rows)),
            "seats": pd.array(rng.integers(0, 5, n_rows), dtype="Int64"),
            "region": rng.choice(["north", "south", "east"], n_rows).astype(object),
        }
    )
    X.loc[::17, "age"] = np.nan
    X.loc[::29, "region"] = None
    return X


def masks(n_rows, runs):
    X = frame(n_rows)
    print(f"Masks: {n_rows:,} rows, {runs} runs")
    print(f"{'rule':<62} {'ours s':>8} {'query s':>8} {'ratio':>7}  equal")
    same = True
    for rule, query in RULES:
        medians, results = _timing.time_side_by_side(
            {
                "ours": lambda rule=rule: Cohort("c", rule).mask(X),
                "query": lambda query=query: X.index.isin(X.query(query).index),
            },
            runs,
        )
        equal = np.array_equal(results["ours"], results["query"])
        same &= equal
        ratio = medians["ours"] / medians["query"]
        print(
            f"{rule:<62} {medians['ours']:>8.3f} {medians['query']:>8.3f} "
            f"{ratio:>6.2f}x  {equal}"
        )
    return same


def effects(n_rows, runs):
    X = frame(n_rows, seed=1)
    X["region"] = X["region"].astype("category")  # as the model takes it
    rng = np.random.default_rng(1)
    y = np.where(X["plan"] == "pro", 1.0, -1.0) * X["tenure"] / 72 + rng.normal(
        0, 0.1, n_rows
    )
    model = Counted(max_iter=60, categorical_features="from_dtype").fit(X, y)
    review = ModelInspector(
        model,
        X,
        y,
        random_state=0,
        n_repeats=2,
        selected_features=["tenure"],
        cohorts={"young pro": "age < 30 and plan == 'pro'"},
    )
    review.wait()
    view = review.views["effects"]
    rules = ["age < 30 and plan == 'pro'", "seats >= 3"]

    def rerun():
        view.run()
        return view.wait()

    def change_cohorts():
        rule = rules[1] if review.cohorts[0]["rule"] == rules[0] else rules[0]
        review.cohorts = [{"name": "c", "rule": rule}]
        review.views["importance"].cancel()  # not timed: its own run
        return view._curve["groups"]["labels"]

    medians, _ = _timing.time_side_by_side(
        {"rerun": rerun, "cohorts change": change_cohorts}, runs
    )
    before = Counted.effects_rows
    change_cohorts()
    predicted = Counted.effects_rows - before
    print(f"Effects: {n_rows:,} rows x 50 grid points, {runs} runs")
    print(f"{'case':<16} {'median s':>9} {'vs rerun':>9}")
    for name, seconds in medians.items():
        print(f"{name:<16} {seconds:>9.3f} {seconds / medians['rerun']:>8.3f}x")
    print(f"rows predicted under Effects by a cohorts change: {predicted}")
    review.close()
    return predicted == 0


def main(argv):
    quick = "--quick" in argv
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 5
    ok = masks(100_000 if quick else 1_000_000, runs)
    ok &= effects(2_000 if quick else 10_000, runs)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
