"""Predictions of modified copies of X, for ALE and interaction strength.

Both methods predict copies of X in which a few columns take values from other
rows: ALE from rows holding the bin edges (each row its own edge), the
interaction strength from the data points themselves (one donor row per
copy). The copies go through the partial dependence engine's machinery: the
column-wise pipeline view (X transformed once), the batcher (stacked copies,
one predict call), the tree shortcut (each row walks each tree once with
all its copies) and the linear one (X's decisions plus the columns'
contribution), chosen by the same ``algorithm=`` rule.
"""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
from scipy import sparse

from .._core.batching import make_batcher
from .._core.pipeline import columnwise_view
from .._core.predictions import call_model
from .._shortcuts import choose_shortcut


class CopyPredictor:
    """Predicts copies of `X` whose `columns` come from rows of `donor`.

    `donor` has X's columns (and dtypes); only its `columns` are read. The
    pipeline view, when exact, transforms X and the donor rows once.
    """

    def __init__(self, estimator, X, donor, columns, responses, algorithm, n_threads=1):
        self.n_threads = n_threads
        self.responses = responses
        self.n_rows = X.shape[0]
        view = columnwise_view(estimator, X.shape[1])
        source, rows, model, self._view = X, donor, estimator, None
        if view is not None:
            transformed, donated = view.transform(X), view.transform(donor)
            if _same_layout(transformed, donated):
                source, rows, model, self._view = transformed, donated, view.model, view
        self.source, self.donor, self.model = source, rows, model
        self.columns = self.model_columns(columns)
        self.shortcut = choose_shortcut(
            algorithm, model, source, responses.methods, donor=rows
        )

    def model_columns(self, columns):
        """The columns the model sees of X's `columns`."""
        if self._view is None:
            return tuple(columns)
        return self._view.map_columns(columns)

    @property
    def bytes_per_copy_row(self):
        """Memory per row of one copy: its values (none for the tree
        shortcut) and its predictions."""
        n = max(1, self.n_rows)
        if self.shortcut is not None:
            return self.shortcut.model.bytes_per_copy(n, len(self.columns)) / n + 32
        return make_batcher(self.source[:1]).bytes_per_copy + 32

    def per_row(self, start, stop, donor_rows):
        """Values of rows ``start:stop`` in copies where row ``i`` takes the
        columns from donor row ``donor_rows[c][i - start]`` (copy ``c``).

        Returns shape (len(donor_rows), stop - start, n_outputs).
        """
        donor_rows = [np.asarray(rows) for rows in donor_rows]
        if self.shortcut is not None:
            return self._per_row_trees(start, stop, donor_rows)
        # The rows and the donor rows they use stacked into one source: every
        # copy is then a permuted-style copy of it, the batcher's own form.
        m = stop - start
        used = np.unique(np.concatenate(donor_rows))
        donor = _take_rows(self.donor, used)
        extended = _stack(_take_rows(self.source, slice(start, stop)), donor)
        identity = np.arange(extended.shape[0])
        copies = []
        for rows in donor_rows:
            index = identity.copy()
            index[:m] = m + np.searchsorted(used, rows)
            copies.append((index, self.columns))
        stacked = make_batcher(extended).build(copies)
        values = self.responses(lambda method: call_model(self.model, method, stacked))
        return values.reshape(len(copies), extended.shape[0], -1)[:, :m]

    def _per_row_trees(self, start, stop, donor_rows):
        """`per_row` through the tree shortcut: the rows sharing their donor
        rows (a bin, a cell, a category) walk the trees together with their
        copies, as partial dependence's grid points do (``TreeModel.predict``
        with a donor), much faster than one walk of copies whose values
        differ by row (benchmarks/results/trees.md, "Walks with few
        copies")."""
        trees, X_in, donor_in = self.shortcut
        keys = np.stack(donor_rows, axis=1)
        groups, inverse = np.unique(keys, axis=0, return_inverse=True)
        inverse = inverse.ravel()
        order = np.argsort(inverse, kind="stable")
        bounds = np.searchsorted(inverse[order], np.arange(len(groups) + 1))
        rows = X_in[start:stop]

        def walk(g):
            members = order[bounds[g] : bounds[g + 1]]
            copies = [(int(d), self.columns) for d in groups[g]]
            values = self.responses(
                lambda method: trees.predict(
                    rows[members], copies, [method], donor=donor_in
                )[method]
            )
            return members, values.reshape(len(copies), len(members), -1)

        if self.n_threads > 1:  # the walks release the GIL
            with ThreadPoolExecutor(self.n_threads) as pool:
                walked = list(pool.map(walk, range(len(groups))))
        else:
            walked = [walk(g) for g in range(len(groups))]
        n_outputs = walked[0][1].shape[-1]
        out = np.empty((len(donor_rows), stop - start, n_outputs))
        for members, values in walked:
            out[:, members] = values
        return out

    def per_copy(self, points, columns=None):
        """Values of the copies of the whole source whose columns (X's
        `columns`, by default those given at construction) come from donor
        row ``p`` for every row, one copy per ``p`` in `points`.

        Returns shape (len(points), n_rows, n_outputs).
        """
        columns = self.columns if columns is None else self.model_columns(columns)
        copies = [(int(p), columns) for p in points]
        if self.shortcut is not None:
            trees, X_in, donor_in = self.shortcut
            predict = lambda method: trees.predict(  # noqa: E731
                X_in, copies, [method], donor=donor_in
            )[method]
        else:
            stacked = make_batcher(self.source).build(copies, donor=self.donor)
            predict = lambda method: call_model(self.model, method, stacked)  # noqa: E731
        values = self.responses(predict)
        return values.reshape(len(copies), self.n_rows, -1)


def _same_layout(a, b):
    """Both dense of one dtype, or both CSR with sorted indices (what the
    batcher stacks)."""
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return a.dtype == b.dtype
    return (
        all(sparse.issparse(m) and m.format == "csr" for m in (a, b))
        and a.dtype == b.dtype
    )


def _take_rows(X, rows):
    return X.iloc[rows] if hasattr(X, "iloc") else X[rows]


def _stack(top, bottom):
    """Rows of `top` then of `bottom`, keeping the frame's dtypes or the CSR
    layout the batcher needs."""
    if hasattr(top, "iloc"):
        return pd.concat([top, bottom], ignore_index=True)
    if sparse.issparse(top):
        stacked = sparse.vstack([top, bottom], format="csr")
        stacked.sort_indices()
        return stacked
    return np.vstack([top, bottom])
