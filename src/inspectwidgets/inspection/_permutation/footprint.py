"""The most memory a permutation-importance run takes, estimated from its
sizes before anything is drawn, and the run refused where it would not fit
(_core/budget.py).

What a run holds for its whole length grows with the repeats: one row
permutation per repeat, every job's score per scorer (and per held-out
resample), and the snapshot the caller holds while the next is made, with
what the caller derives from it (the importances, a widget's payload). The
chunks in flight stay within `max_memory`, beside the model's own
temporaries and the rows it predicts from (X, its subsample or transform).
tests/common/test_memory_budget.py measures the peak against this estimate
across the prediction paths and sizes.
"""

import numpy as np

from .._core.budget import check_budget

_FLOAT = np.dtype(np.float64).itemsize
_INDEX = np.dtype(np.intp).itemsize

# What is fixed whatever the sizes: the baseline's and a chunk's small
# arrays, a pipeline's intermediate steps, the scorers' temporaries.
_FIXED = 32 * 2**20


def peak_bytes(
    n_rows, n_features, n_repeats, *, n_scores=1, n_bootstrap=None,
    max_memory, x_bytes,
):  # fmt: skip
    """An upper bound of a run's peak bytes.

    `n_rows` are the rows permuted (after `max_samples`), `n_features` the
    features (or groups) permuted, `n_scores` the scores kept per job (the
    scorers, of every model of the run), `x_bytes` the bytes of X.
    """
    permutations = (n_repeats + 2) * n_rows * _INDEX
    scores = n_repeats * n_features * n_scores * _FLOAT * (1 + (n_bootstrap or 0))
    # Kept by job; the snapshot the caller holds and the next; what it
    # derives from each (importances, their summary, a payload).
    held = 6 * scores
    return int(permutations + held + 2 * max_memory + 4 * x_bytes + _FIXED)


def check_run_size(n_repeats, n_rows, n_features, **sizes):
    """Refuse an `n_repeats` whose run would not fit in the memory budget,
    naming the largest that does (the other sizes as :func:`peak_bytes`)."""
    return check_budget(
        "n_repeats",
        n_repeats,
        lambda repeats: peak_bytes(n_rows, n_features, repeats, **sizes),
    )


def n_scores_of(scoring, n_models=1):
    """The scores kept per job for `scoring` (as the functions take it)."""
    if isinstance(scoring, (list, tuple, set, dict)):
        return max(1, len(scoring)) * n_models
    return n_models
