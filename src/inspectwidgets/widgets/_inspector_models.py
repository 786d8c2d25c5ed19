"""ModelInspector's several models: given a dict (or a list) of fitted
models, the views review the first and the header scores every one on the
held-out rows beside the one dummy baseline.

The other models are checked against X and y as the first is, named as
:func:`~inspectwidgets.compare_permutation_importance` names them, and each
scored once, as the inspector opens, with the header's scorers (a model's
own ``score`` for the estimator's default metric).
"""

import contextlib
from collections.abc import Mapping

import numpy as np

from ..inspection._core import check_columns, check_target, quoted
from ..inspection._permutation import ScoringPlan, check_models
from ._permutation import engine_scoring
from ._workload import take_rows


def split_models(estimator):
    """``(first model, its name or None, {name: other model})``: a dict or a
    list of models (as the engine names them), or one estimator alone."""
    if not isinstance(estimator, (Mapping, list, tuple)):
        return estimator, None, {}
    try:
        models = check_models(estimator)
    except (TypeError, ValueError) as error:
        # The engine's words, for the inspector's argument.
        message = str(error).replace("models", "estimator", 1)
        raise type(error)(message) from error
    (name, first), *others = models.items()
    return first, name, dict(others)


def check_other_models(others, X, y):
    """Each other model takes X and y as the first does; errors name it."""
    for name, model in others.items():
        try:
            check_columns(model, X)
            check_target(model, y)
        except ValueError as error:
            raise ValueError(f"estimator[{quoted(name)}]: {error}") from error


def other_models_scores(others, X, y, scoring):
    """Each other model's held-out score of each scorer (`scoring`: the
    inspector's scorer names), one prediction of X per model, as
    ``[{"name": ..., "scores": {scorer: value}}]``."""
    scored = []
    for name, model in others.items():
        plan = ScoringPlan(model, engine_scoring(model, scoring))
        scores = plan.baseline(X, y, None).scores
        scored.append(
            {"name": name, "scores": {k: float(v) for k, v in scores.items()}}
        )
    return scored


def cohort_scores(model, X, y, labels, names, scoring):
    """Several models' review: each cohort's held-out score of every scorer
    for the reviewed `model`, one prediction of its rows (their Importance
    run has no split whose baselines would give them); {} for a cohort of
    no rows or a score undefined on its rows."""
    plan = ScoringPlan(model, engine_scoring(model, scoring))
    scored = {}
    for name in names:
        rows = np.flatnonzero(labels == name)
        scores = {}
        if len(rows):
            # Undefined on some rows (ROC AUC of one class): no score.
            with contextlib.suppress(ValueError):
                scores = plan.baseline(*take_rows(rows, X, y), None).scores
        scored[name] = {k: float(v) for k, v in scores.items()}
    return scored


def with_other_models(header, first_name, others_scored):
    """`header` naming the first model's column and holding the others'."""
    return {**header, "model_name": first_name, "other_models": others_scored}


def add_other_columns(frame, header):
    """The header's table (`scores_frame`) with one column per other model,
    named by it."""
    for other in header.get("other_models", ()):
        frame[other["name"]] = [other["scores"][s] for s in frame["scorer"]]
    return frame
