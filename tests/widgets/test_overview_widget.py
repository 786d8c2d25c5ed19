"""The Effects overview in PartialDependenceWidget and ModelInspector: the
`_overview` payload is the engine's result for the widget's rows (order,
values of the class shown), a panel click is a feature selection, and the
inspector orders the panels by its permutation importances."""

import numpy as np
import pandas as pd
import pytest
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestRegressor
from sklearn.model_selection import train_test_split

from inspectwidgets import (
    ModelInspector,
    PartialDependenceWidget,
    partial_dependence_overview,
)
from inspectwidgets.widgets._overview import (
    OVERVIEW_GRID_RESOLUTION,
    SPREAD_LABEL,
)

TIMEOUT = 60


@pytest.fixture(scope="module")
def churn():
    """Churn-like rows: NaN in a float, an integer count, a category."""
    rng = np.random.default_rng(0)
    n = 400
    X = pd.DataFrame(
        {
            "charges": rng.gamma(2.0, 30.0, n),
            "tenure": rng.integers(0, 72, n),
            "plan": pd.Categorical(rng.choice(["basic", "plus", "pro"], n)),
            "noise": rng.normal(size=n),
        }
    )
    X.loc[rng.random(n) < 0.06, "charges"] = np.nan
    score = np.nan_to_num(X["charges"], nan=150) / 30 - X["tenure"] / 24
    y = np.where(score + (X["plan"] == "pro") > np.median(score), "left", "stayed")
    model = HistGradientBoostingClassifier(
        max_iter=20, categorical_features="from_dtype", random_state=0
    ).fit(X, y)
    return model, X, y


def _settled(widget):
    widget.wait(TIMEOUT)
    assert widget.wait_overview(TIMEOUT)
    return widget._overview


def test_payload_is_the_engines_overview_in_order(churn):
    model, X, _ = churn
    widget = PartialDependenceWidget(model, X, overview=True, target="stayed")
    payload = _settled(widget)
    assert payload["status"] == "done"
    expected = partial_dependence_overview(
        model,
        X,
        categorical_features=["plan"],
        grid_resolution=OVERVIEW_GRID_RESOLUTION,
    )
    assert [p["feature"] for p in payload["panels"]] == list(expected.features)
    assert payload["order_by"] == "pd_spread"
    assert payload["order_label"] == SPREAD_LABEL
    # The class shown: "stayed", the second of classes_ (a binary
    # classifier's positive class, the engine's one output).
    assert payload["target"] == "stayed"
    charges = next(p for p in payload["panels"] if p["feature"] == "charges")
    engine = expected["charges"]
    assert engine.missing and charges["missing_y"] == engine.average[0, -1]
    assert charges["y"] == list(engine.average[0, :-1])
    assert charges["x"] == list(engine.grid_values[:-1])
    plan = next(p for p in payload["panels"] if p["feature"] == "plan")
    assert plan["categorical"] and plan["x"] == ["basic", "plus", "pro"]
    # The integer count is drawn as a number.
    tenure = next(p for p in payload["panels"] if p["feature"] == "tenure")
    assert tenure["state"] == "done" and not tenure["categorical"]
    widget.close()


def test_click_selects_the_feature_and_importances_reorder(churn):
    model, X, _ = churn
    widget = PartialDependenceWidget(model, X, features=["noise"], overview=True)
    _settled(widget)
    # What the front end writes on a click (or Enter) on the "plan" panel.
    widget.features = ["plan"]
    widget.wait(TIMEOUT)
    assert list(widget.result.feature_names) == ["plan"]
    given = {"charges": 0.0, "tenure": 3.0, "plan": 1.0, "noise": 2.0}
    widget.set_overview_importances(given, "my importance")
    payload = widget._overview
    assert payload["order_label"] == "my importance"
    assert [p["feature"] for p in payload["panels"]] == [
        "tenure",
        "noise",
        "plan",
        "charges",
    ]
    assert [p["importance"] for p in payload["panels"]] == [3.0, 2.0, 1.0, 0.0]
    # Back to the spread.
    widget.set_overview_importances(None)
    assert widget._overview["order_label"] == SPREAD_LABEL
    widget.close()


def test_off_by_default_and_computed_when_first_shown(churn):
    model, X, _ = churn
    widget = PartialDependenceWidget(model, X)
    widget.wait(TIMEOUT)
    assert widget._overview == {} and widget.overview_result is None
    widget.overview = True
    assert widget.wait_overview(TIMEOUT)
    assert widget._overview["status"] == "done"
    assert len(widget._overview["panels"]) == X.shape[1]
    widget.close()


def test_a_failed_panel_says_why():
    rng = np.random.default_rng(3)
    X = pd.DataFrame({"a": rng.normal(size=200), "b": rng.normal(size=200)})
    y = X["a"] * 2 + X["b"]
    model = RandomForestRegressor(n_estimators=5, random_state=0).fit(X, y)
    X_empty = X.assign(b=np.nan)
    widget = PartialDependenceWidget(model, X_empty, features=["a"], overview=True)
    payload = _settled(widget)
    b = next(p for p in payload["panels"] if p["feature"] == "b")
    assert b["state"] == "failed" and "'b'" in b["note"] and b["x"] == []
    widget.close()


def test_inspector_orders_by_permutation_importance_and_clicks_select(churn):
    model, X, y = churn
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    inspector = ModelInspector(
        model, X_test, y_test, n_repeats=2, random_state=0, max_rows=200
    )
    for _ in range(3):
        inspector.wait(TIMEOUT)
    effects = inspector.views["effects"]
    # Opened with the Effects panel once the importances are known.
    assert effects.overview
    assert effects.wait_overview(TIMEOUT)
    payload = effects._overview
    importance = inspector.views["importance"].result
    scorer = importance.scorer_names[0]
    means = importance.to_bunch(scorer).importances_mean
    ranked = [importance.feature_names[i] for i in np.argsort(-means, kind="stable")]
    assert payload["order_label"] == f"permutation importance ({scorer})"
    assert [p["feature"] for p in payload["panels"]] == ranked
    # The mirror carries the payload to the inspector's front end.
    assert (
        inspector._effects["state"]["_overview"]["order_label"]
        == (payload["order_label"])
    )
    # A click on a panel in the Effects view selects that feature.
    inspector._on_message(
        inspector, {"view": "effects", "set": {"features": [ranked[-1]]}}, []
    )
    assert inspector.selected_features == [ranked[-1]]
    # Closed by the user, it stays closed when Importance runs again.
    inspector._on_message(
        inspector, {"view": "effects", "set": {"overview": False}}, []
    )
    inspector.n_repeats = 3
    for _ in range(3):
        inspector.wait(TIMEOUT)
    assert inspector.views["importance"].result.n_repeats_done == 3
    assert not effects.overview
    inspector.close()
