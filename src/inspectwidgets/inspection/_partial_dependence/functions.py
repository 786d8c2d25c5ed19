"""The public partial dependence functions: one-shot and streamed."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Literal

from numpy.typing import ArrayLike
from sklearn.utils import Bunch

from .._core.chunks import DEFAULT_MAX_MEMORY
from .._core.hints import (
    Algorithm,
    Cancel,
    Column,
    Data,
    Estimator,
    RandomState,
    ResponseMethod,
    Scale,
    SparseMatrix,
)
from .._core.signature import (
    adopt_parameters,
    bind_arguments,
    finish,
    streaming_arguments,
    streaming_signature,
)
from .result import PartialDependenceResult
from .run import PartialDependenceRun


def iter_partial_dependence(
    estimator: Estimator,
    X: Data | SparseMatrix,
    features: Column | Sequence[Column],
    **params: Any,
) -> Iterator[PartialDependenceResult]:
    """Stream a partial dependence, one chunk of grid points at a time.

    Arguments are validated (and correlation warnings issued) when this is
    called; the predictions happen as the returned iterator is consumed.
    Parameters are those of :func:`partial_dependence` but `callback` and
    `return_result`.

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

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.ensemble import RandomForestRegressor
    >>> from inspectwidgets import iter_partial_dependence, partial_dependence
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> forest = RandomForestRegressor(n_estimators=10, max_depth=3, random_state=0)
    >>> forest = forest.fit(X, y)
    >>> for result in iter_partial_dependence(forest, X, ["bmi"], grid_resolution=20):
    ...     pass  # e.g. redraw a chart
    >>> type(result).__name__, result.average.shape, bool(result.done.all())
    ('PartialDependenceResult', (1, 20), True)
    >>> full = partial_dependence(forest, X, ["bmi"], grid_resolution=20)
    >>> np.array_equal(result.average, full["average"])
    True
    """
    arguments = bind_arguments(RUN_SIGNATURE, (estimator, X, features), params)
    return PartialDependenceRun(**arguments).run(snapshots=True)


def partial_dependence(
    estimator: Estimator,
    X: Data | SparseMatrix,
    features: Column | Sequence[Column],
    *,
    sample_weight: ArrayLike | None = None,
    categorical_features: ArrayLike | None = None,
    feature_names: ArrayLike | None = None,
    response_method: ResponseMethod = "auto",
    percentiles: tuple[float, float] = (0.05, 0.95),
    grid_resolution: int = 100,
    custom_values: dict[Column, ArrayLike] | None = None,
    method: Literal["auto", "recursion", "brute"] = "auto",
    kind: Literal["average", "individual", "both"] = "average",
    centered: bool = False,
    scale: Scale = "probability",
    classes: ArrayLike | None = None,
    n_ice: int | None = None,
    random_state: RandomState = None,
    correlation_threshold: float | None = None,
    max_memory: int = DEFAULT_MAX_MEMORY,
    algorithm: Algorithm = "auto",
    missing: Literal["sklearn", "observed"] = "sklearn",
    callback: Callable[[PartialDependenceResult], object] | None = None,
    cancel: Cancel | None = None,
    return_result: bool = False,
) -> PartialDependenceResult | Bunch:
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
    X : {array-like, sparse matrix, DataFrame} of shape (n_samples, n_features)
        Data whose rows are averaged over (with ``method="brute"``) and whose
        feature values define the grid. A sparse matrix is copied to CSR and
        its copies are predicted as CSR; its grid is that of the same X dense
        (the tree shortcut, ``algorithm="tree"``, needs dense X).
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
    correlation_threshold : float or None, default=None
        Warn (a ``UserWarning`` and ``result.correlated``) when a numeric
        feature's ``|Spearman rho|`` with another numeric column of X is at least
        this; the curve then averages over unrealistic points. None (as
        scikit-learn, which warns of nothing) skips the check; the widgets and
        Displays use ``DEFAULT_CORRELATION_THRESHOLD`` (0.8).
    max_memory : int, default=64 MiB
        Upper bound on the bytes of stacked copies of X (and their
        predictions) held at once. Chunks also stay under 64 MiB, past which
        they are no faster.
    algorithm : {"auto", "tree", "linear", "generic"}, default="auto"
        How the brute method predicts the grid. "generic" does not walk: it
        stacks copies of X and calls the model, or predicts gradient boosting
        tree by tree, each tree once per cell of the grid its splits make, where
        that is exact and saves work (the same numbers). "tree" walks each row
        through the trees once with all of a chunk's grid points: the same
        predictions, bit for bit, for a fraction of the work. It takes
        scikit-learn's DecisionTree*, ExtraTree*, RandomForest*, ExtraTrees*,
        GradientBoosting* (started from ``init="zero"`` or a constant dummy) and
        HistGradientBoosting* (categorical splits and missing values included),
        of exactly these classes, any regressor and single-output classifiers,
        and LightGBM's LGBMClassifier and LGBMRegressor (read from their model
        text; what is refused: docs/other_libraries.md). "linear" moves each
        row's decision function by the feature's contribution at each grid
        value, then applies the model's own link (ICE lines in closed form,
        to BLAS rounding): LinearRegression, Ridge,
        Lasso, ElasticNet, SGD*, LinearSVC, LinearSVR, LogisticRegression and
        Poisson, Gamma and TweedieRegressor. Both take the model alone or last
        in a pipeline whose other steps map each column on its own (scaling,
        encoding, imputation, passthrough), and raise a ValueError saying why
        for anything else: other models, a `method` that resolves to
        "recursion" (pass ``method="brute"``), sparse data reaching the trees,
        and X holding NaN or infinity (but for HistGradientBoosting* and
        LightGBM, which route missing values themselves). "auto" takes
        "linear" or "tree" where they apply and does what "generic" does
        elsewhere, where the model's own checks judge NaN. The result's
        ``algorithm`` says which ran.
    missing : {"sklearn", "observed"}, default="sklearn"
        What a feature's missing values (NaN, None, ``pd.NA``) do to its grid.
        "sklearn": scikit-learn's grid. A missing value is one of the unique
        values where those make the grid (categorical features, features with
        fewer than `grid_resolution` values): NaN, last. Elsewhere it makes
        scikit-learn's percentiles, and so its whole grid, NaN (a flat,
        meaningless curve); this function raises a ValueError naming the
        column instead. Strings mixed with missing values raise scikit-learn's
        ValueError ("The column #0 contains mixed data types"), naming the
        column. "observed": the grid is built from the observed values, and
        the feature's missing value is appended as its own last grid value
        (``result.missing`` flags it), whose average and ICE values are the
        model's predictions with the feature missing; the missing points are
        left out (``result.missing_note`` says why) when the model refuses a
        missing value in one trial prediction. These points are predicted:
        "auto" resolves to "brute", and "recursion" is refused (scikit-learn's
        recursion ignores where the trees send missing values).
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
    arguments = locals()  # the first statement: exactly the parameters
    run = PartialDependenceRun(**streaming_arguments(arguments))
    results = run.run(snapshots=callback is not None)
    return finish(results, run, callback, return_result)


RUN_SIGNATURE = streaming_signature(partial_dependence)
adopt_parameters(iter_partial_dependence, RUN_SIGNATURE)
