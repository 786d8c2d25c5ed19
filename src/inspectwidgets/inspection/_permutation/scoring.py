"""Scorers that share predictions across many permuted copies of the data.

scikit-learn's scorers ask the estimator for predictions themselves. To predict
every permuted copy once, whatever the number of scorers, we hand the scorers a
:class:`ReplayEstimator` that answers prediction calls with outputs computed
beforehand in one batched call. The scorers' own code then turns those outputs
into scores, so the numbers are scikit-learn's. For the commonest metrics a
vectorized version scores all copies of a batch at once.
"""

from dataclasses import dataclass, field, replace

import numpy as np
from sklearn.base import is_classifier
from sklearn.metrics import check_scoring
from sklearn.utils import get_tags

from .._core.compat import (
    ForestClassifier,
    _BaseScorer,
    _cached_call,
    _check_multimetric_scoring,
    _check_response_method,
    _safe_indexing,
    _scorer_accepts_sample_weight,
)
from .._core.parallel import report_step
from .._core.pipeline import final_estimator
from .._core.predictions import call_model
from .._core.validation import quoted
from .bootstrap import resampled_baseline
from .scorers import (
    PlannedScorer,
    as_replayable,
    check_scorer_fits,
    check_scorer_names,
    error_sum_metric,
    vectorized_metric,
)

PREDICTION_METHODS = (
    "predict",
    "predict_proba",
    "decision_function",
    "predict_log_proba",
)


class ReplayEstimator:
    """Stand-in for a fitted estimator inside scikit-learn scorers.

    Every attribute is the wrapped estimator's, except its prediction methods,
    which return ``outputs[method]`` whatever X they are given.
    """

    def __init__(self, estimator, outputs):
        self._estimator = estimator
        self._outputs = outputs

    def __getattr__(self, name):
        if name not in PREDICTION_METHODS:
            return getattr(self._estimator, name)
        if not hasattr(self._estimator, name):
            raise AttributeError(
                f"{type(self._estimator).__name__} has no method {quoted(name)}"
            )

        def method(X):
            return self._outputs[name]

        method.__name__ = name
        return method

    def __sklearn_tags__(self):
        return get_tags(self._estimator)


@dataclass(frozen=True)
class Baseline:
    """The scores on unpermuted data, keyed by scorer name ("score" for a
    single unnamed scorer; a Python int where the scorer returns integers);
    whether the result is multimetric (several scorers, or a custom scorer
    returning a dict, as in scikit-learn); and the bytes of predictions per
    row, which size the batches."""

    scores: dict
    multimetric: bool
    output_bytes_per_row: float
    # Under a held-out bootstrap (see bootstrap.py): the scores under each
    # resample, by name, and the draw they belong to; else None.
    bootstrap_scores: dict | None = None
    bootstrap_draw: object = None
    # ... and what the permuted copies' scores under them start from
    # (bootstrap.ResampledLoss, by name).
    bootstrap_losses: dict | None = field(default=None, compare=False, repr=False)
    # The predictions of X scored, by method: a run under resamples that
    # reuses this baseline scores them again (never compared).
    outputs: dict | None = field(default=None, compare=False, repr=False)


class ScoringPlan:
    """The scorers of one inspection run and how each gets its predictions.

    Parameters
    ----------
    estimator : fitted estimator
    scoring : str, callable, list, tuple, set, dict or None
        As in :func:`sklearn.inspection.permutation_importance`.
    """

    def __init__(self, estimator, scoring):
        check_scorer_names(scoring)
        self.multimetric = isinstance(scoring, (list, tuple, set, dict))
        if self.multimetric:
            try:
                scorers = _check_multimetric_scoring(estimator, scoring)
            except ValueError as exc:
                raise ValueError(f"scoring: {exc}") from None
        else:
            name = scoring if isinstance(scoring, str) else None
            scorers = {name: check_scoring(estimator, scoring=scoring)}
        self.scorers = []
        for name, scorer in scorers.items():
            scorer = as_replayable(estimator, scorer)
            check_scorer_fits(estimator, name, scorer)
            replayable = isinstance(scorer, _BaseScorer)
            if self.multimetric:
                pass_weight = _scorer_accepts_sample_weight(scorer)
            else:
                pass_weight = True
            self.scorers.append(
                PlannedScorer(
                    name=name,
                    scorer=scorer,
                    replayable=replayable,
                    pass_sample_weight=pass_weight,
                    vectorized=vectorized_metric(scorer),
                    of_error_sums=error_sum_metric(scorer),
                )
            )
        self.estimator = estimator
        self._classes = (
            getattr(estimator, "classes_", None) if is_classifier(estimator) else None
        )
        # The prediction methods the replayable scorers call, each computed
        # once per batch; scikit-learn picks them the same way.
        self.response_methods = tuple(
            dict.fromkeys(
                _check_response_method(estimator, s.scorer._response_method).__name__
                for s in self.scorers
                if s.replayable
            )
        )

    @property
    def all_replayable(self):
        return all(s.replayable for s in self.scorers)

    @property
    def names(self):
        """The scores' names, as :class:`Baseline` keys them (a custom
        scorer returning a dict names its own)."""
        return tuple(s.name or "score" for s in self.scorers)

    def _kwargs(self, planned, sample_weight):
        if sample_weight is not None and planned.pass_sample_weight:
            return {"sample_weight": sample_weight}
        return {}

    def _call(self, planned, estimator, X, y, sample_weight):
        kwargs = self._kwargs(planned, sample_weight)
        if planned.replayable:
            return planned.scorer._score(_uncached_call, estimator, X, y, **kwargs)
        return planned.scorer(estimator, X, y, **kwargs)

    def score_blocks(
        self, outputs, n_blocks, y, sample_weight, block_X, vectorize=True
    ):
        """Score `n_blocks` equal blocks of rows of batched prediction outputs.

        Parameters
        ----------
        outputs : dict of str to ndarray
            Each response method's output on the concatenated blocks.
        n_blocks : int
        y, sample_weight : targets and weights of one block
        block_X : callable
            ``block_X(b)`` gives the rows of block `b`, for custom scorers.
        vectorize : bool, default=True
            Score common metrics for all blocks at once. They agree with
            scikit-learn's own code to rounding; the baseline is scored without
            them so that it is scikit-learn's number exactly.

        Returns
        -------
        dict of str to ndarray of shape (n_blocks,)
        """
        return self._score_blocks(
            outputs, n_blocks, y, sample_weight, block_X, vectorize
        )[0]

    def _score_blocks(self, outputs, n_blocks, y, sample_weight, block_X, vectorize):
        """`score_blocks`, and whether a custom scorer returned a dict."""
        returned_dict = False
        blocked = {
            method: value.reshape((n_blocks, -1) + value.shape[1:])
            for method, value in outputs.items()
        }
        scores = {}
        for planned in self.scorers:
            if vectorize and planned.vectorized is not None and y is not None:
                weight = sample_weight if planned.pass_sample_weight else None
                values = planned.vectorized(
                    np.asarray(y),
                    self._response(planned, blocked),
                    weight,
                    self._classes,
                )
                if values is not None:
                    scores[planned.name or "score"] = planned.scorer._sign * values
                    continue
            per_block = []
            for b in range(n_blocks):
                if planned.replayable:
                    est = ReplayEstimator(
                        self.estimator, {m: v[b] for m, v in blocked.items()}
                    )
                    per_block.append(self._call(planned, est, None, y, sample_weight))
                else:
                    per_block.append(
                        self._call(
                            planned, self.estimator, block_X(b), y, sample_weight
                        )
                    )
            if isinstance(per_block[0], dict):
                # A custom scorer returning a dict makes the result multimetric,
                # as in scikit-learn.
                returned_dict = True
                for key in per_block[0]:
                    scores[key] = _as_scores([s[key] for s in per_block])
            else:
                scores[planned.name or "score"] = _as_scores(per_block)
        return scores, returned_dict

    def error_sum_scoring(self, y, sample_weight):
        """An :class:`ErrorSumScoring` of copies of rows with targets `y`
        where every scorer reads them through the sums of their squared
        errors alone (r2, MSE, RMSE of ``predict``, numeric targets), else
        None."""
        if self.response_methods != ("predict",) or y is None:
            return None
        y = np.asarray(y)
        if not (
            all(s.replayable and s.of_error_sums for s in self.scorers)
            and y.ndim == 1
            and y.shape[0] >= 2
            and y.dtype.kind in "fiu"
        ):
            return None
        y = y.astype(float)
        weights = {False: None}
        if sample_weight is not None:
            weights[True] = np.asarray(sample_weight, dtype=np.float64)
        scorers = []
        for planned in self.scorers:
            weight = sample_weight if planned.pass_sample_weight else None
            scorers.append(
                (
                    planned.name or "score",
                    planned.scorer._sign,
                    weight is not None,
                    planned.of_error_sums(y, weight),
                )
            )
        return ErrorSumScoring(y, weights, tuple(scorers))

    def _response(self, planned, blocked):
        """The response a scorer sees, for all blocks at once: as scikit-learn's
        ``_get_response_values`` gives it, the positive class's column (the
        last class) of binary probabilities and the raw output otherwise."""
        method = _check_response_method(self.estimator, planned.scorer._response_method)
        response = blocked[method.__name__]
        binary = self._classes is not None and len(self._classes) == 2
        if method.__name__ == "predict_proba" and binary:
            return response[..., -1]
        return response

    def predict(self, X, estimator=None):
        """Each needed prediction method's output on `X`, computed once.

        A forest classifier's ``predict`` is taken from its ``predict_proba``,
        exactly as ``ForestClassifier.predict`` does, saving a second pass.
        """
        estimator = self.estimator if estimator is None else estimator
        outputs = {}
        methods = self.response_methods
        if {"predict", "predict_proba"} <= set(methods) and derive_predict_from_proba(
            estimator
        ):
            proba = call_model(estimator, "predict_proba", X)
            outputs["predict_proba"] = proba
            outputs["predict"] = estimator.classes_.take(
                np.argmax(proba, axis=1), axis=0
            )
        for method in methods:
            if method not in outputs:
                outputs[method] = call_model(estimator, method, X)
        return outputs

    def baseline(self, X, y, sample_weight, block_rows=None, bootstrap=None):
        """Scores on the unpermuted data, by scikit-learn's own code path, and
        what they tell about the run (see :class:`Baseline`).

        With `block_rows`, X is predicted that many rows at a time and the
        scorers see all the predictions at once: the model's own copy of X
        (float32 for trees, a pipeline's transform) then stays within one
        block. scikit-learn scores every row of X, even with `max_samples`,
        and on 1,000,000 x 50 a forest's float32 copy alone is 190 MiB.
        Predictions are row by row, so trees give the same bits; where BLAS
        predicts, the rows in a call can change the last bit.
        """
        n_rows = X.shape[0]
        if block_rows is None or n_rows <= block_rows:
            outputs = self.predict(X)
        else:
            # Told block by block: on a million rows this takes seconds.
            blocks = []
            for start in range(0, n_rows, block_rows):
                report_step("baseline", start, n_rows)
                blocks.append(
                    self.predict(_safe_indexing(X, slice(start, start + block_rows)))
                )
            report_step("baseline", n_rows, n_rows)
            outputs = {
                method: np.concatenate([block[method] for block in blocks])
                for method in blocks[0]
            }
        return self.baseline_of(outputs, X, y, sample_weight, bootstrap)

    def baseline_of(self, outputs, X, y, sample_weight, bootstrap=None):
        """The :class:`Baseline` of `outputs`, the model's predictions of X
        (by :meth:`predict`, or bit for bit the same), scored as
        scikit-learn scores them. X's rows are counted; a custom scorer
        would see X itself. With `bootstrap` (a
        :class:`~.bootstrap.HeldoutBootstrap`), also scored under each of
        its resamples of the rows it scores."""
        scores, returned_dict = self._score_blocks(
            outputs, 1, y, sample_weight, lambda b: X, vectorize=False
        )
        baseline = Baseline(
            # An int stays an int: scikit-learn's importances then are too.
            scores={name: values[0].item() for name, values in scores.items()},
            multimetric=self.multimetric or returned_dict,
            output_bytes_per_row=sum(v.nbytes for v in outputs.values())
            / max(1, X.shape[0]),
            outputs=outputs,
        )
        if bootstrap is None:
            return baseline
        return self.resample_baseline(baseline, y, bootstrap)

    def resample_baseline(self, baseline, y, bootstrap):
        """`baseline` also scored under the resamples of `bootstrap`, from
        its predictions (see bootstrap.py)."""
        rows, outputs = bootstrap.rows, baseline.outputs
        if rows is not None:
            outputs = {m: v[rows] for m, v in outputs.items()}
            y = None if y is None else _safe_indexing(y, rows)
        losses = resampled_baseline(self, outputs, y, bootstrap)
        return replace(
            baseline,
            bootstrap_scores={name: loss.scores() for name, loss in losses.items()},
            bootstrap_draw=bootstrap.draw,
            bootstrap_losses=losses,
        )


@dataclass(frozen=True)
class ErrorSumScoring:
    """How a run's scorers score copies from the sums of their squared
    errors (see :meth:`ScoringPlan.error_sum_scoring`): the scores of
    float64 predictions, as :meth:`ScoringPlan.score_blocks` gives them, bit
    for bit."""

    y: np.ndarray  # float64
    weights: dict  # whether weighted: the weights as float64, or None
    # Each scorer's name, sign, whether weighted and metric of the sums.
    scorers: tuple

    def scores(self, error_sums):
        """The scores of copies whose ``error_sums(weight)`` (each copy's
        ``sum(weight * (y - prediction) ** 2)``, no weight if None) are
        summed as ``vectorized_metrics.squared_error_sums`` sums them."""
        sums, scores = {}, {}
        for name, sign, weighted, metric in self.scorers:
            if weighted not in sums:
                sums[weighted] = error_sums(self.weights[weighted])
            scores[name] = sign * metric(sums[weighted])
        return scores


def _as_scores(values):
    """One scorer's scores as an array: integers kept (see `Baseline`), any
    other number as float64."""
    values = np.asarray(values)
    return values if values.dtype.kind in "iu" else values.astype(np.float64)


def _uncached_call(estimator, response_method, *args, **kwargs):
    return _cached_call(None, estimator, response_method, *args, **kwargs)


def derive_predict_from_proba(estimator):
    """Whether ``predict`` is exactly ``classes_.take(argmax(predict_proba))``.

    True for scikit-learn's forest classifiers (whose ``predict`` calls
    ``predict_proba`` and takes the argmax) with a single output, alone or as a
    Pipeline's final step. Then ``predict`` costs no second pass over the trees.
    """
    final = final_estimator(estimator)
    return (
        isinstance(final, ForestClassifier)
        and type(final).predict is ForestClassifier.predict
        and type(final).predict_proba is ForestClassifier.predict_proba
        and getattr(final, "n_outputs_", None) == 1
    )
