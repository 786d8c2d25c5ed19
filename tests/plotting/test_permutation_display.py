"""The matplotlib Display draws what the result holds."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from sklearn.datasets import load_diabetes  # noqa: E402
from sklearn.linear_model import Ridge  # noqa: E402

from inspectwidgets import (  # noqa: E402
    PermutationImportanceDisplay,
    conditional_permutation_importance,
    permutation_importance,
)


@pytest.fixture(scope="module")
def result():
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    model = Ridge(alpha=1e-2).fit(X, y)
    return permutation_importance(
        model,
        X,
        y,
        n_repeats=5,
        random_state=0,
        scoring=["r2", "neg_mean_squared_error"],
        return_result=True,
    )


def test_bars_follow_the_result_most_important_first(result):
    display = PermutationImportanceDisplay.from_result(
        result, scorer="r2", max_features=4
    )
    mean = result.importances("r2").mean(axis=1)
    top = np.argsort(-mean)[:4]
    widths = [bar.get_width() for bar in display.artists_]
    np.testing.assert_allclose(widths, mean[top])
    labels = [t.get_text() for t in display.ax_.get_yticklabels()]
    assert labels == [result.feature_names[i] for i in top]
    assert "6 more features not shown" in display.ax_.get_title()
    assert display.figure_ is display.ax_.figure
    plt.close(display.figure_)


def test_boxes_and_existing_axes(result):
    figure, ax = plt.subplots()
    display = PermutationImportanceDisplay(result).plot(
        ax=ax, kind="box", scorer="neg_mean_squared_error"
    )
    assert display.ax_ is ax and len(display.artists_) == 10
    assert ax.get_xlabel() == "Decrease in neg_mean_squared_error when permuted"
    plt.close(figure)


def test_from_estimator_computes_then_plots():
    X, y = load_diabetes(return_X_y=True)
    display = PermutationImportanceDisplay.from_estimator(
        Ridge().fit(X, y), X, y, n_repeats=2, random_state=0
    )
    assert display.result.n_repeats_done == 2
    plt.close(display.figure_)


def test_bad_arguments(result):
    with pytest.raises(TypeError, match="PermutationImportanceResult"):
        PermutationImportanceDisplay({"importances": np.zeros((2, 2))})
    with pytest.raises(ValueError, match='kind must be "bar" or "box"'):
        PermutationImportanceDisplay(result).plot(kind="violin", scorer="r2")
    with pytest.raises(ValueError, match="name the one you want"):
        PermutationImportanceDisplay(result).plot()


def test_held_out_interval_whiskers_span_the_resampled_percentiles():
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    model = Ridge(alpha=1e-2).fit(X, y)
    display = PermutationImportanceDisplay.from_estimator(
        model, X, y, n_repeats=5, random_state=0, n_bootstrap=100, max_features=3
    )
    result = display.result
    shown, _ = result.top(k=3)
    bounds = result.interval()[shown]
    # The whiskers' ends, drawn bar by bar, most important on top.
    segments = display.interval_lines_.lines[2][0].get_segments()
    ends = np.array([[s[0][0], s[1][0]] for s in segments])
    np.testing.assert_allclose(ends, bounds)
    title = display.ax_.get_title()
    assert "bars: ± std over the repeats' shuffles of these rows" in title
    assert "whiskers: 95 % interval over 100 resamples of the held-out rows" in title
    plt.close(display.figure_)
    # Off on request; refused where the result has no resamples.
    quiet = PermutationImportanceDisplay.from_result(result, interval=False)
    assert quiet.interval_lines_ is None
    assert "whiskers" not in quiet.ax_.get_title()
    plt.close(quiet.figure_)


def test_interval_needs_a_result_with_resamples(result):
    with pytest.raises(ValueError, match="interval: this result has no resamples"):
        PermutationImportanceDisplay.from_result(result, scorer="r2", interval=True)
    plt.close("all")


def test_the_title_says_conditional_for_a_conditional_result(result):
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    model = Ridge(alpha=1e-2).fit(X, y)
    conditional = conditional_permutation_importance(
        model, X, y, n_repeats=2, random_state=0, return_result=True
    )
    display = PermutationImportanceDisplay.from_result(conditional)
    assert display.ax_.get_title().startswith("Conditional permutation importance (")
    marginal = PermutationImportanceDisplay.from_result(result, scorer="r2")
    assert marginal.ax_.get_title().startswith("Permutation importance (")
    plt.close(display.figure_)
    plt.close(marginal.figure_)
