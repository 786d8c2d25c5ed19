"""How close two computations must agree, said once for every test.

Exact equality (`numpy.testing.assert_array_equal`) is for arithmetic that is
exact by construction: tree models (comparisons and sums in a fixed order),
the engine's own reductions, the vectorized metrics against scikit-learn's
scorers on the same predictions (log loss, ROC AUC: the same operations on the
same arrays), and two runs that predict the same rows in the same chunk layout.

Where BLAS is on the path (linear models, SVMs, kernels, neural networks), the
last bits of a prediction depend on things that do not change the maths: the
CPU kernel OpenBLAS picks (`OPENBLAS_CORETYPE`), its thread count, the number
of rows in the call and a row's position in it (edge tiles of a matrix
product are summed in another order). scikit-learn predicts one permuted copy
per call, the engine a stack of copies, and the engine's chunk sizes adapt to
how long a chunk took. So those comparisons allow a difference of 1e-12
relative to each value and, absolutely, 1e-12 of the largest value compared:
scores and importances are differences of sums whose rounding scales with the
sums, not with their (possibly tiny) difference. Observed differences are at
the level of 1e-16 on scores of order one; 1e-12 is the promise README.md
makes ("the same numbers, to 1e-12").

One more tolerance, for XGBoost's exact H² only: XGBoost rounds each row's
margin to float32 after every tree it adds (its predictor sums in float32),
and the generic path averages those float32 predictions; the exact tree H²
adds the same float32 leaf values, weighted, in float64. Each float32 sum is
off by at most half a float32 ulp (2**-24 relative) per tree added, so with
tens of trees the statistics agree to about 1e-6 of their scale, not 1e-12;
FLOAT32_SUMS_RTOL allows 1e-5. The walk itself sums in float32 and gives
XGBoost's own predictions bit for bit (tests/engine/shortcuts/test_xgboost_walk.py).
"""

import platform

import numpy as np
from numpy.testing import assert_allclose, assert_array_equal

BLAS_RTOL = 1e-12


def assert_blas_close(actual, desired, *, scale=None, err_msg=""):
    """Assert `actual` equals `desired` up to BLAS rounding (see the module doc).

    `scale` is the size the rounding is relative to; by default the largest
    absolute value of `desired` (at least 1).
    """
    desired = np.asarray(desired)
    if scale is None:
        finite = np.abs(desired[np.isfinite(desired)])
        scale = finite.max(initial=0.0)
    assert_allclose(
        actual,
        desired,
        rtol=BLAS_RTOL,
        atol=BLAS_RTOL * max(1.0, scale),
        err_msg=err_msg,
    )


FLOAT32_SUMS_RTOL = 1e-5


def assert_float32_sums_close(actual, desired, *, err_msg=""):
    """Assert `actual` equals `desired` up to float32 sums' rounding (see the
    module doc), relative to each value and to the largest (at least 1)."""
    desired = np.asarray(desired)
    scale = np.abs(desired[np.isfinite(desired)]).max(initial=0.0)
    assert_allclose(
        actual,
        desired,
        rtol=FLOAT32_SUMS_RTOL,
        atol=FLOAT32_SUMS_RTOL * max(1.0, scale),
        err_msg=err_msg,
    )


# LightGBM's links (the tree walk's replay of LGBMClassifier and LGBMRegressor).
# Raw scores are LightGBM's bit for bit everywhere: the same leaf values added
# in the same order, in double. Its probabilities and exp-link predictions are
# the C library's exp of those sums: the walk calls the C library's exp too
# (numba, src/inspectwidgets/inspection/_shortcuts/trees/links.py), so where both
# link glibc (Linux, where `make test` runs) they are bit for bit. Elsewhere
# (another C library under one of them, or numba built with Intel's SVML) an
# exp may round the other way; an ulp of exp moves a probability by at most
# about two, so LINK_RTOL allows four, relative. numpy's own exp is not used:
# with AVX-512 it rounds about one value in twenty the other way from glibc's
# (46,197 of 10**6 normal values times 5, measured on the machine of
# benchmarks/results/boosting_libraries.md).
LINK_RTOL = 4 * np.finfo(np.float64).eps


def assert_link_equal(actual, desired, *, err_msg=""):
    """Assert LightGBM's linked outputs equal (see LINK_RTOL): exactly on
    glibc, within LINK_RTOL elsewhere."""
    if platform.libc_ver()[0] == "glibc":
        assert_array_equal(actual, desired, err_msg=err_msg)
    else:
        assert_allclose(actual, desired, rtol=LINK_RTOL, atol=0, err_msg=err_msg)


# CatBoost's multiclass probabilities (the tree walk's replay of a
# CatBoostClassifier with loss_function="MultiClass"). Its raw formula values
# and labels are CatBoost's bit for bit (the same double leaf values added in
# the same order, the same scale and bias); a binary model's probabilities too
# (CatBoost's sigmoid calls the C library's exp, as the walk does). Its
# softmax does not: CatBoost exponentiates with its own FastExpInplace (a
# vectorised approximation, chosen by the CPU's instruction set: AVX2 or
# SSE2), which no public function exposes, so the walk's softmax calls the C
# library's exp. Measured against predict_proba on 20,000 rows of a 300-tree,
# 5-class model (raw values -12 to 17), the probabilities differ in 65 % of
# the values, by at most 2.7e-15 relative (23 ulps). CATBOOST_SOFTMAX_RTOL
# allows 1e-13, relative to each value and absolutely to the largest value
# compared (at least 1): averages and scores of such probabilities round
# with their sums.
CATBOOST_SOFTMAX_RTOL = 1e-13


def assert_catboost_softmax_close(actual, desired, *, err_msg=""):
    """Assert CatBoost's multiclass probabilities (or values made of them)
    equal up to its fast exp (see CATBOOST_SOFTMAX_RTOL)."""
    desired = np.asarray(desired)
    scale = np.abs(desired[np.isfinite(desired)]).max(initial=0.0)
    assert_allclose(
        actual,
        desired,
        rtol=CATBOOST_SOFTMAX_RTOL,
        atol=CATBOOST_SOFTMAX_RTOL * max(1.0, scale),
        err_msg=err_msg,
    )
