"""LightGBM's links (its objectives' ``ConvertOutput``), compiled: each
calls the C library's ``exp``, as LightGBM's C++ does (``std::exp``).

numpy's own ``exp`` is not the C library's: with AVX-512 it rounds about one
value in twenty the other way (an ulp), and a probability made with it would
differ from LightGBM's in its last bit. numba compiles ``math.exp`` to a call
of the C library's; on glibc (Linux) the walk's probabilities are then
LightGBM's bit for bit (``tests/engine/shortcuts/test_lightgbm_walk.py``;
``tests/numerics.py`` says what is promised elsewhere). Each function
repeats LightGBM's expression as written, in its order of operations.
"""

import math

import numpy as np

from ..kernels import compiled


@compiled(nogil=True)
def sigmoid(raw, scale):
    """``1.0 / (1.0 + exp(-sigmoid * raw))`` value by value (binary
    objective; multiclassova, class by class)."""
    out = np.empty_like(raw)
    flat_raw, flat_out = raw.reshape(-1), out.reshape(-1)
    for i in range(flat_raw.shape[0]):
        flat_out[i] = 1.0 / (1.0 + math.exp(-scale * flat_raw[i]))
    return out


@compiled(nogil=True)
def exponential(raw):
    """``exp(raw)`` (poisson, gamma and tweedie objectives)."""
    out = np.empty_like(raw)
    for i in range(raw.shape[0]):
        out[i] = math.exp(raw[i])
    return out


@compiled(nogil=True)
def softmax(raw):
    """Each row's softmax as LightGBM's ``Common::Softmax`` computes it: the
    row's maximum, then ``exp(raw - max)`` added up class by class from 0.0,
    then each divided by that sum (multiclass objective)."""
    n_rows, n_classes = raw.shape
    out = np.empty_like(raw)
    for i in range(n_rows):
        top = raw[i, 0]
        for k in range(1, n_classes):
            # std::max(raw[k], top): top unless raw[k] is not below it.
            if not raw[i, k] < top:
                top = raw[i, k]
        total = 0.0
        for k in range(n_classes):
            out[i, k] = math.exp(raw[i, k] - top)
            total += out[i, k]
        for k in range(n_classes):
            out[i, k] /= total
    return out
