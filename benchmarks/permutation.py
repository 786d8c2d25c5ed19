"""inspectwidgets.permutation_importance against scikit-learn's, side by side.

    python benchmarks/permutation.py [--quick] [--runs N]

Prints, per case, median seconds of scikit-learn, ours and the predict floor
(the model predicting every permuted row in one call), their ratios and how
far our importances are from scikit-learn's; then the peak memory of one case;
then whether the tree walk's smallest chunk still pays (`_FEWEST_WALKED`).
Exits with status 1, after the tables, if our importances are not scikit-learn's
up to BLAS rounding, or a walk's predictions not the model's bits. See
README.md beside this file; measurements in results/permutation.md.
"""

import functools
from collections.abc import Callable
from dataclasses import dataclass

import _agreement
import _timing
import numpy as np
import pandas as pd
import sklearn
from _datasets import make_customers
from sklearn.compose import ColumnTransformer
from sklearn.datasets import load_diabetes, make_classification, make_regression
from sklearn.ensemble import (
    ExtraTreesRegressor,
    GradientBoostingRegressor,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.inspection import permutation_importance as sklearn_importance
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

import inspectwidgets
from inspectwidgets import permutation_importance
from inspectwidgets.inspection._core.batching import make_batcher
from inspectwidgets.inspection._core.chunks import DEFAULT_MAX_MEMORY
from inspectwidgets.inspection._permutation.plan import _FEWEST_WALKED
from inspectwidgets.inspection._shortcuts import choose_shortcut
from inspectwidgets.inspection._shortcuts.trees import walk_block_bytes

RANDOM_STATE = 0
QUICK_N_REPEATS = 2
MIB = 2**20
MEMORY_BUDGETS_MIB = (64, 16)  # 64 MiB is the default max_memory


# --- models and data: each builder returns (fitted model, X, y) to inspect ---


@functools.cache
def ridge_on_diabetes():
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    X_train, X_val, y_train, y_val = train_test_split(X, y, random_state=0)
    return Ridge(alpha=1e-2).fit(X_train, y_train), X_val, y_val


@functools.cache
def forest_on_classification():
    X, y = make_classification(
        n_samples=7000, n_features=20, n_informative=8, random_state=0
    )
    forest = RandomForestClassifier(n_estimators=100, random_state=0)
    return forest.fit(X[:5000], y[:5000]), X[5000:], y[5000:]


@functools.cache
def boosting_on_regression():
    X, y = make_regression(
        n_samples=25000, n_features=50, n_informative=15, noise=10, random_state=0
    )
    boosting = HistGradientBoostingRegressor(random_state=0)
    return boosting.fit(X[:20000], y[:20000]), X[20000:], y[20000:]


@functools.cache
def logistic_pipeline_on_customers():
    X_train, y_train = make_customers(10_000, random_state=0, noise_columns=True)
    X_val, y_val = make_customers(10_000, random_state=1, noise_columns=True)
    preprocess = ColumnTransformer(
        [
            (
                "cat",
                OneHotEncoder(handle_unknown="ignore"),
                ["region", "plan", "store"],
            ),
            ("num", StandardScaler(), ["age", "income", "tenure", "visits"]),
        ]
    )
    pipeline = make_pipeline(preprocess, LogisticRegression(max_iter=1000))
    return pipeline.fit(X_train, y_train), X_val, y_val


# --- the case registry ---


@dataclass
class Case:
    """One call of permutation_importance to time.

    `floor_methods` are the prediction methods its scorers need, i.e. the
    least model work any implementation must do on the permuted rows. With
    `floor_on_final_step`, the model is a pipeline whose preprocessing maps
    each column on its own (one-hot encoding, scaling): X then needs to be
    transformed only once, and the least work per permuted row is the final
    step's.
    """

    name: str
    build: Callable
    n_repeats: int
    floor_methods: tuple
    scoring: object = None
    floor_on_final_step: bool = False


# Also the case whose peak memory is measured.
BOOSTING = Case("HistGB, 5000 x 50", boosting_on_regression, 5, ("predict",))

CASES = [
    Case("Ridge, diabetes", ridge_on_diabetes, 30, ("predict",)),
    Case(
        "Ridge, diabetes",
        ridge_on_diabetes,
        30,
        ("predict",),
        scoring=["r2", "neg_mean_absolute_percentage_error", "neg_mean_squared_error"],
    ),
    # A forest's predict is the argmax of its predict_proba.
    Case(
        "RF, 2000 x 20",
        forest_on_classification,
        10,
        ("predict_proba",),
        scoring="accuracy",
    ),
    Case(
        "RF, 2000 x 20",
        forest_on_classification,
        10,
        ("predict_proba",),
        scoring=["accuracy", "roc_auc", "neg_log_loss"],
    ),
    BOOSTING,
    Case(
        "Pipeline, 10000-row frame",
        logistic_pipeline_on_customers,
        10,
        ("predict",),
        floor_on_final_step=True,
    ),
]


# --- measuring ---


def permuted_copies(X, n_repeats):
    """Every copy of X that permutation importance predicts, stacked row-wise.

    One copy per repeat and column, with that column's rows shuffled. Plain
    copies of X would be no honest stand-in: a forest predicts 2,000 rows
    repeated over and over much faster than the same number of varied rows.
    """
    rng = np.random.default_rng(RANDOM_STATE)
    is_frame = isinstance(X, pd.DataFrame)
    copies = []
    for _ in range(n_repeats):
        for column in range(X.shape[1]):
            shuffled = rng.permutation(X.shape[0])
            copy = X.copy()
            if is_frame:
                copy.isetitem(column, X.iloc[:, column].array.take(shuffled))
            else:
                copy[:, column] = X[shuffled, column]
            copies.append(copy)
    return pd.concat(copies, ignore_index=True) if is_frame else np.vstack(copies)


def run_case(case, runs, n_repeats):
    """Median seconds of scikit-learn, ours and the floor, and the results."""
    model, X, y = case.build()
    kwargs = {
        "scoring": case.scoring,
        "n_repeats": n_repeats,
        "random_state": RANDOM_STATE,
    }
    # Built outside the timer: the floor is prediction work only.
    predictor, stacked = model, permuted_copies(X, n_repeats)
    if case.floor_on_final_step:
        predictor, stacked = model[-1], model[:-1].transform(stacked)

    def floor():
        for method in case.floor_methods:
            getattr(predictor, method)(stacked)

    return _timing.time_side_by_side(
        {
            "sklearn": lambda: sklearn_importance(model, X, y, **kwargs),
            "ours": lambda: permutation_importance(model, X, y, **kwargs),
            "floor": floor,
        },
        runs,
    )


def compare_importances(case, ours, theirs, agreement):
    """Largest |ours - sklearn| over the importances, their means and standard
    deviations, per scorer; `agreement` keeps any mismatch."""
    if "importances" in theirs:  # one scorer: a Bunch, not a dict of them
        scorer = case.scoring if isinstance(case.scoring, str) else "score"
        ours, theirs = {scorer: ours}, {scorer: theirs}
    label = f"{case.name}, scoring={case.scoring!r}"
    agreement.require_identical(f"{label}, scorers", sorted(ours), sorted(theirs))
    return {
        scorer: max(
            agreement.max_difference(
                f"{label}, {scorer}, {key}", ours[scorer][key], bunch[key]
            )
            for key in ("importances", "importances_mean", "importances_std")
        )
        for scorer, bunch in theirs.items()
        if scorer in ours
    }


def measure_memory(case, n_repeats):
    """Peak extra bytes of scikit-learn's call and of ours at each budget.

    Returns a list of (call, budget in MiB or None, peak in MiB).
    """
    model, X, y = case.build()
    kwargs = {"n_repeats": n_repeats, "random_state": RANDOM_STATE}
    peaks = [
        (
            "scikit-learn",
            None,
            _timing.peak_memory(lambda: sklearn_importance(model, X, y, **kwargs)),
        )
    ]
    for budget in MEMORY_BUDGETS_MIB:
        peak = _timing.peak_memory(
            lambda budget=budget: permutation_importance(
                model, X, y, max_memory=budget * MIB, **kwargs
            )
        )
        peaks.append(("inspectwidgets", budget, peak))
    return [(call, budget, peak / MIB) for call, budget, peak in peaks]


# --- reporting ---

TIMING_COLUMNS = [
    ("case", "<"),
    ("n_repeats", ">"),
    ("sklearn s", ">"),
    ("ours s", ">"),
    ("ours/sklearn", ">"),
    ("floor s", ">"),
    ("ours/floor", ">"),
    ("max |diff|", ">"),
    ("scorer", "<"),
]


def timing_rows(case, n_repeats, medians, differences):
    """One row with the timings and first scorer, one more per other scorer."""
    timings = [
        case.name,
        str(n_repeats),
        f"{medians['sklearn']:.3f}",
        f"{medians['ours']:.3f}",
        f"{medians['ours'] / medians['sklearn']:.3f}",
        f"{medians['floor']:.3f}",
        f"{medians['ours'] / medians['floor']:.2f}",
    ]
    blank = [""] * len(timings)
    return [
        [*(blank if i else timings), f"{difference:.1e}", scorer]
        for i, (scorer, difference) in enumerate(differences.items())
    ]


def print_header(runs, quick):
    print("permutation_importance: inspectwidgets vs scikit-learn")
    print(_timing.describe_environment([np, pd, sklearn, inspectwidgets]))
    print(_timing.describe_method(runs, quick))
    print("Both libraries are called with n_jobs=None.")
    print(
        "floor: one call of the prediction method(s) the scorers need on all "
        "permuted copies,\nbuilt beforehand (for the pipeline: its final step on "
        "the transformed copies)."
    )
    print(
        "max |diff|: largest |ours - sklearn| over the importances, their means "
        "and standard deviations,\nper scorer; the script fails if one is beyond "
        "1e-12 * max(1, max |sklearn|) + 1e-12 * |sklearn|."
    )
    print()


def timing_table(quick, runs, agreement):
    rows = []
    for case in CASES:
        n_repeats = QUICK_N_REPEATS if quick else case.n_repeats
        medians, results = run_case(case, runs, n_repeats)
        differences = compare_importances(
            case, results["ours"], results["sklearn"], agreement
        )
        rows += timing_rows(case, n_repeats, medians, differences)
    return _timing.format_table(TIMING_COLUMNS, rows)


def memory_table(quick):
    n_repeats = QUICK_N_REPEATS if quick else BOOSTING.n_repeats
    peaks = measure_memory(BOOSTING, n_repeats)
    title = f"Peak extra memory (tracemalloc), {BOOSTING.name}, n_repeats={n_repeats}"
    table = _timing.format_table(
        [("call", "<"), ("max_memory MiB", ">"), ("peak MiB", ">")],
        [
            [call, "-" if budget is None else str(budget), f"{peak:.1f}"]
            for call, budget, peak in peaks
        ],
    )
    return f"{title}\n{table}"


# --- the walk's smallest chunk (_FEWEST_WALKED) ---

WALK_ROWS = 20_000
QUICK_WALK_ROWS = 5_000
WALKED_MODELS = {
    "RF, 100 trees": lambda: RandomForestRegressor(n_estimators=100, random_state=0),
    "ExtraTrees, 100 trees": lambda: ExtraTreesRegressor(
        n_estimators=100, random_state=0
    ),
    "GB, 100 stages": lambda: GradientBoostingRegressor(random_state=0),
    "HistGB": lambda: HistGradientBoostingRegressor(random_state=0),
}


def walk_or_predict(make_model, n_rows, runs, agreement):
    """Median seconds of walking and of predicting a chunk of one, then two,
    permuted copies of `n_rows` rows, as a run's chunk does each: the walk
    through the tree shortcut, the prediction on the copies stacked."""
    X, y = make_regression(
        n_samples=n_rows + 5000, n_features=20, n_informative=10, random_state=0
    )
    model = make_model().fit(X[n_rows:], y[n_rows:])
    X = X[:n_rows]
    trees, tree_rows, _ = choose_shortcut("tree", model, X, ("predict",))
    rng = np.random.default_rng(RANDOM_STATE)
    batcher = make_batcher(X)
    medians = {}
    for n_copies in (1, 2):
        copies = [(rng.permutation(n_rows), (c,)) for c in range(n_copies)]

        def walk(copies=copies):
            return trees.predict(
                tree_rows,
                copies,
                ("predict",),
                n_threads=trees.predict_threads(1),
                block_bytes=walk_block_bytes(DEFAULT_MAX_MEMORY),
            )["predict"]

        def predict(copies=copies):
            return model.predict(batcher.build(copies))

        seconds, results = _timing.time_side_by_side(
            {"walked": walk, "predicted": predict}, runs
        )
        agreement.require_identical(
            f"walk of {n_copies} cop(ies), {type(model).__name__}",
            results["walked"],
            results["predicted"],
        )
        medians[n_copies] = seconds
    return medians


def fewest_walked_table(quick, runs, agreement):
    """Whether the smallest chunk worth walking still has `_FEWEST_WALKED`
    copies: one copy predicted faster than walked, two walked faster."""
    n_rows = QUICK_WALK_ROWS if quick else WALK_ROWS
    rows = []
    for name, make_model in WALKED_MODELS.items():
        medians = walk_or_predict(make_model, n_rows, runs, agreement)
        one, two = medians[1], medians[2]
        holds = one["predicted"] < one["walked"] and two["walked"] <= two["predicted"]
        rows.append(
            [
                name,
                f"{one['walked']:.3f}",
                f"{one['predicted']:.3f}",
                f"{two['walked']:.3f}",
                f"{two['predicted']:.3f}",
                "yes" if holds else "NO",
            ]
        )
    title = (
        f"fewest walked: a chunk of 1 or 2 permuted copies of {n_rows} rows, "
        f"walked or predicted;\n_FEWEST_WALKED = {_FEWEST_WALKED} holds if one "
        "copy is predicted faster and two are walked faster."
    )
    table = _timing.format_table(
        [
            ("model", "<"),
            ("1 walked s", ">"),
            ("1 predicted s", ">"),
            ("2 walked s", ">"),
            ("2 predicted s", ">"),
            ("holds", "<"),
        ],
        rows,
    )
    return f"{title}\n{table}"


def main():
    args, runs = _timing.parse_runs(
        __doc__.splitlines()[0],
        f"smoke test: 1 run, n_repeats={QUICK_N_REPEATS} everywhere and "
        "1 BLAS/OpenMP thread",
    )
    _timing.restart_single_threaded_if_quick(args.quick)
    agreement = _agreement.Agreement()
    print_header(runs, args.quick)
    print(timing_table(args.quick, runs, agreement))
    print()
    print(memory_table(args.quick))
    print()
    print(fewest_walked_table(args.quick, runs, agreement))
    agreement.exit_if_any()


if __name__ == "__main__":
    main()
