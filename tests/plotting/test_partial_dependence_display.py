"""The partial dependence Display draws the result it is given."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from sklearn.datasets import load_diabetes  # noqa: E402
from sklearn.ensemble import RandomForestRegressor  # noqa: E402

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
    plt.close(display.figure_)


def test_surface_of_two_features(forest):
    model, X = forest
    result = partial_dependence(
        model, X, ["bmi", "bp"], grid_resolution=8, return_result=True
    )
    display = PartialDependenceDisplay(result).plot()
    assert display.ax_.get_ylabel() == "bp" and len(display.figure_.axes) == 2
    plt.close(display.figure_)


def test_needs_a_result():
    with pytest.raises(TypeError, match="PartialDependenceResult"):
        PartialDependenceDisplay({"average": np.zeros(3)})
