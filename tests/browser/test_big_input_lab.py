"""A big input in JupyterLab: the PD widget's status line says what it
computes on which seeded subsample, and its field changes the subsample.

60,000 x 20 is above the 1,000,000 cells where widgets subsample by default
(docs/large_data.md). The test types a new row count into the real page and
asks the kernel what Python received and computed; screenshots go to
tests/output/browser/.
"""

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 90_000  # ms

BIG = """\
import numpy as np
from sklearn.ensemble import RandomForestRegressor
from inspectwidgets import PartialDependenceWidget

rng = np.random.default_rng(0)
X = rng.normal(size=(60_000, 20))
y = X[:, 0] + X[:, 1] * X[:, 2] + rng.normal(scale=0.1, size=len(X))
model = RandomForestRegressor(20, max_depth=6, random_state=0).fit(X[:2000], y[:2000])
w = PartialDependenceWidget(model, X, features=[0], grid_resolution=12, n_ice=50)
w
"""


def test_status_line_shows_and_changes_the_subsample(open_notebook):
    nb = open_notebook(
        "big_input.ipynb", [BIG], viewport={"width": 1280, "height": 1000}
    )
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    root = nb.page.get_by_test_id("pdw-root").first
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    cell = nb.page.locator(".jp-Cell").filter(has=root)
    workload = root.get_by_test_id("pdw-workload")
    expect(workload).to_have_text(
        "10,000 of 60,000 rows (seeded subsample) × 20 features × 12 grid points"
    )
    rows = root.get_by_test_id("pdw-max-rows")
    expect(rows).to_have_value("10000")
    expect(root.get_by_test_id("pdw-caption")).to_contain_text("of 10,000 ICE curves")
    nb.screenshot(cell, "big_input_light.png")

    rows.fill("2500")
    rows.press("Enter")
    nb.eventually_prints("print(w.max_rows)", "2500")
    expect(workload).to_contain_text("2,500 of 60,000 rows", timeout=RUN_TIMEOUT)
    _, output = nb.run_code("print(w.wait(60), len(w._X))")
    assert output.split() == ["done", "2500"], output
    # The numbers are the function's on the same seeded rows.
    _, same = nb.run_code(
        "from inspectwidgets import partial_dependence\n"
        "from inspectwidgets.widgets._workload import seeded_rows\n"
        "r = partial_dependence(model, X[seeded_rows(len(X), 2500, 0)], [0],\n"
        "    grid_resolution=12, n_ice=50, kind='both', method='brute',\n"
        "    random_state=0)\n"
        "print(np.array_equal(r.average, w.result.average))"
    )
    assert same.strip() == "True", same
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    expect(root.get_by_test_id("pdw-caption")).to_contain_text("of 2,500 ICE curves")
    nb.screenshot(cell, "big_input_2500_light.png")
    nb.set_theme("JupyterLab Dark")
    nb.screenshot(cell, "big_input_2500_dark.png")
    nb.set_theme("JupyterLab Light")
