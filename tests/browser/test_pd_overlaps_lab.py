"""#52 item 5: nothing in the PD widget's 1-way chart is drawn over
anything else, measured on the boxes of the real page in JupyterLab: the
"PD and ALE" legend off the curves, the "missing" label clear of the axis's
last tick, no tick (nor the decile rug) on the distribution strip's bars.
Light and dark screenshots under tests/output/browser/issue52_item5_*."""

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 90_000  # ms

# Penguin-like: flipper lengths in whole millimetres from 170 to 230 (both
# ends present, so with percentiles=(0, 1) the axis ends on a round tick,
# where "missing" used to run into it), 5% of them missing; an island as a
# category; three species named by strings.
PENGUINS = """\
import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier
from inspectwidgets import PartialDependenceWidget

rng = np.random.default_rng(0)
n = 400
species = rng.integers(0, 3, n)
flipper = np.clip(np.round(185 + 12 * species + rng.normal(0, 6, n)), 170, 230)
flipper[:2] = [170, 230]
flipper[rng.random(n) < 0.05] = np.nan
X = pd.DataFrame({
    "flipper_length_mm": flipper,
    "year": rng.integers(2007, 2010, n).astype(float),
    "island": pd.Categorical(
        np.where(species == 2, "Biscoe", rng.choice(["Dream", "Torgersen"], n))),
})
y = np.asarray(["Adelie", "Chinstrap", "Gentoo"])[species]
model = HistGradientBoostingClassifier(
    max_iter=30, categorical_features="from_dtype", random_state=0).fit(X, y)
"""

WIDGETS = {
    "missing": "w = PartialDependenceWidget(model, X, features='flipper_length_mm', "
    "kind='both', grid_resolution=20, percentiles=(0, 1))\nw",
    "overlay": "v = PartialDependenceWidget(model, X, features='flipper_length_mm', "
    "kind='average_and_ale', grid_resolution=12)\nv",
    "overlay_categories": "u = PartialDependenceWidget(model, X, features='island', "
    "kind='average_and_ale', categorical_features=['island'])\nu",
}

# Client boxes of the chart's parts (empty ones left out), and points along
# the curves' paths in client coordinates.
BOXES_JS = """
(root) => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom,
            what: el.getAttribute('data-testid') || el.getAttribute('class')
                  || el.tagName, text: el.textContent};
  };
  const all = (selector) => [...root.querySelectorAll(selector)]
    .filter((el) => getComputedStyle(el).display !== 'none')
    .map(box).filter((b) => b.x1 > b.x0 || b.y1 > b.y0);
  const points = (selector) => [...root.querySelectorAll(selector)]
    .filter((p) => p.getAttribute('d')).flatMap((path) => {
      const matrix = path.getScreenCTM();
      const length = path.getTotalLength();
      return Array.from({length: 201}, (_, k) => {
        const p = path.getPointAtLength((length * k) / 200)
          .matrixTransform(matrix);
        return {x: p.x, y: p.y};
      });
    });
  return {
    plot: all('.pdw-overlay'),
    legend: all('g.pdw-legend-item'),
    curves: points('.pdw-pdp, .pdw-ale-line'),
    marks: all('[data-testid=pdw-category], [data-testid=pdw-ale-mark]'),
    bars: all('[data-testid=pdw-histogram], [data-testid=pdw-missing-bar]')
      .filter((b) => b.x1 - b.x0 > 0.5 && b.y1 - b.y0 > 0.5),
    ticks: all('.pdw-x-axis .tick text, .pdw-y-axis .tick text'),
    tickLines: all('.pdw-x-axis .tick line, .pdw-y-axis .tick line'),
    xTicks: all('.pdw-x-axis .tick text'),
    deciles: all('[data-testid=pdw-decile]'),
    missing: all('[data-testid=pdw-missing-label]'),
    stripLabel: all('[data-testid=pdw-strip-label]'),
  };
}
"""

TOLERANCE = 0.5  # px: boxes that only touch do not overlap


def overlaps(a, b):
    return (
        a["x0"] < b["x1"] - TOLERANCE
        and b["x0"] < a["x1"] - TOLERANCE
        and a["y0"] < b["y1"] - TOLERANCE
        and b["y0"] < a["y1"] - TOLERANCE
    )


def collisions(first, second):
    return [(a, b) for a in first for b in second if overlaps(a, b)]


def inside(point, box):
    return box["x0"] <= point["x"] <= box["x1"] and box["y0"] <= point["y"] <= box["y1"]


@pytest.fixture
def penguins(open_notebook):
    nb = open_notebook(
        "issue52_overlaps.ipynb",
        [
            PENGUINS + WIDGETS["missing"],
            WIDGETS["overlay"],
            WIDGETS["overlay_categories"],
        ],
        viewport={"width": 1280, "height": 1400},
    )
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    cells = {}
    for index, name in enumerate(WIDGETS):
        cell = nb.page.locator(".jp-Cell").nth(index)
        root = cell.get_by_test_id("pdw-root")
        expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
        cells[name] = (cell, root)
    nb.eventually_prints(
        "print(w.wait(60), v.wait(60), u.wait(60))", "done done done", timeout=60
    )
    return nb, cells


def _shoot(nb, cell, name):
    for theme, suffix in [("JupyterLab Light", "light"), ("JupyterLab Dark", "dark")]:
        nb.set_theme(theme)
        cell.scroll_into_view_if_needed()
        nb.screenshot(cell, f"issue52_item5_{name}_{suffix}.png")
    nb.set_theme("JupyterLab Light")


def test_nothing_in_the_pd_chart_is_drawn_over_anything_else(penguins):
    nb, cells = penguins

    # The missing value's column: its label clear of every x tick label, on
    # their line; the axis still has ticks.
    cell, root = cells["missing"]
    expect(root.get_by_test_id("pdw-missing-label")).to_be_visible()
    boxes = root.evaluate(BOXES_JS)
    [missing] = boxes["missing"]
    assert len(boxes["xTicks"]) >= 4, boxes["xTicks"]
    assert not collisions(boxes["missing"], boxes["xTicks"])
    assert abs(missing["y0"] - boxes["xTicks"][0]["y0"]) < 2, (missing, boxes["xTicks"])
    # Nothing but the strip's own bars on the strip: no tick, no tick label
    # and no decile rug line over a bar.
    assert len(boxes["deciles"]) == 9 and len(boxes["bars"]) >= 5, boxes
    for parts in ("ticks", "tickLines", "deciles", "missing"):
        assert not collisions(boxes[parts], boxes["bars"]), parts
    _shoot(nb, cell, "missing")

    # PD and ALE on one axis: the legend off the plot, so off both curves
    # and their marks.
    for name in ("overlay", "overlay_categories"):
        cell, root = cells[name]
        legend = root.get_by_test_id("pdw-legend-item")
        expect(legend).to_have_count(2)
        boxes = root.evaluate(BOXES_JS)
        assert not collisions(boxes["legend"], boxes["plot"]), name
        assert not collisions(boxes["legend"], boxes["marks"]), name
        assert not collisions(boxes["legend"], boxes["ticks"]), name
        on_legend = [
            p for p in boxes["curves"] for b in boxes["legend"] if inside(p, b)
        ]
        assert not on_legend, (name, on_legend[:3])
        if name == "overlay":
            assert len(boxes["curves"]) == 2 * 201  # the PD and the ALE
        for parts in ("ticks", "tickLines", "stripLabel"):
            assert not collisions(boxes[parts], boxes["bars"]), (name, parts)
        _shoot(nb, cell, name)
