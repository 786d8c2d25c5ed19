"""Scorers that score each subgroup's rows on their own.

A subgroup importance permutes each subgroup's rows among themselves, so one
permuted copy of X holds every subgroup's copy at once, and a prediction of
it serves them all (a model predicts row by row). Scoring then takes each
subgroup's rows of the predictions, its targets and weights: what
scikit-learn's scorer computes on that subgroup's rows alone, by the same
code (vectorized or scikit-learn's own, see scoring.py).
"""

from .._core.compat import _safe_indexing
from .scoring import ScoringPlan


class GroupedScoringPlan(ScoringPlan):
    """A :class:`~.scoring.ScoringPlan` whose scores are keyed
    ``(subgroup, scorer name)``, one per subgroup and scorer.

    Parameters
    ----------
    estimator, scoring : as :class:`~.scoring.ScoringPlan`'s
    x_rows : list of ndarray
        Each subgroup's rows in X, for the scores of X itself.
    copy_rows : list of ndarray
        Each subgroup's rows in the permuted copies (X's rows, or the run's
        subsample of them, where a copy holds fewer rows than X).
    """

    def __init__(self, estimator, scoring, x_rows, copy_rows):
        super().__init__(estimator, scoring)
        self.x_rows, self.copy_rows = x_rows, copy_rows
        self._n_x_rows = sum(len(r) for r in x_rows)

    @property
    def names(self):
        names = super().names
        return tuple(
            (group, name) for group in range(len(self.x_rows)) for name in names
        )

    def error_sum_scoring(self, y, sample_weight):
        """None: each subgroup's rows are scored on their own, where summed
        errors are a copy's sum over all its rows."""
        return None

    def _score_blocks(self, outputs, n_blocks, y, sample_weight, block_X, vectorize):
        """Each subgroup's rows of every block scored by the scorers. A block
        of X's rows (the baseline) or of a copy's: a subsampled copy holds
        fewer rows than X (see subgroup_importance._group_schedule)."""
        n_rows = _rows_in_block(outputs, n_blocks, y, sample_weight, block_X)
        groups = self.x_rows if n_rows == self._n_x_rows else self.copy_rows
        scores, returned_dict = {}, False
        for group, rows in enumerate(groups):
            own = {
                method: value.reshape((n_blocks, n_rows) + value.shape[1:])[
                    :, rows
                ].reshape((n_blocks * len(rows),) + value.shape[1:])
                for method, value in outputs.items()
            }
            group_scores, group_dict = super()._score_blocks(
                own,
                n_blocks,
                _rows_of(y, rows),
                _rows_of(sample_weight, rows),
                lambda b, rows=rows: _safe_indexing(block_X(b), rows, axis=0),
                vectorize,
            )
            returned_dict = returned_dict or group_dict
            scores.update({(group, name): s for name, s in group_scores.items()})
        return scores, returned_dict


def _rows_in_block(outputs, n_blocks, y, sample_weight, block_X):
    """Rows in one block: from the predictions, or (a custom scorer's run
    predicts nothing beforehand) one block's targets, weights or rows."""
    if outputs:
        return len(next(iter(outputs.values()))) // n_blocks
    for per_row in (y, sample_weight):
        if per_row is not None:
            return len(per_row)
    return block_X(0).shape[0]


def _rows_of(values, rows):
    return None if values is None else _safe_indexing(values, rows, axis=0)
