"""The held-out bootstrap: every score again under resampled held-out rows.

The repeats' spread of a permutation importance covers the shuffles of one
held-out set; another held-out sample of the same size would give another
importance. To see that too, the rows are resampled with replacement
`n_bootstrap` times (multinomial counts ``c``, drawn once per run from their
own random stream) and every score, the baseline's and each permuted copy's,
is computed again with weights built from the counts and the user's
``sample_weight``: the permuted predictions are reused, nothing is predicted
again.

The baseline's row i weighs ``c_i * sample_weight[i]``. A row of a permuted
copy pairs row i (its target and other features) with the permuted
feature's value from its donor row ``j = permutation[i]``, so a resample
moves the copy's importance through both rows. The copy's score under a
resample is the baseline's plus the resampled sum of its rows' *changes*
of loss (permuted minus unpermuted), row i's change weighing ``(c_i + c_j -
1) * sample_weight[i]``: the first-order (linear) effect of both counts on
the change, which can be negative. Every row thus moves the importance as
a target and as a donor, as it does across held-out samples, and only
through what the permutation changed: a copy whose predictions are the
baseline's scores as the baseline under every resample, so a feature the
model ignores has the interval [0, 0].

Weighting the copy's whole loss by ``c_i + c_j - 1`` (as before issue #52)
also credited the donor with its target's unpermuted loss, noise the size
of the loss's own spread (over sqrt(n_repeats)), which gave an ignored
feature [-0.014, 0.016]. Weighting a copy's row by ``c_i`` alone treats the
donors as fixed and misses much of the sampling variance; by ``c_i * c_j``
(a resample's count of such pairs) adds a second-order term as large as the
whole loss's variance. In a simulation of a known process (95 % intervals
over fresh held-out sets, the model fixed) ``c_i`` covered 64 to 93 %,
``c_i * c_j`` 87 to 99 % with intervals too wide where the rows' losses are
noisy (tests/engine/permutation/test_heldout_bootstrap.py keeps one such
simulation). Against the bootstrap it stands for (each resample's
importance by scikit-learn, the model predicting every resampled copy:
tests/engine/permutation/test_bootstrap_by_resampling.py) the interval
agrees within a quarter of its width with 5 repeats; with one repeat it is
wider, by the changes' pair-to-pair noise that the repeats average.

The weights being linear in the counts, each score is a ratio of weighted
sums over rows, and ``sum_i c_{p(i)} a_i = sum_j c_j a_{p^-1(j)}``: every
resample of every copy comes from one matrix product of row sums (copies x
rows) with the counts (rows x resamples). Hence only metrics that are
weighted means of per-row losses are resampled (r2, a ratio of two): mean
squared, root mean squared, absolute and absolute percentage errors,
accuracy and log loss (and CatBoost's own score, accuracy or R² by another
name). The copies' sums start from the baseline's row
losses: where X's predictions ride the first chunk, the copies are scored
under the resamples once X's are in (``chunks.LaterResamples``).
"""

import numbers
import threading
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

from .._core.compat import _Scorer, _scorer_accepts_sample_weight, log_loss_logs
from .scorers import catboost_accuracy, catboost_r2
from .vectorized_metrics import _labels_match, _numeric

# Rows of the counts made float at once: 8 MiB of float64 whatever the
# number of resamples.
_BLOCK_BYTES = 8 * 2**20


@dataclass(frozen=True)
class BootstrapDraw:
    """What fixes a run's resamples: its seed, their number and the rows
    resampled (a baseline scored under one draw serves only that draw)."""

    seed: int
    n_bootstrap: int
    n_rows: int


class HeldoutBootstrap:
    """A run's resamples of its held-out rows.

    `counts[i, b]` is how many times row `i` of the scored rows (X's, or the
    `max_samples` subsample `rows`) is drawn in resample `b`; `sample_weight`
    the user's weights of those rows, or None. The counts are drawn from
    `draw` when first read, once whichever thread reads them: a widget's
    first bars come before the draw (see ``chunks.LaterResamples``).
    """

    def __init__(self, draw, sample_weight, rows):
        self.draw, self.sample_weight, self.rows = draw, sample_weight, rows
        self._counts = None
        self._lock = threading.Lock()

    def __getstate__(self):
        # Shipped to a remote backend's workers: without its lock.
        state = dict(self.__dict__)
        del state["_lock"]
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()

    @property
    def counts(self):
        """(n_rows, n_bootstrap), a small unsigned int type."""
        with self._lock:
            if self._counts is None:
                self._counts = _draw_counts(self.draw)
            return self._counts

    @property
    def n_bootstrap(self):
        return self.draw.n_bootstrap

    def resampled_sums(self, sums):
        """``sums @ counts``, shape (k, n_bootstrap), for `sums` of shape
        (k, n_rows): a block of rows of the counts made float at a time."""
        n_rows = self.counts.shape[0]
        total = np.zeros((sums.shape[0], self.n_bootstrap))
        step = max(256, _BLOCK_BYTES // (8 * self.n_bootstrap))
        for start in range(0, n_rows, step):
            rows = slice(start, min(start + step, n_rows))
            total += sums[:, rows] @ self.counts[rows].astype(np.float64)
        return total


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


def check_one_output(y):
    """Refuse a `y` of several outputs: the resampled scores are one
    output's row losses."""
    if np.ndim(y) > 1:
        raise ValueError(
            f"n_bootstrap: y has {np.shape(y)[1]} outputs; the held-out interval "
            "scores one. Pass one column of y, or n_bootstrap=None."
        )


def _row_loss(planned):
    """``(how, losses)`` of a scorer that is a weighted mean of row losses
    (see `_ROW_LOSSES`), or None."""
    scorer = planned.scorer
    if not planned.replayable or type(scorer) is not _Scorer or scorer._kwargs:
        return None
    return _ROW_LOSSES.get(scorer._score_func)


def check_bootstrap_scorers(plan):
    """Refuse scorers the resamples cannot score (see the module doc)."""
    for planned in plan.scorers:
        label = planned.name or repr(planned.scorer)
        if _row_loss(planned) is None:
            raise ValueError(
                f"n_bootstrap: the scorer {label} is not a mean over rows; the "
                "held-out interval takes r2, (root) mean squared, absolute and "
                "absolute percentage errors, accuracy and log loss (and "
                "CatBoost's own score)."
            )
        if plan.multimetric and not _scorer_accepts_sample_weight(planned.scorer):
            raise ValueError(
                f"n_bootstrap: the scorer {label} takes no sample_weight, "
                "through which the resamples weight the rows."
            )


def resamples_scorers(plan):
    """Whether held-out resamples can score every scorer of `plan` (a
    :class:`~.scoring.ScoringPlan`)."""
    try:
        check_bootstrap_scorers(plan)
    except ValueError:
        return False
    return True


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
    return HeldoutBootstrap(
        BootstrapDraw(seed, n_bootstrap, n_rows), sample_weight, rows
    )


def _draw_counts(draw):
    """The multinomial counts of `draw`, shape (n_rows, n_bootstrap)."""
    rng = np.random.default_rng([draw.seed, 37])
    n_rows = draw.n_rows
    counts = np.empty((n_rows, draw.n_bootstrap), dtype=np.uint16)
    for b in range(draw.n_bootstrap):
        # Row indices drawn with replacement, counted: multinomial counts.
        drawn = np.bincount(rng.integers(0, n_rows, n_rows), minlength=n_rows)
        counts[:, b] = np.minimum(drawn, np.iinfo(np.uint16).max)
    if counts.max(initial=0) < 256:
        counts = counts.astype(np.uint8)
    return counts


@dataclass(frozen=True)
class ResampledLoss:
    """One scorer's baseline under the resamples, as its copies' resampled
    scores start from it: the rows' losses (None where the metric's inputs
    are outside what it reproduces) and, per resample, the weighted sum of
    the losses, of the weights and (r2) of y's squared deviations."""

    how: str  # "mean", "sqrt" or "r2"
    sign: float  # the scorer's: -1 for an error, 1 for a score
    row_losses: np.ndarray | None
    total: np.ndarray | None  # (n_bootstrap,)
    weight: np.ndarray | None
    squares: np.ndarray | None  # r2's denominator

    def scores(self, changes=0.0):
        """The scores under each resample of rows whose summed losses moved
        by `changes` (0 for the baseline itself; (copies, n_bootstrap) for
        permuted copies): NaN without row losses."""
        if self.row_losses is None:
            return np.full(np.shape(changes) or np.shape(self.weight), np.nan)
        total = self.total + changes
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.how != "r2":
                mean = total / self.weight
                return self.sign * (np.sqrt(mean) if self.how == "sqrt" else mean)
            r2 = 1 - total / self.squares
        # scikit-learn's force_finite
        r2 = np.where(self.squares == 0, np.where(total == 0, 1.0, 0.0), r2)
        return self.sign * r2


def resampled_baseline(plan, outputs, y, bootstrap):
    """Each scorer's :class:`ResampledLoss` of the unpermuted rows'
    predictions `outputs` (as :meth:`~.scoring.ScoringPlan.score_blocks`
    takes them): row i weighs ``c_i * sample_weight[i]``."""
    y = np.asarray(y)
    weight = _user_weight(bootstrap, y.shape[0])
    blocked = {method: value[np.newaxis] for method, value in outputs.items()}
    y_centred = y.astype(float) - y.mean() if y.dtype.kind in "fiu" else None
    sums = [weight]
    if y_centred is not None:  # the weighted sum of squares is shift-free
        sums += [weight * y_centred, weight * y_centred**2]
    losses = {}
    for planned in plan.scorers:
        how, row_losses = _row_loss(planned)
        loss = row_losses(y, plan._response(planned, blocked), plan._classes)
        losses[planned.name or "score"] = (how, planned.scorer._sign, loss)
        if loss is not None:
            sums.append(weight * loss[0])
    resampled = bootstrap.resampled_sums(np.asarray(sums))
    total_weight = resampled[0]
    squares = None
    if y_centred is not None:
        squares = resampled[2] - resampled[1] ** 2 / total_weight
    out, next_row = {}, 3 if y_centred is not None else 1
    for name, (how, sign, loss) in losses.items():
        if loss is None:
            out[name] = ResampledLoss(how, sign, None, None, total_weight, None)
            continue
        out[name] = ResampledLoss(
            how, sign, loss[0], resampled[next_row], total_weight, squares
        )
        next_row += 1
    return out


def bootstrap_scores(plan, outputs, n_blocks, y, bootstrap, donors, baseline):
    """Every scorer's scores of `n_blocks` permuted copies, equal blocks of
    prediction `outputs` (as :meth:`~.scoring.ScoringPlan.score_blocks` takes
    them), under each resample: a dict of arrays of shape (n_blocks,
    n_bootstrap), NaN where a metric's inputs are outside what it
    reproduces. `donors` holds each block's permutation, `baseline` each
    scorer's :class:`ResampledLoss` of the unpermuted rows.

    A copy's score under a resample is its baseline's plus the resampled
    sum of its rows' changes of loss, row i's change weighing ``c_i + c_j -
    1`` (j its donor; see the module doc): a copy whose predictions are the
    baseline's changes nothing, under every resample."""
    blocked = {
        method: value.reshape((n_blocks, -1) + value.shape[1:])
        for method, value in outputs.items()
    }
    y = np.asarray(y)
    weight = _user_weight(bootstrap, y.shape[0])
    inverses = [np.argsort(p) for p in donors]
    rows, offsets, spans = [], [], {}
    for planned in plan.scorers:
        name = planned.name or "score"
        _, row_losses = _row_loss(planned)
        loss = row_losses(y, plan._response(planned, blocked), plan._classes)
        if loss is None or baseline[name].row_losses is None:
            continue
        # Exactly 0 wherever a copy's prediction is the baseline's.
        changes = weight * (loss - baseline[name].row_losses)
        spans[name] = slice(len(rows), len(rows) + n_blocks)
        for b, inverse in enumerate(inverses):
            # sum_i (c_i + c_p(i) - 1) d_i = sum_j c_j (d_j + d_p^-1(j)) - sum d
            rows.append(changes[b] + changes[b, inverse])
            offsets.append(changes[b].sum())
    if rows:
        resampled = bootstrap.resampled_sums(np.asarray(rows))
        resampled -= np.asarray(offsets)[:, np.newaxis]
    return {
        name: baseline[name].scores(
            resampled[spans[name]]
            if name in spans
            else np.full((n_blocks, bootstrap.n_bootstrap), np.nan)
        )
        for name in baseline
    }


def _user_weight(bootstrap, n_rows):
    if bootstrap.sample_weight is None:
        return np.ones(n_rows)
    return np.asarray(bootstrap.sample_weight, dtype=np.float64)


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
    if y.ndim != 1 or predictions.ndim != 2:
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
    return -log_loss_logs(np.clip(chosen, eps, 1 - eps))


_ROW_LOSSES = {
    r2_score: ("r2", _squared),
    mean_squared_error: ("mean", _squared),
    root_mean_squared_error: ("sqrt", _squared),
    mean_absolute_error: ("mean", _absolute),
    mean_absolute_percentage_error: ("mean", _relative),
    accuracy_score: ("mean", _correct),
    log_loss: ("mean", _log_losses),
    # CatBoost's own score, the default scoring of its models, replayed
    # (scorers.py): accuracy and R² by other names.
    catboost_accuracy: ("mean", _correct),
    catboost_r2: ("r2", _squared),
}
