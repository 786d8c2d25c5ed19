"""Breiman's out-of-bag permutation importance for bagged ensembles."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import is_classifier
from sklearn.utils import Bunch, check_array, check_random_state

from .._core.batching import ArrayBatcher
from .._core.budget import x_bytes
from .._core.chunks import DEFAULT_MAX_MEMORY, ChunkSchedule
from .._core.columns import resolve_features
from .._core.compat import BaseBagging, BaseForest
from .._core.hints import (
    Data,
    Estimator,
    FeatureGroups,
    RandomState,
    Scoring,
    TreeAlgorithm,
)
from .._core.parallel import ChunkRunner
from .._core.predictions import call_model
from .._core.validation import (
    check_algorithm,
    check_fitted,
    check_max_memory,
    check_n_repeats,
    check_random_state_argument,
    check_sample_weight,
    check_target,
    check_X,
    check_y,
)
from .._shortcuts import choose_shortcut
from .footprint import check_run_size
from .schedule import permutation_schedule
from .scoring import ScoringPlan


def _check_ensemble(ensemble):
    check_fitted(ensemble)
    if not isinstance(ensemble, (BaseForest, BaseBagging)):
        raise TypeError(
            "forest must be a bagged ensemble fitted with bootstrap "
            "(RandomForest*, ExtraTrees* or Bagging*); got "
            f"{type(ensemble).__name__}. For other models use "
            "permutation_importance on held-out data."
        )
    if not getattr(ensemble, "bootstrap", False):
        raise ValueError(
            f"forest: {type(ensemble).__name__} was fitted with bootstrap=False, so "
            "every member saw every row and there are no out-of-bag rows. Refit "
            "it with bootstrap=True, or use permutation_importance on held-out data."
        )


class _Member:
    """One fitted member of the ensemble, answering in the ensemble's terms.

    Members of classifiers are fitted on encoded labels (0..K-1) and, for
    Bagging, may have seen only some classes and some columns; outputs are
    mapped back to the ensemble's classes and columns.
    """

    def __init__(self, ensemble, index):
        self.ensemble = ensemble
        self.estimator = ensemble.estimators_[index]
        features = getattr(ensemble, "estimators_features_", None)
        self.columns = None if features is None else features[index]

    @property
    def own_method(self):
        """The member's method its outputs are made from."""
        if is_classifier(self.ensemble) and hasattr(self.estimator, "predict_proba"):
            return "predict_proba"
        return "predict"

    def outputs(self, X, methods):
        if self.columns is not None:
            X = X[:, self.columns]
        return self.outputs_from(
            call_model(self.estimator, self.own_method, X), methods
        )

    def outputs_from(self, own, methods):
        """The ensemble's outputs from the member's `own_method` output."""
        if not is_classifier(self.ensemble):
            return {"predict": own}
        classes = self.ensemble.classes_
        if self.own_method == "predict":
            return {"predict": classes.take(own.astype(int))}
        proba = np.zeros((own.shape[0], len(classes)))
        proba[:, self.estimator.classes_.astype(int)] = own
        outputs = {
            "predict_proba": proba,
            "predict": classes.take(np.argmax(proba, axis=1)),
        }
        if "predict_log_proba" in methods:
            with np.errstate(divide="ignore"):
                outputs["predict_log_proba"] = np.log(proba)
        return outputs


def oob_permutation_importance(
    forest: Estimator,
    X: Data,
    y: ArrayLike,
    *,
    scoring: Scoring = None,
    n_repeats: int = 5,
    n_jobs: int | None = None,
    random_state: RandomState = None,
    sample_weight: ArrayLike | None = None,
    features: FeatureGroups = None,
    max_memory: int = DEFAULT_MAX_MEMORY,
    algorithm: TreeAlgorithm = "auto",
) -> Bunch | dict[str, Bunch]:
    """Breiman's out-of-bag permutation importance.

    Each member of a bagged ensemble is scored on the rows it did not see in
    training (its out-of-bag rows), then again with a feature permuted among
    those rows; a feature's importance is the drop in score averaged over the
    members. No held-out set is needed, and every member is judged only on
    data it was not fitted to.

    Parameters
    ----------
    forest : fitted RandomForest*, ExtraTrees* or Bagging* with bootstrap=True
    X : array-like or DataFrame of shape (n_samples, n_features)
        The training data, in the order used for ``fit`` (out-of-bag rows are
        identified by position).
    y : array-like of shape (n_samples,)
        The training targets.
    scoring : str, list, tuple, set, dict or None, default=None
        Scorers built from predictions (names or ``make_scorer`` objects).
        None uses accuracy for classifiers and R² for regressors, as the
        ensemble's ``score`` does.
    n_repeats : int, default=5
        Permutations per feature and member.
    n_jobs : int, default=None
        Threads scoring members in parallel. Results do not depend on it.
    random_state : int, RandomState instance or None, default=None
        Member `t`'s permutations come from the t-th int drawn from it.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights used in scoring.
    features : list or dict, default=None
        Columns or groups to permute, as in :func:`permutation_importance`.
    max_memory : int, default=64 MiB
        Bytes of permuted copies held at once per member.
    algorithm : {"auto", "tree", "generic"}, default="auto"
        As in :func:`permutation_importance`: forests' trees take the exact
        tree shortcut on their out-of-bag rows; Bagging's members (which may
        see only some columns) are predicted.

    Returns
    -------
    result : Bunch or dict of Bunch
        ``importances`` (n_features, n_repeats): the drop in score averaged
        over members, per repeat; ``importances_mean`` and ``importances_std``
        over repeats; ``member_importances`` (n_members, n_features): each
        member's mean drop; ``baseline_score``: members' mean out-of-bag
        score; ``feature_names``. A dict keyed by scorer for several scorers.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.ensemble import RandomForestRegressor
    >>> from inspectwidgets import oob_permutation_importance
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> forest = RandomForestRegressor(n_estimators=20, max_depth=4, random_state=0)
    >>> forest = forest.fit(X, y)
    >>> r = oob_permutation_importance(forest, X, y, n_repeats=3, random_state=0)
    >>> r.importances.shape, r.member_importances.shape
    ((10, 3), (20, 10))
    >>> str(r.feature_names[r.importances_mean.argmax()])
    'bmi'
    """
    arguments = locals()  # the first statement: exactly the parameters
    # The last yield holds every member.
    return deque(OobRun(**arguments), maxlen=1)[0].returned()


class OobRun:
    """One validated out-of-bag computation, ready to stream.

    Construction validates every argument (the parameters of
    :func:`oob_permutation_importance`) and draws the members' seeds;
    iterating scores the members (in parallel with `n_jobs`) and yields a
    :class:`MembersDone` after each. Setting `cancel` (an Event) stops it
    after the members in flight.
    """

    def __init__(self, **a):
        forest = a["forest"]
        _check_ensemble(forest)
        # Forests fit and predict their trees on float32, as they do themselves.
        dtype = np.float32 if isinstance(forest, BaseForest) else None
        X = check_X(a["X"])
        labels, columns = resolve_features(X, a["features"])
        X = check_array(X, dtype=dtype, ensure_all_finite=False)
        n_samples = X.shape[0]
        if n_samples != forest._n_samples:
            raise ValueError(
                f"X has {n_samples} rows but the forest was fitted on "
                f"{forest._n_samples}; pass the training data in its original order."
            )
        y = np.asarray(check_target(forest, check_y(a["y"], n_samples)))
        sample_weight = check_sample_weight(a["sample_weight"], n_samples)
        max_memory = check_max_memory(a["max_memory"])
        n_repeats = check_run_size(
            check_n_repeats(a["n_repeats"]), n_samples, len(columns),
            max_memory=max_memory, x_bytes=x_bytes(X),
        )  # fmt: skip
        algorithm = check_algorithm(a["algorithm"])
        self.plan = _check_oob_scoring(ScoringPlan(forest, a["scoring"]))
        random_state = check_random_state_argument(
            a["random_state"], "oob_permutation_importance"
        )
        seeds = check_random_state(random_state).randint(
            np.iinfo(np.int32).max + 1, size=len(forest.estimators_)
        )
        self.runner = ChunkRunner(a["n_jobs"])
        self.members = _Members(
            forest, self.plan, X, y, sample_weight, seeds, n_repeats, columns,
            # Each worker's share of the memory budget.
            max_memory // self.runner.n_workers, algorithm,
        )  # fmt: skip
        self.labels, self.columns = labels, columns
        self.n_members = len(forest.estimators_)
        self.cancel = None

    def __iter__(self):
        # One member per chunk, on threads or a remote joblib backend's
        # workers; kept in member order.
        scored = [None] * self.n_members
        cancelled = lambda: self.cancel is not None and self.cancel.is_set()  # noqa: E731
        for finished, (start, _, drops) in enumerate(
            self.runner.run(
                ChunkSchedule(self.n_members, 1, 1),
                _score_members,
                self.members,
                cancelled,
            ),
            start=1,
        ):
            scored[start] = drops[0]
            members = [m for m in scored if m]
            if members:
                yield self._done(members, finished)
            elif finished == self.n_members:
                raise ValueError("forest: no member has out-of-bag rows to score.")

    def _done(self, members, finished):
        bunches = _summarize(members, self.labels)
        return MembersDone(
            bunches=bunches,
            names=tuple(bunches),
            multimetric=self.plan.multimetric,
            feature_columns=tuple(tuple(c) for c in self.columns),
            n_done=finished,
            n_members=self.n_members,
        )


@dataclass(frozen=True)
class MembersDone:
    """The members of an :class:`OobRun` scored so far, summarized per
    scorer as :func:`oob_permutation_importance` returns them."""

    bunches: dict
    names: tuple
    multimetric: bool
    feature_columns: tuple
    n_done: int
    n_members: int

    def returned(self):
        """What the one-shot function returns: a Bunch, or a dict of them
        keyed by scorer for several scorers."""
        return self.bunches if self.multimetric else self.bunches[self.names[0]]


@dataclass
class _Members:
    """What scoring every member reads (shipped once to remote workers)."""

    forest: object
    plan: ScoringPlan
    X: np.ndarray
    y: np.ndarray
    sample_weight: object
    seeds: np.ndarray
    n_repeats: int
    columns: list
    budget: int
    algorithm: str


def _score_members(c, start, stop):
    """Members ``start:stop``'s drops (None for a member without two
    out-of-bag rows)."""
    return [_score_member(c, index) for index in range(start, stop)]


def _score_member(c, index):
    n_samples = c.X.shape[0]
    oob = np.setdiff1d(np.arange(n_samples), c.forest.estimators_samples_[index])
    if oob.size < 2:
        return None
    weight = None if c.sample_weight is None else c.sample_weight[oob]
    _, permutations = permutation_schedule(
        c.seeds[index], oob.size, oob.size, c.n_repeats
    )
    return _member_drops(
        _Member(c.forest, index), c.plan, c.X[oob], c.y[oob], weight,
        permutations, c.columns, c.budget, c.algorithm,
    )  # fmt: skip


def _check_oob_scoring(plan):
    if not plan.all_replayable:
        raise ValueError(
            "scoring: out-of-bag importance scores each member from its "
            "predictions, so scorers must be names or make_scorer objects, "
            "not arbitrary callables."
        )
    if "decision_function" in plan.response_methods:
        raise ValueError(
            "scoring: scorers that need decision_function are not supported "
            "for out-of-bag importance; use one built on predict_proba."
        )
    return plan


def _member_drops(
    member, plan, X_oob, y_oob, weight, permutations, columns, budget, algorithm
):
    """One member's out-of-bag baseline and drops in score, per scorer:
    ``{name: (baseline, drops of shape (n_features, n_repeats))}``."""
    baseline = plan.score_blocks(
        member.outputs(X_oob, plan.response_methods),
        1,
        y_oob,
        weight,
        None,
        vectorize=False,
    )
    n_repeats = len(permutations)
    jobs = [(r, f) for r in range(n_repeats) for f in range(len(columns))]
    batcher = ArrayBatcher(X_oob)
    own = member.own_method
    shortcut = choose_shortcut(
        algorithm,
        member.estimator,
        X_oob,
        [own],
        obstacle=None if member.columns is None else "a member sees some columns",
        paths=("tree",),
    )
    per_copy = batcher.bytes_per_copy
    if shortcut is not None:
        per_copy = shortcut.model.bytes_per_copy(len(X_oob), max(map(len, columns)))
    per_chunk = max(1, int(budget // per_copy))
    drops = {name: np.empty((len(columns), n_repeats)) for name in baseline}
    for start in range(0, len(jobs), per_chunk):
        chunk = jobs[start : start + per_chunk]
        copies = [(permutations[r], columns[f]) for r, f in chunk]
        if shortcut is not None:
            trees, rows, _ = shortcut
            outputs = member.outputs_from(
                trees.predict(rows, copies, [own])[own], plan.response_methods
            )
        else:
            outputs = member.outputs(batcher.build(copies), plan.response_methods)
        scores = plan.score_blocks(
            outputs,
            len(chunk),
            y_oob,
            weight,
            None,
        )
        for name, values in scores.items():
            for (r, f), value in zip(chunk, values, strict=True):
                drops[name][f, r] = baseline[name][0] - value
    return {name: (baseline[name][0], drops[name]) for name in baseline}


def _summarize(members, labels):
    """Members' drops averaged into one Bunch per scorer."""
    bunches = {}
    for name in members[0]:
        baselines = np.array([m[name][0] for m in members])
        drops = np.stack([m[name][1] for m in members])
        importances = drops.mean(axis=0)
        bunches[name] = Bunch(
            importances=importances,
            importances_mean=importances.mean(axis=1),
            importances_std=importances.std(axis=1),
            member_importances=drops.mean(axis=2),
            baseline_score=float(baselines.mean()),
            feature_names=np.asarray(labels, dtype=object),
        )
    return bunches
