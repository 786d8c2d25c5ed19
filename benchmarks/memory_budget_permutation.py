"""Peak memory (tracemalloc) of permutation importance against its estimate
(#49), as markdown rows: peak MiB, estimate MiB, peak / estimate.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/memory_budget_permutation.py
"""

import time
import tracemalloc

import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import Ridge
from sklearn.neighbors import KNeighborsRegressor
from sklearn.tree import DecisionTreeRegressor

from inspectwidgets import permutation_importance
from inspectwidgets.inspection._permutation.footprint import peak_bytes, x_bytes

rng = np.random.default_rng(0)
for n_rows in (500, 5000):
    X = pd.DataFrame(rng.normal(size=(n_rows, 8)), columns=list("abcdefgh"))
    y = X.a * 2 + X.b + rng.normal(size=n_rows)
    for name, model in [
        ("ridge", Ridge()),
        ("tree", DecisionTreeRegressor(max_depth=6)),
        ("hgb", HistGradientBoostingRegressor(max_iter=20)),
        ("knn", KNeighborsRegressor()),
    ]:
        model.fit(X, y)
        for R in (5, 200, 2000):
            if name in ("knn", "hgb") and R * n_rows > 200_000:
                continue
            scoring = ["r2", "neg_mean_squared_error"]
            tracemalloc.start()
            t = time.time()
            permutation_importance(
                model, X, y, n_repeats=R, random_state=0, scoring=scoring
            )
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            est = peak_bytes(
                n_rows, 8, R, n_scores=2, max_memory=64 * 2**20, x_bytes=x_bytes(X)
            )
            print(
                f"| permutation | {name} | {n_rows} | n_repeats={R} | {peak / 2**20:.1f} | {est / 2**20:.1f} | {peak / est:.2f} | {time.time() - t:.1f}s"  # noqa: E501
            )
