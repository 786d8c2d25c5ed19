"""What one chunk of a partial-dependence run does: predict a few grid
points' copies of X (walked through the trees, tree by tree for boosting,
through the linear shortcut, or stacked for the model) and make them the
requested responses."""

from dataclasses import dataclass
from functools import partial

import numpy as np

from .._core.predictions import call_model
from .._core.responses import Responses
from .._shortcuts.trees import row_blocks


@dataclass(frozen=True)
class PredictedChunks:
    """What every chunk of a run reads (shipped once to remote workers):
    the grid-point groups in schedule order and one way to predict them."""

    order: np.ndarray
    representatives: np.ndarray
    n_rows: int
    columns: tuple
    responses: Responses
    shortcut: object  # the Chosen shortcut (model, X, donor rows), or None
    walk_block_bytes: int  # what a block of the walk's rows may hold, or None
    tree_threads: int
    treewise: object  # TreewiseBoosting, or None
    batcher: object
    rows: object  # the rows holding the grid values
    model: object
    # The overview's (several features' grids in one run): the columns each
    # row of `rows` sets, which then override `columns`.
    row_columns: tuple | None = None
    # Whether `shortcut` is the linear one: a copy then holds its
    # decisions only, so the chunk takes every row at once.
    linear: bool = False

    def copies(self, points):
        """``(donor row, columns)`` of the grid `points`' copies."""
        if self.row_columns is None:
            return [(p, self.columns) for p in points]
        return [(p, self.row_columns[p]) for p in points]


def predict_chunk(c, start, stop):
    """The values of groups ``order[start:stop]`` (each predicted by its
    first grid point), shape (n_groups_in_chunk, n_rows, n_outputs)."""
    # Coarse to fine across chunks, in grid order within one: trees predict
    # neighbouring grid values one after another faster.
    chunk_groups = np.sort(c.order[start:stop])
    points = c.representatives[chunk_groups]
    if c.shortcut is not None and c.linear:
        linear, X, rows = c.shortcut
        copies = c.copies(points)
        values = c.responses(lambda m: linear.predict(X, copies, [m], donor=rows)[m])
        return values.reshape(len(chunk_groups), c.n_rows, -1)
    if c.shortcut is not None:
        return _walk_chunk(c, points)
    if c.treewise is not None:
        predict = partial(c.treewise.respond, points)
    else:
        stacked = c.batcher.build(c.copies(points), donor=c.rows)
        predict = _caller(c.model, stacked)
    values = c.responses(predict)
    return values.reshape(len(chunk_groups), c.n_rows, -1)


def _walk_chunk(c, points):
    """The values of the grid `points` through the tree shortcut, shape
    (n_points, n_rows, n_outputs): walked and made responses a block of rows
    at a time (predictions are row by row: the same bits), so that only a
    block's leaf sums and raw responses are held."""
    trees, X, rows = c.shortcut
    copies = c.copies(points)
    # The block's sums, their copy-major copy and the responses: 3 arrays;
    # and its rows, transposed for route_grid. Blocked here, not by
    # TreeModel.predict: the responses are taken from the model's outputs (a
    # class, log-odds) a block at a time too.
    row_bytes = 3 * 8 * trees.n_outputs * len(points) + X.itemsize * X.shape[1]
    values = None
    for low, high in row_blocks(c.n_rows, row_bytes, c.walk_block_bytes):

        def predict(method, low=low, high=high):
            return trees.predict(
                X[low:high], copies, [method], donor=rows, n_threads=c.tree_threads
            )[method]

        block = c.responses(predict)
        if values is None:
            values = _empty_like_responses(block, len(points), c.n_rows)
        values[:, low:high] = block.reshape(len(points), high - low, -1)
    return values


def _empty_like_responses(block, n_points, n_rows):
    """An array of shape (n_points, n_rows, n_outputs) laid out as the
    responses `block` of shape (n_points * n_block_rows, n_outputs) are (an
    output's rows side by side where the model returns Fortran order, as
    histogram boosting's probabilities): averages over the rows then add them
    in the order they would over one response, as scikit-learn's do."""
    n_outputs = block.shape[1]
    if block.flags.f_contiguous and not block.flags.c_contiguous:
        return np.empty((n_outputs, n_points, n_rows), block.dtype).transpose(1, 2, 0)
    return np.empty((n_points, n_rows, n_outputs), block.dtype)


def _caller(model, X):
    """``predict(method)``: the model's `method` on X."""
    return lambda method: call_model(model, method, X)
