"""PartialDependenceWidget in JupyterLab: curves, ICE, surface, controls.

Each test writes a notebook, runs it in Lab, works the widget's controls in
Chromium and asks the kernel (a print cell) what Python received. Times are
measured and reported (see conftest's ``record_timing``), never asserted.
"""

import json
import re
import statistics

import pytest
from conftest import isolated

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 90_000  # ms

DIABETES = """\
from sklearn.datasets import load_diabetes
from sklearn.ensemble import RandomForestRegressor
from inspectwidgets import PartialDependenceWidget

X, y = load_diabetes(return_X_y=True, as_frame=True)
model = RandomForestRegressor(n_estimators=50, random_state=0).fit(X, y)
w = PartialDependenceWidget(model, X, features="bmi", n_ice=200)
w
"""


# Three classes with names, a quick model.
IRIS = """\
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from inspectwidgets import PartialDependenceWidget

iris = load_iris(as_frame=True)
X = iris.data
y = iris.target.map(dict(enumerate(iris.target_names)))
model = LogisticRegression(max_iter=1000).fit(X, y)
w = PartialDependenceWidget(model, X, features="petal length (cm)", n_ice=50)
w
"""

# A string column one-hot encoded in a pipeline; the category effects are
# red > green > yellow > blue.
COLORS = """\
import numpy as np
import pandas as pd
from sklearn.compose import make_column_transformer
from sklearn.linear_model import Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder
from inspectwidgets import PartialDependenceWidget

rng = np.random.default_rng(0)
color = rng.choice(["red", "green", "blue", "yellow"], size=600, p=[0.4, 0.3, 0.2, 0.1])
X = pd.DataFrame({"color": color, "size": rng.normal(size=600)})
effect = {"red": 3.0, "green": 1.0, "yellow": 0.0, "blue": -1.0}
y = X["color"].map(effect) + 0.5 * X["size"] + rng.normal(scale=0.2, size=600)
encode = make_column_transformer((OneHotEncoder(), ["color"]), remainder="passthrough")
model = make_pipeline(encode, Ridge()).fit(X, y)
w = PartialDependenceWidget(
    model, X, features="color", categorical_features=["color"], n_ice=100
)
w
"""

# x2 follows x1 (Spearman rho near 1); x3 is independent of both.
CORRELATED = """\
import numpy as np
import pandas as pd
from sklearn.linear_model import Ridge
from inspectwidgets import PartialDependenceWidget

rng = np.random.default_rng(0)
x1 = rng.normal(size=500)
X = pd.DataFrame(
    {"x1": x1, "x2": x1 + rng.normal(scale=0.1, size=500), "x3": rng.normal(size=500)}
)
y = X["x1"] + X["x3"] + rng.normal(scale=0.1, size=500)
w = PartialDependenceWidget(Ridge().fit(X, y), X, features="x1", n_ice=50)
w
"""

# 1,000 ICE curves x 100 grid points over 2,000 rows. A single-threaded model:
# OpenMP ones (HistGradientBoosting) slowed to tens of seconds on a busy
# two-core machine.
FRIEDMAN = """\
from sklearn.datasets import make_friedman1
from sklearn.ensemble import GradientBoostingRegressor
from inspectwidgets import PartialDependenceWidget

X, y = make_friedman1(n_samples=2000, random_state=0)
model = GradientBoostingRegressor(random_state=0).fit(X, y)
w = PartialDependenceWidget(model, X, features="x0", n_ice=1000, grid_resolution=100)
w
"""

# Non-transparent pixels of the ICE canvas, and all of them.
CANVAS_INK_JS = """
(canvas) => {
  const { width, height } = canvas;
  const pixels = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  let ink = 0;
  for (let k = 3; k < pixels.length; k += 4) if (pixels[k] > 0) ink += 1;
  return { ink, total: width * height };
}
"""

# The ICE canvas's most opaque pixel's colour, beside the css colour it paints
# with: canvas pixels keep the colour of their painting, so they follow a
# theme switch only if the chart repaints.
CANVAS_COLOR_JS = """
(canvas) => {
  const { width, height } = canvas;
  const px = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  let best = 3;
  for (let k = 3; k < px.length; k += 4) if (px[k] > px[best]) best = k;
  const css = getComputedStyle(canvas).color.match(/[0-9.]+/g).map(Number);
  return { ink: [px[best - 3], px[best - 2], px[best - 1]], css: css.slice(0, 3) };
}
"""


def assert_canvas_in_css_colour(canvas):
    colours = canvas.evaluate(CANVAS_COLOR_JS)
    # Translucent strokes round the colour by a few units; light and dark
    # themes differ by 13 to 35 on each channel.
    ink, css = colours["ink"], colours["css"]
    assert all(abs(a - b) <= 12 for a, b in zip(ink, css, strict=True)), colours


# Narrow the widget to `width` px (a page-only change: no kernel round trip)
# and time its redraw on the page clock, from the style change (`t0`) and
# from the start of the animation frame that redraws (`frame`):
# - `drawn`: the redraw's script has run (the chart svg took its new width;
#   mutation records are delivered right after the frame callback that made
#   them, so after the ICE canvas was painted);
# - `rasterized`: Chromium records canvas drawing and rasterizes it later; a
#   1-pixel read forces that now, so this includes turning the 1,000 paths
#   into pixels.
# The widget's resize observer was created first, so its frame callback runs
# before the one requested here.
RESIZE_REDRAW_JS = """
([root, width]) => new Promise((resolve, reject) => {
  const host = root.querySelector('.pdw-chart-host');
  const svg = root.querySelector('[data-testid="pdw-curve-chart"]');
  const canvas = root.querySelector('[data-testid="pdw-ice-canvas"]');
  const before = svg.getAttribute('width');
  const s = {};
  const resize = new ResizeObserver(() =>
    requestAnimationFrame((frame) => { s.frame ??= frame; }));
  const mutations = new MutationObserver(() => {
    if (svg.getAttribute('width') === before) return;
    s.drawn = performance.now();
    canvas.getContext('2d').getImageData(0, 0, 1, 1);
    s.rasterized = performance.now();
    mutations.disconnect();
    resize.disconnect();
    clearTimeout(timer);
    requestAnimationFrame(() => resolve({ ...s, width: svg.getAttribute('width') }));
  });
  const timer = setTimeout(() => reject(new Error('no redraw in 10 s')), 10000);
  mutations.observe(svg, { attributes: true, attributeFilter: ['width'] });
  resize.observe(host);
  s.t0 = performance.now();
  root.style.width = `${width}px`;
})
"""

# On the next change of the "centered" box, time (page clock) the first frame
# that shows the finished centered curves.
CENTERED_WATCH_JS = """
(box) => {
  const root = box.closest('[data-testid="pdw-root"]');
  const s = (window.__centered = {});
  const tick = () => {
    const title = root.querySelector('.pdw-y-title title')?.textContent ?? '';
    if (root.dataset.status === 'done' && title.includes('change from')) {
      s.done = performance.now();
    } else {
      requestAnimationFrame(tick);
    }
  };
  box.addEventListener('change', () => {
    s.t0 = performance.now();
    requestAnimationFrame(tick);
  }, { capture: true, once: true });
}
"""


@pytest.fixture(scope="module", autouse=True)
def built_bundle(chromium_path, require_bundle):
    require_bundle("pd_widget.js", "pdw-root")


# --- Helpers ---------------------------------------------------------------


def widget_root(nb):
    return nb.page.get_by_test_id("pdw-root")


def y_title(root):
    """The y-axis title as drawn (its full text is in a <title> beside it)."""
    return root.locator(".pdw-y-title tspan")


def wait_final_curve(nb, root):
    """Wait for Python's run to finish, then for the page to draw its last
    snapshot (all grid points). Call after the setting that started the run
    is known to have reached Python (``eventually_prints``) and after a check
    that the page shows the new run (its title), so stale attributes of the
    previous run cannot pass for the new one."""
    _, output = nb.run_code("print(w.wait(60), w.result.n_points)")
    status, points = output.split()
    assert status == "done", output
    expect(root).to_have_attribute("data-grid-done", points, timeout=RUN_TIMEOUT)
    expect(root).to_have_attribute("data-status", "done")
    return int(points)


def open_widget(open_notebook, name, code):
    nb = open_notebook(name, [code], viewport={"width": 1280, "height": 1400})
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    root = widget_root(nb)
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    cell = nb.page.locator(".jp-Cell").filter(has=root)
    return nb, root, cell


def line_ends_y(path):
    """Screen y of the first and last points of an svg path."""
    return path.evaluate(
        """(p) => {
          const n = p.getTotalLength();
          return [p.getPointAtLength(0).y, p.getPointAtLength(n).y];
        }"""
    )


# --- Numeric feature: curve, ICE, surface ---------------------------------


def test_curve_ice_surface_and_controls(open_notebook):
    nb = open_notebook("pd.ipynb", [DIABETES], viewport={"width": 1280, "height": 1400})
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    root = nb.page.get_by_test_id("pdw-root")
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    expect(root).to_have_attribute("data-mode", "1d")
    expect(root.get_by_test_id("pdw-pdp")).to_be_visible()
    expect(root.get_by_test_id("pdw-ice-canvas")).to_be_visible()
    expect(root.get_by_test_id("pdw-decile")).to_have_count(9)
    cell = nb.page.locator(".jp-Cell").filter(has=root)
    nb.screenshot(cell, "pd_curve_light.png")
    canvas = root.get_by_test_id("pdw-ice-canvas")
    assert_canvas_in_css_colour(canvas)
    try:
        nb.set_theme("JupyterLab Dark")
        assert_canvas_in_css_colour(canvas)
        nb.screenshot(cell, "pd_curve_dark.png")
    finally:
        nb.set_theme("JupyterLab Light")
    assert_canvas_in_css_colour(canvas)

    root.get_by_test_id("pdw-centered").check()
    nb.eventually_prints("print(w.centered)", "True")
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)

    root.get_by_test_id("pdw-feature2").select_option("bp")
    nb.eventually_prints("print(w.features)", "['bmi', 'bp']")
    expect(root).to_have_attribute("data-mode", "2d", timeout=RUN_TIMEOUT)
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    expect(root.get_by_test_id("pdw-heatmap")).to_be_visible()
    try:
        nb.set_theme("JupyterLab Dark")
        nb.screenshot(cell, "pd_surface_dark.png")
    finally:
        nb.set_theme("JupyterLab Light")


def test_ice_at_every_split_draws_steps(open_notebook):
    """The box reaches Python, the steps run after the grid, and the canvas
    redraws the same ICE rows at every step of the forest."""
    code = DIABETES.replace("n_ice=200)", "n_ice=40, grid_resolution=20)")
    nb, root, cell = open_widget(open_notebook, "pd_steps.ipynb", code)
    canvas = root.get_by_test_id("pdw-ice-canvas")
    expect(canvas).to_have_attribute("data-steps", "0")
    root.get_by_test_id("pdw-ice-steps").check()
    nb.eventually_prints("print(w.ice_steps)", "True")
    _, output = nb.run_code("print(w.wait(60), len(w._snapshot.steps.grid_values[0]))")
    status, n_steps = output.split()
    assert status == "done" and int(n_steps) > 20, output
    expect(canvas).to_have_attribute("data-steps", n_steps, timeout=RUN_TIMEOUT)
    expect(canvas).to_have_attribute("data-curves", "40")
    assert canvas.evaluate(CANVAS_INK_JS)["ink"] > 0
    nb.screenshot(cell, "pd_ice_steps_light.png")


# --- Classifier: class and scale ------------------------------------------


def test_classifier_class_and_scale(open_notebook):
    nb, root, cell = open_widget(open_notebook, "pd_classes.ipynb", IRIS)
    pdp = root.get_by_test_id("pdw-pdp")
    target = root.get_by_test_id("pdw-target")
    scale = root.get_by_test_id("pdw-scale")

    # The positive (last) class by default, every class offered.
    expect(target).to_be_visible()
    expect(target.locator("option")).to_have_text(["setosa", "versicolor", "virginica"])
    expect(target).to_have_value("virginica")
    expect(scale).to_be_enabled()
    expect(scale).to_have_value("probability")
    expect(y_title(root)).to_have_text(f"probability of class {isolated('virginica')}")
    wait_final_curve(nb, root)
    expect(root.get_by_test_id("pdw-ice-canvas")).to_have_attribute("data-curves", "50")
    virginica = pdp.get_attribute("d")
    assert virginica, "no partial dependence line drawn"

    # Another class: Python gets it, the curve is redrawn for it.
    target.select_option("setosa")
    nb.eventually_prints("print(w.target)", "setosa")
    expect(y_title(root)).to_have_text(f"probability of class {isolated('setosa')}")
    wait_final_curve(nb, root)
    expect(pdp).not_to_have_attribute("d", virginica)
    setosa = pdp.get_attribute("d")
    # Setosa gets rarer as petals grow: the line ends lower than it starts.
    _, output = nb.run_code(
        "avg = w.result.average[w.result.output_names.index('setosa')]\n"
        "print(avg[0] > avg[-1])"
    )
    assert output.strip() == "True", output
    start_y, end_y = line_ends_y(pdp)
    assert start_y < end_y, f"setosa's line does not fall on screen: {setosa}"

    # Centered log-odds: new y title, new curve, and Python has the scale.
    scale.select_option("log_odds")
    nb.eventually_prints("print(w.scale, w.target)", "log_odds setosa")
    expect(y_title(root)).to_have_text(
        f"centered log-odds of class {isolated('setosa')}"
    )
    wait_final_curve(nb, root)
    expect(pdp).not_to_have_attribute("d", setosa)
    expect(target).to_have_value("setosa")
    expect(scale).to_have_value("log_odds")
    nb.screenshot(cell, "pd_classes_log_odds.png")


# --- Categorical feature ---------------------------------------------------


def test_categorical_feature_marks_and_counts(open_notebook):
    nb, root, cell = open_widget(open_notebook, "pd_categorical.ipynb", COLORS)
    wait_final_curve(nb, root)
    _, output = nb.run_code(
        "import json\n"
        "counts = X['color'].value_counts()\n"
        "print(json.dumps({k: int(v) for k, v in counts.items()}))"
    )
    counts = json.loads(output)
    assert set(counts) == {"red", "green", "blue", "yellow"}, output

    feature = root.get_by_test_id("pdw-feature")
    expect(feature.locator("option[value=color]")).to_have_text(
        f"{isolated('color')} (categorical)"
    )
    expect(root.get_by_test_id("pdw-category-chart")).to_be_visible()
    expect(root.get_by_test_id("pdw-curve-chart")).to_have_count(0)

    # One mark per category, in the grid's (sorted) order, each drawn.
    marks = root.get_by_test_id("pdw-category")
    expect(marks).to_have_count(len(counts))
    labels = marks.evaluate_all("(ms) => ms.map((m) => m.dataset.category)")
    assert labels == sorted(counts), labels
    for label in counts:
        expect(
            root.locator(f'[data-testid="pdw-category"][data-category="{label}"]')
        ).to_be_visible()
    # Higher partial dependence is higher on screen: red > green > yellow > blue.
    tops = {
        mark["category"]: mark["top"]
        for mark in marks.evaluate_all(
            """(ms) => ms.map((m) => ({
                 category: m.dataset.category,
                 top: m.getBoundingClientRect().top,
               }))"""
        )
    }
    assert sorted(tops, key=tops.get) == ["red", "green", "yellow", "blue"], tops

    # The distribution strip: one bar per category with its row count, and
    # taller bars for more rows.
    bars = root.get_by_test_id("pdw-histogram")
    expect(bars).to_have_count(len(counts))
    drawn = {
        bar["category"]: bar
        for bar in bars.evaluate_all(
            """(bs) => bs.map((b) => ({
                 category: b.dataset.category,
                 count: Number(b.dataset.count),
                 height: b.getBoundingClientRect().height,
               }))"""
        )
    }
    assert {k: v["count"] for k, v in drawn.items()} == counts, drawn
    by_height = sorted(drawn, key=lambda k: drawn[k]["height"])
    assert by_height == sorted(counts, key=counts.get), drawn

    # The tooltip of a category repeats its count.
    red = root.locator('[data-testid="pdw-category"][data-category="red"]')
    box = red.bounding_box()
    nb.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tooltip = root.get_by_test_id("pdw-tooltip")
    expect(tooltip).to_be_visible()
    expect(tooltip).to_contain_text(f"{isolated('color')} = {isolated('red')}")
    expect(tooltip).to_contain_text(f"rows: {counts['red']}")

    nb.screenshot(cell, "pd_categorical.png")


# --- Correlation banner ------------------------------------------------------


def test_correlation_warning_names_the_partner(open_notebook):
    nb, root, cell = open_widget(open_notebook, "pd_correlated.ipynb", CORRELATED)
    chart = root.get_by_test_id("pdw-curve-chart")
    warning = root.get_by_test_id("pdw-warning")
    expect(chart).to_have_attribute("aria-label", "Partial dependence on x1")
    expect(warning).to_be_visible()
    # One list item per partner; Python's whole message is its title.
    partner = warning.get_by_test_id("pdw-warning-item")
    expect(partner).to_have_text("x2 (Spearman ρ = +1.00)")
    expect(partner).to_have_attribute(
        "title", re.compile(r"^Feature 'x1' is strongly correlated with 'x2' ")
    )
    expect(partner).to_have_attribute(
        "title", re.compile(r"\(Spearman rho = \+1\.00\)")
    )
    nb.screenshot(cell, "pd_correlation_warning.png")

    # An independent feature, picked in the page: no banner.
    root.get_by_test_id("pdw-feature").select_option("x3")
    nb.eventually_prints("print(w.features)", "['x3']")
    expect(chart).to_have_attribute("aria-label", "Partial dependence on x3")
    wait_final_curve(nb, root)
    expect(warning).to_be_hidden()
    expect(warning).to_have_text("")

    # And back to the correlated partner: named the other way round.
    root.get_by_test_id("pdw-feature").select_option("x2")
    nb.eventually_prints("print(w.features)", "['x2']")
    expect(chart).to_have_attribute("aria-label", "Partial dependence on x2")
    expect(warning).to_be_visible()
    expect(partner).to_have_text("x1 (Spearman ρ = +1.00)")
    expect(partner).to_have_attribute(
        "title", re.compile(r"^Feature 'x2' is strongly correlated with 'x1' ")
    )


# --- Drawing speed -----------------------------------------------------------


def test_thousand_ice_curves_draw_and_redraw(open_notebook, record_timing):
    nb, root, cell = open_widget(open_notebook, "pd_many_ice.ipynb", FRIEDMAN)
    points = wait_final_curve(nb, root)
    assert points == 100
    canvas = root.get_by_test_id("pdw-ice-canvas")
    expect(canvas).to_have_attribute("data-curves", "1000")
    expect(root.get_by_test_id("pdw-caption")).to_have_text(
        "1,000 of 2,000 ICE curves shown"
    )
    expect(root.get_by_test_id("pdw-pdp")).to_have_attribute("data-points", "100")
    # A regressor: no class to pick, no scale to change.
    expect(root.get_by_test_id("pdw-target")).to_be_hidden()
    expect(root.get_by_test_id("pdw-scale")).to_be_disabled()

    ink = canvas.evaluate(CANVAS_INK_JS)
    print(f"ICE canvas: {ink['ink']} of {ink['total']} pixels painted")
    # A bundle of 1,000 curves covers a good part of the plot, not a few dots.
    assert ink["ink"] > 0.05 * ink["total"], ink
    nb.screenshot(cell, "pd_ice_1000.png")
    svg = root.get_by_test_id("pdw-curve-chart")
    full_width = int(svg.get_attribute("width"))

    # A redraw from the page alone: narrow the widget, the chart redraws all
    # 1,000 curves at the new width (no kernel round trip).
    handle = root.element_handle()
    runs = []
    for width in (600, 680, 560, 640, 620):
        run = nb.page.evaluate(RESIZE_REDRAW_JS, [handle, width])
        assert int(run["width"]) == width, (run, width)
        ink = canvas.evaluate(CANVAS_INK_JS)
        assert ink["ink"] > 0.05 * ink["total"], (width, ink)
        runs.append(run)
    spans = {
        "resize -> redrawn and rasterized": ("t0", "rasterized"),
        "redraw script (frame start -> drawn)": ("frame", "drawn"),
        "redraw with raster (frame start -> rasterized)": ("frame", "rasterized"),
    }
    for label, (start, end) in spans.items():
        ms = [run[end] - run[start] for run in runs]
        print(f"{label} (ms): {[round(t, 1) for t in ms]}")
        record_timing(
            f"pd 1000x100 ICE, page only: {label}, median of 5",
            statistics.median(ms) / 1000,
        )
    root.evaluate("(r) => { r.style.width = ''; }")
    expect(svg).to_have_attribute("width", str(full_width))

    # A redraw through the kernel: "centered" recomputes 1,000 x 100 points.
    box = root.get_by_test_id("pdw-centered")
    nb.page.evaluate(CENTERED_WATCH_JS, box.element_handle())
    box.check()
    nb.page.wait_for_function(
        "() => window.__centered.done !== undefined", timeout=RUN_TIMEOUT
    )
    s = nb.page.evaluate("() => window.__centered")
    record_timing(
        "pd 1000x100 ICE, via kernel: centered toggled -> centered curves drawn",
        (s["done"] - s["t0"]) / 1000,
    )
    nb.eventually_prints("print(w.centered)", "True")
    wait_final_curve(nb, root)
    expect(canvas).to_have_attribute("data-curves", "1000")
    ink = canvas.evaluate(CANVAS_INK_JS)
    assert ink["ink"] > 0.05 * ink["total"], ink
    nb.screenshot(cell, "pd_ice_1000_centered.png")


# --- The overview: every feature's PD as small multiples -------------------

# A churn-like table as it comes: NaN in a float, an integer count, a
# category, a long name, and a column the model knew but X holds only
# missing values of (its panel must say why, not stay blank).
CHURN_OVERVIEW = """\
import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingRegressor
from inspectwidgets import PartialDependenceWidget

rng = np.random.default_rng(0)
n = 1000
X = pd.DataFrame({
    "tenure": rng.integers(0, 72, n),
    "monthly_charges_including_all_add_on_services": rng.gamma(2.0, 30.0, n),
    "plan": pd.Categorical(rng.choice(["basic", "plus", "pro"], n)),
    "support_calls": rng.poisson(2, n).astype(float),
    "last_survey": rng.normal(size=n),
})
X.loc[rng.random(n) < 0.06, "monthly_charges_including_all_add_on_services"] = np.nan
charges = X["monthly_charges_including_all_add_on_services"].fillna(150)
y = charges / 30 - X["tenure"] / 24 + 2 * (X["plan"] == "pro") + X["support_calls"] / 2
model = HistGradientBoostingRegressor(
    max_iter=30, categorical_features="from_dtype", random_state=0
).fit(X, y)
X_seen = X.assign(last_survey=np.nan)  # not asked this year
w = PartialDependenceWidget(
    model, X_seen, features="plan", overview=True, grid_resolution=20, n_ice=30
)
w
"""


def test_overview_small_multiples_open_a_feature(open_notebook):
    nb, root, cell = open_widget(open_notebook, "pd_overview.ipynb", CHURN_OVERVIEW)
    overview = root.get_by_test_id("pdw-overview")
    expect(overview).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    panels = root.get_by_test_id("pdw-overview-panel")
    expect(panels).to_have_count(5)
    expect(root.get_by_test_id("pdw-overview-header")).to_contain_text("PD spread")
    # Every numeric panel drawn (a path with points), the category as dots,
    # the missing charges as a diamond, the empty column with its reason.
    lines = root.get_by_test_id("pdw-overview-line")
    expect(lines).to_have_count(3)
    for d in lines.evaluate_all("(ps) => ps.map((p) => p.getAttribute('d'))"):
        assert re.match(r"^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+)+$", d), d
    plan = panels.filter(has_text="plan")
    expect(plan.locator(".pdw-ov-dot")).to_have_count(3)
    expect(root.get_by_test_id("pdw-overview-missing")).to_have_count(1)
    survey = root.locator('[data-feature="last_survey"]')
    expect(survey.get_by_test_id("pdw-overview-note")).to_contain_text(
        "only missing values"
    )
    long_name = root.locator(
        '[data-feature="monthly_charges_including_all_add_on_services"] .pdw-ov-title'
    )
    expect(long_name).to_have_attribute(
        "title", re.compile("^\u2068?monthly_charges_including_all_add_on_services")
    )
    nb.screenshot(cell, "pd_overview_light.png")

    root.locator('[data-feature="tenure"]').click()
    nb.eventually_prints("print(w.features)", "['tenure']")
    expect(root.locator('[data-feature="tenure"]')).to_have_attribute(
        "aria-pressed", "true", timeout=RUN_TIMEOUT
    )
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    expect(root.get_by_test_id("pdw-pdp")).to_be_visible()
    # Keyboard: Enter on a focused panel opens it too.
    root.locator('[data-feature="support_calls"]').focus()
    nb.page.keyboard.press("Enter")
    nb.eventually_prints("print(w.features)", "['support_calls']")
    try:
        nb.set_theme("JupyterLab Dark")
        expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
        nb.screenshot(cell, "pd_overview_dark.png")
    finally:
        nb.set_theme("JupyterLab Light")
