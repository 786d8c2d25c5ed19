"""Several models' permutation importances on the same permuted copies, and
the paired differences between two of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from scipy import stats

from .._core.validation import quoted
from .result import PermutationImportanceResult

if TYPE_CHECKING:
    import pandas as pd


def check_confidence_level(confidence_level: float) -> float:
    """A coverage strictly between 0 and 1, or a ValueError naming it."""
    if (
        isinstance(confidence_level, bool)
        or not isinstance(confidence_level, (int, float, np.floating))
        or not 0 < confidence_level < 1
    ):
        raise ValueError(
            "confidence_level must be a float in (0, 1); got "
            f"{quoted(confidence_level)}."
        )
    return float(confidence_level)


@dataclass(frozen=True)
class PairedDifference:
    """How much more model `first` relies on each feature than model
    `second`, repeat by repeat.

    Both models' importances at repeat r come from the same permuted copy
    of X (the same rows, the same permutation), so their difference at
    each repeat is a paired measurement: the permutation's luck, shared by
    both, cancels out of it.

    Attributes
    ----------
    feature_names : tuple of str
    models : tuple of (str, str)
        The two models, `first` and `second`.
    scorer : str
    differences : ndarray of shape (n_features, n_repeats_done)
        ``importance_first - importance_second`` per feature and repeat.
    confidence_level : float
        The coverage of :attr:`interval`.
    """

    feature_names: tuple[str, ...]
    models: tuple[str, str]
    scorer: str
    differences: np.ndarray
    confidence_level: float = 0.95

    @property
    def mean(self) -> np.ndarray:
        """The mean difference over repeats, shape (n_features,): the
        difference of the two models' mean importances."""
        if self.differences.shape[1] == 0:
            return np.full(len(self.differences), np.nan)
        return self.differences.mean(axis=1)

    @property
    def interval(self) -> np.ndarray:
        """Student's t-interval of the mean difference over repeats, shape
        (n_features, 2: low, high): ``mean -+ t * s / sqrt(n)``, where `s`
        is the differences' standard deviation (ddof=1), `n` the repeats
        and `t` the ``(1 + confidence_level) / 2`` quantile of Student's t
        with ``n - 1`` degrees of freedom (scipy's ``ttest_rel`` interval).
        NaN with fewer than 2 repeats.

        It covers the permutations' noise only: these two fitted models on
        these rows. It says nothing of other training sets or other
        held-out rows.
        """
        n = self.differences.shape[1]
        if n < 2:
            return np.full((len(self.differences), 2), np.nan)
        half = stats.t.ppf((1 + self.confidence_level) / 2, n - 1) * (
            self.differences.std(axis=1, ddof=1) / np.sqrt(n)
        )
        mean = self.mean
        return np.column_stack([mean - half, mean + half])

    @property
    def differs(self) -> np.ndarray:
        """Whether the interval excludes 0, per feature (False where it is
        NaN): the features the two models provably rely on differently,
        at this confidence, for the permutations' noise."""
        low, high = self.interval.T
        return (low > 0) | (high < 0)

    def to_frame(self) -> pd.DataFrame:
        """One row per feature: the mean difference, its interval and the
        flag."""
        import pandas as pd

        low, high = self.interval.T
        return pd.DataFrame(
            {
                "feature": np.asarray(self.feature_names, dtype=object),
                "first": self.models[0],
                "second": self.models[1],
                "scorer": self.scorer,
                "difference": self.mean,
                "low": low,
                "high": high,
                "differs": self.differs,
            }
        )


@dataclass(frozen=True)
class PermutationComparisonResult:
    """Every model's :class:`PermutationImportanceResult`, computed on the
    same permuted copies of X (the same rows and permutations at each
    repeat, as each model's own run with that `random_state` draws them),
    with the same repeats done (and, during a streamed first round, the
    same features).

    Attributes
    ----------
    results : dict of str to PermutationImportanceResult
        Each model's result, by name, in the order the models were given.
        Each equals that model's own :func:`permutation_importance` run
        with the same arguments.
    confidence_level : float
        The default coverage of :meth:`paired_difference`'s interval.
    """

    results: dict[str, PermutationImportanceResult]
    confidence_level: float = 0.95

    @property
    def model_names(self) -> tuple[str, ...]:
        return tuple(self.results)

    @property
    def _first(self) -> PermutationImportanceResult:
        return next(iter(self.results.values()))

    @property
    def feature_names(self) -> tuple[str, ...]:
        return self._first.feature_names

    @property
    def scorer_names(self) -> tuple[str, ...]:
        return self._first.scorer_names

    @property
    def n_repeats(self) -> int:
        return self._first.n_repeats

    @property
    def n_repeats_done(self) -> int:
        """Repeats every model and feature of this snapshot has (1 for a
        first round in progress, whose `pending_features` have none)."""
        return self._first.n_repeats_done

    @property
    def pending_features(self) -> tuple[str, ...]:
        """The features some model has yet to permute once, so in no
        model's result of this snapshot (a streamed first round, see
        :func:`iter_compare_permutation_importance`); empty after it."""
        return self._first.pending_features

    @property
    def rounds_done(self) -> float:
        """Rounds every model has done, a first round in progress counted
        by the share of its features done."""
        return self._first.rounds_done

    @property
    def complete(self) -> bool:
        return self.n_repeats_done == self.n_repeats and not self.pending_features

    def _model(self, model):
        if model not in self.results:
            raise ValueError(
                f"model: {quoted(model)} is not in this result; choose from "
                f"{list(self.results)}."
            )
        return self.results[model]

    def importances(self, model: str, scorer: str | None = None) -> np.ndarray:
        """Model `model`'s importances, shape (n_features, n_repeats_done)."""
        return self._model(model).importances(scorer)

    def paired_difference(
        self,
        first: str,
        second: str,
        scorer: str | None = None,
        confidence_level: float | None = None,
    ) -> PairedDifference:
        """Model `first`'s importances minus model `second`'s, repeat by
        repeat, with an interval over repeats (see :class:`PairedDifference`).
        `confidence_level` defaults to this result's."""
        level = check_confidence_level(
            self.confidence_level if confidence_level is None else confidence_level
        )
        a, b = self._model(first), self._model(second)
        name = a._scorer(scorer)
        b._scorer(name)
        differences = np.asarray(a.importances(name), dtype=float) - np.asarray(
            b.importances(name), dtype=float
        )
        return PairedDifference(
            feature_names=self.feature_names,
            models=(first, second),
            scorer=name,
            differences=differences,
            confidence_level=level,
        )

    def to_frame(self) -> pd.DataFrame:
        """Tidy DataFrame: one row per model, feature, scorer and repeat (each
        model's :meth:`PermutationImportanceResult.to_frame` with a `model`
        column first)."""
        import pandas as pd

        frames = []
        for name, result in self.results.items():
            frame = result.to_frame()
            frame.insert(0, "model", name)
            frames.append(frame)
        return pd.concat(frames, ignore_index=True)
