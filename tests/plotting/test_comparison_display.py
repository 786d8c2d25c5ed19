"""The comparison Display draws every available measure on one scale."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from sklearn.datasets import load_diabetes  # noqa: E402
from sklearn.ensemble import RandomForestRegressor  # noqa: E402
from sklearn.linear_model import Ridge  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402

from inspectwidgets import ImportanceComparisonDisplay  # noqa: E402


def split():
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    return train_test_split(X, y, random_state=0)


def test_four_measures_normalized_for_a_forest():
    X_train, X_test, y_train, y_test = split()
    forest = RandomForestRegressor(n_estimators=10, random_state=0).fit(
        X_train, y_train
    )
    display = ImportanceComparisonDisplay.from_estimator(
        forest, X_train, y_train, X_test, y_test, n_repeats=10, random_state=0
    )
    lines = display.ax_.get_legend().get_texts()
    assert [t.get_text() for t in lines] == [
        "MDI (train, impurity)",
        "ESL relative importance",
        "Permutation (train)",
        "Permutation (test)",
        "within noise (interval includes 0)",
    ]
    mdi = display.ax_.containers[0].lines[0].get_xdata()
    np.testing.assert_allclose(mdi, display.frame["mdi"] / display.frame["mdi"].max())
    # Hollow exactly where the test interval includes 0.
    frame = display.frame
    noise = (frame["permutation_test_low"] <= 0) & (frame["permutation_test_high"] >= 0)
    assert 0 < noise.sum() < len(frame)
    test = frame["permutation_test_mean"]
    np.testing.assert_allclose(
        display.within_noise_["permutation_test"].get_xdata(),
        (test / test.abs().max())[noise],
    )
    # Whiskers span the interval the flags rest on.
    scale = test.abs().max()
    (whiskers,) = display.ax_.containers[3].lines[2]
    ends = np.array([segment[:, 0] for segment in whiskers.get_segments()])
    np.testing.assert_allclose(ends[:, 0], frame["permutation_test_low"] / scale)
    np.testing.assert_allclose(ends[:, 1], frame["permutation_test_high"] / scale)
    plt.close(display.figure_)


def test_only_permutation_measures_without_trees():
    X_train, X_test, y_train, y_test = split()
    model = Ridge().fit(X_train, y_train)
    display = ImportanceComparisonDisplay.from_estimator(
        model, X_train, y_train, X_test, y_test, n_repeats=2
    )
    # Two measures, and both all hollow: 2 repeats give no interval.
    assert len(display.ax_.get_legend().get_texts()) == 3
    hollow = display.within_noise_
    assert [len(hollow[key].get_xdata()) for key in hollow] == [10, 10]
    plt.close(display.figure_)


def test_within_noise_is_drawn_hollow_and_the_legend_hides_no_point():
    X_train, X_test, y_train, y_test = split()
    forest = RandomForestRegressor(n_estimators=10, random_state=0).fit(
        X_train, y_train
    )
    display = ImportanceComparisonDisplay.from_estimator(
        forest, X_train, y_train, X_test, y_test, n_repeats=10, random_state=0
    )
    figure = display.figure_
    figure.canvas.draw()
    # The hollow marker is drawn after (above) the filled one of its measure:
    # under it, every point within noise looked as solid as a signal.
    filled = display.ax_.containers[3].lines[0]
    hollow = display.within_noise_["permutation_test"]
    assert hollow.get_zorder() > filled.get_zorder()
    # The legend sits beside the axes: it covers none of their points.
    renderer = figure.canvas.get_renderer()
    legend = display.ax_.get_legend().get_window_extent(renderer)
    axes = display.ax_.get_window_extent(renderer)
    assert legend.x0 >= axes.x1
    # Every text stays inside the figure (the axis label was cut at its left).
    inside = figure.bbox
    for text in (display.ax_.xaxis.label, display.ax_.title):
        box = text.get_window_extent(renderer)
        assert inside.x0 <= box.x0 and box.x1 <= inside.x1
    plt.close(figure)
