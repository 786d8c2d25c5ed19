"""Extra time of the held-out interval (``n_bootstrap=200``) over a run
without it, on 10,000 and 100,000 held-out rows: HistGradientBoosting
(the tree walk) and a Ridge pipeline (scaling + one-hot, the model
predicts stacked copies). Runs with and without alternate after a warm-up;
the medians and their ratio are printed. Importances are checked equal.

    PYTHONPATH=src .venv/bin/python benchmarks/heldout_interval.py [--quick]
"""

import argparse
import time

import numpy as np
import pandas as pd
from _datasets import frame_models

from inspectwidgets import permutation_importance


def data(n, seed):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 8)), columns=[f"x{i}" for i in range(8)])
    X["city"] = pd.Categorical(rng.choice(["a", "b", "c", "d"], n))
    y = X["x0"] * 2 + np.sin(X["x1"]) + (X["city"] == "b") + rng.normal(size=n)
    return X, y.to_numpy()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="10,000 rows, 1 run")
    args = parser.parse_args()
    sizes = [10_000] if args.quick else [10_000, 100_000]
    runs = 1 if args.quick else 3
    X_train, y_train = data(20_000, 0)
    print("| model | rows | off s | B=200 s | extra s | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, model in frame_models().items():
        model.fit(X_train, y_train)
        for n in sizes:
            X, y = data(n, 1)
            kwargs = dict(n_repeats=5, random_state=0, scoring="r2")
            permutation_importance(model, X[:2000], y[:2000], n_bootstrap=200, **kwargs)
            times = {None: [], 200: []}
            results = {}
            for _ in range(runs):
                for b in (None, 200) if _ % 2 == 0 else (200, None):
                    start = time.perf_counter()
                    results[b] = permutation_importance(
                        model, X, y, n_bootstrap=b, **kwargs
                    )
                    times[b].append(time.perf_counter() - start)
            assert np.array_equal(results[None].importances, results[200].importances)
            off, on = np.median(times[None]), np.median(times[200])
            print(
                f"| {name} | {n:,} | {off:.2f} | {on:.2f} | {on - off:.2f} "
                f"| {on / off:.2f} |"
            )


if __name__ == "__main__":
    main()
