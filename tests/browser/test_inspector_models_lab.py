"""ModelInspector of several models in JupyterLab: the header's columns, one
per model beside the one dummy; the Importance view's dots, one per model
with a legend, flagged where the kernel's paired interval excludes 0; the
header's menu choosing the reviewed model; every model's Effects: its curve,
its ICE curves on demand, a pair's surfaces on one colour scale; in light
and dark themes."""

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
    header = page.get_by_test_id("mi-header")
    nb.screenshot(header, "model_inspector_models_light.png")
    nb.set_theme("JupyterLab Dark")
    nb.screenshot(header, "model_inspector_models_dark.png")
    nb.set_theme("JupyterLab Light")


def test_importance_and_effects_draw_every_model_with_a_legend(
    open_notebook, require_bundle
):
    require_bundle("inspector_widget.js", "mmi-root")
    nb = open_notebook(
        "inspector_models_importance.ipynb",
        [TWO_MODELS],
        viewport={"width": 1280, "height": 2000},
    )
    nb.run_all()
    page = nb.page
    panel = page.get_by_test_id("mi-panel-importance")
    expect(panel.get_by_test_id("mmi-root")).to_have_attribute(
        "data-status", "done", timeout=RUN_TIMEOUT
    )
    # Four features, two models: eight dots, a legend naming both.
    expect(panel.get_by_test_id("icw-dot")).to_have_count(8)
    expect(panel.get_by_test_id("icw-legend")).to_contain_text("boosting")
    expect(panel.get_by_test_id("icw-legend")).to_contain_text("ridge")
    # The flags are where the kernel's paired interval excludes 0.
    flagged = nb.run_code(
        "c = mi.views['importance']._models_chart\n"
        "d = c['differences'][0]['differs']\n"
        "print(' '.join(f for f, flag in zip(c['features'], d) if flag))"
    )[1].split()
    assert "b" in flagged  # ridge cannot use b's square
    rows = panel.locator('[data-testid="icw-row"]:has([data-testid="icw-flag"])')
    expect(rows).to_have_count(len(flagged))
    assert sorted(rows.evaluate_all("rs => rs.map(r => r.dataset.feature)")) == sorted(
        flagged
    )
    row_b = panel.locator('[data-testid="icw-row"][data-feature="b"]')
    row_b.hover()
    expect(panel.get_by_test_id("mmi-tooltip")).to_contain_text("interval excludes 0")
    # A click selects the feature; Effects draws it.
    row_b.click()
    nb.eventually_prints("print(mi.selected_features)", "['b']")
    # Every model's partial dependence of b, one line each, one grid.
    every = page.get_by_test_id("mi-panel-effects_models")
    expect(every.get_by_test_id("mme-curve")).to_have_count(2, timeout=RUN_TIMEOUT)
    expect(every.get_by_test_id("mme-legend-item")).to_have_text(["boosting", "ridge"])
    expect(every.get_by_test_id("mme-root")).to_have_attribute("data-status", "done")
    page.mouse.move(0, 0)
    view = page.get_by_test_id("mi-panel-importance")
    nb.screenshot(view, "model_inspector_models_importance_light.png")
    nb.screenshot(every, "model_inspector_models_effects_light.png")
    nb.set_theme("JupyterLab Dark")
    nb.screenshot(view, "model_inspector_models_importance_dark.png")
    nb.screenshot(every, "model_inspector_models_effects_dark.png")
    nb.set_theme("JupyterLab Light")


def test_the_header_menu_chooses_the_reviewed_model(open_notebook, require_bundle):
    require_bundle("inspector_widget.js", "mi-reviewed")
    nb = open_notebook(
        "inspector_models_reviewed.ipynb",
        [TWO_MODELS],
        viewport={"width": 1280, "height": 2000},
    )
    nb.run_all()
    page = nb.page
    panel = page.get_by_test_id("mi-panel-importance")
    expect(panel.get_by_test_id("mmi-root")).to_have_attribute(
        "data-status", "done", timeout=RUN_TIMEOUT
    )
    menu = page.get_by_test_id("mi-reviewed")
    expect(menu).to_have_value("boosting")
    expect(menu.locator("option")).to_have_text(["boosting", "ridge"])
    menu.select_option("ridge")
    nb.eventually_prints("print(mi.reviewed)", "ridge")
    # The kernel rebuilt the views about one model for ridge: the header
    # names it, and the flags are ridge's paired differences.
    expect(page.get_by_test_id("mi-title")).to_have_text(
        f"{isolated('Ridge')} · regression"
    )
    expect(page.get_by_test_id("mi-scores").locator("th")).to_have_text(
        ["held-out score", isolated("ridge"), isolated("boosting"), "DummyRegressor"]
    )
    nb.eventually_prints(
        "print(mi.views['effects']._estimator is models['ridge'])", "True"
    )
    pair = nb.run_code(
        "d = mi.views['importance']._models_chart['differences']\n"
        "print(d[0]['first'], d[0]['second'])"
    )[1].split()
    assert pair == ["ridge", "boosting"]
    page.get_by_test_id("icw-row").filter(
        has=page.get_by_test_id("icw-flag")
    ).first.hover()
    expect(panel.get_by_test_id("mmi-tooltip")).to_contain_text(
        f"{isolated('ridge')} − {isolated('boosting')}"
    )
    # Set from Python: the menu follows.
    nb.run_code("mi.reviewed = 'boosting'")
    expect(menu).to_have_value("boosting")
    expect(page.get_by_test_id("mi-title")).to_have_text(
        f"{isolated('HistGradientBoostingRegressor')} · regression"
    )
    nb.run_code("mi.reviewed = 'ridge'")
    expect(menu).to_have_value("ridge")
    page.mouse.move(0, 0)
    header = page.get_by_test_id("mi-header")
    nb.screenshot(header, "model_inspector_reviewed_header_light.png")
    nb.screenshot(panel, "model_inspector_reviewed_importance_light.png")
    nb.set_theme("JupyterLab Dark")
    nb.screenshot(header, "model_inspector_reviewed_header_dark.png")
    nb.screenshot(panel, "model_inspector_reviewed_importance_dark.png")
    nb.set_theme("JupyterLab Light")


def test_every_models_ice_on_demand_and_surfaces_of_a_pair(
    open_notebook, require_bundle
):
    require_bundle("inspector_widget.js", "mme-ice-toggle")
    nb = open_notebook(
        "inspector_models_effects.ipynb",
        [TWO_MODELS.replace("\nmi\n", "\nmi.selected_features = ['b']\nmi\n")],
        viewport={"width": 1280, "height": 2200},
    )
    nb.run_all()
    page = nb.page
    every = page.get_by_test_id("mi-panel-effects_models")
    expect(every.get_by_test_id("mme-curve")).to_have_count(2, timeout=RUN_TIMEOUT)
    expect(every.get_by_test_id("mme-ice-panel")).to_have_count(0)
    # ICE asked with the toggle: a panel per model, the same rows, one y scale.
    every.get_by_test_id("mme-ice-toggle").check()
    nb.eventually_prints("print(mi.views['effects_models'].ice)", "True")
    panels = every.get_by_test_id("mme-ice-panel")
    expect(panels).to_have_count(2, timeout=RUN_TIMEOUT)
    expect(every.get_by_test_id("mme-root")).to_have_attribute(
        "data-status", "done", timeout=RUN_TIMEOUT
    )
    expect(panels.first).to_have_attribute("data-rows", "100")
    domains = panels.evaluate_all("ps => ps.map(p => p.dataset.yDomain)")
    assert domains[0] == domains[1]
    every.get_by_test_id("mme-centered-toggle").check()
    nb.eventually_prints("print(mi.views['effects_models'].centered)", "True")
    expect(every.get_by_test_id("mme-title")).to_contain_text("centered")
    rows = nb.run_code(
        "f = mi.to_frame('effects_models')\nprint(f['row'].nunique(), f.shape[1])"
    )[1].split()
    assert rows == ["100", "5"]
    page.mouse.move(0, 0)
    nb.screenshot(every, "model_inspector_models_ice_light.png")
    nb.set_theme("JupyterLab Dark")
    nb.screenshot(every, "model_inspector_models_ice_dark.png")
    nb.set_theme("JupyterLab Light")
    # A pair: every model's surface side by side, one colour scale.
    nb.run_code("mi.selected_features = ['a', 'b']")
    surfaces = every.get_by_test_id("mme-surface-panel")
    expect(surfaces).to_have_count(2, timeout=RUN_TIMEOUT)
    expect(every.get_by_test_id("mme-root")).to_have_attribute(
        "data-status", "done", timeout=RUN_TIMEOUT
    )
    expect(surfaces.first).to_have_attribute("data-cells", "2500")
    domains = surfaces.evaluate_all("ps => ps.map(p => p.dataset.colorDomain)")
    assert domains[0] == domains[1]
    expect(every.get_by_test_id("mme-ice-panel")).to_have_count(0)
    expect(every.get_by_test_id("mme-chart")).to_be_hidden()
    expect(every.get_by_test_id("mme-color-legend")).to_be_visible()
    nb.screenshot(every, "model_inspector_models_surfaces_light.png")
    nb.set_theme("JupyterLab Dark")
    nb.screenshot(every, "model_inspector_models_surfaces_dark.png")
    nb.set_theme("JupyterLab Light")
    # ALE instead: each model's second-order effect, the same bins.
    every.get_by_test_id("mme-effect-ale").click()
    nb.eventually_prints("print(mi.views['effects_models'].effect)", "ale")
    expect(every.get_by_test_id("mme-title")).to_contain_text(
        "second-order accumulated local effects", timeout=RUN_TIMEOUT
    )
    expect(every.get_by_test_id("mme-surface-panel")).to_have_count(2)
    nb.run_code("mi.selected_features = ['b']")
    expect(every.get_by_test_id("mme-title")).to_contain_text(
        f"accumulated local effects of {isolated('b')}", timeout=RUN_TIMEOUT
    )
    expect(every.get_by_test_id("mme-curve")).to_have_count(2)
    nb.screenshot(every, "model_inspector_models_ale_light.png")


def test_saved_two_model_review_draws_offline(tmp_path, browser, require_bundle):
    require_bundle("inspector_widget.js", "mme-root")
    namespace = {}
    exec(TWO_MODELS.replace("\nmi\n", "\n"), namespace)
    mi = namespace["mi"]
    try:
        mi.selected_features = ["b"]
        mi.wait(RUN_TIMEOUT / 1000)
        path = mi.save_html(tmp_path / "two_models.html")
    finally:
        mi.close()
    context = browser.new_context(viewport={"width": 1200, "height": 1400})
    blocked, errors = [], []

    def block(route):
        blocked.append(route.request.url)
        route.abort()

    context.route(lambda url: url.startswith("http"), block)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(path.as_uri())
        expect(page.get_by_test_id("icw-dot")).to_have_count(8, timeout=30_000)
        expect(page.get_by_test_id("icw-legend")).to_contain_text("ridge")
        expect(page.get_by_test_id("mme-curve")).to_have_count(2)
        expect(page.get_by_test_id("mme-legend-item")).to_have_text(
            ["boosting", "ridge"]
        )
        assert errors == [] and blocked == []
    finally:
        context.close()
