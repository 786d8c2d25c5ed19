"""ModelInspector's Importance view with the marginal / conditional switch:
the option reaches the held-out and training views, the switch in the view
reruns it, and the other views keep the marginal numbers they share."""

import numpy as np
import pandas as pd
import pytest
import traitlets
from numpy.testing import assert_allclose
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import train_test_split

from inspectwidgets import (
    ModelInspector,
    conditional_permutation_importance,
    permutation_importance,
)

TIMEOUT = 120


@pytest.fixture(scope="module")
def correlated():
    """b nearly a: each adds little beyond the other."""
    rng = np.random.RandomState(0)
    a = rng.normal(size=400)
    X = pd.DataFrame(
        {"a": a, "b": a + 0.1 * rng.normal(size=400), "c": rng.normal(size=400)}
    )
    y = 3 * X["a"] + X["c"] + 0.1 * rng.normal(size=400)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    model = RandomForestRegressor(n_estimators=20, random_state=0)
    return model.fit(X_train, y_train), X_train, y_train, X_test, y_test


def make(data, **kwargs):
    model, X_train, y_train, X_test, y_test = data
    return ModelInspector(
        model,
        X_test,
        y_test,
        X_train=X_train,
        y_train=y_train,
        random_state=0,
        n_repeats=2,
        **kwargs,
    )


def settle(inspector):
    # The Effects run starts when Importance finishes: wait for both.
    for _ in range(3):
        inspector.wait(TIMEOUT)


def test_the_option_reaches_the_importance_views_only(correlated):
    model, X_train, y_train, X_test, y_test = correlated
    inspector = make(correlated, method="conditional")
    settle(inspector)
    views = inspector.views
    assert views["importance"].status == "done"
    assert [views[k].method for k in ("importance", "importance_train")] == [
        "conditional",
        "conditional",
    ]
    assert views["importance_cv"].method == "marginal"
    assert inspector._importance["state"]["method"] == "conditional"
    expected = conditional_permutation_importance(
        model, X_test, y_test, n_repeats=2, random_state=0
    )
    result = views["importance"].result
    assert_allclose(result.importances(), expected.importances)
    assert result.subgroups == expected.subgroups
    # The header's held-out score is the conditional run's baseline: the
    # same unpermuted rows.
    header = {row["scorer"]: row["model"] for row in inspector._header["scores"]}
    assert header["r2"] == result.baseline_scores["r2"]
    # The Comparison view's test measure stays marginal: a conditional
    # result is never shared as a marginal one.
    inspector.view = "comparison"
    settle(inspector)
    marginal = permutation_importance(
        model, X_test, y_test, n_repeats=2, random_state=0, scoring="r2"
    )
    frame = views["comparison"].to_frame()
    assert_allclose(
        frame.loc[list(X_test.columns), "permutation_test_mean"],
        marginal.importances_mean,
    )
    inspector.close()


def test_the_views_switch_reruns_it_and_refused_values_come_back(correlated):
    model, _, _, X_test, y_test = correlated
    inspector = make(correlated)
    settle(inspector)
    importance = inspector.views["importance"]
    marginal = importance.result
    assert marginal.subgroups is None
    # What the switch's "Conditional" button sends through the inspector.
    inspector._on_message(
        inspector, {"view": "importance", "set": {"method": "conditional"}}, []
    )
    settle(inspector)
    assert importance.method == "conditional" and importance.status == "done"
    expected = conditional_permutation_importance(
        model, X_test, y_test, n_repeats=2, random_state=0
    )
    assert_allclose(importance.result.importances(), expected.importances)
    assert inspector._importance["state"]["_chart"]["method"] == "conditional"
    assert set(inspector._importance["state"]["_chart"]["subgroups"]) == {
        "a",
        "b",
        "c",
    }
    # Back to marginal: the kept marginal result, the same numbers.
    inspector._on_message(
        inspector, {"view": "importance", "set": {"method": "marginal"}}, []
    )
    settle(inspector)
    assert_allclose(importance.result.importances(), marginal.importances())
    version = inspector._importance["versions"]["method"]
    inspector._on_message(
        inspector, {"view": "importance", "set": {"method": "bogus"}}, []
    )
    assert importance.method == "marginal"
    assert inspector._importance["versions"]["method"] > version
    # The cross-validated view has no conditional variant: refused too.
    inspector._on_message(
        inspector, {"view": "importance_cv", "set": {"method": "conditional"}}, []
    )
    assert inspector.views["importance_cv"].method == "marginal"
    inspector.close()


def test_a_bad_method_is_refused_naming_it(correlated):
    with pytest.raises(traitlets.TraitError, match="'method'.*'sideways'"):
        make(correlated, method="sideways", run=False)
