"""What the widgets share beyond their base: where the bundle lives, which
scorers a widget offers for an estimator, and how the effect widgets name
features, categorical columns and classes, and which columns a "split by"
offers."""

import numbers
import pathlib

import numpy as np
import pandas as pd
from sklearn.base import is_classifier, is_regressor
from sklearn.utils.multiclass import type_of_target

from ..inspection._permutation import ScoringPlan

# The built front end (js/build.mjs): <widget>_widget.js and .css per widget,
# as listed in pyproject.toml's ensured-targets.
STATIC = pathlib.Path(__file__).parent.parent / "static"

# Scorers offered in the UI, by kind of estimator and target; only those whose
# prediction method the estimator has are kept.
_REGRESSION_SCORERS = [
    "r2",
    "neg_mean_squared_error",
    "neg_root_mean_squared_error",
    "neg_mean_absolute_error",
    "neg_median_absolute_error",
    "neg_mean_absolute_percentage_error",
    "explained_variance",
]
_CLASSIFICATION_SCORERS = ["accuracy", "balanced_accuracy", "neg_log_loss"]
_BINARY_SCORERS = [
    "roc_auc",
    "average_precision",
    "f1",
    "precision",
    "recall",
    "neg_brier_score",
    "matthews_corrcoef",
]
_MULTICLASS_SCORERS = [
    "f1_macro",
    "f1_weighted",
    "precision_macro",
    "recall_macro",
    "roc_auc_ovr",
    "roc_auc_ovo",
    "matthews_corrcoef",
]
# The estimator's own ``score`` when it is not a standard metric.
OWN_SCORE = "score"


def scorer_options(estimator, y):
    """Scorer names that fit `estimator` and the kind of target `y`."""
    if is_regressor(estimator):
        names = list(_REGRESSION_SCORERS)
    elif is_classifier(estimator):
        target = type_of_target(y)
        names = _CLASSIFICATION_SCORERS + (
            _BINARY_SCORERS if target == "binary" else _MULTICLASS_SCORERS
        )
    else:
        names = []
    fitting = []
    for name in names:
        try:
            ScoringPlan(estimator, name)
        except ValueError:
            continue
        fitting.append(name)
    return fitting


def target_options(estimator):
    """Class labels a curve can show: the positive class of a binary
    classifier (scikit-learn returns only that one), every class otherwise."""
    if not is_classifier(estimator):
        return []
    classes = [str(c) for c in estimator.classes_]
    return classes[-1:] if len(classes) == 2 else classes


def feature_names(features, names):
    """`features` (a column or a list of them: labels, or int positions) as
    the names in the traits; the first column when None."""
    if features is None:
        return [names[0]]
    if isinstance(features, (str, numbers.Integral)) or not np.iterable(features):
        features = [features]
    return [
        names[f] if isinstance(f, numbers.Integral) and 0 <= f < len(names) else str(f)
        for f in features
    ]


def categorical_names(X, names, categorical_features):
    numeric = (
        # By position: labels may repeat.
        [dtype.kind in "biuf" for dtype in X.dtypes]
        if hasattr(X, "columns")
        else [X.dtype.kind in "biuf"] * X.shape[1]
    )
    chosen = set()
    if categorical_features is not None:
        flags = np.asarray(categorical_features)
        if flags.dtype == bool:
            chosen = {n for n, flag in zip(names, flags, strict=True) if flag}
        else:
            chosen = {
                names[c] if isinstance(c, (int, np.integer)) else str(c) for c in flags
            }
    return [
        n
        for n, is_numeric in zip(names, numeric, strict=True)
        if not is_numeric or n in chosen
    ]


MAX_SPLIT_VALUES = 10
"""Columns offered to split by have 2 to this many distinct values (missing
apart): one colour each from a 10-colour categorical palette, and a legend
that stays readable; a column of more values is better binned first."""


def split_options(X, names):
    """X's columns of 2..MAX_SPLIT_VALUES distinct values, in X's order."""
    frame = X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))
    options = []
    for position, name in enumerate(names):
        column = frame.iloc[:, position]
        if 2 <= column.nunique(dropna=True) <= MAX_SPLIT_VALUES:
            options.append(name)
    return options


def split_column(X, names, split_by):
    """The values of the column named `split_by` (one of `names`, X's
    columns as the traits name them), a label per row."""
    position = names.index(split_by)
    if hasattr(X, "iloc"):
        return X.iloc[:, position].to_numpy(dtype=object)
    return np.asarray(X)[:, position]
