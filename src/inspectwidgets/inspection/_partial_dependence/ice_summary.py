"""What the average curve hides, read from ICE curves already computed.

Partial dependence is the mean of the ICE curves (Goldstein et al. 2015), so
their spread and the means of subgroups of rows come from the same array,
``PartialDependenceResult.individual``, without another prediction:

- percentile bands: at each grid point, percentiles of the rows' values; with
  10,000 curves, a few bands say what 10,000 thin lines cannot;
- subgroup partial dependence: the mean of each subgroup's curves, which is the
  partial dependence computed on that subgroup's rows alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from .._core.row_groups import MIN_SUBGROUP_SIZE, check_min_size, row_groups
from .._core.validation import check_sample_weight
from .result import PartialDependenceResult

DEFAULT_PERCENTILES = (5.0, 25.0, 50.0, 75.0, 95.0)
"""The 5-95 and 25-75 bands and the median."""


@dataclass(frozen=True)
class IcePercentiles:
    """Percentiles of the ICE curves at each grid point.

    Attributes
    ----------
    feature_names : tuple of str
    grid_values : tuple of ndarray
    percentiles : tuple of float
        In [0, 100], increasing.
    values : ndarray of shape (n_outputs, n_percentiles, n_grid)
        ``values[o, p, g]``: percentile ``percentiles[p]`` of the curves'
        values at grid point g (numpy's linear interpolation; NaN where the
        point is not computed).
    n_curves : int
        The ICE curves summarized.
    centered : bool
        Whether each curve was shifted to 0 at the first grid point first.
    output_names : tuple or None
        As in the partial dependence result.
    """

    feature_names: tuple[str, ...]
    grid_values: tuple[np.ndarray, ...]
    percentiles: tuple[float, ...]
    values: np.ndarray
    n_curves: int
    centered: bool
    output_names: tuple[Any, ...] | None

    def to_frame(self) -> pd.DataFrame:
        """One row per output, percentile and grid point: the feature's value,
        ``output``, ``percentile`` and ``value``."""
        n_outputs, n_percentiles, n_grid = self.values.shape
        outputs = _outputs(self.output_names, n_outputs)
        return pd.DataFrame(
            {
                self.feature_names[0]: np.tile(
                    np.asarray(self.grid_values[0], dtype=object),
                    n_outputs * n_percentiles,
                ),
                "output": np.repeat(outputs, n_percentiles * n_grid),
                "percentile": np.tile(np.repeat(self.percentiles, n_grid), n_outputs),
                "value": self.values.ravel(),
            }
        )


@dataclass(frozen=True)
class SubgroupPartialDependence:
    """Partial dependence within each subgroup of rows.

    Attributes
    ----------
    feature_names, grid_values : as in the partial dependence result
    labels : tuple
        The subgroups, in order of first appearance; a missing label (NaN,
        None, ``pd.NA``) is a subgroup of its own, named "missing".
    sizes : ndarray of int of shape (n_groups,)
        Rows in each subgroup.
    average : ndarray of shape (n_groups, n_outputs, n_grid, ...)
        The (weighted) mean of each subgroup's ICE curves; NaN for a subgroup
        whose weights sum to 0.
    small : ndarray of bool of shape (n_groups,)
        Subgroups of fewer than `min_size` rows (or no weight): their average
        is an estimate from few rows.
    min_size : int
    output_names : tuple or None
    """

    feature_names: tuple[str, ...]
    grid_values: tuple[np.ndarray, ...]
    labels: tuple[Any, ...]
    sizes: np.ndarray
    average: np.ndarray
    small: np.ndarray
    min_size: int
    output_names: tuple[Any, ...] | None

    def to_frame(self) -> pd.DataFrame:
        """One row per subgroup, output and grid point: ``subgroup``,
        ``size``, ``small``, the feature's value(s), ``output``, ``average``."""
        n_groups, n_outputs = self.average.shape[:2]
        grid_shape = self.average.shape[2:]
        n_points = int(np.prod(grid_shape))
        index = np.indices(grid_shape).reshape(len(grid_shape), -1)
        per_group = n_outputs * n_points
        columns: dict[str, Any] = {
            "subgroup": np.repeat(np.asarray(self.labels, dtype=object), per_group),
            "size": np.repeat(self.sizes, per_group),
            "small": np.repeat(self.small, per_group),
        }
        for name, values, ix in zip(
            self.feature_names, self.grid_values, index, strict=True
        ):
            columns[name] = np.tile(
                np.asarray(values, dtype=object)[ix], n_groups * n_outputs
            )
        columns["output"] = np.tile(
            np.repeat(_outputs(self.output_names, n_outputs), n_points), n_groups
        )
        columns["average"] = self.average.ravel()
        return pd.DataFrame(columns)


def ice_percentiles(
    result: PartialDependenceResult,
    percentiles: Sequence[float] = DEFAULT_PERCENTILES,
    *,
    centered: bool | None = None,
) -> IcePercentiles:
    """Percentile bands of a one-way result's ICE curves; no prediction.

    Parameters
    ----------
    result : PartialDependenceResult
        Of one feature, with ICE curves (``kind="individual"`` or ``"both"``).
    percentiles : sequence of float, default=(5, 25, 50, 75, 95)
        In [0, 100]; returned sorted, without repeats.
    centered : bool or None, default=None
        Shift each curve to 0 at the first grid point before taking
        percentiles (c-ICE, Goldstein et al. 2015): the bands then show how
        the curves' *shapes* differ, not their levels. None: as the result
        was computed (already centered with ``centered=True``).

    Returns
    -------
    IcePercentiles

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from inspectwidgets import ice_percentiles, partial_dependence
    >>> rng = np.random.RandomState(0)
    >>> X = rng.normal(size=(200, 2))
    >>> model = LinearRegression().fit(X, X[:, 0] + 0.5 * X[:, 1])
    >>> pd_result = partial_dependence(
    ...     model, X, [0], kind="both", grid_resolution=5, return_result=True
    ... )
    >>> bands = ice_percentiles(pd_result, centered=True)
    >>> bands.values.shape  # outputs, percentiles, grid points
    (1, 5, 5)
    >>> bool(np.allclose(bands.values[0, 0], bands.values[0, -1]))  # parallel lines
    True
    """
    curves = _one_way_curves(result, "ice_percentiles")
    percentiles = _check_percentiles(percentiles)
    if centered is None:
        centered = result.centered
    if centered and not result.centered:
        curves = curves - curves[..., :1]
    values = np.percentile(curves, percentiles, axis=1)  # (p, outputs, grid)
    return IcePercentiles(
        feature_names=result.feature_names,
        grid_values=result.grid_values,
        percentiles=tuple(float(p) for p in percentiles),
        values=np.moveaxis(values, 0, 1),
        n_curves=curves.shape[1],
        centered=bool(centered),
        output_names=result.output_names,
    )


def subgroup_partial_dependence(
    result: PartialDependenceResult,
    subgroups: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    min_size: int = MIN_SUBGROUP_SIZE,
) -> SubgroupPartialDependence:
    """Each subgroup's partial dependence, the mean of its rows' ICE curves:
    the partial dependence computed on that subgroup's rows alone, from the
    curves already computed (no prediction).

    Parameters
    ----------
    result : PartialDependenceResult
        With an ICE curve for every row of X (``kind="individual"`` or
        ``"both"`` and ``n_ice=None``).
    subgroups : array-like of shape (n_rows,)
        A label per row of X (e.g. a column of X). Missing labels form a
        subgroup named "missing".
    sample_weight : array-like of shape (n_rows,), default=None
        The weights the partial dependence was computed with, if any: each
        subgroup's mean is weighted by them, as the overall one is.
    min_size : int, default=30
        Subgroups of fewer rows are flagged `small` (kept, not dropped).

    Returns
    -------
    SubgroupPartialDependence

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.tree import DecisionTreeRegressor
    >>> from inspectwidgets import partial_dependence, subgroup_partial_dependence
    >>> rng = np.random.RandomState(0)
    >>> X = rng.uniform(-1, 1, size=(400, 2))
    >>> y = np.where(X[:, 1] > 0, X[:, 0], -X[:, 0])  # opposite effects
    >>> model = DecisionTreeRegressor(max_depth=6, random_state=0).fit(X, y)
    >>> pd_result = partial_dependence(
    ...     model, X, [0], kind="both", grid_resolution=3, return_result=True
    ... )
    >>> groups = np.where(X[:, 1] > 0, "x1 > 0", "x1 <= 0")
    >>> by_group = subgroup_partial_dependence(pd_result, groups)
    >>> by_group.labels, by_group.sizes.tolist()
    (('x1 > 0', 'x1 <= 0'), [183, 217])
    >>> slopes = by_group.average[:, 0, -1] - by_group.average[:, 0, 0]
    >>> [bool(s > 1) for s in (slopes[0], -slopes[1])]  # each group's own slope
    [True, True]
    """
    curves = _curves(result, "subgroup_partial_dependence")
    if result.ice_rows is not None:
        raise ValueError(
            f"result holds the ICE curves of {len(result.ice_rows)} drawn rows, "
            "not every row; a subgroup's partial dependence needs all of its "
            "rows' curves. Compute it with n_ice=None."
        )
    n_rows = curves.shape[1]
    groups = row_groups(subgroups, n_rows)
    codes, labels = groups.codes, groups.labels
    weight = check_sample_weight(sample_weight, n_rows)
    weight = np.ones(n_rows) if weight is None else weight.astype(np.float64)
    if not np.all(np.isfinite(weight)) or np.any(weight < 0):
        raise ValueError(
            "sample_weight must be finite and non-negative; got "
            f"{np.sum(~np.isfinite(weight) | (weight < 0))} other value(s)."
        )
    min_size = check_min_size(min_size)
    n_groups = len(labels)
    sizes = np.bincount(codes, minlength=n_groups)
    totals = np.bincount(codes, weights=weight, minlength=n_groups)
    # Per subgroup: sum_i w_i ICE_i / sum_i w_i, over the grid at once.
    sums = np.zeros((n_groups, curves.shape[0], *curves.shape[2:]))
    np.add.at(sums, codes, np.moveaxis(curves, 1, 0) * _per_row(weight, curves.ndim))
    with np.errstate(invalid="ignore", divide="ignore"):
        average = sums / _per_row(totals, sums.ndim)
    average[totals == 0] = np.nan
    return SubgroupPartialDependence(
        feature_names=result.feature_names,
        grid_values=result.grid_values,
        labels=labels,
        sizes=sizes,
        average=average,
        small=(sizes < min_size) | (totals == 0),
        min_size=int(min_size),
        output_names=result.output_names,
    )


def _curves(result, caller):
    if not isinstance(result, PartialDependenceResult):
        raise TypeError(
            "result must be a PartialDependenceResult (partial_dependence(..., "
            f"return_result=True)); got {type(result).__name__}."
        )
    if result.individual is None:
        raise ValueError(
            f"{caller} reads the ICE curves; the result has none "
            f'(kind="{result.kind}"). Compute it with kind="both".'
        )
    return np.asarray(result.individual, dtype=np.float64)


def _one_way_curves(result, caller):
    curves = _curves(result, caller)
    if len(result.feature_names) != 1:
        raise ValueError(
            f"{caller} summarizes curves of one feature; the result is of "
            f"{list(result.feature_names)}."
        )
    return curves


def _check_percentiles(percentiles):
    try:
        values = np.unique(np.asarray(percentiles, dtype=np.float64).ravel())
    except (TypeError, ValueError):
        values = np.array([np.nan])
    if values.size == 0 or not np.all((values >= 0) & (values <= 100)):
        raise ValueError(
            f"percentiles must be numbers in [0, 100]; got {percentiles!r}."
        )
    return values


def _per_row(values, ndim):
    """`values` (one per row or subgroup) shaped to broadcast along the first
    axis of an array of `ndim` axes."""
    return np.reshape(values, (-1,) + (1,) * (ndim - 1))


def _outputs(output_names, n_outputs):
    names = output_names if output_names is not None else range(n_outputs)
    return np.asarray(list(names), dtype=object)
