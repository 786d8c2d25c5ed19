"""Time of conditional permutation importance over the marginal one, for the
same repeats, on 10,000 and 100,000 rows: HistGradientBoosting (the tree
walk) and a Ridge pipeline (scaling + one-hot, the model predicts stacked
copies). Eight numeric features, four of them pairs of correlated ones (so
those are permuted within subgroups), and a category. Marginal and
conditional runs alternate after a warm-up; the medians, their ratio and
the subgroup trees' share (fitting them alone) are printed. Checked: the
features nothing predicts get the marginal numbers, bit for bit.

    PYTHONPATH=src .venv/bin/python benchmarks/conditional.py [--quick]
"""

import argparse
import time

import numpy as np
import pandas as pd
from _datasets import frame_models

from inspectwidgets import conditional_permutation_importance, permutation_importance
from inspectwidgets.inspection._permutation import conditional_run


def data(n, seed):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 8)), columns=[f"x{i}" for i in range(8)])
    X["x1"] = X["x0"] + 0.3 * X["x1"]  # x0 and x1 predict each other
    X["x3"] = X["x2"] - 0.5 * X["x3"]  # so do x2 and x3
    X["city"] = pd.Categorical(rng.choice(["a", "b", "c", "d"], n))
    y = X["x0"] * 2 + np.sin(X["x2"]) + X["x4"] + (X["city"] == "b")
    return X, (y + rng.normal(size=n)).to_numpy()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="10,000 rows, 1 run")
    args = parser.parse_args()
    sizes = [10_000] if args.quick else [10_000, 100_000]
    runs = 1 if args.quick else 3
    X_train, y_train = data(20_000, 0)
    print("| model | rows | marginal s | conditional s | trees s | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, model in frame_models().items():
        model.fit(X_train, y_train)
        for n in sizes:
            X, y = data(n, 1)
            kwargs = dict(n_repeats=5, random_state=0, scoring="r2")
            functions = {
                "marginal": permutation_importance,
                "conditional": conditional_permutation_importance,
            }
            for function in functions.values():  # warm-up
                function(model, X[:2000], y[:2000], **kwargs)
            times = {key: [] for key in functions}
            results = {}
            for run in range(runs):
                order = list(functions) if run % 2 == 0 else list(functions)[::-1]
                for key in order:
                    start = time.perf_counter()
                    results[key] = functions[key](
                        model, X, y, return_result=True, **kwargs
                    )
                    times[key].append(time.perf_counter() - start)
            start = time.perf_counter()
            conditional_run(model, X, y, **kwargs)  # validation and the trees
            trees = time.perf_counter() - start
            conditional = results["conditional"]
            alone = [
                i
                for i, f in enumerate(conditional.feature_names)
                if len(conditional.subgroups[f]) == 1
            ]
            assert np.array_equal(
                conditional.importances()[alone],
                results["marginal"].importances()[alone],
            )
            marginal, cond = (
                np.median(times["marginal"]),
                np.median(times["conditional"]),
            )
            print(
                f"| {name} | {n:,} | {marginal:.2f} | {cond:.2f} | {trees:.2f} "
                f"| {cond / marginal:.2f} |"
            )


if __name__ == "__main__":
    main()
