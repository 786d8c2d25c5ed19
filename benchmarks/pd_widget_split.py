"""PartialDependenceWidget: what a "split by" or an ICE-mode switch costs
against the run it spares, side by side.

    python benchmarks/pd_widget_split.py [--quick] [--runs N]

The case: a HistGradientBoosting regressor on 10,000 rows (2,000 with
--quick) of a frame with a numeric feature `tenure` and three low-cardinality
columns; the widget on `tenure`, 50 grid points, `split_by="plan"`. Timed:

- rerun: `run()` then `wait()`, the predictions a split would cost if it
  were computed apart;
- split switch: `split_by` set to the other column (redrawn from every row's
  ICE curves already kept: no prediction);
- bands switch: `ice_mode` between "bands" and "lines".

Checked outside the timer: the split's curves equal
`subgroup_partial_dependence` on the widget's result, and the switches
predicted no row (the model counts them); exit status 1 if not.
"""

import sys

import _timing
import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingRegressor

from inspectwidgets import PartialDependenceWidget, subgroup_partial_dependence
from inspectwidgets.widgets._serialization import decode_binary_array


class Counted(HistGradientBoostingRegressor):
    predicted = 0

    def predict(self, X):
        Counted.predicted += len(X)
        return super().predict(X)


def frame(n_rows):
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {
            "tenure": rng.uniform(0, 72, n_rows),
            "age": rng.uniform(18, 80, n_rows),
            "plan": pd.Categorical(rng.choice(["basic", "pro", "team"], n_rows)),
            "region": rng.choice(["north", "south", "east", "west"], n_rows),
            "seats": rng.choice([1.0, 2.0, 5.0, np.nan], n_rows),
        }
    )
    X["region"] = X["region"].astype("category")
    slope = np.where(X["plan"] == "pro", 1.0, -1.0)
    y = slope * X["tenure"] / 72 + 0.01 * X["age"] + rng.normal(0, 0.1, n_rows)
    return X, Counted(max_iter=60, categorical_features="from_dtype").fit(X, y)


def main(argv):
    quick = "--quick" in argv
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 5
    n_rows = 2_000 if quick else 10_000
    X, model = frame(n_rows)
    w = PartialDependenceWidget(model, X, features="tenure", split_by="plan")
    w.wait()

    def rerun():
        w.run()
        return w.wait()

    def split_switch():
        w.split_by = "region" if w.split_by == "plan" else "plan"
        return w.split_by

    def bands_switch():
        w.ice_mode = "lines" if w.ice_mode == "bands" else "bands"
        return w.ice_mode

    medians, _ = _timing.time_side_by_side(
        {"rerun": rerun, "split switch": split_switch, "bands switch": bands_switch},
        runs,
    )
    before = Counted.predicted
    split_switch()
    bands_switch()
    predicted = Counted.predicted - before
    w.split_by = "plan"
    expected = subgroup_partial_dependence(w.result, X["plan"])
    same = np.allclose(
        decode_binary_array(w._curve["groups"]["average"]),
        expected.average[:, 0],
        rtol=1e-5,
    )
    print(f"{n_rows:,} rows x 50 grid points, split by plan / region, {runs} runs")
    print(f"{'case':<14} {'median s':>9} {'vs rerun':>9}")
    for name, seconds in medians.items():
        ratio = seconds / medians["rerun"]
        print(f"{name:<14} {seconds:>9.3f} {ratio:>8.3f}x")
    print(f"rows predicted by the switches: {predicted}; curves equal: {same}")
    return 0 if same and predicted == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
