"""PartialDependenceWidget in JupyterLab: curves, ICE, surface, controls."""

from pathlib import Path

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

BUNDLE = Path(__file__).resolve().parents[2] / "src" / "inspectwidgets" / "static"
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


@pytest.fixture(scope="module", autouse=True)
def built_bundle(chromium_path):
    source = BUNDLE / "pd_widget.js"
    if not source.exists() or "pdw-root" not in source.read_text():
        pytest.fail(
            f"{source} is not the built front end: run `cd js && npm run build`"
        )


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
