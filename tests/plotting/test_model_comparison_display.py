"""The models' comparison Display draws what the result holds."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
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


def test_to_frame_is_the_results(result):
    frame = result.to_frame()
    ridge = frame[(frame.model == "ridge") & (frame.scorer == "r2")]
    assert_array_equal(ridge.importance, result.importances("ridge", "r2").ravel())
