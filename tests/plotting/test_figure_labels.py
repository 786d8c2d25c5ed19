"""What a figure must say and where it must draw it (#52 item 4): a
classifier's figure names the class it shows, and the ALE + PD figure's
rows-per-bin strip lies apart from the legend and the curve."""

import matplotlib

matplotlib.use("Agg")

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from sklearn.ensemble import (
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
)

from inspectwidgets import (
    AccumulatedLocalEffectsDisplay,
    PartialDependenceDisplay,
    PartialDependenceWidget,
    partial_dependence,
)

WAIT = 60
# The figures drawn here, to look at (git-ignored).
OUTPUT_DIR = Path(__file__).resolve().parents[1] / "output" / "figures"
SPECIES = ["Adelie", "Chinstrap", "Gentoo"]


@pytest.fixture(scope="module")
def penguins():
    """A penguin-like table: NaN in a measure, an integer year, an island
    as a category; three species named by strings."""
    rng = np.random.default_rng(0)
    n = 300
    species = rng.integers(0, 3, n)
    flipper = 185 + 12 * species + rng.normal(0, 5, n)
    flipper[rng.random(n) < 0.05] = np.nan
    X = pd.DataFrame(
        {
            "flipper_length_mm": flipper,
            "year": rng.integers(2007, 2010, n),
            "island": pd.Categorical(
                np.where(species == 2, "Biscoe", rng.choice(["Dream", "Torgersen"], n))
            ),
        }
    )
    y = np.asarray(SPECIES)[species]
    model = HistGradientBoostingClassifier(
        max_iter=20, categorical_features="from_dtype", random_state=0
    ).fit(X, y)
    return model, X


def _save(figure, name):
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    figure.savefig(OUTPUT_DIR / name, dpi=80)


def _labels(figure):
    """Every title and axis label of the figure's axes (colour bars too)."""
    return [
        text
        for ax in figure.axes
        for text in (ax.get_title(), ax.get_xlabel(), ax.get_ylabel())
        if text
    ]


@pytest.mark.parametrize("kind", ["average", "both", "average_and_ale"])
def test_a_multiclass_widget_figure_names_the_class_it_shows(penguins, kind):
    model, X = penguins
    w = PartialDependenceWidget(
        model, X, features="flipper_length_mm", kind=kind, grid_resolution=8
    )
    assert w.wait(timeout=WAIT) == "done", w.error
    for species in SPECIES:
        w.target = species
        figure = w.figure()
        named = [label for label in _labels(figure) if f"class {species}" in label]
        assert named, (species, _labels(figure))
        others = [s for s in SPECIES if s != species]
        assert not any(f"class {s}" in " ".join(_labels(figure)) for s in others)
        _save(figure, f"issue52_item4_{kind}_{species}.png")
        plt.close(figure)
    w.close()


def test_a_surface_names_its_class_and_a_regressor_none(penguins):
    model, X = penguins
    result = partial_dependence(
        model,
        X,
        ["flipper_length_mm", "island"],
        grid_resolution=5,
        method="brute",
        return_result=True,
    )
    display = PartialDependenceDisplay(result).plot(target="Chinstrap")
    assert any("class Chinstrap" in label for label in _labels(display.figure_))
    regressor = HistGradientBoostingRegressor(max_iter=10, random_state=0).fit(
        X[["flipper_length_mm"]], X["year"]
    )
    curve = PartialDependenceDisplay.from_estimator(
        regressor, X[["flipper_length_mm"]], "flipper_length_mm"
    )
    assert curve.ax_.get_ylabel() == "partial dependence"
    plt.close("all")


def test_the_ale_figures_rows_per_bin_strip_lies_below_the_curve_apart_from_the_legend(
    penguins,
):
    model, X = penguins
    w = PartialDependenceWidget(
        model,
        X,
        features="flipper_length_mm",
        kind="average_and_ale",
        grid_resolution=10,
    )
    assert w.wait(timeout=WAIT) == "done", w.error
    figure = w.figure()
    renderer = FigureCanvasAgg(figure).get_renderer()
    figure.draw(renderer)
    [ax] = [a for a in figure.axes if a.get_legend() is not None]
    [strip] = ax.child_axes
    legend = ax.get_legend().get_window_extent(renderer)
    strip_box = strip.get_window_extent(renderer)
    curve_box = ax.get_window_extent(renderer)
    assert not strip_box.overlaps(legend), (strip_box, legend)
    # Below the curve's axes, not inside them, and inside the figure.
    assert strip_box.y1 <= curve_box.y0, (strip_box, curve_box)
    assert strip_box.y0 >= 0 and figure.bbox.contains(*strip_box.p0)
    # The strip's bars are the rows per bin, on the curve's x axis.
    ale = w._snapshot.ale
    heights = [bar.get_height() for bar in strip.patches]
    assert heights == pytest.approx(ale.bin_counts)
    assert strip.get_xlim() == pytest.approx(ax.get_xlim())
    # The x tick labels are drawn once, under the strip.
    assert not any(t.get_visible() and t.get_text() for t in ax.get_xticklabels())
    assert strip.get_xlabel() == "flipper_length_mm"
    _save(figure, "issue52_item4_ale_pd_strip.png")
    plt.close(figure)
    w.close()


def test_the_ale_display_strip_holds_a_categorical_features_counts(penguins):
    model, X = penguins
    display = AccumulatedLocalEffectsDisplay.from_estimator(
        model, X, "island", target="Gentoo", categorical_features=["island"]
    )
    ax, strip = display.ax_, display.bars_ax_
    assert strip in ax.child_axes
    labels = [t.get_text() for t in strip.get_xticklabels()]
    assert labels == [str(c) for c in display.result.edges[0]]
    assert "class Gentoo" in ax.get_ylabel()
    plt.close("all")
