"""Permutation importance within subgroups of rows: each subgroup's rows
permuted and scored among themselves, scikit-learn's
``permutation_importance`` on that subgroup's rows, every subgroup in one run.

A subgroup's permuted copy of its rows is scikit-learn's: its own schedule
drawn from the run's int seed (schedule.schedule_of_seed), as scikit-learn
draws it on those rows. The subgroups' copies of one feature at one repeat
are rows of X apart, so they make one permuted copy of X: the run is a
:class:`PermutationRun` whose permutations stay within the subgroups (plan,
chunks, tree and linear shortcuts, memory budget, streaming, progress and
cancel unchanged), predicting each copy once for every subgroup, and whose
scorers score each subgroup's rows on their own (grouped_scoring.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.chunks import DEFAULT_MAX_MEMORY
from .._core.hints import (
    Algorithm,
    Cancel,
    Data,
    Estimator,
    FeatureGroups,
    RandomState,
    Scoring,
    Subgroups,
)
from .._core.row_groups import MIN_SUBGROUP_SIZE, check_min_size, row_groups
from .._core.signature import (
    adopt_parameters,
    bind_arguments,
    finish,
    streaming_arguments,
    streaming_signature,
)
from .grouped_scoring import GroupedScoringPlan
from .importance import PermutationRun
from .result import PermutationImportanceResult
from .schedule import schedule_of_seed
from .subgroup_result import SubgroupImportanceResult


class SubgroupRun(PermutationRun):
    """A :class:`PermutationRun` permuting and scoring each subgroup of rows
    on its own (see the module doc)."""

    def __init__(self, **arguments):
        subgroups = arguments.pop("subgroups")
        min_size = check_min_size(arguments.pop("min_size"))
        super().__init__(**arguments, n_bootstrap=None, confidence_level=0.95)
        self.groups = row_groups(subgroups, self.X.shape[0], self.X)
        self.min_size = min_size
        x_rows = [self.groups.rows(g) for g in range(len(self.groups.labels))]
        self.rows, self.permutations, copy_rows = _group_schedule(
            self._seed, x_rows, arguments["max_samples"], self.n_repeats
        )
        self.n_permuted = np.array([len(r) for r in copy_rows])
        self.plan = GroupedScoringPlan(
            self.estimator, arguments["scoring"], x_rows, copy_rows
        )

    def _check_baseline(self):
        """A subgroup whose score of X is NaN (r2 of one row, say) keeps NaN
        importances; only a scorer NaN in every subgroup is refused."""
        names = {name for _, name in self.baseline.scores}
        for name in names:
            scores = [v for (_, n), v in self.baseline.scores.items() if n == name]
            if np.isnan(scores).all():
                raise ValueError(
                    f"scoring: {name!r} scored the unpermuted rows of every "
                    "subgroup as NaN, so every importance would be NaN. Use a "
                    "scorer defined on these data, or larger subgroups."
                )

    def _split(self, result):
        """`result`, scored ``(subgroup, scorer)``, as one result a subgroup."""
        per_group = []
        for group in range(len(self.groups.labels)):
            keys = [key for key in result.scorer_names if key[0] == group]
            per_group.append(
                PermutationImportanceResult(
                    feature_names=result.feature_names,
                    feature_columns=result.feature_columns,
                    scorer_names=tuple(name for _, name in keys),
                    baseline_scores={k[1]: result.baseline_scores[k] for k in keys},
                    permuted_scores={k[1]: result.permuted_scores[k] for k in keys},
                    n_repeats=result.n_repeats,
                    multimetric=result.multimetric,
                    pending_features=result.pending_features,
                    algorithm=result.algorithm,
                )
            )
        return SubgroupImportanceResult(
            labels=self.groups.labels,
            sizes=self.groups.sizes.copy(),
            n_permuted=self.n_permuted.copy(),
            small=self.groups.sizes < self.min_size,
            min_size=self.min_size,
            results=tuple(per_group),
        )

    def __iter__(self):
        for result in super().__iter__():
            yield self._split(result)

    def empty_result(self):
        return self._split(super().empty_result())


def _group_max_samples(max_samples, n_rows):
    """A subgroup's `max_samples` rows: a float is its share of the
    subgroup's rows (at least one), as scikit-learn reads it on them; an
    int, at most the subgroup's rows."""
    if isinstance(max_samples, float):
        return max(1, int(max_samples * n_rows))
    return min(int(max_samples), n_rows)


def _group_schedule(seed, x_rows, max_samples, n_repeats):
    """The run's rows, permutations, and each subgroup's rows in a copy.

    Each subgroup's schedule is scikit-learn's on its rows from `seed`.
    Without a subsample the copies are X's rows, each subgroup's permuted
    among its own positions; with one, the copies hold each subgroup's
    drawn rows one subgroup after another (so a copy has fewer rows than X,
    which is how grouped_scoring tells a copy from X).
    """
    schedules = [
        schedule_of_seed(
            seed, len(rows), _group_max_samples(max_samples, len(rows)), n_repeats
        )
        for rows in x_rows
    ]
    n_rows = sum(len(rows) for rows in x_rows)
    if all(drawn is None for drawn, _ in schedules):
        permutations = [np.empty(n_rows, dtype=np.intp) for _ in range(n_repeats)]
        for rows, (_, group_permutations) in zip(x_rows, schedules, strict=True):
            for permutation, group_permutation in zip(
                permutations, group_permutations, strict=True
            ):
                permutation[rows] = rows[group_permutation]
        return None, permutations, x_rows
    drawn_rows = [
        rows if drawn is None else rows[drawn]
        for rows, (drawn, _) in zip(x_rows, schedules, strict=True)
    ]
    starts = np.cumsum([0] + [len(rows) for rows in drawn_rows])
    copy_rows = [np.arange(a, b) for a, b in zip(starts[:-1], starts[1:], strict=True)]
    permutations = [
        np.concatenate(
            [
                start + group_permutations[r]
                for start, (_, group_permutations) in zip(
                    starts[:-1], schedules, strict=True
                )
            ]
        )
        for r in range(n_repeats)
    ]
    return np.concatenate(drawn_rows), permutations, copy_rows


def iter_subgroup_permutation_importance(
    estimator: Estimator, X: Data, y: ArrayLike | None, **params: Any
) -> Iterator[SubgroupImportanceResult]:
    """Stream subgroup permutation importance, one repeat round at a time.

    Arguments are validated when this is called; the work happens as the
    returned iterator is consumed. Parameters are those of
    :func:`subgroup_permutation_importance` but `callback` and
    `return_result`.

    Yields
    ------
    result : SubgroupImportanceResult
        After each repeat round, every subgroup with the same repeats; the
        last one equals :func:`subgroup_permutation_importance`'s result. If
        `cancel` is set, the iterator stops after the chunk in flight; the
        last result yielded stays valid.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.linear_model import Ridge
    >>> from inspectwidgets import iter_subgroup_permutation_importance
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> model = Ridge(alpha=1e-2).fit(X, y)
    >>> sex = X["sex"].map(lambda s: "a" if s > 0 else "b")
    >>> rounds = list(
    ...     iter_subgroup_permutation_importance(
    ...         model, X, y, subgroups=sex, n_repeats=3, random_state=0
    ...     )
    ... )
    >>> [r.n_repeats_done for r in rounds]
    [1, 2, 3]
    """
    return iter(subgroup_run(estimator, X, y, **params))


def subgroup_run(estimator, X, y, **params):
    """The validated, not yet started :class:`SubgroupRun` of
    :func:`iter_subgroup_permutation_importance`'s arguments."""
    return SubgroupRun(**bind_arguments(RUN_SIGNATURE, (estimator, X, y), params))


def subgroup_permutation_importance(
    estimator: Estimator,
    X: Data,
    y: ArrayLike | None,
    *,
    subgroups: Subgroups,
    scoring: Scoring = None,
    n_repeats: int = 5,
    n_jobs: int | None = None,
    random_state: RandomState = None,
    sample_weight: ArrayLike | None = None,
    max_samples: int | float = 1.0,
    features: FeatureGroups = None,
    min_size: int = MIN_SUBGROUP_SIZE,
    max_memory: int = DEFAULT_MAX_MEMORY,
    algorithm: Algorithm = "auto",
    callback: Callable[[SubgroupImportanceResult], object] | None = None,
    cancel: Cancel | None = None,
    return_result: bool = False,
) -> SubgroupImportanceResult | dict[Any, Any]:
    """Permutation importance within each subgroup of rows: does a feature
    matter as much for every group?

    Each subgroup's rows are permuted and scored among themselves: its
    numbers are :func:`sklearn.inspection.permutation_importance`'s on that
    subgroup's rows alone, called with ``random_state=seed`` where seed is
    the one int drawn from `random_state` (an int `random_state` gives the
    same seed to every call: the same numbers as scikit-learn called on each
    subgroup with that `random_state`). All subgroups share one run: a
    permuted copy of X holds every subgroup's copy, is predicted once and
    scored per subgroup; chunks, memory budget, tree and linear shortcuts,
    streaming, progress and cancel are :func:`permutation_importance`'s.

    Parameters
    ----------
    estimator, X, y, scoring, n_repeats, n_jobs, sample_weight, features, \
max_memory, algorithm, callback, cancel
        As in :func:`permutation_importance`; `callback` sees a
        :class:`SubgroupImportanceResult`.
    subgroups : array-like of shape (n_samples,), or a column of X
        A label per row of X (strings, categories, nullable integers,
        bools, numbers), or the name of the column of X holding them (its
        position for an array X). Missing labels (NaN, None, ``pd.NA``)
        form a subgroup of their own, named "missing": no row is dropped.
    random_state : int, RandomState instance or None, default=None
        One int seed is drawn from it, as scikit-learn draws it; every
        subgroup's permutations come from that seed, as scikit-learn draws
        them on its rows.
    max_samples : int or float, default=1.0
        Rows permuted in each subgroup: a float is the share of each
        subgroup's rows (at least one), an int at most that many rows of
        each subgroup (all of a smaller one). Each subgroup's baseline is
        scored on all its rows, as in scikit-learn.
    min_size : int, default=30
        Subgroups of fewer rows are flagged ``small``: kept and computed,
        their importances an estimate from few rows. A subgroup whose
        score is undefined (r2 of a single row) has NaN importances.
    return_result : bool, default=False
        Return the :class:`SubgroupImportanceResult` instead of each
        subgroup's scikit-learn Bunch.

    Returns
    -------
    result : dict
        Keyed by subgroup label: what scikit-learn returns on that
        subgroup's rows (a Bunch, or a dict of Bunches for several
        scorers), plus ``size`` and ``small``.

    Examples
    --------
    A feature that matters in one group only:

    >>> import numpy as np
    >>> import pandas as pd
    >>> from sklearn.ensemble import RandomForestRegressor
    >>> from inspectwidgets import subgroup_permutation_importance
    >>> rng = np.random.default_rng(0)
    >>> X = pd.DataFrame({"x": rng.normal(size=600), "pro": rng.random(600) < 0.5})
    >>> y = np.where(X["pro"], X["x"], 0.0) + 0.1 * rng.normal(size=600)
    >>> model = RandomForestRegressor(n_estimators=20, random_state=0).fit(X, y)
    >>> r = subgroup_permutation_importance(
    ...     model, X, y, subgroups="pro", scoring="neg_mean_squared_error",
    ...     random_state=0, return_result=True)
    >>> r.labels, r.sizes.tolist()
    ((False, True), [299, 301])
    >>> r.importances_mean().round(2)  # subgroups x features (x, pro)
    array([[0.01, 0.  ],
           [1.88, 0.  ]])
    """
    arguments = locals()  # the first statement: exactly the parameters
    run = SubgroupRun(**streaming_arguments(arguments))
    run.watched = callback is not None
    return finish(run, run, callback, return_result)


RUN_SIGNATURE = streaming_signature(subgroup_permutation_importance)
adopt_parameters(iter_subgroup_permutation_importance, RUN_SIGNATURE)
adopt_parameters(subgroup_run, RUN_SIGNATURE)
