"""ModelInspector: from its creation to the first importance bars, kernel side.

    python benchmarks/inspector_first_bars.py [--quick] [--runs N]
        [--model forest|lightgbm]

Issue 33's case: a random forest of 100 trees, 20,000 held-out rows x 20
features, 3 repeats (the inspector's held-out interval resamples them: 200
resamples up to 20,000 rows); with ``--model lightgbm``, issue 48's: an
LGBMClassifier of 200 trees (its default 31 leaves) on the same rows. Timed
from the call to the first non-empty chart of the Importance view, beside
`PermutationImportanceWidget` alone on the same inputs (the floor: the
inspector adds its header, the dummy and the other views) and scikit-learn's
`permutation_importance` of one repeat (what a first round costs it). The
held-out rows ride the Importance run's first walk, which gives the header
its scores too. Alternating order after a warm-up; never asserted. The
header's scores and the finished importances must equal scikit-learn's (else
exit 1).
"""

import statistics
import threading
import time

import _agreement
import _timing
import numpy as np
import sklearn
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.inspection import permutation_importance
from sklearn.metrics import get_scorer
from sklearn.model_selection import train_test_split

import inspectwidgets
from inspectwidgets import ModelInspector, PermutationImportanceWidget

N_ROWS, N_FEATURES, N_REPEATS = 20_000, 20, 3


def forest():
    X, y = make_classification(
        n_samples=2 * N_ROWS, n_features=N_FEATURES, n_informative=6, random_state=0
    )
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=N_ROWS, random_state=0
    )
    model = RandomForestClassifier(n_estimators=100, random_state=0, n_jobs=-1)
    return model.fit(X_train, y_train), X_test, y_test


def lightgbm():
    import lightgbm

    X, y = make_classification(
        n_samples=2 * N_ROWS, n_features=N_FEATURES, n_informative=6, random_state=0
    )
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=N_ROWS, random_state=0
    )
    model = lightgbm.LGBMClassifier(n_estimators=200, random_state=0, verbose=-1)
    return model.fit(X_train, y_train), X_test, y_test


MODELS = {"forest": forest, "lightgbm": lightgbm}


def first_bars(make):
    """Seconds from calling `make` to the Importance view's first chart; the
    widget, once its run is done."""
    drawn = threading.Event()
    started = time.perf_counter()
    widget = make()
    view = widget.views["importance"] if hasattr(widget, "views") else widget
    seen = {}

    def on_chart(change):
        if change["new"] and not drawn.is_set():
            seen["bars"] = time.perf_counter() - started
            drawn.set()

    view.observe(on_chart, "_chart")
    if view._chart and not drawn.is_set():  # drawn before we observed
        seen["bars"] = time.perf_counter() - started
        drawn.set()
    drawn.wait(300)
    view.wait(300)
    view.unobserve(on_chart, "_chart")
    return seen["bars"], widget


def main():
    def add_model(parser):
        parser.add_argument("--model", choices=sorted(MODELS), default="forest")

    args, runs = _timing.parse_runs(
        __doc__.splitlines()[0], "smoke test: 1 run", add_model
    )
    model, X, y = MODELS[args.model]()
    print(_timing.describe_environment([np, sklearn, inspectwidgets]))
    print(
        f"{type(model).__name__}, {N_ROWS:,} held-out rows x "
        f"{N_FEATURES} features, n_repeats={N_REPEATS}; median of {runs} run(s) "
        "after a warm-up, alternating order."
    )
    settings = dict(n_repeats=N_REPEATS, random_state=0)

    def inspector():
        return ModelInspector(model, X, y, **settings)

    def widget():
        return PermutationImportanceWidget(model, X, y, **settings)

    def sklearn_round():
        return permutation_importance(model, X, y, n_repeats=1, random_state=0)

    contenders = {"ModelInspector": inspector, "PermutationImportanceWidget": widget}
    times = {name: [] for name in [*contenders, "sklearn, one repeat"]}
    kept = {}
    for run in range(runs + 1):  # the first is the warm-up
        for name in _timing.rotated(list(contenders), run):
            seconds, made = first_bars(contenders[name])
            if run:
                times[name].append(seconds)
            kept.setdefault(name, made)
            if kept[name] is not made:
                made.close()
        started = time.perf_counter()
        sklearn_round()
        if run:
            times["sklearn, one repeat"].append(time.perf_counter() - started)

    agreement = _agreement.Agreement()
    review = kept["ModelInspector"]
    [score] = review._header["scores"]
    agreement.max_difference(
        "header accuracy", score["model"], get_scorer("accuracy")(model, X, y)
    )
    expected = permutation_importance(model, X, y, **settings)
    for name, made in kept.items():
        view = made.views["importance"] if hasattr(made, "views") else made
        agreement.max_difference(
            f"{name} importances",
            view.result.to_bunch("accuracy").importances,
            expected.importances,
        )
        made.close()
    rows = [[name, f"{statistics.median(ts):.3f}"] for name, ts in times.items()]
    print()
    print(_timing.format_table([("first bars", "<"), ("s", ">")], rows))
    agreement.exit_if_any()


if __name__ == "__main__":
    main()
