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
"""

import numpy as np
from numpy.testing import assert_allclose

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
