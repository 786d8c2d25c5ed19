"""Accumulated local effects within subgroups of rows: each subgroup's ALE is
the ALE computed on its rows alone (its own quantile bins, its own means).

A row's local effect is the difference of its own two predictions, so the
subgroups together predict what one ALE of X predicts (two copies of each
row; four for a pair); each subgroup is one :func:`accumulated_local_effects`
run on its rows, with its weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from .._core.compat import _safe_indexing
from .._core.hints import Column, Data, Estimator, Subgroups
from .._core.row_groups import MIN_SUBGROUP_SIZE, check_min_size, row_groups
from .._core.validation import check_sample_weight, check_X
from .ale import accumulated_local_effects
from .result import AccumulatedLocalEffectsResult

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class SubgroupAccumulatedLocalEffects:
    """Accumulated local effects within each subgroup of rows.

    Attributes
    ----------
    labels : tuple
        The subgroups, in order of first appearance; missing labels form
        one named "missing".
    sizes : ndarray of int of shape (n_groups,)
    small : ndarray of bool of shape (n_groups,)
        Subgroups of fewer than `min_size` rows: kept, their effects an
        estimate from few rows.
    min_size : int
    results : tuple of AccumulatedLocalEffectsResult or None
        Each subgroup's ALE, on its own bins; None where it could not be
        computed on the subgroup's rows (`notes` says why).
    notes : tuple of str
        Why a subgroup has no result ("" where it has one).
    """

    labels: tuple[Any, ...]
    sizes: np.ndarray
    small: np.ndarray
    min_size: int
    results: tuple[AccumulatedLocalEffectsResult | None, ...]
    notes: tuple[str, ...]

    def to_frame(self) -> pd.DataFrame:
        """Each subgroup's :meth:`AccumulatedLocalEffectsResult.to_frame`,
        with ``subgroup``, ``size`` and ``small`` columns first."""
        import pandas as pd

        frames = []
        for label, size, small, result in zip(
            self.labels, self.sizes, self.small, self.results, strict=True
        ):
            if result is None:
                continue
            frame = result.to_frame()
            frame.insert(0, "small", bool(small))
            frame.insert(0, "size", int(size))
            frame.insert(0, "subgroup", pd.Series([label] * len(frame), dtype=object))
            frames.append(frame)
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def subgroup_accumulated_local_effects(
    estimator: Estimator,
    X: Data,
    features: Column | Sequence[Column],
    *,
    subgroups: Subgroups,
    min_size: int = MIN_SUBGROUP_SIZE,
    sample_weight: ArrayLike | None = None,
    **params: Any,
) -> SubgroupAccumulatedLocalEffects:
    """Each subgroup's accumulated local effects: the ALE computed on that
    subgroup's rows alone.

    Parameters
    ----------
    estimator, X, features, sample_weight
        As in :func:`accumulated_local_effects`; each subgroup takes its
        rows' weights.
    subgroups : array-like of shape (n_samples,), or a column of X
        A label per row of X, or the name of the column of X holding them
        (its position for an array X). Missing labels (NaN, None, ``pd.NA``)
        form a subgroup named "missing".
    min_size : int, default=30
        Subgroups of fewer rows are flagged ``small``: kept and computed. A
        small subgroup whose ALE cannot be computed on its rows (one row, or
        the feature constant in it) keeps a None result and a note saying
        why; where no subgroup can be computed, the first error is raised.
    **params
        The other parameters of :func:`accumulated_local_effects`
        (`grid_resolution`, `classes`, `cancel`, ...), used for every
        subgroup; once `cancel` is set, the subgroups not yet started are
        left without a result ("cancelled").

    Returns
    -------
    SubgroupAccumulatedLocalEffects

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.ensemble import GradientBoostingRegressor
    >>> from inspectwidgets import subgroup_accumulated_local_effects
    >>> rng = np.random.RandomState(0)
    >>> X = rng.uniform(-1, 1, size=(400, 2))
    >>> y = np.where(X[:, 1] > 0, X[:, 0], -X[:, 0])
    >>> model = GradientBoostingRegressor(random_state=0).fit(X, y)
    >>> groups = np.where(X[:, 1] > 0, "up", "down")
    >>> by_group = subgroup_accumulated_local_effects(
    ...     model, X, 0, subgroups=groups, grid_resolution=5
    ... )
    >>> by_group.labels, by_group.sizes.tolist()
    (('up', 'down'), [183, 217])
    >>> [bool(r.centered[0, -1] > r.centered[0, 0]) for r in by_group.results]
    [True, False]
    """
    if "callback" in params:
        raise TypeError(
            "subgroup_accumulated_local_effects takes no callback: it returns "
            "each subgroup's result once computed."
        )
    X = check_X(X)
    n_rows = X.shape[0]
    groups = row_groups(subgroups, n_rows, X)
    min_size = check_min_size(min_size)
    weight = check_sample_weight(sample_weight, n_rows)
    cancel = params.get("cancel")
    results: list[AccumulatedLocalEffectsResult | None] = []
    notes: list[str] = []
    errors: list[ValueError] = []
    for group in range(len(groups.labels)):
        rows = groups.rows(group)
        if cancel is not None and cancel.is_set():
            results.append(None)
            notes.append("cancelled")
            continue
        try:
            result = accumulated_local_effects(
                estimator,
                _safe_indexing(X, rows, axis=0),
                features,
                sample_weight=None if weight is None else weight[rows],
                **params,
            )
        except ValueError as error:
            if groups.sizes[group] >= min_size:
                raise  # a problem of the arguments, not of a few rows
            results.append(None)
            notes.append(str(error))
            errors.append(error)
            continue
        results.append(result)
        notes.append("")
    if errors and len(errors) == len(results):
        raise errors[0]  # no subgroup computed: the arguments', not a few rows'
    return SubgroupAccumulatedLocalEffects(
        labels=groups.labels,
        sizes=groups.sizes.copy(),
        small=groups.sizes < min_size,
        min_size=min_size,
        results=tuple(results),
        notes=tuple(notes),
    )
