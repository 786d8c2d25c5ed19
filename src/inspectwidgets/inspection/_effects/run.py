"""Accumulated local effects: validation, then predictions streamed by rows.

Every row is predicted with the feature set to its bin's lower and upper
edges (four corners of its cell for a pair; its category's neighbours for a
categorical feature): a few copies of X, whatever the number of bins. The
rows go in chunks; each chunk's copies are stacked and predicted at once (or
walked through the trees by the tree shortcut), and each row's finite
differences are kept, so that any snapshot's statistics are computed from the
rows done, in row order, whatever the chunks.
"""

import numbers
import os
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
from scipy import sparse
from sklearn.ensemble import (
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
)
from sklearn.utils.extmath import cartesian

from .._core.budget import x_bytes
from .._core.chunks import ChunkSchedule
from .._core.dtypes import float_features
from .._core.effect_params import (
    check_choice,
    check_pd_estimator,
    check_pd_X,
    check_response_method,
    column_labels,
    n_targets,
    resolve_categorical,
    resolve_classes,
    resolve_pd_features,
    resolve_response_method,
)
from .._core.grid_rows import grid_rows
from .._core.parallel import ChunkRunner
from .._core.pipeline import final_estimator
from .._core.predictions import call_model
from .._core.responses import Responses
from .._core.validation import (
    ALGORITHMS,
    check_algorithm,
    check_cancel,
    check_columns,
    check_effect_weights,
    check_max_memory,
    quoted,
)
from .._shortcuts import check_algorithm_fits
from .._shortcuts.trees import is_lightgbm
from .accumulate import (
    accumulate_categorical,
    accumulate_numeric,
    accumulate_two_way,
    bin_statistics,
    fill_empty_cells,
)
from .bins import (
    bin_index,
    category_order,
    numeric_column,
    quantile_edges,
)
from .copies import CopyPredictor
from .footprint import check_bins
from .result import AccumulatedLocalEffectsResult

# The first streamed chunk holds this fraction of the rows, so an outline
# shows early; later chunks double while fast (ChunkSchedule).
FIRST_CHUNK_FRACTION = 1 / 8


def check_response(estimator, response_method, scale):
    """The model's method behind the values, and the scale, checked as
    partial dependence checks them."""
    check_response_method(estimator, response_method)
    scale = check_choice(scale, "scale", ("probability", "log_odds"))
    method = resolve_response_method(estimator, response_method, "brute")
    if scale == "log_odds" and method != "predict_proba":
        raise ValueError(
            "scale='log_odds' transforms predicted probabilities; it needs a "
            f"classifier with predict_proba (here the values come from {method})."
        )
    return method, scale


def n_outputs_of(estimator, X, responses, output_names):
    """Outputs per row: the classes kept, or the targets of one row's
    prediction (regressors). Only for a run without predictions: one row's
    prediction can cost an OpenMP model a second on a busy machine."""
    if output_names is not None:
        return len(output_names)
    first = X.iloc[:1] if hasattr(X, "iloc") else X[:1]
    return responses(lambda method: call_model(estimator, method, first)).shape[1]


class AccumulatedLocalEffectsRun:
    """One validated ALE computation, ready to stream (see the module doc)."""

    def __init__(self, **arguments):
        a = SimpleNamespace(**arguments)
        check_pd_estimator(a.estimator)
        X = check_columns(a.estimator, check_pd_X(a.X))
        if sparse.issparse(X):
            raise TypeError(
                "X: accumulated_local_effects takes dense data; pass X.toarray() "
                "(partial_dependence takes sparse X)."
            )
        self.estimator, self.X, self.n_rows = a.estimator, X, X.shape[0]
        method, scale = check_response(a.estimator, a.response_method, a.scale)
        self.response_method, self.scale = method, scale
        weights = np.ones(self.n_rows)
        if a.sample_weight is not None:
            weights = check_effect_weights(a.sample_weight, self.n_rows)
        self.weights = weights
        self.max_memory = check_max_memory(a.max_memory)
        self.algorithm = check_algorithm(a.algorithm, ALGORITHMS)
        self.n_threads = _check_n_jobs(a.n_jobs)
        self.cancel = check_cancel(a.cancel)
        # One chunk at a time here (n_jobs threads within it); a remote
        # joblib backend's workers if one is configured now.
        self.runner = ChunkRunner(threads=False)
        self.output_names, columns = resolve_classes(a.estimator, a.classes, method)
        self.responses = Responses(method, scale, columns)
        names = column_labels(X, a.feature_names)
        self._build_bins(a, names, _check_n_bins(a.grid_resolution))
        check_algorithm_fits(self.algorithm, a.estimator, X, self.responses.methods)

    def _build_bins(self, a, names, n_bins):
        """Edges (or ordered categories), each row's bin and the donor rows
        holding the edges."""
        X = self.X
        positions, _ = resolve_pd_features(X, a.features, names)
        if len(positions) > 2:
            raise ValueError(
                f"features: ALE takes one feature or a pair; got {len(positions)}."
            )
        every = resolve_categorical(X, a.categorical_features, range(X.shape[1]), names)
        categorical = [every[p] for p in positions]
        if len(positions) == 2 and any(categorical):
            raise ValueError(
                "features: the second-order ALE of a pair takes numeric features "
                "only; compute the categorical feature's own ALE instead."
            )
        self.positions, self.categorical = positions, categorical
        if not categorical[0]:  # a category is a bin: its count is X's
            check_bins(
                n_bins,
                n_rows=self.n_rows,
                n_columns=X.shape[1],
                n_axes=len(positions),
                n_outputs=len(self.output_names or ()) or n_targets(a.estimator),
                max_memory=self.max_memory,
                x_bytes=x_bytes(X),
            )
        self.feature_labels = [str(names[p]) for p in positions]
        edges, index, numeric = [], [], {}
        self.observed = np.ones(self.n_rows, dtype=bool)
        for p in positions:
            if every[p]:
                categories, rank = category_order(X, p, names, every)
                edges.append(categories)
                index.append(rank)
                continue
            values = numeric[p] = numeric_column(X, p, names[p])
            observed = ~np.isnan(values)
            if not observed.any():
                raise ValueError(
                    f"features: column {quoted(names[p])} holds only missing values, "
                    "so ALE has no bin to put a row in; pick another feature."
                )
            z = quantile_edges(values, n_bins)
            if len(z) < 2:
                raise ValueError(
                    f"features: column {quoted(names[p])} takes a single value in X "
                    f"({self.n_rows} row(s)); ALE needs at least two."
                )
            edges.append(z)
            # Rows missing the value get a bin for their (unused) copies and
            # no contribution: ALE is over the observed rows.
            index.append(bin_index(np.where(observed, values, z[0]), z))
            self.observed &= observed
        self.edges, self.index = edges, index
        self.n_missing = int((~self.observed).sum())
        # Integer, nullable and bool features as floats, in a new X.
        X = self.X = float_features(X, list(numeric))
        grid = cartesian(edges)
        self.donor = grid_rows(X, positions, grid, edges, names)

    # --- running ----------------------------------------------------------------

    def __iter__(self):
        return self.run(snapshots=True)

    def run(self, snapshots=True):
        """Compute, yielding a snapshot after every chunk of rows
        (`snapshots`), or only the last state reached."""
        context = _RowChunks(
            predictor=CopyPredictor(
                self.estimator, self.X, self.donor, self.positions, self.responses,
                _walk_or_predict(self.algorithm, self.estimator),
                # A remote worker's threads are the backend's to count.
                1 if self.runner.remote else self.n_threads,
            ),
            index=self.index,
            edge_counts=[len(e) for e in self.edges],
            categorical=self.categorical,
            observed=self.observed,
        )  # fmt: skip
        predictor = context.predictor
        n_copies = len(context.donor_rows(0, 0))
        n_outputs = len(self.output_names or ()) or 1  # a guess for regressors
        per_row = n_copies * (predictor.bytes_per_copy_row + 16 * n_outputs)
        cap = max(1, int(self.max_memory // (per_row * self.runner.n_workers)))
        first = cap
        if snapshots:
            first = max(1, int(np.ceil(self.n_rows * FIRST_CHUNK_FRACTION)))
        schedule = ChunkSchedule(
            self.n_rows, first, cap, eager=predictor.shortcut is not None
        )
        n_contributions = 2 if self.categorical[0] and len(self.edges) == 1 else 1
        effects = None  # allocated when the first chunk tells the outputs
        bins = np.full((self.n_rows, n_contributions), -1, dtype=np.intp)
        # Chunks may complete in any order (a remote backend): a snapshot
        # holds the rows done before the first row not done yet.
        finished = np.zeros(self.n_rows + 1, dtype=bool)
        done = 0
        for start, stop, (chunk_effects, chunk_bins) in self.runner.run(
            schedule, _effects_chunk, context, self._cancelled
        ):
            if effects is None:
                shape = (self.n_rows, n_contributions, chunk_effects.shape[-1])
                effects = np.zeros(shape)
            effects[start:stop], bins[start:stop] = chunk_effects, chunk_bins
            finished[start:stop] = True
            if start > done:
                continue
            done = int(np.argmin(finished[done:])) + done
            if snapshots:
                yield self._result(effects[:done], bins[:done], done)
        if not snapshots and done:
            yield self._result(effects[:done], bins[:done], done)

    def _cancelled(self):
        return self.cancel is not None and self.cancel.is_set()

    def empty_result(self):
        """The result of a run cancelled before its first chunk (one row
        predicted, to know a regressor's outputs)."""
        n_out = n_outputs_of(self.estimator, self.X, self.responses, self.output_names)
        return self._result(np.zeros((0, 1, n_out)), np.zeros((0, 1), np.intp), 0)

    def _result(self, effects, bins, done):
        edges = self.edges
        if len(edges) == 2:
            shape = (len(edges[0]) - 1, len(edges[1]) - 1)
            counts, means, std = bin_statistics(
                effects, bins, self.weights[:done], shape[0] * shape[1]
            )
            counts = counts.reshape(shape)
            means = means.reshape(-1, *shape)
            std = std.reshape(-1, *shape)
            means = fill_empty_cells(means, counts, edges)
            uncentered, centered = accumulate_two_way(means, counts)
        elif self.categorical[0]:
            k = len(edges[0])
            _, means, std = bin_statistics(effects, bins, self.weights[:done], k - 1)
            counts = np.bincount(
                self.index[0][:done], weights=self.weights[:done], minlength=k
            )
            uncentered, centered = accumulate_categorical(means, counts)
        else:
            counts, means, std = bin_statistics(
                effects, bins, self.weights[:done], len(edges[0]) - 1
            )
            uncentered, centered = accumulate_numeric(means, counts)
        return AccumulatedLocalEffectsResult(
            feature_names=tuple(self.feature_labels),
            feature_columns=tuple(self.positions),
            categorical=tuple(self.categorical),
            edges=tuple(np.array(e) for e in edges),
            centered=centered,
            uncentered=uncentered,
            local_effects=means,
            local_effects_std=std,
            bin_counts=counts,
            n_rows=self.n_rows,
            n_rows_done=done,
            n_missing=self.n_missing,
            output_names=self.output_names,
            response_method=self.response_method,
            scale=self.scale,
        )


@dataclass
class _RowChunks:
    """What every chunk of rows reads (shipped once to remote workers): the
    copies' predictor and each row's bins."""

    predictor: CopyPredictor
    index: list  # per feature, each row's bin (or category rank)
    edge_counts: list  # per feature, its edges (or categories)
    categorical: list
    observed: np.ndarray  # rows whose features hold a value (others give none)

    def donor_rows(self, start, stop):
        """Per copy, the donor row (edge, corner or category) of every row."""
        index = [i[start:stop] for i in self.index]
        if len(index) == 2:
            k2 = self.edge_counts[1]
            a, b = index
            return [(a - 1) * k2 + b - 1, (a - 1) * k2 + b, a * k2 + b - 1, a * k2 + b]
        if self.categorical[0]:
            r, last = index[0], self.edge_counts[0] - 1
            return [np.maximum(r - 1, 0), r, np.minimum(r + 1, last)]
        return [index[0] - 1, index[0]]

    def contributions(self, values, start, stop):
        """Each row's finite differences, shape (rows, n_contributions,
        n_outputs), and the bin each goes to (-1: none, also for a row
        missing a feature's value)."""
        effects, bins = self._contributions(values, start, stop)
        return effects, np.where(self.observed[start:stop, None], bins, -1)

    def _contributions(self, values, start, stop):
        index = [i[start:stop] for i in self.index]
        if len(index) == 2:
            effect = values[3] - values[2] - values[1] + values[0]
            k2 = self.edge_counts[1] - 1
            return effect[:, None], ((index[0] - 1) * k2 + index[1] - 1)[:, None]
        if self.categorical[0]:
            r, last = index[0], self.edge_counts[0] - 1
            effects = np.stack([values[1] - values[0], values[2] - values[1]], axis=1)
            bins = np.stack([np.where(r >= 1, r - 1, -1), np.where(r < last, r, -1)], 1)
            return effects, bins
        return (values[1] - values[0])[:, None], (index[0] - 1)[:, None]


def _effects_chunk(c, start, stop):
    """Rows ``start:stop``'s finite differences and the bins they go to."""
    values = c.predictor.per_row(start, stop, c.donor_rows(start, stop))
    return c.contributions(values, start, stop)


def _walk_or_predict(algorithm, estimator):
    """The algorithm ALE takes: under "auto", the tree shortcut only for
    histogram gradient boosting and LightGBM. With 2 to 4 copies there is
    little to share on a row's walk, and scikit-learn's own tree-by-tree predict of the
    stacked copies is faster for its trees, forests and gradient boosting,
    while histogram gradient boosting's and LightGBM's predicts are slower
    than the walk, and CatBoost's predict of the two copies is faster than
    its walk: predicted (benchmarks/results/trees.md, "Walks with few
    copies")."""
    if algorithm != "auto":
        return algorithm
    hist = (HistGradientBoostingClassifier, HistGradientBoostingRegressor)
    model = final_estimator(estimator)
    return "auto" if isinstance(model, hist) or is_lightgbm(model) else "generic"


def _check_n_jobs(n_jobs):
    """Threads for the tree walks, as joblib counts them."""
    if n_jobs is None:
        return 1
    if (
        isinstance(n_jobs, bool)
        or not isinstance(n_jobs, numbers.Integral)
        or n_jobs == 0
    ):
        raise ValueError(f"n_jobs must be None or a non-zero int; got {n_jobs!r}.")
    return int(n_jobs) if n_jobs > 0 else max(1, os.cpu_count() + 1 + int(n_jobs))


def _check_n_bins(grid_resolution):
    if (
        isinstance(grid_resolution, bool)
        or not isinstance(grid_resolution, numbers.Integral)
        or grid_resolution < 2
    ):
        # As partial dependence's grid: one bin draws no curve.
        raise ValueError(
            "grid_resolution must be an int >= 2, the number of quantile bins; "
            f"got {grid_resolution!r}."
        )
    return int(grid_resolution)
