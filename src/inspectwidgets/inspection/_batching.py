"""Permuted copies of the data, stacked so one predict call covers many.

A batch holds `n_copies` blocks of the same rows; in block ``b`` the columns of
one feature (or group) are reordered by that block's row permutation and every
other column is unchanged. Predictions are row-wise, so predicting the stack
once gives each block exactly the predictions it would get on its own.
"""

from collections import defaultdict

import numpy as np
from scipy import sparse


class ArrayBatcher:
    """Stacks permuted copies of a 2-D ndarray."""

    def __init__(self, X):
        self.X = X
        self.n_rows = X.shape[0]

    @property
    def bytes_per_copy(self):
        return self.X.shape[0] * self.X.shape[1] * self.X.dtype.itemsize

    def build(self, copies):
        """Stack one permuted copy per ``(permutation, columns)`` pair."""
        X = self.X
        stacked = np.empty((len(copies),) + X.shape, dtype=X.dtype)
        stacked[...] = X
        for block, (permutation, columns) in zip(stacked, copies, strict=True):
            columns = list(columns)
            block[:, columns] = X[np.ix_(permutation, columns)]
        return stacked.reshape(-1, X.shape[1])

    def block(self, stacked, b):
        return stacked[b * self.n_rows : (b + 1) * self.n_rows]


class FrameBatcher:
    """Stacks permuted copies of a DataFrame, keeping every column's dtype."""

    def __init__(self, X):
        import pandas as pd

        self._pd = pd
        self.X = X
        self.n_rows = X.shape[0]
        # Each column's own array (ndarray or pandas extension array), whose
        # `take` keeps categorical, string and nullable dtypes.
        self._arrays = [X.iloc[:, i].array for i in range(X.shape[1])]

    @property
    def bytes_per_copy(self):
        return int(self.X.memory_usage(index=False, deep=False).sum())

    def build(self, copies):
        n = self.n_rows
        unpermuted = np.tile(np.arange(n), len(copies))
        permuted = defaultdict(list)
        for b, (permutation, columns) in enumerate(copies):
            for column in columns:
                permuted[column].append((b, permutation))
        data = {}
        for i, array in enumerate(self._arrays):
            take = unpermuted
            if i in permuted:
                take = unpermuted.copy()
                for b, permutation in permuted[i]:
                    take[b * n : (b + 1) * n] = permutation
            data[i] = self._pd.Series(array.take(take), copy=False)
        stacked = self._pd.DataFrame(data, copy=False)
        stacked.columns = self.X.columns
        return stacked

    def block(self, stacked, b):
        return stacked.iloc[b * self.n_rows : (b + 1) * self.n_rows]


class SparseRowBatcher:
    """Stacks permuted copies of a CSR matrix with sorted indices.

    A copy's row ``i`` is row ``i``'s entries outside the permuted columns and
    row ``permutation[i]``'s entries inside them, in column order: exactly the
    rows (values, explicit zeros and storage order) that a column-wise
    transformer produces for permuted input.
    """

    def __init__(self, X):
        self.X = X
        self.n_rows = X.shape[0]
        self._entry_rows = np.repeat(np.arange(self.n_rows), np.diff(X.indptr))
        self._segments = {}

    @property
    def bytes_per_copy(self):
        return self.X.data.nbytes + self.X.indices.nbytes + self.X.indptr.nbytes

    def _segments_of(self, columns):
        """Split every row into runs of columns that are all permuted or not.

        Returns each run's entry count and first entry per row, shape
        (n_rows, n_runs), and whether each run is permuted.
        """
        if columns not in self._segments:
            permuted = np.zeros(self.X.shape[1] + 1, dtype=bool)
            permuted[list(columns)] = True
            edges = np.flatnonzero(np.diff(permuted[:-1], prepend=~permuted[0]))
            runs = np.searchsorted(edges, self.X.indices, side="right") - 1
            counts = np.bincount(
                self._entry_rows * len(edges) + runs, minlength=self.n_rows * len(edges)
            ).reshape(self.n_rows, len(edges))
            firsts = self.X.indptr[:-1, None] + np.cumsum(counts, axis=1) - counts
            self._segments[columns] = counts, firsts, permuted[edges]
        return self._segments[columns]

    def build(self, copies):
        X = self.X
        identity = np.arange(self.n_rows)[:, None]
        takes, row_lengths = [], []
        for permutation, columns in copies:
            counts, firsts, permuted = self._segments_of(tuple(columns))
            source = np.where(permuted, permutation[:, None], identity)
            run = np.arange(counts.shape[1])
            lengths = counts[source, run].ravel()
            starts = firsts[source, run].ravel()
            offsets = np.cumsum(lengths) - lengths
            takes.append(
                np.repeat(starts - offsets, lengths) + np.arange(lengths.sum())
            )
            row_lengths.append(counts[source, run].sum(axis=1))
        take = np.concatenate(takes)
        indptr = np.concatenate([[0], np.cumsum(np.concatenate(row_lengths))])
        shape = (len(copies) * self.n_rows, X.shape[1])
        return type(X)((X.data[take], X.indices[take], indptr), shape=shape)

    def block(self, stacked, b):
        return stacked[b * self.n_rows : (b + 1) * self.n_rows]


def make_batcher(X):
    if hasattr(X, "iloc"):
        return FrameBatcher(X)
    if sparse.issparse(X):
        return SparseRowBatcher(X)
    return ArrayBatcher(X)
