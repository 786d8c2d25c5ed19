"""Widgets on big inputs: the seeded subsample of `max_rows` rows (PD, ICE,
ALE, the comparison; ModelInspector draws the same rows), and the words the
status line shows about the work.

"Big" is `LARGE_INPUT_CELLS`; the tests lower it instead of building a
million rows. Every number is checked equal to the engine run on the same
rows.
"""

import time

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from pandas.testing import assert_frame_equal
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.linear_model import Ridge
from sklearn.model_selection import train_test_split
from sklearn.utils import _safe_indexing

from inspectwidgets import (
    ImportanceComparisonWidget,
    PartialDependenceWidget,
    PermutationImportanceWidget,
    accumulated_local_effects,
    compare_importances,
    partial_dependence,
    permutation_importance,
)
from inspectwidgets.inspection._permutation.importance import PermutationRun
from inspectwidgets.widgets import _workload
from inspectwidgets.widgets._workload import seeded_rows

TIMEOUT = 60


@pytest.fixture(scope="module")
def regression():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(1_500, 4))
    y = X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(scale=0.1, size=len(X))
    model = RandomForestRegressor(15, max_depth=6, random_state=0).fit(X, y)
    weight = rng.uniform(0.5, 2.0, size=len(X))
    return model, X, y, weight


@pytest.fixture
def small_threshold(monkeypatch):
    """Inputs above 1,000 cells count as big; the default subsample is 400."""
    monkeypatch.setattr(_workload, "LARGE_INPUT_CELLS", 1_000)
    monkeypatch.setattr(_workload, "DEFAULT_MAX_ROWS", 400)


def test_seeded_rows_are_reproducible_sorted_and_all_when_few():
    rows = seeded_rows(1_000, 100, 7)
    assert_array_equal(rows, seeded_rows(1_000, 100, 7))
    assert len(np.unique(rows)) == 100 and np.all(np.diff(rows) > 0)
    # ModelInspector's draw before the rows were shared: the same rows.
    expected = np.sort(np.random.RandomState(7).choice(1_000, 100, replace=False))
    assert_array_equal(rows, expected)
    assert not np.array_equal(rows, seeded_rows(1_000, 100, 8))
    assert seeded_rows(100, 100, 7) is None


SETTINGS = dict(features=[1], kind="both", grid_resolution=7, n_ice=30)


def pd_on_rows(model, X, weight, max_rows):
    """The function's partial dependence on the widget's seeded rows."""
    rows = seeded_rows(len(X), max_rows, 0)
    X, weight = (X, weight) if rows is None else (X[rows], weight[rows])
    return partial_dependence(
        model, X, sample_weight=weight, method="brute", random_state=0, **SETTINGS
    )


def test_pd_widget_subsample_equals_the_engine_on_those_rows(regression):
    model, X, _, weight = regression
    w = PartialDependenceWidget(
        model, X, sample_weight=weight, max_rows=300, **SETTINGS
    )
    assert w.wait(TIMEOUT) == "done", w.error
    expected = pd_on_rows(model, X, weight, 300)
    assert_array_equal(w.result.average, expected.average)
    assert_array_equal(w.result.individual, expected.individual)
    # Not big, but subsampled: the status line says so.
    assert w._workload.startswith("300 of 1,500 rows (seeded subsample)")
    assert w._n_rows == 1_500

    w.max_rows = 500  # the field in the status line
    assert w.wait(TIMEOUT) == "done", w.error
    expected = pd_on_rows(model, X, weight, 500)
    assert_array_equal(w.result.average, expected.average)
    assert_array_equal(w.result.individual, expected.individual)
    assert w._curve["n_rows"] == 500  # "averaged over 500 rows"

    w.max_rows = 10_000  # more than X has: every row, nothing to say
    assert w.wait(TIMEOUT) == "done", w.error
    expected = pd_on_rows(model, X, weight, 10_000)
    assert_array_equal(w.result.average, expected.average)
    assert w._workload == ""
    w.close()


def test_ale_kind_on_the_default_subsample_of_a_big_input(regression, small_threshold):
    model, X, _, _ = regression
    w = PartialDependenceWidget(model, X, features=[2], kind="ale", grid_resolution=6)
    assert w.max_rows == 400  # big: the default subsample
    assert w.wait(TIMEOUT) == "done", w.error
    rows = seeded_rows(len(X), 400, 0)
    expected = accumulated_local_effects(model, X[rows], 2, grid_resolution=6)
    assert_array_equal(w.result.local_effects, expected.local_effects)
    assert w._workload == ("400 of 1,500 rows (seeded subsample) × 4 features × 6 bins")
    w.close()


def test_small_input_uses_every_row_and_says_nothing(regression):
    model, X, _, _ = regression
    w = PartialDependenceWidget(model, X, features=[0], grid_resolution=5, run=False)
    assert w.max_rows == len(X)
    assert w._workload == ""
    w.close()


def test_pi_widget_never_subsamples_unless_asked(regression, small_threshold):
    model, X, y, _ = regression
    w = PermutationImportanceWidget(model, X, y, n_repeats=2, random_state=0)
    assert w.wait(TIMEOUT) == "done", w.error
    expected = permutation_importance(model, X, y, n_repeats=2, random_state=0)
    assert_array_equal(w.result.importances("r2"), expected.importances)
    assert w._workload == "1,500 rows × 4 features × 2 repeats"
    assert not hasattr(w, "max_rows")
    w.close()

    w = PermutationImportanceWidget(
        model, X, y, n_repeats=2, random_state=0, max_samples=0.2, run=False
    )
    assert w._workload == "300 of 1,500 rows (max_samples) × 4 features × 2 repeats"
    w.close()


def test_comparison_subsamples_train_and_test_alike(small_threshold):
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    model = RandomForestClassifier(n_estimators=20, random_state=0).fit(
        X_train, y_train
    )
    data = (X_train, y_train, X_test, y_test)
    w = ImportanceComparisonWidget(model, *data, n_repeats=2, random_state=1)
    assert w.max_rows == 400  # 426 x 30 cells: big here
    assert w.wait(TIMEOUT) == "done", w.error
    rows_train = seeded_rows(len(X_train), 400, 1)  # the test set has 143
    expected = compare_importances(
        model,
        _safe_indexing(X_train, rows_train),
        _safe_indexing(y_train, rows_train),
        X_test,
        y_test,
        n_repeats=2,
        random_state=1,
    )
    assert_frame_equal(w.to_frame(), expected)
    assert w._workload.startswith(
        "test 143 rows, train 400 of 426 rows (seeded subsample) × 30 features"
    )

    w.max_rows = 100
    assert w.wait(TIMEOUT) == "done", w.error
    rows_train = seeded_rows(len(X_train), 100, 1)
    rows_test = seeded_rows(len(X_test), 100, 1)
    expected = compare_importances(
        model,
        _safe_indexing(X_train, rows_train),
        _safe_indexing(y_train, rows_train),
        _safe_indexing(X_test, rows_test),
        _safe_indexing(y_test, rows_test),
        n_repeats=2,
        random_state=1,
    )
    assert_frame_equal(w.to_frame(), expected)
    w.close()


@pytest.mark.parametrize("bad", [0, -3, 2.5, "10"])
def test_bad_max_rows_is_named(regression, bad):
    model, X, y, _ = regression
    match = rf"max_rows must be a positive int or None; got {bad!r}\."
    with pytest.raises(ValueError, match=match):
        PartialDependenceWidget(model, X, max_rows=bad, run=False)
    with pytest.raises(ValueError, match=match):
        ImportanceComparisonWidget(model, X, y, X, y, max_rows=bad, run=False)


class SlowRidge(Ridge):
    def predict(self, X):
        time.sleep(0.05)
        return super().predict(X)


def test_time_left_is_known_from_the_first_chunk(regression):
    """Before the first repeat round is drawn, the first chunk's time already
    gives the progress and the time left."""
    _, X, y, _ = regression
    model = SlowRidge().fit(X, y)
    w = PermutationImportanceWidget(model, X, y, n_repeats=3, run=False)
    seen = []
    w.observe(
        lambda change: seen.append((change.new, w._eta_seconds, w._repeats_done)),
        names=["progress"],
    )
    w.run()
    assert w.wait(TIMEOUT) == "done", w.error
    progress, eta, rounds = seen[0]
    assert rounds == 0 and 0 < progress < 1 and eta >= 0, seen
    expected = permutation_importance(model, X, y, n_repeats=3, random_state=0)
    assert_array_equal(w.result.importances("r2"), expected.importances)
    w.close()


def test_the_baseline_of_a_big_x_shows_its_progress_and_time_left(
    regression, monkeypatch
):
    """On a million rows the baseline scores every row, for seconds before
    the first chunk: the status line says so block by block, with the
    step's time left, then gives way to the chunks' progress."""
    _, X, y, _ = regression
    monkeypatch.setattr(PermutationRun, "_baseline_block_rows", lambda self: 500)
    model = SlowRidge().fit(X, y)
    w = PermutationImportanceWidget(model, X, y, n_repeats=2, run=False)
    seen = []
    w.observe(
        lambda change: seen.append((w._phase, w._eta_seconds)),
        names=["_phase", "_eta_seconds"],
    )
    w.run()
    assert w.wait(TIMEOUT) == "done", w.error
    phases = [phase for phase, _ in seen]
    text = "baseline score on all 1,500 rows: {}%"
    assert list(dict.fromkeys(phases)) == [
        text.format(0),
        text.format(33),
        text.format(66),
        "",
    ], seen
    # Time left from the blocks timed so far, once one is.
    assert all(eta < 0 for phase, eta in seen if phase == text.format(0)), seen
    assert any(eta > 0 for phase, eta in seen if phase == text.format(66)), seen
    expected = permutation_importance(model, X, y, n_repeats=2, random_state=0)
    assert_array_equal(w.result.importances("r2"), expected.importances)
    w.close()
