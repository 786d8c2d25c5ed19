"""The result of a permutation-importance run, complete or partial."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
from sklearn.utils import Bunch

from .._core.validation import quoted

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Subgroup:
    """Rows a conditional permutation importance permutes a feature among:
    those meeting `rule` (readable conditions on the other features, "all
    rows" for a feature nothing else predicts), `size` of them."""

    rule: str
    size: int


@dataclass(frozen=True)
class PermutationImportanceResult:
    """Scores of every scorer for every permuted feature and repeat done so far.

    A streamed run yields one of these after each repeat round; each is a
    consistent snapshot (every feature has the same repeats) that later rounds
    do not modify. A run asked to show its first round as it goes (a widget's)
    also yields, during that round, snapshots of the features done so far,
    the others listed in `pending_features`. Importances are
    ``baseline_scores[s] - permuted_scores[s]``, kept per scorer so a display
    can switch scorer without new predictions.

    Attributes
    ----------
    feature_names : tuple of str
        Labels of the permuted features or groups, in the order requested.
    feature_columns : tuple of tuple of int
        Positions in X of the columns permuted together for each feature.
    scorer_names : tuple of str
        Names of the scores; ``("score",)`` for a single unnamed scorer.
    baseline_scores : dict of str to float or int
        Score of each scorer on the unpermuted data (an int for scorers
        returning integers, whose importances are then int64, as in
        scikit-learn).
    permuted_scores : dict of str to ndarray of shape (n_features, n_repeats_done)
        Score of each scorer with each feature permuted, per repeat.
    n_repeats : int
        Repeats requested.
    multimetric : bool
        Whether scikit-learn would return a dict of Bunches for this scoring.
    pending_features : tuple of str
        Labels of the requested features whose first repeat is not done yet,
        so not in this snapshot; empty once a round is complete.
    bootstrap_baseline_scores : dict of str to ndarray of shape (n_bootstrap,) or None
        With ``n_bootstrap``: each scorer's score of the unpermuted rows under
        each resample of the held-out rows; else None.
    bootstrap_permuted_scores : dict of str to ndarray of shape \
(n_features, n_repeats_done, n_bootstrap) or None
        With ``n_bootstrap``: the permuted scores under each resample, from
        the same predictions (the resample's baseline score plus the
        copy's resampled changes of loss; see the held-out interval in
        docs/permutation_importance.md); else None.
    confidence_level : float
        The coverage the held-out interval aims at (see :meth:`interval`).
    subgroups : dict of str to tuple of Subgroup, or None
        For a conditional permutation importance, each feature's subgroups
        (the rows it is permuted among); None for a marginal one.
    algorithm : {"tree", "linear", "generic"}
        What predicted the permuted copies (what ``algorithm="auto"``
        chose): the tree walk, the linear shortcut or the model itself.
    """

    feature_names: tuple[str, ...]
    feature_columns: tuple[tuple[int, ...], ...]
    scorer_names: tuple[str, ...]
    baseline_scores: dict[str, float | int]
    permuted_scores: dict[str, np.ndarray]
    n_repeats: int
    multimetric: bool = False
    pending_features: tuple[str, ...] = ()
    bootstrap_baseline_scores: dict[str, np.ndarray] | None = None
    bootstrap_permuted_scores: dict[str, np.ndarray] | None = None
    confidence_level: float = 0.95
    subgroups: dict[str, tuple[Subgroup, ...]] | None = None
    algorithm: str = "generic"

    @property
    def n_repeats_done(self) -> int:
        """Repeats every feature of this snapshot has (1 for a first round
        in progress, whose `pending_features` have none)."""
        return next(iter(self.permuted_scores.values())).shape[1]

    @property
    def rounds_done(self) -> float:
        """Repeat rounds done, counting a first round in progress by the
        share of its features done: the run's progress is this over
        `n_repeats`."""
        if not self.pending_features:
            return self.n_repeats_done
        done = len(self.feature_names)
        return done / (done + len(self.pending_features))

    @property
    def complete(self) -> bool:
        return self.n_repeats_done == self.n_repeats and not self.pending_features

    def _scorer(self, scorer):
        if scorer is None:
            if len(self.scorer_names) != 1:
                raise ValueError(
                    f"scorer: this result holds {list(self.scorer_names)}; "
                    "name the one you want."
                )
            return self.scorer_names[0]
        if scorer not in self.permuted_scores:
            raise ValueError(
                f"scorer: {quoted(scorer)} is not in this result; "
                f"choose from {list(self.scorer_names)}."
            )
        return scorer

    def importances(self, scorer: str | None = None) -> np.ndarray:
        """Importances of shape (n_features, n_repeats_done) for one scorer."""
        scorer = self._scorer(scorer)
        return self.baseline_scores[scorer] - self.permuted_scores[scorer]

    @property
    def n_bootstrap(self) -> int | None:
        """Resamples of the held-out rows, or None without them."""
        if self.bootstrap_baseline_scores is None:
            return None
        return len(next(iter(self.bootstrap_baseline_scores.values())))

    def bootstrap_importances(self, scorer: str | None = None) -> np.ndarray:
        """Importances of shape (n_features, n_bootstrap) for one scorer: under
        each resample b of the held-out rows, the mean over the repeats done
        of (baseline score_b - permuted score_b)."""
        scorer = self._scorer(scorer)
        if self.bootstrap_baseline_scores is None:
            raise ValueError(
                "n_bootstrap: this result has no resamples of the held-out "
                "rows; compute it with n_bootstrap=200 (for instance)."
            )
        permuted = self.bootstrap_permuted_scores[scorer]  # type: ignore[index]
        if permuted.shape[1] == 0:
            return np.full((permuted.shape[0], permuted.shape[2]), np.nan)
        # The mean of the differences, not the difference of the means: a
        # copy scored as the baseline then gives exactly 0.
        baseline = self.bootstrap_baseline_scores[scorer]
        return (baseline - permuted).mean(axis=1)

    def interval(self, scorer: str | None = None) -> np.ndarray:
        """The held-out interval of each feature's importance, shape
        (n_features, 2): the percentile interval at `confidence_level` of
        :meth:`bootstrap_importances`.

        It covers the sampling noise of the held-out rows and the repeats'
        shuffles of them, for this fitted model: how the importance would
        vary over other held-out samples of the same size from the same
        distribution, not over refits of the model. The repeats' std covers
        the shuffles only.
        """
        values = self.bootstrap_importances(scorer)
        tail = 100 * (1 - self.confidence_level) / 2
        if np.isnan(values).all():
            return np.full((len(values), 2), np.nan)
        return np.percentile(values, [tail, 100 - tail], axis=1).T

    def top(
        self, scorer: str | None = None, k: int | None = None
    ) -> tuple[npt.NDArray[np.intp], int]:
        """Indices of the `k` features with the highest mean importance, most
        important first (ties keep the requested order), and how many features
        are left out."""
        importances = self.importances(scorer)
        if importances.shape[1]:
            mean = importances.mean(axis=1)
        else:
            mean = np.zeros(len(importances))
        order = np.argsort(-mean, kind="stable")
        shown = order if k is None else order[:k]
        return shown, len(order) - len(shown)

    def select(
        self,
        feature_columns: Sequence[Sequence[int]],
        scorers: Sequence[str],
        feature_names: Sequence[str] | None = None,
    ) -> PermutationImportanceResult | None:
        """The same numbers for some of the features and scorers: the
        features permuting exactly `feature_columns` (one tuple of column
        positions each, in that order, renamed `feature_names` if given) and
        the scorers `scorers`. A feature's permuted scores depend only on its
        columns and the repeat's permutation, so they are what a run of just
        these would give. None when this result lacks one of them."""
        where = {tuple(c): i for i, c in enumerate(self.feature_columns)}
        wanted = [tuple(c) for c in feature_columns]
        if any(c not in where for c in wanted) or any(
            s not in self.permuted_scores for s in scorers
        ):
            return None
        rows = [where[c] for c in wanted]
        names = (
            tuple(feature_names)
            if feature_names is not None
            else tuple(self.feature_names[i] for i in rows)
        )
        baseline_resampled = permuted_resampled = None
        if self.bootstrap_baseline_scores is not None:
            permuted = self.bootstrap_permuted_scores or {}
            baseline_resampled = {s: self.bootstrap_baseline_scores[s] for s in scorers}
            permuted_resampled = {s: permuted[s][rows] for s in scorers}
        return PermutationImportanceResult(
            feature_names=names,
            feature_columns=tuple(wanted),
            scorer_names=tuple(scorers),
            baseline_scores={s: self.baseline_scores[s] for s in scorers},
            permuted_scores={s: self.permuted_scores[s][rows] for s in scorers},
            n_repeats=self.n_repeats,
            multimetric=self.multimetric,
            bootstrap_baseline_scores=baseline_resampled,
            bootstrap_permuted_scores=permuted_resampled,
            confidence_level=self.confidence_level,
            subgroups=None
            if self.subgroups is None
            else {
                new: self.subgroups[self.feature_names[i]]
                for new, i in zip(names, rows, strict=True)
            },
            algorithm=self.algorithm,
        )

    def to_bunch(self, scorer: str | None = None) -> Bunch:
        """scikit-learn's Bunch for one scorer, plus `baseline_score` and
        `feature_names`; with resamples of the held-out rows, also
        `importances_bootstrap` (n_features, n_bootstrap), `interval`
        (n_features, 2) and `confidence_level` (see :meth:`interval`); for a
        conditional importance, `subgroups` (see the attribute)."""
        name = self._scorer(scorer)
        importances = self.importances(name)
        if isinstance(self.baseline_scores[name], numbers.Integral):
            # scikit-learn subtracts integer scores from an integer baseline.
            importances = importances.astype(np.int64)
        with np.errstate(invalid="ignore"):
            mean = (
                np.mean(importances, axis=1)
                if importances.shape[1]
                else _nan(importances)
            )
            std = (
                np.std(importances, axis=1)
                if importances.shape[1]
                else _nan(importances)
            )
        bunch = Bunch(
            importances_mean=mean,
            importances_std=std,
            importances=importances,
            baseline_score=self.baseline_scores[name],
            feature_names=np.asarray(self.feature_names, dtype=object),
        )
        if self.bootstrap_baseline_scores is not None:
            bunch.importances_bootstrap = self.bootstrap_importances(name)
            bunch.interval = self.interval(name)
            bunch.confidence_level = self.confidence_level
        if self.subgroups is not None:
            bunch.subgroups = dict(self.subgroups)
        return bunch

    def to_sklearn(self) -> Bunch | dict[str, Bunch]:
        """What :func:`sklearn.inspection.permutation_importance` returns: a
        Bunch, or a dict of Bunches keyed by scorer name for several scorers."""
        if self.multimetric:
            return {name: self.to_bunch(name) for name in self.scorer_names}
        return self.to_bunch(self.scorer_names[0])

    def to_frame(self) -> pd.DataFrame:
        """Tidy DataFrame: one row per feature, scorer and repeat."""
        import pandas as pd

        frames = []
        n_features, n_done = len(self.feature_names), self.n_repeats_done
        for name in self.scorer_names:
            frames.append(
                pd.DataFrame(
                    {
                        "feature": np.repeat(
                            np.asarray(self.feature_names, dtype=object), n_done
                        ),
                        "scorer": name,
                        "repeat": np.tile(np.arange(n_done), n_features),
                        "importance": self.importances(name).ravel(),
                        "baseline_score": self.baseline_scores[name],
                        "permuted_score": self.permuted_scores[name].ravel(),
                    }
                )
            )
        return pd.concat(frames, ignore_index=True)


def _nan(importances):
    return np.full(importances.shape[0], np.nan)
