"""Every feature's partial dependence at a glance: the overview's public
functions and its run (validation, then one shared stream of predictions)."""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from .._core.chunks import DEFAULT_MAX_MEMORY
from .._core.dtypes import float_features
from .._core.effect_params import (
    check_pd_estimator,
    check_pd_X,
    check_response_method,
    column_labels,
    resolve_categorical,
    resolve_pd_features,
)
from .._core.hints import Algorithm, Cancel, Column, Data, Estimator, ResponseMethod
from .._core.levels import level_summary
from .._core.parallel import ChunkRunner
from .._core.signature import adopt_parameters, bind_arguments, streaming_signature
from .._core.validation import check_cancel, check_columns
from .chunks import predict_chunk
from .grid import (
    check_grid_resolution,
    check_missing,
    check_percentiles,
    feature_column,
)
from .overview_plan import plan_overview
from .overview_result import (
    OverviewPanel,
    PartialDependenceOverview,
    check_importances,
    ordered,
    pd_spread,
)
from .run import PartialDependenceRun


def partial_dependence_overview(
    estimator: Estimator,
    X: Data,
    features: Sequence[Column] | None = None,
    *,
    importances: Mapping[Column, float] | ArrayLike | None = None,
    categorical_features: ArrayLike | None = None,
    feature_names: ArrayLike | None = None,
    response_method: ResponseMethod = "auto",
    percentiles: tuple[float, float] = (0.05, 0.95),
    grid_resolution: int = 20,
    classes: ArrayLike | None = None,
    missing: Literal["sklearn", "observed"] = "observed",
    max_memory: int = DEFAULT_MAX_MEMORY,
    algorithm: Algorithm = "auto",
    callback: Callable[[PartialDependenceOverview], object] | None = None,
    cancel: Cancel | None = None,
) -> PartialDependenceOverview:
    """Every feature's 1-way partial dependence (average), most important first.

    A function of its own rather than a mode of :func:`partial_dependence`:
    that one is scikit-learn's drop-in (one feature or pair, a Bunch) and its
    parameters keep scikit-learn's meaning; the overview takes many features,
    orders them and returns a panel per feature, including the features that
    have no curve and why. Each feature's grid is the one
    :func:`partial_dependence` builds with the same arguments (its missing
    values, categories and checks), and each panel's `average` equals
    ``partial_dependence(estimator, X, [feature], method="brute",
    kind="average", ...)["average"]``: the average over X's rows (the
    recursion's weighting by training samples is never used). The work is
    shared: the model (a column-wise pipeline's preprocessing) is prepared
    once, a tree model is flattened and its splits read once, and each chunk
    predicts several features' grid points in one tree walk or one batched
    call.

    Panels are ordered by `importances` when given (e.g. permutation
    importances), else by each partial dependence's own spread (Greenwell,
    Boehmke & McCarthy 2018, "A simple and effective model-based variable
    importance measure"): the standard deviation of the average over the grid
    for a numeric feature, its range / 4 for a categorical one (see
    ``pd_spread``); ``result.order_by`` says which.

    Parameters
    ----------
    estimator : object
        A fitted regressor or classifier (or a pipeline ending in one).
    X : {array-like, DataFrame} of shape (n_samples, n_features)
        The rows averaged over; their values make the grids.
    features : list of int or str, default=None
        The features, by position or name; None: every column of X.
    importances : mapping or array-like, default=None
        The order: ``{feature: importance}`` for every feature, or one
        importance per feature of `features` (per column of X if None).
        None: the spread of each partial dependence.
    categorical_features, feature_names, response_method, percentiles, \
classes, max_memory, algorithm
        As in :func:`partial_dependence`.
    grid_resolution : int, default=20
        Grid values of a numeric feature (fewer than the single view's: a small
        panel shows no more).
    missing : {"sklearn", "observed"}, default="observed"
        As in :func:`partial_dependence`; "observed" (the widgets' choice) draws
        a feature's missing value as its own last point where the model takes
        missing values.
    callback : callable, default=None
        Called with the partial result after every chunk.
    cancel : threading.Event or object with ``is_set()``, default=None
        When set, stops before the next chunk; the features done so far keep
        their panels.

    Returns
    -------
    result : PartialDependenceOverview
        ``result.panels``: one :class:`OverviewPanel` per feature, most
        important first. A feature whose partial dependence cannot be computed
        (a column of only missing values)
        has no `average` and its `note` says why, in one sentence.

    Integer, nullable (``Int64``, ``Float64``, ``boolean``) and bool features not
    listed in `categorical_features` are taken as numbers (as floats, in a new
    X; the user's is unchanged), as the widgets take them; scikit-learn's
    partial dependence refuses integer features.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.ensemble import HistGradientBoostingRegressor
    >>> from inspectwidgets import partial_dependence, partial_dependence_overview
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> model = HistGradientBoostingRegressor(max_iter=20, random_state=0).fit(X, y)
    >>> overview = partial_dependence_overview(model, X, ["age", "bmi", "s5"])
    >>> overview.order_by, overview.features
    ('pd_spread', ('s5', 'bmi', 'age'))
    >>> single = partial_dependence(
    ...     model, X, ["bmi"], method="brute", grid_resolution=20
    ... )
    >>> np.array_equal(overview["bmi"].average, single["average"])
    True
    """
    arguments = {k: v for k, v in locals().items() if k != "callback"}
    run = OverviewRun(**arguments)
    result = None
    for result in run.run(snapshots=callback is not None):
        if callback is not None:
            callback(result)
    return run.empty_result() if result is None else result


def iter_partial_dependence_overview(
    estimator: Estimator,
    X: Data,
    features: Sequence[Column] | None = None,
    **params: Any,
) -> Iterator[PartialDependenceOverview]:
    """Stream :func:`partial_dependence_overview`: a result after every chunk
    of grid points (the features completed so far have their panels), the last
    equal to the one-shot's. Arguments are validated when this is called.
    Parameters are those of :func:`partial_dependence_overview` but
    `callback`.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.linear_model import Ridge
    >>> from inspectwidgets import iter_partial_dependence_overview
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> model = Ridge().fit(X, y)
    >>> for overview in iter_partial_dependence_overview(model, X, importances=X.std()):
    ...     pass  # redraw the panels
    >>> overview.complete, overview.order_by, len(overview.panels)
    (True, 'importance', 10)
    """
    arguments = bind_arguments(OVERVIEW_SIGNATURE, (estimator, X, features), params)
    return OverviewRun(**arguments).run(snapshots=True)


class OverviewRun:
    """A validated overview: common arguments checked at once (a bad one
    raises), each feature's grid built by its own PartialDependenceRun (a
    feature's own error becomes its panel's note)."""

    def __init__(self, **a: Any) -> None:
        estimator = a["estimator"]
        check_pd_estimator(estimator)
        X = check_columns(estimator, check_pd_X(a["X"]))
        check_response_method(estimator, a["response_method"])
        check_grid_resolution(a["grid_resolution"])
        check_percentiles(a["percentiles"])
        check_missing(a["missing"])
        self.cancel = check_cancel(a["cancel"])
        names = column_labels(X, a["feature_names"])
        features = a["features"]
        if features is None:
            features = list(range(X.shape[1]))
        elif isinstance(features, (str, numbers.Integral)):
            features = [features]
        features = list(features)
        if not features:
            raise ValueError(
                "features: give at least one feature, or None for every column "
                "of X; got an empty list."
            )
        self.labels, self.columns = [], []
        for feature in features:
            positions, _ = resolve_pd_features(X, [feature], names)
            self.columns.append(positions[0])
            self.labels.append(str(names[positions[0]]))
        self.importances = check_importances(a["importances"], features, self.labels)
        # Integer, nullable and bool features not listed as categorical are
        # numbers here, as in the widgets (a new X, as floats; the user's is
        # unchanged): partial_dependence, as scikit-learn, refuses them.
        categorical = resolve_categorical(
            X, a["categorical_features"], self.columns, names
        )
        pairs = zip(self.columns, categorical, strict=True)
        X = float_features(X, [c for c, cat in pairs if not cat])
        shared = {k: a[k] for k in _RUN_ARGUMENTS}
        self.runs, self.notes = [], []
        for column, is_categorical in zip(self.columns, categorical, strict=True):
            summary = (
                level_summary(feature_column(X, column)) if is_categorical else None
            )
            run, note = _feature_run(estimator, X, names[column], shared, summary)
            self.runs.append(run)
            self.notes.append(note)
        valid = [r for r in self.runs if r is not None]
        self.output_names = valid[0].output_names if valid else None
        self.response_method = valid[0].response_method if valid else "predict"

    def run(self, snapshots: bool = True) -> Iterator[PartialDependenceOverview]:
        """Predict, yielding an overview after every chunk (`snapshots`), or
        only the last state reached."""
        valid = [i for i, r in enumerate(self.runs) if r is not None]
        averages: list[np.ndarray | None] = [None] * len(self.runs)
        plan = (
            plan_overview([self.runs[i] for i in valid], snapshots) if valid else None
        )
        if valid and plan is None:  # grid rows that do not stack: one by one
            for i in valid:
                if self._cancelled():
                    break
                *_, last = self.runs[i].run(snapshots=False)
                averages[i] = last.average
                if snapshots:
                    yield self._result(averages)
            if not snapshots:
                yield self._result(averages)
            return
        if plan is not None:
            yield from self._stream(plan, valid, averages, snapshots)
        else:
            yield self._result(averages)

    def _stream(self, plan, valid, averages, snapshots):
        group_average = None
        group_done = np.zeros(plan.n_groups, dtype=bool)
        runner = ChunkRunner(threads=False)
        for start, stop, values in runner.run(
            plan.schedule, predict_chunk, plan.chunks, self._cancelled
        ):
            groups = np.sort(plan.chunks.order[start:stop])
            # As ValueBuffers.store averages one feature's points: the same bits.
            average = np.average(values, axis=1)
            if group_average is None:
                group_average = np.full((plan.n_groups, average.shape[1]), np.nan)
            group_average[groups] = average
            group_done[groups] = True
            for k, i in enumerate(valid):
                points = plan.group_of_point[k]
                if averages[i] is None and group_done[points].all():
                    averages[i] = np.ascontiguousarray(group_average[points].T)
            if snapshots:
                yield self._result(averages)
        if not snapshots:
            yield self._result(averages)

    def empty_result(self) -> PartialDependenceOverview:
        """The overview before any prediction (cancelled at once)."""
        return self._result([None] * len(self.runs))

    def _cancelled(self):
        return self.cancel is not None and self.cancel.is_set()

    def _result(self, averages):
        panels = []
        for i, run in enumerate(self.runs):
            average = averages[i]
            spread = np.nan
            if average is not None:
                spread = pd_spread(average, run.is_categorical[0], run.missing[0])
            importance = spread if self.importances is None else self.importances[i]
            panels.append(
                OverviewPanel(
                    feature=self.labels[i],
                    column=self.columns[i],
                    categorical=bool(run.is_categorical[0]) if run else False,
                    grid_values=run.grid_values[0] if run else None,
                    average=average,
                    missing=bool(run.missing[0]) if run else False,
                    spread=spread,
                    importance=float(importance),
                    note=self.notes[i] or (run.missing_note if run else ""),
                )
            )
        n_done = sum(
            1 for i, r in enumerate(self.runs) if r is None or averages[i] is not None
        )
        return PartialDependenceOverview(
            panels=tuple(ordered(panels, self.importances is not None)),
            order_by="pd_spread" if self.importances is None else "importance",
            output_names=self.output_names,
            response_method=self.response_method,
            n_done=n_done,
        )


# What each feature's PartialDependenceRun takes from the overview's arguments.
_RUN_ARGUMENTS = ("categorical_features", "feature_names", "response_method",
                  "percentiles", "grid_resolution", "classes", "missing",
                  "max_memory", "algorithm")  # fmt: skip


def _feature_run(estimator, X, column, shared, summary=None):
    """One feature's validated run, or None and the one-sentence reason.
    A text column `summary` summarises (an ID, an e-mail) is drawn at the
    values it names only, with its note; none named, not drawn."""
    from .functions import RUN_SIGNATURE

    params = {**shared, "method": "brute"}
    if summary is not None:
        if not summary.named:
            return None, summary.note
        params["custom_values"] = {column: list(summary.named)}
    arguments = bind_arguments(RUN_SIGNATURE, (estimator, X, [column]), params)
    try:
        return PartialDependenceRun(
            **arguments
        ), "" if summary is None else summary.note
    except (ValueError, TypeError) as exc:
        return None, str(exc)


OVERVIEW_SIGNATURE = streaming_signature(partial_dependence_overview)
adopt_parameters(iter_partial_dependence_overview, OVERVIEW_SIGNATURE)
