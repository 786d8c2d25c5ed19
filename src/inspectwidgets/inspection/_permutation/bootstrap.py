"""The held-out bootstrap: every score again under resampled held-out rows.

The repeats' spread of a permutation importance covers the shuffles of one
held-out set; another held-out sample of the same size would give another
importance. To see that too, the rows are resampled with replacement
`n_bootstrap` times (multinomial counts, drawn once per run from their own
random stream) and every score, the baseline's and each permuted copy's, is
computed again with the counts multiplied into ``sample_weight``: the
permuted predictions are reused, nothing is predicted again.

A row of a permuted copy pairs row i (its target and other features) with
the permuted feature's value from its donor row ``j = permutation[i]``. A
resample holding row i ``c_i`` times and row j ``c_j`` times holds ``c_i *
c_j`` such pairs, so a copy's row i weighs ``c_i * c_j * sample_weight[i]``;
the baseline's row i weighs ``c_i * sample_weight[i]``. Weighting the copies'
rows by ``c_i`` alone treats the donors as fixed: every row enters an
importance twice, as a target and as a donor, and that interval missed much
of the sampling variance (a 95 % interval covered 64 to 75 % of known
importances in a simulation, the pair weights 87 to 96 %; see
tests/engine/permutation/test_heldout_bootstrap.py).

For metrics that are weighted means of per-row losses (and r2, a ratio of
two), all resamples of all copies are one matrix product of the copies' row
losses (copies x rows) with the weights (rows x resamples); other scorers
replayable from predictions are called once per copy and resample with the
cached predictions.
"""

import numbers
from dataclasses import dataclass

import numpy as np
from sklearn.metrics import (
    accuracy_score,
    log_loss,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    r2_score,
    root_mean_squared_error,
)

from .._core.compat import _Scorer, _scorer_accepts_sample_weight
from .vectorized_metrics import _labels_match, _numeric

# Rows of the weight matrix made float at once: 8 MiB of float64 whatever the
# number of resamples.
_BLOCK_BYTES = 8 * 2**20


@dataclass(frozen=True)
class BootstrapDraw:
    """What fixes a run's resamples: its seed, their number and the rows
    resampled (a baseline scored under one draw serves only that draw)."""

    seed: int
    n_bootstrap: int
    n_rows: int


@dataclass(frozen=True)
class HeldoutBootstrap:
    """A run's resamples of its held-out rows.

    `counts[b, i]` is how many times row `i` of the scored rows (X's, or the
    `max_samples` subsample `rows`) is drawn in resample `b`; `sample_weight`
    the user's weights of those rows, or None.
    """

    draw: BootstrapDraw
    counts: np.ndarray  # (n_bootstrap, n_rows), a small unsigned int type
    sample_weight: object
    rows: object  # the subsample of X scored, or None for every row

    @property
    def n_bootstrap(self):
        return self.counts.shape[0]

    def weight_blocks(self, donors=None):
        """``(row slice, weights)`` covering every row, the weights of shape
        (block rows, n_bootstrap) as float64: the baseline's, or with
        `donors` (a copy's permutation) a permuted copy's."""
        n_rows = self.counts.shape[1]
        step = max(256, _BLOCK_BYTES // (8 * self.n_bootstrap))
        for start in range(0, n_rows, step):
            rows = slice(start, min(start + step, n_rows))
            w = self.counts[:, rows].T.astype(np.float64)
            if donors is not None:
                w *= self.counts[:, donors[rows]].T
            if self.sample_weight is not None:
                w *= np.asarray(self.sample_weight, dtype=np.float64)[rows, None]
            yield rows, w

    def weights(self, b, donors=None):
        """The weights of resample `b` over every row (see `weight_blocks`)."""
        w = self.counts[b].astype(np.float64)
        if donors is not None:
            w *= self.counts[b, donors]
        if self.sample_weight is not None:
            w *= np.asarray(self.sample_weight, dtype=np.float64)
        return w


def check_bootstrap(n_bootstrap, confidence_level):
    """Validate the bootstrap's parameters; `n_bootstrap` as an int or None."""
    if n_bootstrap is not None:
        if isinstance(n_bootstrap, bool) or not isinstance(
            n_bootstrap, numbers.Integral
        ):
            raise TypeError(
                f"n_bootstrap must be an int >= 2 or None; got {n_bootstrap!r}."
            )
        if n_bootstrap < 2:
            raise ValueError(
                "n_bootstrap must be >= 2 (or None for no interval); "
                f"got {n_bootstrap}."
            )
        n_bootstrap = int(n_bootstrap)
    if (
        isinstance(confidence_level, bool)
        or not isinstance(confidence_level, numbers.Real)
        or not 0 < confidence_level < 1
    ):
        raise ValueError(
            f"confidence_level must be a number in (0, 1); got {confidence_level!r}."
        )
    return n_bootstrap


def check_bootstrap_scorers(plan):
    """Refuse scorers the resamples cannot reuse predictions for."""
    for planned in plan.scorers:
        label = planned.name or repr(planned.scorer)
        if not planned.replayable:
            raise ValueError(
                f"n_bootstrap: the scorer {label} needs the permuted rows "
                "themselves, so every resample would predict them again; use "
                "a scorer name or one made by make_scorer."
            )
        if plan.multimetric and not _scorer_accepts_sample_weight(planned.scorer):
            raise ValueError(
                f"n_bootstrap: the scorer {label} takes no sample_weight, "
                "through which the resamples weight the rows."
            )


def resamples_scorers(plan):
    """Whether held-out resamples can score every scorer of `plan` (a
    :class:`~.scoring.ScoringPlan`) from predictions, and how: "fast" where
    each is a row-loss metric (matrix products), "slow" where some are scored
    by calls, one per copy and resample; None where they cannot."""
    try:
        check_bootstrap_scorers(plan)
    except ValueError:
        return None
    fast = all(
        type(p.scorer) is _Scorer
        and not p.scorer._kwargs
        and p.scorer._score_func in _ROW_LOSSES
        for p in plan.scorers
    )
    return "fast" if fast else "slow"


def run_bootstrap(plan, seed, n_bootstrap, n_rows, sample_weight, rows):
    """A run's :class:`HeldoutBootstrap` (None without `n_bootstrap`), its
    scorers checked; `n_rows`, `sample_weight` and `rows` those of the rows
    scored."""
    if n_bootstrap is None:
        return None
    check_bootstrap_scorers(plan)
    return draw_bootstrap(seed, n_bootstrap, n_rows, sample_weight, rows)


def draw_bootstrap(seed, n_bootstrap, n_rows, sample_weight, rows):
    """The :class:`HeldoutBootstrap` of `seed`: its own stream (the seed and
    a fixed key), so the permutations drawn from `seed` are unchanged."""
    rng = np.random.default_rng([seed, 37])
    counts = np.empty((n_bootstrap, n_rows), dtype=np.uint16)
    for b in range(n_bootstrap):
        # Row indices drawn with replacement, counted: multinomial counts.
        drawn = np.bincount(rng.integers(0, n_rows, n_rows), minlength=n_rows)
        counts[b] = np.minimum(drawn, np.iinfo(np.uint16).max)
    if counts.max(initial=0) < 256:
        counts = counts.astype(np.uint8)
    return HeldoutBootstrap(
        draw=BootstrapDraw(seed, n_bootstrap, n_rows),
        counts=counts,
        sample_weight=sample_weight,
        rows=rows,
    )


def bootstrap_scores(plan, outputs, n_blocks, y, bootstrap, donors=None):
    """Every scorer's scores of `n_blocks` equal blocks of prediction
    `outputs` (as :meth:`~.scoring.ScoringPlan.score_blocks` takes them) under
    each resample: a dict of arrays of shape (n_blocks, n_bootstrap).
    `donors` holds each block's permutation (None for the baseline's)."""
    if donors is None:
        donors = [None] * n_blocks
    # Blocks sharing a permutation (a repeat's features) share weights.
    grouped = {}
    for block, permutation in enumerate(donors):
        grouped.setdefault(id(permutation), (permutation, []))[1].append(block)
    groups = list(grouped.values())
    blocked = {
        method: value.reshape((n_blocks, -1) + value.shape[1:])
        for method, value in outputs.items()
    }
    y = None if y is None else np.asarray(y)
    scores = {}
    for planned in plan.scorers:
        name = planned.name or "score"
        values = None
        if y is not None:
            values = _vectorized(planned, y, plan, blocked, bootstrap, groups)
        if values is None:
            values = np.empty((n_blocks, bootstrap.n_bootstrap))
            for permutation, blocks in groups:
                for b in range(bootstrap.n_bootstrap):
                    weight = bootstrap.weights(b, permutation)
                    for block in blocks:
                        values[block, b] = plan.replay_score(
                            planned,
                            {m: v[block] for m, v in blocked.items()},
                            y,
                            weight,
                        )
        else:
            values = planned.scorer._sign * values
        scores[name] = values
    return scores


def _vectorized(planned, y, plan, blocked, bootstrap, groups):
    """All resamples of all blocks by matrix products, or None where the
    metric is not a weighted mean of row losses reproduced here."""
    scorer = planned.scorer
    if type(scorer) is not _Scorer or scorer._kwargs:
        return None
    kind = _ROW_LOSSES.get(scorer._score_func)
    if kind is None:
        return None
    how, losses = kind
    response = plan._response(planned, blocked)
    loss = losses(y, response, plan._classes)
    if loss is None:
        return None
    values = np.empty((loss.shape[0], bootstrap.n_bootstrap))
    for permutation, blocks in groups:
        total = np.zeros((len(blocks), bootstrap.n_bootstrap))
        weight_sum = np.zeros(bootstrap.n_bootstrap)
        for rows, w in bootstrap.weight_blocks(permutation):
            total += loss[blocks, rows] @ w
            weight_sum += w.sum(axis=0)
        if how == "r2":
            values[blocks] = _r2(total, _r2_denominators(y, bootstrap, permutation))
            continue
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = total / weight_sum
        values[blocks] = np.sqrt(mean) if how == "sqrt" else mean
    return values


def _r2(numerator, denominator):
    """scikit-learn's r2 with force_finite, per block and resample."""
    with np.errstate(invalid="ignore", divide="ignore"):
        r2 = 1 - numerator / denominator
    zero = denominator == 0
    return np.where(zero, np.where(numerator == 0, 1.0, 0.0), r2)


def _r2_denominators(y, bootstrap, permutation):
    """Each resample's weighted sum of squares of y about its weighted mean."""
    y = y.astype(float)
    weighted = np.zeros(bootstrap.n_bootstrap)
    weight_sum = np.zeros(bootstrap.n_bootstrap)
    for rows, w in bootstrap.weight_blocks(permutation):
        weighted += y[rows] @ w
        weight_sum += w.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = weighted / weight_sum
    denominator = np.zeros(bootstrap.n_bootstrap)
    for rows, w in bootstrap.weight_blocks(permutation):
        denominator += np.sum(w * (y[rows, None] - mean) ** 2, axis=0)
    return denominator


def _squared(y, predictions, classes):
    if not _numeric(y, predictions):
        return None
    return (y.astype(float) - predictions) ** 2


def _absolute(y, predictions, classes):
    if not _numeric(y, predictions):
        return None
    return np.abs(predictions - y)


def _relative(y, predictions, classes):
    if not _numeric(y, predictions):
        return None
    y = y.astype(float)
    return np.abs(predictions - y) / np.maximum(np.abs(y), np.finfo(np.float64).eps)


def _correct(y, predictions, classes):
    if not _numeric(y, predictions):
        return None
    return (predictions == y).astype(np.float64)


def _log_losses(y, proba, classes):
    if not _labels_match(y, classes) or np.isnan(proba).any():
        return None
    if proba.min() < 0 or proba.max() > 1:
        return None
    index = np.searchsorted(classes, y)
    if proba.ndim == 2:  # binary: P(classes[-1]), see vectorized_metrics
        chosen = np.where(index == 1, proba, 1 - proba)
    else:
        chosen = np.take_along_axis(proba, index[None, :, None], axis=2)[..., 0]
    eps = np.finfo(proba.dtype).eps
    return -np.log(np.clip(chosen, eps, 1 - eps))


_ROW_LOSSES = {
    r2_score: ("r2", _squared),
    mean_squared_error: ("mean", _squared),
    root_mean_squared_error: ("sqrt", _squared),
    mean_absolute_error: ("mean", _absolute),
    mean_absolute_percentage_error: ("mean", _relative),
    accuracy_score: ("mean", _correct),
    log_loss: ("mean", _log_losses),
}
