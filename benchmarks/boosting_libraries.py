"""The tree walk on other libraries' boosting models, against scikit-learn's
functions and our generic path on the same fitted model.

    python benchmarks/boosting_libraries.py [--quick] [--runs N] [--rows N]
        [--case TEXT]

LightGBM (its own functions below, ``lightgbm_*``): a 200-tree
LGBMRegressor and LGBMClassifier on 10,000 x 20 and a classifier on a table
with categories and NaN. Per case: median seconds of scikit-learn's
function (or, for H², of our generic path: scikit-learn has none; for ALE,
of our generic path too), of our generic path and of the walk, their ratios,
and whether the walk's numbers are scikit-learn's: bit for bit for
permutation importance and PD/ICE (a difference exits 1), to 1e-12 for H²
(the exact path sums the same terms in another order). The models predict
with ``n_jobs=1``, as the walk then takes one thread (it takes the model's
own). See README.md beside this file.

XGBoost (its own functions below, ``xgboost_*``; ``--case xgboost`` runs it
alone, ``--case "xgboost regressor"`` one model): a 200-tree XGBClassifier
on 10,000 x 20 (binary, NaN in one column), then an XGBRegressor alike (its
H² through the trees' structure, the exact path),
scikit-learn's ``permutation_importance`` (5 repeats) and
``partial_dependence`` (kind="both") against ours, and the exact H² against
our generic path, side by side (``_timing.time_side_by_side``: warm-up,
alternating order). Our permutation importances and partial dependences must
equal scikit-learn's bit for bit, the exact H² the generic path's within
float32 sums (tests/numerics.py); a difference exits 1.

CatBoost (``catboost_*``; ``--case catboost`` runs it alone): a 200-tree
CatBoostRegressor on 10,000 x 20 numeric columns (NaN in one) and a 200-tree
binary CatBoostClassifier ending a pipeline that one-hot encodes the
customers table's string columns; scikit-learn's ``permutation_importance``
(5 repeats, a named scorer) and ``partial_dependence`` (kind="both", one
1-way PD per feature) against ours under "auto", which must walk; the
results must equal scikit-learn's bit for bit (a difference exits 1).
"""

import functools
import os
import sys
import time
import warnings
from dataclasses import dataclass

import _agreement
import _timing
import lightgbm
import numpy as np
import sklearn
from _datasets import make_customers
from sklearn.datasets import make_classification, make_regression
from sklearn.inspection import partial_dependence as sklearn_partial_dependence
from sklearn.inspection import permutation_importance as sklearn_importance

import inspectwidgets
from inspectwidgets import (
    accumulated_local_effects,
    interaction_strength,
    partial_dependence,
    permutation_importance,
)

QUICK_ROWS = 1000
RANDOM_STATE = 0


# --- LightGBM: each builder returns (fitted model, X, y), n_rows to inspect ---


def _lightgbm_data(n_rows):
    """20 features, 10 informative, and an interaction x0 x1; the model is
    fitted on n_rows rows and inspected on n_rows others."""
    X, y = make_regression(
        n_samples=2 * n_rows, n_features=20, n_informative=10, noise=5,
        random_state=0,
    )  # fmt: skip
    return X, y + 30 * X[:, 0] * X[:, 1]


@functools.cache
def lightgbm_regressor(n_rows):
    """The issue's case: 200 trees (31 leaves), 10,000 x 20."""
    X, y = _lightgbm_data(n_rows)
    model = lightgbm.LGBMRegressor(n_estimators=200, verbose=-1, random_state=0)
    model.fit(X[:n_rows], y[:n_rows]).set_params(n_jobs=1)
    return model, X[n_rows:], y[n_rows:]


@functools.cache
def lightgbm_classifier(n_rows):
    """Binary, 200 trees: probabilities through the sigmoid."""
    X, y = _lightgbm_data(n_rows)
    y = (y > np.median(y)).astype(int)
    model = lightgbm.LGBMClassifier(n_estimators=200, verbose=-1, random_state=0)
    model.fit(X[:n_rows], y[:n_rows]).set_params(n_jobs=1)
    return model, X[n_rows:], y[n_rows:]


@functools.cache
def lightgbm_categorical(n_rows):
    """The house's customers table: pandas categories split natively, NaN."""
    X, y = make_customers(2 * n_rows, RANDOM_STATE, noise_columns=True)
    for column in ("region", "plan", "store"):
        X[column] = X[column].astype("category")
    rng = np.random.default_rng(RANDOM_STATE)
    for column in ("age", "income"):
        X.loc[rng.random(len(X)) < 0.05, column] = np.nan
    model = lightgbm.LGBMClassifier(n_estimators=200, verbose=-1, random_state=0)
    model.fit(X.iloc[:n_rows], y[:n_rows]).set_params(n_jobs=1)
    return model, X.iloc[n_rows:], y[n_rows:]


@dataclass(frozen=True)
class Case:
    name: str
    build: object
    kind: str  # "importance", "dependence", "interaction" or "ale"
    settings: tuple = ()
    target: str = ""

    def kwargs(self):
        return dict(self.settings)


PD_SETTINGS = (("features", (0,)), ("kind", "both"), ("grid_resolution", 50))
LIGHTGBM_CASES = [
    Case("LightGBM regressor 200 trees", lightgbm_regressor, "importance",
         (("n_repeats", 5),), ">= 8x"),
    Case("LightGBM classifier 200 trees", lightgbm_classifier, "importance",
         (("n_repeats", 5), ("scoring", "neg_log_loss")), ">= 8x"),
    Case("LightGBM categorical + NaN", lightgbm_categorical, "importance",
         (("n_repeats", 5),), ">= 8x"),
    Case("LightGBM regressor 200 trees", lightgbm_regressor, "dependence",
         PD_SETTINGS, ">= 20x"),
    Case("LightGBM classifier 200 trees", lightgbm_classifier, "dependence",
         PD_SETTINGS, ">= 20x"),
    Case("LightGBM categorical + NaN", lightgbm_categorical, "dependence",
         (("features", ("tenure",)), ("kind", "both"), ("grid_resolution", 50)),
         ">= 20x"),
    # 5 features against all others and their 10 pairs on 600 points, as
    # benchmarks/results/interaction.md: 5.4 million predictions generic.
    Case("LightGBM regressor 200 trees", lightgbm_regressor, "interaction",
         (("features", (0, 1, 2, 3, 4)), ("pairs", "all"), ("n_samples", 600)),
         ">= 20x"),
    Case("LightGBM classifier 200 trees", lightgbm_classifier, "ale",
         (("features", (0,)), ("grid_resolution", 20))),
]  # fmt: skip


def lightgbm_contenders(case, model, X, y):
    """Functions without arguments: the reference ("sklearn", or our generic
    path where scikit-learn has no such function), ours generic, ours walked."""
    kwargs = case.kwargs()
    if case.kind == "importance":
        kwargs["random_state"] = RANDOM_STATE

        def reference():
            return sklearn_importance(model, X, y, **kwargs)

        def ours(algorithm):
            return permutation_importance(model, X, y, algorithm=algorithm, **kwargs)

    elif case.kind == "dependence":
        features = list(kwargs.pop("features"))

        def reference():
            return sklearn_partial_dependence(model, X, features, **kwargs)

        def ours(algorithm):
            return partial_dependence(model, X, features, algorithm=algorithm, **kwargs)

    else:
        # H² and ALE: no scikit-learn function; "auto" walks (H² through the
        # trees' structure).
        function = accumulated_local_effects
        if case.kind == "interaction":
            function = interaction_strength
            kwargs["random_state"] = RANDOM_STATE
        features = list(kwargs.pop("features"))

        def ours(algorithm):
            return function(model, X, features, algorithm=algorithm, **kwargs)

        return {"generic": functools.partial(ours, "generic"),
                "walk": functools.partial(ours, "auto")}  # fmt: skip
    return {
        "sklearn": reference,
        "generic": functools.partial(ours, "generic"),
        "walk": functools.partial(ours, "tree"),
    }


def lightgbm_arrays(case, result):
    if case.kind == "importance":
        return {"importances": result.importances}
    if case.kind == "dependence":
        return {key: result[key] for key in ("average", "individual")}
    if case.kind == "interaction":
        return {"h_squared": result["h_squared"].to_numpy()}
    return {"local_effects": result.local_effects[0]}


def lightgbm_measure(case, n_rows, runs, agreement):
    model, X, y = case.build(n_rows)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # correlation warnings
        medians, results = _timing.time_side_by_side(
            lightgbm_contenders(case, model, X, y), runs
        )
    reference = "sklearn" if "sklearn" in medians else "generic"
    expected = lightgbm_arrays(case, results[reference])
    got = lightgbm_arrays(case, results["walk"])
    difference = max(
        agreement.max_difference(f"{case.name} {case.kind} {key}", got[key],
                                 expected[key])
        for key in expected
    )  # fmt: skip
    if case.kind in ("importance", "dependence"):
        # The walk promises LightGBM's predictions bit for bit.
        for key, values in got.items():
            agreement.require_identical(f"{case.name} {key}", values, expected[key])
    if case.kind == "interaction":
        path = results["walk"].attrs["algorithm"]
        if path != "exact_tree":
            agreement.mismatches.append(f"{case.name}: H² took {path}, not exact")
    return medians, reference, difference


def lightgbm_table(n_rows, runs, agreement, only=""):
    columns = [
        ("case", "<"), ("job", "<"), ("rows", ">"), ("reference", "<"),
        ("reference s", ">"), ("generic s", ">"), ("walk s", ">"),
        ("speed-up", ">"), ("target", "<"), ("max |diff|", ">"),
    ]  # fmt: skip
    rows = []
    for case in LIGHTGBM_CASES:
        if only.lower() not in f"{case.name} {case.kind}".lower():
            continue
        medians, reference, difference = lightgbm_measure(case, n_rows, runs, agreement)
        settings = ", ".join(f"{k}={v}" for k, v in case.settings)
        rows.append(
            [
                case.name, f"{case.kind} ({settings})", f"{n_rows:,}", reference,
                f"{medians[reference]:.2f}", f"{medians['generic']:.2f}",
                f"{medians['walk']:.2f}",
                f"{medians[reference] / medians['walk']:.1f}x", case.target,
                f"{difference:.1e}",
            ]
        )  # fmt: skip
        print(f"  measured: {case.name}, {case.kind}", file=sys.stderr)
    return _timing.format_table(columns, rows)


# --- XGBoost: its own section (a 200-tree XGBClassifier) ---


def xgboost_case(n_rows, n_trees=200, n_features=20, regressor=False):
    """A fitted XGBClassifier (or, with `regressor`, an XGBRegressor, whose
    H² goes through the trees' structure) and the rows it is inspected on
    (NaN in one column: its trees learn where missing values go)."""
    import xgboost

    make = make_regression if regressor else make_classification
    X, y = make(
        n_samples=2 * n_rows, n_features=n_features, n_informative=10,
        random_state=RANDOM_STATE,
    )  # fmt: skip
    X[np.random.RandomState(RANDOM_STATE).rand(len(X)) < 0.1, 0] = np.nan
    kind = xgboost.XGBRegressor if regressor else xgboost.XGBClassifier
    model = kind(n_estimators=n_trees, max_depth=6, random_state=RANDOM_STATE)
    model.fit(X[:n_rows], y[:n_rows])
    return model, X[n_rows:], y[n_rows:]


def xgboost_contenders(model, X, y, agreement):
    """``{case: (contenders, check)}``: each case's two contenders and the
    check of their results."""
    importance = dict(n_repeats=5, random_state=RANDOM_STATE)
    features = [1, 2, 3]
    dependence = dict(method="brute", kind="both", grid_resolution=50)
    h2 = dict(features=[1, 2, 3, 4], pairs="all", n_samples=300,
              random_state=RANDOM_STATE)  # fmt: skip

    def check_importance(results):
        ours, theirs = results["ours"], results["sklearn"]
        agreement.require_identical("permutation", ours.importances, theirs.importances)

    def check_dependence(results):
        for ours, theirs in zip(results["ours"], results["sklearn"], strict=True):
            for key in ("average", "individual"):
                agreement.require_identical(f"PD {key}", ours[key], theirs[key])

    def check_h2(results):
        exact, generic = results["ours"], results["generic"]
        a, b = exact["h_squared"].to_numpy(), generic["h_squared"].to_numpy()
        # A classifier's H² averages probabilities: its copies are walked
        # ("tree"); a regressor's goes through the trees' structure.
        if exact.attrs["algorithm"] not in ("tree", "exact_tree") or not np.allclose(
            a, b, rtol=1e-5, atol=1e-5
        ):
            agreement.mismatches.append(
                f"H²: {exact.attrs['algorithm']}, max diff {np.abs(a - b).max():.1e}"
            )

    return {
        "permutation importance (5 repeats)": (
            {
                "sklearn": lambda: sklearn_importance(model, X, y, **importance),
                "ours": lambda: permutation_importance(model, X, y, **importance),
            },
            check_importance,
        ),
        "PD + ICE (3 features, 50 points)": (
            {
                # One 1-way PD per feature (a list of three is one 3-way PD).
                "sklearn": lambda: [
                    sklearn_partial_dependence(model, X, [f], **dependence)
                    for f in features
                ],
                "ours": lambda: [
                    partial_dependence(model, X, [f], **dependence) for f in features
                ],
            },
            check_dependence,
        ),
        "exact H² (4 features, 300 rows; vs our generic path)": (
            {
                "generic": lambda: interaction_strength(
                    model, X, algorithm="generic", **h2
                ),
                "ours": lambda: interaction_strength(model, X, **h2),
            },
            check_h2,
        ),
    }


def run_xgboost(rows, runs, only=""):
    agreement = _agreement.Agreement()
    for regressor in (False, True):
        name = "XGBRegressor" if regressor else "XGBClassifier"
        if only and only not in name.lower():
            continue
        model, X, y = xgboost_case(rows, regressor=regressor)
        print(f"XGBoost: {name}, 200 trees of depth 6, {rows:,} x 20, {runs} runs")
        print(f"{'case':55} {'theirs s':>9} {'ours s':>8} {'ratio':>7}")
        cases = xgboost_contenders(model, X, y, agreement)
        for case, (contenders, check) in cases.items():
            seconds, results = _timing.time_side_by_side(contenders, runs)
            check(results)
            theirs = seconds.get("sklearn", seconds.get("generic"))
            print(
                f"{case:55} {theirs:9.2f} {seconds['ours']:8.2f} "
                f"{theirs / seconds['ours']:6.1f}x"
            )
    return agreement


# --- CatBoost: its own section (200 oblivious trees, numeric and one-hot) ---


def catboost_numeric(n_rows):
    """A 200-tree CatBoostRegressor (depth 6, CatBoost's default) on
    10,000 x 20 numeric columns, NaN in one, inspected on 10,000 other rows."""
    import catboost

    X, y = _lightgbm_data(n_rows)
    X[np.random.RandomState(RANDOM_STATE).rand(len(X)) < 0.1, 0] = np.nan
    model = catboost.CatBoostRegressor(
        iterations=200, random_seed=RANDOM_STATE, verbose=0, allow_writing_files=False
    ).fit(X[:n_rows], y[:n_rows])
    return model, X[n_rows:], y[n_rows:]


def catboost_one_hot(n_rows):
    """The house's customers table, its string columns one-hot encoded by a
    ColumnTransformer, into a 200-tree binary CatBoostClassifier."""
    import catboost
    from sklearn.compose import make_column_transformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    X, y = make_customers(2 * n_rows, RANDOM_STATE, noise_columns=True)
    encode = make_column_transformer(
        (OneHotEncoder(sparse_output=False), ["region", "plan", "store"]),
        remainder="passthrough",
    )
    model = make_pipeline(
        encode,
        catboost.CatBoostClassifier(iterations=200, random_seed=RANDOM_STATE,
                                    verbose=0, allow_writing_files=False),
    ).fit(X.iloc[:n_rows], y[:n_rows])  # fmt: skip
    return model, X.iloc[n_rows:], y[n_rows:]


def catboost_contenders(model, X, y, features, scoring, agreement):
    """``{case: (contenders, check)}`` as :func:`xgboost_contenders`: ours
    under "auto" (which must take the walk) against scikit-learn's."""
    importance = dict(n_repeats=5, random_state=RANDOM_STATE, scoring=scoring)
    dependence = dict(method="brute", kind="both", grid_resolution=50)

    def check_importance(results):
        ours, theirs = results["ours"], results["sklearn"]
        if ours.algorithm != "tree":
            agreement.mismatches.append(f"importance took {ours.algorithm}")
        agreement.require_identical(
            "permutation", ours.importances(), theirs.importances
        )

    def check_dependence(results):
        for ours, theirs in zip(results["ours"], results["sklearn"], strict=True):
            if ours.algorithm != "tree":
                agreement.mismatches.append(f"PD took {ours.algorithm}")
            for key in ("average", "individual"):
                agreement.require_identical(
                    f"PD {key}", getattr(ours, key), theirs[key]
                )

    return {
        f"permutation importance (5 repeats, {scoring})": (
            {
                "sklearn": lambda: sklearn_importance(model, X, y, **importance),
                "ours": lambda: permutation_importance(
                    model, X, y, return_result=True, **importance
                ),
            },
            check_importance,
        ),
        f"PD + ICE ({len(features)} features, 50 points)": (
            {
                "sklearn": lambda: [
                    sklearn_partial_dependence(model, X, [f], **dependence)
                    for f in features
                ],
                "ours": lambda: [
                    partial_dependence(model, X, [f], return_result=True, **dependence)
                    for f in features
                ],
            },
            check_dependence,
        ),
    }


def run_catboost(rows, runs):
    """The two CatBoost models' rows, each with a named scorer (the default,
    CatBoost's own score, is replayed too: docs/other_libraries.md)."""
    agreement = _agreement.Agreement()
    cases = [
        ("CatBoostRegressor, 200 trees, 20 numeric", catboost_numeric, [1, 2, 3],
         "r2"),
        ("CatBoostClassifier, 200 trees, one-hot pipeline", catboost_one_hot,
         ["income", "tenure", "region"], "neg_log_loss"),
    ]  # fmt: skip
    print(f"CatBoost: {rows:,} rows, {runs} runs")
    print(f"{'case':52} {'job':42} {'theirs s':>9} {'ours s':>8} {'ratio':>7}")
    for name, build, features, scoring in cases:
        model, X, y = build(rows)
        contenders = catboost_contenders(model, X, y, features, scoring, agreement)
        for job, (timed, check) in contenders.items():
            print(f"  load {os.getloadavg()[0]:.1f}", file=sys.stderr)
            seconds, results = _timing.time_side_by_side(timed, runs)
            check(results)
            theirs = seconds["sklearn"]
            print(
                f"{name:52} {job:42} {theirs:9.2f} {seconds['ours']:8.2f} "
                f"{theirs / seconds['ours']:6.1f}x"
            )
    return agreement


def main():
    def add_rows(parser):
        parser.add_argument(
            "--rows", type=int, default=10_000, help="rows inspected (default: 10,000)"
        )
        parser.add_argument(
            "--case",
            default="",
            help="only the cases whose name or job (importance, dependence, "
            "interaction, ale) hold this",
        )

    args, runs = _timing.parse_runs(
        __doc__.splitlines()[0],
        f"smoke test: 1 run, {QUICK_ROWS:,} rows, 1 BLAS/OpenMP thread",
        add_rows,
    )
    _timing.restart_single_threaded_if_quick(args.quick)
    n_rows = QUICK_ROWS if args.quick else args.rows
    agreement = _agreement.Agreement()
    print(_timing.describe_environment([np, sklearn, lightgbm, inspectwidgets]))
    print(_timing.describe_method(runs, args.quick, "reference, generic and walk"))
    print()
    started = time.perf_counter()
    case = args.case.lower()
    if "xgboost" not in case and "catboost" not in case:
        print("LightGBM")
        print(lightgbm_table(n_rows, runs, agreement, args.case))
    if not case or "xgboost" in case:
        print()
        print(f"load {os.getloadavg()[0]:.1f}")
        kind = next((k for k in ("regressor", "classifier") if k in case), "")
        agreement.mismatches.extend(run_xgboost(n_rows, runs, kind).mismatches)
    if not case or "catboost" in case:
        print()
        print(f"load {os.getloadavg()[0]:.1f}")
        agreement.mismatches.extend(run_catboost(n_rows, runs).mismatches)
    print(f"(total {time.perf_counter() - started:.0f} s)")
    agreement.exit_if_any()


if __name__ == "__main__":
    main()
