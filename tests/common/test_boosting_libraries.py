"""LightGBM, XGBoost and CatBoost first-class: their scikit-learn estimators
on a messy table (a name with spaces, NaN, an integer column, a native
categorical column) for binary, multiclass and regression targets, through
the functions (scikit-learn's numbers, exactly: the same predictions and our
own reductions of them), the comparison (the library's own importances,
checked against each library's tree dump, written out here) and the
inspector with its saved page."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.compose import make_column_transformer
from sklearn.inspection import partial_dependence as sklearn_partial_dependence
from sklearn.inspection import permutation_importance as sklearn_importance
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

from inspectwidgets import (
    ModelInspector,
    accumulated_local_effects,
    compare_importances,
    interaction_strength,
    partial_dependence,
    permutation_importance,
)

lightgbm = pytest.importorskip("lightgbm")
xgboost = pytest.importorskip("xgboost")
catboost = pytest.importorskip("catboost")

N = 300
rng = np.random.default_rng(0)
TABLE = pd.DataFrame(
    {
        "mean radius": np.where(rng.random(N) < 0.1, np.nan, rng.normal(size=N)),
        "age": rng.integers(18, 80, N),
        "plan type": pd.Categorical(rng.choice(["basic", "pro", "team"], N)),
        "score": rng.normal(size=N),
    }
)
SIGNAL = (
    np.nan_to_num(TABLE["mean radius"].to_numpy())
    + 1.5 * (TABLE["plan type"] == "pro").to_numpy()
    + TABLE["score"].to_numpy()
)
TARGETS = {
    "binary": (SIGNAL + rng.normal(size=N) > 0.5).astype(int),
    "multiclass": pd.cut(SIGNAL, 3, labels=False).astype(int),
    "regression": SIGNAL + rng.normal(size=N),
}


def _model(library, task):
    classifier = task != "regression"
    if library == "lightgbm":
        kind = lightgbm.LGBMClassifier if classifier else lightgbm.LGBMRegressor
        return kind(n_estimators=15, verbose=-1)
    if library == "xgboost":
        kind = xgboost.XGBClassifier if classifier else xgboost.XGBRegressor
        return kind(n_estimators=15, enable_categorical=True, tree_method="hist")
    kind = catboost.CatBoostClassifier if classifier else catboost.CatBoostRegressor
    return kind(
        iterations=15, verbose=0, cat_features=["plan type"], allow_writing_files=False
    )


def _table(library):
    # CatBoost takes its categorical features as strings.
    if library == "catboost":
        return TABLE.assign(**{"plan type": TABLE["plan type"].astype(str)})
    return TABLE


LIBRARIES = ["lightgbm", "xgboost", "catboost"]
CASES = [(library, task) for library in LIBRARIES for task in TARGETS]


@pytest.fixture(scope="module", params=CASES, ids=[f"{a}-{b}" for a, b in CASES])
def fitted(request):
    library, task = request.param
    X, y = _table(library), TARGETS[task]
    return library, _model(library, task).fit(X, y), X, y


def test_permutation_importance_is_scikit_learns(fitted):
    _, model, X, y = fitted
    ours = permutation_importance(model, X, y, n_repeats=3, random_state=0)
    theirs = sklearn_importance(model, X, y, n_repeats=3, random_state=0)
    assert_array_equal(ours.importances, theirs.importances)
    assert list(ours.feature_names) == list(X.columns)


@pytest.mark.parametrize(
    "feature, options",
    [
        ("score", {"grid_resolution": 7, "kind": "both"}),
        ("plan type", {"categorical_features": ["plan type"], "kind": "average"}),
    ],
)
def test_partial_dependence_is_scikit_learns(fitted, feature, options):
    _, model, X, _ = fitted
    ours = partial_dependence(model, X, [feature], **options)
    theirs = sklearn_partial_dependence(model, X, [feature], **options)
    assert_array_equal(ours["average"], theirs["average"])
    if options["kind"] == "both":
        assert_array_equal(ours["individual"], theirs["individual"])


def test_effects_of_a_feature_with_missing_values(fitted):
    _, model, X, _ = fitted
    effect = partial_dependence(
        model, X, ["mean radius"], missing="observed", grid_resolution=5
    )
    # The missing value is its own last point, predicted by the model itself.
    assert np.isnan(effect["grid_values"][0][-1])
    assert np.isfinite(effect["average"]).all()
    ale = accumulated_local_effects(model, X, ["score"], grid_resolution=5)
    assert np.isfinite(ale.local_effects[0]).all()
    strength = interaction_strength(model, X.iloc[:60], features=["score", "age"])
    assert np.isfinite(strength["h_squared"]).all()
    assert "pair" in set(strength["kind"])


def _gain_from_dump(library, model, columns):
    """Each input's split gain summed over the library's own tree dump."""
    if library == "lightgbm":
        nodes = model.booster_.trees_to_dataframe()
        gain = nodes.dropna(subset=["split_feature"]).groupby("split_feature")[
            "split_gain"
        ]
    else:
        nodes = model.get_booster().trees_to_dataframe()
        gain = nodes[nodes["Feature"] != "Leaf"].groupby("Feature")["Gain"]
    names = model.booster_.feature_name() if library == "lightgbm" else columns
    totals = gain.sum().reindex(names, fill_value=0.0).to_numpy()
    return totals / totals.sum()


@pytest.mark.parametrize("library", ["lightgbm", "xgboost"])
def test_comparison_shows_the_librarys_split_gain(library):
    X, y = _table(library), TARGETS["multiclass"]
    model = _model(library, "multiclass").fit(X, y)
    table = compare_importances(model, X, y, X, y, n_repeats=2, random_state=0)
    table = table.loc[list(X.columns)]
    assert table["mdi"].isna().all() and table["relative_importance"].isna().all()
    assert_allclose(
        table["gain"], _gain_from_dump(library, model, list(X.columns)), rtol=1e-6
    )
    assert table["split_count"].sum() == pytest.approx(1.0)
    note = table.attrs["note"]
    assert {"lightgbm": "LightGBM", "xgboost": "XGBoost"}[library] in note
    assert "Split gain" in note


def test_comparison_adds_a_pipelines_one_hot_columns_gain():
    encode = make_column_transformer(
        (OneHotEncoder(sparse_output=False), ["plan type"]),
        remainder="passthrough",
    )
    pipeline = make_pipeline(
        encode, lightgbm.LGBMRegressor(n_estimators=15, verbose=-1)
    )
    X, y = TABLE, TARGETS["regression"]
    pipeline.fit(X, y)
    table = compare_importances(pipeline, X, y, X, y, n_repeats=2, random_state=0)
    gains = pipeline[-1].booster_.feature_importance(importance_type="gain")
    shares = gains / gains.sum()
    names = list(encode.get_feature_names_out())
    one_hot = [i for i, name in enumerate(names) if name.startswith("onehotencoder")]
    assert table.loc["plan type", "gain"] == pytest.approx(shares[one_hot].sum())


def test_comparison_shows_catboosts_prediction_values_change():
    X, y = _table("catboost"), TARGETS["regression"]
    model = _model("catboost", "regression").fit(X, y)
    table = compare_importances(model, X, y, X, y, n_repeats=2, random_state=0)
    # CatBoost's scikit-learn attribute: PredictionValuesChange, summing to 100.
    expected = pd.Series(model.feature_importances_ / 100, index=X.columns)
    assert_allclose(table["prediction_values_change"], expected[table.index])
    assert "PredictionValuesChange" in table.attrs["note"]


def test_inspector_reviews_a_lightgbm_model_and_saves_it(tmp_path):
    X, y = TABLE, TARGETS["multiclass"]
    model = _model("lightgbm", "multiclass").fit(X, y)
    review = ModelInspector(
        model, X, y, X_train=X, y_train=y, n_repeats=2, random_state=0
    )
    for _ in range(3):
        review.wait(120)
    review.view = "comparison"
    for _ in range(3):
        review.wait(120)
    frame = review.to_frame("comparison")
    assert frame["gain"].notna().all()
    page = review.save_html(tmp_path / "review.html").read_text(encoding="utf-8")
    assert "mean radius" in page and "Split gain" in page
    review.close()


@pytest.mark.parametrize("task", ["binary", "regression"])
def test_inspector_draws_a_catboost_models_held_out_interval(task):
    # Its default scoring is CatBoost's own score (accuracy or R² by another
    # name): the Importance view resamples it as it resamples those; it drew
    # a CatBoost model without its interval.
    X, y = TABLE.drop(columns="plan type"), TARGETS[task]
    model = _model("catboost", task).set_params(cat_features=None).fit(X, y)
    review = ModelInspector(model, X, y, n_repeats=2, random_state=0)
    review.wait(120)
    interval = review.views["importance"].result.interval()
    assert interval.shape == (X.shape[1], 2) and np.isfinite(interval).all()
    review.close()
    # scikit-learn passes a sample_weight to CatBoost's score, which refuses
    # it; the replay of that score refuses it alike.
    weights = np.ones(len(y))
    with pytest.raises(TypeError, match="sample_weight"):
        sklearn_importance(model, X, y, n_repeats=1, sample_weight=weights)
    with pytest.raises(TypeError, match="sample_weight"):
        permutation_importance(model, X, y, n_repeats=1, sample_weight=weights)
