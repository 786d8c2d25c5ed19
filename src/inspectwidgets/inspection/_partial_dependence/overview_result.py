"""The result of a partial dependence overview, and the importance that
orders its panels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

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
