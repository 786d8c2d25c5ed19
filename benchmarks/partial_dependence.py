"""inspectwidgets.partial_dependence against scikit-learn's, side by side.

    python benchmarks/partial_dependence.py [--quick] [--runs N] [--case TEXT]

Prints, per case, median seconds of scikit-learn, ours and the predict floor
(the model predicting every copy of X, one per grid point, in one call), their
ratios and how far our values are from scikit-learn's. Every call uses
method="brute": with kind="average", "auto" would pick the estimator's own
recursion for forests and boosting, in both libraries alike. Exits with status
1, after the tables, if our values are not scikit-learn's up to BLAS rounding or
a grid differs. See README.md beside this file.
"""

import functools
import math
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import _agreement
import _timing
import numpy as np
import pandas as pd
import sklearn
from _datasets import make_customers
from sklearn.compose import ColumnTransformer
from sklearn.datasets import make_classification, make_regression
from sklearn.ensemble import (
    GradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestRegressor,
)
from sklearn.inspection import partial_dependence as sklearn_partial_dependence
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

import inspectwidgets
from inspectwidgets import partial_dependence

RANDOM_STATE = 0
GRID_1_WAY = 100  # scikit-learn's default grid_resolution
GRID_2_WAY = 20  # 400 grid points
QUICK_ROWS = 500


# --- models and data: each builder returns (fitted model, X to average over) ---


@functools.cache
def forest_regressor(n_rows):
    X, y = make_regression(
        n_samples=n_rows + 2000, n_features=8, noise=5, random_state=0
    )
    forest = RandomForestRegressor(n_estimators=50, max_depth=10, random_state=0)
    return forest.fit(X[n_rows:], y[n_rows:]), X[:n_rows]


@functools.cache
def boosting_regressor(n_rows):
    X, y = make_regression(
        n_samples=n_rows + 5000, n_features=20, n_informative=10, random_state=0
    )
    boosting = HistGradientBoostingRegressor(max_iter=100, random_state=0)
    return boosting.fit(X[n_rows:], y[n_rows:]), X[:n_rows]


@functools.cache
def boosting_three_classes(n_rows):
    X, y = make_classification(
        n_samples=n_rows + 2000,
        n_features=10,
        n_informative=6,
        n_classes=3,
        random_state=0,
    )
    boosting = GradientBoostingClassifier(n_estimators=50, random_state=0)
    return boosting.fit(X[n_rows:], y[n_rows:]), X[:n_rows]


@functools.cache
def logistic_pipeline(n_rows):
    X_train, y_train = make_customers(10_000, random_state=0)
    preprocess = ColumnTransformer(
        [
            ("cat", OneHotEncoder(handle_unknown="ignore"), ["region", "plan"]),
            ("num", StandardScaler(), ["age", "income", "tenure"]),
        ]
    )
    pipeline = make_pipeline(preprocess, LogisticRegression(max_iter=1000))
    X, _ = make_customers(n_rows, random_state=1)
    return pipeline.fit(X_train, y_train), X


# --- the case registry ---


@dataclass
class Case:
    """One model to time, 1-way and 2-way, for kind="average" and "both".

    `floor_method` is the prediction method behind the values; with
    `floor_on_final_step` the model is a pipeline with column-wise
    preprocessing, whose least work per copy is its final step's.
    """

    name: str
    build: Callable
    n_rows: int
    features_1: list
    features_2: list
    floor_method: str
    floor_on_final_step: bool = False


CASES = [
    Case("RF regressor", forest_regressor, 2000, [0], [0, 1], "predict"),
    Case("HistGB regressor", boosting_regressor, 5000, [0], [0, 1], "predict"),
    Case("GB 3 classes", boosting_three_classes, 2000, [0], [0, 1], "predict_proba"),
    Case(
        "Pipeline one-hot+LR",
        logistic_pipeline,
        10_000,
        ["income"],
        ["income", "plan"],
        "predict_proba",
        floor_on_final_step=True,
    ),
]


# --- measuring ---


def grid_copies(X, columns, grid_values):
    """Every copy of X that the brute method predicts, stacked row-wise: one
    per grid point, with the features set to it."""
    grid = np.stack(np.meshgrid(*grid_values, indexing="ij"), -1).reshape(
        -1, len(columns)
    )
    if isinstance(X, pd.DataFrame):
        stacked = pd.concat([X] * len(grid), ignore_index=True)
        for i, column in enumerate(columns):
            values = pd.Series(np.repeat(grid[:, i], len(X)))
            stacked[column] = values.astype(X[column].dtype)
        return stacked
    stacked = np.tile(X, (len(grid), 1))
    for i, column in enumerate(columns):
        stacked[:, column] = np.repeat(grid[:, i].astype(X.dtype), len(X))
    return stacked


def call_kwargs(features, kind):
    """The arguments both libraries get besides the model, X and features."""
    categorical = [f for f in features if f in ("region", "plan")] or None
    return dict(
        kind=kind,
        method="brute",
        grid_resolution=GRID_1_WAY if len(features) == 1 else GRID_2_WAY,
        categorical_features=categorical,
    )


def floor_calls(case, model, X, features, grid_values):
    """The floor (and, for the pipeline, the model floor) as contenders; the
    copies are built here, outside the timer: the floor is prediction work."""
    predictor, stacked = model, grid_copies(X, features, grid_values)
    calls = {}
    if case.floor_on_final_step:
        # Also the whole pipeline on the raw copies: what predicting every
        # copy costs without our transform-once shortcut.
        frames = stacked
        calls["model floor"] = lambda: getattr(model, case.floor_method)(frames)
        predictor, stacked = model[-1], model[:-1].transform(stacked)
    calls["floor"] = lambda: getattr(predictor, case.floor_method)(stacked)
    return calls


def run_case(case, n_rows, features, kind, runs):
    """Median seconds of scikit-learn, ours and the floor(s), the results and
    the grid."""
    model, X = case.build(n_rows)
    kwargs = call_kwargs(features, kind)
    grid_values = partial_dependence(model, X, features, **kwargs).grid_values
    medians, results = _timing.time_side_by_side(
        {
            "sklearn": lambda: sklearn_partial_dependence(model, X, features, **kwargs),
            "ours": lambda: partial_dependence(model, X, features, **kwargs),
            **floor_calls(case, model, X, features, grid_values),
        },
        runs,
    )
    return medians, results, model, grid_values


def compare_values(label, ours, theirs, agreement):
    """Largest |ours - sklearn| over average and individual; `agreement`
    keeps any mismatch, of these or of the keys and grids."""
    agreement.require_identical(f"{label}, keys", sorted(ours), sorted(theirs))
    grids = ours.grid_values, theirs.grid_values
    agreement.require_identical(f"{label}, number of grids", *map(len, grids))
    # A missing grid is reported just above; zip compares the others.
    for i, pair in enumerate(zip(*grids, strict=False)):
        agreement.require_identical(f"{label}, grid {i}", *pair)
    return max(
        agreement.max_difference(f"{label}, {key}", ours[key], theirs[key])
        for key in ("average", "individual")
        if key in theirs and key in ours
    )


def grid_groups(model, features, grid_values):
    """The number of groups of grid points that no split threshold of any
    tree separates, which a tree ensemble predicts alike (see
    docs/partial_dependence.md); every point for other models.

    Read from the fitted trees, so the benchmark needs none of the engine's
    private modules; trees compare float32 values, histogram boosting float64.
    """
    splits = split_thresholds(model)
    if splits is None:
        return math.prod(len(values) for values in grid_values)
    thresholds, dtype = splits
    cells = (
        np.searchsorted(
            thresholds.get(feature, []), values.astype(dtype).astype(np.float64)
        )
        for feature, values in zip(features, grid_values, strict=True)
    )
    return math.prod(len(np.unique(cell)) for cell in cells)


def split_thresholds(model):
    """({column: sorted thresholds}, compared dtype) of this benchmark's tree
    ensembles, or None for other models."""
    if isinstance(model, HistGradientBoostingRegressor):
        # scikit-learn keeps these trees in a private attribute.
        nodes = np.concatenate(
            [tree.nodes for trees in model._predictors for tree in trees]
        )
        split = nodes["is_leaf"] == 0
        features, thresholds = nodes["feature_idx"], nodes["num_threshold"]
        return by_column(features[split], thresholds[split]), np.float64
    if isinstance(model, RandomForestRegressor | GradientBoostingClassifier):
        trees = [estimator.tree_ for estimator in np.ravel(model.estimators_)]
        features = np.concatenate([tree.feature for tree in trees])
        thresholds = np.concatenate([tree.threshold for tree in trees])
        split = features >= 0  # leaves have feature -2
        return by_column(features[split], thresholds[split]), np.float32
    return None


def by_column(features, thresholds):
    """{column: sorted unique thresholds}."""
    return {
        int(column): np.unique(thresholds[features == column])
        for column in np.unique(features)
    }


# --- reporting ---

COLUMNS = [
    ("case", "<"),
    ("rows", ">"),
    ("way", ">"),
    ("points", ">"),
    ("groups", ">"),
    ("kind", "<"),
    ("sklearn s", ">"),
    ("ours s", ">"),
    ("ours/sklearn", ">"),
    ("floor s", ">"),
    ("ours/floor", ">"),
    ("max |diff|", ">"),
]
MODEL_FLOOR_COLUMNS = [
    ("case", "<"),
    ("way", ">"),
    ("kind", "<"),
    ("model floor s", ">"),
    ("ours/model floor", ">"),
]


def print_header(runs, quick):
    print("partial_dependence (method='brute'): inspectwidgets vs scikit-learn")
    print(_timing.describe_environment([np, pd, sklearn, inspectwidgets]))
    print(_timing.describe_method(runs, quick, "sklearn, ours and floor(s)"))
    print(
        "floor: one call of the model's prediction method on every copy of X "
        "(one per grid point),\nbuilt beforehand (for the pipeline: its final "
        "step on the transformed copies)."
    )
    print(
        "groups: grid points left once tree ensembles' grid values between the "
        "same split thresholds\nare grouped (same paths, same predictions); "
        "boosting then evaluates each tree on its own, fewer,\ncells. "
        "Both make ours/floor < 1: the floor predicts every grid point."
    )
    print(
        f"Grids: {GRID_1_WAY} points (1-way), {GRID_2_WAY} x {GRID_2_WAY} (2-way). "
        "max |diff|: largest |ours - sklearn| over average and individual;\n"
        "the script fails if one is beyond 1e-12 * max(1, max |sklearn|) + "
        "1e-12 * |sklearn|, or if a grid differs."
    )
    print()


def measure_row(case, n_rows, features, kind, runs, agreement):
    """The table row of one call, and its model-floor row or None."""
    medians, results, model, grid_values = run_case(case, n_rows, features, kind, runs)
    label = f"{case.name}, features={features}, kind={kind!r}"
    difference = compare_values(label, results["ours"], results["sklearn"], agreement)
    way = f"{len(features)}-way"
    row = [
        case.name,
        str(n_rows),
        way,
        str(math.prod(len(values) for values in grid_values)),
        str(grid_groups(model, features, grid_values)),
        kind,
        f"{medians['sklearn']:.3f}",
        f"{medians['ours']:.3f}",
        f"{medians['ours'] / medians['sklearn']:.3f}",
        f"{medians['floor']:.3f}",
        f"{medians['ours'] / medians['floor']:.2f}",
        f"{difference:.1e}",
    ]
    if "model floor" not in medians:
        return row, None
    model_floor = medians["model floor"]
    return row, [
        case.name,
        way,
        kind,
        f"{model_floor:.3f}",
        f"{medians['ours'] / model_floor:.3f}",
    ]


def measure_rows(cases, quick, runs, agreement):
    """Every row of the two tables, each also on stderr as soon as measured."""
    rows, model_floor_rows = [], []
    for case in cases:
        n_rows = QUICK_ROWS if quick else case.n_rows
        for features in (case.features_1, case.features_2):
            for kind in ("average", "both"):
                row, model_floor_row = measure_row(
                    case, n_rows, features, kind, runs, agreement
                )
                rows.append(row)
                if model_floor_row is not None:
                    model_floor_rows.append(model_floor_row)
                # Progress on stderr; the aligned table follows on stdout.
                line = _timing.format_table(COLUMNS, [row]).splitlines()[-1]
                print(line, file=sys.stderr)
    return rows, model_floor_rows


def print_tables(rows, model_floor_rows):
    print()
    print(_timing.format_table(COLUMNS, rows))
    if model_floor_rows:
        print()
        print(
            "The pipeline's floor above is its final step alone on copies "
            "transformed beforehand.\nThe whole pipeline predicting the raw "
            "copies (transform included) takes:"
        )
        print(_timing.format_table(MODEL_FLOOR_COLUMNS, model_floor_rows))


def main():
    args, runs = _timing.parse_runs(
        __doc__.splitlines()[0],
        f"smoke test: 1 run on {QUICK_ROWS} rows per case and 1 BLAS/OpenMP thread",
        lambda parser: parser.add_argument(
            "--case",
            default="",
            help="only the cases whose name contains this text, e.g. 'HistGB'",
        ),
    )
    _timing.restart_single_threaded_if_quick(args.quick)
    cases = [case for case in CASES if args.case.lower() in case.name.lower()]
    agreement = _agreement.Agreement()
    with warnings.catch_warnings():
        # Our correlation check warns; scikit-learn does not.
        warnings.simplefilter("ignore", UserWarning)
        print_header(runs, args.quick)
        rows, model_floor_rows = measure_rows(cases, args.quick, runs, agreement)
    print_tables(rows, model_floor_rows)
    agreement.exit_if_any()


if __name__ == "__main__":
    main()
