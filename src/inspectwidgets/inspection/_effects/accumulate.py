"""From the rows' local effects to accumulated local effects (Apley & Zhu 2020).

Every row contributes a finite difference of predictions to one bin (one cell
for two features; one or two transitions between neighbouring categories).
The bins' weighted means are accumulated from the first edge, then centred so
that the effect's weighted mean over the data is 0.
"""

import numpy as np
from scipy.spatial import cKDTree


def bin_statistics(effects, bins, weights, n_bins):
    """Weighted count, mean and standard deviation of the local effects in
    every bin.

    effects : (n_rows, n_contributions, n_outputs); bins : (n_rows,
    n_contributions), -1 where a row makes no contribution; weights :
    (n_rows,). Empty bins have mean 0 (no evidence of change) and std NaN.
    """
    taken = bins >= 0
    which = bins[taken]
    w = np.broadcast_to(weights[:, None], bins.shape)[taken]
    d = effects[taken]  # (n_taken, n_outputs)
    counts = np.bincount(which, weights=w, minlength=n_bins)
    sums = np.stack(
        [
            np.bincount(which, weights=w * d[:, o], minlength=n_bins)
            for o in range(d.shape[1])
        ]
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(counts > 0, sums / counts, 0.0)
        squares = np.stack(
            [
                np.bincount(
                    which,
                    weights=w * (d[:, o] - means[o, which]) ** 2,
                    minlength=n_bins,
                )
                for o in range(d.shape[1])
            ]
        )
        std = np.where(counts > 0, np.sqrt(squares / counts), np.nan)
    return counts, means, std


def accumulate_numeric(means, counts):
    """Uncentred and centred effects at the K + 1 edges, Apley & Zhu eq. 15-16:
    ``g(z_k) = sum_{l<=k} mean_l``, centred by
    ``sum_k n_k (g(z_{k-1}) + g(z_k)) / 2 / n`` (each bin's rows taken at its
    midpoint, as alibi and ALEPlot do)."""
    uncentered = np.concatenate(
        [np.zeros((means.shape[0], 1)), np.cumsum(means, axis=1)], axis=1
    )
    return uncentered, uncentered - centring_offset(uncentered, counts, False)


def centring_offset(values, counts, categorical):
    """What centring subtracts from `values` (n_outputs, n_edges) given at the
    edges (categories): their weighted mean over the rows, each bin's rows
    taken at the bin's midpoint (each category's at the category), as an
    (n_outputs, 1) column."""
    total = counts.sum()
    if total <= 0:
        return np.zeros((len(values), 1))
    at_rows = values if categorical else (values[:, :-1] + values[:, 1:]) / 2
    return ((at_rows @ counts) / total)[:, None]


def accumulate_categorical(means, category_counts):
    """Effects at the K ordered categories from the K - 1 transitions between
    neighbours, centred by the categories' weights."""
    uncentered = np.concatenate(
        [np.zeros((means.shape[0], 1)), np.cumsum(means, axis=1)], axis=1
    )
    return uncentered, uncentered - centring_offset(uncentered, category_counts, True)


def fill_empty_cells(means, counts, edges):
    """Cells no row falls in take the mean of the nearest non-empty cell, by
    the distance between cell midpoints scaled by each feature's range (as
    Apley & Zhu's ALEPlot does)."""
    empty = counts <= 0
    if not empty.any() or empty.all():
        return means
    midpoints = [
        (e[:-1] + e[1:]) / 2 / max(e[-1] - e[0], np.finfo(float).tiny) for e in edges
    ]
    grid = np.stack(np.meshgrid(*midpoints, indexing="ij"), axis=-1)
    _, nearest = cKDTree(grid[~empty]).query(grid[empty])
    filled = means.copy()
    filled[:, empty] = means[:, ~empty][:, nearest]
    return filled


def accumulate_two_way(means, counts):
    """Second-order effect at the (K1 + 1) x (K2 + 1) edges, ALEPlot's
    procedure for Apley & Zhu eq. 13-14.

    means : (n_outputs, K1, K2) cell means (empty cells filled); counts :
    (K1, K2) weights. Returns the accumulated cell means (uncentred, main
    effects included) and the pure second-order effect: minus each feature's
    accumulated, weight-averaged differences, then centred so that its
    weighted mean over the cells (each at the average of its four corners) is 0.
    """
    n_out, k1, k2 = means.shape
    uncentered = np.zeros((n_out, k1 + 1, k2 + 1))
    uncentered[:, 1:, 1:] = np.cumsum(np.cumsum(means, axis=1), axis=2)
    f = uncentered
    rows, columns = counts.sum(axis=1), counts.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        step = f[:, 1:, :] - f[:, :-1, :]  # (n_out, K1, K2 + 1)
        along_1 = (counts * (step[:, :, :-1] + step[:, :, 1:]) / 2).sum(axis=2) / rows
        step = f[:, :, 1:] - f[:, :, :-1]  # (n_out, K1 + 1, K2)
        along_2 = (counts * (step[:, :-1, :] + step[:, 1:, :]) / 2).sum(
            axis=1
        ) / columns
    # A row or column of cells without rows adds no main effect there.
    along_1, along_2 = np.nan_to_num(along_1), np.nan_to_num(along_2)
    main_1 = np.concatenate([np.zeros((n_out, 1)), np.cumsum(along_1, axis=1)], axis=1)
    main_2 = np.concatenate([np.zeros((n_out, 1)), np.cumsum(along_2, axis=1)], axis=1)
    pure = f - main_1[:, :, None] - main_2[:, None, :]
    corners = (
        pure[:, :-1, :-1] + pure[:, :-1, 1:] + pure[:, 1:, :-1] + pure[:, 1:, 1:]
    ) / 4
    total = counts.sum()
    offset = (corners * counts).sum(axis=(1, 2)) / total if total > 0 else 0.0
    return uncentered, pure - np.reshape(offset, (-1, 1, 1))
