"""ModelInspector given several models: the views review the first, the
header scores every one on the held-out rows beside the one dummy."""

import numpy as np
import pandas as pd
import pytest
from drawn_pairs import drawn_pairs
from mixed_columns import mixed_columns, mixed_regressors
from numpy.testing import assert_allclose
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import get_scorer
from sklearn.model_selection import train_test_split

from inspectwidgets import ModelInspector

from numerics import assert_blas_close

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


# The Importance view of several models ----------------------------------------


def _importances_by_sklearn(model, X, y, n_repeats, scoring):
    """scikit-learn's permutation importances, (n_features, n_repeats)."""
    from sklearn.inspection import permutation_importance

    return permutation_importance(
        model, X, y, n_repeats=n_repeats, random_state=0, scoring=scoring
    ).importances


def test_importance_view_is_one_run_of_every_model(classification, monkeypatch):
    from inspectwidgets.widgets import _inspector_importance

    models, X_train, y_train, X_test, y_test = classification
    runs = []
    original = _inspector_importance.models_run

    def counted(*args, **kwargs):
        runs.append(kwargs["n_repeats"])
        return original(*args, **kwargs)

    monkeypatch.setattr(_inspector_importance, "models_run", counted)
    inspector = ModelInspector(models, X_test, y_test, n_repeats=4, random_state=0)
    assert inspector.wait(TIMEOUT)["importance"] == "done"
    assert runs == [4]
    frame = inspector.to_frame("importance")
    assert list(frame["model"].unique()) == ["forest", "logistic"]
    for name, model in models.items():
        rows = frame[frame["model"] == name]
        ours = rows.pivot(index="feature", columns="repeat", values="importance")
        expected = _importances_by_sklearn(model, X_test, y_test, 4, "accuracy")
        assert_allclose(ours.loc[list(X_test.columns)].to_numpy(), expected)
    # The review opens on the reviewed model's most important feature.
    forest = frame[frame["model"] == "forest"].groupby("feature").importance.mean()
    assert inspector.selected_features == [forest.idxmax()]
    inspector.close()


def test_the_chart_flags_only_where_the_paired_interval_excludes_zero(
    classification,
):
    from scipy import stats

    from inspectwidgets.widgets._serialization import decode_binary_array

    models, X_train, y_train, X_test, y_test = classification
    n_repeats = 5
    inspector = ModelInspector(
        models, X_test, y_test, n_repeats=n_repeats, random_state=0
    )
    inspector.wait(TIMEOUT)
    chart = inspector._importance["state"]["_models_chart"]
    assert chart["models"] == ["forest", "logistic"]
    features = list(X_test.columns)
    order = [features.index(f) for f in chart["features"]]
    forest, logistic = (
        _importances_by_sklearn(models[name], X_test, y_test, n_repeats, "accuracy")
        for name in ("forest", "logistic")
    )
    mean = decode_binary_array(chart["mean"])
    assert_allclose(mean[0], forest.mean(axis=1)[order], rtol=1e-6)
    assert_allclose(mean[1], logistic.mean(axis=1)[order], rtol=1e-6)
    # The paired t-interval over repeats, written out from its definition.
    differences = (forest - logistic)[order]
    half = stats.t.ppf(0.975, n_repeats - 1) * (
        differences.std(axis=1, ddof=1) / np.sqrt(n_repeats)
    )
    low, high = differences.mean(axis=1) - half, differences.mean(axis=1) + half
    [difference] = chart["differences"]
    assert (difference["first"], difference["second"]) == ("forest", "logistic")
    assert_allclose(decode_binary_array(difference["low"]), low, rtol=1e-5, atol=1e-7)
    assert_allclose(decode_binary_array(difference["high"]), high, rtol=1e-5, atol=1e-7)
    assert difference["differs"] == list((low > 0) | (high < 0))
    assert any(difference["differs"]) and not all(difference["differs"])
    inspector.close()


def test_one_repeat_flags_nothing(classification):
    # No interval from one repeat, so no flag.
    models, X_train, y_train, X_test, y_test = classification
    inspector = ModelInspector(models, X_test, y_test, n_repeats=1, random_state=0)
    inspector.wait(TIMEOUT)
    [difference] = inspector._importance["state"]["_models_chart"]["differences"]
    assert not any(difference["differs"])
    inspector.close()


def test_the_chart_streams_every_round_and_cancel_stops_it(classification):
    models, X_train, y_train, X_test, y_test = classification
    inspector = ModelInspector(
        models, X_test, y_test, n_repeats=3, random_state=0, run=False
    )
    seen = []
    inspector.observe(
        lambda change: seen.append(
            change.new["state"].get("_models_chart", {}).get("repeats_done")
        ),
        names=["_importance"],
    )
    inspector.run()
    inspector.wait(TIMEOUT)
    assert {1, 2, 3} <= set(seen)
    # Stop as the front end's button does: the run ends, never "running".
    inspector.n_repeats = 200
    inspector._on_message(
        None, {"view": "importance", "set": {"_stop_requests": 1}}, []
    )
    status = inspector.wait(TIMEOUT)["importance"]
    assert status in ("cancelled", "done")
    view = inspector.views["importance"]
    assert view.result.n_repeats_done == view._models_chart["repeats_done"]
    inspector.close()


def test_scorer_switch_redraws_without_a_run(classification):
    models, X_train, y_train, X_test, y_test = classification
    inspector = ModelInspector(
        models, X_test, y_test, scoring=["accuracy", "roc_auc"], n_repeats=2,
        random_state=0,
    )  # fmt: skip
    inspector.wait(TIMEOUT)
    view = inspector.views["importance"]
    result = view.result
    inspector._on_message(
        None, {"view": "importance", "set": {"scorer": "roc_auc"}}, []
    )
    assert view.result is result
    assert inspector._importance["state"]["_models_chart"]["scorer"] == "roc_auc"
    inspector.close()


def test_several_models_refuse_the_conditional_method(classification):
    models, X_train, y_train, X_test, y_test = classification
    with pytest.raises(ValueError, match="method: several models.*'conditional'"):
        ModelInspector(models, X_test, y_test, method="conditional", run=False)


def test_several_models_on_messy_data():
    from sklearn.ensemble import HistGradientBoostingRegressor

    X, y, rng = mixed_columns(240)
    y = y + 0.1 * rng.normal(size=len(y))
    kwargs = dict(categorical_features="from_dtype", random_state=0)
    shallow = HistGradientBoostingRegressor(max_iter=10, **kwargs).fit(X, y)
    deep = HistGradientBoostingRegressor(max_iter=60, **kwargs).fit(X, y)
    before = X.copy()
    inspector = ModelInspector(
        {"shallow": shallow, "deep": deep}, X, y, n_repeats=2, random_state=0
    )
    assert inspector.wait(TIMEOUT)["importance"] == "done"
    frame = inspector.to_frame("importance")
    assert set(frame["model"]) == {"shallow", "deep"}
    assert set(frame["feature"]) == set(X.columns)
    pd.testing.assert_frame_equal(X, before)
    inspector.figure("importance")
    # Every model's curve of a categorical feature, on its categories.
    inspector.selected_features = ["plan"]
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    curves = inspector._effects_models["state"]["_models_curves"]
    assert curves["grid"] is None and curves["labels"] == ["basic", "pro", "team"]
    inspector.figure("effects_models")
    # A feature with NaN: its grid from the observed values, NaN at its end
    # (the Effects view's missing point), the same for every model.
    inspector.selected_features = ["x"]
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    frame = inspector.to_frame("effects_models")
    grids = [rows["x"].to_numpy() for _, rows in frame.groupby("model", sort=False)]
    np.testing.assert_array_equal(grids[0], grids[1])
    assert np.isnan(grids[0][-1]) and np.isfinite(grids[0][:-1]).all()
    pd.testing.assert_frame_equal(X, before)
    inspector.close()


def test_the_figure_draws_every_pair_the_chart_flags():
    # Three models on messy columns: the figure's difference panel has the
    # reviewed model against each other one, as the chart, not the first only.
    from scipy import stats

    X, y, rng = mixed_columns(240)
    y = y + 0.3 * X["f"].fillna(0).to_numpy(float) + 0.2 * rng.normal(size=len(y))
    models = mixed_regressors(X, y)
    before = X.copy()
    n_repeats = 4
    inspector = ModelInspector(
        models, X, y, scoring="r2", n_repeats=n_repeats, random_state=0
    )
    assert inspector.wait(TIMEOUT)["importance"] == "done"
    theirs = {
        name: _importances_by_sklearn(model, X, y, n_repeats, "r2")
        for name, model in models.items()
    }
    result = inspector.views["importance"].result
    for reviewed in ("forest", "ridge"):
        inspector.reviewed = reviewed
        figure = inspector.figure("importance")
        drawn = drawn_pairs(figure)
        chart = inspector._importance["state"]["_models_chart"]
        charted = [(d["first"], d["second"]) for d in chart["differences"]]
        others = [name for name in models if name != reviewed]
        assert list(drawn) == charted == [(reviewed, other) for other in others]
        for (first, second), marks in drawn.items():
            rows = [list(X.columns).index(f) for f in marks["features"]]
            assert sorted(rows) == list(range(X.shape[1]))
            paired = result.paired_difference(first, second, "r2")
            assert_allclose(marks["mean"], paired.mean[rows], rtol=0, atol=0)
            assert_allclose(marks["low"], paired.interval[rows, 0], rtol=1e-12)
            assert_allclose(marks["high"], paired.interval[rows, 1], rtol=1e-12)
            np.testing.assert_array_equal(marks["flagged"], paired.differs[rows])
            # scikit-learn's importances, the t-interval written out.
            differences = (theirs[first] - theirs[second])[rows]
            half = stats.t.ppf(0.975, n_repeats - 1) * (
                differences.std(axis=1, ddof=1) / np.sqrt(n_repeats)
            )
            assert_blas_close(marks["mean"], differences.mean(axis=1))
            assert_blas_close(marks["low"], differences.mean(axis=1) - half)
            assert_blas_close(marks["high"], differences.mean(axis=1) + half)
        assert any(np.concatenate([m["flagged"] for m in drawn.values()]))
    pd.testing.assert_frame_equal(X, before)
    inspector.close()


# Every model's Effects ---------------------------------------------------------


def test_every_models_partial_dependence_on_one_grid(classification):
    from sklearn.inspection import partial_dependence

    models, X_train, y_train, X_test, y_test = classification
    inspector = ModelInspector(
        models, X_test, y_test, n_repeats=2, random_state=0, selected_features=["b"]
    )
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    frame = inspector.to_frame("effects_models")
    assert list(frame["model"].unique()) == ["forest", "logistic"]
    grids = [rows["b"].to_numpy() for _, rows in frame.groupby("model", sort=False)]
    np.testing.assert_array_equal(grids[0], grids[1])
    for name, model in models.items():
        expected = partial_dependence(
            model, X_test, ["b"], kind="average", grid_resolution=50, method="brute"
        )
        rows = frame[frame["model"] == name]
        assert_allclose(rows["b"], expected["grid_values"][0])
        assert_allclose(rows["average"], expected["average"][0], rtol=1e-10)
    # The reviewed model's line is the Effects view's average.
    # (Its to_frame has every curve it draws, the average's first.)
    effects = inspector.to_frame("effects")
    effects = effects[effects["curve"] == "average"]
    forest = frame[frame["model"] == "forest"]
    assert_allclose(forest["b"], effects["b"].astype(float))
    assert_allclose(forest["average"], effects["value"])
    # One feature again: its curves.
    inspector.selected_features = ["c"]
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    curves = inspector._effects_models["state"]["_models_curves"]
    assert curves["features"] == ["c"]
    assert set(inspector.to_frame("effects_models").columns) == {
        "model", "c", "average",
    }  # fmt: skip
    inspector.close()


def test_one_model_has_no_every_model_effects(classification):
    models, X_train, y_train, X_test, y_test = classification
    inspector = ModelInspector(models["forest"], X_test, y_test, run=False)
    assert "effects_models" not in inspector.views
    inspector.close()


def test_every_models_effects_stop_with_cancel(classification):
    models, X_train, y_train, X_test, y_test = classification
    inspector = ModelInspector(
        models, X_test, y_test, n_repeats=2, random_state=0, run=False,
        selected_features=["a"],
    )  # fmt: skip
    inspector.run()
    inspector.cancel()
    status = inspector.wait(TIMEOUT)
    assert status["effects_models"] in ("cancelled", "done")
    assert status["importance"] in ("cancelled", "done")
    # Shown again with other settings: it computes again, to the end.
    inspector.selected_features = ["b"]
    assert inspector.wait(TIMEOUT)["effects_models"] == "done"
    assert inspector._effects_models["state"]["_models_curves"]["features"] == ["b"]
    inspector.close()
