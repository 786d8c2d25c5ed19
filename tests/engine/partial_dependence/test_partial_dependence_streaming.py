"""Streaming, cancellation and chunking: partial results that add up to the
one-shot call, whose numbers depend on how the grid was chunked only through
BLAS rounding (see tests/numerics.py)."""

import threading
import warnings
from itertools import pairwise

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.inspection import partial_dependence as sklearn_partial_dependence
from sklearn.linear_model import LinearRegression, LogisticRegression

from inspectwidgets import iter_partial_dependence, partial_dependence

from numerics import assert_blas_close


@pytest.fixture(autouse=True)
def _no_correlation_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.fixture(scope="module")
def classifier():
    X, y = make_classification(
        n_samples=120, n_features=4, n_informative=3, n_redundant=0, n_classes=3,
        random_state=0,
    )  # fmt: skip
    return LogisticRegression().fit(X, y), X


# max_memory of one copy of X (and its predictions): one grid point per chunk.
ONE_COPY = 120 * 4 * 8 + 120 * 16 * 3


@pytest.mark.parametrize("features", [[0], [1, 2]])
def test_stream_ends_in_the_one_shot_result(classifier, features):
    model, X = classifier
    kwargs = dict(kind="both", grid_resolution=10)
    snapshots = list(
        iter_partial_dependence(model, X, features, max_memory=ONE_COPY, **kwargs)
    )
    final = partial_dependence(model, X, features, return_result=True, **kwargs)
    assert len(snapshots) > 2 and snapshots[-1].complete and final.complete
    # Other chunks, other BLAS calls: equal up to their rounding.
    assert_blas_close(snapshots[-1].average, final.average)
    assert_blas_close(snapshots[-1].individual, final.individual)
    expected = sklearn_partial_dependence(model, X, features, **kwargs)
    assert_blas_close(final.average, expected.average)


def test_snapshots_are_consistent_and_never_modified(classifier):
    model, X = classifier
    stream = iter_partial_dependence(
        model, X, [0], kind="both", grid_resolution=20, max_memory=ONE_COPY
    )
    snapshots, copies = [], []
    for snapshot in stream:
        snapshots.append(snapshot)
        copies.append((snapshot.average.copy(), snapshot.individual.copy()))
    final = snapshots[-1]
    # One point per chunk: the first grid point, the last, then the middle.
    assert [np.flatnonzero(s.done).tolist() for s in snapshots[:3]] == [
        [0],
        [0, 19],
        [0, 16, 19],
    ]
    for snapshot, (average, individual) in zip(snapshots, copies, strict=True):
        assert_array_equal(snapshot.average, average)  # not modified later
        assert_array_equal(snapshot.individual, individual)
        done = snapshot.done
        assert_array_equal(snapshot.average[:, done], final.average[:, done])
        assert_array_equal(
            snapshot.individual[:, :, done], final.individual[:, :, done]
        )
        assert np.isnan(snapshot.average[:, ~done]).all()
        assert np.isnan(snapshot.individual[:, :, ~done]).all()
    progress = [s.n_points_done for s in snapshots]
    assert progress == sorted(set(progress)) and progress[-1] == 20
    for earlier, later in pairwise(snapshots):
        assert not (earlier.done & ~later.done).any()


def test_first_chunk_outlines_the_whole_curve(classifier):
    model, X = classifier
    first = next(iter(iter_partial_dependence(model, X, [0], grid_resolution=100)))
    done = np.flatnonzero(first.done)
    assert first.n_points_done == 13  # an eighth of the grid
    assert done[0] == 0 and done[-1] == 99 and np.diff(done).max() <= 16


def test_progress_callback(classifier):
    model, X = classifier
    seen = []
    partial_dependence(
        model,
        X,
        [0],
        grid_resolution=16,
        max_memory=ONE_COPY,
        callback=lambda r: seen.append(r.progress),
    )
    assert seen[-1] == 1 and seen == sorted(seen) and len(seen) > 1


def test_cancellation_keeps_the_points_done(classifier):
    model, X = classifier
    cancel = threading.Event()

    def stop_after_first_chunk(result):
        cancel.set()

    partial = partial_dependence(
        model,
        X,
        [0, 1],
        kind="both",
        grid_resolution=8,
        max_memory=ONE_COPY,
        callback=stop_after_first_chunk,
        cancel=cancel,
        return_result=True,
    )
    assert 0 < partial.n_points_done < partial.n_points and not partial.complete
    # The same chunks as the cancelled run (streamed too, for its callback;
    # without one, the linear model's whole grid goes in one pass):
    # bit-identical where both finished.
    full = partial_dependence(
        model,
        X,
        [0, 1],
        kind="both",
        grid_resolution=8,
        max_memory=ONE_COPY,
        callback=lambda result: None,
        return_result=True,
    )
    done = partial.done
    assert_array_equal(partial.average[:, done], full.average[:, done])
    assert np.isnan(partial.average[:, ~done]).all()


def test_cancelled_before_start_returns_an_empty_result(classifier):
    model, X = classifier
    cancel = threading.Event()
    cancel.set()
    result = partial_dependence(
        model, X, [0], kind="both", grid_resolution=5, cancel=cancel
    )
    assert result.average.shape == (3, 5) and np.isnan(result.average).all()
    assert result.individual.shape == (3, 120, 5)
    assert list(iter_partial_dependence(model, X, [0], cancel=cancel)) == []
    # A regressor with two targets and no n_outputs_: still two outputs.
    two_targets = LinearRegression().fit(X, np.column_stack([X[:, 0], X[:, 1]]))
    empty = partial_dependence(two_targets, X, [0], grid_resolution=5, cancel=cancel)
    assert empty.average.shape == (2, 5)


@pytest.fixture(scope="module")
def forest(classifier):
    model, X = classifier
    forest = RandomForestClassifier(n_estimators=5, random_state=0)
    return forest.fit(X, model.predict(X)), X


@pytest.mark.parametrize(
    "fitted, assert_same",
    [
        # Trees compare and sum in a fixed order: the same bits in any chunk.
        ("forest", assert_array_equal),
        # A matrix product rounds by the rows in the call: BLAS tolerance.
        ("classifier", assert_blas_close),
    ],
)
@pytest.mark.parametrize("max_memory", [1, 3 * ONE_COPY, 2**30])
def test_chunking_does_not_change_the_numbers(request, fitted, assert_same, max_memory):
    model, X = request.getfixturevalue(fitted)
    kwargs = dict(kind="both", grid_resolution=9, sample_weight=np.arange(120.0))
    reference = partial_dependence(model, X, [2, 3], **kwargs)
    got = partial_dependence(model, X, [2, 3], max_memory=max_memory, **kwargs)
    assert_same(got.average, reference.average)
    assert_same(got.individual, reference.individual)
