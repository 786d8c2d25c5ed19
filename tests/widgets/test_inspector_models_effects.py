"""ModelInspector's several-model Effects panel: ICE curves per model on
demand, and a pair's surface per model (issue #34)."""

import numpy as np
import pandas as pd
import pytest
from mixed_columns import mixed_columns
from numpy.testing import assert_array_equal
from sklearn.ensemble import HistGradientBoostingRegressor, RandomForestClassifier
from sklearn.inspection import partial_dependence
from sklearn.linear_model import LogisticRegression

from inspectwidgets import ModelInspector
from inspectwidgets.widgets import _inspector_effects
from inspectwidgets.widgets._serialization import decode_binary_array
from tests.numerics import assert_blas_close

TIMEOUT = 60


@pytest.fixture(scope="module")
def classification():
    # More rows than the ICE curves drawn (100): the drawn rows matter.
    rng = np.random.RandomState(0)
    X = pd.DataFrame(rng.normal(size=(240, 3)), columns=["a", "b", "c"])
    X["n"] = pd.array(rng.randint(0, 5, 240), dtype="Int64")
    y = (X["a"] + X["b"] ** 2 + 0.3 * rng.normal(size=240) > 1).astype(int)
    forest = RandomForestClassifier(10, random_state=0).fit(X, y)
    logistic = LogisticRegression().fit(X.astype(float), y)
    return {"forest": forest, "logistic": logistic}, X, y


def _assert_same(name, actual, expected):
    """Trees: the same predictions bit for bit; else to BLAS rounding."""
    if name == "forest":
        assert_array_equal(actual, expected)
    else:
        assert_blas_close(actual, expected)


@pytest.fixture
def counted(monkeypatch):
    """Every engine run of the panel: (model's class, kind)."""
    runs = []
    original = _inspector_effects.iter_partial_dependence

    def count(model, *args, **kwargs):
        runs.append((type(model).__name__, kwargs["kind"]))
        return original(model, *args, **kwargs)

    monkeypatch.setattr(_inspector_effects, "iter_partial_dependence", count)
    return runs


def _ask(inspector, **settings):
    """As the panel's toggles do: a message setting the child's traits."""
    inspector._on_message(None, {"view": "effects_models", "set": settings}, [])


def test_ice_per_model_on_demand_equals_scikit_learn(classification, counted):
    models, X, y = classification
    inspector = ModelInspector(
        models, X, y, n_repeats=2, random_state=0, selected_features=["b"]
    )
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    # Nothing of ICE until asked: each model's average, once; the reviewed
    # forest's is the Effects view's curve (its run, with ICE), not again.
    assert counted == [("LogisticRegression", "average")]
    assert inspector._effects_models["state"]["_models_curves"]["individual"] is None
    _ask(inspector, ice=True)
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    # Asked: each other model predicted once more, for its average and ICE
    # together; the forest's are the Effects view's (the same 100 rows).
    assert counted[1:] == [("LogisticRegression", "both")]
    view = inspector.views["effects_models"]
    frame = view.to_frame()
    assert list(frame.columns) == ["model", "row", "b", "individual", "average"]
    rows = {name: r for name, r in frame.groupby("model", sort=False)}
    drawn = [np.unique(r["row"]) for r in rows.values()]
    assert len(drawn[0]) == view.n_ice == inspector.views["effects"].n_ice
    assert_array_equal(drawn[0], drawn[1])  # the same rows for every model
    for name, model in models.items():
        expected = partial_dependence(
            model, X, ["b"], kind="both", grid_resolution=50, method="brute"
        )
        ours = rows[name]
        n_grid = len(expected["grid_values"][0])
        individual = ours["individual"].to_numpy().reshape(-1, n_grid)
        _assert_same(name, individual, expected["individual"][0][drawn[0]])
        assert_blas_close(ours["average"].to_numpy()[:n_grid], expected["average"][0])
        assert_blas_close(ours["b"].to_numpy()[:n_grid], expected["grid_values"][0])
    # What is drawn is what the frame holds: (models, rows, grid).
    curves = inspector._effects_models["state"]["_models_curves"]
    ice = decode_binary_array(curves["individual"])
    assert ice.shape == (2, view.n_ice, 50)
    np.testing.assert_allclose(
        ice[1], rows["logistic"]["individual"].to_numpy().reshape(-1, 50), rtol=1e-6
    )
    # Centered, then ICE hidden and shown again: redrawn, never predicted.
    _ask(inspector, centered=True)
    assert view.status == "done"
    centered = view.to_frame()
    for name, model in models.items():
        expected = partial_dependence(
            model, X, ["b"], kind="both", grid_resolution=50, method="brute"
        )
        # scikit-learn's display, centered=True: each curve minus its first value.
        ice_sk = expected["individual"][0][drawn[0]]
        ice_sk = ice_sk - ice_sk[:, :1]
        ours = centered[centered["model"] == name]
        individual = ours["individual"].to_numpy().reshape(-1, 50)
        assert_blas_close(individual, ice_sk, scale=1.0)
        average = expected["average"][0] - expected["average"][0][0]
        assert_blas_close(ours["average"].to_numpy()[:50], average, scale=1.0)
    _ask(inspector, ice=False)
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    assert list(view.to_frame().columns) == ["model", "b", "average"]
    assert inspector._effects_models["state"]["_models_curves"]["individual"] is None
    _ask(inspector, ice=True)
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    assert len(counted) == 2
    inspector.figure("effects_models")
    inspector.close()


def test_the_reviewed_models_partial_dependence_is_computed_once(
    classification, monkeypatch
):
    """Issue #52, item 9: the Effects view and every model's panel each ran
    the engine for the reviewed model; now the panel takes the view's."""
    from inspectwidgets.widgets import _effect_streams

    runs = []
    for module in (_effect_streams, _inspector_effects):
        original = module.iter_partial_dependence

        def count(model, *args, _original=original, **kwargs):
            runs.append(type(model).__name__)
            return _original(model, *args, **kwargs)

        monkeypatch.setattr(module, "iter_partial_dependence", count)
    models, X, y = classification
    inspector = ModelInspector(
        models, X, y, n_repeats=2, random_state=0, selected_features=["b"]
    )
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    assert sorted(runs) == ["LogisticRegression", "RandomForestClassifier"]
    # The panel's forest line is the view's average, exactly.
    frame = inspector.to_frame("effects_models")
    effects = inspector.to_frame("effects")
    effects = effects[effects["curve"] == "average"]
    assert_array_equal(frame[frame["model"] == "forest"]["average"], effects["value"])
    _ask(inspector, ice=True)
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    assert sorted(runs) == ["LogisticRegression"] * 2 + ["RandomForestClassifier"]
    inspector.close()


def test_every_models_ice_follows_the_effects_views_rows(classification, counted):
    """Issue #52, item 9: the panel drew 100 rows' ICE whatever the Effects
    view's `n_ice`; now it follows it, the same rows as the view draws."""
    from inspectwidgets.widgets._effect_groups import drawn_rows

    models, X, y = classification
    inspector = ModelInspector(
        models, X, y, n_repeats=2, random_state=0, selected_features=["b"]
    )
    _ask(inspector, ice=True)
    effects = inspector.views["effects"]
    effects.n_ice = 30
    inspector._refresh()
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    view = inspector.views["effects_models"]
    assert view.n_ice == 30
    frame = view.to_frame()
    for _, rows in frame.groupby("model", sort=False):
        drawn = np.unique(rows["row"])
        assert_array_equal(drawn, drawn_rows(len(X), 30, 0))
    curves = inspector._effects_models["state"]["_models_curves"]
    assert decode_binary_array(curves["individual"]).shape == (2, 30, 50)
    inspector.close()


def test_every_models_surface_of_a_pair_equals_scikit_learn(classification, counted):
    models, X, y = classification
    inspector = ModelInspector(
        models, X, y, n_repeats=2, random_state=0, selected_features=["a", "n"]
    )
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    # ICE asked for a pair changes nothing: it is a one-feature drawing.
    _ask(inspector, ice=True)
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    # The reviewed forest's surface is the Effects view's.
    assert counted == [("LogisticRegression", "average")]
    curves = inspector._effects_models["state"]["_models_curves"]
    assert curves["kind"] == "surface" and curves["features"] == ["a", "n"]
    surfaces = decode_binary_array(curves["average"])
    frame = inspector.to_frame("effects_models")
    assert list(frame.columns) == ["model", "a", "n", "average"]
    for m, (name, model) in enumerate(models.items()):
        expected = partial_dependence(
            model, X.astype({"n": float}), ["a", "n"], grid_resolution=50,
            method="brute",
        )  # fmt: skip
        grid_a, grid_n = expected["grid_values"]
        # The payload is float32 (widgets/_serialization.py); the frame not.
        assert_array_equal(decode_binary_array(curves["grid"]), np.float32(grid_a))
        assert_array_equal(decode_binary_array(curves["grid_y"]), np.float32(grid_n))
        ours = frame[frame["model"] == name]
        assert_blas_close(ours["a"].to_numpy(float), np.repeat(grid_a, len(grid_n)))
        _assert_same(name, ours["average"].to_numpy(), expected["average"][0].ravel())
        np.testing.assert_allclose(
            surfaces[m], expected["average"][0], rtol=1e-6, atol=1e-7
        )
    inspector.figure("effects_models")
    # One feature again: the curves (with ICE, still asked), no surface.
    inspector.selected_features = ["a"]
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    curves = inspector._effects_models["state"]["_models_curves"]
    assert curves["kind"] == "curves" and curves["individual"] is not None
    inspector.close()


def test_asking_for_ice_mid_run_restarts_it_and_ends(classification):
    models, X, y = classification
    inspector = ModelInspector(
        models, X, y, n_repeats=2, random_state=0, selected_features=["b"],
        run=False,
    )  # fmt: skip
    inspector.run()
    _ask(inspector, ice=True)
    _ask(inspector, centered=True)
    _ask(inspector, ice=False)
    _ask(inspector, ice=True)
    inspector.views["effects_models"].cancel()
    assert inspector.wait(TIMEOUT)["effects_models"] in ("done", "cancelled")
    inspector.selected_features = ["c"]
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    curves = inspector._effects_models["state"]["_models_curves"]
    assert curves["features"] == ["c"] and curves["centered"]
    assert decode_binary_array(curves["individual"]).shape[0] == 2
    inspector.close()


def test_ice_and_surfaces_on_messy_data():
    X, y, rng = mixed_columns(200)
    kwargs = dict(categorical_features="from_dtype", random_state=0)
    shallow = HistGradientBoostingRegressor(max_iter=10, **kwargs).fit(X, y)
    deep = HistGradientBoostingRegressor(max_iter=40, **kwargs).fit(X, y)
    before = X.copy()
    inspector = ModelInspector(
        {"shallow": shallow, "deep": deep}, X, y, n_repeats=2, random_state=0,
        selected_features=["x"],
    )  # fmt: skip
    _ask(inspector, ice=True)
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    curves = inspector._effects_models["state"]["_models_curves"]
    grid = decode_binary_array(curves["grid"])
    assert np.isnan(grid[-1])  # the missing point, last, for every model
    ice = decode_binary_array(curves["individual"])
    assert ice.shape == (2, 100, len(grid)) and np.isfinite(ice).all()
    # A categorical and a nullable-integer feature: their surfaces.
    inspector.selected_features = ["plan", "k"]
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    curves = inspector._effects_models["state"]["_models_curves"]
    assert curves["labels"] == ["basic", "pro", "team"] and curves["grid"] is None
    assert_array_equal(decode_binary_array(curves["grid_y"]), [0, 1, 2, 3])
    assert decode_binary_array(curves["average"]).shape == (2, 3, 4)
    # A numeric feature with NaN in a pair: its missing point not drawn.
    inspector.selected_features = ["x", "b"]
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    curves = inspector._effects_models["state"]["_models_curves"]
    assert np.isfinite(decode_binary_array(curves["grid"])).all()
    inspector.figure("effects_models")
    # ALE of a feature with NaN (its observed rows) and of a category.
    _ask(inspector, effect="ale")
    inspector.selected_features = ["x"]
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    frame = inspector.to_frame("effects_models")
    assert np.isfinite(frame["x"]).all() and np.isfinite(frame["ale"]).all()
    inspector.selected_features = ["plan"]
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    curves = inspector._effects_models["state"]["_models_curves"]
    assert sorted(curves["labels"]) == ["basic", "pro", "team"]
    # The categories' order is X's, the same for every model.
    orders = [
        list(r["plan"])
        for _, r in inspector.to_frame("effects_models").groupby("model")
    ]
    assert orders[0] == orders[1] == curves["labels"]
    inspector.figure("effects_models")
    pd.testing.assert_frame_equal(X, before)
    inspector.close()


def test_every_models_ale_equals_its_own_run(classification, counted):
    from inspectwidgets import accumulated_local_effects

    models, X, y = classification
    inspector = ModelInspector(
        models, X, y, n_repeats=2, random_state=0, selected_features=["b"]
    )
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    _ask(inspector, effect="ale")
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    curves = inspector._effects_models["state"]["_models_curves"]
    assert curves["effect"] == "ale" and curves["individual"] is None
    frame = inspector.to_frame("effects_models")
    assert list(frame.columns) == ["model", "b", "ale"]
    numeric = X.astype({"n": float})
    for name, model in models.items():
        expected = accumulated_local_effects(model, numeric, "b", grid_resolution=50)
        ours = frame[frame["model"] == name]
        assert_array_equal(ours["b"], expected.edges[0])
        # Sums over chunks of rows whose sizes adapt to timing: not exact.
        assert_blas_close(ours["ale"], expected.centered[0])
    # PD again: what was computed before is redrawn, not predicted again.
    _ask(inspector, effect="pd")
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    assert counted == [("LogisticRegression", "average")]  # the forest's: the view's
    assert inspector._effects_models["state"]["_models_curves"]["effect"] == "pd"
    # A pair: each model's second-order ALE, on the same edges.
    _ask(inspector, effect="ale")
    inspector.selected_features = ["a", "b"]
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    curves = inspector._effects_models["state"]["_models_curves"]
    assert curves["kind"] == "surface" and curves["effect"] == "ale"
    frame = inspector.to_frame("effects_models")
    for m, (name, model) in enumerate(models.items()):
        expected = accumulated_local_effects(
            model, numeric, ["a", "b"], grid_resolution=50
        )
        ours = frame[frame["model"] == name]["ale"].to_numpy()
        assert_blas_close(ours, expected.centered[0].ravel())
        surfaces = decode_binary_array(curves["average"])
        np.testing.assert_allclose(
            surfaces[m], expected.centered[0], rtol=1e-6, atol=1e-7
        )
    inspector.figure("effects_models")
    inspector.close()


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_rapid_changes_end_on_the_last_settings(classification, seed):
    """Seeded random changes of the panel's settings and the selection, as
    fast as they come: it ends done (never "running"), drawing what the
    last settings ask, with the engine's numbers."""
    from inspectwidgets import accumulated_local_effects

    models, X, y = classification
    inspector = ModelInspector(
        models, X, y, n_repeats=1, random_state=0, selected_features=["a"],
        max_rows=120,
    )  # fmt: skip
    rng = np.random.RandomState(seed)
    selections = [["a"], ["b"], ["n"], ["a", "b"], ["b", "n"]]
    for _ in range(16):
        change = rng.randint(4)
        if change == 0:
            inspector.selected_features = selections[rng.randint(len(selections))]
        elif change == 1:
            _ask(inspector, ice=bool(rng.randint(2)))
        elif change == 2:
            _ask(inspector, centered=bool(rng.randint(2)))
        else:
            _ask(inspector, effect=["pd", "ale"][rng.randint(2)])
    # Other rows: the panel made again keeps what it was asked to draw.
    view = inspector.views["effects_models"]
    settings = (view.effect, view.ice, view.centered)
    inspector.max_rows = 100
    view = inspector.views["effects_models"]
    assert (view.effect, view.ice, view.centered) == settings
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    features = inspector.selected_features
    curves = inspector._effects_models["state"]["_models_curves"]
    assert curves["features"] == features
    assert curves["effect"] == view.effect
    assert curves["kind"] == ("surface" if len(features) == 2 else "curves")
    one_pd = len(features) == 1 and view.effect == "pd"
    assert (curves.get("individual") is not None) == (one_pd and view.ice)
    frame = view.to_frame()
    rows = view._X
    numeric = rows.astype({"n": float})
    for name, model in models.items():
        ours = frame[frame["model"] == name]
        if view.effect == "ale":
            expected = accumulated_local_effects(
                model, numeric, features, grid_resolution=50
            ).centered[0]
            assert_blas_close(ours["ale"], expected.ravel())
            continue
        expected = partial_dependence(
            model, numeric, features, grid_resolution=50, method="brute"
        )["average"][0]
        if one_pd and view.ice:
            ours = ours[ours["row"] == ours["row"].iloc[0]]
        if one_pd and view.centered:
            expected = expected - expected[0]
        assert_blas_close(ours["average"], expected.ravel(), scale=1.0)
    inspector.close()
