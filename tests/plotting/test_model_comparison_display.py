"""The models' comparison Display draws what the result holds: each
model's importances, and the paired difference of each pair asked for."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from drawn_pairs import drawn_pairs  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402
from mixed_columns import mixed_columns, mixed_regressors  # noqa: E402
from numpy.testing import assert_allclose, assert_array_equal  # noqa: E402
from sklearn.datasets import load_diabetes  # noqa: E402
from sklearn.ensemble import RandomForestRegressor  # noqa: E402
from sklearn.linear_model import Ridge  # noqa: E402

from inspectwidgets import (  # noqa: E402
    PermutationComparisonDisplay,
    compare_permutation_importance,
)


@pytest.fixture(scope="module")
def fitted():
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    models = {
        "ridge": Ridge(alpha=1e-2).fit(X, y),
        "forest": RandomForestRegressor(20, random_state=0).fit(X, y),
        "shallow": RandomForestRegressor(10, max_depth=2, random_state=0).fit(X, y),
    }
    return models, X, y


@pytest.fixture(scope="module")
def result(fitted):
    models, X, y = fitted
    return compare_permutation_importance(
        models,
        X,
        y,
        n_repeats=5,
        random_state=0,
        scoring=["r2", "neg_mean_squared_error"],
    )


def _dots(container):
    """The (x, y) of an errorbar container's markers."""
    return np.asarray(container.lines[0].get_xydata())


def test_dots_follow_each_models_importances(result):
    display = PermutationComparisonDisplay.from_result(
        result, scorer="r2", max_features=4
    )
    best = np.max(
        [result.importances(m, "r2").mean(axis=1) for m in result.model_names], axis=0
    )
    top = np.argsort(-best)[:4]
    labels = [t.get_text() for t in display.ax_.get_yticklabels()]
    assert labels == [result.feature_names[i] for i in top]
    for name in result.model_names:
        xy = _dots(display.markers_[name])
        assert_allclose(xy[:, 0], result.importances(name, "r2")[top].mean(axis=1))
    assert "6 features hidden" in display.ax_.get_title()
    legend = [t.get_text() for t in display.ax_.get_legend().get_texts()]
    assert legend == list(result.model_names)
    plt.close(display.figure_)


def test_difference_panel_marks_only_intervals_excluding_zero(result):
    display = PermutationComparisonDisplay.from_result(
        result, scorer="r2", difference=("forest", "shallow")
    )
    paired = result.paired_difference("forest", "shallow", scorer="r2")
    assert display.difference_.models == ("forest", "shallow")
    flagged, others = (_dots(c) for c in display.difference_markers_)
    assert len(flagged) == paired.differs.sum() > 0
    assert len(others) == (~paired.differs).sum()
    order = np.argsort(
        -np.max(
            [result.importances(m, "r2").mean(axis=1) for m in result.model_names],
            axis=0,
        ),
        kind="stable",
    )
    assert_allclose(
        np.sort(flagged[:, 0]), np.sort(paired.mean[order][paired.differs[order]])
    )
    assert "features differ" in display.difference_ax_.get_title()
    plt.close(display.figure_)


def test_one_model_or_no_difference_draws_one_panel(fitted, result):
    display = PermutationComparisonDisplay.from_result(
        result, scorer="r2", difference=False
    )
    assert display.difference_ax_ is None and display.difference_ is None
    plt.close(display.figure_)
    models, X, y = fitted
    alone = PermutationComparisonDisplay.from_estimators(
        {"ridge": models["ridge"]}, X, y, n_repeats=2, random_state=0
    )
    assert alone.difference_ax_ is None and list(alone.markers_) == ["ridge"]
    plt.close(alone.figure_)


def test_bad_arguments_are_named(result):
    with pytest.raises(TypeError, match="PermutationComparisonResult"):
        PermutationComparisonDisplay(object())
    with pytest.raises(ValueError, match="difference must be"):
        PermutationComparisonDisplay(result).plot(scorer="r2", difference=("a", "b"))
    with pytest.raises(ValueError, match="scorer"):
        PermutationComparisonDisplay(result).plot()


# Several pairs ------------------------------------------------------------------


@pytest.fixture(scope="module")
def messy():
    """Three models on NaN, Int64, Float64, boolean and category columns."""
    X, y, rng = mixed_columns(300)
    y = y + 0.3 * X["f"].fillna(0).to_numpy(float) + 0.2 * rng.normal(size=len(y))
    models = mixed_regressors(X, y)
    before = X.copy()
    result = compare_permutation_importance(models, X, y, n_repeats=5, random_state=0)
    pd.testing.assert_frame_equal(X, before)
    return models, X, y, result


def _importance_order(result, scorer=None):
    means = [result.importances(m, scorer).mean(axis=1) for m in result.model_names]
    return np.argsort(-np.max(means, axis=0), kind="stable")


@pytest.mark.parametrize("max_features", [20, 3])
def test_each_pair_draws_its_mean_interval_and_flag(messy, max_features):
    *_, messy = messy
    pairs = [("forest", "boosting"), ("forest", "ridge"), ("boosting", "ridge")]
    display = PermutationComparisonDisplay.from_result(
        messy, max_features=max_features, difference=pairs
    )
    shown = [messy.feature_names[i] for i in _importance_order(messy)[:max_features]]
    assert [t.get_text() for t in display.ax_.get_yticklabels()] == shown
    # The differences on the importances' rows: one y axis.
    assert display.ax_.get_shared_y_axes().joined(display.ax_, display.difference_ax_)
    drawn = drawn_pairs(display.figure_)
    assert list(drawn) == pairs
    flags = []
    for (first, second), marks in drawn.items():
        paired = messy.paired_difference(first, second)
        # Every shown feature once, no hidden one.
        assert sorted(marks["features"]) == sorted(shown)
        rows = [messy.feature_names.index(f) for f in marks["features"]]
        assert_array_equal(marks["mean"], paired.mean[rows])
        assert_allclose(marks["low"], paired.interval[rows, 0], rtol=1e-12)
        assert_allclose(marks["high"], paired.interval[rows, 1], rtol=1e-12)
        assert_array_equal(marks["flagged"], paired.differs[rows])
        # Solid exactly where the drawn interval excludes 0.
        excludes = (marks["low"] > 0) | (marks["high"] < 0)
        assert_array_equal(marks["flagged"], excludes)
        # A pair's marks share one offset within the rows.
        assert np.ptp(marks["offsets"]) < 1e-12
        flags.extend(marks["flagged"])
    offsets = [marks["offsets"][0] for marks in drawn.values()]
    assert len(set(np.round(offsets, 6))) == len(pairs)
    assert max(np.abs(offsets)) < 0.5
    assert any(flags) and not all(flags)
    # Neither model tells these pairs apart: colours after the models'.
    colours = [marks["color"] for marks in drawn.values()]
    assert len(set(colours)) == len(pairs)
    assert not set(colours) & {to_rgba(f"C{i}") for i in range(3)}
    assert display.differences_[0] is display.difference_
    assert [p.models for p in display.differences_] == pairs
    assert display.difference_markers_ == list(display.difference_ax_.containers)
    plt.close(display.figure_)


def test_one_model_against_the_others_keeps_their_colours(messy):
    *_, messy = messy
    pairs = [("boosting", "forest"), ("boosting", "ridge")]
    display = PermutationComparisonDisplay.from_result(messy, difference=pairs)
    drawn = drawn_pairs(display.figure_)
    for (_, other), marks in drawn.items():
        dots = display.markers_[other].lines[0]
        assert marks["color"] == to_rgba(dots.get_color())
    legend = [t.get_text() for t in display.difference_ax_.get_legend().get_texts()]
    counts = [int(messy.paired_difference(*pair).differs.sum()) for pair in pairs]
    assert legend[:2] == [
        f"boosting − {other}: {n} features differ"
        for (_, other), n in zip(pairs, counts, strict=True)
    ]
    assert "t-interval" in display.difference_ax_.get_xlabel()
    plt.close(display.figure_)


def test_one_repeat_draws_every_pair_hollow_without_whiskers(messy):
    # No interval from one repeat: nothing flagged, no whiskers.
    models, X, y, _ = messy
    single = compare_permutation_importance(models, X, y, n_repeats=1, random_state=0)
    display = PermutationComparisonDisplay.from_result(
        single, difference=[("forest", "boosting"), ("forest", "ridge")]
    )
    for pair, marks in drawn_pairs(display.figure_).items():
        assert not marks["flagged"].any()
        assert_array_equal(marks["mean"], single.paired_difference(*pair).mean[
            [single.feature_names.index(f) for f in marks["features"]]
        ])  # fmt: skip
        assert_array_equal(marks["low"], marks["mean"])
        assert_array_equal(marks["high"], marks["mean"])
    plt.close(display.figure_)


@pytest.mark.parametrize(
    ("difference", "reason"),
    [
        ([("forest", "ridge"), ("forest", "lasso")], "'lasso' is not one of"),
        (("ridge", "ridge"), "'ridge' is paired with itself"),
        ([("forest", "ridge"), ("boosting", "boosting")], "'boosting' is paired"),
        (
            [("forest", "ridge"), ("forest", "ridge")],
            r"the pair \('forest', 'ridge'\) is repeated",
        ),
        ([("forest", "ridge"), "boosting"], "'boosting' is not a pair"),
        (
            [("forest", "ridge", "boosting")],
            r"\('forest', 'ridge', 'boosting'\) is not a pair",
        ),
        ([], r"\[\] is not a pair"),
        ("forest", "expected a pair or a list of pairs"),
    ],
)
def test_bad_pairs_are_named(messy, difference, reason):
    *_, result = messy
    with pytest.raises(ValueError, match=r"difference must be .*got .*: " + reason):
        PermutationComparisonDisplay(result).plot(difference=difference)
    plt.close("all")


def test_to_frame_is_the_results(result):
    frame = result.to_frame()
    ridge = frame[(frame.model == "ridge") & (frame.scorer == "r2")]
    assert_array_equal(ridge.importance, result.importances("ridge", "r2").ravel())
