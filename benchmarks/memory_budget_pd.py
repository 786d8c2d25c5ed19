"""Peak memory (tracemalloc) of partial dependence against its estimate
(#49), as markdown rows: peak MiB, estimate MiB, peak / estimate.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/memory_budget_pd.py
"""

import time
import tracemalloc

import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import Ridge
from sklearn.tree import DecisionTreeClassifier

from inspectwidgets import partial_dependence
from inspectwidgets.inspection._core.budget import x_bytes
from inspectwidgets.inspection._partial_dependence.footprint import peak_bytes

rng = np.random.default_rng(0)
for n_rows in (500, 5000):
    X = pd.DataFrame(rng.normal(size=(n_rows, 8)), columns=list("abcdefgh"))
    y = X.a * 2 + X.b + rng.normal(size=n_rows)
    for name, model in [
        ("ridge", Ridge()),
        ("hgb", HistGradientBoostingRegressor(max_iter=20)),
        ("tree-clf", DecisionTreeClassifier(max_depth=5)),
    ]:
        yy = (y > 0).astype(int) + (y > 1) if name == "tree-clf" else y
        model.fit(X, yy)
        for feats, G in [
            (["a"], 20),
            (["a"], 1000),
            (["a"], 100_000),
            (["a", "b"], 60),
        ]:
            if name == "hgb" and G * n_rows > 1_000_000:
                continue
            tracemalloc.start()
            t = time.time()
            partial_dependence(
                model, X, feats, grid_resolution=G, kind="both", method="brute"
            )
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            n_out = len(getattr(model, "classes_", [])) or 1
            est = peak_bytes(
                G,
                n_rows=n_rows,
                n_columns=8,
                n_axes=len(feats) if len(feats) == 2 else 1,
                n_outputs=n_out,
                n_ice_rows=n_rows,
                max_memory=64 * 2**20,
                x_bytes=x_bytes(X),
            )
            print(
                f"| partial dependence | {name} | {n_rows} | {feats} grid_resolution={G} | {peak / 2**20:.1f} | {est / 2**20:.1f} | {peak / est:.2f} |"  # noqa: E501
            )
