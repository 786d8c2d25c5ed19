"""inspectwidgets.partial_dependence against scikit-learn's, side by side.

    python benchmarks/partial_dependence.py [--quick] [--runs N] [--case TEXT]

Prints, per case, median seconds of scikit-learn, ours and the predict floor
(the model predicting every copy of X, one per grid point, in one call), their
ratios and how far our values are from scikit-learn's. Every call uses
method="brute": with kind="average", "auto" would pick the estimator's own
recursion for forests and boosting, in both libraries alike.
"""

import functools
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import _timing
import numpy as np
import pandas as pd
import sklearn
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

# Only for the "groups" column, a diagnostic of the engine's tree shortcut.
from inspectwidgets.inspection._core.signature import bind_arguments
from inspectwidgets.inspection._partial_dependence.functions import RUN_SIGNATURE
from inspectwidgets.inspection._partial_dependence.run import PartialDependenceRun
from inspectwidgets.inspection._partial_dependence.tree_splits import grid_point_groups

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


def make_customers(n_rows, random_state):
    """A frame with 2 string and 3 numeric columns, and a binary target."""
    rng = np.random.default_rng(random_state)
    region = rng.integers(5, size=n_rows)
    plan = rng.integers(12, size=n_rows)
    X = pd.DataFrame(
        {
            "region": [f"region {i}" for i in region],
            "plan": [f"plan {i}" for i in plan],
            "age": rng.normal(45, 12, n_rows),
            "income": rng.lognormal(10.5, 0.5, n_rows),
            "tenure": rng.exponential(5, n_rows),
        }
    )
    logit = (
        np.linspace(-1, 1, 5)[region]
        + np.linspace(-1.5, 1.5, 12)[plan]
        + (np.log(X["income"]) - 10.5) * 2
        - (X["tenure"] - 5) * 0.2
    )
    return X, (rng.random(n_rows) < 1 / (1 + np.exp(-logit))).astype(int)


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


def run_case(case, n_rows, features, kind, runs):
    """Median seconds of scikit-learn, ours and the floor; max |difference|."""
    model, X = case.build(n_rows)
    grid_resolution = GRID_1_WAY if len(features) == 1 else GRID_2_WAY
    categorical = [f for f in features if f in ("region", "plan")] or None
    kwargs = dict(
        kind=kind,
        method="brute",
        grid_resolution=grid_resolution,
        categorical_features=categorical,
    )
    # Built outside the timer: the floor is prediction work only.
    grid_values = partial_dependence(model, X, features, **kwargs).grid_values
    predictor, stacked = model, grid_copies(X, features, grid_values)
    calls = {
        "sklearn": lambda: sklearn_partial_dependence(model, X, features, **kwargs),
        "ours": lambda: partial_dependence(model, X, features, **kwargs),
    }
    if case.floor_on_final_step:
        # Also the whole pipeline on the raw copies: what predicting every
        # copy costs without our transform-once shortcut.
        frames = stacked
        calls["model floor"] = lambda: getattr(model, case.floor_method)(frames)
        predictor, stacked = model[-1], model[:-1].transform(stacked)
    calls["floor"] = lambda: getattr(predictor, case.floor_method)(stacked)
    medians, results = _timing.time_side_by_side(calls, runs)
    difference = max(
        float(np.max(np.abs(results["ours"][key] - results["sklearn"][key])))
        for key in ("average", "individual")
        if key in results["sklearn"]
    )
    n_points = int(np.prod([len(v) for v in grid_values]))
    return medians, difference, n_points, points_predicted(model, X, features, kwargs)


def points_predicted(model, X, features, kwargs):
    """Grid points the whole model would predict: one per group a tree
    ensemble routes alike (boosting then goes tree by tree, on fewer)."""
    arguments = bind_arguments(RUN_SIGNATURE, (model, X, features), kwargs)
    run = PartialDependenceRun(**arguments)
    _, rows, columns, predictor = run._prediction_space()
    groups = grid_point_groups(predictor, rows, columns)
    return run.grid.shape[0] if groups is None else int(groups.max()) + 1


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


def main():
    args, runs = _timing.parse_runs(
        __doc__.splitlines()[0],
        f"smoke test: 1 run on {QUICK_ROWS} rows per case",
        lambda parser: parser.add_argument(
            "--case",
            default="",
            help="only the cases whose name contains this text, e.g. 'HistGB'",
        ),
    )

    print("partial_dependence (method='brute'): inspectwidgets vs scikit-learn")
    print(_timing.describe_environment([np, pd, sklearn, inspectwidgets]))
    print(
        f"Median seconds of {runs} run(s) per case; sklearn, ours and floor "
        "alternate within each run."
    )
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
        "max |diff|: largest |ours - sklearn| over average and individual."
    )
    print()
    rows, model_floor_rows = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for case in CASES:
            if args.case.lower() not in case.name.lower():
                continue
            n_rows = QUICK_ROWS if args.quick else case.n_rows
            for features in (case.features_1, case.features_2):
                for kind in ("average", "both"):
                    medians, difference, n_points, n_predicted = run_case(
                        case, n_rows, features, kind, runs
                    )
                    rows.append(
                        [
                            case.name,
                            str(n_rows),
                            f"{len(features)}-way",
                            str(n_points),
                            str(n_predicted),
                            kind,
                            f"{medians['sklearn']:.3f}",
                            f"{medians['ours']:.3f}",
                            f"{medians['ours'] / medians['sklearn']:.3f}",
                            f"{medians['floor']:.3f}",
                            f"{medians['ours'] / medians['floor']:.2f}",
                            f"{difference:.1e}",
                        ]
                    )
                    if "model floor" in medians:
                        model_floor_rows.append(
                            [
                                case.name,
                                f"{len(features)}-way",
                                kind,
                                f"{medians['model floor']:.3f}",
                                f"{medians['ours'] / medians['model floor']:.3f}",
                            ]
                        )
                    # Progress on stderr; the aligned table follows on stdout.
                    line = _timing.format_table(COLUMNS, rows[-1:]).splitlines()[-1]
                    print(line, file=sys.stderr)
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


if __name__ == "__main__":
    main()
