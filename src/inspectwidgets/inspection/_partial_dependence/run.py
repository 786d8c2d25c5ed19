"""Partial dependence: scikit-learn's numbers, batched and streamed.

scikit-learn's brute method predicts once per grid point, on a copy of X with
the feature(s) set to that grid point. We stack the copies for many grid
points and predict them in a few calls (bounded by `max_memory`); predictions
are row-wise, so every copy gets the predictions it would get alone (to the
last bit for trees; where BLAS predicts, up to its rounding, which depends on
the rows in the call).
For a pipeline whose preprocessing maps each column on its own, X is
transformed once and the transformed columns of the feature are set to the
transform of the grid values, which is what the pipeline would compute.
Tree models walk each row once through each tree with all of a chunk's grid
points (``_shortcuts/trees/replay.py``); boosting models the walk cannot take go tree by
tree, each tree on its own few cells of the grid (``treewise``); tree
ensembles predict grid points they route alike only once (``tree_splits``).
The numbers stay the same, bit for bit. How a run predicts is planned in
``plan``; what a chunk does is in ``chunks``.
"""

import warnings
from types import SimpleNamespace

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils.extmath import cartesian

from .._core.budget import x_bytes
from .._core.compat import _check_sample_weight
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
    check_max_memory,
    check_random_state_argument,
    check_sample_weight,
    check_sklearn_params,
    quoted,
)
from .._shortcuts import check_algorithm_fits
from .accumulation import ValueBuffers
from .chunks import predict_chunk
from .feature_summary import correlated_features, feature_distribution
from .footprint import check_grid_size
from .grid import (
    check_grid_resolution,
    check_missing,
    check_percentiles,
    grid_axes,
)
from .linear_grid import linear_grid_arrays
from .params import (
    check_correlation_threshold,
    check_n_ice,
    check_not_integer,
    resolve_custom_values,
    resolve_method,
)
from .plan import plan_run
from .result import PartialDependenceResult


class PartialDependenceRun:
    """One validated partial dependence computation, ready to stream.

    Construction validates every argument, builds the grid, the feature
    summaries and the rows holding the grid values, and issues the correlation
    warnings; iterating predicts and yields :class:`PartialDependenceResult`
    snapshots.
    """

    def __init__(self, **arguments):
        # Every parameter of iter_partial_dependence, bound by the public
        # functions (see _core.signature).
        check_sklearn_params("partial_dependence", arguments)
        check_random_state_argument(arguments["random_state"], "partial_dependence")
        a = SimpleNamespace(**arguments)
        check_pd_estimator(a.estimator)
        X = check_columns(a.estimator, check_pd_X(a.X))
        self.estimator, self.X = a.estimator, X
        self._resolve_response(a)
        names = column_labels(X, a.feature_names)
        self._build_grid(a, names)
        n_ice = check_n_ice(a.n_ice)
        self.ice_rows = None
        if self.kind != "average" and n_ice is not None and n_ice < X.shape[0]:
            rng = check_random_state(a.random_state)
            self.ice_rows = np.sort(rng.choice(X.shape[0], n_ice, replace=False))
        threshold = check_correlation_threshold(a.correlation_threshold)
        self.max_memory = check_max_memory(a.max_memory)
        self.algorithm = check_algorithm(a.algorithm, ALGORITHMS)
        self.cancel = check_cancel(a.cancel)
        # One chunk at a time here; a remote joblib backend's workers if one
        # is configured now (docs/large_data.md).
        self.runner = ChunkRunner(threads=False)
        self.output_names, self.output_columns = resolve_classes(
            a.estimator, a.classes, self.response_method
        )
        if self.output_names is not None:
            self.n_outputs = len(self.output_names)
            self.n_raw_outputs = len(a.estimator.classes_)
        else:
            self.n_outputs = self.n_raw_outputs = n_targets(a.estimator)
        self._summarize_features(names, threshold)
        self.rows = None
        if self.method == "brute":
            self.rows = grid_rows(X, self.positions, self.grid, self.grid_values, names)
        check_algorithm_fits(
            self.algorithm, a.estimator, X, self._methods(), self._not_brute()
        )

    def _resolve_response(self, a):
        """kind, method, response method, scale, centering and weights."""
        estimator, X = self.estimator, self.X
        self.kind = check_choice(a.kind, "kind", ("average", "individual", "both"))
        method = check_choice(a.method, "method", ("auto", "recursion", "brute"))
        check_response_method(estimator, a.response_method)
        self._response_method_argument = a.response_method
        self.scale = check_choice(a.scale, "scale", ("probability", "log_odds"))
        sample_weight = a.sample_weight
        if sample_weight is not None:
            check_sample_weight(sample_weight, X.shape[0])
            sample_weight = _check_sample_weight(sample_weight, X)
        self.sample_weight = sample_weight
        self.method = resolve_method(
            estimator, method, self.kind, sample_weight, a.response_method
        )
        self.response_method = resolve_response_method(
            estimator, a.response_method, self.method
        )
        if self.scale == "log_odds" and self.response_method != "predict_proba":
            raise ValueError(
                "scale='log_odds' transforms predicted probabilities; it needs a "
                "classifier with predict_proba and method='brute' (here the "
                f"values come from {self.response_method})."
            )
        if not isinstance(a.centered, (bool, np.bool_)):
            raise TypeError(f"centered must be True or False; got {a.centered!r}.")
        self.centered = bool(a.centered)

    def _build_grid(self, a, names):
        """The features' positions, labels, kinds and grid values, as
        scikit-learn resolves them."""
        X = self.X
        positions, specs = resolve_pd_features(X, a.features, names)
        is_categorical = resolve_categorical(
            X, a.categorical_features, positions, names
        )
        check_not_integer(X, positions, specs, is_categorical)
        custom = resolve_custom_values(a.custom_values, specs)
        percentiles = check_percentiles(a.percentiles)
        grid_resolution = check_grid_resolution(a.grid_resolution)
        n_ice = check_n_ice(a.n_ice) if self.kind != "average" else 0
        final = final_estimator(self.estimator)
        check_grid_size(
            grid_resolution,
            n_rows=X.shape[0],
            n_columns=X.shape[1],
            n_axes=len(positions),
            n_outputs=len(getattr(final, "classes_", ())) or n_targets(final),
            n_ice_rows=X.shape[0] if n_ice is None else min(n_ice, X.shape[0]),
            max_memory=check_max_memory(a.max_memory),
            x_bytes=x_bytes(X),
        )
        missing = check_missing(a.missing)
        self.positions, self.is_categorical = positions, is_categorical
        self.feature_labels = [str(names[p]) for p in positions]
        grid_values, has_missing, self._sorted_columns = grid_axes(
            X, positions, self.feature_labels, is_categorical, percentiles,
            grid_resolution, custom, missing,
        )  # fmt: skip
        self.missing_note = ""
        if any(has_missing):
            self._check_missing_point(a.method, has_missing)
            self.missing_note = self._missing_refused(grid_values, has_missing, names)
        self.grid_values, self.missing = grid_values, tuple(has_missing)
        self.grid = cartesian(self.grid_values)
        self.shape = tuple(len(v) for v in self.grid_values)

    def _check_missing_point(self, method, has_missing):
        """The missing point is predicted: scikit-learn's recursion sends a
        missing value down the right branch of every split, not where the
        model learned to send it. "auto" then resolves to "brute"."""
        if self.method != "recursion":
            return
        if method == "recursion":
            labels = zip(self.feature_labels, has_missing, strict=True)
            features = [name for name, has in labels if has]
            raise ValueError(
                f"method='recursion' cannot compute the missing point of "
                f"{features} (the recursion ignores where the trees send missing "
                "values); use method='brute', or missing='sklearn'."
            )
        self.method = "brute"
        self.response_method = resolve_response_method(
            self.estimator, self._response_method_argument, "brute"
        )

    def _missing_refused(self, grid_values, has_missing, names):
        """Drop every missing point (in place) if the model refuses a missing
        value in one trial row, X's first with a feature missing: most
        scikit-learn models without native support or an imputer raise on
        it. Returns why, or "" when the model took each."""
        for i, has in enumerate(has_missing):
            if not has:
                continue
            value = grid_values[i][-1:]
            point = cartesian([value])
            row = grid_rows(self.X, [self.positions[i]], point, [value], names)
            try:
                call_model(self.estimator, self.response_method, row)
            except (ValueError, TypeError) as exc:
                reason = str(exc.__cause__ or exc).strip().split("\n")[0]
                for j in range(len(has_missing)):
                    if has_missing[j]:
                        grid_values[j] = grid_values[j][:-1]
                        has_missing[j] = False
                model = type(self.estimator).__name__
                return (
                    f"No missing point: {model} does not take a missing "
                    f"{quoted(self.feature_labels[i])} ({reason.rstrip('.')})."
                )
        return ""

    def _summarize_features(self, names, threshold):
        """Each feature's distribution, and its strongly correlated partners
        (warned about: the curve then averages over unrealistic points)."""
        self.distributions = tuple(
            feature_distribution(self.X, p, label, cat, values, ordered)
            for p, label, cat, values, ordered in zip(
                self.positions, self.feature_labels, self.is_categorical,
                self.grid_values, self._sorted_columns, strict=True,
            )
        )  # fmt: skip
        self._sorted_columns = None  # a copy of each column: not kept
        self.correlated = ()
        if threshold is not None:
            self.correlated = correlated_features(
                self.X,
                self.positions,
                [str(n) for n in names],
                self.is_categorical,
                threshold,
            )
            for correlation in self.correlated:
                # The caller of partial_dependence or iter_partial_dependence.
                warnings.warn(correlation.message, UserWarning, stacklevel=4)

    # --- running --------------------------------------------------------------

    def _cancelled(self):
        return self.cancel is not None and self.cancel.is_set()

    def __iter__(self):
        return self.run(snapshots=True)

    def run(self, snapshots=True):
        """Compute, yielding a snapshot after every chunk of grid points
        (`snapshots`), or only the last state reached (complete or cancelled)
        without copying it. Nothing is yielded if cancelled before starting."""
        if self.method == "recursion":
            yield self._recursion()
            return
        run_plan = plan_run(self, snapshots)
        if not snapshots and self.computed_by == "linear" and not self.runner.remote:
            # Nobody watches: the whole grid at once, in the result's layout.
            arrays = linear_grid_arrays(self, run_plan.chunks)
            if arrays is not None:
                yield self._result(*arrays)
            return
        groups = run_plan.groups
        state = ValueBuffers(self, self.grid.shape[0])
        # Chunks may complete in any order (a remote backend); they are
        # stored in schedule order, so the first grid point (centering's
        # anchor, in the first chunk) comes first and every snapshot holds a
        # coarse-to-fine prefix.
        arrived, next_start = {}, 0
        for start, stop, values in self.runner.run(
            run_plan.schedule, predict_chunk, run_plan.chunks, self._cancelled
        ):
            arrived[start] = stop, values
            while next_start in arrived:
                stop, values = arrived.pop(next_start)
                chunk_groups = np.sort(groups.order[next_start:stop])
                state.store(*groups.points(chunk_groups), values)
                next_start = stop
                if snapshots:
                    yield self._snapshot(state, copy=True)
            values = None  # stored: not held while the next chunk is computed
        if not snapshots and state.n_done:
            yield self._snapshot(state, copy=False)

    # --- the shortcuts -----------------------------------------------------------

    def _methods(self):
        return Responses(self.response_method, self.scale, None).methods

    def _not_brute(self):
        """Why the shortcuts do not apply to the method, if they do not."""
        if self.method != "brute":
            return (
                f"method={self.method!r} is the estimator's own recursion; pass "
                "method='brute' for the tree shortcut"
            )
        return None

    def empty_result(self):
        """A result with no grid point done, for a run cancelled at once."""
        return self._snapshot(ValueBuffers(self, self.grid.shape[0]), copy=False)

    def _recursion(self):
        grid_indices = np.asarray(self.positions, dtype=np.intp)
        average = self.estimator._compute_partial_dependence_recursion(
            self.grid, grid_indices
        )
        average = average.reshape(average.shape[0] if average.ndim > 1 else 1, -1)
        if self.output_columns is not None:
            average = average[self.output_columns]
        if self.centered:
            average = average - average[:, :1]
        average = average.reshape(-1, *self.shape)
        return self._result(average, None, np.ones(self.shape, dtype=bool))

    def _snapshot(self, state, copy):
        average, individual, done = state.arrays(copy)
        return self._result(average, individual, done)

    def _result(self, average, individual, done):
        return PartialDependenceResult(
            feature_names=tuple(self.feature_labels),
            feature_columns=tuple(self.positions),
            categorical=tuple(self.is_categorical),
            grid_values=tuple(self.grid_values),
            average=average,
            individual=individual,
            ice_rows=self.ice_rows,
            done=done,
            kind=self.kind,
            method=self.method,
            response_method=self.response_method,
            output_names=self.output_names,
            scale=self.scale,
            centered=self.centered,
            distributions=self.distributions,
            correlated=self.correlated,
            missing=self.missing,
            missing_note=self.missing_note,
            algorithm=getattr(self, "computed_by", "generic"),
        )
