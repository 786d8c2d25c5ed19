"""The public accumulated local effects functions: one-shot and streamed."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from numpy.typing import ArrayLike

from .._core.chunks import DEFAULT_MAX_MEMORY
from .._core.hints import (
    Algorithm,
    Cancel,
    Column,
    Data,
    Estimator,
    ResponseMethod,
    Scale,
)
from .._core.signature import (
    adopt_parameters,
    bind_arguments,
    streaming_arguments,
    streaming_signature,
)
from .result import AccumulatedLocalEffectsResult
from .run import AccumulatedLocalEffectsRun


def iter_accumulated_local_effects(
    estimator: Estimator, X: Data, features: Column | Sequence[Column], **params: Any
) -> Iterator[AccumulatedLocalEffectsResult]:
    """Stream accumulated local effects, one chunk of rows at a time.

    Arguments are validated (and the bins built) when this is called; the
    predictions happen as the returned iterator is consumed. Parameters are
    those of :func:`accumulated_local_effects` but `callback`.

    Yields
    ------
    result : AccumulatedLocalEffectsResult
        After each chunk of rows: the estimate from the rows done so far
        (``n_rows_done``). The first chunk holds an eighth of the rows, later
        ones grow while they are fast. The last result equals
        :func:`accumulated_local_effects`'s. If `cancel` is set, the iterator
        stops before the next chunk; the last result yielded stays valid.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.linear_model import Ridge
    >>> from inspectwidgets import iter_accumulated_local_effects
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> model = Ridge().fit(X, y)
    >>> [r.n_rows_done for r in iter_accumulated_local_effects(model, X, "bmi")]
    [56, 168, 392, 442]
    """
    arguments = bind_arguments(RUN_SIGNATURE, (estimator, X, features), params)
    return AccumulatedLocalEffectsRun(**arguments).run(snapshots=True)


def accumulated_local_effects(
    estimator: Estimator,
    X: Data,
    features: Column | Sequence[Column],
    *,
    grid_resolution: int = 20,
    sample_weight: ArrayLike | None = None,
    response_method: ResponseMethod = "auto",
    categorical_features: ArrayLike | None = None,
    feature_names: ArrayLike | None = None,
    scale: Scale = "probability",
    classes: ArrayLike | None = None,
    max_memory: int = DEFAULT_MAX_MEMORY,
    n_jobs: int | None = None,
    algorithm: Algorithm = "auto",
    cancel: Cancel | None = None,
    callback: Callable[[AccumulatedLocalEffectsResult], object] | None = None,
) -> AccumulatedLocalEffectsResult:
    """Accumulated local effects (ALE) of one feature, or of a pair.

    Apley & Zhu (2020): the feature's range is cut into bins at quantiles;
    every row is predicted with the feature set to its bin's lower and upper
    edge, and the mean of these differences per bin, accumulated from the
    first edge, is the effect. Unlike partial dependence, each row only moves
    within its own bin, so the model is not asked about combinations of
    values that do not occur when features are correlated.

    For bin ``k`` = ``(z_{k-1}, z_k]`` holding rows ``N_k`` (weights ``w_i``)::

        local_k = sum_{i in N_k} w_i (f(z_k, x_i\\j) - f(z_{k-1}, x_i\\j)) / n_k
        g(z_k)  = sum_{l <= k} local_l,  g(z_0) = 0           (uncentered)
        ale     = g - sum_k n_k (g(z_{k-1}) + g(z_k)) / 2 / n  (centered)

    A pair gets the second-order effect (eq. 13-14): per cell the mean of
    ``f(z_a, z_b) - f(z_{a-1}, z_b) - f(z_a, z_{b-1}) + f(z_{a-1}, z_{b-1})``,
    accumulated over both features, minus each feature's accumulated main
    effect, centred (ALEPlot's procedure; empty cells take their nearest
    non-empty cell's mean).

    Cost: two predictions per row (four for a pair, three for a categorical
    feature), whatever `grid_resolution`: the copies go through the batcher,
    the column-wise pipeline view and the tree shortcut, as in
    :func:`partial_dependence`.

    Parameters
    ----------
    estimator : object
        A fitted regressor or classifier (or a pipeline ending in one).
    X : ndarray or DataFrame of shape (n_samples, n_features)
        The data: the rows whose local effects are averaged, and whose
        quantiles are the bin edges. Not modified.
    features : int, str or list of them
        One feature, or a pair (numeric features only), by position or name.
    grid_resolution : int, default=20
        Number of quantile bins K of a numeric feature: the edges are the
        unique quantiles at levels ``0, 1/K, ..., 1`` (fewer bins where
        quantiles tie), as Apley & Zhu and alibi take them. Row ``i`` falls
        in bin ``k`` when ``z_{k-1} < x_i <= z_k``, the minimum in the first.
        A number whose edges and bins would not fit in half the memory
        available is refused (ValueError naming the largest that fits).
    sample_weight : array-like of shape (n_samples,), default=None
        Weights of the rows in every bin's mean, count and in the centring:
        finite and non-negative, not all zero (a ValueError names the first
        bad one). A row of weight 0 adds nothing to a bin's mean or count
        (its value still places the quantile edges, which are unweighted); a
        bin left with no weight is empty: mean 0, as any empty bin.
    response_method : {"auto", "predict_proba", "decision_function"}, \
            default="auto"
        For classifiers: "auto" tries predict_proba, then decision_function.
        Must be "auto" for regressors.
    categorical_features : array-like, default=None
        Boolean mask over X's columns, or the indices or names of the
        categorical ones (for the feature itself, and for the distances that
        order its categories). A categorical feature's categories are ordered
        by the first coordinate of a classical multidimensional scaling of
        their dissimilarity: summed over the other features, the
        Kolmogorov-Smirnov distance (numeric) or total variation distance
        (categorical) between the feature's distributions in the two
        categories (Apley & Zhu, section 5.3, as Molnar's iml does). Between
        neighbouring categories, the rows of both are moved to the other one.
    feature_names : array-like of str, default=None
        Names of X's columns (default: a DataFrame's labels, or x0, x1, ...).
    scale : {"probability", "log_odds"}, default="probability"
        "log_odds" (classifiers with predict_proba): the differences of the
        centred log-odds ``log p_k - mean_l log p_l`` (ESL eq. 10.52), as
        :func:`partial_dependence` takes them.
    classes : array-like of class labels, default=None
        Classifiers: the classes whose effects are kept (first axis of the
        results). None: the positive class of a binary classifier, every
        class otherwise.
    max_memory : int, default=64 MiB
        Upper bound on the bytes of stacked copies (and their predictions)
        held at once.
    n_jobs : int, default=None
        Threads walking the bins' rows through the trees (tree shortcut
        only; the generic path makes one predict call per chunk, with the
        model's own ``n_jobs``). None means 1, -1 all cores.
    algorithm : {"auto", "tree", "linear", "generic"}, default="auto"
        "tree" walks each row once through scikit-learn's trees, forests and
        boosting, or LightGBM's, with both of its edges (the same
        predictions: see :func:`partial_dependence`);
        "linear" moves each row's decision function by the feature's
        contribution at the edges (the linear models of
        :func:`partial_dependence`; to BLAS rounding); "generic" stacks the
        copies of X and calls the model. "auto" takes "tree" for histogram
        gradient boosting and LightGBM only: with two to four copies per row,
        scikit-learn's own predict of the stacked copies is faster for its
        trees, forests and gradient boosting, and little slower than the
        linear shortcut (see docs/accumulated_local_effects.md).
    cancel : threading.Event or object with ``is_set()``, default=None
        When set, the computation stops before the next chunk of rows and
        the estimate from the rows done so far is returned.
    callback : callable, default=None
        Called with the partial result after every chunk of rows.

    Returns
    -------
    result : AccumulatedLocalEffectsResult
        Edges, centred and uncentred effects, local effects per bin with
        their standard deviation, rows per bin; ``to_frame()`` for a tidy
        table.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.ensemble import RandomForestRegressor
    >>> from inspectwidgets import accumulated_local_effects
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> model = RandomForestRegressor(n_estimators=20, random_state=0).fit(X, y)
    >>> ale = accumulated_local_effects(model, X, "bmi", grid_resolution=10)
    >>> ale.edges[0].shape, ale.centered.shape, ale.local_effects.shape
    ((11,), (1, 11), (1, 10))
    >>> int(ale.bin_counts.sum())
    442
    """
    arguments = locals()  # the first statement: exactly the parameters
    run = AccumulatedLocalEffectsRun(**streaming_arguments(arguments))
    result = None
    for result in run.run(snapshots=callback is not None):
        if callback is not None:
            callback(result)
    return run.empty_result() if result is None else result


RUN_SIGNATURE = streaming_signature(accumulated_local_effects)
adopt_parameters(iter_accumulated_local_effects, RUN_SIGNATURE)
