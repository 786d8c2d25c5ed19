"""What the widgets share beyond their base: where the bundle lives and which
scorers a widget offers for an estimator."""

import pathlib

from sklearn.base import is_classifier, is_regressor
from sklearn.utils.multiclass import type_of_target

from ..inspection._permutation.scoring import ScoringPlan

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
