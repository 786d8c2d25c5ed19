"""Permutation importance of several fitted models on the same X, y, the
work shared: X, y and the arguments are checked once and the permutations
drawn once (validated.py), so every model sees the same permuted copies;
models that predict stacked copies of X's rows predict the same stacks,
built once per chunk (chunks.score_shared_chunk); the tree and linear
shortcuts read the shared permutations without building a copy. Each
model's numbers are those of its own :func:`permutation_importance` run.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterator, Mapping
from types import SimpleNamespace
from typing import Any

from numpy.typing import ArrayLike
from sklearn.base import is_classifier

from .._core.chunks import DEFAULT_MAX_MEMORY
from .._core.hints import (
    Algorithm,
    Cancel,
    Data,
    FeatureGroups,
    Models,
    RandomState,
    Scoring,
)
from .._core.parallel import ChunkRunner, chunk_listener, chunk_progress
from .._core.pipeline import final_estimator
from .._core.signature import (
    adopt_parameters,
    bind_arguments,
    finish,
    streaming_arguments,
    streaming_signature,
)
from .._core.validation import check_fitted, check_sklearn_params, quoted
from .chunks import score_shared_chunk
from .importance import PermutationRun
from .model_comparison import PermutationComparisonResult, check_confidence_level
from .model_rounds import merged_rounds
from .plan import plan_run, plan_shared_stacks
from .snapshots import RoundCollector
from .validated import naming, validate_data


def check_models(models):
    """`models` as a dict {name: estimator}: a list is named by its models'
    classes (a pipeline's by its final step), repeated classes numbered."""
    if isinstance(models, Mapping):
        items = list(models.items())
        for name, _ in items:
            if not isinstance(name, str):
                raise TypeError(
                    "models: names must be strings; got "
                    f"{quoted(name)} ({type(name).__name__})."
                )
            # A name of spaces or invisible characters (a zero-width space)
            # is drawn as nothing: a legend entry, a header column and a
            # difference with no name to tell them apart.
            if not any(c.isprintable() and not c.isspace() for c in name):
                raise ValueError(
                    f"models: a model's name must show; got {quoted(name)}. "
                    "Name every model with at least one visible character."
                )
    elif isinstance(models, (list, tuple)):
        classes = [type(final_estimator(m)).__name__ for m in models]
        seen: dict[str, int] = {}
        names = []
        for name in classes:
            seen[name] = seen.get(name, 0) + 1
            repeated = classes.count(name) > 1
            names.append(f"{name}_{seen[name]}" if repeated else name)
        items = list(zip(names, models, strict=True))
    else:
        hint = " (for one model, use permutation_importance)" * hasattr(models, "fit")
        raise TypeError(
            "models must be a dict {name: fitted estimator} or a list of "
            f"fitted estimators{hint}; got {type(models).__name__}."
        )
    if not items:
        raise ValueError(
            f"models: got an empty {type(models).__name__}; pass at least one "
            "fitted estimator."
        )
    for name, model in items:
        with naming(name):
            check_fitted(model)
    kinds = {name: is_classifier(model) for name, model in items}
    if len(set(kinds.values())) > 1:
        classifiers = [n for n, c in kinds.items() if c]
        others = [n for n, c in kinds.items() if not c]
        raise ValueError(
            f"models: {classifiers} are classifiers but {others} are not; "
            "compare models of one task, scored alike."
        )
    return dict(items)


class ModelsRun:
    """Several models' validated permutation-importance runs, ready to
    stream together: one :class:`PermutationRun` a model, all sharing one
    :class:`~.validated.ValidatedData` (so one validation and one draw)."""

    def __init__(self, **arguments):
        # Every parameter of iter_compare_permutation_importance, bound by
        # the public functions (see _core.signature).
        models = check_models(arguments.pop("models"))
        self.confidence_level = check_confidence_level(
            arguments.pop("confidence_level")
        )
        check_sklearn_params("permutation_importance", arguments)
        a = SimpleNamespace(**arguments)
        self.data = validate_data(a, models)
        self.runner = ChunkRunner(a.n_jobs)
        self.runs = {}
        for name, model in models.items():
            with naming(name):
                self.runs[name] = PermutationRun.sharing(
                    model, a.scoring, self.data, self.runner
                )
        # Whether anyone sees the rounds as they come (see _streams).
        self.watched = True
        # Whether the first round is also yielded as every model's features
        # come in (the inspector's first marks), as a single run's is
        # (PermutationRun.stream_first_round): interleaved streams only.
        self.stream_first_round = False

    def _cancelled(self):
        return self.data.cancel is not None and self.data.cancel.is_set()

    def _result(self, results):
        return PermutationComparisonResult(
            results={name: results[name] for name in self.runs},
            confidence_level=self.confidence_level,
        )

    def __iter__(self):
        """What every model has done, as it grows (model_rounds.py): the
        models' streams take turns where someone watches and the chunks run
        in this process, else they run one after another (`_interleaved`)
        and every model's round r is yielded once all have it."""
        streams = self._streams()
        if not self._interleaved():
            buffered = [list(stream) for stream in streams]
            for updates in zip(*buffered, strict=False):
                yield self._result({k: v for u in updates for k, v in u.items()})
            return
        names = list(self.runs)
        for common in merged_rounds(streams, names, self.data.feature_names):
            yield self._result(common)

    def _interleaved(self):
        """Whether the streams take turns: not unwatched (one after another
        then, each with the whole budget), nor under a remote backend (a
        stream holds the backend for its turn, parallel.ChunkRunner)."""
        return self.watched and not self.runner.remote

    def _streams(self):
        """One stream of rounds ({name: result}) per model, but one for all
        the models that stack copies of X's rows; each planned now (which
        predicts X's baselines)."""
        budget = self.data.max_memory
        if self._interleaved() and self.runner.n_workers > 1:
            # A stream waiting its turn keeps its threads' chunks in flight:
            # a share of the budget for each model (streams are known only
            # once planned, with their budget).
            budget = max(1, budget // len(self.runs))
        plans = {}
        split = self.stream_first_round and self._interleaved()
        for name, run in self.runs.items():
            run.watched, run.max_memory = self.watched, budget
            run.stream_first_round = split
            with naming(name):
                plans[name] = plan_run(run)
        stacking = [name for name, p in plans.items() if p.stacks_x]
        if len(stacking) < 2:
            stacking = []
        streams = [
            _named(name, run.stream(plans[name]))
            for name, run in self.runs.items()
            if name not in stacking
        ]
        if stacking:
            streams.append(self._shared_stream(stacking, plans))
        return self._reported(streams)

    def _shared_stream(self, names, plans):
        """The rounds of the models `names`, whose copies are stacks of X's
        rows: each chunk's stack built once and predicted by each model."""
        runs = [self.runs[name] for name in names]
        run_plans = [plans[name] for name in names]
        schedule = plan_shared_stacks(runs, run_plans)
        collectors = [
            RoundCollector(r, p) for r, p in zip(runs, run_plans, strict=True)
        ]
        # Each model's rounds still to yield, as the collectors' lazy
        # snapshots (see RoundCollector.add), and at most one taken ahead.
        pending = {name: collections.deque() for name in names}
        ready = {}
        contexts = tuple(p.chunks for p in run_plans)
        for start, stop, results in self.runner.run(
            schedule, score_shared_chunk, contexts, self._cancelled
        ):
            for name, collector, result in zip(names, collectors, results, strict=True):
                pending[name].append(iter(collector.add(start, stop, result)))
            while True:
                for name in names:
                    if name not in ready:
                        taken = _take(pending[name])
                        if taken is not None:
                            ready[name] = taken
                if len(ready) < len(names):
                    break
                yield {name: ready.pop(name) for name in names}

    def _reported(self, streams):
        """`streams`, their chunks reported to this thread's chunk listener
        as one run's: each stream's jobs done, summed, of all of theirs."""
        listener = chunk_listener()
        if listener is None:
            return streams
        n_jobs = self.data.n_repeats * len(self.data.feature_names)
        done = [0] * len(streams)

        def heard(i):
            def hear(jobs_done, _):
                done[i] = jobs_done
                listener(sum(done), n_jobs * len(streams))

            return hear

        def first_under_listener(i, stream):
            # A stream's runner reads the listener as it starts: on its
            # first step, which runs here, under this stream's.
            with chunk_progress(heard(i)):
                first = next(stream, None)
            if first is None:
                return
            yield first
            yield from stream

        return [first_under_listener(i, s) for i, s in enumerate(streams)]

    def empty_result(self):
        """The result of a run cancelled before every model's first round."""
        return self._result(
            {name: run.empty_result() for name, run in self.runs.items()}
        )


def _named(name, results):
    """A stream of one model's `results`, as {name: result}."""
    for result in results:
        yield {name: result}


def iter_compare_permutation_importance(
    models: Models, X: Data, y: ArrayLike | None, **params: Any
) -> Iterator[PermutationComparisonResult]:
    """Stream several models' permutation importances, one round at a time.

    Arguments are validated when this is called; the work happens as the
    returned iterator is consumed. Parameters are those of
    :func:`compare_permutation_importance` but `callback`.

    Yields
    ------
    result : PermutationComparisonResult
        After each repeat round done by every model. The last one equals
        :func:`compare_permutation_importance`'s result. If `cancel` is
        set, the iterator stops after the chunks in flight; the last result
        yielded stays valid. A run asked to show its first round as it
        goes (the inspector's) also yields, during that round, the features
        every model has done so far, the others in ``pending_features``.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.ensemble import RandomForestRegressor
    >>> from sklearn.linear_model import Ridge
    >>> from inspectwidgets import iter_compare_permutation_importance
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> models = {
    ...     "ridge": Ridge().fit(X, y),
    ...     "forest": RandomForestRegressor(20, random_state=0).fit(X, y),
    ... }
    >>> rounds = list(
    ...     iter_compare_permutation_importance(
    ...         models, X, y, n_repeats=3, random_state=0
    ...     )
    ... )
    >>> [r.n_repeats_done for r in rounds]
    [1, 2, 3]
    """
    return iter(models_run(models, X, y, **params))


def models_run(models, X, y, **params):
    """The validated, not yet started :class:`ModelsRun` of
    :func:`iter_compare_permutation_importance`'s arguments."""
    return ModelsRun(**bind_arguments(RUN_SIGNATURE, (models, X, y), params))


def compare_permutation_importance(
    models: Models,
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
    confidence_level: float = 0.95,
    callback: Callable[[PermutationComparisonResult], object] | None = None,
    cancel: Cancel | None = None,
) -> PermutationComparisonResult:
    """Permutation importance of several fitted models on the same data,
    their differences paired.

    Every model is scored on the same permuted copies of X: the rows and
    permutations of repeat r are those scikit-learn's
    :func:`~sklearn.inspection.permutation_importance` draws from
    `random_state` for any one of them, so each model's importances are
    those of its own :func:`permutation_importance` run (bit for bit where
    the tree walk predicts; to BLAS rounding elsewhere), and the difference
    between two models at each repeat is paired
    (:meth:`PermutationComparisonResult.paired_difference`). The work is
    shared: X, y and the arguments are checked once, the permutations drawn
    once, and models predicting stacked copies of X's rows predict the same
    stacks, built once.

    Parameters
    ----------
    models : dict of str to estimator, or list of estimators
        Fitted estimators of one task (classifiers, or not), each taking X
        as it is. A list is named by its models' classes (a pipeline's by
        its final step), repeated classes numbered (``Ridge_1``,
        ``Ridge_2``).
    X : ndarray or DataFrame of shape (n_samples, n_features)
        Data on which importance is computed (held-out data, ideally).
    y : array-like of shape (n_samples,) or (n_samples, n_outputs), or None
        Targets.
    scoring, n_repeats, n_jobs, random_state, sample_weight, max_samples, \
features, max_memory, algorithm
        As in :func:`permutation_importance`, for every model (`scoring`
        None: each model's own ``score``). `max_memory` bounds the copies
        and predictions of the chunks in flight, for all the models at
        once (divided among them where their streams take turns on
        several threads); what each model's run keeps for its whole length
        (the rows a tree walk reads, a pipeline's transformed rows) counts
        against its own. `algorithm` is each model's choice, the chosen
        path in each result's ``algorithm``.
    confidence_level : float in (0, 1), default=0.95
        The coverage of the paired differences' intervals (Student's t over
        repeats, see :class:`PairedDifference`).
    callback : callable, default=None
        Called with the partial :class:`PermutationComparisonResult` after
        every round all the models have done.
    cancel : threading.Event or object with ``is_set()``, default=None
        When set, the computation stops after the chunks in flight and the
        rounds every model completed are returned.

    Returns
    -------
    result : PermutationComparisonResult
        Each model's :class:`PermutationImportanceResult` (``results``),
        ``paired_difference(first, second)`` and ``to_frame()``.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.ensemble import RandomForestRegressor
    >>> from sklearn.linear_model import Ridge
    >>> from inspectwidgets import compare_permutation_importance
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> models = {
    ...     "ridge": Ridge(alpha=1e-2).fit(X, y),
    ...     "forest": RandomForestRegressor(50, random_state=0).fit(X, y),
    ... }
    >>> result = compare_permutation_importance(
    ...     models, X, y, n_repeats=10, random_state=0
    ... )
    >>> result.model_names
    ('ridge', 'forest')
    >>> result.importances("forest").shape
    (10, 10)
    >>> paired = result.paired_difference("ridge", "forest")
    >>> paired.interval.shape
    (10, 2)
    >>> sorted(paired.to_frame().loc[paired.differs, "feature"])[:2]
    ['age', 'bmi']
    """
    arguments = locals()  # the first statement: exactly the parameters
    run = ModelsRun(**streaming_arguments(arguments))
    run.watched = callback is not None
    result: PermutationComparisonResult = finish(run, run, callback, True)
    return result


RUN_SIGNATURE = streaming_signature(compare_permutation_importance)
adopt_parameters(iter_compare_permutation_importance, RUN_SIGNATURE)
adopt_parameters(models_run, RUN_SIGNATURE)


def _take(queue):
    """The next snapshot of a deque of snapshot iterators, or None."""
    while queue:
        taken = next(queue[0], None)
        if taken is not None:
            return taken
        queue.popleft()
    return None
