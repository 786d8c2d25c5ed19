"""The result of a partial dependence run, complete or partial."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
from sklearn.utils import Bunch

from .._core.row_groups import MISSING_LABEL


def value_label(value: Any) -> str:
    """A grid value as charts label it: its text, or :data:`MISSING_LABEL`."""
    return MISSING_LABEL if pd.isna(value) else str(value)


@dataclass(frozen=True)
class FeatureDistribution:
    """How the rows of X are spread over one feature of a partial dependence.

    Attributes
    ----------
    feature : str
    categorical : bool
        True for categorical features and non-numeric columns: `counts` then
        counts the rows equal to each of `categories` (the grid values).
    n_missing : int
        Rows with a missing (NaN or None) value, left out of the summary.
    counts : ndarray of int
        Histogram counts, or rows per category.
    bin_edges : ndarray of shape (len(counts) + 1,) or None
        Histogram bin edges (numeric features).
    deciles : ndarray of shape (9,) or None
        The 10th, ..., 90th percentiles (numeric features), as
        :class:`sklearn.inspection.PartialDependenceDisplay` draws them.
    categories : ndarray or None
        The values counted (categorical features).
    """

    feature: str
    categorical: bool
    n_missing: int
    counts: np.ndarray
    bin_edges: np.ndarray | None = None
    deciles: np.ndarray | None = None
    categories: np.ndarray | None = None


@dataclass(frozen=True)
class CorrelatedFeature:
    """A feature of the curve strongly rank-correlated with another feature.

    The partial dependence then averages predictions over combinations of the
    two that rarely or never occur in the data.
    """

    feature: str
    partner: str
    spearman_rho: float

    @property
    def message(self) -> str:
        return (
            f"Feature {self.feature!r} is strongly correlated with "
            f"{self.partner!r} (Spearman rho = {self.spearman_rho:+.2f}): its "
            "partial dependence averages predictions over combinations of values "
            "that rarely or never occur in the data. Read the curve with care, or "
            "look at conditional (ALE) or grouped views instead."
        )


@dataclass(frozen=True)
class PartialDependenceResult:
    """Partial dependence of one feature (or a set of features) on a grid.

    A streamed run yields one of these after each chunk of grid points. Each is
    a consistent snapshot: `done` tells which grid points are computed; the
    others hold NaN in `average` and `individual`. Later chunks never modify an
    earlier snapshot's arrays.

    Attributes
    ----------
    feature_names : tuple of str
        The features of the partial dependence (one for a curve, two for a
        surface).
    feature_columns : tuple of int
        Their positions in X.
    categorical : tuple of bool
        Whether each feature was treated as categorical.
    grid_values : tuple of ndarray
        The grid of each feature; the grid is their cartesian product.
    average : ndarray of shape (n_outputs, len(grid_values[0]), ...)
        Predictions averaged over the rows of X (weighted by `sample_weight`),
        or over the training data with ``method="recursion"``.
    individual : ndarray of shape (n_outputs, n_ice, len(grid_values[0]), ...) or None
        Predictions for each row of X (or the `ice_rows` drawn with `n_ice`):
        the individual conditional expectation (ICE). None for
        ``kind="average"``.
    ice_rows : ndarray of int or None
        Rows of X behind `individual`; None when it holds every row.
    done : ndarray of bool of shape (len(grid_values[0]), ...)
        Grid points computed so far.
    kind : {"average", "individual", "both"}
    method : {"brute", "recursion"}
        The method used (``"auto"`` resolved as scikit-learn resolves it).
    response_method : str
        The estimator's method behind the values: "predict", "predict_proba"
        or "decision_function".
    output_names : tuple or None
        What the first axis of `average` and `individual` holds: every class
        for multiclass classifiers, the positive class for binary ones, None
        for regressors.
    scale : {"probability", "log_odds"}
        "log_odds": centered log-odds ``log p_k - mean_l log p_l``.
    centered : bool
        Whether every curve (and the average) is shifted to 0 at the first
        grid point.
    distributions : tuple of FeatureDistribution
        One per feature.
    correlated : tuple of CorrelatedFeature
        Features strongly correlated with a feature of the curve.
    missing : tuple of bool
        With ``missing="observed"``: whether each feature's last grid value is
        its missing value (NaN, None or ``pd.NA``, as the column holds it), the
        point whose values are the predictions with the feature missing. All
        False otherwise (scikit-learn's grid may still hold NaN among a
        feature's unique values).
    missing_note : str
        Why a feature with missing values has no missing point (the model
        refused a missing input), or "".
    algorithm : {"tree", "linear", "generic"}
        What predicted the grid's copies of X (what ``algorithm="auto"``
        chose): the tree walk, the linear shortcut, or the model itself
        (also for ``method="recursion"``).
    """

    feature_names: tuple[str, ...]
    feature_columns: tuple[int, ...]
    categorical: tuple[bool, ...]
    grid_values: tuple[np.ndarray, ...]
    average: np.ndarray
    individual: np.ndarray | None
    ice_rows: np.ndarray | None
    done: np.ndarray
    kind: Literal["average", "individual", "both"]
    method: Literal["brute", "recursion"]
    response_method: str
    output_names: tuple[Any, ...] | None
    scale: Literal["probability", "log_odds"]
    centered: bool
    distributions: tuple[FeatureDistribution, ...]
    correlated: tuple[CorrelatedFeature, ...] = ()
    missing: tuple[bool, ...] = ()
    missing_note: str = ""
    algorithm: str = "generic"

    def has_missing_point(self, axis: int = 0) -> bool:
        """Whether feature `axis`'s last grid value is its missing point, to
        be drawn apart from the curve: a numeric feature with missing values
        under ``missing="observed"``. A categorical feature's missing value is
        one of its categories instead (labelled :data:`MISSING_LABEL`)."""
        return bool(self.missing and self.missing[axis]) and not self.categorical[axis]

    @property
    def n_points(self) -> int:
        """Number of grid points."""
        return self.done.size

    @property
    def n_points_done(self) -> int:
        return int(self.done.sum())

    @property
    def progress(self) -> float:
        """Fraction of the grid points computed, in [0, 1]."""
        return self.n_points_done / self.n_points

    @property
    def complete(self) -> bool:
        return bool(self.done.all())

    @property
    def warnings(self) -> tuple[str, ...]:
        """Messages about how to read the result (strong correlations)."""
        return tuple(c.message for c in self.correlated)

    def to_sklearn(self) -> Bunch:
        """What :func:`sklearn.inspection.partial_dependence` returns: a Bunch
        with `grid_values` and, depending on `kind`, `average` and/or
        `individual`."""
        bunch = Bunch(grid_values=list(self.grid_values))
        if self.kind in ("average", "both"):
            bunch["average"] = self.average
        if self.kind in ("individual", "both"):
            bunch["individual"] = self.individual
        return bunch

    def to_frame(self, ice: bool = False) -> pd.DataFrame:
        """Tidy DataFrame of the average: one row per grid point and output,
        with a column per feature, ``output``, ``average`` and ``done``.

        With `ice` (a result with `individual`), every curve instead, one
        row per grid point, output and curve: a column per feature,
        ``output``, ``curve`` ("average", then "ice"), ``row`` (the position
        in X of an ICE curve's row, <NA> for the average), ``value`` and
        ``done``.
        """
        import pandas as pd

        shape = self.done.shape
        index = np.indices(shape).reshape(len(shape), -1)
        n_outputs = self.average.shape[0]
        outputs = np.asarray(
            list(
                self.output_names if self.output_names is not None else range(n_outputs)
            ),
            dtype=object,
        )
        if not ice or self.individual is None:
            columns = self._grid_columns(index, n_outputs)
            columns["output"] = np.repeat(outputs, index.shape[1])
            columns["average"] = self.average.reshape(n_outputs, -1).ravel()
            columns["done"] = np.tile(self.done.ravel(), n_outputs)
            return pd.DataFrame(columns)
        # Curves: the average's, then each ICE row's; per curve, outputs x grid.
        n_rows = self.individual.shape[1]
        rows = np.arange(n_rows) if self.ice_rows is None else self.ice_rows
        n_points = index.shape[1]
        values = np.concatenate(
            [
                self.average.reshape(1, n_outputs, n_points),
                self.individual.reshape(n_outputs, n_rows, n_points).transpose(1, 0, 2),
            ]
        )
        n_curves = n_rows + 1
        columns = self._grid_columns(index, n_outputs * n_curves)
        columns["output"] = np.tile(np.repeat(outputs, n_points), n_curves)
        columns["curve"] = np.repeat(
            np.asarray(["average"] + ["ice"] * n_rows, dtype=object),
            n_outputs * n_points,
        )
        columns["row"] = pd.array(
            np.repeat(np.concatenate([[-1], rows]), n_outputs * n_points),
            dtype="Int64",
        )
        columns["row"][: n_outputs * n_points] = pd.NA
        columns["value"] = values.ravel()
        columns["done"] = np.tile(self.done.ravel(), n_outputs * n_curves)
        return pd.DataFrame(columns)

    def _grid_columns(self, index, n_repeats):
        """Each feature's grid value at the flattened grid points `index`,
        repeated `n_repeats` times."""
        return {
            name: np.tile(np.asarray(values, dtype=object)[ix], n_repeats)
            for name, values, ix in zip(
                self.feature_names, self.grid_values, index, strict=True
            )
        }
