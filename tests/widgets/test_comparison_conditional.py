"""The comparison widget's conditional measure: computed on demand, with the
test measure's repeats and seed, beside the marginal one; sortable; dropped
without a rerun; shared with ModelInspector's conditional Importance view."""

import numpy as np
import pandas as pd
import pytest
from common.gated import HANG_GUARD
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import train_test_split
from traitlets import TraitError

from inspectwidgets import (
    ImportanceComparisonWidget,
    ModelInspector,
    conditional_permutation_importance,
    permutation_importance,
)
from inspectwidgets.widgets._serialization import decode_binary_array


@pytest.fixture(scope="module")
def correlated():
    """b nearly a; c and d independent of everything."""
    rng = np.random.RandomState(0)
    n = 400
    a = rng.normal(size=n)
    X = pd.DataFrame(
        {
            "a": a,
            "b": a + 0.1 * rng.normal(size=n),
            "c": rng.normal(size=n),
            "d": rng.normal(size=n),
        }
    )
    y = 3 * X["a"] + X["c"] + 0.1 * rng.normal(size=n)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    model = RandomForestRegressor(n_estimators=20, random_state=0)
    return model.fit(X_train, y_train), X_train, y_train, X_test, y_test


def _widget(data, **kwargs):
    model, X_train, y_train, X_test, y_test = data
    return ImportanceComparisonWidget(
        model, X_train, y_train, X_test, y_test, n_repeats=10, **kwargs
    )


def _keys(widget):
    return [measure["key"] for measure in widget._measures["measures"]]


def test_conditional_measure_on_demand_beside_the_marginal_one(correlated):
    model, _, _, X_test, y_test = correlated
    w = _widget(correlated)
    assert w.wait(timeout=HANG_GUARD) == "done" and not w.conditional
    assert "permutation_conditional" not in _keys(w)
    assert "permutation_conditional_mean" not in w.to_frame()
    test, train = w._cache.test, w._cache.train

    w.conditional = True  # as the checkbox does
    assert w.wait(timeout=HANG_GUARD) == "done" and w.error == ""
    # Only the conditional measure (and the groups) ran: the others kept.
    assert (w._cache.test, w._cache.train) == (test, train)
    assert _keys(w)[-1] == "permutation_conditional"
    frame = w.to_frame().loc[list(X_test.columns)]
    expected = conditional_permutation_importance(
        model, X_test, y_test, n_repeats=10, random_state=0
    )
    assert_allclose(frame["permutation_conditional_mean"], expected.importances_mean)
    assert_allclose(frame["permutation_conditional_std"], expected.importances_std)
    marginal = permutation_importance(
        model, X_test, y_test, n_repeats=10, random_state=0
    )
    assert_allclose(frame["permutation_test_mean"], marginal.importances_mean)
    # d, which nothing predicts, is permuted among all rows: its conditional
    # numbers are exactly its marginal ones (the same seed and repeats).
    assert [group.rule for group in expected.subgroups["d"]] == ["all rows"]
    assert_array_equal(
        frame.loc["d", "permutation_conditional_mean"],
        frame.loc["d", "permutation_test_mean"],
    )
    # b, which a predicts, is permuted within subgroups: other numbers.
    assert len(expected.subgroups["b"]) > 1
    assert (
        frame.loc["b", "permutation_conditional_mean"]
        != frame.loc["b", "permutation_test_mean"]
    )
    measure = w._measures["measures"][-1]
    assert measure["label"] == "Conditional (test)"
    order = [list(X_test.columns).index(f) for f in w._measures["features"]]
    assert_allclose(
        decode_binary_array(measure["values"]), expected.importances_mean[order]
    )
    assert w.figure().axes

    w.sort_by = "permutation_conditional"
    means = w.to_frame()["permutation_conditional_mean"].to_numpy()
    assert (np.diff(means) <= 0).all() and w._measures["sort_by"] == w.sort_by

    before = w.result
    w.conditional = False  # the columns go, nothing reruns
    assert w.status == "done" and "permutation_conditional" not in _keys(w)
    assert w.result.grouped is before.grouped
    w.conditional = True  # kept from before: shown again, nothing reruns
    assert w.status == "done" and w.result.grouped is before.grouped
    assert _keys(w)[-1] == "permutation_conditional"


def test_new_settings_recompute_the_conditional_measure(correlated):
    model, _, _, X_test, y_test = correlated
    w = _widget(correlated, conditional=True, sort_by="permutation_conditional")
    w.n_repeats = 3
    w.random_state = 5
    assert w.wait(timeout=HANG_GUARD) == "done"
    frame = w.to_frame().loc[list(X_test.columns)]
    expected = conditional_permutation_importance(
        model, X_test, y_test, n_repeats=3, random_state=5
    )
    assert_allclose(frame["permutation_conditional_mean"], expected.importances_mean)
    # Fewer than 10 repeats: no interval yet, as for the marginal measures.
    assert frame["permutation_conditional_low"].isna().all()
    with pytest.raises(TraitError, match="'conditional'"):
        w.conditional = "yes"
    with pytest.raises(TraitError, match="'sort_by'"):
        w.sort_by = "conditional"


def test_the_inspector_shares_its_conditional_importance(correlated):
    model, X_train, y_train, X_test, y_test = correlated
    inspector = ModelInspector(
        model,
        X_test,
        y_test,
        X_train=X_train,
        y_train=y_train,
        n_repeats=2,
        random_state=0,
        method="conditional",
    )
    for _ in range(3):
        inspector.wait(HANG_GUARD)
    kept = inspector.views["importance"].result
    inspector._on_message(
        inspector, {"view": "comparison", "set": {"conditional": True}}, []
    )
    inspector.view = "comparison"
    for _ in range(3):
        inspector.wait(HANG_GUARD)
    comparison = inspector.views["comparison"]
    assert comparison.conditional and comparison._cache.conditional is not None
    # The very result of the Importance view (same rows and settings).
    assert_array_equal(comparison._cache.conditional.importances(), kept.importances())
    inspector.close()
