"""The one parallel-execution helper: chunks complete in any order, engines
reassemble them by position (the same numbers, streamed as prefixes)."""

import threading

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.ensemble import HistGradientBoostingRegressor, RandomForestRegressor
from sklearn.linear_model import Ridge

from inspectwidgets import (
    accumulated_local_effects,
    iter_accumulated_local_effects,
    iter_partial_dependence,
    iter_permutation_importance,
    partial_dependence,
    permutation_importance,
)
from inspectwidgets.inspection._core.chunks import ChunkSchedule
from inspectwidgets.inspection._core.parallel import ChunkRunner, chunk_progress


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 5))
    y = X[:, 0] + 2 * X[:, 1] * X[:, 2] + rng.normal(scale=0.1, size=300)
    return X, y


def _reverse_chunks(monkeypatch):
    """From now on, every run's chunks complete last to first (the worst
    order a remote backend can deliver them in), and there are several:
    chunks keep their first size."""
    run = ChunkRunner.run

    def backwards(self, schedule, task, context, cancelled=lambda: False):
        chunks = list(run(self, schedule, task, context, cancelled))
        assert len(chunks) > 1, "one chunk has no order to change"
        yield from reversed(chunks)

    monkeypatch.setattr(ChunkRunner, "run", backwards)
    monkeypatch.setattr(ChunkSchedule, "record", lambda self, seconds: None)


def test_permutation_rounds_reassembled(data, monkeypatch):
    X, y = data
    forest = RandomForestRegressor(20, random_state=0).fit(X, y)
    kwargs = dict(n_repeats=4, random_state=0, algorithm="generic")
    expected = permutation_importance(forest, X, y, **kwargs)
    _reverse_chunks(monkeypatch)
    snapshots = list(iter_permutation_importance(forest, X, y, **kwargs))
    # One snapshot per round, each a prefix of the repeats.
    assert [s.n_repeats_done for s in snapshots] == [1, 2, 3, 4]
    assert_array_equal(snapshots[-1].importances(), expected.importances)


def test_partial_dependence_reassembled(data, monkeypatch):
    X, y = data
    model = HistGradientBoostingRegressor(max_iter=20, random_state=0).fit(X, y)
    kwargs = dict(features=[1], kind="both", centered=True, method="brute")
    expected = partial_dependence(model, X, **kwargs, return_result=True)
    _reverse_chunks(monkeypatch)
    snapshots = list(iter_partial_dependence(model, X, **kwargs))
    # Centered on the first grid point although its chunk arrived last.
    assert_array_equal(snapshots[-1].average, expected.average)
    assert_array_equal(snapshots[-1].individual, expected.individual)
    done = [int(s.done.sum()) for s in snapshots]
    assert done == sorted(done)


def test_ale_reassembled(data, monkeypatch):
    X, y = data
    model = Ridge().fit(X, y)
    expected = accumulated_local_effects(model, X, 0)
    _reverse_chunks(monkeypatch)
    snapshots = list(iter_accumulated_local_effects(model, X, 0))
    # Rows are a prefix in every snapshot.
    assert [s.n_rows_done for s in snapshots][-1] == X.shape[0]
    assert_array_equal(snapshots[-1].centered, expected.centered)
    assert_array_equal(snapshots[-1].local_effects, expected.local_effects)


def _gated(context, start, stop):
    """The first chunk waits for the third, which starts only once a worker
    is free: after the second has completed."""
    if start == 0:
        assert context.wait(timeout=30), "the third chunk never ran"
    elif start == 2:
        context.set()
    return start


def test_threads_yield_in_completion_order():
    runner = ChunkRunner(n_jobs=2)
    schedule = ChunkSchedule(4, 1, 1)
    order = [start for start, _, _ in runner.run(schedule, _gated, threading.Event())]
    assert sorted(order) == [0, 1, 2, 3]
    assert order[0] == 1


def test_cancel_stops_handing_out_chunks():
    runner = ChunkRunner(n_jobs=1)
    seen = []
    for start, _, _ in runner.run(
        ChunkSchedule(10, 1, 1), lambda c, a, b: a, None, lambda: len(seen) >= 3
    ):
        seen.append(start)
    assert seen == [0, 1, 2]


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_chunk_progress_reports_every_chunk_on_this_thread(n_jobs):
    reports = []
    with chunk_progress(lambda done, total: reports.append((done, total))):
        chunks = list(
            ChunkRunner(n_jobs=n_jobs).run(
                ChunkSchedule(7, 2, 2), lambda c, a, b: b - a, None
            )
        )
    # Chunks of 2, 2, 2 and 1 jobs: the jobs done after each, of 7.
    assert reports == [(2, 7), (4, 7), (6, 7), (7, 7)]
    assert sum(result for *_, result in chunks) == 7
    # Outside the block, and on other threads, nobody hears.
    list(ChunkRunner(n_jobs=n_jobs).run(ChunkSchedule(3, 1, 1), _gated_free, None))
    assert len(reports) == 4


def _gated_free(context, start, stop):
    return start


def test_probe_goes_first_alone_and_does_not_size_the_chunks():
    schedule = ChunkSchedule(20, 5, 8, probe=True)
    assert schedule.take() == (0, 1)
    # The rest of the first round, taken before the probe's time: chunks
    # still end where rounds do.
    assert schedule.take() == (1, 5)
    schedule.record(0.0)  # the probe's: fast, yet no doubling
    assert schedule.take() == (5, 10)
    schedule.record(0.0)
    assert schedule.take() == (10, 18)  # doubled, up to the cap
    assert ChunkSchedule(1, 5, 8, probe=True).take() == (0, 1)
