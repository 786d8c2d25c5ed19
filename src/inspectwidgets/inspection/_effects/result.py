"""The result of an accumulated local effects run, complete or partial."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from .accumulate import centring_offset

if TYPE_CHECKING:
    from .._partial_dependence import PartialDependenceResult


@dataclass(frozen=True)
class AccumulatedLocalEffectsResult:
    """Accumulated local effects of one feature, or the second-order effect
    of a pair.

    A streamed run yields one after each chunk of rows: every array then
    holds the estimate from the rows done so far (`n_rows_done` of
    `n_rows`). Later chunks never modify an earlier snapshot's arrays.

    Attributes
    ----------
    feature_names : tuple of str
        One feature, or two for the second-order effect.
    feature_columns : tuple of int
        Their positions in X.
    categorical : tuple of bool
    edges : tuple of ndarray
        Per feature: the K + 1 bin edges of a numeric feature (unique
        quantiles), or the K categories in the order used (see
        :func:`accumulated_local_effects`). The effects are given at these
        values.
    centered : ndarray of shape (n_outputs, len(edges[0])[, len(edges[1])])
        The ALE: the accumulated effect minus its weighted mean over the data,
        so its mean over the rows (each bin's rows at the bin's midpoint) is
        0. For a pair, the second-order effect with both main effects removed.
    uncentered : ndarray, same shape as `centered`
        The accumulated local effects before centring (0 at the first edge).
        For a pair, the accumulated cell means, main effects included.
    local_effects : ndarray of shape (n_outputs, n_bins[, n_bins_2])
        The weighted mean change of the prediction across every bin (numeric),
        every transition to the next category (categorical), or every cell
        (pair; empty cells hold their nearest cell's value).
    local_effects_std : ndarray, same shape as `local_effects`
        The weighted standard deviation of the rows' changes in the bin (NaN
        for empty bins): how much the rows' changes across one bin differ,
        not an uncertainty. A row's change spans one bin, so the spread
        shrinks as bins are added.
    bin_counts : ndarray of shape (n_bins[, n_bins_2])
        Rows per bin (or cell), weighted by `sample_weight` if given. For a
        categorical feature, rows per category (K entries).
    n_rows, n_rows_done : int
    n_missing : int
        Rows missing a value of a numeric feature: they are in `n_rows` but
        contribute to no bin (the ALE is that of the observed rows).
    output_names : tuple or None
        The classes of the first axis (classifiers), None for regressors.
    response_method : str
    scale : str
    """

    feature_names: tuple[str, ...]
    feature_columns: tuple[int, ...]
    categorical: tuple[bool, ...]
    edges: tuple[np.ndarray, ...]
    centered: np.ndarray
    uncentered: np.ndarray
    local_effects: np.ndarray
    local_effects_std: np.ndarray
    bin_counts: np.ndarray
    n_rows: int
    n_rows_done: int
    output_names: tuple[Any, ...] | None
    response_method: str
    scale: str
    n_missing: int = 0

    @property
    def done(self) -> bool:
        """Whether every row has contributed."""
        return self.n_rows_done == self.n_rows

    def center(self, values: ArrayLike) -> np.ndarray:
        """`values` given at this result's edges (of one feature), centred
        as `centered` is: minus their weighted mean over the rows, each bin's
        rows at the bin's midpoint (each category's rows at the category).

        Partial dependence computed at ``edges[0]`` and centred so compares
        like with like with the ALE: for an additive model with independent
        features both are the component function minus its mean.

        Parameters
        ----------
        values : array-like of shape (n_outputs, len(edges[0]))

        Returns
        -------
        centered : ndarray of the same shape
        """
        if len(self.edges) != 1:
            raise ValueError("center: defined for the effect of one feature.")
        values = np.asarray(values, dtype=float)
        if values.shape[-1] != len(self.edges[0]) or values.ndim != 2:
            raise ValueError(
                f"center: values must have shape (n_outputs, {len(self.edges[0])}); "
                f"got {values.shape}."
            )
        counts = np.asarray(self.bin_counts, dtype=float)
        return values - centring_offset(values, counts, self.categorical[0])

    def band(self) -> tuple[np.ndarray, np.ndarray]:
        """The band of one feature's effect at the edges: the centred ALE
        plus or minus the standard deviation of the rows' local effects in
        the bin ending at each edge (the transition into each category); the
        first edge takes the first bin's. NaN where a bin holds no row.

        Not a confidence band: it shows how differently the rows' predictions
        change across one bin, and its width is set by the bin count (each
        row's change spans one bin; more bins, a narrower band).

        Returns
        -------
        lower, upper : ndarray, each of the shape of `centered`
        """
        if len(self.edges) != 1:
            raise ValueError("band: defined for the effect of one feature.")
        std = np.asarray(self.local_effects_std, dtype=float)
        std = np.concatenate([std[:, :1], std], axis=1)
        return self.centered - std, self.centered + std

    def center_partial_dependence(self, result: PartialDependenceResult) -> np.ndarray:
        """The average of a partial dependence result computed at this
        result's edges (``custom_values={feature: edges[0]}``), centred as
        the ALE is (:meth:`center`), so the two compare like with like.

        A partial result (``result.done`` not all true) is centred with its
        missing edges filled by linear interpolation, and NaN there.

        Returns
        -------
        centered : ndarray of shape (n_outputs, len(edges[0]))
        """
        grid = result.grid_values[0]
        if len(grid) != len(self.edges[0]):
            raise ValueError(
                "result: the partial dependence must be computed at the ALE's "
                f"{len(self.edges[0])} edges; it has {len(grid)} grid values."
            )
        if self.categorical[0]:
            where = {str(v): i for i, v in enumerate(grid)}
            order = np.array([where[str(c)] for c in self.edges[0]])
            x = np.arange(len(order), dtype=float)
        else:
            order = np.arange(len(grid))
            x = np.asarray(self.edges[0], dtype=float)
        values = np.asarray(result.average, dtype=float)[:, order]
        done = np.asarray(result.done, dtype=bool)[order]
        if not done.any():
            return np.full(values.shape, np.nan)
        filled = np.stack([np.interp(x, x[done], v[done]) for v in values])
        return np.where(done, self.center(filled), np.nan)

    def to_frame(self) -> pd.DataFrame:
        """One row per output and edge (or pair of edges), tidy.

        Columns: ``output`` (class or target index), the feature(s) (their
        value at the edge), ``effect`` (centred), ``uncentered``; for one
        feature also ``local_effect``, ``local_effect_std`` and
        ``bin_count`` of the bin ending at this edge (of the transition into
        this category; of this category for ``bin_count``), NaN at the first
        edge where no bin ends.

        Examples
        --------
        >>> from sklearn.datasets import load_diabetes
        >>> from sklearn.linear_model import Ridge
        >>> from inspectwidgets import accumulated_local_effects
        >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
        >>> ale = accumulated_local_effects(
        ...     Ridge().fit(X, y), X, "bmi", grid_resolution=4
        ... )
        >>> ale.to_frame().columns.tolist()  # doctest: +NORMALIZE_WHITESPACE
        ['output', 'bmi', 'effect', 'uncentered', 'local_effect',
         'local_effect_std', 'bin_count']
        """
        n_out = self.centered.shape[0]
        outputs = self.output_names if self.output_names is not None else range(n_out)
        frames = []
        grids = np.meshgrid(*self.edges, indexing="ij")
        for o, output in enumerate(outputs):
            frame = {"output": output}
            for name, grid in zip(self.feature_names, grids, strict=True):
                frame[name] = grid.ravel()
            frame["effect"] = self.centered[o].ravel()
            frame["uncentered"] = self.uncentered[o].ravel()
            if len(self.edges) == 1:
                frame["local_effect"] = _leading_nan(self.local_effects[o])
                frame["local_effect_std"] = _leading_nan(self.local_effects_std[o])
                counts = self.bin_counts
                if not self.categorical[0]:
                    counts = _leading_nan(counts)
                frame["bin_count"] = np.asarray(counts, dtype=float)
            frames.append(pd.DataFrame(frame))
        return pd.concat(frames, ignore_index=True)


def _leading_nan(values):
    return np.concatenate([[np.nan], np.asarray(values, dtype=float)])
