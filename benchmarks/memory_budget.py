"""Peak memory (tracemalloc) of each engine against its memory-budget
estimate (#49), as markdown rows: engine, model, rows, setting, peak MiB,
estimate MiB, peak / estimate (the estimate must bound the peak).

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/memory_budget.py [ENGINE]

ENGINE: permutation, pd, ale or h2 (default: all four).
"""

import sys
import time
import tracemalloc
from functools import partial

import numpy as np
import pandas as pd
from sklearn.ensemble import (
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
)
from sklearn.linear_model import Ridge
from sklearn.neighbors import KNeighborsRegressor
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from inspectwidgets import (
    interaction_strength,
    iter_accumulated_local_effects,
    partial_dependence,
    permutation_importance,
)
from inspectwidgets.inspection._core.budget import x_bytes
from inspectwidgets.inspection._effects import footprint as effects_footprint
from inspectwidgets.inspection._partial_dependence import footprint as pd_footprint
from inspectwidgets.inspection._permutation import footprint as pi_footprint

MAX_MEMORY = 64 * 2**20  # the engines' default max_memory


def tables(rng):
    """(n_rows, X, y) at the sizes measured: 8 numeric columns."""
    for n_rows in (500, 5000):
        X = pd.DataFrame(rng.normal(size=(n_rows, 8)), columns=list("abcdefgh"))
        yield n_rows, X, X.a * 2 + X.b + rng.normal(size=n_rows)


def peak_of(call):
    """(peak traced bytes, seconds) of `call()`."""
    tracemalloc.start()
    started = time.time()
    call()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak, time.time() - started


def row(engine, name, n_rows, setting, peak, estimate, seconds):
    print(
        f"| {engine} | {name} | {n_rows} | {setting} | {peak / 2**20:.1f} | "
        f"{estimate / 2**20:.1f} | {peak / estimate:.2f} | {seconds:.1f}s"
    )


def permutation_rows(rng):
    scoring = ["r2", "neg_mean_squared_error"]
    for n_rows, X, y in tables(rng):
        for name, model in [
            ("ridge", Ridge()),
            ("tree", DecisionTreeRegressor(max_depth=6)),
            ("hgb", HistGradientBoostingRegressor(max_iter=20)),
            ("knn", KNeighborsRegressor()),
        ]:
            model.fit(X, y)
            for repeats in (5, 200, 2000):
                if name in ("knn", "hgb") and repeats * n_rows > 200_000:
                    continue
                peak, seconds = peak_of(
                    partial(permutation_importance, model, X, y, n_repeats=repeats,
                            random_state=0, scoring=scoring)
                )  # fmt: skip
                estimate = pi_footprint.peak_bytes(
                    n_rows, 8, repeats, n_scores=2, max_memory=MAX_MEMORY,
                    x_bytes=x_bytes(X),
                )  # fmt: skip
                row("permutation", name, n_rows, f"n_repeats={repeats}", peak,
                    estimate, seconds)  # fmt: skip


def partial_dependence_rows(rng):
    for n_rows, X, y in tables(rng):
        for name, model, target in [
            ("ridge", Ridge(), y),
            ("hgb", HistGradientBoostingRegressor(max_iter=20), y),
            ("tree-clf", DecisionTreeClassifier(max_depth=5),
             (y > 0).astype(int) + (y > 1)),
        ]:  # fmt: skip
            model.fit(X, target)
            for features, grid in [(["a"], 20), (["a"], 1000), (["a"], 100_000),
                                   (["a", "b"], 60)]:  # fmt: skip
                if name == "hgb" and grid * n_rows > 1_000_000:
                    continue
                peak, seconds = peak_of(
                    partial(partial_dependence, model, X, features,
                            grid_resolution=grid, kind="both", method="brute")
                )  # fmt: skip
                estimate = pd_footprint.peak_bytes(
                    grid, n_rows=n_rows, n_columns=8, n_axes=len(features),
                    n_outputs=len(getattr(model, "classes_", [])) or 1,
                    n_ice_rows=n_rows, max_memory=MAX_MEMORY, x_bytes=x_bytes(X),
                )  # fmt: skip
                setting = f"{features} grid_resolution={grid}"
                row("partial dependence", name, n_rows, setting, peak, estimate,
                    seconds)  # fmt: skip


def _hold_each(stream):
    """Consume `stream` as a widget does: each snapshot held while the next
    is made."""
    held = None
    for held in stream:  # noqa: B007
        pass
    return held


def _classes(y):
    return (y > 0).astype(int) + (y > 1)


def ale_rows(rng):
    for n_rows, X, y in tables(rng):
        for name, model, target in [
            ("ridge", Ridge(), y),
            ("tree", DecisionTreeRegressor(max_depth=6), y),
            ("hgb-clf (3 classes, tree shortcut)",
             HistGradientBoostingClassifier(max_iter=10), _classes(y)),
        ]:  # fmt: skip
            model.fit(X, target)
            for features, bins in [(["a"], 20), (["a"], 10_000), (["a"], 1_000_000),
                                   (["a", "b"], 100), (["a", "b"], 800)]:  # fmt: skip
                peak, seconds = peak_of(
                    lambda: _hold_each(iter_accumulated_local_effects(
                        model, X, features, grid_resolution=bins))  # noqa: B023
                )  # fmt: skip
                estimate = effects_footprint.ale_peak_bytes(
                    bins, n_rows=n_rows, n_columns=8, n_axes=len(features),
                    n_outputs=len(getattr(model, "classes_", [])) or 1,
                    max_memory=MAX_MEMORY, x_bytes=x_bytes(X),
                )  # fmt: skip
                setting = f"{features} grid_resolution={bins}"
                row("ALE", name, n_rows, setting, peak, estimate, seconds)


def interaction_rows(rng):
    features = ["a", "b", "c"]  # and their 3 pairs
    for n_rows, X, y in tables(rng):
        for name, model, target in [
            ("ridge", Ridge(), y),
            ("tree (exact)", DecisionTreeRegressor(max_depth=6), y),
            ("hgb-clf (3 classes, tree shortcut)",
             HistGradientBoostingClassifier(max_iter=10), _classes(y)),
            ("knn (generic)", KNeighborsRegressor(), y),
        ]:  # fmt: skip
            model.fit(X, target)
            for n_samples in (300, 1500, None):
                n = n_rows if n_samples is None else min(n_samples, n_rows)
                if name.startswith(("knn", "hgb")) and n > 1500:
                    continue
                frames = []
                peak, seconds = peak_of(
                    lambda: frames.append(interaction_strength(  # noqa: B023
                        model, X, features, n_samples=n_samples,  # noqa: B023
                        random_state=0))
                )  # fmt: skip
                estimate = effects_footprint.interaction_peak_bytes(
                    n_samples, n_rows=n_rows,
                    n_outputs=len(getattr(model, "classes_", [])) or 1,
                    n_subsets=6, copy_row_bytes=8 * 8 + 32,
                    exact=frames[0].attrs["algorithm"] == "exact_tree",
                    max_memory=MAX_MEMORY, x_bytes=x_bytes(X),
                )  # fmt: skip
                row("H²", name, n_rows, f"n_samples={n_samples}", peak, estimate,
                    seconds)  # fmt: skip


if __name__ == "__main__":
    engines = sys.argv[1:] or ["permutation", "pd", "ale", "h2"]
    rng = np.random.default_rng(0)
    if "permutation" in engines:
        permutation_rows(rng)
    if "pd" in engines:
        partial_dependence_rows(rng)
    if "ale" in engines:
        ale_rows(rng)
    if "h2" in engines:
        interaction_rows(rng)
