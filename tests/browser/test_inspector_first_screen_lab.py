"""ModelInspector's first screen (#52 item 10): at a notebook's usual width,
the verdict (the score against the dummy), the importance bars and the
selected feature's effect are all visible without scrolling; the settings
and the cohort form open on demand, by keyboard too."""

import json
from pathlib import Path

import pytest
from conftest import OUTPUT_DIR

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 60_000  # ms
ROOT = Path(__file__).resolve().parents[2]
# The width the issue measured at; a laptop's notebook column is about that.
WIDTH = 970
# One screen: what a 1080-pixel-high display shows of a cell's output under
# the browser's and JupyterLab's bars.
FIRST_SCREEN = 800  # px from the widget's top

REVIEW = """\
from sklearn.datasets import load_diabetes
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import train_test_split
from inspectwidgets import ModelInspector

X, y = load_diabetes(return_X_y=True, as_frame=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
model = RandomForestRegressor(n_estimators=30, random_state=0).fit(X_train, y_train)
mi = ModelInspector(model, X_test, y_test, X_train=X_train, y_train=y_train,
                    random_state=0)
mi
"""

# Where each part starts, in px below the widget's top.
PLACES_JS = """
(root) => {
  const top = root.getBoundingClientRect().top;
  const at = (selector) => {
    const el = root.querySelector(selector);
    if (!el) return null;
    const box = el.getBoundingClientRect();
    return box.height > 0 ? Math.round(box.top - top) : null;
  };
  const bottom = (selector) => {
    const el = root.querySelector(selector);
    if (!el) return null;
    const box = el.getBoundingClientRect();
    return box.height > 0 ? Math.round(box.bottom - top) : null;
  };
  // The selected feature's own chart, not a panel of the overview.
  const curve = [...root.querySelectorAll(
    '[data-testid="mi-panel-effects"] svg[aria-label^="Partial dependence on"]')]
    .find((svg) => !svg.closest('[data-testid="pdw-overview"]'));
  const box = curve?.getBoundingClientRect();
  return {
    verdict: bottom('[data-testid="mi-scores"]'),
    first_bar: at('[data-testid="mi-panel-importance"] [data-testid="piw-bar"]'),
    effect_curve: box && box.height > 0 ? Math.round(box.bottom - top) : null,
    widget_height: Math.round(root.getBoundingClientRect().height),
  };
}
"""


def test_first_screen_shows_verdict_bars_and_effect(open_notebook, require_bundle):
    require_bundle("inspector_widget.js", "mi-root")
    nb = open_notebook(
        "first_screen.ipynb", [REVIEW], viewport={"width": WIDTH, "height": 2400}
    )
    # The notebook alone, as on a narrow window: the file browser folded.
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    page = nb.page
    root = page.get_by_test_id("mi-root")
    effects = page.locator('[data-testid="mi-panel-effects"] [data-testid="pdw-root"]')
    expect(effects).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    for chart in root.locator("svg[data-settled]").all():
        if chart.is_visible():
            expect(chart).to_have_attribute("data-settled", "true")
    places = root.evaluate(PLACES_JS)
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    (OUTPUT_DIR / "inspector_first_screen.json").write_text(json.dumps(places))
    print("first screen:", places)
    for theme, name in [("JupyterLab Dark", "dark"), ("JupyterLab Light", "light")]:
        nb.set_theme(theme)
        nb.screenshot(root, f"inspector_first_screen_{name}.png")
        # The first screen alone: the widget's top FIRST_SCREEN pixels.
        box = root.bounding_box()
        page.screenshot(
            path=str(OUTPUT_DIR / f"inspector_first_screen_{name}_clip.png"),
            clip={**box, "height": min(box["height"], FIRST_SCREEN)},
            animations="disabled",
        )

    # The verdict, the bars and the selected feature's curve: one screen.
    # (Before #52: the first bar at 450 px, the curve's end below 1,000 px.)
    assert places["verdict"] is not None and places["verdict"] < 150, places
    assert places["first_bar"] is not None and places["first_bar"] < 250, places
    assert places["effect_curve"] is not None, places
    assert places["effect_curve"] < FIRST_SCREEN, places

    # Settings and the cohort form open on demand, from the keyboard too.
    repeats = root.get_by_test_id("piw-repeats")
    form = root.get_by_test_id("mi-cohort-form")
    expect(repeats).to_be_hidden()
    expect(form).to_be_hidden()
    settings = root.get_by_test_id("mi-settings")
    expect(settings).to_have_attribute("aria-expanded", "false")
    settings.focus()
    page.keyboard.press("Enter")
    expect(settings).to_have_attribute("aria-expanded", "true")
    expect(repeats).to_be_visible()
    expect(root.get_by_test_id("pdw-kind")).to_be_visible()
    expect(root.get_by_test_id("mi-max-rows")).to_be_visible()
    root.get_by_test_id("mi-cohorts-toggle").focus()
    page.keyboard.press("Space")
    expect(form).to_be_visible()
    nb.screenshot(root, "inspector_first_screen_settings_open_light.png")
    page.keyboard.press("Space")
    expect(form).to_be_hidden()
