"""ModelInspector of two models: its held-out Importance view against the
engine's run and against two single-model widgets, kernel side.

    python benchmarks/inspector_models.py [--quick] [--runs N]

Issue 34's case: histogram gradient boosting and a random forest of 100
trees (fitted on 5,000 rows) on 20,000 held-out rows x 20 features, 5
repeats. Timed from the call to the Importance view's first dots and to its
end, beside `compare_permutation_importance` of both (the floor: the view
streams one such run) and two `PermutationImportanceWidget`s run one after
the other (the sum of two single-model runs; first bars of the first).
Alternating order after a warm-up; never asserted. Each model's importances
in the inspector must equal its own widget's bit for bit (both through the
tree walk), else exit 1. Measurements in results/inspector.md.
"""

import statistics
import threading
import time

import _agreement
import _timing
import numpy as np
import sklearn
from sklearn.datasets import make_regression
from sklearn.ensemble import HistGradientBoostingRegressor, RandomForestRegressor

import inspectwidgets
from inspectwidgets import (
    ModelInspector,
    PermutationImportanceWidget,
    compare_permutation_importance,
)

N_ROWS, N_FEATURES, N_REPEATS = 20_000, 20, 5
SETTINGS = dict(n_repeats=N_REPEATS, random_state=0)


def fitted():
    X, y = make_regression(
        n_samples=5000 + N_ROWS, n_features=N_FEATURES, n_informative=10,
        noise=10, random_state=0,
    )  # fmt: skip
    models = {
        "boosting": HistGradientBoostingRegressor(random_state=0),
        "forest": RandomForestRegressor(100, random_state=0, n_jobs=1),
    }
    for model in models.values():
        model.fit(X[:5000], y[:5000])
    return models, X[5000:], y[5000:]


def timed(view, trait, started):
    """Seconds from `started` to `view`'s first non-empty `trait`, and to
    the end of its run."""
    drawn, seen = threading.Event(), {}

    def on_change(change):
        if change["new"] and not drawn.is_set():
            seen["first"] = time.perf_counter() - started
            drawn.set()

    view.observe(on_change, trait)
    if getattr(view, trait) and not drawn.is_set():
        seen["first"] = time.perf_counter() - started
        drawn.set()
    drawn.wait(600)
    view.wait(600)
    view.unobserve(on_change, trait)
    return seen["first"], time.perf_counter() - started


def main():
    _, runs = _timing.parse_runs(__doc__.splitlines()[0], "smoke test: 1 run")
    models, X, y = fitted()
    print(_timing.describe_environment([np, sklearn, inspectwidgets]))
    print(
        f"HistGradientBoostingRegressor + RandomForestRegressor(100 trees), "
        f"{N_ROWS:,} held-out rows x {N_FEATURES} features, n_repeats="
        f"{N_REPEATS}; median of {runs} run(s) after a warm-up, alternating order."
    )
    kept = {}

    def inspector():
        started = time.perf_counter()
        made = ModelInspector(models, X, y, **SETTINGS)
        first, done = timed(made.views["importance"], "_models_chart", started)
        kept.setdefault("inspector", made)
        return first, done

    def widgets():
        started, first = time.perf_counter(), None
        for name, model in models.items():
            made = PermutationImportanceWidget(model, X, y, **SETTINGS)
            bars, _ = timed(made, "_chart", started)
            first = bars if first is None else first
            kept.setdefault(name, made)
        return first, time.perf_counter() - started

    def engine():
        started = time.perf_counter()
        compare_permutation_importance(models, X, y, **SETTINGS)
        return float("nan"), time.perf_counter() - started

    contenders = {
        "ModelInspector, two models": inspector,
        "two PermutationImportanceWidgets": widgets,
        "compare_permutation_importance": engine,
    }
    times = {name: ([], []) for name in contenders}
    for run in range(runs + 1):  # the first is the warm-up
        for name in _timing.rotated(list(contenders), run):
            first, done = contenders[name]()
            if run:
                times[name][0].append(first)
                times[name][1].append(done)

    agreement = _agreement.Agreement()
    result = kept["inspector"].views["importance"].result
    for name in models:
        agreement.require_identical(
            f"{name} importances",
            result.importances(name),
            kept[name].result.importances(),
        )
    for made in kept.values():
        made.close()
    rows = [
        [name, f"{statistics.median(first):.3f}", f"{statistics.median(done):.3f}"]
        for name, (first, done) in times.items()
    ]
    print()
    print(
        _timing.format_table(
            [("", "<"), ("first marks, s", ">"), ("done, s", ">")], rows
        )
    )
    agreement.exit_if_any()


if __name__ == "__main__":
    main()
