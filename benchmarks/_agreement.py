"""Whether our results equal scikit-learn's: the one check both benchmarks make.

Numbers are held to the test suite's tolerance where BLAS is on the path
(tests/numerics.py): elementwise, |ours - sklearn| <= atol + RTOL * |sklearn|
with atol = RTOL * max(1, max |sklearn|). Predictions made through BLAS can
change in the last bits with the rows per call; tree models agree exactly.
What is not computed (grids, keys, shapes) must be identical.
"""

import sys

import numpy as np
from numpy.testing import assert_allclose

RTOL = 1e-12


class Agreement:
    """Compares our results with scikit-learn's and keeps every mismatch, so
    that a script prints its whole table before it fails."""

    def __init__(self):
        self.mismatches = []

    def max_difference(self, label, ours, theirs):
        """max |ours - theirs| for the table; a mismatch unless the shapes are
        equal and every value is within the tolerance."""
        ours, theirs = np.asarray(ours), np.asarray(theirs)
        if ours.shape != theirs.shape:
            self.mismatches.append(
                f"{label}: shape {ours.shape}, scikit-learn's {theirs.shape}"
            )
            return float("nan")
        difference = float(np.max(np.abs(ours - theirs), initial=0.0))
        atol = absolute_tolerance(theirs)
        try:
            assert_allclose(ours, theirs, rtol=RTOL, atol=atol)
        except AssertionError:
            self.mismatches.append(
                f"{label}: max |ours - sklearn| = {difference:.2e}, allowed "
                f"{atol:.1e} + {RTOL:.0e} * |sklearn|"
            )
        return difference

    def require_identical(self, label, ours, theirs):
        """A mismatch unless `ours` and `theirs` have the same dtype, shape
        and values."""
        ours, theirs = np.asarray(ours), np.asarray(theirs)
        if ours.dtype != theirs.dtype:
            reason = f"dtype {ours.dtype}, scikit-learn's {theirs.dtype}"
        elif ours.shape != theirs.shape:
            reason = f"shape {ours.shape}, scikit-learn's {theirs.shape}"
        elif not np.array_equal(ours, theirs):
            reason = f"{np.sum(ours != theirs)} of {ours.size} values differ"
        else:
            return
        self.mismatches.append(f"{label}: {reason}")

    def exit_if_any(self):
        """Name every mismatch on stderr and exit with status 1, if any."""
        if not self.mismatches:
            return
        print(
            f"\nFAILED: {len(self.mismatches)} result(s) differ from scikit-learn's:",
            file=sys.stderr,
        )
        for mismatch in self.mismatches:
            print(f"  {mismatch}", file=sys.stderr)
        sys.exit(1)


def absolute_tolerance(theirs):
    """RTOL of the largest finite |value| of scikit-learn's result, at least 1:
    rounding scales with the sums a value is the difference of, not with the
    (possibly tiny) value itself."""
    finite = np.abs(theirs[np.isfinite(theirs)])
    return RTOL * max(1.0, finite.max(initial=0.0))
