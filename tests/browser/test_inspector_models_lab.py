"""ModelInspector of several models in JupyterLab: the header's columns, one
per model beside the one dummy, in light and dark themes."""

import pytest
from conftest import isolated

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 60_000  # ms

TWO_MODELS = """\
import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import Ridge
from sklearn.model_selection import train_test_split
from inspectwidgets import ModelInspector

rng = np.random.RandomState(0)
X = pd.DataFrame(rng.normal(size=(800, 4)), columns=["a", "b", "c", "d"])
y = 3 * X["a"] + X["b"] ** 2 + rng.normal(scale=0.3, size=800)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
models = {
    "boosting": HistGradientBoostingRegressor(max_iter=30, random_state=0),
    "ridge": Ridge(),
}
for m in models.values():
    m.fit(X_train, y_train)
mi = ModelInspector(models, X_test, y_test, X_train=X_train, y_train=y_train,
                    scoring=["r2", "neg_mean_absolute_error"], n_repeats=3,
                    random_state=0)
mi
"""


def test_header_scores_each_model_beside_the_dummy(open_notebook, require_bundle):
    require_bundle("inspector_widget.js", "mi-other-score")
    nb = open_notebook(
        "inspector_models.ipynb", [TWO_MODELS], viewport={"width": 1280, "height": 2000}
    )
    nb.run_all()
    page = nb.page
    expect(page.get_by_test_id("mi-title")).to_have_text(
        f"{isolated('HistGradientBoostingRegressor')} · regression"
    )
    table = page.get_by_test_id("mi-scores")
    expect(table.locator("th")).to_have_text(
        [
            "held-out score",
            isolated("boosting"),
            isolated("ridge"),
            "DummyRegressor",
        ]
    )
    expect(page.get_by_test_id("mi-other-score")).to_have_count(2)
    # The numbers shown are the kernel's, to the digits drawn.
    ridge = nb.run_code(
        "print(' '.join(f'{v:.2f}' for v in mi.to_frame('header')['ridge']))"
    )[1].split()
    cells = page.get_by_test_id("mi-other-score").all_text_contents()
    # The front end writes a minus sign (U+2212).
    assert [float(c.replace("\u2212", "-")) for c in cells] == pytest.approx(
        [float(v) for v in ridge], abs=0.051
    )
    expect(
        page.locator('[data-testid="mi-panel-importance"] [data-testid="piw-bar"]')
    ).to_have_count(4, timeout=RUN_TIMEOUT)
    header = page.get_by_test_id("mi-header")
    nb.screenshot(header, "model_inspector_models_light.png")
    nb.set_theme("JupyterLab Dark")
    nb.screenshot(header, "model_inspector_models_dark.png")
    nb.set_theme("JupyterLab Light")
