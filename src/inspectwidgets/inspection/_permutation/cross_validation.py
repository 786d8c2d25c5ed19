"""Cross-validated permutation importance: refit per fold, permute held-out rows."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import clone, is_classifier
from sklearn.model_selection import check_cv
from sklearn.utils import Bunch, check_random_state

from .._core.chunks import DEFAULT_MAX_MEMORY, ChunkSchedule
from .._core.columns import resolve_features
from .._core.compat import _safe_indexing
from .._core.hints import (
    Algorithm,
    CrossValidator,
    Data,
    Estimator,
    FeatureGroups,
    RandomState,
    Scoring,
)
from .._core.parallel import ChunkRunner
from .._core.predictions import call_model
from .._core.validation import (
    check_max_samples,
    check_n_repeats,
    check_random_state_argument,
    check_sample_weight,
    check_target,
    check_X,
    check_y,
)
from .importance import permutation_importance
from .scoring import ScoringPlan

Z_95 = 1.96


@dataclass
class _Folds:
    """What every fold reads (shipped once to remote workers)."""

    estimator: object
    X: object
    y: object
    splits: list
    seeds: np.ndarray
    sample_weight: object
    fit_params: dict
    kwargs: dict


def _fit_and_permute_folds(c, start, stop):
    return [
        _fit_and_permute(
            c.estimator,
            c.X,
            c.y,
            *c.splits[k],
            c.sample_weight,
            c.fit_params,
            c.seeds[k],
            c.kwargs,
        )  # fmt: skip
        for k in range(start, stop)
    ]


def _fit_and_permute(
    estimator, X, y, train, test, sample_weight, fit_params, seed, kwargs
):
    fitted = call_model(
        clone(estimator),
        "fit",
        _safe_indexing(X, train),
        _safe_indexing(y, train),
        data="a training fold of X and y",
        **_index_params(fit_params, train, X.shape[0]),
    )
    weight = None if sample_weight is None else sample_weight[test]
    result = permutation_importance(
        fitted,
        _safe_indexing(X, test),
        _safe_indexing(y, test),
        sample_weight=weight,
        random_state=seed,
        return_result=True,
        **kwargs,
    )
    return fitted, result


def _index_params(fit_params, rows, n_samples):
    """Rows of every per-sample fit parameter; other parameters unchanged."""
    return {
        key: _safe_indexing(value, rows) if _is_per_sample(value, n_samples) else value
        for key, value in fit_params.items()
    }


def _is_per_sample(value, n_samples):
    return (
        hasattr(value, "__len__")
        and not isinstance(value, (str, dict))
        and len(value) == n_samples
    )


def cross_val_permutation_importance(
    estimator: Estimator,
    X: Data,
    y: ArrayLike,
    *,
    cv: int | CrossValidator | Iterable[tuple[ArrayLike, ArrayLike]] = 5,
    groups: ArrayLike | None = None,
    scoring: Scoring = None,
    n_repeats: int = 5,
    n_jobs: int | None = None,
    random_state: RandomState = None,
    sample_weight: ArrayLike | None = None,
    max_samples: int | float = 1.0,
    features: FeatureGroups = None,
    fit_params: dict[str, Any] | None = None,
    max_memory: int = DEFAULT_MAX_MEMORY,
    algorithm: Algorithm = "auto",
    return_estimator: bool = False,
) -> Bunch | dict[str, Bunch]:
    """Permutation importance on the held-out fold of each cross-validation split.

    For every split a clone of `estimator` is fitted on the training rows and
    its permutation importance computed on the held-out rows. This measures
    what each feature contributes to generalization, averaged over fits,
    rather than what one fitted model relies on.

    Parameters
    ----------
    estimator : estimator object
        Unfitted (or fitted: it is cloned) estimator.
    X : ndarray or DataFrame of shape (n_samples, n_features)
    y : array-like of shape (n_samples,) or (n_samples, n_outputs)
    cv : int, cross-validation generator or iterable, default=5
        As in :func:`sklearn.model_selection.cross_validate`; an int gives
        (Stratified)KFold.
    groups : array-like of shape (n_samples,), default=None
        Group labels for group-aware splitters such as GroupKFold.
    scoring, n_repeats, max_samples, features, max_memory, algorithm
        As in :func:`permutation_importance`.
    n_jobs : int, default=None
        Folds fitted and permuted in parallel (threads, or the workers of a
        remote joblib backend such as dask; docs/large_data.md). Results do
        not depend on it.
    random_state : int, RandomState instance or None, default=None
        Seeds the permutations; fold `k` gets the k-th int drawn from it.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights used in scoring the held-out rows.
    fit_params : dict, default=None
        Passed to ``fit``; per-sample arrays are split with the folds.
    return_estimator : bool, default=False
        Also return the fitted estimator of each fold.

    Returns
    -------
    result : Bunch or dict of Bunch
        For each scorer (a dict keyed by scorer name for several scorers):

        importances : ndarray of shape (n_features, n_splits)
            Mean importance over repeats, per fold.
        importances_mean, importances_std : ndarray of shape (n_features,)
            Mean and standard deviation of `importances` across folds.
        ci_low, ci_high : ndarray of shape (n_features,)
            ``importances_mean -/+ 1.96 * importances_std``: the range holding
            about 95 % of fold importances if they are normally distributed. A
            spread of the folds, not a confidence interval of the mean.
        fold_importances : ndarray of shape (n_splits, n_features, n_repeats)
            Every fold's raw importances.
        baseline_scores : ndarray of shape (n_splits,)
            Each fold's score on its unpermuted held-out rows.
        feature_names : ndarray of str
            The features' (or groups') names, in the order of the rows.
        estimators : list of estimators
            With ``return_estimator=True``: the estimator fitted on each fold.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn.model_selection import KFold
    >>> from inspectwidgets import cross_val_permutation_importance
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> r = cross_val_permutation_importance(
    ...     Ridge(alpha=1e-2), X, y, cv=KFold(3), n_repeats=5, random_state=0
    ... )
    >>> r.importances.shape, r.fold_importances.shape
    ((10, 3), (3, 10, 5))
    >>> bool((r.ci_low <= r.importances_mean).all())
    True
    >>> str(r.feature_names[r.importances_mean.argmax()])
    's5'
    """
    arguments = locals()  # the first statement: exactly the parameters
    # The last yield holds every fold.
    return deque(CrossValRun(**arguments), maxlen=1)[0].returned()


class CrossValRun:
    """One validated cross-validated computation, ready to stream.

    Construction validates every argument (the parameters of
    :func:`cross_val_permutation_importance`), splits the rows and draws the
    folds' seeds; iterating fits and permutes the folds (in parallel with
    `n_jobs`) and yields a :class:`FoldsDone` after each fold. Setting
    `cancel` (an Event) stops it after the folds in flight; the last
    :class:`FoldsDone` stays valid for the folds it holds.
    """

    def __init__(self, **a):
        estimator, X, y = a["estimator"], a["X"], a["y"]
        if not hasattr(estimator, "fit"):
            raise TypeError(
                "estimator must be a scikit-learn estimator; "
                f"got {type(estimator).__name__}."
            )
        X = check_X(X)
        n_samples = X.shape[0]
        y = check_target(estimator, check_y(y, n_samples))
        sample_weight = check_sample_weight(a["sample_weight"], n_samples)
        check_n_repeats(a["n_repeats"])
        check_max_samples(a["max_samples"], n_samples)
        resolve_features(X, a["features"])
        ScoringPlan(estimator, a["scoring"])  # scorer errors before any fit
        fit_params = dict(a["fit_params"] or {})

        splitter = check_cv(a["cv"], y, classifier=is_classifier(estimator))
        splits = list(splitter.split(X, y, a["groups"]))
        random_state = check_random_state_argument(
            a["random_state"], "cross_val_permutation_importance"
        )
        seeds = check_random_state(random_state).randint(
            np.iinfo(np.int32).max + 1, size=len(splits)
        )
        kwargs = {
            key: a[key]
            for key in (
                "scoring",
                "n_repeats",
                "max_samples",
                "features",
                "max_memory",
                "algorithm",
            )
        }
        self.folds = _Folds(
            estimator, X, y, splits, seeds, sample_weight, fit_params, kwargs
        )
        self.n_splits = len(splits)
        self.n_jobs = a["n_jobs"]
        self.return_estimator = a["return_estimator"]
        self.cancel = None

    def __iter__(self):
        # One fold per chunk, on threads or a remote joblib backend's workers.
        fits = [None] * self.n_splits
        cancelled = lambda: self.cancel is not None and self.cancel.is_set()  # noqa: E731
        for start, _, done in ChunkRunner(self.n_jobs).run(
            ChunkSchedule(self.n_splits, 1, 1),
            _fit_and_permute_folds,
            self.folds,
            cancelled,
        ):
            fits[start] = done[0]
            yield self._done([f for f in fits if f is not None])

    def _done(self, fits):
        estimators = [fitted for fitted, _ in fits]
        results = [result for _, result in fits]
        first = results[0]
        bunches = {
            name: _summarize(
                [r.importances(name) for r in results],
                [r.baseline_scores[name] for r in results],
                first.feature_names,
            )
            for name in first.scorer_names
        }
        if self.return_estimator:
            for bunch in bunches.values():
                bunch.estimators = estimators
        return FoldsDone(
            bunches=bunches,
            names=first.scorer_names,
            multimetric=first.multimetric,
            feature_columns=first.feature_columns,
            n_done=len(fits),
            n_splits=self.n_splits,
        )


@dataclass(frozen=True)
class FoldsDone:
    """The folds of a :class:`CrossValRun` done so far (in fold
    order), summarized per scorer as
    :func:`cross_val_permutation_importance` returns them."""

    bunches: dict
    names: tuple
    multimetric: bool
    feature_columns: tuple
    n_done: int
    n_splits: int

    def returned(self):
        """What the one-shot function returns: a Bunch, or a dict of them
        keyed by scorer for several scorers."""
        return self.bunches if self.multimetric else self.bunches[self.names[0]]


def _summarize(fold_importances, baseline_scores, feature_names):
    fold_importances = np.stack(fold_importances)
    per_fold = fold_importances.mean(axis=2).T
    mean = per_fold.mean(axis=1)
    std = per_fold.std(axis=1)
    return Bunch(
        importances=per_fold,
        importances_mean=mean,
        importances_std=std,
        ci_low=mean - Z_95 * std,
        ci_high=mean + Z_95 * std,
        fold_importances=fold_importances,
        baseline_scores=np.asarray(baseline_scores),
        feature_names=np.asarray(feature_names, dtype=object),
    )
