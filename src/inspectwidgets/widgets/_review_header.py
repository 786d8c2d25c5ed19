"""What a reviewer reads first: the task, the model, the data and the held-out
score of each scorer beside a dummy baseline's.

The warning follows the scikit-learn user guide on permutation importance
("features that are deemed of low importance for a bad model ... could be very
important for a good model"): importance of a model that barely beats a dummy
says little about the data.
"""

import numpy as np
import pandas as pd
from sklearn.base import is_classifier, is_regressor
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.metrics import check_scoring
from sklearn.pipeline import Pipeline
from sklearn.utils.multiclass import type_of_target

from .._text import isolate
from ._options import OWN_SCORE

BARELY_BEATS = 0.1
"""The model "barely beats" the baseline when it closes less than this
fraction of the gap between the dummy's score and the best possible score
(1 for R², accuracy, ROC AUC and the like; 0 for the ``neg_*`` errors)."""

BAD_MODEL_WARNING = (
    "The model barely beats a dummy baseline. Permutation importance and the "
    "other views describe what this model relies on, not the data: features "
    "of low importance for a bad model could be very important for a good one "
    "(scikit-learn user guide, 'Permutation feature importance')."
)


def describe_task(estimator, y):
    """'regression', 'binary classification' or 'multiclass classification
    (k classes)'."""
    if is_regressor(estimator):
        return "regression"
    if is_classifier(estimator):
        classes = getattr(estimator, "classes_", np.unique(np.asarray(y)))
        if type_of_target(y) == "binary" or len(classes) == 2:
            return "binary classification"
        return f"multiclass classification ({len(classes)} classes)"
    return "unknown task"


def describe_model(estimator):
    """The estimator's class name and, for a pipeline, its steps in order."""
    steps = (
        [f"{isolate(name)}: {type(step).__name__}" for name, step in estimator.steps]
        if isinstance(estimator, Pipeline)
        else []
    )
    return {"type": type(estimator).__name__, "steps": steps}


def dummy_baseline(estimator, X, y):
    """A DummyRegressor (mean) or DummyClassifier (class priors) fitted on
    `X`, `y`; None for other estimators."""
    if is_regressor(estimator):
        dummy = DummyRegressor(strategy="mean")
    elif is_classifier(estimator):
        dummy = DummyClassifier(strategy="prior")
    else:
        return None
    return dummy.fit(X, y)


def best_possible(name):
    """The best value scorer `name` can reach, or None where unknown."""
    if name.startswith("neg_"):
        return 0.0
    if name in ("r2", "explained_variance", OWN_SCORE) or name.startswith(
        ("accuracy", "balanced_accuracy", "roc_auc", "average_precision", "f1")
    ):
        return 1.0
    if name.startswith(("precision", "recall", "matthews_corrcoef", "jaccard")):
        return 1.0
    return None


def barely_beats(model_score, dummy_score, best):
    """Whether the model closes less than `BARELY_BEATS` of the gap from the
    dummy's score to `best` (also when it scores below the dummy)."""
    if best is None or dummy_score is None or not np.isfinite(dummy_score):
        return False
    gap = best - dummy_score
    if gap <= 0:  # the dummy is already perfect: nothing to beat
        return False
    return (model_score - dummy_score) / gap < BARELY_BEATS


def review_header(estimator, X, y, *, X_train, y_train, scorers, n_rows_views):
    """The header's content, JSON-ready: task, model, data shape and, per
    scorer in `scorers` (names as the engine's baseline keys them), the
    dummy's held-out score. The model's scores are pending
    (``"model_scores": "pending"``) until :func:`with_model_scores` adds
    them: they are the baseline the Importance view permutes from, which
    comes from its first walk of the held-out rows.

    The dummy is fitted on (`X_train`, `y_train`) when given, else on (`X`,
    `y`) (an in-sample baseline, a little flattering to the dummy).
    """
    fit_X, fit_y = (X_train, y_train) if X_train is not None else (X, y)
    dummy = dummy_baseline(estimator, fit_X, fit_y)
    scores = []
    for name in scorers:
        scorer = check_scoring(estimator, scoring=None if name == OWN_SCORE else name)
        dummy_score = None if dummy is None else float(scorer(dummy, X, y))
        scores.append({"scorer": name, "model": None, "dummy": dummy_score})
    return {
        "task": describe_task(estimator, y),
        "model": describe_model(estimator),
        "n_rows": int(X.shape[0]),
        "n_features": int(X.shape[1]),
        "n_rows_views": int(n_rows_views),
        "dummy": None if dummy is None else type(dummy).__name__,
        "dummy_fitted_on": "training data" if X_train is not None else "X itself",
        "scores": scores,
        "model_scores": "pending",
        "warning": "",
    }


def with_model_scores(header, model_scores):
    """`header` with the model's held-out score of each scorer
    (`model_scores`, by name), whether it barely beats the dummy's, and the
    warning if any does."""
    scores = []
    for entry in header["scores"]:
        model_score = float(model_scores[entry["scorer"]])
        best = best_possible(entry["scorer"])
        barely = barely_beats(model_score, entry["dummy"], best)
        scores.append({**entry, "model": model_score, "barely": barely})
    barely = any(s["barely"] for s in scores)
    return {
        **header,
        "scores": scores,
        "model_scores": "done",
        "warning": BAD_MODEL_WARNING if barely else "",
    }


class BadModelCheck:
    """The header's check for an Importance view shown on its own (the
    standalone PermutationImportanceWidget, where no inspector's header
    says it): the same dummy, threshold and warning, the dummy fitted and
    scored on the view's rows (it has no training rows). Each set of
    scorers' dummy scores is computed once."""

    def __init__(self, estimator, X, y):
        self.estimator, self.X, self.y = estimator, X, y
        self._headers = {}

    def warning(self, model_scores):
        """:data:`BAD_MODEL_WARNING` if the model's score of some scorer
        (`model_scores`, by name) barely beats the dummy's, else ""."""
        names = tuple(model_scores)
        if names not in self._headers:
            self._headers[names] = review_header(
                self.estimator,
                self.X,
                self.y,
                X_train=None,
                y_train=None,
                scorers=names,
                n_rows_views=self.X.shape[0],
            )
        return with_model_scores(self._headers[names], model_scores)["warning"]


def scores_frame(header):
    """The header's scores as a DataFrame: scorer, model, dummy, barely."""
    frame = pd.DataFrame(
        header["scores"], columns=["scorer", "model", "dummy", "barely"]
    )
    return frame.astype({"model": float, "dummy": float})
