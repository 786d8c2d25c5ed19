"""Modified copies of the data, stacked so one predict call covers many.

A batch holds `n_copies` blocks of the same rows; in block ``b`` the columns of
one feature (or group) are reordered by that block's row permutation and every
other column is unchanged. Predictions are row-wise, so predicting the stack
once gives each block the predictions it would get on its own: the same bits
for models that predict each row alone (trees), and the same up to rounding
where a matrix product (BLAS) rounds by the rows in the call.

A copy is a ``(rows, columns)`` pair: row ``i`` of the block takes `columns`
from row ``rows[i]`` of a source matrix, X itself by default. With a `donor`
(a matrix with X's columns, e.g. one row per grid point of a partial
dependence), `columns` come from the donor's rows instead; `rows` may then be a
single donor row given to every row of the block.
"""

from collections import defaultdict
from dataclasses import dataclass

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

    def build(self, copies, donor=None):
        """Stack one copy per ``(rows, columns)`` pair (see the module doc)."""
        X = self.X
        source = X if donor is None else donor
        stacked = np.empty((len(copies),) + X.shape, dtype=X.dtype)
        stacked[...] = X
        columns = {tuple(columns) for _, columns in copies}
        if len(columns) == 1 and all(np.ndim(rows) == 0 for rows, _ in copies):
            # One donor row per copy, same columns: one broadcast assignment.
            columns = list(columns.pop())
            rows = [rows for rows, _ in copies]
            stacked[:, :, columns] = source[np.ix_(rows, columns)][:, None, :]
            return stacked.reshape(-1, X.shape[1])
        for block, (rows, columns) in zip(stacked, copies, strict=True):
            columns = list(columns)
            block[:, columns] = source[np.ix_(np.atleast_1d(rows), columns)]
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

    def build(self, copies, donor=None):
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
                every = len(permuted[i]) == len(copies)
                array, offset = self._source(array, donor, i, every)
                take = unpermuted.copy()
                for b, permutation in permuted[i]:
                    take[b * n : (b + 1) * n] = np.asarray(permutation) + offset
            data[i] = self._pd.Series(array.take(take), copy=False)
        stacked = self._pd.DataFrame(data, copy=False)
        stacked.columns = self.X.columns
        return stacked

    def _source(self, array, donor, i, every_copy):
        """Column `i`'s values to take from, and the offset of the donor rows.

        Without a donor: X's own column. When every copy takes the column from
        the donor: the donor's column alone (its dtype, as pandas set it).
        Otherwise X's column followed by the donor's, as pandas concatenates.
        """
        if donor is None:
            return array, 0
        donated = donor.iloc[:, i].array
        if every_copy:
            return donated, 0
        pd = self._pd
        both = pd.concat([pd.Series(array), pd.Series(donated)], ignore_index=True)
        return both.array, self.n_rows

    def block(self, stacked, b):
        return stacked.iloc[b * self.n_rows : (b + 1) * self.n_rows]


class SparseRowBatcher:
    """Stacks permuted copies of a CSR matrix with sorted indices.

    A copy's row ``i`` is row ``i``'s entries outside the permuted columns and
    row ``permutation[i]``'s entries inside them, in column order: exactly the
    rows (values, explicit zeros and storage order) that a column-wise
    transformer produces for permuted input. With a donor (a CSR matrix with
    sorted indices), the entries inside the columns come from the donor's row.
    """

    def __init__(self, X):
        self.X = X
        self.n_rows = X.shape[0]
        self._segments = {}

    @property
    def bytes_per_copy(self):
        return self.X.data.nbytes + self.X.indices.nbytes + self.X.indptr.nbytes

    def _segments_of(self, columns):
        if columns not in self._segments:
            self._segments[columns] = _row_segments(self.X, columns)
        return self._segments[columns]

    def build(self, copies, donor=None):
        X = self.X
        if donor is not None and all(np.ndim(rows) == 0 for rows, _ in copies):
            return self._donor_row_copies(copies, donor)
        data, indices = X.data, X.indices
        if donor is not None:
            data = np.concatenate([X.data, donor.data])
            indices = np.concatenate([X.indices, donor.indices])
        take, row_lengths = self._take(copies, donor)
        indptr = np.concatenate([[0], np.cumsum(row_lengths)])
        shape = (len(copies) * self.n_rows, X.shape[1])
        return type(X)((data[take], indices[take], indptr), shape=shape)

    def _take(self, copies, donor):
        """Entries (of X, then the donor) making up the copies, and the
        length of every row of every copy."""
        X = self.X
        identity = np.arange(self.n_rows)[:, None]
        donor_segments = {}
        # Entry count and first entry of every run of every row of every copy.
        lengths, starts = [], []
        for rows, columns in copies:
            columns = tuple(columns)
            counts, firsts, permuted = self._segments_of(columns)
            if donor is None:
                source = np.where(permuted, np.asarray(rows)[:, None], identity)
                run = np.arange(counts.shape[1])
                lengths.append(counts[source, run])
                starts.append(firsts[source, run])
            else:
                if columns not in donor_segments:
                    donor_segments[columns] = _row_segments(donor, columns)
                donor_counts, donor_firsts, _ = donor_segments[columns]
                rows = np.asarray(rows)
                lengths.append(np.where(permuted, donor_counts[rows], counts))
                starts.append(np.where(permuted, donor_firsts[rows] + X.nnz, firsts))
        row_lengths = np.concatenate([length.sum(axis=1) for length in lengths])
        lengths = np.concatenate([length.ravel() for length in lengths])
        starts = np.concatenate([start.ravel() for start in starts])
        return _expand(starts, lengths), row_lengths

    def _donor_row_copies(self, copies, donor):
        """`build` for copies whose rows all take their columns from one donor
        row (a partial dependence's grid point).

        Copies with the same columns and donor rows of the same layout share
        one pattern: the same indices and row lengths, and X's entries at the
        same places; only the donor's entries differ. Each copy is then two
        block copies and the donor's few values written in.
        """
        X, n_rows = self.X, self.n_rows
        donor_segments, patterns, planned = {}, {}, []
        for row, columns in copies:
            columns = tuple(columns)
            if columns not in donor_segments:
                donor_segments[columns] = _row_segments(donor, columns)
            donor_counts, donor_firsts, _ = donor_segments[columns]
            key = (columns, donor_counts[row].tobytes())
            if key not in patterns:
                patterns[key] = self._donor_pattern(
                    columns, donor_counts[row], donor_firsts[row] - donor.indptr[row]
                )
            planned.append((patterns[key], donor.indptr[row]))
        sizes = np.array([len(pattern.data) for pattern, _ in planned])
        ends = np.cumsum(sizes)
        total = int(ends[-1]) if len(ends) else 0
        # One index dtype for indices and indptr, or scipy would copy them.
        index_dtype = np.int32 if total < 2**31 else np.int64
        data = np.empty(total, dtype=np.result_type(X.data, donor.data))
        indices = np.empty(total, dtype=index_dtype)
        indptr = np.zeros(len(copies) * n_rows + 1, dtype=index_dtype)
        for b, ((pattern, start), end, size) in enumerate(
            zip(planned, ends, sizes, strict=True)
        ):
            first = end - size
            donated = start + pattern.donor_offsets
            block_data, block_indices = data[first:end], indices[first:end]
            block_data[:] = pattern.data
            block_data[pattern.donor_positions] = donor.data[donated]
            block_indices[:] = pattern.indices
            block_indices[pattern.donor_positions] = donor.indices[donated]
            indptr[b * n_rows + 1 : (b + 1) * n_rows + 1] = pattern.row_ends + first
        shape = (len(copies) * n_rows, X.shape[1])
        return type(X)((data, indices, indptr), shape=shape)

    def _donor_pattern(self, columns, donor_counts, donor_offsets):
        """One copy's entries when its donor row has the given layout (entry
        count per run, offset of each run in the row): X's entries in place,
        and where the donor's go (and their offsets in the donor row)."""
        X = self.X
        counts, firsts, inside = self._segments_of(columns)
        lengths = np.where(inside, donor_counts, counts)
        starts = np.where(inside, donor_offsets + X.nnz, firsts)
        take = _expand(starts.ravel(), lengths.ravel())
        from_donor = take >= X.nnz
        # Placeholders (X's first entry) where the donor's entries go.
        from_x = np.where(from_donor, 0, take) if X.nnz else take[:0]
        return _DonorPattern(
            data=X.data[from_x],
            indices=X.indices[from_x],
            row_ends=np.cumsum(lengths.sum(axis=1)),
            donor_positions=np.flatnonzero(from_donor),
            donor_offsets=take[from_donor] - X.nnz,
        )

    def block(self, stacked, b):
        return stacked[b * self.n_rows : (b + 1) * self.n_rows]


@dataclass
class _DonorPattern:
    """A sparse copy's layout shared by copies with alike donor rows."""

    data: np.ndarray  # X's values in place, placeholders for the donor's
    indices: np.ndarray
    row_ends: np.ndarray  # indptr[1:] of one copy
    donor_positions: np.ndarray  # where in the copy the donor's entries go
    donor_offsets: np.ndarray  # and their offsets in the donor row


def _row_segments(matrix, columns):
    """Split every row of a CSR matrix into runs of columns that are all in
    `columns` or all outside them.

    Returns each run's entry count and first entry per row, shape
    (n_rows, n_runs), and whether each run is inside `columns`.
    """
    n_rows, n_columns = matrix.shape
    inside = np.zeros(n_columns + 1, dtype=bool)
    inside[list(columns)] = True
    edges = np.flatnonzero(np.diff(inside[:-1], prepend=~inside[0]))
    runs = np.searchsorted(edges, matrix.indices, side="right") - 1
    entry_rows = np.repeat(np.arange(n_rows), np.diff(matrix.indptr))
    counts = np.bincount(
        entry_rows * len(edges) + runs, minlength=n_rows * len(edges)
    ).reshape(n_rows, len(edges))
    firsts = matrix.indptr[:-1, None] + np.cumsum(counts, axis=1) - counts
    return counts, firsts, inside[edges]


def _expand(starts, lengths):
    """Concatenated ranges ``starts[j] .. starts[j] + lengths[j]``."""
    offsets = np.cumsum(lengths) - lengths
    return np.repeat(starts - offsets, lengths) + np.arange(lengths.sum())


def make_batcher(X):
    if hasattr(X, "iloc"):
        return FrameBatcher(X)
    if sparse.issparse(X):
        return SparseRowBatcher(X)
    return ArrayBatcher(X)
