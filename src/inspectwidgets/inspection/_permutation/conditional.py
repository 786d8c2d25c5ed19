"""Conditional permutation importance: each feature permuted within subgroups
of rows alike in the features that predict it (Molnar et al. 2023, cs-PFI).

A conditional copy of X is still a permuted copy of X; only the permutation
differs: the repeat's permutation restricted to each subgroup
(schedule.within_subgroups). So the run is a :class:`PermutationRun` (plan,
chunks, tree shortcut, memory budget, streaming, cancel and held-out
resamples unchanged) whose chunks read the subgroups (chunks._permutation).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn.utils import Bunch

from .._core.chunks import DEFAULT_MAX_MEMORY
from .._core.columns import column_names
from .._core.compat import _safe_indexing
from .._core.hints import (
    Algorithm,
    Cancel,
    Data,
    Estimator,
    FeatureGroups,
    RandomState,
    Scoring,
)
from .._core.signature import (
    adopt_parameters,
    bind_arguments,
    finish,
    streaming_arguments,
    streaming_signature,
)
from .._core.validation import check_X, quoted
from .importance import PermutationRun
from .result import PermutationImportanceResult
from .subgroups import SubgroupSettings, fit_subgroups, subgroups_of

_OWN = ("max_depth", "min_samples_leaf", "alpha", "X_fit", "max_fit_samples")
# The key of the subsample of X_fit's stream, beside the run's seed (the
# held-out resamples use 37): the permutations drawn from the seed unchanged.
_FIT_SAMPLE_KEY = 35


class ConditionalRun(PermutationRun):
    """A :class:`PermutationRun` permuting each feature within its subgroups,
    fitted as the run is constructed (subgroups.py)."""

    def __init__(self, **arguments):
        own = {name: arguments.pop(name) for name in _OWN}
        super().__init__(**arguments)
        settings = _check_settings(
            own["max_depth"], own["min_samples_leaf"], own["alpha"]
        )
        X_fit = _fit_rows(
            _check_X_fit(own["X_fit"], self.X),
            _check_max_fit_samples(own["max_fit_samples"]),
            self._seed,
        )
        names = (
            [str(c) for c in self.X.columns]
            if hasattr(self.X, "columns")
            else column_names(self.X)
        )
        # The trees take the run's int seed, the one scikit-learn's draws
        # come from (schedule.draw_seed), as does X_fit's subsample (its own
        # stream): nothing more is drawn from random_state.
        fitted = fit_subgroups(
            self.X,
            X_fit,
            names,
            self.feature_columns,
            settings,
            self._seed,
            n_threads=1 if self.runner.remote else self.runner.n_workers,
        )
        orders, self.subgroups = [], {}
        for name, feature in zip(self.feature_names, fitted, strict=True):
            codes = feature.codes if self.rows is None else feature.codes[self.rows]
            self.subgroups[name] = subgroups_of(feature, codes)
            single = len(self.subgroups[name]) == 1
            orders.append(None if single else (codes, np.argsort(codes, kind="stable")))
        self.subgroup_orders = tuple(orders)

    def _with_subgroups(self, result):
        return replace(
            result,
            subgroups={name: self.subgroups[name] for name in result.feature_names},
        )

    def __iter__(self):
        for result in super().__iter__():
            yield self._with_subgroups(result)

    def empty_result(self):
        return self._with_subgroups(super().empty_result())


def _check_settings(max_depth, min_samples_leaf, alpha):
    """The subgroup trees' knobs, checked, with messages naming them."""
    if max_depth is not None and (
        not isinstance(max_depth, numbers.Integral)
        or isinstance(max_depth, bool)
        or max_depth < 1
    ):
        raise ValueError(
            f"max_depth must be an int >= 1 or None; got {quoted(max_depth)}."
        )
    integral = isinstance(min_samples_leaf, numbers.Integral) and not isinstance(
        min_samples_leaf, bool
    )
    fraction = isinstance(min_samples_leaf, numbers.Real) and not integral
    if not (
        (integral and min_samples_leaf >= 1) or (fraction and 0 < min_samples_leaf < 1)
    ):
        raise ValueError(
            "min_samples_leaf must be an int >= 1 or a float in (0, 1); got "
            f"{quoted(min_samples_leaf)}."
        )
    if (
        not isinstance(alpha, numbers.Real)
        or isinstance(alpha, bool)
        or not 0 <= alpha <= 1
    ):
        raise ValueError(f"alpha must be a float in [0, 1]; got {quoted(alpha)}.")
    return SubgroupSettings(
        None if max_depth is None else int(max_depth),
        int(min_samples_leaf) if integral else float(min_samples_leaf),
        float(alpha),
    )


def _check_max_fit_samples(max_fit_samples):
    if max_fit_samples is None:
        return None
    if (
        not isinstance(max_fit_samples, numbers.Integral)
        or isinstance(max_fit_samples, bool)
        or max_fit_samples < 2
    ):
        raise ValueError(
            "max_fit_samples must be an int >= 2 or None; got "
            f"{quoted(max_fit_samples)}."
        )
    return int(max_fit_samples)


def _fit_rows(X_fit, max_fit_samples, seed):
    """X_fit, or `max_fit_samples` of its rows drawn without replacement
    (in X_fit's order) from the seed's own stream for them."""
    n_rows = X_fit.shape[0]
    if max_fit_samples is None or n_rows <= max_fit_samples:
        return X_fit
    rng = np.random.default_rng([seed, _FIT_SAMPLE_KEY])
    rows = np.sort(rng.choice(n_rows, size=max_fit_samples, replace=False))
    return _safe_indexing(X_fit, rows, axis=0)


def _check_X_fit(X_fit, X):
    """X_fit (default X) with X's columns."""
    if X_fit is None:
        return X
    X_fit = check_X(X_fit)
    if X_fit.shape[1] != X.shape[1]:
        raise ValueError(
            f"X_fit has {X_fit.shape[1]} columns; it needs X's {X.shape[1]}."
        )
    if hasattr(X, "columns") and (
        not hasattr(X_fit, "columns") or list(X_fit.columns) != list(X.columns)
    ):
        raise ValueError(
            "X_fit must be a DataFrame with X's columns, in X's order; got "
            f"{type(X_fit).__name__}"
            + (f" with {list(X_fit.columns)[:12]}" if hasattr(X_fit, "columns") else "")
            + "."
        )
    if X_fit.shape[0] < 2:
        raise ValueError(f"X_fit needs at least 2 rows; got {X_fit.shape[0]}.")
    return X_fit


def iter_conditional_permutation_importance(
    estimator: Estimator, X: Data, y: ArrayLike | None, **params: Any
) -> Iterator[PermutationImportanceResult]:
    """Stream conditional permutation importance, one repeat round at a time.

    Arguments are validated, and the subgroups fitted, when this is called;
    the work happens as the returned iterator is consumed. Parameters are
    those of :func:`conditional_permutation_importance` but `callback` and
    `return_result`.

    Yields
    ------
    result : PermutationImportanceResult
        After each repeat round, with its ``subgroups``; the last one equals
        :func:`conditional_permutation_importance`'s result. If `cancel` is
        set, the iterator stops after the chunk in flight; the last result
        yielded stays valid.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.linear_model import Ridge
    >>> from inspectwidgets import iter_conditional_permutation_importance
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> model = Ridge(alpha=1e-2).fit(X, y)
    >>> rounds = list(
    ...     iter_conditional_permutation_importance(
    ...         model, X, y, n_repeats=3, random_state=0
    ...     )
    ... )
    >>> [r.n_repeats_done for r in rounds]
    [1, 2, 3]
    """
    return iter(conditional_run(estimator, X, y, **params))


def conditional_run(estimator, X, y, **params):
    """The validated, not yet started :class:`ConditionalRun` of
    :func:`iter_conditional_permutation_importance`'s arguments."""
    return ConditionalRun(**bind_arguments(RUN_SIGNATURE, (estimator, X, y), params))


def conditional_permutation_importance(
    estimator: Estimator,
    X: Data,
    y: ArrayLike | None,
    *,
    scoring: Scoring = None,
    n_repeats: int = 5,
    n_jobs: int | None = None,
    random_state: RandomState = None,
    sample_weight: ArrayLike | None = None,
    max_samples: int | float = 1.0,
    features: FeatureGroups = None,
    max_depth: int | None = 4,
    min_samples_leaf: int | float = 30,
    alpha: float = 0.05,
    X_fit: Data | None = None,
    max_fit_samples: int | None = 5_000,
    max_memory: int = DEFAULT_MAX_MEMORY,
    algorithm: Algorithm = "auto",
    n_bootstrap: int | None = None,
    confidence_level: float = 0.95,
    callback: Callable[[PermutationImportanceResult], object] | None = None,
    cancel: Cancel | None = None,
    return_result: bool = False,
) -> PermutationImportanceResult | Bunch | dict[str, Bunch]:
    """Conditional permutation importance: what a feature adds beyond the
    features that predict it (cs-PFI, Molnar et al. 2023).

    For each feature (or group), a shallow decision tree is fitted on the
    other features of `X_fit` to predict it; its leaves are the feature's
    subgroups, and the feature is permuted only among the rows of X in the
    same subgroup. Permuted rows thus stay realistic where features are
    correlated, and the importance is the loss of score when the feature's
    information beyond its correlated partners is destroyed. See
    docs/conditional_importance.md for the method, what it measures beside
    :func:`permutation_importance`, and its draws.

    Parameters
    ----------
    estimator, X, y, scoring, n_repeats, n_jobs, sample_weight, \
max_samples, features, max_memory, algorithm, n_bootstrap, confidence_level, \
callback, cancel, return_result
        As in :func:`permutation_importance`.
    random_state : int, RandomState instance or None, default=None
        One int seed is drawn from it, as scikit-learn draws it; the repeats'
        permutations are scikit-learn's from that seed, each restricted to
        the feature's subgroups, and every subgroup tree is fitted with
        ``random_state=seed``. Only where `X_fit` has more than
        `max_fit_samples` rows are they drawn, from a stream of their own
        (``numpy.random.default_rng([seed, 35])``).
    max_depth : int or None, default=4
        Depth of the subgroup trees: at most ``2**max_depth`` subgroups.
    min_samples_leaf : int or float, default=30
        Fewest rows of `X_fit` in a subgroup (a float: that share of them),
        the minimum leaf of the paper's reference code.
    alpha : float in [0, 1], default=0.05
        A split is kept only where the feature differs between its two sides
        at this level, Bonferroni-adjusted for the splits the tree chose
        among (ctree's ``mincriterion = 1 - alpha``); 1 keeps every split.
    X_fit : ndarray or DataFrame with X's columns, default=None
        Rows the subgroup trees are fitted on (the training data, say);
        None: X.
    max_fit_samples : int >= 2 or None, default=5_000
        The trees are fitted on at most this many rows of `X_fit`, drawn
        without replacement (a CART tree costs ``n log n`` per level and
        column; 5,000 rows give each of at most 16 subgroups hundreds of
        rows to place its boundaries); None: every row.

    Returns
    -------
    result : Bunch or dict of Bunch
        As :func:`permutation_importance`'s, plus ``subgroups``: for each
        feature, a tuple of :class:`Subgroup` (``rule``: its conditions on
        the other features, readable; ``size``: its rows in X).

    Examples
    --------
    Two nearly equal features: each adds little beyond the other, so their
    conditional importances fall well below their marginal ones.

    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from inspectwidgets import (
    ...     conditional_permutation_importance, permutation_importance)
    >>> rng = np.random.default_rng(0)
    >>> x1 = rng.normal(size=1000)
    >>> X = np.column_stack([x1, x1 + 0.1 * rng.normal(size=1000),
    ...                      rng.normal(size=1000)])
    >>> y = X[:, 0] + X[:, 1] + X[:, 2]
    >>> model = LinearRegression().fit(X, y)
    >>> marginal = permutation_importance(model, X, y, random_state=0)
    >>> conditional = conditional_permutation_importance(
    ...     model, X, y, random_state=0)
    >>> bool((conditional.importances_mean[:2]
    ...       < 0.2 * marginal.importances_mean[:2]).all())
    True
    >>> [len(s) for s in conditional.subgroups.values()]
    [14, 14, 1]
    >>> conditional.subgroups["x2"][0]
    Subgroup(rule='all rows', size=1000)

    The third feature, which nothing else predicts, keeps one subgroup and
    exactly its marginal numbers:

    >>> bool((conditional.importances[2] == marginal.importances[2]).all())
    True
    """
    arguments = locals()  # the first statement: exactly the parameters
    run = ConditionalRun(**streaming_arguments(arguments))
    run.watched = callback is not None
    return finish(run, run, callback, return_result)


RUN_SIGNATURE = streaming_signature(conditional_permutation_importance)
adopt_parameters(iter_conditional_permutation_importance, RUN_SIGNATURE)
adopt_parameters(conditional_run, RUN_SIGNATURE)
