"""Common metrics computed for many blocks of predictions at once.

scikit-learn validates its inputs on every metric call, which costs far more
than the arithmetic when thousands of permuted copies are scored. These
versions take the responses of all blocks as one array, shape
``(n_blocks, n_rows)`` (or ``(n_blocks, n_rows, n_classes)``), follow
scikit-learn's formulas operation by operation, and agree with it to rounding.
Each returns None when its inputs are outside the cases it reproduces exactly;
the caller then scores block by block with scikit-learn's own function.
"""

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


def _numeric(y, response):
    return (
        y.ndim == 1
        and y.shape[0] >= 2
        and response.ndim == 2
        and y.dtype.kind in "fiu"
        and response.dtype.kind in "fiu"
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


def _r2(y, predictions, weight, classes):
    if not _numeric(y, predictions):
        return None
    y = y.astype(float)
    numerator = np.sum(_squared_errors(y, predictions, weight), axis=1)
    w = 1.0 if weight is None else weight
    denominator = np.sum(w * (y - np.average(y, weights=weight)) ** 2)
    if denominator == 0:  # scikit-learn's force_finite
        return np.where(numerator == 0, 1.0, 0.0)
    return 1 - numerator / denominator


def _mse(y, predictions, weight, classes):
    if not _numeric(y, predictions):
        return None
    return np.average(_squared_errors(y, predictions), axis=1, weights=weight)


def _rmse(y, predictions, weight, classes):
    mse = _mse(y, predictions, weight, classes)
    return None if mse is None else np.sqrt(mse)


def _mae(y, predictions, weight, classes):
    if not _numeric(y, predictions):
        return None
    return np.average(np.abs(predictions - y), axis=1, weights=weight)


def _mape(y, predictions, weight, classes):
    if not _numeric(y, predictions):
        return None
    y = y.astype(float)
    relative = np.abs(predictions - y) / np.maximum(np.abs(y), np.finfo(np.float64).eps)
    return np.average(relative, axis=1, weights=weight)


def _accuracy(y, predictions, weight, classes):
    if not _numeric(y, predictions):
        return None
    return np.average(predictions == y, axis=1, weights=weight)


def _labels_match(y, classes):
    """Whether y holds exactly the estimator's classes, so that scikit-learn's
    label encoding of y agrees with the columns of the responses."""
    return classes is not None and y.ndim == 1 and np.array_equal(np.unique(y), classes)


def _log_loss(y, proba, weight, classes):
    if not _labels_match(y, classes) or np.isnan(proba).any():
        return None
    if proba.min() < 0 or proba.max() > 1:
        return None  # scikit-learn raises; let it
    index = np.searchsorted(classes, y)
    if proba.ndim == 2:
        # Binary: the response is P(classes[-1]); scikit-learn rebuilds the
        # other column as 1 - p before clipping.
        chosen = np.where(index == 1, proba, 1 - proba)
    else:
        chosen = np.take_along_axis(proba, index[None, :, None], axis=2)[..., 0]
    eps = np.finfo(proba.dtype).eps
    loss = -np.log(np.clip(chosen, eps, 1 - eps))
    return np.average(loss, axis=1, weights=weight)


VECTORIZED = {
    r2_score: _r2,
    mean_squared_error: _mse,
    root_mean_squared_error: _rmse,
    mean_absolute_error: _mae,
    mean_absolute_percentage_error: _mape,
    accuracy_score: _accuracy,
    log_loss: _log_loss,
}
