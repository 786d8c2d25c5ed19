"""The result of a partial dependence overview, and the importance that
orders its panels."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from .._core.validation import quoted

if TYPE_CHECKING:
    import pandas as pd


def pd_spread(average, categorical, missing):
    """Greenwell, Boehmke & McCarthy (2018)'s importance of a feature from its
    partial dependence: the standard deviation of the average over the grid
    (numeric; ``ddof=1``, R's ``sd`` as in the paper's ``vip``), or a quarter of
    its range (categorical: the std of two equally likely values at the range's
    ends, the paper's "range / 4"). Over the observed grid values (a missing
    point is left out); with several outputs, the mean of their spreads.

    Parameters
    ----------
    average : ndarray of shape (n_outputs, n_grid)
    categorical : bool
    missing : bool
        Whether the last grid value is the missing point.
    """
    values = np.asarray(average, dtype=float)
    if missing:
        values = values[:, :-1]
    if values.shape[1] == 0:
        return 0.0
    if categorical:
        spreads = (values.max(axis=1) - values.min(axis=1)) / 4
    elif values.shape[1] < 2:
        spreads = np.zeros(values.shape[0])
    else:
        spreads = values.std(axis=1, ddof=1)
    return float(np.mean(spreads))


@dataclass(frozen=True)
class OverviewPanel:
    """One feature's partial dependence in an overview.

    Attributes
    ----------
    feature : str
    column : int or None
        Its position in X (None if it could not be resolved).
    categorical : bool
    grid_values : ndarray of shape (n_grid,) or None
        Its grid, as :func:`partial_dependence` builds it (the missing value
        last where `missing`); None where the feature failed before a grid.
    average : ndarray of shape (n_outputs, n_grid) or None
        Predictions averaged over the rows of X at each grid value; None until
        computed, or when `note` says why there is none.
    missing : bool
        Whether the last grid value is the feature's missing value.
    spread : float
        :func:`pd_spread` of `average` (NaN until computed).
    importance : float
        What the panels are ordered by (see ``PartialDependenceOverview.order_by``):
        the supplied importance, or `spread`.
    note : str
        Why there is no average (the one-sentence error the feature gave), or
        what to know about it (why it has no missing point); "" otherwise.
    """

    feature: str
    column: int | None
    categorical: bool
    grid_values: np.ndarray | None
    average: np.ndarray | None
    missing: bool
    spread: float
    importance: float
    note: str = ""

    @property
    def failed(self) -> bool:
        """Whether this feature has no partial dependence to draw."""
        return self.grid_values is None


@dataclass(frozen=True)
class PartialDependenceOverview:
    """Every feature's partial dependence, ordered by importance.

    Attributes
    ----------
    panels : tuple of OverviewPanel
        One per feature, most important first; features not yet computed (a
        streamed run) or failed follow, in the order asked.
    order_by : {"importance", "pd_spread"}
        "importance": the `importances` supplied; "pd_spread": each partial
        dependence's own spread (:func:`pd_spread`).
    output_names : tuple or None
        What the first axis of every panel's `average` holds (classes of a
        classifier; None for a regressor), as in :func:`partial_dependence`.
    response_method : str
    n_done : int
        Features computed (or failed) so far.
    """

    panels: tuple[OverviewPanel, ...]
    order_by: Literal["importance", "pd_spread"]
    output_names: tuple[Any, ...] | None
    response_method: str
    n_done: int

    @property
    def complete(self) -> bool:
        return self.n_done == len(self.panels)

    @property
    def progress(self) -> float:
        return self.n_done / max(1, len(self.panels))

    @property
    def features(self) -> tuple[str, ...]:
        """The features, in the panels' order."""
        return tuple(p.feature for p in self.panels)

    def __getitem__(self, feature: str) -> OverviewPanel:
        for panel in self.panels:
            if panel.feature == feature:
                return panel
        raise KeyError(feature)

    def with_importances(
        self, importances: Mapping[str, float] | None
    ) -> PartialDependenceOverview:
        """The same panels ordered by `importances` (``{feature: importance}``
        for every feature, e.g. permutation importances computed later), or by
        their spread if None: nothing is predicted again."""
        labels = [p.feature for p in self.panels]
        values = check_importances(importances, labels, labels)
        panels = [
            dataclasses.replace(
                p, importance=p.spread if values is None else float(values[i])
            )
            for i, p in enumerate(self.panels)
        ]
        return dataclasses.replace(
            self,
            panels=tuple(ordered(panels, values is not None)),
            order_by="pd_spread" if values is None else "importance",
        )

    def to_frame(self) -> pd.DataFrame:
        """Tidy DataFrame: one row per feature, grid value and output, with
        ``feature``, ``rank``, ``importance``, ``value``, ``missing_point``,
        ``output`` and ``average``."""
        import pandas as pd

        records = []
        for rank, panel in enumerate(self.panels):
            if panel.average is None or panel.grid_values is None:
                continue
            outputs = self.output_names or range(panel.average.shape[0])
            n = len(panel.grid_values)
            for k, output in enumerate(outputs):
                for j in range(n):
                    records.append(
                        (panel.feature, rank, panel.importance,
                         panel.grid_values[j], panel.missing and j == n - 1,
                         output, panel.average[k, j])
                    )  # fmt: skip
        columns = ["feature", "rank", "importance", "value", "missing_point",
                   "output", "average"]  # fmt: skip
        return pd.DataFrame.from_records(records, columns=columns)


def ordered(panels, supplied):
    """Most important first. With supplied importances, every panel by its
    importance; by the spread, panels computed first, then those pending,
    then those failed (each group in a stable order)."""
    if supplied:
        return sorted(panels, key=lambda p: -p.importance)

    def key(panel):
        if panel.failed:
            return (2, 0.0)
        if panel.average is None:
            return (1, 0.0)
        return (0, -panel.importance)

    return sorted(panels, key=key)


def check_importances(importances, features, labels):
    """One finite importance per feature (by name from a mapping, or in
    order), or None."""
    if importances is None:
        return None
    if isinstance(importances, Mapping) or hasattr(importances, "items"):
        mapping = dict(importances.items())
        found = []
        for feature, label in zip(features, labels, strict=True):
            key = feature if feature in mapping else label
            if key not in mapping:
                raise ValueError(
                    f"importances has no value for feature {quoted(label)}; give "
                    "one per feature of `features`, by name."
                )
            found.append(mapping[key])
        values = np.asarray(found, dtype=float)
    else:
        values = np.asarray(importances, dtype=float).ravel()
        if len(values) != len(labels):
            raise ValueError(
                f"importances must hold one value per feature ({len(labels)}); "
                f"got {len(values)}."
            )
    if not np.isfinite(values).all():
        bad = labels[int(np.flatnonzero(~np.isfinite(values))[0])]
        raise ValueError(
            f"importances must be finite; got {quoted(bad)}'s "
            f"{values[labels.index(bad)]}."
        )
    return values
