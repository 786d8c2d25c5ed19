"""Permutation importance: scikit-learn's numbers, batched and streamed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn.utils import Bunch

from .._core.chunks import DEFAULT_MAX_MEMORY
from .._core.compat import _safe_indexing
from .._core.hints import (
    Algorithm,
    Cancel,
    Data,
    Estimator,
    FeatureGroups,
    RandomState,
    Scoring,
)
from .._core.parallel import ChunkRunner, local_joblib_calls
from .._core.signature import (
    adopt_parameters,
    bind_arguments,
    finish,
    streaming_arguments,
    streaming_signature,
)
from .._core.validation import check_fitted, check_sklearn_params
from .._shortcuts import check_algorithm_fits
from .bootstrap import check_bootstrap, check_one_output, run_bootstrap
from .chunks import later_resamples_scored, score_chunk
from .plan import plan_run
from .result import PermutationImportanceResult
from .scoring import ScoringPlan
from .snapshots import RoundCollector, empty_snapshot
from .validated import validate_data


class PermutationRun:
    """One validated permutation-importance computation, ready to stream.

    Construction validates every argument and resolves the random draws.
    Iterating plans how the copies are predicted (:func:`~.plan.plan_run`,
    X's baseline on the way), then predicts, scores and yields a
    :class:`PermutationImportanceResult` after each repeat round.
    """

    subgroup_orders = None  # marginal; a ConditionalRun's subgroups (chunks.py)

    def __init__(self, **arguments):
        # Every parameter of iter_permutation_importance, bound by the public
        # functions (see _core.signature).
        check_sklearn_params("permutation_importance", arguments)
        a = SimpleNamespace(**arguments)
        check_fitted(a.estimator)
        data = validate_data(a, {None: a.estimator})
        self._adopt(a.estimator, a.scoring, data, ChunkRunner(a.n_jobs))
        self.confidence_level = float(a.confidence_level)
        self.resample(check_bootstrap(a.n_bootstrap, a.confidence_level))
        self._check_algorithm()

    @classmethod
    def sharing(cls, estimator, scoring, data, runner):
        """The run of `estimator` on `data` (a :class:`~.validated.ValidatedData`
        already checked against it): several models' runs share one, so
        they share its validation and its draws (models.py)."""
        run = cls.__new__(cls)
        run._adopt(estimator, scoring, data, runner)
        run.confidence_level = 0.95
        run.resample(None)
        run._check_algorithm()
        return run

    def _adopt(self, estimator, scoring, data, runner):
        """Take `data` for `estimator`: its scorers, the draws and where the
        chunks run (`runner`, as joblib is configured now)."""
        # The scorers; how the copies are predicted is planned as the run
        # starts (plan.plan_run).
        self.plan = ScoringPlan(estimator, scoring)
        self.estimator, self.X, self.y = estimator, data.X, data.y
        self.sample_weight, self.n_repeats = data.sample_weight, data.n_repeats
        self.feature_names = data.feature_names
        self.feature_columns = data.feature_columns
        self.algorithm, self.runner = data.algorithm, runner
        self.max_memory = data.max_memory
        self.cancel, self.baseline = data.cancel, None
        # Whether anyone sees the rounds as they come (a one-shot call
        # without a callback does not): see plan._job_order.
        self.watched = True
        # Whether the first round is also yielded as its features are done
        # (a widget's first bars, where a round takes seconds): see
        # PermutationImportanceResult.pending_features.
        self.stream_first_round = False
        self.rows, self.permutations = data.rows, data.permutations
        self._seed, self.bootstrap = data.seed, None

    def _check_algorithm(self):
        check_algorithm_fits(
            self.algorithm, self.estimator, self.X, self.plan.response_methods,
            self._custom_scorer(),
        )  # fmt: skip

    def _subsample(self, data):
        if data is None or self.rows is None:
            return data
        return _safe_indexing(data, self.rows, axis=0)

    def _baseline_block_rows(self):
        """Rows predicted at once for the baseline: a float64 copy of them
        (what a model's validation or a pipeline's transform may make) takes
        at most a quarter of `max_memory`."""
        row_bytes = 8 * max(1, self.X.shape[1])
        return max(1024, int(self.max_memory // (4 * row_bytes)))

    def _cancelled(self):
        return self.cancel is not None and self.cancel.is_set()

    def resample(self, n_bootstrap):
        """Score this run, not yet started, under `n_bootstrap` resamples of
        its held-out rows too (None: none); see bootstrap.py. They come from
        their own stream of the seed: the permutations are unchanged."""
        self.n_bootstrap = check_bootstrap(n_bootstrap, self.confidence_level)
        if self.n_bootstrap is not None:
            check_one_output(self.y)
        self.bootstrap = run_bootstrap(
            self.plan,
            self._seed,
            self.n_bootstrap,
            len(self.permutations[0]),
            self._subsample(self.sample_weight),
            self.rows,
        )

    def reuse_baseline(self, baseline):
        """Take the scores of the unpermuted data from `baseline` (a
        :class:`~.scoring.Baseline` of a plan with the same scorers, on the
        same X, y and sample_weight) instead of predicting X again. Under
        resamples, they are scored from its predictions."""
        names = self.plan.names
        if self.bootstrap is not None and baseline.bootstrap_draw != (
            self.bootstrap.draw
        ):
            if baseline.outputs is None:
                return  # predicted again, with this run's resamples
            baseline = self.plan.resample_baseline(baseline, self.y, self.bootstrap)
        if sorted(baseline.scores) != sorted(names):
            raise ValueError(
                f"baseline: scores {sorted(baseline.scores)} do not match this "
                f"run's scorers {sorted(names)}."
            )
        # Whether the result is multimetric is this run's to say.
        self.baseline = replace(baseline, multimetric=self.plan.multimetric)

    def _predict_baseline(self):
        # Predicted here: under a remote backend (a widget re-enters the user's),
        # a forest's joblib calls would sum its trees in a racy order.
        with local_joblib_calls():
            self.baseline = self.plan.baseline(
                self.X,
                self.y,
                self.sample_weight,
                self._baseline_block_rows(),
                self.bootstrap,
            )
        self._check_baseline()

    def _check_baseline(self):
        """A NaN score of the unpermuted data would make every importance NaN."""
        undefined = [n for n, score in self.baseline.scores.items() if np.isnan(score)]
        if undefined:
            raise ValueError(
                f"scoring: {undefined} scored the unpermuted X ({len(self.X)} rows) "
                "as NaN, so every importance would be NaN. Use a scorer defined "
                "on these data, on enough rows for it."
            )

    def _custom_scorer(self):
        """Why the shortcuts cannot score this run, if they cannot."""
        if not self.plan.all_replayable:
            return "a custom scorer needs the permuted rows themselves"
        return None

    def __iter__(self):
        """Execute :func:`~.plan.plan_run`'s plan, yielding a result after
        each round; rounds come in order whatever order chunks finish in."""
        yield from self.stream(plan_run(self))

    def stream(self, run_plan):
        """Execute `run_plan` (this run's :func:`~.plan.plan_run`), yielding
        a result after each round."""
        rounds = RoundCollector(self, run_plan)
        chunks = self.runner.run(
            run_plan.schedule, score_chunk, run_plan.chunks, self._cancelled
        )
        chunks = later_resamples_scored(
            chunks,
            self,
            run_plan.chunks.job_order,
            rounds.resampled,
            run_plan.chunks.resample_first_later,
        )
        for start, stop, result in chunks:
            yield from rounds.add(start, stop, result)

    def empty_result(self):
        """A result with no repeats, for a run cancelled before its first round."""
        if self.baseline is None:  # cancelled before the chunk it rides
            self._predict_baseline()
        return empty_snapshot(self)


def iter_permutation_importance(
    estimator: Estimator, X: Data, y: ArrayLike | None, **params: Any
) -> Iterator[PermutationImportanceResult]:
    """Stream permutation importance, one repeat round at a time.

    Arguments are validated when this is called; the work happens as the
    returned iterator is consumed. Parameters are those of
    :func:`permutation_importance` but `callback` and `return_result`.

    Yields
    ------
    result : PermutationImportanceResult
        After each repeat round: every selected feature's scores for repeats
        ``0 .. k``. The last one equals :func:`permutation_importance`'s
        result. If `cancel` is set, the iterator stops after the chunk in
        flight; the last result yielded stays valid.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.linear_model import Ridge
    >>> from inspectwidgets import iter_permutation_importance, permutation_importance
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> model = Ridge(alpha=1e-2).fit(X, y)
    >>> rounds = list(
    ...     iter_permutation_importance(model, X, y, n_repeats=4, random_state=0)
    ... )
    >>> [r.n_repeats_done for r in rounds]
    [1, 2, 3, 4]
    >>> last = rounds[-1].importances()
    >>> last.shape
    (10, 4)
    >>> full = permutation_importance(model, X, y, n_repeats=4, random_state=0)
    >>> np.allclose(last, full.importances, rtol=1e-12, atol=0)
    True
    """
    return iter(permutation_run(estimator, X, y, **params))


def permutation_run(estimator, X, y, **params):
    """The validated, not yet started :class:`PermutationRun` of
    :func:`iter_permutation_importance`'s arguments, for a caller that hands
    it a baseline it has already computed (:meth:`PermutationRun.reuse_baseline`)."""
    return PermutationRun(**bind_arguments(RUN_SIGNATURE, (estimator, X, y), params))


def permutation_importance(
    estimator: Estimator,
    X: Data,
    y: ArrayLike | None,
    *,
    scoring: Scoring = None,
    n_repeats: int = 5,
    n_jobs: int | None = None,
    random_state: RandomState = None,
    sample_weight: ArrayLike | None = None,
    max_samples: int | float = 1.0,
    features: FeatureGroups = None,
    max_memory: int = DEFAULT_MAX_MEMORY,
    algorithm: Algorithm = "auto",
    n_bootstrap: int | None = None,
    confidence_level: float = 0.95,
    callback: Callable[[PermutationImportanceResult], object] | None = None,
    cancel: Cancel | None = None,
    return_result: bool = False,
) -> PermutationImportanceResult | Bunch | dict[str, Bunch]:
    """Permutation importance for feature evaluation, as in scikit-learn.

    A drop-in for :func:`sklearn.inspection.permutation_importance`: the same
    parameters, return types and, for the same `random_state`, the same
    numbers. Permuted copies of the data are predicted in a few batched calls
    (bounded by `max_memory`), each prediction is shared by all scorers, and
    common metrics are scored for all repeats at once.

    Parameters
    ----------
    estimator : object
        A fitted estimator compatible with `scoring`.
    X : ndarray or DataFrame of shape (n_samples, n_features)
        Data on which importance is computed (training or held-out data).
    y : array-like of shape (n_samples,) or (n_samples, n_outputs), or None
        Targets.
    scoring : str, callable, list, tuple, set, dict or None, default=None
        As in scikit-learn: one scorer, or several (a dict of Bunches is then
        returned). None uses the estimator's ``score`` method.
    n_repeats : int, default=5
        Number of times each feature is permuted.
    n_jobs : int or None, default=None
        Threads predicting chunks in parallel. Inside
        ``joblib.parallel_config(backend="dask")`` (or another backend running
        elsewhere) the chunks go to that backend's workers instead
        (docs/large_data.md). Results do not depend on it.
    random_state : int, RandomState instance or None, default=None
        Controls the permutations, exactly as in scikit-learn.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights used in scoring.
    max_samples : int or float, default=1.0
        Rows drawn (without replacement) from X for the permuted scores.
    features : list or dict, default=None
        Columns to permute, by name or position; others cost nothing. A dict
        ``{label: [columns]}`` permutes each group's columns together with one
        shared row permutation. None permutes every column on its own.
    max_memory : int, default=64 MiB
        Bytes of permuted copies (and their predictions) held at once.
    algorithm : {"auto", "tree", "linear", "generic"}, default="auto"
        How permuted copies are predicted. "generic" stacks them and calls
        the model. "tree" walks each row through the trees once with all
        its copies, the same predictions bit for bit: scikit-learn's
        DecisionTree*, ExtraTree*, RandomForest*, ExtraTrees*,
        GradientBoosting* (``init="zero"`` or a constant dummy) and
        HistGradientBoosting*, single-output classifiers and any regressor;
        LightGBM's LGBMClassifier and LGBMRegressor, read from their model
        text (raw scores bit for bit, probabilities through the C library's
        exp as LightGBM's; linear trees, ``boosting_type="rf"``, custom
        objectives and links other than identity, exp, sigmoid and softmax
        refused: docs/other_libraries.md). "linear" adds the permuted
        columns' contribution to X's decision function, then the model's own
        link: the predictions to BLAS
        rounding, for LinearRegression, Ridge, Lasso, ElasticNet, SGD*,
        LinearSVC, LinearSVR, LogisticRegression and Poisson, Gamma and
        TweedieRegressor. Both take exactly these classes, alone or last in
        a pipeline whose other steps map each column on its own (scaling,
        one-hot and ordinal encoding, imputation, passthrough, and
        ColumnTransformers or pipelines of them), and raise a ValueError
        saying why for anything else: other models, a scorer needing the
        permuted rows (a callable not made by ``make_scorer``, or a
        ``score`` that is not r2 or accuracy), sparse data reaching trees,
        NaN or infinity in X (but for HistGradientBoosting* and LightGBM).
        "auto" takes
        "linear" where it applies, walks where "tree" does (but for trees
        whose copies would mostly leave their rows' paths early) and
        predicts elsewhere. The result's ``algorithm`` says which ran.
    n_bootstrap : int >= 2 or None, default=None
        Resamples of the held-out rows for an interval that also covers their
        sampling noise; None: none, and the numbers are exactly
        scikit-learn's. The rows scored are drawn with replacement from a
        random stream of their own (the importances do not change) and every
        score is computed again with the draw counts in ``sample_weight``,
        from the same predictions. Under resample b, the importance is the
        mean over repeats of (baseline score_b - permuted score_b); their
        percentile interval (``interval``) covers other held-out samples of
        this size from the same distribution and the repeats' shuffles, for
        this fitted model (not refits); ``importances_std`` covers the
        shuffles only. Needs scorers scored from predictions (names, or made
        by ``make_scorer``). See docs/permutation_importance.md.
    confidence_level : float in (0, 1), default=0.95
        The held-out interval's nominal coverage (as in
        :func:`scipy.stats.bootstrap`).
    callback : callable, default=None
        Called with the partial :class:`PermutationImportanceResult` after
        every repeat round, e.g. to report progress.
    cancel : threading.Event or object with ``is_set()``, default=None
        When set, the computation stops after the chunk in flight and the
        repeats completed so far are returned.
    return_result : bool, default=False
        Return the :class:`PermutationImportanceResult` (every scorer's
        per-repeat scores and baselines) instead of scikit-learn's Bunch.

    Returns
    -------
    result : Bunch or dict of Bunch
        ``importances_mean`` (n_features,), ``importances_std`` (n_features,),
        ``importances`` (n_features, n_repeats), plus ``baseline_score`` and
        ``feature_names``; a dict keyed by scorer name for several scorers.
        With `n_bootstrap`, also ``importances_bootstrap`` (n_features,
        n_bootstrap), ``interval`` (n_features, 2: low, high) and
        ``confidence_level``.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.linear_model import Ridge
    >>> from inspectwidgets import permutation_importance
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> model = Ridge(alpha=1e-2).fit(X, y)
    >>> r = permutation_importance(model, X, y, n_repeats=5, random_state=0)
    >>> r.importances.shape
    (10, 5)

    The held-out interval beside the repeats' spread, for the same
    importances:

    >>> b = permutation_importance(
    ...     model, X, y, n_repeats=5, random_state=0, n_bootstrap=200
    ... )
    >>> bool((b.importances == r.importances).all())
    True
    >>> b.interval.shape, b.importances_bootstrap.shape
    ((10, 2), (10, 200))
    >>> bmi = list(X.columns).index("bmi")
    >>> low, high = b.interval[bmi]
    >>> bool(high - low > 4 * b.importances_std[bmi])
    True
    """
    arguments = locals()  # the first statement: exactly the parameters
    run = PermutationRun(**streaming_arguments(arguments))
    run.watched = callback is not None
    return finish(run, run, callback, return_result)


RUN_SIGNATURE = streaming_signature(permutation_importance)
adopt_parameters(iter_permutation_importance, RUN_SIGNATURE)
adopt_parameters(permutation_run, RUN_SIGNATURE)
