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
Tree ensembles predict grid points they route alike only once
(``tree_splits``), and boosting models go tree by tree, each tree on its own
few cells of the grid (``treewise``); the numbers stay the same, bit for bit.
"""

import time
import warnings
from functools import partial

import numpy as np
from scipy import sparse
from sklearn.utils import check_random_state
from sklearn.utils.extmath import cartesian

from .._core.batching import make_batcher
from .._core.chunks import DEFAULT_MAX_MEMORY, ChunkSchedule
from .._core.compat import _check_sample_weight
from .._core.pipeline import columnwise_view, final_estimator
from .._core.validation import check_cancel, check_max_memory, check_sample_weight
from .feature_summary import correlated_features, feature_distribution
from .grid import (
    check_grid_resolution,
    check_percentiles,
    coarse_to_fine,
    grid_axes,
    grid_rows,
)
from .params import (
    check_choice,
    check_correlation_threshold,
    check_n_ice,
    check_not_integer,
    check_pd_estimator,
    check_pd_X,
    check_response_method,
    column_labels,
    resolve_categorical,
    resolve_classes,
    resolve_custom_values,
    resolve_method,
    resolve_pd_features,
    resolve_response_method,
)
from .result import PartialDependenceResult
from .tree_splits import grid_point_groups
from .treewise import TreewiseBoosting

# Probabilities are clipped to [LOG_ODDS_EPS, 1] before taking logs.
LOG_ODDS_EPS = np.finfo(np.float64).eps
# Chunks stop growing at this size (or max_memory, if smaller): larger ones pay
# the per-call overhead no less rarely, and buffers this small are recycled by
# the allocator from chunk to chunk instead of being mapped and faulted in
# afresh (measured: 256 MiB chunks were up to 1.7x slower than 32-64 MiB ones).
CHUNK_BYTES = 64 * 2**20
# The first chunk holds this fraction of the grid (coarse points first), so a
# streamed curve shows its outline early; later chunks double while they are
# fast (see ChunkSchedule).
FIRST_CHUNK_FRACTION = 1 / 8


def centered_log_odds(proba):
    """ESL eq. 10.52: ``f_k = log p_k - (1/K) sum_l log p_l`` per row, with
    probabilities clipped to ``[LOG_ODDS_EPS, 1]`` so that 0 gives a finite
    (very negative) log."""
    log_p = np.log(np.clip(proba, LOG_ODDS_EPS, 1))
    return log_p - log_p.mean(axis=1, keepdims=True)


class PartialDependenceRun:
    """One validated partial dependence computation, ready to stream.

    Construction validates every argument, builds the grid, the feature
    summaries and the rows holding the grid values, and issues the correlation
    warnings; iterating predicts and yields :class:`PartialDependenceResult`
    snapshots.
    """

    def __init__(
        self,
        estimator,
        X,
        features,
        *,
        sample_weight=None,
        categorical_features=None,
        feature_names=None,
        response_method="auto",
        percentiles=(0.05, 0.95),
        grid_resolution=100,
        custom_values=None,
        method="auto",
        kind="average",
        centered=False,
        scale="probability",
        classes=None,
        n_ice=None,
        random_state=None,
        correlation_threshold=0.8,
        max_memory=DEFAULT_MAX_MEMORY,
        cancel=None,
    ):
        check_pd_estimator(estimator)
        X = check_pd_X(X)
        kind = check_choice(kind, "kind", ("average", "individual", "both"))
        method = check_choice(method, "method", ("auto", "recursion", "brute"))
        check_response_method(estimator, response_method)
        self.scale = check_choice(scale, "scale", ("probability", "log_odds"))
        if sample_weight is not None:
            check_sample_weight(sample_weight, X.shape[0])
            sample_weight = _check_sample_weight(sample_weight, X)
        self.method = resolve_method(
            estimator, method, kind, sample_weight, response_method
        )
        self.response_method = resolve_response_method(
            estimator, response_method, self.method
        )
        if self.scale == "log_odds" and self.response_method != "predict_proba":
            raise ValueError(
                "scale='log_odds' transforms predicted probabilities; it needs a "
                "classifier with predict_proba and method='brute' (here the "
                f"values come from {self.response_method})."
            )
        if not isinstance(centered, (bool, np.bool_)):
            raise TypeError(f"centered must be True or False; got {centered!r}.")

        names = column_labels(X, feature_names)
        positions, specs = resolve_pd_features(X, features, names)
        is_categorical = resolve_categorical(X, categorical_features, positions, names)
        check_not_integer(X, positions, names, is_categorical)
        custom = resolve_custom_values(X, custom_values, positions, specs, names)
        percentiles = check_percentiles(percentiles)
        grid_resolution = check_grid_resolution(grid_resolution)
        feature_labels = [str(names[p]) for p in positions]
        self.grid_values = grid_axes(
            X, positions, feature_labels, is_categorical, percentiles,
            grid_resolution, custom,
        )  # fmt: skip
        self.grid = cartesian(self.grid_values)
        self.shape = tuple(len(v) for v in self.grid_values)

        n_ice = check_n_ice(n_ice)
        self.ice_rows = None
        if kind != "average" and n_ice is not None and n_ice < X.shape[0]:
            rng = check_random_state(random_state)
            self.ice_rows = np.sort(rng.choice(X.shape[0], n_ice, replace=False))
        threshold = check_correlation_threshold(correlation_threshold)
        self.max_memory = check_max_memory(max_memory)
        self.cancel = check_cancel(cancel)

        self.estimator, self.X, self.sample_weight = estimator, X, sample_weight
        self.kind, self.centered = kind, bool(centered)
        self.positions, self.feature_labels = positions, feature_labels
        self.is_categorical = is_categorical
        self.output_names, self.output_columns = resolve_classes(
            estimator, classes, self.response_method
        )
        if self.output_names is not None:
            self.n_outputs = len(self.output_names)
            self.n_raw_outputs = len(estimator.classes_)
        else:
            self.n_outputs = self.n_raw_outputs = _n_targets(estimator)
        self.distributions = tuple(
            feature_distribution(X, p, label, cat, values)
            for p, label, cat, values in zip(
                positions, feature_labels, is_categorical, self.grid_values,
                strict=True,
            )
        )  # fmt: skip
        self.correlated = ()
        if threshold is not None:
            all_names = [str(n) for n in names]
            self.correlated = correlated_features(
                X, positions, all_names, is_categorical, threshold
            )
            for correlation in self.correlated:
                warnings.warn(correlation.message, UserWarning, stacklevel=3)
        self.rows = None
        if self.method == "brute":
            self.rows = grid_rows(X, positions, self.grid, self.grid_values, names)

    # --- the prediction space ---------------------------------------------

    def _prediction_space(self):
        """The data the copies are made of, the rows holding the grid values
        (same columns), the columns to set and the model predicting them.

        Normally X, the grid rows and the estimator. For a pipeline whose
        preprocessing is provably column-wise: X and the grid rows transformed
        (once each), the transformed columns of the features and the final
        step, which then sees exactly what the pipeline gives it.
        """
        view = columnwise_view(self.estimator, self.X.shape[1])
        if view is not None:
            transformed, rows = view.transform(self.X), view.transform(self.rows)
            dense = (
                isinstance(transformed, np.ndarray)
                and isinstance(rows, np.ndarray)
                and transformed.dtype == rows.dtype
            )
            csr = all(
                sparse.issparse(m) and m.format == "csr" and m.has_sorted_indices
                for m in (transformed, rows)
            ) and (transformed.dtype == rows.dtype)
            if dense or csr:
                return transformed, rows, view.map_columns(self.positions), view.model
        return self.X, self.rows, tuple(self.positions), self.estimator

    def _responses(self, predict):
        """Predictions of shape (n_rows, n_outputs), processed as scikit-learn
        processes them (positive class only for binary classifiers), or the
        `classes` asked for. ``predict(method)`` gives the model's output."""
        columns = self.output_columns
        if self.scale == "log_odds":
            values = centered_log_odds(predict("predict_proba"))
            if columns is None and values.shape[1] == 2:
                columns = [1]
        else:
            values = predict(self.response_method)
            if columns is None and self.response_method == "predict_proba":
                # scikit-learn's _get_response_values: the positive class,
                # classes_[-1], of a binary classifier.
                values = values[:, 1] if values.shape[1] == 2 else values
        values = values.reshape(values.shape[0], -1)
        # C order: averages sum in the same order as for a full response.
        return values if columns is None else np.ascontiguousarray(values[:, columns])

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
        source, rows, columns, model = self._prediction_space()
        batcher = make_batcher(source)
        n_rows, n_points = self.X.shape[0], self.grid.shape[0]
        # Grid points a tree ensemble provably predicts alike are predicted
        # once (see tree_splits).
        groups = _GridGroups(grid_point_groups(model, rows, columns), self.shape)
        # Boosting: each tree on its own few cells (see treewise).
        treewise = TreewiseBoosting.of(model, source, rows, columns, groups.n_groups)
        # A copy, its raw predictions and their processed values.
        per_copy = batcher.bytes_per_copy + n_rows * 16 * self.n_raw_outputs
        cap = max(1, int(min(self.max_memory, CHUNK_BYTES) // per_copy))
        # Streamed: a coarse first chunk, then chunks growing while they are
        # fast. Otherwise nobody watches: full-size chunks from the start.
        first = cap
        if snapshots:
            first = max(1, int(np.ceil(groups.n_groups * FIRST_CHUNK_FRACTION)))
        schedule = ChunkSchedule(groups.n_groups, first, cap)
        state = _Buffers(self, n_points)
        while (chunk := schedule.take()) is not None and not self._cancelled():
            started = time.perf_counter()
            # Coarse to fine across chunks, in grid order within one: trees
            # predict neighbouring grid values one after another faster.
            chunk_groups = np.sort(groups.order[chunk[0] : chunk[1]])
            points, stacked = groups.representatives[chunk_groups], None
            if treewise is not None:
                predict = partial(treewise.respond, points)
            else:
                stacked = batcher.build([(p, columns) for p in points], donor=rows)
                predict = _caller(model, stacked)
            values = self._responses(predict)
            del predict, stacked  # the chunk's copies of X
            values = values.reshape(len(chunk_groups), n_rows, -1)
            state.store(*groups.points(chunk_groups), values)
            schedule.record(time.perf_counter() - started)
            if snapshots:
                yield self._snapshot(state, copy=True)
        if not snapshots and state.n_done:
            yield self._snapshot(state, copy=False)

    def empty_result(self):
        """A result with no grid point done, for a run cancelled at once."""
        return self._snapshot(_Buffers(self, self.grid.shape[0]), copy=False)

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
        )


def _n_targets(regressor):
    """How many targets a fitted regressor predicts, as far as its attributes
    tell before any prediction (an empty result still needs the shape)."""
    final = final_estimator(regressor)
    n_outputs = getattr(final, "n_outputs_", None)
    if n_outputs is None:  # linear models: coef_ is (n_targets, n_features)
        coef = np.asarray(getattr(final, "coef_", np.zeros(0)))
        n_outputs = coef.shape[0] if coef.ndim == 2 else 1
    return int(n_outputs)


def _caller(model, X):
    """``predict(method)``: the model's `method` on X."""
    return lambda method: getattr(model, method)(X)


class _GridGroups:
    """Grid points grouped by identical predictions, each predicted once by
    its first point; groups ordered by their first point coarse to fine."""

    def __init__(self, groups, shape):
        n_points = int(np.prod(shape))
        if groups is None:
            groups = np.arange(n_points)
        self.n_groups = int(groups.max()) + 1
        self.representatives = np.unique(groups, return_index=True)[1]
        self._members = np.argsort(groups, kind="stable")
        self._sizes = np.bincount(groups, minlength=self.n_groups)
        self._ends = np.cumsum(self._sizes)
        coarse = groups[coarse_to_fine(shape)]
        self.order = coarse[np.sort(np.unique(coarse, return_index=True)[1])]

    def points(self, groups):
        """The grid points of `groups`, and for each the position of its
        group in `groups` (None when every group is a single point)."""
        points = np.concatenate(
            [
                self._members[self._ends[g] - self._sizes[g] : self._ends[g]]
                for g in groups
            ]
        )
        if len(points) == len(groups):
            return points, None
        return points, np.repeat(np.arange(len(groups)), self._sizes[groups])


class _Buffers:
    """Averages and ICE values of the grid points done, in grid order.

    Averages are computed as scikit-learn computes them (``np.average`` over
    the rows, with `sample_weight`) from the uncentered predictions; centering
    then subtracts the values at the first grid point, which comes first.
    """

    def __init__(self, run, n_points):
        self.run = run
        self.n_points = n_points
        self.done = np.zeros(n_points, dtype=bool)
        self.average = None
        self.individual = None
        self.anchor = None

    @property
    def n_done(self):
        return int(self.done.sum())

    def _allocate(self, values, average):
        n_outputs = values.shape[2]
        self.average = np.full((n_outputs, self.n_points), np.nan, average.dtype)
        if self.run.kind != "average":
            rows = self.run.ice_rows
            n_ice = values.shape[1] if rows is None else len(rows)
            dtype = np.result_type(values.dtype, np.float16)
            self.individual = np.full((n_outputs, n_ice, self.n_points), np.nan, dtype)

    def store(self, points, which, values):
        """Record the grid `points`, whose values are ``values[which]``
        (`values` itself if `which` is None); `values` has shape
        (n_predicted, n_rows, n_outputs)."""
        if which is None:
            which = slice(None)
        average = np.average(values, axis=1, weights=self.run.sample_weight)
        if self.average is None:
            self._allocate(values, average)
        if self.run.centered and self.anchor is None:
            # coarse_to_fine puts the first grid point in the first chunk.
            first = np.flatnonzero(points == 0)[0]
            if not isinstance(which, slice):
                first = which[first]
            self.anchor = values[first].copy(), average[first].copy()
        if self.run.centered:
            average = average - self.anchor[1]
        self.average[:, points] = average[which].T
        if self.individual is not None:
            rows = self.run.ice_rows
            ice = values if rows is None else values[:, rows]
            if self.run.centered:
                anchor = self.anchor[0] if rows is None else self.anchor[0][rows]
                ice = ice - anchor
            self.individual[:, :, points] = ice[which].transpose(2, 1, 0)
        self.done[points] = True

    def arrays(self, copy):
        shape = self.run.shape
        if self.average is None:
            n_outputs = self.run.n_outputs
            average = np.full((n_outputs, *shape), np.nan)
            individual = None
            if self.run.kind != "average":
                rows = self.run.ice_rows
                n_ice = self.run.X.shape[0] if rows is None else len(rows)
                individual = np.full((n_outputs, n_ice, *shape), np.nan)
            return average, individual, self.done.reshape(shape).copy()
        average = self.average.reshape(-1, *shape)
        individual = self.individual
        if individual is not None:
            individual = individual.reshape(individual.shape[:2] + shape)
        done = self.done.reshape(shape)
        if copy:
            average, done = average.copy(), done.copy()
            individual = None if individual is None else individual.copy()
        return average, individual, done


def iter_partial_dependence(
    estimator,
    X,
    features,
    *,
    sample_weight=None,
    categorical_features=None,
    feature_names=None,
    response_method="auto",
    percentiles=(0.05, 0.95),
    grid_resolution=100,
    custom_values=None,
    method="auto",
    kind="average",
    centered=False,
    scale="probability",
    classes=None,
    n_ice=None,
    random_state=None,
    correlation_threshold=0.8,
    max_memory=DEFAULT_MAX_MEMORY,
    cancel=None,
):
    """Stream a partial dependence, one chunk of grid points at a time.

    Arguments are validated (and correlation warnings issued) when this is
    called; the predictions happen as the returned iterator is consumed.
    Parameters are those of :func:`partial_dependence`.

    Yields
    ------
    result : PartialDependenceResult
        After each chunk of grid points: every value computed so far, NaN
        elsewhere, and `done` marking the grid points computed. The first
        chunk covers the grid coarsely (its ends, its middle, ...), later
        chunks fill it in. The last result equals :func:`partial_dependence`'s.
        If `cancel` is set, the iterator stops before the next chunk; the last
        result yielded stays valid. With ``method="recursion"`` there is one
        result.
    """
    run = PartialDependenceRun(
        estimator,
        X,
        features,
        sample_weight=sample_weight,
        categorical_features=categorical_features,
        feature_names=feature_names,
        response_method=response_method,
        percentiles=percentiles,
        grid_resolution=grid_resolution,
        custom_values=custom_values,
        method=method,
        kind=kind,
        centered=centered,
        scale=scale,
        classes=classes,
        n_ice=n_ice,
        random_state=random_state,
        correlation_threshold=correlation_threshold,
        max_memory=max_memory,
        cancel=cancel,
    )
    return run.run(snapshots=True)


def partial_dependence(
    estimator,
    X,
    features,
    *,
    sample_weight=None,
    categorical_features=None,
    feature_names=None,
    response_method="auto",
    percentiles=(0.05, 0.95),
    grid_resolution=100,
    custom_values=None,
    method="auto",
    kind="average",
    centered=False,
    scale="probability",
    classes=None,
    n_ice=None,
    random_state=None,
    correlation_threshold=0.8,
    max_memory=DEFAULT_MAX_MEMORY,
    callback=None,
    cancel=None,
    return_result=False,
):
    """Partial dependence of `features`, as in scikit-learn.

    A drop-in for :func:`sklearn.inspection.partial_dependence`: the same
    parameters, the same Bunch and the same numbers. With ``method="brute"``
    the copies of X for many grid points are predicted in a few batched calls
    (bounded by `max_memory`) instead of one call per grid point; pipelines
    whose preprocessing is column-wise transform X only once.
    ``method="recursion"`` is the estimator's own, as in scikit-learn.

    Parameters
    ----------
    estimator : object
        A fitted regressor or classifier (or a pipeline ending in one).
    X : ndarray or DataFrame of shape (n_samples, n_features)
        Data whose rows are averaged over (with ``method="brute"``) and whose
        feature values define the grid.
    features : int, str or list of them
        The feature (``0``, ``"age"`` or ``[0]``) or pair of features
        (``[0, 1]`` or ``[(0, 1)]``) of the partial dependence, by position
        or name (names of a DataFrame's columns, or `feature_names`).
    sample_weight : array-like of shape (n_samples,), default=None
        Weights of the rows in the average (brute only; ICE values are not
        weighted). Setting it selects ``method="brute"`` under "auto".
    categorical_features : array-like, default=None
        Boolean mask over X's columns, or the indices or names of the
        categorical ones. A categorical feature's grid is its unique values.
    feature_names : array-like of str, default=None
        Names of X's columns (default: a DataFrame's labels, or x0, x1, ...).
    response_method : {"auto", "predict_proba", "decision_function"}, \
            default="auto"
        For classifiers: "auto" tries predict_proba, then decision_function.
        Must be "auto" for regressors. Recursion uses the decision function.
    percentiles : tuple of float, default=(0.05, 0.95)
        Lower and upper percentiles of a numeric feature between which its
        grid is spread; both in [0, 1], lower < upper.
    grid_resolution : int, default=100
        Number of evenly spaced grid values of a numeric feature (its unique
        values are used when it has fewer). At least 2.
    custom_values : dict, default=None
        ``{feature: grid values}`` overriding `percentiles` and
        `grid_resolution` for that feature; keys as in `features`.
    method : {"auto", "recursion", "brute"}, default="auto"
        As in scikit-learn: "auto" uses the recursion for
        GradientBoosting* (without `init`), HistGradientBoosting*,
        DecisionTreeRegressor and RandomForestRegressor when
        ``kind="average"`` and there is no `sample_weight`; brute otherwise.
    kind : {"average", "individual", "both"}, default="average"
        Return the average, the individual (ICE) values, or both.
    centered : bool, default=False
        Shift every ICE curve, and the average, so that its value at the
        first grid point (the first point of the grid for two features) is 0,
        as scikit-learn's display does with ``centered=True``.
    scale : {"probability", "log_odds"}, default="probability"
        "probability" keeps the response as scikit-learn returns it.
        "log_odds" (classifiers with predict_proba, brute) turns each row's
        probabilities into centered log-odds, ESL eq. 10.52:
        ``f_k = log p_k - (1/K) sum_l log p_l``, with probabilities clipped to
        ``[eps, 1]`` (eps = float64 machine epsilon, 2.2e-16) before the log,
        then averages them. For binary classifiers that is half the logit of
        the positive class.
    classes : array-like of class labels, default=None
        Classifiers: keep the values of these classes only, in this order (the
        first axis of the results). None keeps scikit-learn's outputs: the
        positive class ``classes_[1]`` of a binary classifier, every class
        otherwise. A binary classifier's negative class has values on the
        probability and log-odds scales, not from its decision function.
    n_ice : int, default=None
        Keep the ICE values of only `n_ice` rows drawn at random (without
        replacement) by `random_state`; the average still uses every row.
        None keeps every row.
    random_state : int, RandomState instance or None, default=None
        Draws the `n_ice` rows.
    correlation_threshold : float or None, default=0.8
        Warn (a ``UserWarning`` and ``result.correlated``) when a numeric
        feature's |Spearman rho| with another numeric column of X is at least
        this; the curve then averages over unrealistic points. None disables
        the check.
    max_memory : int, default=256 MiB
        Upper bound on the bytes of stacked copies of X (and their
        predictions) held at once. Chunks also stay under 64 MiB, past which
        they are no faster.
    callback : callable, default=None
        Called with the partial :class:`PartialDependenceResult` after every
        chunk of grid points, e.g. to report progress.
    cancel : threading.Event or object with ``is_set()``, default=None
        When set, the computation stops before the next chunk and the grid
        points done so far are returned (NaN elsewhere).
    return_result : bool, default=False
        Return the :class:`PartialDependenceResult` (grid, values, which
        points are done, feature distributions, correlation warnings) instead
        of scikit-learn's Bunch.

    Returns
    -------
    result : Bunch
        ``grid_values``: list of 1-D arrays, one per feature;
        ``average``: shape (n_outputs, len(grid_values[0]), ...), for
        ``kind="average"`` or "both"; ``individual``: shape
        (n_outputs, n_samples, len(grid_values[0]), ...), for "individual" or
        "both". n_outputs is the number of classes for multiclass classifiers,
        of targets for multi-output regressors, 1 otherwise (binary
        classifiers: the positive class, ``classes_[1]``).

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.linear_model import Ridge
    >>> from inspectwidgets import partial_dependence
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> model = Ridge(alpha=1e-2).fit(X, y)
    >>> pd_result = partial_dependence(model, X, ["bmi"], kind="both")
    >>> pd_result.average.shape, pd_result.individual.shape
    ((1, 100), (1, 442, 100))
    """
    run = PartialDependenceRun(
        estimator,
        X,
        features,
        sample_weight=sample_weight,
        categorical_features=categorical_features,
        feature_names=feature_names,
        response_method=response_method,
        percentiles=percentiles,
        grid_resolution=grid_resolution,
        custom_values=custom_values,
        method=method,
        kind=kind,
        centered=centered,
        scale=scale,
        classes=classes,
        n_ice=n_ice,
        random_state=random_state,
        correlation_threshold=correlation_threshold,
        max_memory=max_memory,
        cancel=cancel,
    )
    result = None
    for result in run.run(snapshots=callback is not None):
        if callback is not None:
            callback(result)
    if result is None:
        result = run.empty_result()
    return result if return_result else result.to_sklearn()
