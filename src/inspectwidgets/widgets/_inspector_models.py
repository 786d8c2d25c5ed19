"""ModelInspector's several models: given a dict (or a list) of fitted
models, the views review one (`reviewed`, the first by default) and the
header scores every one on the held-out rows beside the one dummy baseline.

The other models are checked against X and y as the first is, named as
:func:`~inspectwidgets.compare_permutation_importance` names them, and each
scored once, as the inspector opens, with the header's scorers (a model's
own ``score`` for the estimator's default metric).
"""

from collections.abc import Mapping

from ..inspection._core import check_columns, check_target, quoted
from ..inspection._permutation import ScoringPlan, check_models
from ._permutation import engine_scoring


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


def other_models_scores(others, X, y, scoring, kept):
    """Each other model's held-out score of each scorer (`scoring`: the
    inspector's scorer names), one prediction of X per model, as
    ``[{"name": ..., "scores": {scorer: value}}]``; `kept` ({name: scores})
    holds those already scored (a reviewed model changed) and takes the
    new ones."""
    scored = []
    for name, model in others.items():
        if name not in kept:
            plan = ScoringPlan(model, engine_scoring(model, scoring))
            scores = plan.baseline(X, y, None).scores
            kept[name] = {k: float(v) for k, v in scores.items()}
        scored.append({"name": name, "scores": dict(kept[name])})
    return scored


def with_other_models(header, reviewed, others_scored, names):
    """`header` naming the reviewed model's column and holding the others',
    with every model's name (`names`, as given) to choose the reviewed one
    from."""
    return {
        **header,
        "model_name": reviewed,
        "other_models": others_scored,
        "models": list(names),
    }


def add_other_columns(frame, header):
    """The header's table (`scores_frame`) with one column per other model,
    named by it."""
    for other in header.get("other_models", ()):
        frame[other["name"]] = [other["scores"][s] for s in frame["scorer"]]
    return frame
