"""The result of a subgroup permutation importance: one
:class:`~.result.PermutationImportanceResult` per subgroup of rows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from sklearn.utils import Bunch

from .._core.validation import quoted
from .result import PermutationImportanceResult

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class SubgroupImportanceResult:
    """Permutation importance within each subgroup of rows, done so far.

    Each subgroup's result is what :func:`permutation_importance` gives on
    that subgroup's rows alone (see
    :func:`~inspectwidgets.subgroup_permutation_importance`); a streamed run
    yields one of these after each repeat round, every subgroup with the same
    repeats.

    Attributes
    ----------
    labels : tuple
        The subgroups, in order of first appearance; missing labels form
        one named "missing".
    sizes : ndarray of int of shape (n_groups,)
        Rows of X in each subgroup (those its baseline score is taken on).
    n_permuted : ndarray of int of shape (n_groups,)
        Rows permuted and scored in each subgroup (`max_samples` of them).
    small : ndarray of bool of shape (n_groups,)
        Subgroups of fewer than `min_size` rows: kept, their importances an
        estimate from few rows.
    min_size : int
    results : tuple of PermutationImportanceResult
        One per subgroup, in the order of `labels`.
    """

    labels: tuple[Any, ...]
    sizes: np.ndarray
    n_permuted: np.ndarray
    small: np.ndarray
    min_size: int
    results: tuple[PermutationImportanceResult, ...]

    @property
    def feature_names(self) -> tuple[str, ...]:
        return self.results[0].feature_names

    @property
    def scorer_names(self) -> tuple[str, ...]:
        return self.results[0].scorer_names

    @property
    def n_repeats(self) -> int:
        return self.results[0].n_repeats

    @property
    def n_repeats_done(self) -> int:
        return self.results[0].n_repeats_done

    @property
    def rounds_done(self) -> float:
        """Repeat rounds done (see :class:`PermutationImportanceResult`)."""
        return self.results[0].rounds_done

    @property
    def pending_features(self) -> tuple[str, ...]:
        return self.results[0].pending_features

    @property
    def complete(self) -> bool:
        return self.results[0].complete

    @property
    def algorithm(self) -> str:
        return self.results[0].algorithm

    def group(self, label: Any) -> PermutationImportanceResult:
        """The result of the subgroup labelled `label`."""
        for own, result in zip(self.labels, self.results, strict=True):
            if own == label or (own is label):
                return result
        raise KeyError(
            f"label: no subgroup {quoted(label)}; the subgroups are "
            f"{list(self.labels)[:12]}."
        )

    def importances(self, scorer: str | None = None) -> np.ndarray:
        """Importances of shape (n_groups, n_features, n_repeats_done) for
        one scorer."""
        return np.stack([r.importances(scorer) for r in self.results])

    def importances_mean(self, scorer: str | None = None) -> np.ndarray:
        """Mean importance of shape (n_groups, n_features) over the repeats
        done (NaN before the first)."""
        values = self.importances(scorer)
        if values.shape[2] == 0:
            return np.full(values.shape[:2], np.nan)
        return values.mean(axis=2)

    def importances_std(self, scorer: str | None = None) -> np.ndarray:
        """Standard deviation over the repeats, shape (n_groups, n_features)."""
        values = self.importances(scorer)
        if values.shape[2] == 0:
            return np.full(values.shape[:2], np.nan)
        return values.std(axis=2)

    def top(
        self, scorer: str | None = None, k: int | None = None
    ) -> tuple[np.ndarray, int]:
        """Indices of the `k` features of the highest mean importance over
        the subgroups, each weighted by its rows (subgroups without a number
        left out), most important first, and how many are left out."""
        mean = self.importances_mean(scorer)
        weights = np.where(np.isnan(mean), 0.0, self.sizes[:, None])
        with np.errstate(invalid="ignore"):
            overall = np.nansum(mean * weights, axis=0) / weights.sum(axis=0)
        order = np.argsort(-np.nan_to_num(overall, nan=-np.inf), kind="stable")
        shown = order if k is None else order[:k]
        return shown, len(order) - len(shown)

    def to_sklearn(self) -> dict[Any, Bunch | dict[str, Bunch]]:
        """Each subgroup's scikit-learn return value, keyed by its label:
        what :func:`sklearn.inspection.permutation_importance` returns on
        that subgroup's rows, plus ``size`` and ``small``."""
        out = {}
        for label, size, small, result in zip(
            self.labels, self.sizes, self.small, self.results, strict=True
        ):
            value = result.to_sklearn()
            for bunch in [value] if isinstance(value, Bunch) else value.values():
                bunch.size, bunch.small = int(size), bool(small)
            out[label] = value
        return out

    def to_frame(self) -> pd.DataFrame:
        """Tidy DataFrame: one row per subgroup, feature, scorer and repeat;
        ``subgroup``, ``size``, ``n_permuted`` and ``small`` beside
        :meth:`PermutationImportanceResult.to_frame`'s columns."""
        import pandas as pd

        frames = []
        for i, result in enumerate(self.results):
            frame = result.to_frame()
            frame.insert(0, "small", bool(self.small[i]))
            frame.insert(0, "n_permuted", int(self.n_permuted[i]))
            frame.insert(0, "size", int(self.sizes[i]))
            frame.insert(
                0, "subgroup", pd.Series([self.labels[i]] * len(frame), dtype=object)
            )
            frames.append(frame)
        return pd.concat(frames, ignore_index=True)
