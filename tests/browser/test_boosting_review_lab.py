"""A LightGBM model reviewed in JupyterLab (#48): a table with names holding
spaces, NaN and a native categorical column; the bars name X's columns (not
LightGBM's underscored names), the Comparison draws LightGBM's own split gain
and says in a sentence why MDI is missing, and clicking a bar draws that
feature's effects. Screenshots in light and dark themes."""

import pytest
from conftest import isolated

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 90_000  # ms

REVIEW = """\
import numpy as np
import pandas as pd
import lightgbm as lgb
from sklearn.model_selection import train_test_split
from inspectwidgets import ModelInspector

rng = np.random.default_rng(0)
n = 1500
plan = rng.choice(["basic", "plus", "premium"], size=n)
tenure = rng.integers(1, 72, size=n).astype(float)
tenure[rng.random(n) < 0.1] = np.nan
calls = rng.poisson(1.5, n)
X = pd.DataFrame({
    "plan type": pd.Categorical(plan),
    "tenure (months)": tenure,
    "support calls": calls,
    "customer id digit": rng.integers(0, 10, n),
})
logit = -1 + 0.6 * calls - 0.04 * np.nan_to_num(tenure, nan=12) + (plan == "basic")
y = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
model = lgb.LGBMClassifier(n_estimators=60, num_leaves=15, verbose=-1,
                           random_state=0).fit(X_train, y_train)
mi = ModelInspector(model, X_test, y_test, X_train=X_train, y_train=y_train,
                    scoring="roc_auc", n_repeats=3, random_state=0)
mi
"""


def _bar(page, feature):
    return page.locator(
        f'[data-testid="mi-panel-importance"] [data-testid="piw-bar"]'
        f'[data-feature="{feature}"]'
    )


def test_lightgbm_review(open_notebook, require_bundle):
    require_bundle("inspector_widget.js", "mi-root")
    nb = open_notebook(
        "lightgbm_review.ipynb", [REVIEW], viewport={"width": 1280, "height": 2400}
    )
    nb.run_all()
    page = nb.page
    expect(page.get_by_test_id("mi-title")).to_have_text(
        f"{isolated('LGBMClassifier')} · binary classification"
    )
    bars = page.locator('[data-testid="mi-panel-importance"] [data-testid="piw-bar"]')
    expect(bars).to_have_count(4, timeout=RUN_TIMEOUT)
    # X's own names, with their spaces and parentheses.
    expect(_bar(page, "tenure (months)")).to_have_count(1)
    effects = page.locator('[data-testid="mi-panel-effects"] [data-testid="pdw-root"]')
    expect(effects).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)

    _bar(page, "tenure (months)").click(force=True)
    expect(page.get_by_test_id("mi-selection")).to_have_text(
        f"Selected: {isolated('tenure (months)')}"
    )
    nb.eventually_prints(
        "e = mi.views['effects']; print(e.status, list(e.result.feature_names))",
        "done ['tenure (months)']",
        timeout=90,
    )

    page.get_by_test_id("mi-view-comparison").click()
    panel = page.locator('[data-testid="mi-panel-comparison"]')
    expect(panel.get_by_test_id("icw-row")).to_have_count(4, timeout=RUN_TIMEOUT)
    legend = panel.get_by_test_id("icw-legend")
    expect(legend).to_contain_text("Split gain (train)")
    expect(legend).not_to_contain_text("MDI")
    note = panel.get_by_test_id("icw-measures-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("this LightGBM model shows its own instead")
    # The kernel agrees with the page: LightGBM's gain, one share per column.
    nb.eventually_prints(
        "f = mi.views['comparison'].to_frame(); "
        "print(round(f['gain'].sum(), 6), f['mdi'].isna().all())",
        "1.0 True",
        timeout=90,
    )
    root = page.get_by_test_id("mi-root")
    nb.screenshot(root, "lightgbm_review_light.png")
    nb.set_theme("JupyterLab Dark")
    nb.screenshot(root, "lightgbm_review_dark.png")
    nb.set_theme("JupyterLab Light")
