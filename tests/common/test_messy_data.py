"""The messy table (messy.py) beyond the matrix's finite-or-named check:
scikit-learn's numbers where it has them, the exact words of the boundary
errors, and the ModelInspector's Effects drawing a missing value's point.
The matrix (test_bad_inputs.py) tries every messy case on every entry point."""

import copy

import numpy as np
import pandas as pd
import pytest
from messy import messy_pipeline, messy_table
from numpy.testing import assert_array_equal
from sklearn.base import clone
from sklearn.ensemble import RandomForestRegressor
from sklearn.inspection import permutation_importance as sklearn_permutation_importance

import inspectwidgets as iw

WAIT = 60


@pytest.fixture(scope="module")
def messy():
    X, y = messy_table()
    return messy_pipeline().fit(X, y), X, y


def test_permutation_importance_permutes_missing_values_as_scikit_learn(messy):
    model, X, y = messy
    kwargs = dict(n_repeats=3, random_state=0)
    ours = iw.permutation_importance(model, X, y, **kwargs)
    theirs = sklearn_permutation_importance(model, X, y, **kwargs)
    assert_array_equal(ours["importances"], theirs["importances"])


def test_string_target_for_a_regressor_is_one_sentence_naming_it(messy):
    model, X, y = messy
    labels = pd.Series(np.where(y > y.median(), "left", "stayed"), index=X.index)
    before = copy.deepcopy(labels)
    with pytest.raises(ValueError) as error:
        iw.permutation_importance(model, X, labels, n_repeats=2)
    message = str(error.value)
    assert message.startswith("y holds ")
    assert "'left', 'stayed'" in message or "'stayed', 'left'" in message
    assert "Pipeline is a regressor" in message and "use a classifier" in message
    assert message.count(". ") == 0 and message.endswith(".")  # one sentence
    pd.testing.assert_series_equal(labels, before)


@pytest.mark.parametrize(
    "call",
    [
        lambda m, X, y: iw.permutation_importance(m, X, y, n_repeats=2),
        lambda m, X, y: iw.partial_dependence(m, X, ["charges"]),
        lambda m, X, y: iw.accumulated_local_effects(m, X, "charges"),
        lambda m, X, y: iw.interaction_strength(m, X, ["charges", "score"]),
        lambda m, X, y: iw.ModelInspector(m, X, y, run=False),
    ],
    ids=["permutation", "pd", "ale", "h2", "inspector"],
)
def test_a_training_column_missing_from_X_is_named(messy, call):
    model, X, y = messy
    X = X.drop(columns=["tenure", "calls"])
    with pytest.raises(ValueError, match=r"^X lacks the column\(s\) \['tenure', "
                       r"'calls'\] that Pipeline was fitted on; pass X with every "
                       r"column of the training set\.$"):  # fmt: skip
        call(model, X, y)


def test_cluster_features_takes_nullable_columns_and_names_strings(messy):
    _, X, _ = messy
    numeric = X[["charges", "tenure", "calls", "score", "paperless"]]
    result = iw.cluster_features(numeric)
    assert np.isfinite(result.correlation).all()
    with pytest.raises(ValueError, match="column 'plan' is not"):
        iw.cluster_features(X)


def test_inspector_effects_draw_the_missing_point(messy):
    model, X, y = messy
    before = copy.deepcopy(X)
    inspector = iw.ModelInspector(
        model, X, y, n_repeats=2, random_state=0, selected_features=["charges"]
    )
    try:
        for _ in range(3):  # Effects starts when Importance ends
            statuses = inspector.wait(WAIT)
        assert set(statuses.values()) <= {"done", "idle"}, statuses
        effects = inspector.views["effects"]
        assert effects.status == "done", effects.error
        missing = effects._curve["missing"]
        assert missing["n_missing"] == int(X["charges"].isna().sum()) > 0
        assert np.isfinite(missing["average"])
        result = effects.result
        assert result.missing == (True,)
        assert missing["average"] == pytest.approx(result.average[0, -1])
    finally:
        inspector.close()
    pd.testing.assert_frame_equal(X, before)


@pytest.fixture(scope="module")
def forest():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(80, 4)), columns=list("abcd"))
    model = RandomForestRegressor(n_estimators=5, random_state=0)
    return model.fit(X, X["a"] + X["b"] * X["c"]), X


CALLS = {
    "permutation": lambda m, X: iw.permutation_importance(m, X, np.zeros(len(X))),
    "pd": lambda m, X: iw.partial_dependence(m, X, [0], kind="both"),
    "ale": lambda m, X: iw.accumulated_local_effects(m, X, 0),
    "h2": lambda m, X: iw.interaction_strength(m, X, [0, 1]),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_columns_in_another_order_than_in_fit_are_refused(forest, call):
    """The tree shortcut reads columns by position without predicting: it
    gave a partial dependence of the wrong column where scikit-learn's
    predict refuses the order."""
    model, X = forest
    with pytest.raises(ValueError, match=r"X's columns \['d', 'c', 'b', 'a'\] are "
                       r"not those RandomForestRegressor was fitted on, in their "
                       r"order"):  # fmt: skip
        call(model, X[list("dcba")])


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_an_array_with_fewer_columns_than_in_fit_is_refused(forest, call):
    """It crashed the interpreter (the tree walk read past X's last column)."""
    model, X = forest
    model = clone(model).fit(X.to_numpy(), X["a"])
    with pytest.raises(ValueError, match="X has 3 features, but RandomForestRegressor "
                       "is expecting 4 features as input; pass X"):  # fmt: skip
        call(model, X.to_numpy()[:, :3])
