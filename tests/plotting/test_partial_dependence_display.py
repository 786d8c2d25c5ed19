"""The partial dependence Display draws the result it is given."""

import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from sklearn.compose import make_column_transformer  # noqa: E402
from sklearn.datasets import load_diabetes, load_iris  # noqa: E402
from sklearn.ensemble import RandomForestRegressor  # noqa: E402
from sklearn.linear_model import LogisticRegression, Ridge  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import OneHotEncoder  # noqa: E402

from inspectwidgets import PartialDependenceDisplay, partial_dependence  # noqa: E402


@pytest.fixture(scope="module")
def forest():
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    return RandomForestRegressor(n_estimators=10, random_state=0).fit(X, y), X


def test_curve_with_ice_lines_and_average(forest):
    model, X = forest
    display = PartialDependenceDisplay.from_estimator(
        model, X, ["bmi"], kind="both", n_ice=15, grid_resolution=12, random_state=0
    )
    result = display.result
    *ice, average = display.lines_
    assert len(ice) == 15
    np.testing.assert_allclose(average.get_ydata(), result.average[0])
    np.testing.assert_allclose(average.get_xdata(), result.grid_values[0])
    assert display.ax_.get_xlabel() == "bmi"
    assert len(display.deciles_vlines_.get_segments()) == 9
    assert display.contours_ is None and display.heatmaps_ is None
    plt.close(display.figure_)


def test_surface_of_two_features(forest):
    model, X = forest
    result = partial_dependence(
        model, X, ["bmi", "bp"], grid_resolution=8, return_result=True
    )
    display = PartialDependenceDisplay(result).plot()
    assert display.ax_.get_ylabel() == "bp" and len(display.figure_.axes) == 2
    assert display.contours_ in display.ax_.collections
    assert display.heatmaps_ is None and display.lines_ == []
    assert display.deciles_vlines_ is None
    plt.close(display.figure_)


def test_needs_a_result():
    with pytest.raises(TypeError, match="PartialDependenceResult"):
        PartialDependenceDisplay({"average": np.zeros(3)})


def test_surface_with_a_categorical_feature_draws_cells():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {"plan": rng.choice(["basic", "plus", "pro"], 200), "age": rng.normal(size=200)}
    )
    y = (X["plan"] == "pro") * 2.0 + X["age"]
    encode = make_column_transformer(
        (OneHotEncoder(), ["plan"]), remainder="passthrough"
    )
    model = make_pipeline(encode, Ridge()).fit(X, y)
    result = partial_dependence(
        model, X, ["plan", "age"], categorical_features=["plan"], grid_resolution=5,
        return_result=True,
    )  # fmt: skip
    display = PartialDependenceDisplay(result).plot()
    labels = [t.get_text() for t in display.ax_.get_xticklabels()]
    assert labels == ["basic", "plus", "pro"]
    (mesh,) = display.ax_.collections
    assert display.heatmaps_ is mesh and display.contours_ is None
    np.testing.assert_allclose(mesh.get_array().reshape(5, 3), result.average[0].T)
    plt.close(display.figure_)


def test_more_than_two_features_is_refused(forest):
    model, X = forest
    result = partial_dependence(
        model, X, ["bmi", "bp", "s5"], grid_resolution=3, return_result=True
    )
    with pytest.raises(ValueError, match="one feature .* or two .* has 3"):
        PartialDependenceDisplay(result).plot()


def test_target_is_a_class_label_or_its_str():
    X, y = load_iris(return_X_y=True, as_frame=True)
    model = LogisticRegression(max_iter=1000).fit(X, y)
    result = partial_dependence(
        model, X, ["sepal width (cm)"], grid_resolution=6, return_result=True
    )
    for target, index in ((1, 1), ("1", 1), (None, 2)):
        display = PartialDependenceDisplay(result).plot(target=target)
        (line,) = display.lines_
        np.testing.assert_allclose(line.get_ydata(), result.average[index])
        plt.close(display.figure_)
    with pytest.raises(ValueError, match=r"classes \[0, 1, 2\].*got 3"):
        PartialDependenceDisplay(result).plot(target=3)


def test_target_of_a_regressor_is_an_output_index(forest):
    model, X = forest
    result = partial_dependence(
        model, X, ["bmi"], grid_resolution=4, return_result=True
    )
    display = PartialDependenceDisplay(result).plot(target=0)
    plt.close(display.figure_)
    with pytest.raises(ValueError, match="index of an output .*got 'bmi'"):
        PartialDependenceDisplay(result).plot(target="bmi")


def test_from_estimator_checks_correlation_unless_told_not(forest):
    # The function warns of nothing by default (as scikit-learn's); the
    # Display, ours, turns the check on.
    model, X = forest
    with pytest.warns(UserWarning, match="'s1' is strongly correlated with 's2'"):
        display = PartialDependenceDisplay.from_estimator(
            model, X, ["s1"], grid_resolution=5
        )
    assert [c.partner for c in display.result.correlated][:1] == ["s2"]
    assert display.ax_.get_xlabel().endswith("read with care)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet = PartialDependenceDisplay.from_estimator(
            model, X, ["s1"], grid_resolution=5, correlation_threshold=None
        )
    assert quiet.result.correlated == () and quiet.ax_.get_xlabel() == "s1"
    plt.close("all")


@pytest.fixture(scope="module")
def with_missing():
    """A model that takes NaN, on a numeric column with missing values and a
    category column with missing values; a missing `a` predicts high."""
    from sklearn.ensemble import HistGradientBoostingRegressor

    rng = np.random.default_rng(0)
    n = 400
    X = pd.DataFrame(
        {
            "a": rng.normal(size=n),
            "b": rng.normal(size=n),
            "c": pd.Categorical(rng.choice(["x", "y", None], n)),
        }
    )
    X.loc[rng.random(n) < 0.1, "a"] = np.nan
    y = np.nan_to_num(X["a"].to_numpy(), nan=3.0) + X["b"]
    model = HistGradientBoostingRegressor(
        categorical_features="from_dtype", random_state=0
    ).fit(X, y)
    return model, X


def test_missing_point_is_drawn_apart_from_the_curve(with_missing):
    model, X = with_missing
    display = PartialDependenceDisplay.from_estimator(
        model, X, "a", kind="both", missing="observed", grid_resolution=10
    )
    # The predictions with `a` missing, computed here from the model.
    blanked = X.assign(a=np.nan)
    expected_ice = model.predict(blanked)
    dots, diamond = display.missing_lines_
    np.testing.assert_allclose(dots.get_ydata(), expected_ice, rtol=1e-12)
    np.testing.assert_allclose(diamond.get_ydata(), [expected_ice.mean()], rtol=1e-12)
    # Right of every observed grid value, ticked "missing", and not on the curve.
    observed = display.result.grid_values[0][:-1]
    assert diamond.get_xdata()[0] > np.nanmax(observed)
    labels = [t.get_text() for t in display.ax_.get_xticklabels()]
    assert labels[-1] == "missing" and labels.count("missing") == 1
    average = display.lines_[-1]
    assert np.isfinite(average.get_xdata()).all() and len(average.get_xdata()) == 10
    plt.close("all")


def test_missing_category_and_surface_with_missing_values(with_missing):
    model, X = with_missing
    curve = PartialDependenceDisplay.from_estimator(
        model, X, "c", categorical_features=["c"], missing="observed"
    )
    assert [t.get_text() for t in curve.ax_.get_xticklabels()] == ["x", "y", "missing"]
    assert curve.missing_lines_ == []
    surface = PartialDependenceDisplay.from_estimator(
        model, X, ("a", "c"), categorical_features=["c"], missing="observed",
        grid_resolution=8,
    )  # fmt: skip
    # The numeric feature's missing point has no place on a surface: its
    # column is left out; the category keeps its "missing" row.
    mesh = surface.heatmaps_.get_array()
    assert mesh.shape == (3, 8) and np.isfinite(mesh).all()
    assert [t.get_text() for t in surface.ax_.get_yticklabels()][-1] == "missing"
    plt.close("all")


def test_ice_bands_are_the_curves_percentiles(with_missing):
    """ice="bands": the 5-95% and 25-75% bands and the median of the rows'
    predictions at each grid value, computed here from the model; the
    missing point keeps its average diamond, without the ICE dots."""
    model, X = with_missing
    display = PartialDependenceDisplay.from_estimator(
        model, X, "a", ice="bands", missing="observed", grid_resolution=8
    )
    grid = display.result.grid_values[0][:-1]
    ice = np.column_stack([model.predict(X.assign(a=v)) for v in grid])
    for band, (low, high) in zip(display.bands_, [(5, 95), (25, 75)], strict=True):
        # The filled polygon's corners: (grid value, low) and (grid value, high).
        corners = {tuple(v) for v in np.round(band.get_paths()[0].vertices, 10)}
        for q in (low, high):
            edge = np.round(np.c_[grid, np.percentile(ice, q, axis=0)], 10)
            assert {tuple(v) for v in edge} <= corners
    median = display.lines_[0]
    np.testing.assert_allclose(
        median.get_ydata(), np.percentile(ice, 50, 0), rtol=1e-12
    )
    np.testing.assert_allclose(median.get_xdata(), grid)
    [diamond] = display.missing_lines_
    np.testing.assert_allclose(
        diamond.get_ydata(), [model.predict(X.assign(a=np.nan)).mean()], rtol=1e-12
    )
    assert "ICE 5-95%" in [t.get_text() for t in display.ax_.get_legend().get_texts()]
    # A category's bands are bars at its place, with the missing category's.
    bars = PartialDependenceDisplay.from_estimator(
        model, X, "c", ice="bands", categorical_features=["c"], missing="observed"
    )
    categories = bars.result.grid_values[0]
    levels = X["c"].cat.categories
    ice = np.column_stack(
        [
            model.predict(X.assign(c=pd.Categorical([v] * len(X), categories=levels)))
            for v in categories
        ]
    )
    wide = bars.bands_[0].get_segments()
    np.testing.assert_allclose(
        [segment[:, 1] for segment in wide],
        np.c_[np.percentile(ice, 5, axis=0), np.percentile(ice, 95, axis=0)],
        rtol=1e-12,
    )
    assert [t.get_text() for t in bars.ax_.get_xticklabels()] == ["x", "y", "missing"]
    plt.close("all")


def test_subgroups_draw_each_groups_partial_dependence(with_missing):
    """Each subgroup's curve is the mean prediction over its rows with `a` set
    to each grid value; its legend says its size; a small group is grey and
    dashed; the missing point gets a diamond per group."""
    model, X = with_missing
    groups = np.where(X["b"] > 1.2, "high b", "rest")
    display = PartialDependenceDisplay.from_estimator(
        model, X, "a", subgroups=groups, missing="observed", grid_resolution=6
    )
    grid = display.result.grid_values[0]
    legend = [t.get_text() for t in display.ax_.get_legend().get_texts()]
    curves = [line for line in display.subgroup_lines_ if len(line.get_xdata()) > 1]
    for line, label in zip(curves, ["rest", "high b"], strict=True):
        rows = groups == label
        expected = [model.predict(X[rows].assign(a=v)).mean() for v in grid]
        np.testing.assert_allclose(line.get_ydata(), expected[:-1], rtol=1e-12)
        assert f"{label} (n={rows.sum():,}" in " ".join(legend)
    diamonds = [line for line in display.subgroup_lines_ if len(line.get_xdata()) == 1]
    assert len(diamonds) == 2
    assert display.lines_[-1].get_label() == "all rows"  # no ICE lines
    assert len(display.lines_) == 1
    few = np.where(np.arange(len(X)) < 10, "ten rows", "the others")
    small = PartialDependenceDisplay(display.result).plot(subgroups=few)
    [ten] = [line for line in small.subgroup_lines_ if "ten rows" in line.get_label()]
    assert "few rows" in ten.get_label() and ten.get_linestyle() == "--"
    with pytest.raises(ValueError, match='ice must be "lines", "bands" or "clusters"'):
        PartialDependenceDisplay(display.result).plot(ice="band")
    plt.close("all")


def test_from_estimator_draws_the_missing_point_as_the_widget_does():
    """Issue #52, item 9: `missing="observed"` unless given, as the widget
    computes; the missing point is the model's predictions with the feature
    missing, averaged over X's rows."""
    from sklearn.ensemble import HistGradientBoostingRegressor

    rng = np.random.default_rng(0)
    n = 400
    X = pd.DataFrame(
        {
            "charges": rng.uniform(20, 120, n),
            "seats": rng.integers(1, 6, n).astype(float),
            "plan": pd.Categorical(rng.choice(["basic", "pro", None], n)),
        }
    )
    X.loc[rng.random(n) < 0.1, "charges"] = np.nan
    y = X["charges"].fillna(200) / 10 + X["seats"] + rng.normal(size=n)
    model = HistGradientBoostingRegressor(
        categorical_features="from_dtype", random_state=0
    ).fit(X, y)
    display = PartialDependenceDisplay.from_estimator(
        model, X, "charges", grid_resolution=10
    )
    assert display.result.missing == (True,)
    [diamond] = [line for line in display.missing_lines_ if line.get_marker() == "D"]
    expected = model.predict(X.assign(charges=np.nan)).mean()
    np.testing.assert_allclose(diamond.get_ydata(), [expected])
    labels = [t.get_text() for t in display.ax_.get_xticklabels()]
    assert labels[-1] == "missing"
    # A category's missing value is a category, ticked "missing".
    display = PartialDependenceDisplay.from_estimator(model, X, "plan")
    labels = [t.get_text() for t in display.ax_.get_xticklabels()]
    assert labels == ["basic", "pro", "missing"]
