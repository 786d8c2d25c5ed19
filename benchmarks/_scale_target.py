"""The issue's target on 1,000,000 x 50: permutation importance with
``max_samples=100_000`` and partial dependence on a 10,000-row seeded
subsample, by the engine and by the widgets (time to the first update, the
first result the front end would draw), with peak extra memory against
``max_memory`` + 10 %. Run by ``python benchmarks/scale.py --target``."""

import sys
import time

import _timing
from scale import fitted
from sklearn.datasets import make_regression

from inspectwidgets import (
    PartialDependenceWidget,
    PermutationImportanceWidget,
    partial_dependence,
    permutation_importance,
)
from inspectwidgets.inspection._core.chunks import DEFAULT_MAX_MEMORY
from inspectwidgets.widgets._workload import DEFAULT_MAX_ROWS, seeded_rows

MIB = 2**20
N_FEATURES = 50
PI_SAMPLES = 100_000
N_REPEATS = 5
PD_GRID = 50  # the PD widget's default grid_resolution
N_ICE = 100  # and n_ice


def widget_call(make, trait):
    """A function that creates a widget and returns seconds to its first
    time left (the baseline's, on a big X, else the first chunk's), to its
    first result (the first `trait` the chart draws) and to done; the
    creation is timed, as a user waits for it."""

    def call():
        seen = {}
        started = time.perf_counter()

        def first(key, shown=bool):
            def note(change):
                if shown(change["new"]) and key not in seen:
                    seen[key] = time.perf_counter() - started

            return note

        widget = make(run=False)
        widget.observe(first("result"), trait)
        widget.observe(first("time left", lambda eta: eta >= 0), "_eta_seconds")
        widget.run()
        status = widget.wait(timeout=3600)
        done = time.perf_counter() - started
        widget.close()
        if status != "done":
            sys.exit(f"{type(widget).__name__} ended {status!r}: {widget.error}")
        return seen["time left"], seen["result"], done

    return call


def cases(kind, X, y, random_state):
    model = fitted(kind, N_FEATURES, n_informative=10)
    rows = seeded_rows(len(X), DEFAULT_MAX_ROWS, random_state)
    pd_kwargs = dict(kind="both", grid_resolution=PD_GRID, n_ice=N_ICE)
    pi_kwargs = dict(
        n_repeats=N_REPEATS, max_samples=PI_SAMPLES, random_state=random_state
    )
    return {
        f"PI {kind} engine": lambda: permutation_importance(model, X, y, **pi_kwargs),
        f"PI {kind} widget": widget_call(
            lambda run: PermutationImportanceWidget(model, X, y, run=run, **pi_kwargs),
            "_chart",
        ),
        f"PD {kind} engine": lambda: partial_dependence(
            model,
            X[rows],
            [0],
            method="brute",
            random_state=random_state,
            **pd_kwargs,
        ),  # fmt: skip
        f"PD {kind} widget": widget_call(
            lambda run: PartialDependenceWidget(
                model,
                X,
                features=[0],
                random_state=random_state,
                run=run,
                **pd_kwargs,
            ),  # fmt: skip
            "_curve",
        ),
    }


def target_table(n_rows, kinds, random_state=0):
    X, y = make_regression(
        n_rows, N_FEATURES, n_informative=10, noise=5, random_state=random_state
    )
    out = []
    budget = DEFAULT_MAX_MEMORY / MIB
    for kind in kinds:
        for label, call in cases(kind, X, y, random_state).items():
            call()  # warm-up: imports, the tree walk's compilation
            started = time.perf_counter()
            timing = call()
            seconds = time.perf_counter() - started
            time_left, result = timing[:2] if isinstance(timing, tuple) else ("", "")
            traced = _timing.peak_memory(call) / MIB
            rss = _timing.peak_rss(call) / MIB
            out.append(
                [
                    label,
                    f"{seconds:.2f}",
                    time_left and f"{time_left:.2f}",
                    result and f"{result:.2f}",
                    f"{traced:.0f}",
                    f"{rss:.0f}",
                    "yes" if max(traced, rss) <= 1.1 * budget else "no",
                ]
            )
    return _timing.format_table(
        [
            ("case", "<"),
            ("seconds", ">"),
            ("first time left s", ">"),
            ("first result s", ">"),
            ("peak MiB (traced)", ">"),
            ("peak MiB (RSS)", ">"),
            (f"<= {1.1 * budget:.0f} MiB", ">"),
        ],
        out,
    )
