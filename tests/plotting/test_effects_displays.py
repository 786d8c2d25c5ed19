"""The ALE and H² Displays: they store, compute and draw what the engine gives."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest
from matplotlib.figure import Figure
from numpy.testing import assert_allclose
from sklearn.datasets import load_iris
from sklearn.ensemble import GradientBoostingClassifier, HistGradientBoostingRegressor

from inspectwidgets import (
    AccumulatedLocalEffectsDisplay,
    InteractionStrengthDisplay,
    accumulated_local_effects,
)


@pytest.fixture(scope="module")
def interacting():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, size=(600, 3))
    y = X[:, 0] * X[:, 1] + X[:, 2]
    return HistGradientBoostingRegressor(max_iter=30, random_state=0).fit(X, y), X


def test_ale_display_draws_the_result_band_counts_and_pd(interacting):
    model, X = interacting
    display = AccumulatedLocalEffectsDisplay.from_estimator(
        model, X, 2, grid_resolution=6, with_partial_dependence=True
    )
    ale = display.result
    assert_allclose(display.lines_[0].get_ydata(), ale.centered[0])
    assert_allclose(
        display.lines_[1].get_ydata(),
        ale.center_partial_dependence(display.partial_dependence)[0],
    )
    assert [p.get_height() for p in display.bars_] == pytest.approx(ale.bin_counts)
    lower, upper = ale.band()
    band = display.band_.get_paths()[0].vertices
    assert band[:, 1].min() == pytest.approx(lower.min())
    assert band[:, 1].max() == pytest.approx(upper.max())
    assert display.ax_.figure is display.figure_
    # __init__ only stores: plot() draws again on given axes.
    again = AccumulatedLocalEffectsDisplay(ale).plot(ax=Figure().subplots())
    assert len(again.lines_) == 1 and again.ax_ is not display.ax_


def test_ale_display_pair_and_classes():
    X, y = load_iris(return_X_y=True, as_frame=True)
    model = GradientBoostingClassifier(n_estimators=5, random_state=0).fit(X, y)
    ale = accumulated_local_effects(
        model, X, ["petal width (cm)", "sepal width (cm)"], grid_resolution=3
    )
    display = AccumulatedLocalEffectsDisplay(ale).plot(target=1)
    assert display.contours_ is not None and display.lines_ == []
    single = accumulated_local_effects(model, X, "petal width (cm)", grid_resolution=4)
    shown = AccumulatedLocalEffectsDisplay(single).plot(target="0")
    assert_allclose(shown.lines_[0].get_ydata(), single.centered[0])
    with pytest.raises(ValueError, match="target"):
        AccumulatedLocalEffectsDisplay(single).plot(target="7")


def test_ale_display_refuses_what_it_cannot_draw(interacting):
    model, X = interacting
    ale = accumulated_local_effects(model, X, 0, grid_resolution=4)
    with pytest.raises(TypeError, match="AccumulatedLocalEffectsResult"):
        AccumulatedLocalEffectsDisplay("ale")
    with pytest.raises(TypeError, match="partial_dependence"):
        AccumulatedLocalEffectsDisplay(ale, partial_dependence=ale)


def test_interaction_display_bars_and_pair_heatmap(interacting):
    model, X = interacting
    display = InteractionStrengthDisplay.from_estimator(
        model, X, n_samples=80, random_state=0, pairs="all"
    )
    frame = display.frame
    single = frame[frame["kind"] == "one_vs_rest"]
    widths = {b.get_y(): b.get_width() for b in display.bars_}
    assert sorted(widths.values()) == pytest.approx(sorted(single["h_squared"]))
    matrix = display.heatmap_.get_array()
    names = [t.get_text() for t in display.axes_[1].get_xticklabels()]
    pair = frame[(frame["kind"] == "pair") & (frame["feature"] == "x0")]
    value = pair.loc[pair["partner"] == "x1", "h_squared"].item()
    i, j = names.index("x0"), names.index("x1")
    assert matrix[i, j] == pytest.approx(value) == pytest.approx(matrix[j, i])
    assert value > 0.5  # x0 x1 interacts, x2 does not
    only = InteractionStrengthDisplay(frame).plot(kind="heatmap")
    assert only.bars_ is None and len(only.axes_) == 1
    with pytest.raises(ValueError, match="kind"):
        InteractionStrengthDisplay(frame).plot(kind="pie")
    with pytest.raises(TypeError, match="interaction_strength"):
        InteractionStrengthDisplay(frame[["feature"]])
    with pytest.raises(ValueError, match="target"):
        InteractionStrengthDisplay(frame).plot(target="nope")
