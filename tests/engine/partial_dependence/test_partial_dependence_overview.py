"""partial_dependence_overview: every feature's average equals scikit-learn's
partial_dependence of that feature alone (exactly for trees, to the BLAS
tolerance of tests/numerics.py elsewhere), ordered by importance; messy
columns give a panel saying why; the tree model is walked once for all."""

import threading

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.compose import make_column_transformer
from sklearn.ensemble import (
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from inspectwidgets import (
    iter_partial_dependence_overview,
    partial_dependence,
    partial_dependence_overview,
)
from inspectwidgets.inspection._partial_dependence.overview_result import pd_spread
from inspectwidgets.inspection._shortcuts.trees import models as tree_models

from numerics import assert_blas_close
from sklearn_reference import sklearn_partial_dependence as sklearn_pd


def _numeric(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 5)), columns=[f"f{i}" for i in range(5)])
    y = 3 * X["f0"] + X["f1"] ** 2 - 0.5 * X["f2"] + rng.normal(scale=0.1, size=n)
    return X, y


def _sklearn_average(model, X, feature, **kwargs):
    return sklearn_pd(
        model, X, [feature], method="brute", kind="average", grid_resolution=20,
        **kwargs,
    )  # fmt: skip


@pytest.mark.parametrize(
    "model",
    [
        HistGradientBoostingRegressor(max_iter=30, random_state=0),
        RandomForestRegressor(n_estimators=15, max_depth=6, random_state=0),
    ],
    ids=["hgb", "forest"],
)
def test_tree_models_equal_sklearn_bit_for_bit(model):
    X, y = _numeric()
    model.fit(X, y)
    overview = partial_dependence_overview(model, X)
    assert len(overview.panels) == 5 and overview.complete
    for feature in X.columns:
        panel = overview[feature]
        expected = _sklearn_average(model, X, feature)
        assert_array_equal(panel.grid_values, expected["grid_values"][0])
        assert_array_equal(panel.average, expected["average"])


def test_categorical_feature_and_nan_on_histogram_boosting():
    rng = np.random.default_rng(1)
    n = 400
    X = pd.DataFrame(
        {
            "x": rng.normal(size=n),
            "c": pd.Categorical(rng.choice(["a", "b", "c"], n)),
        }
    )
    X.loc[rng.random(n) < 0.1, "x"] = np.nan
    y = np.nan_to_num(X["x"].to_numpy(), nan=2.0) + (X["c"] == "b") * 3
    model = HistGradientBoostingRegressor(
        max_iter=20, categorical_features="from_dtype", random_state=0
    ).fit(X, y)
    overview = partial_dependence_overview(model, X, categorical_features=["c"])
    # sklearn's grid for "x" is all NaN with missing values (its percentiles);
    # ours is the observed values' grid plus the missing point. Compare the
    # observed part with sklearn on the same grid, the missing point with the
    # single-feature engine, and the categories with sklearn directly.
    x = overview["x"]
    assert x.missing and np.isnan(x.grid_values[-1])
    expected = sklearn_pd(
        model, X, ["x"], method="brute", kind="average",
        custom_values={"x": x.grid_values[:-1]},
    )  # fmt: skip
    assert_array_equal(x.average[:, :-1], expected["average"])
    single = partial_dependence(
        model, X, ["x"], method="brute", grid_resolution=20, missing="observed"
    )
    assert_array_equal(x.average, single["average"])
    c = overview["c"]
    assert c.categorical
    expected = _sklearn_average(model, X, "c", categorical_features=["c"])
    assert_array_equal(c.grid_values, expected["grid_values"][0])
    assert_array_equal(c.average, expected["average"])
    assert c.spread == pytest.approx(np.ptp(c.average) / 4)


def _churn(n=300, seed=2):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "tenure": rng.integers(0, 72, n).astype(float),
            "plan": rng.choice(["basic", "plus", "pro"], n).astype(object),
            "charges": rng.gamma(2.0, 30.0, n),
        }
    )
    score = X["charges"] / 30 - X["tenure"] / 24 + (X["plan"] == "pro")
    return X, score


def _one_hot(model):
    encode = make_column_transformer(
        (OneHotEncoder(handle_unknown="ignore"), ["plan"]),
        remainder=StandardScaler(),
    )
    return make_pipeline(encode, model)


def test_pipeline_one_hot_ridge_within_blas_tolerance():
    X, y = _churn()
    model = _one_hot(Ridge()).fit(X, y)
    overview = partial_dependence_overview(model, X, categorical_features=["plan"])
    for feature in X.columns:
        expected = _sklearn_average(model, X, feature, categorical_features=["plan"])
        assert_array_equal(
            overview[feature].grid_values.astype(object),
            expected["grid_values"][0].astype(object),
        )
        assert_blas_close(overview[feature].average, expected["average"])


def test_multiclass_logistic_pipeline_keeps_every_class_in_order():
    X, score = _churn()
    y = np.digitize(score, np.quantile(score, [1 / 3, 2 / 3]))
    labels = np.array(["low", "mid", "high"])[y]
    model = _one_hot(LogisticRegression(max_iter=500)).fit(X, labels)
    overview = partial_dependence_overview(model, X, categorical_features=["plan"])
    # The first axis of every average is model.classes_, as scikit-learn's.
    assert overview.output_names == tuple(model.classes_)
    for feature in X.columns:
        expected = _sklearn_average(model, X, feature, categorical_features=["plan"])
        assert overview[feature].average.shape == (3, len(expected["grid_values"][0]))
        assert_blas_close(overview[feature].average, expected["average"])
    # One class chosen: that class's row of scikit-learn's.
    chosen = partial_dependence_overview(
        model, X, ["charges"], classes=["mid"], categorical_features=["plan"]
    )
    index = list(model.classes_).index("mid")
    expected = _sklearn_average(model, X, "charges")["average"][[index]]
    assert_blas_close(chosen["charges"].average, expected)


def test_binary_forest_classifier_is_the_positive_class():
    X, score = _numeric()
    y = (score > score.median()).astype(int)
    model = RandomForestClassifier(n_estimators=10, max_depth=5, random_state=0)
    model.fit(X, y)
    overview = partial_dependence_overview(model, X, ["f0", "f1"])
    assert overview.output_names == (1,)
    for feature in ("f0", "f1"):
        assert_array_equal(
            overview[feature].average, _sklearn_average(model, X, feature)["average"]
        )


def test_order_by_supplied_importances_or_by_the_pd_spread():
    X, y = _numeric()
    model = HistGradientBoostingRegressor(max_iter=30, random_state=0).fit(X, y)
    by_spread = partial_dependence_overview(model, X)
    assert by_spread.order_by == "pd_spread"
    spreads = [p.spread for p in by_spread.panels]
    assert spreads == sorted(spreads, reverse=True)
    # The spread is the sample std of the average (Greenwell et al.'s sd()).
    f0 = _sklearn_average(model, X, "f0")["average"][0]
    assert by_spread["f0"].spread == pytest.approx(np.std(f0, ddof=1), rel=1e-12)
    # y = 3 f0 + f1² - 0.5 f2: f0 moves the prediction most, f3 and f4 least.
    assert by_spread.features[0] == "f0"
    assert set(by_spread.features[3:]) == {"f3", "f4"}
    given = {"f0": 0.1, "f1": 0.5, "f2": 0.3, "f3": 0.0, "f4": 0.2}
    by_importance = partial_dependence_overview(model, X, importances=given)
    assert by_importance.order_by == "importance"
    assert by_importance.features == ("f1", "f2", "f4", "f0", "f3")
    assert by_importance["f1"].importance == 0.5
    listed = partial_dependence_overview(model, X, ["f3", "f4"], importances=[1.0, 2.0])
    assert listed.features == ("f4", "f3")


def test_pd_spread_by_hand():
    average = np.array([[1.0, 3.0, 2.0, 100.0]])
    assert pd_spread(average, categorical=False, missing=True) == pytest.approx(1.0)
    assert pd_spread(average, categorical=True, missing=False) == pytest.approx(99 / 4)
    assert pd_spread(np.array([[5.0]]), categorical=False, missing=False) == 0.0


def test_bad_arguments_raise_naming_them():
    X, y = _numeric()
    model = Ridge().fit(X, y)
    with pytest.raises(ValueError, match="'nope'"):
        partial_dependence_overview(model, X, ["f0", "nope"])
    with pytest.raises(ValueError, match="no value for feature 'f1'"):
        partial_dependence_overview(model, X, ["f0", "f1"], importances={"f0": 1.0})
    with pytest.raises(ValueError, match="one value per feature"):
        partial_dependence_overview(model, X, ["f0", "f1"], importances=[1.0])
    with pytest.raises(ValueError, match="finite; got 'f1'"):
        partial_dependence_overview(model, X, ["f0", "f1"], importances=[1.0, np.nan])
    with pytest.raises(ValueError, match="grid_resolution"):
        partial_dependence_overview(model, X, grid_resolution=1)


def test_tree_model_flattened_and_walked_once_for_all_features(monkeypatch):
    X, y = _numeric(n=500)
    model = HistGradientBoostingRegressor(max_iter=20, random_state=0).fit(X, y)
    calls = {"of": 0, "predict": 0}
    original_of = tree_models.TreeModel.of.__func__
    original_predict = tree_models.TreeModel.predict

    def counting_of(cls, *args, **kwargs):
        calls["of"] += 1
        return original_of(cls, *args, **kwargs)

    def counting_predict(self, *args, **kwargs):
        calls["predict"] += 1
        return original_predict(self, *args, **kwargs)

    monkeypatch.setattr(tree_models.TreeModel, "of", classmethod(counting_of))
    monkeypatch.setattr(tree_models.TreeModel, "predict", counting_predict)
    overview = partial_dependence_overview(model, X)
    assert overview.complete
    # One flattening, and one walk (all five features' grid points in one
    # predict call: the rows fit one block at this size).
    assert calls == {"of": 1, "predict": 1}
    calls.update(of=0, predict=0)
    for feature in X.columns:
        partial_dependence(model, X, [feature], method="brute", grid_resolution=20)
    assert calls["of"] == 5


def test_streamed_ends_in_the_one_shot_and_cancel_keeps_panels():
    X, y = _numeric()
    model = Ridge().fit(X, y)
    results = list(iter_partial_dependence_overview(model, X, max_memory=2**20))
    assert len(results) > 1
    assert [r.n_done for r in results] == sorted(r.n_done for r in results)
    final = partial_dependence_overview(model, X)
    assert results[-1].features == final.features
    for a, b in zip(results[-1].panels, final.panels, strict=True):
        assert_blas_close(a.average, b.average)
    cancel = threading.Event()
    seen = []

    def stop_after_first(result):
        seen.append(result)
        cancel.set()

    partial = partial_dependence_overview(
        model, X, max_memory=2**20, cancel=cancel, callback=stop_after_first
    )
    assert len(seen) == 1 and not partial.complete
    done = [p for p in partial.panels if p.average is not None]
    assert done and all(np.isfinite(p.average).all() for p in done)


def test_to_frame_has_a_row_per_feature_value_and_output():
    X, y = _numeric()
    model = Ridge().fit(X, y)
    overview = partial_dependence_overview(model, X, ["f0", "f1"])
    frame = overview.to_frame()
    assert len(frame) == sum(len(p.grid_values) for p in overview.panels)
    assert list(frame.groupby("rank", sort=True)["feature"].first()) == list(
        overview.features
    )
