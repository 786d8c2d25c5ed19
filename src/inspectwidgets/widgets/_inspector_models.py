"""ModelInspector's several models: given a dict (or a list) of fitted
models, the views review one (`reviewed`, the first by default) and the
header scores every one on the held-out rows beside the one dummy baseline.

The other models are checked against X and y as the first is, named as
:func:`~inspectwidgets.compare_permutation_importance` names them, and each
scored once with the header's scorers (a model's own ``score`` for the
estimator's default metric): from the held-out run's first results (each
model's baseline, which on a tree model rides its first walk of X) where
that run starts as the inspector opens, else predicted then.
"""

import contextlib
from collections.abc import Mapping

import numpy as np

from ..inspection._core import check_columns, check_target, quoted
from ..inspection._permutation import ScoringPlan, check_models
from ._permutation import engine_scoring
from ._review_header import with_model_scores
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


def score_models(models, X, y, scoring, kept):
    """Score each of `models` not yet in `kept` ({name: {scorer: score}})
    on the held-out rows, one prediction of X per model, with `scoring`
    (the inspector's scorer names), into `kept`."""
    for name, model in models.items():
        if name not in kept:
            plan = ScoringPlan(model, engine_scoring(model, scoring))
            scores = plan.baseline(X, y, None).scores
            kept[name] = {k: float(v) for k, v in scores.items()}


def keep_baselines(kept, baselines, scorers):
    """Take each model's held-out scores from `baselines` ({name: the
    scores of its run's baseline}) into `kept`, where they hold every
    scorer of the header's (`scorers`); whether any was new."""
    new = False
    for name, scores in baselines.items():
        if name not in kept and all(s in scores for s in scorers):
            kept[name] = {s: float(scores[s]) for s in scorers}
            new = True
    return new


def rescored_header(header, reviewed, names, kept, baselines):
    """:func:`header_of_models` of `header` once `baselines` are kept (see
    :func:`keep_baselines`); None when they bring nothing new (an empty
    `baselines`: the scores kept anew by the caller) or before a header."""
    scorers = [row["scorer"] for row in header.get("scores", ())]
    if not scorers or (baselines and not keep_baselines(kept, baselines, scorers)):
        return None
    return header_of_models(header, reviewed, names, kept)


def header_of_models(header, reviewed, names, kept):
    """`header` (the reviewed model's, without scores) naming the reviewed
    model's column and holding the other models' beside (`names`: every
    model, as given, to choose the reviewed one from), their scores those
    kept (``kept``); pending until every model's are."""
    header = {
        **header,
        "model_name": reviewed,
        "other_models": [
            {"name": name, "scores": dict(kept.get(name, {}))}
            for name in names
            if name != reviewed
        ],
        "models": list(names),
    }
    if all(name in kept for name in names):
        return with_model_scores(header, kept[reviewed])
    return {**header, "model_scores": "pending"}


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


def add_other_columns(frame, header):
    """The header's table (`scores_frame`) with one column per other model,
    named by it."""
    for other in header.get("other_models", ()):
        frame[other["name"]] = [other["scores"][s] for s in frame["scorer"]]
    return frame
