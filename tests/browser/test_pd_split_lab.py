"""PartialDependenceWidget's "split by" and ICE clusters in JupyterLab:
choosing a column redraws one curve per group with a legend of sizes, and
clicking a cluster's rule makes it the split, in the page and in Python."""

import pytest
from conftest import isolated

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 90_000  # ms

# x0's effect flips with x1's sign; plan shifts the level; a few rows are
# "enterprise" (a small group, greyed); seats misses values.
CHURN = """\
import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingRegressor
from inspectwidgets import PartialDependenceWidget

rng = np.random.default_rng(0)
n = 800
plan = rng.choice(["basic", "pro", "team", "enterprise"], n, p=[0.5, 0.3, 0.18, 0.02])
X = pd.DataFrame({
    "x0": rng.uniform(-1, 1, n),
    "x1": rng.uniform(-1, 1, n),
    "plan": pd.Categorical(plan),
    "seats": rng.choice([1.0, 2.0, 5.0, np.nan], n),
})
y = np.where(X.x1 > 0.2, X.x0, -X.x0) + (X.plan == "pro") * 0.5
model = HistGradientBoostingRegressor(
    categorical_features="from_dtype", random_state=0
).fit(X, y)
w = PartialDependenceWidget(model, X, features="x0", grid_resolution=20)
w
"""


@pytest.fixture(scope="module", autouse=True)
def built_bundle(chromium_path, require_bundle):
    require_bundle("pd_widget.js", "pdw-root")


def test_split_by_a_column_then_by_a_cluster_rule(open_notebook):
    nb = open_notebook(
        "pd_split.ipynb", [CHURN], viewport={"width": 1280, "height": 1500}
    )
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    root = nb.page.get_by_test_id("pdw-root")
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    cell = nb.page.locator(".jp-Cell").filter(has=root)
    split = root.get_by_test_id("pdw-split-by")
    expect(split.locator("option")).to_have_text(["— none —", "plan", "seats"])

    split.select_option("plan")
    nb.eventually_prints("print(w.split_by)", "plan")
    curves = root.get_by_test_id("pdw-group-curve")
    expect(curves).to_have_count(4, timeout=RUN_TIMEOUT)
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    legend = root.get_by_test_id("pdw-legend-item")
    expect(legend).to_have_count(4)
    _, sizes = nb.run_code("print(*w._curve['groups']['sizes'])")
    expect(legend).to_have_text(
        [
            f"{isolated(label)} (n = {size})"
            for label, size in zip(
                nb.run_code("print(*w._curve['groups']['labels'])")[1].split(),
                sizes.split(),
                strict=True,
            )
        ]
    )
    expect(root.locator(".pdw-small-group")).to_have_count(1)
    expect(root.get_by_test_id("pdw-small-note")).to_contain_text("enterprise")
    nb.screenshot(cell, "pd_split_by_plan_light.png")

    root.get_by_test_id("pdw-ice-mode").select_option("clusters")
    nb.eventually_prints("print(w.ice_mode)", "clusters")
    rules = root.get_by_test_id("pdw-rule")
    expect(rules.first).to_be_visible(timeout=RUN_TIMEOUT)
    rule = rules.first.get_attribute("data-rule")
    rules.first.click()
    nb.eventually_prints("print(w.split_by)", rule)
    expect(curves).to_have_count(2, timeout=RUN_TIMEOUT)
    expect(legend.first).to_contain_text(rule.split(" ")[0])
    expect(rules.first).to_have_attribute("aria-pressed", "true")
    _, predicted = nb.run_code("print(w.status, len(w._curve['groups']['labels']))")
    assert predicted.split() == ["done", "2"]
    try:
        nb.set_theme("JupyterLab Dark")
        nb.screenshot(cell, "pd_cluster_rule_split_dark.png")
        root.get_by_test_id("pdw-ice-mode").select_option("bands")
        nb.eventually_prints("print(w.ice_mode)", "bands")
        expect(root.get_by_test_id("pdw-ice-band")).to_have_count(
            2, timeout=RUN_TIMEOUT
        )
        nb.screenshot(cell, "pd_bands_dark.png")
    finally:
        nb.set_theme("JupyterLab Light")
