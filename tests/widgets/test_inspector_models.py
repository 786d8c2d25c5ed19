"""ModelInspector given several models: the views review the first, the
header scores every one on the held-out rows beside the one dummy."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import get_scorer
from sklearn.model_selection import train_test_split

from inspectwidgets import ModelInspector

TIMEOUT = 60


@pytest.fixture(scope="module")
def classification():
    rng = np.random.RandomState(0)
    X = pd.DataFrame(rng.normal(size=(300, 4)), columns=["a", "b", "c", "d"])
    X["n"] = pd.array(rng.randint(0, 5, 300), dtype="Int64")
    y = (X["a"] + X["b"] ** 2 + 0.3 * rng.normal(size=300) > 1).astype(int)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    forest = RandomForestClassifier(20, random_state=0).fit(X_train, y_train)
    logistic = LogisticRegression().fit(X_train.astype(float), y_train)
    return {"forest": forest, "logistic": logistic}, X_train, y_train, X_test, y_test


def test_header_scores_every_model_beside_the_dummy(classification):
    models, X_train, y_train, X_test, y_test = classification
    scoring = ["accuracy", "roc_auc"]
    inspector = ModelInspector(
        models, X_test, y_test, X_train=X_train, y_train=y_train,
        scoring=scoring, n_repeats=2, random_state=0,
    )  # fmt: skip
    inspector.wait(TIMEOUT)
    header = inspector._header
    assert header["model_name"] == "forest"
    [other] = header["other_models"]
    assert other["name"] == "logistic"
    dummy = DummyClassifier(strategy="prior").fit(X_train, y_train)
    for row in header["scores"]:
        scorer = get_scorer(row["scorer"])
        assert_allclose(row["model"], scorer(models["forest"], X_test, y_test))
        assert_allclose(row["dummy"], scorer(dummy, X_test, y_test))
        expected = scorer(models["logistic"], X_test, y_test)
        assert_allclose(other["scores"][row["scorer"]], expected)
    frame = inspector.to_frame("header")
    assert list(frame.columns) == ["scorer", "model", "dummy", "barely", "logistic"]
    assert_allclose(
        frame["logistic"], [other["scores"][s] for s in scoring], rtol=0, atol=0
    )
    # The views review the first model.
    for view in inspector.views.values():
        assert view._estimator is models["forest"]
    inspector.close()


def test_one_model_keeps_its_header(classification):
    models, X_train, y_train, X_test, y_test = classification
    inspector = ModelInspector(
        models["forest"], X_test, y_test, n_repeats=2, random_state=0, run=False
    )
    assert "other_models" not in inspector._header
    assert list(inspector.to_frame("header").columns) == [
        "scorer", "model", "dummy", "barely",
    ]  # fmt: skip
    inspector.close()


def test_a_list_is_named_by_class_and_the_own_score_per_model(classification):
    _, X_train, y_train, X_test, y_test = classification
    first = RandomForestRegressor(5, random_state=0).fit(X_train, y_train)
    second = Ridge().fit(X_train.astype(float), y_train)
    inspector = ModelInspector(
        [first, second], X_test, y_test, n_repeats=2, random_state=0, run=False
    )
    assert inspector._header["model_name"] == "RandomForestRegressor"
    [other] = inspector._header["other_models"]
    assert other["name"] == "Ridge"
    [score] = other["scores"].values()
    assert_allclose(score, second.score(X_test.astype(float), y_test))
    inspector.close()


def test_bad_models_are_refused_by_name(classification):
    models, _, y_train, X_test, y_test = classification
    with pytest.raises(ValueError, match="estimator: got an empty dict"):
        ModelInspector({}, X_test, y_test)
    narrow = LogisticRegression().fit(X_test[["a", "b"]], y_test)
    with pytest.raises(ValueError, match=r"estimator\['narrow'\]: .*'c'"):
        ModelInspector({"forest": models["forest"], "narrow": narrow}, X_test, y_test)
    regressor = Ridge().fit(X_test.astype(float), y_test)
    with pytest.raises(ValueError, match="are classifiers but"):
        ModelInspector({"forest": models["forest"], "ridge": regressor}, X_test, y_test)
    with pytest.raises(ValueError, match=r"estimator\['new'\]: .*not fitted"):
        ModelInspector({"forest": models["forest"], "new": Ridge()}, X_test, y_test)
