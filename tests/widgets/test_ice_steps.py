"""The PD widget's ICE at every step of a tree model (``ice_steps``)."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.compose import make_column_transformer
from sklearn.datasets import load_diabetes
from sklearn.ensemble import RandomForestRegressor
from sklearn.linear_model import Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

import inspectwidgets.widgets._effect_streams as pd_streams_module
from inspectwidgets import ModelInspector, PartialDependenceWidget, split_grid
from inspectwidgets.widgets._serialization import decode_binary_array as decode

from sklearn_reference import sklearn_partial_dependence


@pytest.fixture(scope="module")
def diabetes():
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    return RandomForestRegressor(n_estimators=20, random_state=0).fit(X, y), X, y


def test_steps_are_scikit_learns_ice_at_every_split(diabetes):
    model, X, _ = diabetes
    w = PartialDependenceWidget(
        model, X, features="bmi", grid_resolution=20, n_ice=15, ice_steps=True
    )
    assert w.wait(timeout=120) == "done"
    assert w._steps_available
    grid = w.pd_result.grid_values[0]
    steps = w._snapshot.steps
    expected_grid = split_grid(model, X, "bmi", bounds=(grid[0], grid[-1]))
    assert_array_equal(steps.grid_values[0], expected_grid)
    assert len(expected_grid) > 5 * len(grid)  # finer than the grid
    # The same rows as the grid's ICE curves, and scikit-learn's numbers.
    assert_array_equal(steps.ice_rows, w.pd_result.ice_rows)
    theirs = sklearn_partial_dependence(
        model,
        X.iloc[steps.ice_rows],
        ["bmi"],
        custom_values={"bmi": expected_grid},
        kind="individual",
        method="brute",
    )
    assert_array_equal(steps.individual, theirs["individual"])
    payload = w._curve["steps"]
    assert_allclose(decode(payload["grid"]), expected_grid, rtol=1e-6)
    assert_allclose(decode(payload["individual"]), theirs["individual"][0], rtol=1e-5)


def test_turning_steps_on_keeps_the_partial_dependence(diabetes, monkeypatch):
    model, X, _ = diabetes
    w = PartialDependenceWidget(model, X, features="bmi", grid_resolution=10, n_ice=5)
    assert w.wait(timeout=120) == "done"
    assert w._curve["steps"] is None
    before = w.pd_result
    calls = []
    original = pd_streams_module.iter_partial_dependence

    def counting(*args, **kwargs):
        calls.append(kwargs["kind"])
        return original(*args, **kwargs)

    monkeypatch.setattr(pd_streams_module, "iter_partial_dependence", counting)
    w.ice_steps = True
    assert w.wait(timeout=120) == "done"
    assert calls == ["individual"]  # only the steps
    assert w.pd_result is before
    assert w._curve["steps"] is not None
    w.centered = True
    assert w.wait(timeout=120) == "done"
    centered_steps = decode(w._curve["steps"]["individual"])
    # Anchored where the grid's curves are: at its first value.
    assert_array_equal(centered_steps[:, 0], np.zeros(5, dtype=np.float32))


def test_models_without_readable_steps_say_why(diabetes):
    _, X, y = diabetes
    ridge = Ridge().fit(X, y)
    w = PartialDependenceWidget(ridge, X, features="bmi", n_ice=5, run=False)
    assert not w._steps_available
    w.ice_steps = True
    w.run()
    assert w.wait(timeout=60) == "error"
    assert "ice_steps: estimator:" in w.error and "got Ridge" in w.error
    w.ice_steps = False
    assert w.wait(timeout=60) == "done"


def test_availability_follows_the_feature(diabetes):
    model, X, y = diabetes
    frame = X.assign(kind=pd.Series(np.where(X["sex"] > 0, "a", "b"), index=X.index))
    pipeline = make_pipeline(
        make_column_transformer((OneHotEncoder(), ["kind"]), remainder="passthrough"),
        RandomForestRegressor(n_estimators=5, random_state=0),
    ).fit(frame, y)
    w = PartialDependenceWidget(pipeline, frame, features="bmi", n_ice=5, run=False)
    assert w._steps_available
    w.features = ["kind"]
    assert not w._steps_available


def test_each_part_is_keyed_and_called_by_its_named_settings(diabetes, monkeypatch):
    """The settings of a part (PartSettings) are its cache key and its
    stream's arguments, by name: every engine call gets the kind, n_ice,
    centered, grid and scale of the part it computes."""
    model, X, _ = diabetes
    w = PartialDependenceWidget(
        model,
        X,
        features="bmi",
        kind="both",
        centered=True,
        grid_resolution=12,
        n_ice=7,
        ice_steps=True,
        run=False,
    )
    parts = dict(w._keys())
    hash(tuple(parts.values()))  # frozen: usable as keys
    assert (parts["pd"].kind, parts["pd"].n_ice, parts["pd"].centered) == (
        "both",
        7,
        True,
    )
    assert parts["steps"].kind == "individual"
    assert parts["steps"].n_ice == 7 and parts["steps"].centered
    calls = []
    original = pd_streams_module.iter_partial_dependence

    def recording(*args, **kwargs):
        calls.append({k: kwargs[k] for k in ("kind", "n_ice", "centered")})
        assert kwargs["grid_resolution"] == 12 and kwargs["scale"] == "probability"
        return original(*args, **kwargs)

    monkeypatch.setattr(pd_streams_module, "iter_partial_dependence", recording)
    w.run()
    assert w.wait(timeout=120) == "done"
    assert calls == [
        {"kind": "both", "n_ice": 7, "centered": True},
        {"kind": "individual", "n_ice": 7, "centered": True},
    ]
    # The overlay's partial dependence: at the ALE's edges, average only.
    w.kind = "average_and_ale"
    overlay = dict(w._keys())["pd"]
    assert overlay.at_ale_edges and overlay.kind == "average"
    assert overlay != parts["pd"]
    assert w.wait(timeout=120) == "done"
    assert calls[-1] == {"kind": "average", "n_ice": None, "centered": False}


def test_inspector_effects_reads_its_steps_when_it_first_runs(diabetes, monkeypatch):
    """The inspector's Effects view is made while the Importance view
    computes its first bars: reading every tree's splits waits for its
    first run, and follows the selection from then on."""
    model, X, y = diabetes
    frame = X.assign(kind=pd.Series(np.where(X["sex"] > 0, "a", "b"), index=X.index))
    pipeline = make_pipeline(
        make_column_transformer((OneHotEncoder(), ["kind"]), remainder="passthrough"),
        RandomForestRegressor(n_estimators=5, random_state=0),
    ).fit(frame, y)
    read = []
    original = pd_streams_module.split_grid

    def counting(*args, **kwargs):
        read.append(args[2])
        return original(*args, **kwargs)

    monkeypatch.setattr(pd_streams_module, "split_grid", counting)
    inspector = ModelInspector(pipeline, frame, y, n_repeats=2, run=False)
    effects = inspector.views["effects"]
    assert read == [] and not effects._steps_available
    inspector.selected_features = ["bmi"]
    inspector.run()
    inspector.wait(timeout=120)
    assert read == [frame.columns.get_loc("bmi")] and effects._steps_available
    inspector.selected_features = ["kind"]
    inspector.wait(timeout=120)
    assert not effects._steps_available
    inspector.close()
