"""PermutationImportanceWidget's "split by" in JupyterLab: choosing a column
redraws one dot per subgroup for each feature, with a legend of the
subgroups' sizes and the small one greyed, in the page and in Python; "none"
brings the bars back."""

import pytest
from conftest import isolated, open_on_demand

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 90_000  # ms

# x0 matters on the "pro" plan only; a few rows are "enterprise" (a small
# subgroup, greyed); seats misses values (a "missing" subgroup).
CHURN = """\
import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingRegressor
from inspectwidgets import PermutationImportanceWidget

rng = np.random.default_rng(0)
n = 800
plan = rng.choice(["basic", "pro", "team", "enterprise"], n, p=[0.5, 0.3, 0.18, 0.02])
X = pd.DataFrame({
    "x0": rng.uniform(-1, 1, n),
    "x1": rng.uniform(-1, 1, n),
    "plan": pd.Categorical(plan),
    "seats": rng.choice([1.0, 2.0, 5.0, np.nan], n),
})
y = np.where(X.plan == "pro", 2 * X.x0, 0.2 * X.x0) + X.x1 + 0.1 * rng.normal(size=n)
model = HistGradientBoostingRegressor(
    categorical_features="from_dtype", random_state=0
).fit(X, y)
w = PermutationImportanceWidget(model, X, y, n_repeats=4)
w
"""


@pytest.fixture(scope="module", autouse=True)
def built_bundle(chromium_path, require_bundle):
    require_bundle("permutation_widget.js", "piw-root")


def test_split_by_a_column_draws_a_dot_per_subgroup(open_notebook):
    nb = open_notebook(
        "permutation_split.ipynb", [CHURN], viewport={"width": 1280, "height": 1400}
    )
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    root = nb.page.get_by_test_id("piw-root")
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    cell = nb.page.locator(".jp-Cell").filter(has=root)
    split = root.get_by_test_id("piw-split-by")
    expect(split.locator("option")).to_have_text(["— none —", "plan", "seats"])

    split.select_option("plan")
    nb.eventually_prints("print(w.split_by)", "plan")
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    _, labels = nb.run_code("print(*w._chart['groups']['labels'], sep='|')")
    _, sizes = nb.run_code("print(*w._chart['groups']['sizes'])")
    labels, sizes = labels.strip().split("|"), sizes.split()
    grouped = root.get_by_test_id("piw-grouped")
    legend = grouped.locator(".icw-legend-item")
    expect(legend).to_have_count(4)
    expect(legend).to_have_text(
        [
            f"{label} (n = {size}{', few rows' if label == 'enterprise' else ''})"
            for label, size in zip(labels, sizes, strict=True)
        ]
    )
    expect(grouped.locator(".icw-legend-muted")).to_have_text(
        "enterprise (n = 21, few rows)"
    )
    # Every subgroup has a number for every feature: 4 features x 4 dots.
    expect(grouped.get_by_test_id("icw-dot")).to_have_count(16, timeout=RUN_TIMEOUT)
    expect(root.get_by_test_id("iw-grouped-note")).to_contain_text("enterprise")
    expect(root.get_by_test_id("piw-baseline")).to_contain_text(
        f"split by {isolated('plan')}"
    )
    expect(root.get_by_test_id("piw-kind-box")).to_be_disabled()
    # Python holds what the page draws: each subgroup's own result.
    _, state = nb.run_code(
        "print(w.status, type(w.result).__name__, w.to_frame()['subgroup'].nunique())"
    )
    assert state.split() == ["done", "SubgroupImportanceResult", "4"]
    nb.screenshot(cell, "permutation_split_by_plan_light.png")
    try:
        nb.set_theme("JupyterLab Dark")
        nb.screenshot(cell, "permutation_split_by_plan_dark.png")
    finally:
        nb.set_theme("JupyterLab Light")

    split.select_option("")
    nb.eventually_prints("print(w.split_by)", "None")
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    expect(root.get_by_test_id("piw-bar")).to_have_count(4)
    expect(grouped).to_be_hidden()


INSPECTOR = CHURN.replace(
    "w = PermutationImportanceWidget(model, X, y, n_repeats=4)\nw\n",
    "from inspectwidgets import ModelInspector\n"
    "mi = ModelInspector(model, X, y, X_train=X, y_train=y, n_repeats=3)\nmi\n",
)


def test_the_inspectors_held_out_view_splits_and_the_cv_view_offers_none(
    open_notebook, require_bundle
):
    require_bundle("inspector_widget.js", "mi-root")
    nb = open_notebook(
        "inspector_split.ipynb", [INSPECTOR], viewport={"width": 1280, "height": 1400}
    )
    nb.run_all()
    page = nb.page
    root = page.get_by_test_id("mi-root")
    panel = page.get_by_test_id("mi-panel-importance")
    expect(panel.get_by_test_id("piw-bar")).to_have_count(4, timeout=RUN_TIMEOUT)
    open_on_demand(root, "mi-settings")
    panel.get_by_test_id("piw-split-by").select_option("plan")
    nb.eventually_prints("print(mi.views['importance'].split_by)", "plan")
    expect(panel.get_by_test_id("piw-grouped").get_by_test_id("icw-dot")).to_have_count(
        16, timeout=RUN_TIMEOUT
    )
    expect(panel.get_by_test_id("iw-grouped-note")).to_contain_text("enterprise")
    nb.eventually_prints(
        "print(mi.views['importance'].status)", "done", timeout=RUN_TIMEOUT / 1000
    )
    nb.screenshot(root, "inspector_split_by_plan_light.png")
    # Cross-validated: every row of each fold, no split offered.
    page.get_by_test_id("mi-importance-on-cv").click()
    cv = page.get_by_test_id("mi-panel-importance_cv")
    expect(cv.get_by_test_id("piw-bar")).to_have_count(4, timeout=RUN_TIMEOUT)
    expect(cv.get_by_test_id("piw-split-by")).to_be_hidden()
