"""A standalone PermutationImportanceWidget on a model worse than a constant
says the inspector header's warning above its bars, in JupyterLab, light and
dark (issue #52, item 7)."""

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 90_000  # ms

# Fitted on a target unrelated to X: worse than predicting the mean.
BAD_MODEL = """\
import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingRegressor
from inspectwidgets import PermutationImportanceWidget

rng = np.random.default_rng(0)
n = 600
X = pd.DataFrame({
    "size": np.where(rng.random(n) < 0.1, np.nan, rng.normal(size=n)),
    "rooms": rng.integers(1, 6, n),
    "city": pd.Categorical(rng.choice(["north", "south", "east"], n)),
})
y = 3 * np.nan_to_num(X["size"]) + X["rooms"] + rng.normal(size=n)
unrelated = rng.normal(scale=3, size=n)
model = HistGradientBoostingRegressor(
    categorical_features="from_dtype", random_state=0
).fit(X[:300], unrelated[:300])
w = PermutationImportanceWidget(model, X[300:], y[300:], n_repeats=3)
w
"""


@pytest.fixture(scope="module", autouse=True)
def built_bundle(chromium_path, require_bundle):
    require_bundle("permutation_widget.js", "piw-root")


def test_a_bad_model_gets_the_inspectors_warning(open_notebook):
    nb = open_notebook(
        "bad_model.ipynb", [BAD_MODEL], viewport={"width": 1100, "height": 900}
    )
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    root = nb.page.get_by_test_id("piw-root")
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    warning = root.get_by_test_id("piw-warning")
    expect(warning).to_be_visible()
    _, said = nb.run_code(
        "from inspectwidgets.widgets._review_header import BAD_MODEL_WARNING\n"
        "print(w._chart['warning'] == BAD_MODEL_WARNING, w.result.baseline_scores)"
    )
    assert said.startswith("True"), said
    expect(warning).to_contain_text("The model barely beats a dummy baseline.")
    expect(root.get_by_test_id("piw-bar")).to_have_count(3)
    cell = nb.page.locator(".jp-Cell").filter(has=root)
    nb.screenshot(cell, "bad_model_warning_light.png")
    try:
        nb.set_theme("JupyterLab Dark")
        nb.screenshot(cell, "bad_model_warning_dark.png")
    finally:
        nb.set_theme("JupyterLab Light")
