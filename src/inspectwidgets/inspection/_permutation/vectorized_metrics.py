"""Common metrics computed for many blocks of predictions at once.

scikit-learn validates its inputs on every metric call, which costs far more
than the arithmetic when thousands of permuted copies are scored. These
versions take the responses of all blocks as one array, shape
``(n_blocks, n_rows)`` (or ``(n_blocks, n_rows, n_classes)``), follow
scikit-learn's formulas operation by operation, and agree with it to rounding.
Each returns None when its inputs are outside the cases it reproduces exactly;
the caller then scores block by block with scikit-learn's own function.
"""

import functools

import numpy as np
from sklearn.metrics import (
    accuracy_score,
    log_loss,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    r2_score,
    roc_auc_score,
    root_mean_squared_error,
)

from .._core.compat import log_loss_logs
from .class_targets import class_targets
from .vectorized_ranking import roc_auc


def _numeric(y, response):
    return (
        y.ndim == 1
        and y.shape[0] >= 2
        and response.ndim == 2
        and y.dtype.kind in "fiu"
        and response.dtype.kind in "fiu"
    )


# The copies whose errors (squared, absolute) are made at once: a whole
# chunk's (a few MB) took fresh pages from the system on most chunks, page
# faults that cost more than the arithmetic (benchmarks/results/linear.md);
# blocks this small reuse the allocator's memory.
_BLOCK_BYTES = 2**20


def _by_copy_blocks(reduce, predictions):
    """``reduce`` (one value per copy: a reduction along each copy's rows)
    of `predictions`, a block of copies at a time. Each copy's value is its
    own row's reduction, so the same bits whatever the blocks."""
    n_copies = predictions.shape[0]
    step = max(1, _BLOCK_BYTES // max(predictions[:1].nbytes, 1))
    if step >= n_copies:
        return reduce(predictions)
    return np.concatenate(
        [reduce(predictions[low : low + step]) for low in range(0, n_copies, step)]
    )


def _squared_errors(y, predictions, weight=None):
    """``weight * (y - predictions) ** 2`` as scikit-learn computes it, in
    one temporary: the same operations on each value (multiplying by its
    default weight, 1.0, changes no bit)."""
    errors = np.subtract(y, predictions)
    np.square(errors, out=errors)
    if weight is not None:
        np.multiply(weight, errors, out=errors)
    return errors


def squared_error_sums(y, predictions, weight=None):
    """Each copy's ``sum(weight * (y - prediction) ** 2)``, summed as
    scikit-learn's r2 sums it: all that r2, MSE and RMSE read of the copy
    (see ERROR_SUM_METRICS)."""
    return _by_copy_blocks(
        lambda block: np.sum(_squared_errors(y, block, weight), axis=1), predictions
    )


def _r2(y, predictions, weight, classes):
    if not _numeric(y, predictions):
        return None
    y = y.astype(float)
    return _r2_of_sums(y, weight)(squared_error_sums(y, predictions, weight))


def _r2_of_sums(y, weight):
    w = 1.0 if weight is None else weight
    denominator = np.sum(w * (y - np.average(y, weights=weight)) ** 2)
    return functools.partial(_r2_from, denominator)


def _r2_from(denominator, sums):
    if denominator == 0:  # scikit-learn's force_finite
        return np.where(sums == 0, 1.0, 0.0)
    return 1 - sums / denominator


def _mse(y, predictions, weight, classes):
    if not _numeric(y, predictions):
        return None
    return _by_copy_blocks(
        lambda block: np.average(_squared_errors(y, block), axis=1, weights=weight),
        predictions,
    )


def _mse_of_sums(y, weight):
    """`_mse` from the sums of float64 errors (np.average squares float32
    errors in float32): np.average's division, by the rows' count or by the
    weights' sum as np.average sums them."""
    if weight is None:
        return functools.partial(_divided, len(y))
    total = np.broadcast_to(weight, (1, len(y))).sum(
        axis=1, dtype=np.result_type(np.float64, weight.dtype)
    )
    return functools.partial(_divided, total)


def _divided(total, sums):
    """`sums` / `total`, raising where np.average raises."""
    if np.any(total == 0):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    return sums / total


def _rmse(y, predictions, weight, classes):
    mse = _mse(y, predictions, weight, classes)
    return None if mse is None else np.sqrt(mse)


def _rmse_of_sums(y, weight):
    return functools.partial(_root, _mse_of_sums(y, weight))


def _root(mse, sums):
    return np.sqrt(mse(sums))


def _mae(y, predictions, weight, classes):
    if not _numeric(y, predictions):
        return None
    return _by_copy_blocks(
        lambda block: np.average(np.abs(block - y), axis=1, weights=weight),
        predictions,
    )


def _mape(y, predictions, weight, classes):
    if not _numeric(y, predictions):
        return None
    y = y.astype(float)
    scale = np.maximum(np.abs(y), np.finfo(np.float64).eps)
    return _by_copy_blocks(
        lambda block: np.average(np.abs(block - y) / scale, axis=1, weights=weight),
        predictions,
    )


def _accuracy(y, predictions, weight, classes):
    if not _numeric(y, predictions):
        return None
    return np.average(predictions == y, axis=1, weights=weight)


def _labels_match(y, classes):
    """Whether y holds exactly the estimator's classes, so that scikit-learn's
    label encoding of y agrees with the columns of the responses."""
    return classes is not None and y.ndim == 1 and np.array_equal(np.unique(y), classes)


def _log_loss(y, proba, weight, classes):
    """scikit-learn's log loss of each copy (1.9's arithmetic: probabilities
    clipped to ``[eps, 1 - eps]`` of their dtype, never renormalised;
    ``np.average`` of the rows' losses).

    A row's loss is the log of its own class's clipped probability (the
    installed version's logarithm, `log_loss_logs`): the one-hot sum adds
    exact zeros to it. The losses' mean is negated once at
    the end, which rounds alike (negation is exact and rounding symmetric).
    """
    targets = class_targets(y, weight, classes)
    if targets is None:
        return None
    low, high = proba.min(), proba.max()
    if not (low >= 0 and high <= 1):
        return None  # NaN, or a value scikit-learn refuses: let it raise
    if proba.ndim == 2:
        # Binary: the response is P(classes[-1]); scikit-learn rebuilds the
        # other column as 1 - p before clipping. |negative - p| is 1 - p on
        # negative rows and p on positive ones, bit for bit (0 - p is -p),
        # in two vectorized passes (a masked subtraction takes numpy's slow
        # loop).
        negative = targets.derived(
            ("negative", proba.dtype), lambda t: (t.index == 0).astype(proba.dtype)
        )
        chosen = np.subtract(negative, proba)
        np.abs(chosen, out=chosen)
    else:
        chosen = np.take_along_axis(proba, targets.index[None, :, None], axis=2)[..., 0]
    eps = np.finfo(proba.dtype).eps
    np.clip(chosen, eps, 1 - eps, out=chosen)
    return -np.average(log_loss_logs(chosen, out=chosen), axis=1, weights=weight)


VECTORIZED = {
    r2_score: _r2,
    mean_squared_error: _mse,
    root_mean_squared_error: _rmse,
    mean_absolute_error: _mae,
    mean_absolute_percentage_error: _mape,
    accuracy_score: _accuracy,
    log_loss: _log_loss,
    roc_auc_score: roc_auc,
}

# The metrics that read a copy through its squared errors' weighted sum
# alone (`squared_error_sums`): each, given y (as floats) and the weights,
# makes the function of the copies' sums giving their scores (what depends
# on y alone computed once; picklable, for remote workers); on float64
# errors, the same bits as its VECTORIZED version.
ERROR_SUM_METRICS = {
    r2_score: _r2_of_sums,
    mean_squared_error: _mse_of_sums,
    root_mean_squared_error: _rmse_of_sums,
}
