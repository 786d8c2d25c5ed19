"""The scorers of a run, checked before any prediction: scikit-learn's
scorer names, whether each fits the estimator, and which can be replayed
from shared predictions or vectorized."""

import difflib
import functools
from dataclasses import dataclass

import numpy as np
from sklearn.base import ClassifierMixin, RegressorMixin, is_regressor
from sklearn.metrics import (
    accuracy_score,
    get_scorer_names,
    r2_score,
    roc_auc_score,
)

from .._core.compat import (
    _BaseScorer,
    _check_response_method,
    _PassthroughScorer,
    _Scorer,
)
from .._core.pipeline import final_estimator
from .._core.validation import quoted
from .vectorized_metrics import ERROR_SUM_METRICS, VECTORIZED

_CLASSIFICATION_MODULES = (
    "sklearn.metrics._classification",
    "sklearn.metrics._ranking",
)


@dataclass
class PlannedScorer:
    """One scorer of a scoring plan.

    `name` is None for a custom callable that may return a dict of scores.
    `replayable` scorers get their predictions from a
    :class:`~.scoring.ReplayEstimator`; the others are called with the real
    estimator on the permuted data.
    """

    name: str | None
    scorer: object
    replayable: bool
    pass_sample_weight: bool
    vectorized: object = None
    # Its metric from the copies' squared errors' sums (r2, MSE, RMSE), or None.
    of_error_sums: object = None


def _score_is_builtin(estimator):
    """The metric behind ``estimator.score`` when it is scikit-learn's default
    (or CatBoost's own, replayed: :func:`_catboost_score`)."""
    final = final_estimator(estimator)
    score_method = getattr(type(final), "score", None)
    if score_method is RegressorMixin.score:
        return r2_score
    if score_method is ClassifierMixin.score:
        return accuracy_score
    return _catboost_score(final)


def _catboost_score(model):
    """CatBoost's own ``score`` as a metric of its predictions, for
    CatBoostClassifier and CatBoostRegressor themselves (their ``score`` is
    not scikit-learn's mixins'); None for any other model, or a regressor
    whose predict is not one value a row. So the default scoring replays it
    from the predictions (walked, where the tree shortcut takes the model),
    with CatBoost's own numbers."""
    kind = type(model)
    if kind.__module__ != "catboost.core":
        return None
    if kind.__name__ == "CatBoostClassifier":
        return catboost_accuracy
    if kind.__name__ == "CatBoostRegressor":
        loss = str(model.get_params().get("loss_function") or "RMSE")
        if loss.split(":")[0] in ("RMSEWithUncertainty", "MultiRMSE"):
            return None
        return catboost_r2
    return None


def _no_sample_weight(kind, sample_weight):
    """CatBoost's ``score`` takes no sample_weight: scikit-learn's default
    scoring passes one to it and fails so; the replay fails alike. Declared
    all the same, so that a run without weights scores the held-out
    resamples (which weight the rows through their counts) as it scores
    accuracy's and R²'s."""
    if sample_weight is not None:
        raise TypeError(
            f"{kind}.score() got an unexpected keyword argument 'sample_weight'"
        )


def catboost_accuracy(y_true, y_pred, sample_weight=None):
    """``CatBoostClassifier.score`` from its predicted classes, step by step
    (CatBoost 1.2): its checks of y's type against the classes' (its own
    error), then the share of predicted classes equal to y."""
    _no_sample_weight("CatBoostClassifier", sample_weight)
    predicted, y = np.asarray(y_pred).reshape(-1), np.array(y_true)
    if predicted.dtype.kind in "biuf":  # numbers or booleans
        mismatch = np.issubdtype(y.dtype, np.character)
    else:
        mismatch = np.issubdtype(y.dtype, np.number) or y.dtype == np.bool_
    if mismatch:
        from catboost import CatBoostError

        raise CatBoostError(
            f"predicted classes have type {predicted.dtype} but specified y "
            f"has type {y.dtype}"
        )
    return np.mean(predicted == y)


def catboost_r2(y_true, y_pred, sample_weight=None):
    """``CatBoostRegressor.score`` from its predictions, step by step
    (CatBoost 1.2): R² as ``1 - rss / tss``, numpy's sums."""
    _no_sample_weight("CatBoostRegressor", sample_weight)
    y = np.array(y_true, dtype=np.float64)
    if y_pred.size != y.size:
        raise ValueError(
            f"y has {y.size} values, the model's predictions {y_pred.size}"
        )
    y = y.reshape(y_pred.shape)
    total_sum_of_squares = np.sum((y - y.mean(axis=0)) ** 2)
    residual_sum_of_squares = np.sum((y - y_pred) ** 2)
    return 1 - residual_sum_of_squares / total_sum_of_squares


def builtin_score_name(estimator):
    """The scorer name equal to ``estimator.score``, or None if it is custom."""
    return {r2_score: "r2", accuracy_score: "accuracy"}.get(
        _score_is_builtin(estimator)
    )


def as_replayable(estimator, scorer):
    """Replace a passthrough scorer by the equivalent metric scorer, if any.

    ``RegressorMixin.score`` is ``r2_score(y, predict(X), sample_weight=...)``
    and ``ClassifierMixin.score`` is the same with ``accuracy_score``; a Pipeline
    scores with its final step, so both can be replayed from predictions.
    """
    if isinstance(scorer, _PassthroughScorer):
        metric = _score_is_builtin(estimator)
        if metric is not None:
            return _Scorer(metric, 1, {}, "predict")
    return scorer


def check_scorer_names(scoring):
    names = []
    if isinstance(scoring, str):
        names = [scoring]
    elif isinstance(scoring, (list, tuple, set)):
        names = [s for s in scoring if isinstance(s, str)]
    elif isinstance(scoring, dict):
        names = [s for s in scoring.values() if isinstance(s, str)]
    valid = get_scorer_names()
    for name in names:
        if name not in valid:
            close = difflib.get_close_matches(name, valid, n=4, cutoff=0.5)
            hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
            raise ValueError(
                f"scoring: {quoted(name)} is not a known scorer name.{hint} "
                "See sklearn.metrics.get_scorer_names() for all valid names."
            )


def check_scorer_fits(estimator, name, scorer):
    """Raise before any prediction if `scorer` cannot score `estimator`."""
    if not isinstance(scorer, _BaseScorer):
        return
    label = name or repr(scorer)
    try:
        _check_response_method(estimator, scorer._response_method)
    except AttributeError:
        methods = scorer._response_method
        methods = [methods] if isinstance(methods, str) else list(methods)
        raise ValueError(
            f"scoring: {quoted(label)} needs the estimator's "
            f"{' or '.join(methods)}, which {type(estimator).__name__} does not "
            "have. Choose a scorer that fits this estimator."
        ) from None
    module = getattr(scorer._score_func, "__module__", "") or ""
    if is_regressor(estimator) and module.startswith(_CLASSIFICATION_MODULES):
        raise ValueError(
            f"scoring: {quoted(label)} is a classification metric but "
            f"{type(estimator).__name__} is a regressor. Use a regression scorer "
            "such as 'r2' or 'neg_mean_squared_error'."
        )


def vectorized_metric(scorer):
    """The vectorized version of a plain scikit-learn metric scorer, if any.

    Only scorers without extra keyword arguments qualify (their positive
    class and averaging are the metric's defaults, which the versions
    reproduce), and ROC AUC's with only its multiclass options
    (``roc_auc_ovr``, ``roc_auc_ovo_weighted``, ...), which it reproduces
    too.
    """
    plain = VECTORIZED.get(_plain_metric(scorer))
    if plain is not None or type(scorer) is not _Scorer:
        return plain
    if scorer._score_func is roc_auc_score and set(scorer._kwargs) <= {
        "multi_class",
        "average",
    }:
        return functools.partial(VECTORIZED[roc_auc_score], **scorer._kwargs)
    return None


def error_sum_metric(scorer):
    """A plain scorer's metric as a function of the copies' squared errors'
    sums (``vectorized_metrics.ERROR_SUM_METRICS``), if it has one."""
    return ERROR_SUM_METRICS.get(_plain_metric(scorer))


def _plain_metric(scorer):
    """The metric of a scorer without extra keyword arguments, else None."""
    if type(scorer) is _Scorer and not scorer._kwargs:
        return scorer._score_func
    return None
