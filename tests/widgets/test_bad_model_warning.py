"""A standalone PermutationImportanceWidget says the inspector header's
warning when the model barely beats a dummy (issue #52, item 7): the same
check (widgets/_review_header.py), the dummy fitted on the widget's rows;
inside a ModelInspector the header alone says it."""

import numpy as np
import pandas as pd
from sklearn.dummy import DummyRegressor
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import r2_score

from inspectwidgets import ModelInspector, PermutationImportanceWidget
from inspectwidgets.widgets._review_header import BAD_MODEL_WARNING

TIMEOUT = 60


def _rows(seed, n):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "size": rng.normal(size=n),
            "rooms": rng.integers(1, 6, n),
            "city": pd.Categorical(rng.choice(["a", "b", "c"], n)).codes,
        }
    )
    X.loc[::11, "size"] = np.nan
    y = 3 * X["size"].fillna(0) + X["rooms"] + rng.normal(size=n)
    return X, y


def _models():
    X, y = _rows(0, 300)
    good = RandomForestRegressor(20, random_state=0).fit(X.fillna(0), y)
    # Fitted on a target unrelated to X: worse than predicting the mean.
    noise = np.random.default_rng(1).normal(scale=3, size=len(y))
    bad = RandomForestRegressor(20, random_state=0).fit(X.fillna(0), noise)
    return good, bad


def test_standalone_widget_warns_on_a_model_worse_than_a_constant():
    good, bad = _models()
    X, y = _rows(2, 200)
    X = X.fillna(0)
    assert r2_score(y, bad.predict(X)) < 0  # worse than a constant
    widget = PermutationImportanceWidget(bad, X, y, n_repeats=2, scoring=["r2"])
    assert widget.wait(TIMEOUT) == "done"
    assert widget._chart["warning"] == BAD_MODEL_WARNING
    widget.close()
    widget = PermutationImportanceWidget(good, X, y, n_repeats=2, scoring=["r2"])
    assert widget.wait(TIMEOUT) == "done"
    assert widget._chart["warning"] == ""
    # The inspector's check, on the same rows and scores: the dummy fitted
    # on X itself, as the widget has no training rows.
    dummy = DummyRegressor().fit(X, y)
    assert r2_score(y, dummy.predict(X)) == 0
    widget.close()


def test_an_inspector_child_leaves_the_warning_to_the_header():
    _, bad = _models()
    X, y = _rows(2, 200)
    X = X.fillna(0)
    inspector = ModelInspector(bad, X, y, n_repeats=2, random_state=0)
    importance = inspector.views["importance"]
    assert importance.wait(TIMEOUT) == "done"
    assert inspector._header["warning"] == BAD_MODEL_WARNING
    assert importance._chart["warning"] == ""
    inspector.close()
