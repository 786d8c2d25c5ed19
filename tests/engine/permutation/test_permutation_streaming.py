"""Streaming, cancellation, groups and shared predictions beyond scikit-learn."""

import functools
import threading
from itertools import pairwise

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.inspection import permutation_importance as sklearn_permutation_importance
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.utils import check_random_state

from inspectwidgets import iter_permutation_importance, permutation_importance
from inspectwidgets.inspection._permutation import plan as permutation_plan
from inspectwidgets.inspection._shortcuts.linear import models as linear_models

from numerics import assert_blas_close


def test_stream_yields_consistent_rounds_ending_in_the_one_shot_result(mixed_pipeline):
    pipe, X, y = mixed_pipeline
    kwargs = dict(n_repeats=4, random_state=0, scoring=["accuracy", "roc_auc"])
    snapshots = list(iter_permutation_importance(pipe, X, y, max_memory=1, **kwargs))
    assert [s.n_repeats_done for s in snapshots] == [1, 2, 3, 4]
    final = permutation_importance(pipe, X, y, **kwargs)
    for name in ("accuracy", "roc_auc"):
        # Other chunks than the one-shot run's: equal up to BLAS rounding.
        assert_blas_close(snapshots[-1].importances(name), final[name].importances)
        # Each snapshot is a prefix of the next and was not modified later.
        for earlier, later in pairwise(snapshots):
            k = earlier.n_repeats_done
            assert_array_equal(
                earlier.permuted_scores[name], later.permuted_scores[name][:, :k]
            )
            assert not np.isnan(earlier.permuted_scores[name]).any()


def test_progress_callback_sees_every_round(diabetes):
    model, X, y = diabetes
    seen = []
    permutation_importance(
        model,
        X,
        y,
        n_repeats=5,
        random_state=0,
        callback=lambda r: seen.append(r.n_repeats_done),
    )
    assert seen == [1, 2, 3, 4, 5]


# r2 of a linear regressor: each copy's squared errors summed (a chunk sized
# by its work, here one copy); MAE: the copies predicted (by the budget).
@pytest.mark.parametrize("scoring", ["r2", "neg_mean_absolute_error"])
def test_cancellation_stops_promptly_and_keeps_the_partial_result(
    diabetes, scoring, monkeypatch
):
    model, X, y = diabetes
    monkeypatch.setattr(linear_models, "_SUMMED_FROM", 0)  # summed however few
    monkeypatch.setattr(permutation_plan, "_SUMMED_ROWS", len(X))
    cancel = threading.Event()

    def stop_after_two(result):
        if result.n_repeats_done == 2:
            cancel.set()

    kwargs = dict(n_repeats=30, random_state=0, max_memory=1, scoring=scoring)
    partial = permutation_importance(
        model,
        X,
        y,
        callback=stop_after_two,
        cancel=cancel,
        return_result=True,
        **kwargs,
    )
    assert partial.n_repeats_done == 2 and not partial.complete
    # The same chunks (one column each) as the uncancelled run: bit-identical.
    full = permutation_importance(model, X, y, **kwargs)
    assert_array_equal(partial.importances(), full.importances[:, :2])


def test_cancelled_before_start_returns_an_empty_result(diabetes):
    model, X, y = diabetes
    cancel = threading.Event()
    cancel.set()
    result = permutation_importance(model, X, y, n_repeats=3, cancel=cancel)
    assert result.importances.shape == (X.shape[1], 0)
    assert np.isnan(result.importances_mean).all()
    assert result.baseline_score == model.score(X, y)


def naive_group_importance(estimator, X, y, columns, n_repeats, random_state):
    """scikit-learn's documented procedure, written out, with several columns
    sharing each row permutation."""
    seed = check_random_state(random_state).randint(np.iinfo(np.int32).max + 1)
    rng = np.random.RandomState(seed)
    baseline = estimator.score(X, y)
    permuted = X.copy()
    order = np.arange(X.shape[0])
    drops = []
    for _ in range(n_repeats):
        rng.shuffle(order)
        permuted[:, columns] = permuted[order][:, columns]
        drops.append(baseline - estimator.score(permuted, y))
    return np.array(drops)


def test_groups_permute_their_columns_together():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    X[:, 1] = X[:, 0] + rng.normal(scale=0.05, size=300)  # a correlated pair
    y = X[:, 0] + X[:, 1] + 0.5 * X[:, 2]
    model = LinearRegression().fit(X, y)
    result = permutation_importance(
        model,
        X,
        y,
        n_repeats=6,
        random_state=0,
        features={"pair": [0, 1], "third": 2, "noise": [3]},
    )
    assert list(result.feature_names) == ["pair", "third", "noise"]
    assert_blas_close(
        result.importances[0], naive_group_importance(model, X, y, [0, 1], 6, 0)
    )
    # A one-column group is that column's own importance, as scikit-learn has it.
    expected = sklearn_permutation_importance(model, X, y, n_repeats=6, random_state=0)
    assert_blas_close(result.importances[1:], expected.importances[[2, 3]])
    # Permuting the pair together removes more than either column alone.
    assert result.importances_mean[0] > expected.importances_mean[:2].max()


def test_group_by_name_on_dataframe(mixed_pipeline):
    pipe, X, y = mixed_pipeline
    result = permutation_importance(
        pipe, X, y, n_repeats=2, random_state=0, features={"who": ["city", "age"]}
    )
    assert result.feature_names.tolist() == ["who"]
    assert result.importances.shape == (1, 2)


class CountingClassifier(ClassifierMixin, BaseEstimator):
    """Wraps a fitted classifier and counts prediction calls and rows."""

    def __init__(self, inner):
        self.inner = inner

    def fit(self, X, y):
        self.classes_ = self.inner.classes_
        self.calls = {"predict": 0, "predict_proba": 0, "decision_function": 0}
        self.rows = 0
        return self

    def _count(self, method, X):
        self.calls[method] += 1
        self.rows += len(X)
        return getattr(self.inner, method)(X)

    def predict(self, X):
        return self._count("predict", X)

    def predict_proba(self, X):
        return self._count("predict_proba", X)

    def decision_function(self, X):
        return self._count("decision_function", X)


def test_each_permuted_copy_is_predicted_once_whatever_the_scorers(monkeypatch):
    from inspectwidgets.inspection._core.chunks import ChunkSchedule
    from inspectwidgets.inspection._permutation import plan

    # Chunks double however long they take, so that the count of calls
    # below does not depend on how loaded the machine is.
    monkeypatch.setattr(
        plan, "ChunkSchedule", functools.partial(ChunkSchedule, eager=True)
    )
    X, y = make_classification(n_samples=200, n_features=5, random_state=0)
    model = CountingClassifier(LogisticRegression().fit(X, y)).fit(X, y)
    scoring = [
        "accuracy",
        "balanced_accuracy",
        "roc_auc",
        "neg_log_loss",
        "average_precision",
    ]
    result = permutation_importance(
        model, X, y, n_repeats=4, random_state=0, scoring=scoring
    )
    # predict, predict_proba and decision_function once each per batch:
    # 1 baseline call per method, all 20 permuted copies in the same batches.
    n_methods = 3
    copies = 5 * 4
    assert model.rows == n_methods * (len(X) + copies * len(X))
    # The baseline, the one-job probe (ChunkSchedule) and a few chunks.
    assert sum(model.calls.values()) <= n_methods * (1 + 1 + 3)
    expected = sklearn_permutation_importance(
        model.inner, X, y, n_repeats=4, random_state=0, scoring=scoring
    )
    for name in scoring:
        assert_blas_close(result[name].importances, expected[name].importances)


def test_forest_predict_comes_from_its_predict_proba(binary):
    X, y = binary
    forest = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
    calls = []

    @functools.wraps(forest.predict)
    def predict(X):
        pytest.fail("predict should come from predict_proba")

    @functools.wraps(forest.predict_proba)
    def predict_proba(X, original=forest.predict_proba):
        calls.append(len(X))
        return original(X)

    forest.predict, forest.predict_proba = predict, predict_proba
    try:
        permutation_importance(
            forest,
            X,
            y,
            n_repeats=2,
            random_state=0,
            scoring=["accuracy", "neg_log_loss"],
            algorithm="generic",  # the tree shortcut predicts no copy at all
        )
    finally:
        del forest.predict, forest.predict_proba
    assert sum(calls) == len(X) * (1 + X.shape[1] * 2)


def test_memory_budget_bounds_the_batch(binary):
    X, y = binary
    model = CountingClassifier(LogisticRegression().fit(X, y)).fit(X, y)
    biggest = []
    original = model.predict

    def spy(X):
        biggest.append(len(X))
        return original(X)

    model.predict = functools.wraps(original)(spy)
    budget = 10 * X.nbytes
    permutation_importance(
        model, X, y, n_repeats=10, random_state=0, scoring="accuracy", max_memory=budget
    )
    assert max(biggest[1:]) * X.shape[1] * X.itemsize <= budget
    assert len(biggest) > 2


def test_chunks_double_while_fast_and_stay_at_a_round_while_slow():
    from inspectwidgets.inspection._core.chunks import ChunkSchedule

    fast = ChunkSchedule(n_jobs=100, round_size=5, cap=40, target_seconds=1.0)
    sizes = []
    while (chunk := fast.take()) is not None:
        sizes.append(chunk[1] - chunk[0])
        fast.record(0.01)
    assert sizes == [5, 10, 20, 40, 25]

    slow = ChunkSchedule(n_jobs=20, round_size=5, cap=40, target_seconds=1.0)
    sizes = []
    while (chunk := slow.take()) is not None:
        sizes.append(chunk[1] - chunk[0])
        slow.record(0.9)
    assert sizes == [5, 5, 5, 5]

    # The tree shortcut's schedule doubles however slow a chunk was.
    eager = ChunkSchedule(
        n_jobs=50, round_size=5, cap=16, target_seconds=1.0, eager=True
    )
    sizes = []
    while (chunk := eager.take()) is not None:
        sizes.append(chunk[1] - chunk[0])
        eager.record(9.0)
    assert sizes == [5, 10, 16, 16, 3]


def test_a_split_first_round_comes_in_growing_chunks_then_sizes_as_before():
    from inspectwidgets.inspection._core.chunks import ChunkSchedule

    def chunks(probe_seconds, **kwargs):
        schedule = ChunkSchedule(
            n_jobs=40, round_size=10, cap=40, target_seconds=1.0, probe=True, **kwargs
        )
        taken = []
        while (chunk := schedule.take()) is not None:
            taken.append(chunk)
            schedule.record(probe_seconds if len(taken) == 1 else 0.01)
        return taken

    # The probe, then 1, 2, 4, ... jobs up to the round's end; the splits'
    # times size nothing: the next chunk is a round, then doubles.
    split = chunks(5.0, split_first_round=True)
    assert split == [(0, 1), (1, 2), (2, 4), (4, 8), (8, 10), (10, 20), (20, 40)]
    # A fast probe: as many jobs as take half the target at its pace.
    assert chunks(0.1, split_first_round=True)[:3] == [(0, 1), (1, 6), (6, 10)]
    # Unsplit, the chunk after the probe ends where the round does.
    assert chunks(5.0)[:2] == [(0, 1), (1, 10)]


def test_blocks_go_in_equal_shares_as_few_as_the_cap_and_workers_allow():
    from inspectwidgets.inspection._core.chunks import ChunkSchedule

    def chunks(**kwargs):
        schedule = ChunkSchedule(
            n_jobs=40, round_size=10, cap=16, probe=True, block_ends=[10, 40], **kwargs
        )
        taken = []
        while (chunk := schedule.take()) is not None:
            taken.append(chunk)
            schedule.record(9.0 if len(taken) % 2 else 0.001)  # times size nothing
        return taken

    # The probe, the rest of its block, then 30 jobs over a cap of 16: two
    # shares of 15, never a chunk across a block's end.
    assert chunks() == [(0, 1), (1, 10), (10, 25), (25, 40)]
    # Three workers: at least three shares of each block.
    assert chunks(shares=3) == [
        (0, 1), (1, 4), (4, 7), (7, 10), (10, 20), (20, 30), (30, 40),
    ]  # fmt: skip


@pytest.mark.parametrize("algorithm", ["tree", "generic"])
def test_a_first_round_streamed_feature_by_feature(monkeypatch, algorithm):
    """A run asked for its first round as it comes yields, during that round,
    snapshots of the features done so far, each never complete, then every
    round as usual: the same numbers as scikit-learn."""
    from inspectwidgets.inspection._core.chunks import ChunkSchedule
    from inspectwidgets.inspection._permutation import plan
    from inspectwidgets.inspection._permutation.importance import permutation_run

    # Predicted, splits of 1, 2, 4, ... jobs whatever the probe's time.
    monkeypatch.setattr(
        plan,
        "ChunkSchedule",
        functools.partial(ChunkSchedule, target_seconds=1e-9),
    )
    X, y = make_classification(300, 12, n_informative=4, random_state=0)
    forest = RandomForestClassifier(n_estimators=10, random_state=0).fit(X, y)
    kwargs = dict(n_repeats=1, random_state=0, scoring=["accuracy", "roc_auc"])
    run = permutation_run(forest, X, y, algorithm=algorithm, **kwargs)
    run.stream_first_round = True
    snapshots = list(run)
    *partial, last = snapshots
    # The walk takes the rest of the round after the probe, in one chunk.
    expected_sizes = [1] if algorithm == "tree" else [1, 2, 4, 8]
    assert [len(s.feature_names) for s in partial] == expected_sizes
    names = list(last.feature_names)
    expected = sklearn_permutation_importance(forest, X, y, **kwargs)
    for s in partial:
        # n_repeats=1: one repeat each, yet not complete while some are pending.
        assert s.n_repeats_done == 1 and not s.complete
        assert set(s.feature_names).isdisjoint(s.pending_features)
        assert sorted(s.feature_names + s.pending_features) == sorted(names)
        assert s.rounds_done == len(s.feature_names) / 12
        rows = [names.index(f) for f in s.feature_names]
        for name in kwargs["scoring"]:
            assert_array_equal(s.importances(name), expected[name].importances[rows])
    assert last.complete and last.pending_features == ()
    for name in kwargs["scoring"]:
        assert_array_equal(last.importances(name), expected[name].importances)

    # Unasked, a run yields whole rounds only.
    rounds = list(permutation_run(forest, X, y, algorithm=algorithm, **kwargs))
    assert len(rounds) == 1 and rounds[0].complete
