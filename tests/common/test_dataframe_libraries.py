"""DataFrames beyond pandas: a polars DataFrame keeps its column names in
results, in selection by name, in the widgets and in a saved review, with no
"X does not have valid feature names" warning, and gives the numbers the
same table gives as a pandas DataFrame (scikit-learn turns such a frame into
an array and loses the names)."""

import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestRegressor

from inspectwidgets import (
    ModelInspector,
    PermutationImportanceWidget,
    accumulated_local_effects,
    partial_dependence,
    permutation_importance,
)

polars = pytest.importorskip("polars")

N = 200
rng = np.random.default_rng(0)
COLUMNS = {
    "mean radius": rng.normal(size=N),
    "age (years)": rng.integers(20, 70, N),
    "income": np.where(rng.random(N) < 0.1, np.nan, rng.normal(size=N)),
}
TARGET = 2 * COLUMNS["mean radius"] + COLUMNS["age (years)"] / 20
NAMES = list(COLUMNS)


def _polars():
    return polars.DataFrame(COLUMNS)


LIBRARIES = {"polars": _polars}


@pytest.fixture(scope="module")
def model():
    return RandomForestRegressor(n_estimators=10, random_state=0).fit(
        pd.DataFrame(COLUMNS), TARGET
    )


def _no_feature_name_warning(record):
    messages = [str(w.message) for w in record]
    assert not [m for m in messages if "feature names" in m], messages


@pytest.mark.parametrize("library", list(LIBRARIES))
def test_functions_keep_the_names_and_pandas_numbers(library, model):
    X = LIBRARIES[library]()
    frame = pd.DataFrame(COLUMNS)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        ours = permutation_importance(model, X, TARGET, n_repeats=3, random_state=0)
        effect = partial_dependence(
            model, X, ["income"], grid_resolution=7, missing="observed"
        )
        ale = accumulated_local_effects(model, X, ["age (years)"], grid_resolution=5)
    _no_feature_name_warning(record)
    assert list(ours.feature_names) == NAMES
    pandas_run = permutation_importance(
        model, frame, TARGET, n_repeats=3, random_state=0
    )
    assert_array_equal(ours.importances, pandas_run.importances)
    pandas_effect = partial_dependence(
        model, frame, ["income"], grid_resolution=7, missing="observed"
    )
    assert_array_equal(effect["average"], pandas_effect["average"])
    assert list(ale.feature_names) == ["age (years)"]
    # The user's frame is left as it was.
    assert X.equals(LIBRARIES[library]())


def test_polars_categorical_column_stays_categorical():
    X = polars.DataFrame(
        {
            "x": rng.normal(size=N),
            "kind": polars.Series(
                rng.choice(["a", "b", None], N).tolist(), dtype=polars.Categorical
            ),
        }
    )
    y = (X["kind"] == "a").fill_null(False).to_numpy().astype(int)
    model = HistGradientBoostingClassifier(
        max_iter=10, categorical_features="from_dtype"
    ).fit(
        pd.DataFrame(
            {"x": X["x"].to_numpy(), "kind": pd.Categorical(X["kind"].to_list())}
        ),
        y,
    )
    effect = partial_dependence(model, X, ["kind"], missing="observed")
    # The categories, then the missing value as its own point.
    assert list(effect["grid_values"][0][:2]) == ["a", "b"]
    assert len(effect["grid_values"][0]) == 3


@pytest.mark.parametrize("library", list(LIBRARIES))
def test_widget_and_saved_review_show_the_names(library, model, tmp_path):
    X = LIBRARIES[library]()
    widget = PermutationImportanceWidget(model, X, TARGET, n_repeats=2, random_state=0)
    widget.wait(60)
    assert sorted(widget.to_frame()["feature"].unique()) == sorted(NAMES)
    widget.close()
    review = ModelInspector(
        model, X, TARGET, n_repeats=2, random_state=0, selected_features=["income"]
    )
    for _ in range(3):
        review.wait(60)
    assert review.selected_features == ["income"]
    page = review.save_html(tmp_path / "review.html").read_text(encoding="utf-8")
    for name in NAMES:
        assert name in page
    assert "x0" not in review.to_frame("importance")["feature"].tolist()
    review.close()
