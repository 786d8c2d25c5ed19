"""The most memory an ALE or an H² run takes, estimated from its sizes
before anything is built or predicted, and the run refused where it would
not fit (_core/budget.py).

ALE: `grid_resolution` quantile levels are computed per feature, and the
unique ones kept: interpolated quantiles rarely tie, so up to
``grid_resolution + 1`` edges per feature whatever the rows. Every edge (a
pair: every corner of the grid of edges) is a donor row of X's width, and
every bin (cell) holds a mean, a spread and its accumulations per output, in
each snapshot the caller holds and in the next. Per row of X: its finite
differences and bins, kept for the whole run.

H²: the batch of a feature subset is the ``n x n`` predictions of the module
doc of ``interaction``, held whole (its blocks, their concatenation, the
weighted means' products); on the exact tree path only per-row sums exist.
n is ``min(n_samples, n_rows)``.

tests/common/test_run_size_budget.py measures the peaks against these
estimates.
"""

import numpy as np

from .._core.budget import check_budget

_FLOAT = np.dtype(np.float64).itemsize
_FIXED = 32 * 2**20  # small arrays, a pipeline's steps, the flattened trees


def ale_peak_bytes(
    n_bins, *, n_rows, n_columns, n_axes, n_outputs, max_memory, x_bytes
):  # fmt: skip
    """An upper bound of an ALE run's peak bytes, for `n_bins` quantile bins
    of each of `n_axes` numeric features (1 or 2)."""
    n_edges = n_bins + 1
    # np.quantile's levels, positions, weights and values, then unique's sort.
    levels = 12 * n_edges * _FLOAT
    row_bytes = max(x_bytes / max(n_rows, 1), n_columns * _FLOAT)
    # The grid of edges and its donor rows, as built and as the model sees
    # them (a pipeline's transform, the tree shortcut's input).
    donors = 3 * n_edges**n_axes * (row_bytes + n_axes * _FLOAT)
    # Per bin and output: means, spreads, sums, accumulations (two-way:
    # their steps, main effects, corners) in two snapshots; per cell the
    # midpoints and neighbour search filling empty cells.
    bins = (16 * n_outputs + 8) * n_edges**n_axes * _FLOAT
    # Per row: the differences and bins kept, and bin_statistics' copies.
    rows = (10 * n_outputs + 8 * n_axes + 8) * n_rows * _FLOAT
    return int(levels + donors + bins + rows + 2 * max_memory + 3 * x_bytes + _FIXED)


def check_bins(n_bins, **sizes):
    """Refuse a `grid_resolution` (ALE bins) whose run would not fit in the
    memory budget, naming the largest that does (sizes as
    :func:`ale_peak_bytes`)."""
    return check_budget(
        "grid_resolution",
        n_bins,
        lambda bins: ale_peak_bytes(bins, **sizes),
        low=2,
    )


def interaction_peak_bytes(
    n_samples, *, n_rows, n_outputs, n_subsets, copy_row_bytes, exact,
    max_memory, x_bytes,
):  # fmt: skip
    """An upper bound of an interaction_strength run's peak bytes.

    `n_samples` as the function takes it (None: every row), `n_subsets` the
    features and pairs whose dependences are kept, `copy_row_bytes` a copied
    row's bytes and its predictions' (``CopyPredictor.bytes_per_copy_row``),
    `exact` whether the exact tree path runs (no batch).
    """
    n = n_rows if n_samples is None else min(n_samples, n_rows)
    # The subsample, its transform and the model's input.
    drawn = 3 * x_bytes * n / max(n_rows, 1)
    # PD_S, PD_-S and f per subset, centred, and the H² differences.
    kept = (4 * n_subsets + 8) * n * n_outputs * _FLOAT
    batch = 0
    if not exact:
        # The blocks and their concatenation, a weighted product, a mean's
        # temporaries; at least one copy of the n rows stacked and predicted.
        batch = 4 * n * n * n_outputs * _FLOAT + 2 * n * copy_row_bytes
    return int(drawn + kept + batch + 2 * max_memory + 2 * x_bytes + _FIXED)


def check_n_samples(n_samples, n_rows, **sizes):
    """Refuse an `n_samples` whose run would not fit in the memory budget,
    naming the largest that does (sizes as :func:`interaction_peak_bytes`);
    None stands for every row."""
    value = n_rows if n_samples is None else n_samples
    check_budget(
        "n_samples",
        value,
        lambda n: interaction_peak_bytes(n, n_rows=n_rows, **sizes),
        low=2,
    )
    return n_samples
