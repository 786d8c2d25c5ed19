"""Permuted copies of the data, stacked so one predict call covers many.

A batch holds `n_copies` blocks of the same rows; in block ``b`` the columns of
one feature (or group) are reordered by that block's row permutation and every
other column is unchanged. Predictions are row-wise, so predicting the stack
once gives each block exactly the predictions it would get on its own.
"""

from collections import defaultdict

import numpy as np


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


def make_batcher(X):
    return FrameBatcher(X) if hasattr(X, "iloc") else ArrayBatcher(X)
