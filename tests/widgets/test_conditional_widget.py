"""The permutation widget's marginal / conditional switch: the `method` trait
reruns through the conditional engine, its result is the engine's, the
subgroups' rules reach the chart's payload, and cancel and rapid switches
end in a final status."""

import random
import threading

import numpy as np
import pandas as pd
import pytest
from common.gated import GATE_TIMEOUT, HANG_GUARD
from numpy.testing import assert_array_equal
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.datasets import load_diabetes
from sklearn.linear_model import LinearRegression, Ridge
from traitlets import TraitError

from inspectwidgets import (
    PermutationImportanceWidget,
    conditional_permutation_importance,
    permutation_importance,
)
from inspectwidgets.widgets._resampled import CrossValidatedImportance
from inspectwidgets.widgets._serialization import decode_binary_array

from numerics import assert_blas_close


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    return Ridge(alpha=1e-2).fit(X, y), X, y


def _correlated(n=600, seed=0):
    """x2 nearly x1, x3 independent of both: y depends on x1 and x3."""
    rng = np.random.default_rng(seed)
    x1 = rng.normal(size=n)
    X = pd.DataFrame(
        {"x1": x1, "x2": x1 + 0.1 * rng.normal(size=n), "x3": rng.normal(size=n)}
    )
    y = X["x1"] + X["x3"] + 0.1 * rng.normal(size=n)
    return LinearRegression().fit(X, y), X, y


def test_method_is_marginal_by_default_and_switching_reruns_conditionally(diabetes):
    model, X, y = diabetes
    w = PermutationImportanceWidget(model, X, y, n_repeats=3, random_state=1)
    assert (w.method, w._method_options) == ("marginal", ["marginal", "conditional"])
    assert w.wait(timeout=HANG_GUARD) == "done"
    assert w.result.subgroups is None
    assert (w._chart["method"], w._chart["subgroups"]) == ("marginal", {})
    marginal = w.result

    w.method = "conditional"  # as the switch's button does
    assert w.wait(timeout=HANG_GUARD) == "done" and w.error == ""
    expected = conditional_permutation_importance(
        model, X, y, n_repeats=3, random_state=1
    )
    assert_blas_close(w.result.importances(), expected.importances)
    assert w.result.subgroups == expected.subgroups
    assert w._chart["method"] == "conditional" and w._phase == ""
    # Conditional importances are not the marginal ones: the switch reran.
    assert not np.allclose(w.result.importances(), marginal.importances())

    w.method = "marginal"
    assert w.wait(timeout=HANG_GUARD) == "done"
    again = permutation_importance(model, X, y, n_repeats=3, random_state=1)
    assert_blas_close(w.result.importances(), again.importances)
    assert w._chart["subgroups"] == {}


def test_the_payload_holds_the_drawn_features_subgroup_rules():
    model, X, y = _correlated()
    w = PermutationImportanceWidget(
        model, X, y, n_repeats=4, method="conditional", max_features=2
    )
    assert w.wait(timeout=HANG_GUARD) == "done"
    expected = conditional_permutation_importance(
        model, X, y, n_repeats=4, random_state=0
    )
    drawn = w._chart["scorers"]["r2"]["features"]
    assert len(drawn) == 2
    assert w._chart["subgroups"] == {
        name: [[group.rule, group.size] for group in expected.subgroups[name]]
        for name in drawn
    }
    # x3, which nothing predicts, is permuted among all its rows: the
    # marginal permutation, and one line in its tooltip.
    w.max_features = 3
    assert w._chart["subgroups"]["x3"] == [["all rows", 600]]
    assert len(w._chart["subgroups"]["x2"]) > 1
    order = np.argsort(-expected.importances_mean, kind="stable")
    mean = decode_binary_array(w._chart["scorers"]["r2"]["mean"])
    np.testing.assert_allclose(mean, expected.importances_mean[order], rtol=1e-6)
    # The redundant x2 adds nothing beyond x1: conditional importance ~ 0.
    x2 = list(X.columns).index("x2")
    assert abs(expected.importances_mean[x2]) < 0.01
    assert w.to_frame().shape == (12, 6)
    assert w.figure().axes


class PacedRegressor(RegressorMixin, BaseEstimator):
    """Predicts X's first column, each call only once the test lets it
    through (`let_one`), or every call once `free()`: the test sees the run
    at a known point, whatever the machine's speed."""

    def fit(self, X, y=None):
        self.n_features_in_ = np.shape(X)[1]
        self._turn = threading.Condition()
        self.arrived = self.allowed = 0
        return self

    def predict(self, X):
        with self._turn:
            self.arrived += 1
            self._turn.notify_all()
            if not self._turn.wait_for(
                lambda: self.arrived <= self.allowed, GATE_TIMEOUT
            ):
                raise TimeoutError("the test never let the call through")
        return np.asarray(X, dtype=float)[:, 0]

    def let_through_until(self, done):
        """Let calls through one at a time until `done()` holds while a call
        waits; return with that call waiting."""
        with self._turn:
            while True:
                if not self._turn.wait_for(
                    lambda: self.arrived > self.allowed, GATE_TIMEOUT
                ):
                    raise TimeoutError("no predict call came")
                if done():
                    return
                self.allowed += 1
                self._turn.notify_all()

    def free(self):
        with self._turn:
            self.allowed = float("inf")
            self._turn.notify_all()


def test_cancel_keeps_the_conditional_repeats_done():
    rng = np.random.default_rng(0)
    x1 = rng.normal(size=300)
    X = np.column_stack([x1, x1 + 0.1 * rng.normal(size=300), rng.normal(size=300)])
    y = X[:, 0]
    model = PacedRegressor().fit(X, y)
    w = PermutationImportanceWidget(model, X, y, n_repeats=200, method="conditional")
    # Held with a repeat round done and the next call waiting.
    model.let_through_until(
        lambda: w.result is not None and w.result.n_repeats_done >= 1
    )
    assert w.status == "running"
    w.cancel()
    calls = model.arrived
    model.free()
    assert w.wait(timeout=HANG_GUARD) == "cancelled"
    # Only the chunk in flight ended after the cancel: no call started.
    assert model.arrived == calls
    done = w.result.n_repeats_done
    assert 1 <= done < 200 and w._repeats_done == done
    expected = conditional_permutation_importance(
        model, X, y, n_repeats=200, random_state=0
    )
    assert_array_equal(w.result.importances(), expected.importances[:, :done])
    assert w.result.subgroups == expected.subgroups


def test_quick_switches_end_in_the_result_of_the_last_settings(diabetes):
    model, X, y = diabetes
    rng = random.Random(0)
    w = PermutationImportanceWidget(model, X, y, n_repeats=2)
    for _ in range(20):
        change = rng.choice(["method", "method", "n_repeats", "features"])
        if change == "method":
            w.method = rng.choice(["marginal", "conditional"])
        elif change == "n_repeats":
            w.n_repeats = rng.randint(1, 4)
        else:
            w.features = rng.sample(list(X.columns), rng.randint(1, 10))
    assert w.wait(timeout=HANG_GUARD) == "done"
    engine = (
        conditional_permutation_importance
        if w.method == "conditional"
        else permutation_importance
    )
    expected = engine(
        model, X, y, n_repeats=w.n_repeats, random_state=0, features=list(w.features)
    )
    assert list(w.result.feature_names) == list(w.features)
    assert_blas_close(w.result.importances(), expected.importances)
    assert (w.result.subgroups is None) == (w.method == "marginal")


def test_bad_methods_are_refused_naming_the_trait(diabetes):
    model, X, y = diabetes
    with pytest.raises(TraitError, match="'method'.*'conditional'.*'cond'"):
        PermutationImportanceWidget(model, X, y, method="cond", run=False)
    w = PermutationImportanceWidget(model, X, y, n_repeats=1)
    assert w.wait(timeout=HANG_GUARD) == "done"
    before = w.result
    with pytest.raises(TraitError, match="'method'"):
        w.method = "conditionnal"
    with pytest.raises(TraitError, match="'method'"):
        w.method = None
    assert w.method == "marginal" and w.result is before and w.status == "done"
    # The cross-validated view refits per fold: no conditional variant.
    cv = CrossValidatedImportance(model, X, y, n_repeats=1, cv=2, run=False)
    assert cv._method_options == ["marginal"]
    with pytest.raises(TraitError, match="'marginal' importance only; got 'cond"):
        cv.method = "conditional"
    assert cv.method == "marginal"
