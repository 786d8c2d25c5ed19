"""The tree shortcut against scikit-learn and our generic path, side by side.

    python benchmarks/trees.py [--quick] [--runs N] [--rows N] [--case TEXT]
    python benchmarks/trees.py --case detour [--quick] [--runs N] [--rows N]

Per case: median seconds of scikit-learn, our generic path
(``algorithm="generic"``: stacked copies, predicted) and the tree shortcut
(``algorithm="tree"``, compiled walk already loaded), their ratios, and how far
each is from scikit-learn (the shortcut must be exact: a difference exits 1).
Then the cold cost: the first call in a new process, with the compiled walk
loaded from numba's cache, and with an empty cache (it compiles). See
README.md beside this file.

``--case detour`` re-checks ``DETOUR_COST``, the constant behind
``algorithm="auto"``'s choice between the walk and the generic path for
permutation importance: on forests whose detour share spans the break-even,
it times both paths and says whether the rule picks the faster one
(benchmarks/results/trees.md holds the measurements it was tuned on).
"""

import functools
import os
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass

import _agreement
import _timing
import numpy as np
import sklearn
from _datasets import make_customers
from sklearn.compose import ColumnTransformer
from sklearn.datasets import make_classification, make_regression
from sklearn.ensemble import (
    ExtraTreesRegressor,
    GradientBoostingClassifier,
    HistGradientBoostingClassifier,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.inspection import partial_dependence as sklearn_partial_dependence
from sklearn.inspection import permutation_importance as sklearn_importance
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

import inspectwidgets
from inspectwidgets import partial_dependence, permutation_importance
from inspectwidgets.inspection._shortcuts.trees import (
    DETOUR_COST,
    detour_share,
    predicts_faster,
)

QUICK_ROWS = 1000
RANDOM_STATE = 0


# --- models: each builder returns (fitted model, X, y) to inspect, n_rows of them ---


@functools.cache
def forest_classifier(n_rows):
    """The issue's case: 30 features, 100 trees, min_samples_leaf=5."""
    X, y = make_classification(
        n_samples=3 * n_rows, n_features=30, n_informative=10, random_state=0
    )
    forest = RandomForestClassifier(
        n_estimators=100, min_samples_leaf=5, random_state=0, n_jobs=-1
    )
    forest.fit(X[: 2 * n_rows], y[: 2 * n_rows]).set_params(n_jobs=None)
    return forest, X[2 * n_rows :], y[2 * n_rows :]


@functools.cache
def extra_trees_regressor(n_rows):
    X, y = make_regression(
        n_samples=2 * n_rows, n_features=20, n_informative=8, noise=5, random_state=0
    )
    model = ExtraTreesRegressor(
        n_estimators=50, min_samples_leaf=3, random_state=0, n_jobs=-1
    )
    model.fit(X[:n_rows], y[:n_rows]).set_params(n_jobs=None)
    return model, X[n_rows:], y[n_rows:]


@functools.cache
def one_hot_forest(n_rows):
    """A frame with string columns, one-hot encoded, into a forest."""
    X, y = make_customers(2 * n_rows, RANDOM_STATE, noise_columns=True)
    strings = ["region", "plan", "store"]
    pipe = make_pipeline(
        ColumnTransformer(
            [("onehot", OneHotEncoder(sparse_output=False), strings)],
            remainder="passthrough",
        ),
        RandomForestRegressor(n_estimators=50, min_samples_leaf=5, random_state=0),
    )
    pipe.fit(X.iloc[:n_rows], y[:n_rows])
    return pipe, X.iloc[n_rows:], y[n_rows:]


@functools.cache
def hist_gradient_boosting(n_rows):
    """The issue's HistGB case: 30 features, scikit-learn's defaults."""
    X, y = make_classification(
        n_samples=3 * n_rows, n_features=30, n_informative=10, random_state=0
    )
    model = HistGradientBoostingClassifier(random_state=0)
    model.fit(X[: 2 * n_rows], y[: 2 * n_rows])
    return model, X[2 * n_rows :], y[2 * n_rows :]


@functools.cache
def gradient_boosting_3_classes(n_rows):
    """Three classes: three trees a stage, softmax probabilities."""
    X, y = make_classification(
        n_samples=2 * n_rows,
        n_features=20,
        n_informative=8,
        n_classes=3,
        random_state=0,
    )
    model = GradientBoostingClassifier(n_estimators=50, random_state=0)
    model.fit(X[:n_rows], y[:n_rows])
    return model, X[n_rows:], y[n_rows:]


@functools.cache
def categorical_hist_gradient_boosting(n_rows):
    """Native categorical splits (pandas categories) and missing values."""
    X, y = make_customers(2 * n_rows, RANDOM_STATE, noise_columns=True)
    for column in ("region", "plan", "store"):
        X[column] = X[column].astype("category")
    rng = np.random.default_rng(RANDOM_STATE)
    for column in ("age", "income"):
        X.loc[rng.random(len(X)) < 0.05, column] = np.nan
    model = HistGradientBoostingClassifier(
        categorical_features="from_dtype", random_state=0
    )
    model.fit(X.iloc[:n_rows], y[:n_rows])
    return model, X.iloc[n_rows:], y[n_rows:]


@dataclass(frozen=True)
class Case:
    name: str
    build: object
    kind: str  # "importance" or "dependence"
    settings: tuple = ()

    def kwargs(self):
        return dict(self.settings)


CASES = [
    Case(
        "RF classifier 100 trees", forest_classifier, "importance", (("n_repeats", 5),)
    ),
    Case(
        "RF classifier 100 trees", forest_classifier, "importance", (("n_repeats", 30),)
    ),
    Case(
        "ExtraTrees regressor", extra_trees_regressor, "importance", (("n_repeats", 5),)
    ),
    Case("one-hot + RF regressor", one_hot_forest, "importance", (("n_repeats", 5),)),
    Case(
        "HistGB classifier", hist_gradient_boosting, "importance", (("n_repeats", 5),)
    ),
    Case(
        "GB classifier 3 classes",
        gradient_boosting_3_classes,
        "importance",
        (("n_repeats", 5),),
    ),
    Case(
        "HistGB categorical + NaN",
        categorical_hist_gradient_boosting,
        "importance",
        (("n_repeats", 5),),
    ),
    Case(
        "RF classifier 100 trees",
        forest_classifier,
        "dependence",
        (("features", (0,)), ("kind", "both"), ("grid_resolution", 50)),
    ),
    Case(
        "ExtraTrees regressor",
        extra_trees_regressor,
        "dependence",
        (("features", (0,)), ("kind", "both"), ("grid_resolution", 100)),
    ),
    Case(
        "HistGB classifier",
        hist_gradient_boosting,
        "dependence",
        (("features", (0,)), ("kind", "both"), ("grid_resolution", 50)),
    ),
    Case(
        "GB classifier 3 classes",
        gradient_boosting_3_classes,
        "dependence",
        (("features", (0,)), ("kind", "both"), ("grid_resolution", 50)),
    ),
]


def contenders(case, model, X, y):
    """Functions without arguments: scikit-learn's, ours generic, ours tree."""
    kwargs = case.kwargs()
    if case.kind == "importance":
        kwargs["random_state"] = RANDOM_STATE

        def sklearn_call():
            return sklearn_importance(model, X, y, **kwargs)

        def ours(algorithm):
            return permutation_importance(model, X, y, algorithm=algorithm, **kwargs)

    else:
        features = list(kwargs.pop("features"))

        def sklearn_call():
            return sklearn_partial_dependence(
                model, X, features, method="brute", **kwargs
            )

        def ours(algorithm):
            return partial_dependence(
                model, X, features, method="brute", algorithm=algorithm, **kwargs
            )

    return {
        "sklearn": sklearn_call,
        "generic": functools.partial(ours, "generic"),
        "tree": functools.partial(ours, "tree"),
    }


def compared_arrays(case, result):
    if case.kind == "importance":
        return {"importances": result.importances}
    return {key: result[key] for key in ("average", "individual")}


def measure(case, n_rows, runs, agreement):
    model, X, y = case.build(n_rows)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # correlation warnings
        medians, results = _timing.time_side_by_side(
            contenders(case, model, X, y), runs
        )
    expected = compared_arrays(case, results["sklearn"])
    differences = {}
    for name in ("generic", "tree"):
        got = compared_arrays(case, results[name])
        differences[name] = max(
            agreement.max_difference(
                f"{case.name} {case.kind} {name} {key}", got[key], expected[key]
            )
            for key in expected
        )
    # The shortcut promises bit for bit, not only the tolerance.
    for key, values in compared_arrays(case, results["tree"]).items():
        agreement.require_identical(f"{case.name} tree {key}", values, expected[key])
    return medians, differences


def timing_table(n_rows, runs, agreement, only=""):
    columns = [
        ("case", "<"),
        ("job", "<"),
        ("rows", ">"),
        ("sklearn s", ">"),
        ("generic s", ">"),
        ("tree s", ">"),
        ("generic/sklearn", ">"),
        ("tree/sklearn", ">"),
        ("tree max |diff|", ">"),
    ]
    rows = []
    for case in CASES:
        if only.lower() not in f"{case.name} {case.kind}".lower():
            continue
        medians, differences = measure(case, n_rows, runs, agreement)
        settings = ", ".join(f"{k}={v}" for k, v in case.settings)
        rows.append(
            [
                case.name,
                f"{case.kind} ({settings})",
                f"{n_rows:,}",
                f"{medians['sklearn']:.2f}",
                f"{medians['generic']:.2f}",
                f"{medians['tree']:.2f}",
                f"{medians['generic'] / medians['sklearn']:.3f}",
                f"{medians['tree'] / medians['sklearn']:.3f}",
                f"{differences['tree']:.1e}",
            ]
        )
        print(f"  measured: {case.name}, {case.kind}", file=sys.stderr)
    return _timing.format_table(columns, rows)


# Forests from few features split on near the root (a high detour share: the
# generic path should win) to many features (a low one: the walk should).
DETOUR_FORESTS = ((2, None), (4, None), (8, None), (30, "sqrt"))
DETOUR_REPEATS = 5


def detour_forest(n_rows, n_features, max_features):
    X, y = make_regression(
        n_samples=2 * n_rows,
        n_features=n_features,
        n_informative=n_features,
        noise=5,
        random_state=0,
    )
    model = RandomForestRegressor(
        n_estimators=50, max_features=max_features, random_state=0, n_jobs=-1
    )
    model.fit(X[:n_rows], y[:n_rows]).set_params(n_jobs=None)
    return model, X[n_rows:], y[n_rows:]


def detour_table(n_rows, runs):
    """Per forest: its detour share, the rule's cost term, the walk's time
    over the generic path's, what the rule picks and whether that was the
    faster path; and the cost per detour node the timing implies (the
    ratio over the share term: DETOUR_COST should lie among them)."""
    columns = [
        ("features", ">"),
        ("detour share", ">"),
        ("share + 1/(repeats x features)", ">"),
        ("tree s", ">"),
        ("generic s", ">"),
        ("tree/generic", ">"),
        ("implied cost", ">"),
        ("rule picks", "<"),
        ("faster", "<"),
        ("holds", "<"),
    ]
    rows, holds = [], True
    for n_features, max_features in DETOUR_FORESTS:
        model, X, y = detour_forest(n_rows, n_features, max_features)
        groups = [(j,) for j in range(n_features)]
        # The trees predicts_faster estimates on.
        sample = model.estimators_[:: max(1, len(model.estimators_) // 16)]
        share = detour_share([e.tree_ for e in sample], groups)
        term = share + 1 / (DETOUR_REPEATS * n_features)
        picks_generic = predicts_faster(model, "auto", groups, DETOUR_REPEATS)

        def timed(algorithm, model=model, X=X, y=y):
            return permutation_importance(
                model, X, y, n_repeats=DETOUR_REPEATS, random_state=RANDOM_STATE,
                algorithm=algorithm,
            )  # fmt: skip

        medians, _ = _timing.time_side_by_side(
            {name: functools.partial(timed, name) for name in ("tree", "generic")},
            runs,
        )
        ratio = medians["tree"] / medians["generic"]
        picked = "generic" if picks_generic else "tree"
        faster = "tree" if ratio < 1 else "generic"
        holds = holds and picked == faster
        rows.append(
            [
                str(n_features),
                f"{share:.2f}",
                f"{term:.2f}",
                f"{medians['tree']:.2f}",
                f"{medians['generic']:.2f}",
                f"{ratio:.2f}",
                f"{ratio / term:.2f}",
                picked,
                faster,
                "yes" if picked == faster else "NO",
            ]
        )
        print(f"  measured: detour, {n_features} features", file=sys.stderr)
    verdict = f"DETOUR_COST = {DETOUR_COST}: the rule picks the faster path " + (
        "in every case." if holds else "NOT in every case: re-tune it."
    )
    return _timing.format_table(columns, rows) + "\n\n" + verdict


COLD_SCRIPT = """
import time
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
X, y = make_classification(n_samples=300, n_features=8, random_state=0)
forest = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
started = time.perf_counter()
from inspectwidgets import partial_dependence, permutation_importance
permutation_importance(forest, X, y, n_repeats=2, random_state=0, algorithm="tree")
partial_dependence(forest, X, [0], method="brute", algorithm="tree")
print(time.perf_counter() - started)
"""


def cold_seconds(cache_dir):
    """Seconds of the first shortcut calls (importance and dependence, small
    data) in a new process whose numba cache is `cache_dir`."""
    environment = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    output = subprocess.run(
        [sys.executable, "-c", COLD_SCRIPT],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return float(output.strip().splitlines()[-1])


def cold_lines():
    with tempfile.TemporaryDirectory() as cache_dir:
        compiling = cold_seconds(cache_dir)  # empty cache: compiles and saves
        cached = cold_seconds(cache_dir)
    return (
        "First shortcut calls in a new process (small data): "
        f"{compiling:.1f} s with an empty numba cache (compiling), "
        f"{cached:.1f} s with the cache."
    )


def main():
    def add_rows(parser):
        parser.add_argument(
            "--rows", type=int, default=10_000, help="rows inspected (default: 10,000)"
        )
        parser.add_argument(
            "--case",
            default="",
            help="only the cases whose name or job (importance, dependence) hold "
            "this; 'detour': re-check DETOUR_COST instead",
        )

    args, runs = _timing.parse_runs(
        __doc__.splitlines()[0],
        f"smoke test: 1 run, {QUICK_ROWS:,} rows, 1 BLAS/OpenMP thread",
        add_rows,
    )
    _timing.restart_single_threaded_if_quick(args.quick)
    n_rows = QUICK_ROWS if args.quick else args.rows
    agreement = _agreement.Agreement()
    print(_timing.describe_environment([np, sklearn, inspectwidgets]))
    print(_timing.describe_method(runs, args.quick, "sklearn, generic and tree"))
    print()
    started = time.perf_counter()
    if args.case == "detour":
        print(detour_table(n_rows, runs))
        print(f"(total {time.perf_counter() - started:.0f} s)")
        return
    print(timing_table(n_rows, runs, agreement, args.case))
    print()
    print(cold_lines())
    print(f"(total {time.perf_counter() - started:.0f} s)")
    agreement.exit_if_any()


if __name__ == "__main__":
    main()
