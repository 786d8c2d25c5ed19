"""Permutation importance: scikit-learn's numbers, batched and streamed."""

from dataclasses import dataclass, replace
from types import SimpleNamespace

import numpy as np
from scipy import sparse

from .._core.batching import make_batcher
from .._core.chunks import DEFAULT_MAX_MEMORY, ChunkSchedule
from .._core.compat import _safe_indexing
from .._core.parallel import ChunkRunner, local_joblib_calls
from .._core.pipeline import columnwise_view, final_estimator
from .._core.signature import (
    bind_arguments,
    finish,
    streaming_arguments,
    streaming_signature,
)
from .._core.tree_choice import check_tree_algorithm, predicts_faster, tree_shortcut
from .._core.tree_kinds import unsupported
from .._core.tree_replay import walk_block_bytes
from .._core.validation import (
    check_algorithm,
    check_cancel,
    check_columns,
    check_fitted,
    check_max_memory,
    check_max_samples,
    check_n_repeats,
    check_sample_weight,
    check_sklearn_params,
    check_target,
    check_X,
    check_y,
    resolve_features,
)
from .result import PermutationImportanceResult
from .schedule import check_schedule_size, permutation_schedule
from .scoring import ScoringPlan


class PermutationRun:
    """One validated permutation-importance computation, ready to stream.

    Construction validates every argument and resolves the random draws;
    iterating predicts, scores and yields a :class:`PermutationImportanceResult`
    after each repeat round.
    """

    def __init__(self, **arguments):
        # Every parameter of iter_permutation_importance, bound by the public
        # functions (see _core.signature).
        check_sklearn_params("permutation_importance", arguments)
        a = SimpleNamespace(**arguments)
        check_fitted(a.estimator)
        X = check_columns(a.estimator, check_X(a.X))
        n_samples = X.shape[0]
        y = check_target(a.estimator, check_y(a.y, n_samples))
        sample_weight = check_sample_weight(a.sample_weight, n_samples)
        n_repeats = check_n_repeats(a.n_repeats)
        max_samples = check_max_samples(a.max_samples, n_samples)
        check_schedule_size(n_repeats, max_samples)
        self.feature_names, self.feature_columns = resolve_features(X, a.features)
        max_memory = check_max_memory(a.max_memory)
        self.algorithm = check_algorithm(a.algorithm)
        cancel = check_cancel(a.cancel)
        self.plan = ScoringPlan(a.estimator, a.scoring)
        self.estimator, self.X, self.y = a.estimator, X, y
        self.sample_weight = sample_weight
        self.n_repeats = n_repeats
        # Where the chunks will run, as joblib is configured now.
        self.runner = ChunkRunner(a.n_jobs)
        self.max_memory = max_memory
        self.cancel = cancel
        self.baseline = None
        # Whether anyone sees the rounds as they come (a one-shot call
        # without a callback does not): see _job_order.
        self.watched = True
        # Whether the first round is also yielded as its features are done
        # (a widget's first bars, where a round takes seconds): see
        # PermutationImportanceResult.pending_features.
        self.stream_first_round = False
        self.rows, self.permutations = permutation_schedule(
            a.random_state, n_samples, max_samples, n_repeats
        )
        if self.algorithm == "tree":
            check_tree_algorithm(
                a.estimator, X, self.plan.response_methods, self._custom_scorer()
            )

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

    def reuse_baseline(self, baseline):
        """Take the scores of the unpermuted data from `baseline` (a
        :class:`~.scoring.Baseline` of a plan with the same scorers, on the
        same X, y and sample_weight) instead of predicting X again: for a
        caller that has already scored these rows."""
        names = self.plan.names
        if sorted(baseline.scores) != sorted(names):
            raise ValueError(
                f"baseline: scores {sorted(baseline.scores)} do not match this "
                f"run's scorers {sorted(names)}."
            )
        # Whether the result is multimetric is this run's to say.
        self.baseline = replace(baseline, multimetric=self.plan.multimetric)

    def _predict_baseline(self):
        # Predicted in this process: under a remote backend (a widget
        # re-enters the user's), a forest's own joblib calls would take the
        # cluster's n_jobs and sum its trees in a racy order.
        with local_joblib_calls():
            self.baseline = self.plan.baseline(
                self.X, self.y, self.sample_weight, self._baseline_block_rows()
            )
        _check_baseline(self.baseline.scores, len(self.X))

    def _may_walk_x(self):
        """Whether the tree shortcut may walk every row of X, so that X's
        own predictions can ride its first chunk (see `_score_chunk`)."""
        return (
            self.baseline is None
            and self.rows is None
            and self.algorithm != "generic"
            and self._custom_scorer() is None
            and unsupported(
                final_estimator(self.estimator), None, self.plan.response_methods
            )
            is None
        )

    def __iter__(self):
        rides = self._may_walk_x()
        if rides:
            # The model's own predict sees X's first row only: its checks of
            # X's columns (their number, names and types; the walk reads
            # them as they are) and the size of its responses. X's
            # predictions then come from the first chunk's walk, bit for bit
            # the model's.
            with local_joblib_calls():
                first_row = self.plan.predict(_safe_indexing(self.X, slice(0, 1)))
            output_bytes_per_row = sum(v.nbytes for v in first_row.values())
        elif self.baseline is None:
            self._predict_baseline()
        else:  # given by reuse_baseline
            _check_baseline(self.baseline.scores, len(self.X))
        n_features = len(self.feature_names)
        source, columns, model = self._permutation_space()
        batcher = make_batcher(source)
        shortcut = tree_shortcut(
            "generic"
            if predicts_faster(model, self.algorithm, columns, self.n_repeats)
            else self.algorithm,
            model,
            source,
            self.plan.response_methods,
            obstacle=self._custom_scorer(),
        )
        trees, tree_rows = shortcut[:2] if shortcut else (None, None)
        if rides and trees is None:
            rides = False
            self._predict_baseline()
        if not rides:
            output_bytes_per_row = self.baseline.output_bytes_per_row
        # Until the baseline rides in, the scorers name the scores.
        names = self.plan.names if rides else tuple(self.baseline.scores)
        runner = self.runner
        n_jobs = self.n_repeats * n_features
        # Scores by job (repeat-major: a round is every feature at one
        # repeat), one flat array per scorer; chunks take the jobs in
        # `job_order`.
        scores = {name: np.full(n_jobs, np.nan) for name in names}
        job_order = _job_order(
            self.n_repeats, n_features, walked=trees is not None, watched=self.watched
        )
        # A copy's outputs, and as much again twice while they are scored
        # (the vectorized metrics' temporaries: residuals, their squares);
        # a stacked copy of X, or the walk's buffers, a block of rows at a
        # time whatever its copies.
        per_copy = 3 * batcher.n_rows * output_bytes_per_row
        block_bytes = walk_block_bytes(self.max_memory)
        if trees is None:
            per_copy += batcher.bytes_per_copy
        # What the run holds for its whole length counts against the budget
        # too: the permutations, and the rows the walk reads (float32 for a
        # forest) and a block a worker, or the subsample or transform of X
        # that is stacked; at least one copy a worker still runs.
        resident = sum(p.nbytes for p in self.permutations)
        if rides:  # X's own copy, in the first chunk
            resident += per_copy
        if trees is not None:
            resident += tree_rows.nbytes + block_bytes * runner.n_workers
        elif source is not self.X:
            resident += getattr(source, "nbytes", 0)
        in_flight = max(self.max_memory - resident, per_copy * runner.n_workers)
        cap = max(1, int(in_flight // (per_copy * runner.n_workers)))
        # The walk reads tree_rows only; it leaves its smallest chunks to the
        # model (see _FEWEST_WALKED), stacked from X itself, or else from
        # tree_rows where the model reads them as it reads X (no other copy
        # is kept for them), within the budget.
        if trees is not None:
            if runner.remote:  # the workers get tree_rows only
                batcher = None
            elif source is not self.X:
                predictable = trees.predicts_walk_rows()
                batcher = make_batcher(tree_rows) if predictable else None
            if batcher is not None:
                stacked = (_FEWEST_WALKED - 1) * (batcher.bytes_per_copy + per_copy)
                if stacked * runner.n_workers > in_flight:
                    batcher = None
        source = None
        # Split, the first round comes in small chunks for a display to show
        # as they come. The walk instead takes its blocks of rounds (the
        # first round is one) in as few chunks as the budget and the workers
        # allow, after the probe if watched (the first bars): each chunk walks
        # every row's path, and a block shows nothing before all of it is
        # done. The widget case (100 trees, 20,000 rows, 5 repeats)
        # took 8.7 s in chunks of 1, 1, 2, 4, 8, 14, 30, 60 and 30 jobs, 6.4 s
        # in chunks of 1, 29, 60 and 60.
        split = self.stream_first_round and self.watched
        full_size = trees is not None and not self.watched
        walked_blocks = None
        if trees is not None:
            walked_blocks = [
                b * n_features
                for b in _blocks_of_rounds(self.n_repeats, self.watched)[1:]
            ]
        schedule = ChunkSchedule(
            n_jobs,
            cap if full_size else n_features,
            cap,
            probe=not full_size,
            split_first_round=split and trees is None,
            block_ends=walked_blocks,
            shares=runner.n_workers,
        )
        context = _PermutedChunks(
            plan=self.plan,
            model=model,
            batcher=batcher,
            trees=trees,
            tree_rows=tree_rows,
            y=self._subsample(self.y),
            sample_weight=self._subsample(self.sample_weight),
            permutations=self.permutations,
            columns=columns,
            job_order=job_order,
            baseline_rides=rides,
            walk_from=_FEWEST_WALKED if batcher is not None else 1,
            walk_block_bytes=block_bytes,
            # A remote worker's threads are the backend's to count.
            n_threads=(
                1
                if runner.remote or trees is None
                else trees.predict_threads(runner.n_workers)
            ),
        )
        # Chunks complete in any order: a round is yielded once it and every
        # round before it are done.
        done = np.zeros(n_jobs, dtype=bool)
        rounds_done = 0
        first_round_shown = 0
        for start, stop, (chunk_scores, baseline) in runner.run(
            schedule, _score_chunk, context, self._cancelled
        ):
            if baseline is not None:
                self.baseline = baseline
                _check_baseline(self.baseline.scores, len(self.X))
            jobs = job_order[start:stop]
            for name in names:
                scores[name][jobs] = chunk_scores[name]
            done[jobs] = True
            if self.baseline is None:
                continue  # the chunk it rides has yet to come in
            # Job f is feature f's first repeat (see _job_order).
            first_done = done[:n_features]
            n_first_done = int(first_done.sum())
            if split and 0 < n_first_done < n_features:
                if n_first_done > first_round_shown:
                    first_round_shown = n_first_done
                    yield self._first_round_snapshot(scores, first_done)
                continue
            while (
                rounds_done < self.n_repeats
                and done[
                    rounds_done * n_features : (rounds_done + 1) * n_features
                ].all()
            ):
                rounds_done += 1
                yield self._snapshot(scores, rounds_done)

    def _custom_scorer(self):
        """Why the tree shortcut cannot score this run, if it cannot."""
        if not self.plan.all_replayable:
            return "a custom scorer needs the permuted rows themselves"
        return None

    def _permutation_space(self):
        """The data to permute, its column groups and the model predicting it.

        Normally X itself and the estimator. For a pipeline whose preprocessing
        is provably column-wise, the preprocessed rows (transformed once) and
        the final step, which then sees exactly what the pipeline gives it.
        """
        rows = self._subsample(self.X)
        view = columnwise_view(self.estimator, self.X.shape[1])
        if view is not None and self.plan.all_replayable:
            transformed = view.transform(rows)
            if isinstance(transformed, np.ndarray) or (
                sparse.issparse(transformed)
                and transformed.format == "csr"
                and transformed.has_sorted_indices
            ):
                columns = [view.map_columns(c) for c in self.feature_columns]
                return transformed, columns, view.model
        return rows, self.feature_columns, self.estimator

    def _snapshot(self, scores, n_done):
        return PermutationImportanceResult(
            feature_names=tuple(self.feature_names),
            feature_columns=tuple(self.feature_columns),
            scorer_names=tuple(self.baseline.scores),
            baseline_scores=dict(self.baseline.scores),
            permuted_scores={
                name: s.reshape(self.n_repeats, -1)[:n_done].T.copy()
                for name, s in scores.items()
            },
            n_repeats=self.n_repeats,
            multimetric=self.baseline.multimetric,
        )

    def _first_round_snapshot(self, scores, first_done):
        """The features whose first repeat is done, the others pending."""
        done = np.flatnonzero(first_done)
        n_features = len(self.feature_names)
        return PermutationImportanceResult(
            feature_names=tuple(self.feature_names[i] for i in done),
            feature_columns=tuple(self.feature_columns[i] for i in done),
            scorer_names=tuple(self.baseline.scores),
            baseline_scores=dict(self.baseline.scores),
            permuted_scores={
                name: s[:n_features][done, np.newaxis].copy()
                for name, s in scores.items()
            },
            n_repeats=self.n_repeats,
            multimetric=self.baseline.multimetric,
            pending_features=tuple(
                self.feature_names[i] for i in np.flatnonzero(~first_done)
            ),
        )

    def empty_result(self):
        """A result with no repeats, for a run cancelled before its first round."""
        if self.baseline is None:  # cancelled before the chunk it rides
            self._predict_baseline()
        n_features = len(self.feature_names)
        return self._snapshot(
            {
                name: np.empty(self.n_repeats * n_features)
                for name in self.baseline.scores
            },
            0,
        )


@dataclass
class _PermutedChunks:
    """What every chunk of a run reads (shipped once to remote workers)."""

    plan: ScoringPlan
    model: object
    batcher: object
    trees: object  # the tree shortcut, or None
    tree_rows: object
    y: object
    sample_weight: object
    permutations: list
    columns: list
    job_order: np.ndarray
    baseline_rides: bool  # X's own predictions ride the first chunk
    walk_from: int  # the fewest copies the walk takes; fewer are predicted
    walk_block_bytes: int
    n_threads: int


# A walk follows each row's own path through every tree whatever the copies
# it carries, so one copy costs it more than the model's own predict of it
# (20,000 rows: a 100-tree forest 0.28 s walked, 0.22 s predicted; extra
# trees 0.19 s, 0.17 s; gradient boosting 0.10 s, 0.05 s; histogram boosting
# 0.10 s, 0.06 s), two copies no more (0.29 s against 0.44 s for the forest,
# 0.20 s against 0.34 s, 0.11 s against 0.11 s, 0.11 s against 0.12 s).
# Both give the model's bits.
_FEWEST_WALKED = 2


def _job_order(n_repeats, n_features, walked, watched):
    """The jobs in the order chunks take them (job ``j`` is repeat
    ``j // n_features`` of feature ``j % n_features``).

    Predicted copies go round by round (a round: every feature at one
    repeat). The tree walk shares each row's detours among a chunk's copies
    of one feature (a 100-tree forest on 10,000 rows: about 28 ms for a
    feature's first copy, 8 ms for each further one), so it takes the rounds
    in blocks, feature by feature within a block: a feature's repeats walk
    together. Watched, the first round comes alone (the first bars) and
    blocks grow from 4 rounds by doubling, so the display still moves;
    otherwise one block holds every round. Whatever the order, every round
    is yielded, each once all its jobs are done.
    """
    jobs = np.arange(n_repeats * n_features).reshape(n_repeats, n_features)
    if not walked:
        return jobs.ravel()
    bounds = _blocks_of_rounds(n_repeats, watched)
    return np.concatenate(
        [jobs[a:b].T.ravel() for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    )


def _blocks_of_rounds(n_repeats, watched):
    """Where the walk's blocks of rounds begin and end (see `_job_order`)."""
    if not watched:
        return [0, n_repeats]
    bounds, size = [0, 1], 4
    while bounds[-1] < n_repeats:
        stop = bounds[-1] + size
        # A remainder smaller than a block joins the last one.
        bounds.append(n_repeats if n_repeats - stop < size else stop)
        size *= 2
    return bounds


def _score_chunk(c, start, stop):
    """Every scorer's score of the permuted copies of the jobs at
    ``job_order[start:stop]``; and the :class:`~.scoring.Baseline` of X
    itself where it rides this chunk (the first), else None.

    X rides as one more copy, whose columns take their own rows' values: it
    never leaves its rows' paths, so the walk carries it almost for free,
    where the model's predict of X costs as much as a permuted copy's (a
    100-tree forest on 20,000 rows: the first job and X walked together in
    0.29 s, predicted one after the other in 0.43 s)."""
    n_features = len(c.columns)
    copies = [
        (c.permutations[j // n_features], c.columns[j % n_features])
        for j in c.job_order[start:stop]
    ]
    rides = c.baseline_rides and start == 0
    if rides:
        copies.insert(0, (np.arange(len(c.tree_rows)), copies[0][1]))
    if c.trees is not None and (rides or len(copies) >= c.walk_from):
        # The same predictions, bit for bit, without stacking the copies.
        outputs = c.trees.predict(
            c.tree_rows,
            copies,
            c.plan.response_methods,
            n_threads=c.n_threads,
            block_bytes=c.walk_block_bytes,
        )
        baseline = None
        if rides:  # scored first, as when predicted before the run
            n_rows = len(c.tree_rows)
            baseline = c.plan.baseline_of(
                {m: v[:n_rows] for m, v in outputs.items()},
                c.tree_rows,
                c.y,
                c.sample_weight,
            )
            outputs = {m: v[n_rows:] for m, v in outputs.items()}
        scores = c.plan.score_blocks(
            outputs, len(copies) - rides, c.y, c.sample_weight, None
        )
        return scores, baseline
    stacked = c.batcher.build(copies)
    outputs = c.plan.predict(stacked, c.model)
    scores = c.plan.score_blocks(
        outputs,
        len(copies),
        c.y,
        c.sample_weight,
        lambda b: c.batcher.block(stacked, b),
    )
    return scores, None


def _check_baseline(scores, n_rows):
    """A NaN score of the unpermuted data would make every importance NaN."""
    undefined = [name for name, score in scores.items() if np.isnan(score)]
    if undefined:
        raise ValueError(
            f"scoring: {undefined} scored the unpermuted X ({n_rows} rows) as "
            "NaN, so every importance would be NaN. Use a scorer defined on "
            "these data, on enough rows for it."
        )


def iter_permutation_importance(estimator, X, y, **params):
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
    estimator,
    X,
    y,
    *,
    scoring=None,
    n_repeats=5,
    n_jobs=None,
    random_state=None,
    sample_weight=None,
    max_samples=1.0,
    features=None,
    max_memory=DEFAULT_MAX_MEMORY,
    algorithm="auto",
    callback=None,
    cancel=None,
    return_result=False,
):
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
    algorithm : {"auto", "tree", "generic"}, default="auto"
        How permuted copies are predicted. "generic" stacks them and calls
        the model. "tree" walks each row through scikit-learn's trees and
        forests (DecisionTree*, ExtraTree*, RandomForest*, ExtraTrees*, alone
        or as a pipeline's final step) once with all its copies: the same
        predictions, bit for bit, for a fraction of the work; it is an error
        for other models, custom scorers or X holding NaN. "auto" uses "tree"
        where it applies and "generic" elsewhere.
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
    """
    arguments = locals()  # the first statement: exactly the parameters
    run = PermutationRun(**streaming_arguments(arguments))
    run.watched = callback is not None
    return finish(run, run, callback, return_result)


RUN_SIGNATURE = streaming_signature(permutation_importance)
iter_permutation_importance.__signature__ = RUN_SIGNATURE
permutation_run.__signature__ = RUN_SIGNATURE
