"""The streamed forms the widgets use: CrossValRun and OobRun a fold or a
member at a time, PermutationRun with a baseline computed elsewhere, and a
result's subset of features and scorers."""

import inspect
import threading

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.datasets import make_regression
from sklearn.ensemble import RandomForestRegressor
from sklearn.linear_model import Ridge

from inspectwidgets import (
    cross_val_permutation_importance,
    oob_permutation_importance,
    permutation_importance,
)
from inspectwidgets.inspection._core.signature import bind_arguments
from inspectwidgets.inspection._permutation.cross_validation import CrossValRun
from inspectwidgets.inspection._permutation.importance import permutation_run
from inspectwidgets.inspection._permutation.out_of_bag import OobRun
from inspectwidgets.inspection._permutation.scoring import ScoringPlan


@pytest.fixture(scope="module")
def data():
    X, y = make_regression(n_samples=200, n_features=4, random_state=0)
    forest = RandomForestRegressor(n_estimators=6, random_state=0).fit(X, y)
    return forest, X, y


def run_of(cls, function, *args, **params):
    signature = inspect.signature(function)
    return cls(**bind_arguments(signature, args, params))


def test_cross_validation_streams_one_fold_at_a_time(data):
    _, X, y = data
    params = dict(cv=4, n_repeats=3, random_state=0, scoring=["r2"])
    steps = list(
        run_of(CrossValRun, cross_val_permutation_importance, Ridge(), X, y, **params)
    )
    assert [s.n_done for s in steps] == [1, 2, 3, 4]
    assert all(s.n_splits == 4 for s in steps)
    expected = cross_val_permutation_importance(Ridge(), X, y, **params)["r2"]
    assert_array_equal(steps[-1].bunches["r2"].importances, expected.importances)
    assert steps[1].bunches["r2"].importances.shape == (4, 2)


def test_out_of_bag_streams_one_member_at_a_time(data):
    forest, X, y = data
    params = dict(n_repeats=2, random_state=0)
    steps = list(run_of(OobRun, oob_permutation_importance, forest, X, y, **params))
    assert [s.n_done for s in steps] == list(range(1, 7))
    expected = oob_permutation_importance(forest, X, y, **params)
    assert_array_equal(steps[-1].returned().importances, expected.importances)
    assert steps[-1].returned().baseline_score == expected.baseline_score


@pytest.mark.parametrize("which", ["cv", "oob"])
def test_cancel_stops_after_the_step_in_flight(data, which):
    forest, X, y = data
    if which == "cv":
        run = run_of(CrossValRun, cross_val_permutation_importance, Ridge(), X, y)
    else:
        run = run_of(OobRun, oob_permutation_importance, forest, X, y)
    run.cancel = threading.Event()
    steps = []
    for step in run:
        steps.append(step)
        run.cancel.set()
    assert len(steps) == 1 and steps[0].n_done == 1  # valid, for one step


def test_a_baseline_computed_elsewhere_is_not_computed_again(data, monkeypatch):
    forest, X, y = data
    scoring = {"r2": "r2", "neg_mean_squared_error": "neg_mean_squared_error"}
    baseline = ScoringPlan(forest, scoring).baseline(X, y, None)
    run = permutation_run(forest, X, y, scoring=scoring, n_repeats=2, random_state=0)
    run.reuse_baseline(baseline)

    def refuse(*args):
        raise AssertionError("the baseline was predicted again")

    monkeypatch.setattr(ScoringPlan, "baseline", refuse)
    *_, last = run
    monkeypatch.undo()
    expected = permutation_importance(
        forest, X, y, scoring=list(scoring), n_repeats=2, random_state=0
    )
    for name in scoring:
        assert_array_equal(last.importances(name), expected[name].importances)
    assert last.multimetric
    other = permutation_run(forest, X, y, scoring="r2")
    with pytest.raises(ValueError, match="baseline: scores"):
        other.reuse_baseline(baseline)


def test_select_equals_a_run_of_just_those_features(data):
    forest, X, y = data
    full = permutation_importance(
        forest,
        X,
        y,
        scoring=["r2", "neg_mean_absolute_error"],
        n_repeats=3,
        random_state=0,
        return_result=True,
    )
    part = permutation_importance(
        forest,
        X,
        y,
        scoring="r2",
        n_repeats=3,
        random_state=0,
        features=[2, 0],
        return_result=True,
    )
    chosen = full.select([(2,), (0,)], ["r2"])
    assert chosen.feature_names == part.feature_names
    assert_array_equal(chosen.importances("r2"), part.importances())
    assert chosen.select([(1,)], ["r2"]) is None  # a feature it lacks
    assert full.select([(0, 1)], ["r2"]) is None  # a group it did not permute
    assert full.select([(0,)], ["accuracy"]) is None
    renamed = full.select([(0,)], ["r2"], feature_names=["first"])
    assert renamed.feature_names == ("first",)
    assert np.shape(renamed.importances("r2")) == (1, 3)
