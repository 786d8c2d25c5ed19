"""Accumulated local effects and interaction strength in JupyterLab: the PD
widget's ALE and PD-and-ALE overlay reached from the correlation banner.

Each test runs a notebook in Lab, clicks the real page in Chromium and asks
the kernel what Python received; screenshots in light and dark themes go to
tests/output/browser/.
"""

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 90_000  # ms

# x2 is x1 plus a little noise; the model is trained on both, so partial
# dependence on x1 moves rows to (x1, x2) pairs the data never holds.
CORRELATED = """\
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from inspectwidgets import PartialDependenceWidget

rng = np.random.default_rng(0)
x1 = rng.uniform(-1, 1, size=600)
X = pd.DataFrame({"x1": x1, "x2": x1 + rng.normal(scale=0.05, size=600),
                  "x3": rng.uniform(-1, 1, size=600)})
y = X["x1"] + X["x2"] ** 2 + X["x3"] + rng.normal(scale=0.05, size=600)
model = RandomForestRegressor(n_estimators=30, random_state=0).fit(X, y)
w = PartialDependenceWidget(model, X, features="x1", grid_resolution=12, n_ice=50)
w
"""


def widget_root(nb):
    return nb.page.get_by_test_id("pdw-root").first


def open_widget(open_notebook, name, code):
    nb = open_notebook(name, [code], viewport={"width": 1280, "height": 1400})
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    root = widget_root(nb)
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    cell = nb.page.locator(".jp-Cell").filter(has=root)
    return nb, root, cell


def settle(nb, root):
    """Python's run is over and the page shows its final state."""
    _, output = nb.run_code("print(w.wait(60))")
    assert output.strip() == "done", output
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)


def test_banner_switches_to_ale_and_to_the_overlay(open_notebook):
    nb, root, cell = open_widget(open_notebook, "ale_correlated.ipynb", CORRELATED)
    chart = root.get_by_test_id("pdw-curve-chart")
    expect(chart).to_have_attribute("aria-label", "Partial dependence on x1")
    warning = root.get_by_test_id("pdw-warning")
    expect(warning).to_be_visible()

    # The banner's button: ALE, computed by the engine in Python.
    warning.get_by_test_id("pdw-show-ale").click()
    nb.eventually_prints("print(w.kind)", "ale")
    expect(chart).to_have_attribute(
        "aria-label", "Accumulated local effects of x1", timeout=RUN_TIMEOUT
    )
    settle(nb, root)
    _, edges = nb.run_code("print(len(w.result.edges[0]), w.result.done)")
    assert edges.split() == ["13", "True"], edges
    line = root.get_by_test_id("pdw-ale-line")
    expect(line).to_have_attribute("data-points", "13")
    band = root.get_by_test_id("pdw-ale-band").first
    assert (band.get_attribute("d") or "").startswith("M")
    # Rows per bin under the curve: 12 quantile bins.
    expect(root.get_by_test_id("pdw-histogram")).to_have_count(12)
    expect(root.get_by_test_id("pdw-pdp")).to_be_hidden()
    expect(warning).to_be_hidden()  # ALE stays on the data: no warning
    nb.screenshot(cell, "ale_light.png")

    # The overlay from the kind select: both curves, on one axis.
    root.get_by_test_id("pdw-kind").select_option("average_and_ale")
    nb.eventually_prints("print(w.kind)", "average_and_ale")
    expect(chart).to_have_attribute(
        "aria-label",
        "Partial dependence and accumulated local effects of x1",
        timeout=RUN_TIMEOUT,
    )
    settle(nb, root)
    expect(root.get_by_test_id("pdw-pdp")).to_have_attribute("data-points", "13")
    expect(line).to_have_attribute("data-points", "13")
    expect(root.get_by_test_id("pdw-legend-item")).to_have_count(2)
    _, parts = nb.run_code(
        "print(w.pd_result.complete, list(w.pd_result.grid_values[0]) "
        "== list(w.result.edges[0]))"
    )
    assert parts.split() == ["True", "True"], parts
    # The banner is back (PD is drawn) and offers ALE alone.
    expect(warning).to_be_visible()
    expect(warning.get_by_test_id("pdw-show-overlay")).to_have_count(0)
    nb.screenshot(cell, "ale_overlay_light.png")
    nb.set_theme("JupyterLab Dark")
    nb.screenshot(cell, "ale_overlay_dark.png")
    nb.set_theme("JupyterLab Light")


# x0 and x1 interact (their product); x2 and x3 add.
INTERACTING = """\
import numpy as np
from sklearn.ensemble import HistGradientBoostingRegressor
from inspectwidgets import InteractionWidget

rng = np.random.default_rng(0)
X = rng.uniform(-1, 1, size=(800, 5))
y = 2 * X[:, 0] * X[:, 1] + X[:, 2] + 0.5 * X[:, 3] ** 2
model = HistGradientBoostingRegressor(max_iter=60, random_state=0).fit(X, y)
w = InteractionWidget(model, X, n_samples=120, n_top=4, grid_resolution=12)
w
"""


def test_clicking_an_h2_cell_draws_the_pair(open_notebook):
    nb = open_notebook(
        "ale_interaction.ipynb", [INTERACTING], viewport={"width": 1280, "height": 1400}
    )
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    root = nb.page.get_by_test_id("iaw-root").first
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    cell = nb.page.locator(".jp-Cell").filter(has=root)
    cells = root.get_by_test_id("iaw-cell")
    expect(cells).to_have_count(16)
    pair = root.locator('[data-testid="iaw-cell"][data-row="x0"][data-col="x1"]')
    value = float(pair.get_attribute("data-value"))
    _, printed = nb.run_code(
        "f = w.to_frame(); print(f[(f.kind == 'pair') & (f.feature == 'x0') "
        "& (f.partner == 'x1')].h_squared.item())"
    )
    assert abs(value - float(printed)) < 1e-5, (value, printed)
    assert value > 0.5  # the product interacts
    nb.screenshot(cell, "interaction_light.png")

    pair.click()
    nb.eventually_prints("print(w.pair)", "['x0', 'x1']")
    expect(root).to_have_attribute("data-surface", "x0 × x1", timeout=RUN_TIMEOUT)
    _, status = nb.run_code("print(w.wait(60), w.pair_result.feature_names)")
    assert status.strip() == "done ('x0', 'x1')", status
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    expect(root.get_by_test_id("pdw-heatmap")).to_be_visible()
    expect(root.get_by_test_id("iaw-cell-selected")).to_have_attribute("data-col", "x1")

    # From the keyboard: another cell, Enter; then the pair's ALE.
    other = root.locator('[data-testid="iaw-cell"][data-row="x2"][data-col="x0"]')
    other.focus()
    nb.page.keyboard.press("Enter")
    nb.eventually_prints("print(w.pair)", "['x2', 'x0']")
    expect(root).to_have_attribute("data-surface", "x2 × x0", timeout=RUN_TIMEOUT)
    root.get_by_test_id("iaw-kind").select_option("ale")
    nb.eventually_prints("print(w.kind)", "ale")
    _, status = nb.run_code("print(w.wait(60), type(w.pair_result).__name__)")
    assert status.strip() == "done AccumulatedLocalEffectsResult", status
    expect(root.get_by_test_id("iaw-pair-caption")).to_contain_text(
        "second-order", timeout=RUN_TIMEOUT
    )
    nb.screenshot(cell, "interaction_pair_light.png")
    nb.set_theme("JupyterLab Dark")
    nb.screenshot(cell, "interaction_pair_dark.png")
    nb.set_theme("JupyterLab Light")
