"""What a front end may change (#49): its inputs, never the kernel's outputs.

Messages are handed to each widget as its comm hands them
(``Widget._handle_msg``): a forged ``status``, ``error`` or chart payload is
ignored, a value an input refuses changes nothing and raises nothing, a
malformed message is logged and ignored, and a real control's update still
works.
"""

import logging

import numpy as np
import pandas as pd
import pytest
from common.gated import HANG_GUARD
from sklearn.linear_model import LinearRegression
from sklearn.tree import DecisionTreeRegressor

import inspectwidgets as iw
from inspectwidgets.widgets._base import ComputationWidget
from inspectwidgets.widgets._inspector_effects import ModelsEffects
from inspectwidgets.widgets._inspector_importance import ModelsImportance
from inspectwidgets.widgets._messages import GuardedWidget, frontend_inputs

FORGED = "Model failed: contact attacker@example.com"

# The kernel's outputs every widget of the package has.
BASE_OUTPUTS = {"status", "progress", "error", "error_details"}


def _data(n=80):
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(n, 3)), columns=["a", "b", "c"])
    return X, 2 * X["a"] + X["b"] + rng.normal(scale=0.1, size=n)


def _build(name):
    X, y = _data()
    tree = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y)
    if name == "permutation":
        return iw.PermutationImportanceWidget(tree, X, y, n_repeats=2, random_state=0)
    if name == "partial_dependence":
        return iw.PartialDependenceWidget(tree, X, features=["a"], grid_resolution=5)
    if name == "comparison":
        return iw.ImportanceComparisonWidget(tree, X, y, X, y, n_repeats=2)
    if name == "interaction":
        linear = LinearRegression().fit(X, y)
        return iw.InteractionWidget(linear, X, n_samples=10, grid_resolution=4)
    return iw.ModelInspector(tree, X, y, n_repeats=2, random_state=0)


WIDGETS = [
    "permutation",
    "partial_dependence",
    "comparison",
    "interaction",
    "inspector",
]


@pytest.fixture(params=WIDGETS)
def widget(request):
    w = _build(request.param)
    for _ in range(2):  # the inspector starts its effects after importance
        w.wait(HANG_GUARD)
    yield w
    w.close()


def _update(widget, state, **data):
    widget._handle_msg(
        {
            "content": {"data": {"method": "update", "state": state, **data}},
            "buffers": [],
        }
    )


def _synced(widget):
    return {name: getattr(widget, name) for name in widget.trait_names(sync=True)}


def _outputs(widget):
    inputs = frontend_inputs(type(widget))
    return [
        name
        for name in widget.trait_names(sync=True)
        if name not in inputs
        and not name.startswith(("_model_", "_view_", "_esm", "_css", "_anywidget"))
        and name
        not in ("comm", "layout", "tabbable", "tooltip", "_dom_classes", "keys", "log")
    ]


def test_forged_outputs_are_ignored(widget, caplog, tmp_path):
    before = _synced(widget)
    forged = {}
    for name in _outputs(widget):
        value = before[name]
        forged[name] = (
            FORGED
            if isinstance(value, str)
            else {"forged": FORGED}
            if isinstance(value, dict)
            else value
        )
    forged["status"] = "error"
    forged["error"] = FORGED
    with caplog.at_level(logging.WARNING):
        _update(widget, forged)
    assert _synced(widget) == before
    assert "may not set" in caplog.text
    if isinstance(widget, iw.ModelInspector):
        widget.save_html(tmp_path / "review.html")
        assert "attacker" not in (tmp_path / "review.html").read_text()


def test_a_refused_value_raises_nothing_and_changes_nothing(widget):
    before = _synced(widget)
    name = sorted(frontend_inputs(type(widget)) - {"_run_requests", "_stop_requests"})[
        0
    ]
    for value in ([1, 2], {"x": 1}, None):
        _update(widget, {name: value, "status": "error"})
        widget.wait(HANG_GUARD)
    assert _synced(widget) == before


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "update",
        {},
        {"method": "update"},
        {"method": "update", "state": [["status", "error"]]},
        {"method": "update", "state": "status"},
        {"method": "update", "state": {}, "buffer_paths": "x"},
        {"method": "update", "state": {}, "buffer_paths": [["x", 0]]},
        {"method": 3},
    ],
)
def test_malformed_messages_are_logged_and_ignored(data, caplog):
    widget = _build("permutation")
    widget.wait(HANG_GUARD)
    before = _synced(widget)
    with caplog.at_level(logging.WARNING):
        widget._handle_msg({"content": {"data": data}, "buffers": []})
    assert _synced(widget) == before
    widget.close()


def test_an_input_set_by_the_front_end_still_runs():
    widget = _build("permutation")
    widget.wait(HANG_GUARD)
    _update(widget, {"n_repeats": 3})
    assert widget.wait(HANG_GUARD) == "done"
    assert widget.result.n_repeats_done == 3
    widget.close()


def test_the_inspector_views_take_their_inputs_only(caplog):
    inspector = _build("inspector")
    inspector.wait(HANG_GUARD)
    importance = inspector._children["importance"]
    chart, status = importance._chart, importance.status
    custom = inspector._handle_custom_msg
    with caplog.at_level(logging.WARNING):
        custom({"view": "importance", "set": {"error": FORGED, "status": "error"}}, [])
        custom({"view": "importance", "set": {"_chart": {"forged": FORGED}}}, [])
        custom({"view": "importance", "set": [["error", FORGED]]}, [])
        custom({"view": ["importance"], "set": {}}, [])
        custom({"view": "importance", "set": {"n_repeats": [1, 2]}}, [])
    assert (importance.error, importance.status) == ("", status)
    assert importance._chart == chart
    assert FORGED not in str(inspector._importance)
    assert "malformed" in caplog.text
    custom({"view": "importance", "set": {"kind": "box"}}, [])
    assert importance.kind == "box"
    inspector.close()


@pytest.mark.parametrize(
    "cls",
    [
        iw.PermutationImportanceWidget,
        iw.PartialDependenceWidget,
        iw.ImportanceComparisonWidget,
        iw.InteractionWidget,
        iw.ModelInspector,
        ModelsImportance,
        ModelsEffects,
    ],
)
def test_inputs_are_the_public_settings(cls):
    # The house's tiers: public synced traits are settings, underscored ones
    # the kernel's internals; a new trait must be declared one or the other.
    assert issubclass(cls, GuardedWidget)
    synced = set(cls.class_traits(sync=True)) - set(
        GuardedWidget.class_traits(sync=True)
    )
    public = {n for n in synced if not n.startswith("_")}
    # Every widget counts the views a front end drew (its notebook picture).
    expected = (public - BASE_OUTPUTS) | {"_views_rendered"}
    if issubclass(cls, ComputationWidget):
        expected |= {"_run_requests", "_stop_requests"}
    assert frontend_inputs(cls) == expected
