"""What #52 found drawn wrong, drawn right: the second-order ALE's and H²'s
colour scales (item 3); a saved page's Class menu (item 2); the scorers
chosen in the inspector's held-out Importance view (item 6). Screenshots
under tests/output/browser/issue52_* (light and dark where the page has a
dark theme: a saved page has none)."""

import pytest
from conftest import OUTPUT_DIR, isolated, open_on_demand

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 60_000  # ms

# y depends on x0 and x1 only: a logistic model's small weights on x2 and x3
# leave those two a negligible second-order effect on the probability.
NEGLIGIBLE = """\
import numpy as np
from sklearn.linear_model import LogisticRegression
from inspectwidgets import InteractionWidget

rng = np.random.default_rng(0)
X = rng.uniform(-1, 1, size=(800, 4))
y = (2 * X[:, 0] + X[:, 1] + 0.5 * rng.normal(size=800) > 0).astype(int)
model = LogisticRegression().fit(X, y)
w = InteractionWidget(model, X, n_samples=120, n_top=4, grid_resolution=10,
                      kind="ale", pair=["x2", "x3"])
w
"""

TICKS_JS = """
(legend) => [...legend.querySelectorAll('.iw-axis text')]
  .map((t) => Number(t.textContent.replace('\\u2212', '-')))
"""


# Tick labels of a legend drawn (partly) outside its svg's box: px over.
LABELS_OUTSIDE_JS = """
(legend) => {
  const box = legend.getBoundingClientRect();
  return [...legend.querySelectorAll('.iw-axis text')].map((t) => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, left: box.left - r.left, right: r.right - box.right};
  }).filter((s) => s.left > 0.5 || s.right > 0.5);
}
"""


def _shoot(nb, locator, name):
    for theme, suffix in [("JupyterLab Light", "light"), ("JupyterLab Dark", "dark")]:
        nb.set_theme(theme)
        nb.screenshot(locator, f"issue52_{name}_{suffix}.png")
    nb.set_theme("JupyterLab Light")


def test_a_negligible_second_order_effect_is_drawn_pale(open_notebook):
    nb = open_notebook(
        "issue52_scales.ipynb", [NEGLIGIBLE], viewport={"width": 1280, "height": 1400}
    )
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    root = nb.page.get_by_test_id("iaw-root").first
    expect(root).to_have_attribute("data-surface", "x2 × x3", timeout=RUN_TIMEOUT)
    nb.eventually_prints("print(w.wait(60))", "done", timeout=60)
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    _, spread = nb.run_code(
        "import numpy as np; print(float(np.abs(w.pair_result.centered).max()))"
    )
    assert float(spread) < 0.002, spread  # negligible, as the issue's
    legend = root.locator('[data-testid="pdw-legend"]')
    expect(legend).to_be_visible()
    ticks = legend.evaluate(TICKS_JS)
    # The colours span at least ±0.01 (one percentage point), not ±spread.
    assert max(abs(t) for t in ticks) >= 0.01, ticks
    # Every tick label inside the legend's own box: "−0.010" at the left end
    # was cut by the page's edge.
    spill = legend.evaluate(LABELS_OUTSIDE_JS)
    assert not spill, spill
    # H²'s legend reaches past 1 when a pair's H² does.
    _, top = nb.run_code("print(w.to_frame().h_squared.max())")
    h2_ticks = root.get_by_test_id("iaw-legend").evaluate(TICKS_JS)
    assert max(h2_ticks) >= min(float(top), 1) - 1e-6, (h2_ticks, top)
    _shoot(nb, nb.page.locator(".jp-Cell").filter(has=root), "item3_scales")


# --- Item 2: a saved page's Class menu ---------------------------------------


# Penguin-like, three species named by strings: NaN in a measure, an
# integer-valued year, an island as a category.
def _penguins():
    import numpy as np
    import pandas as pd
    from sklearn.ensemble import HistGradientBoostingClassifier

    rng = np.random.default_rng(0)
    n = 300
    species = rng.integers(0, 3, n)
    flipper = np.round(185 + 12 * species + rng.normal(0, 6, n))
    flipper[rng.random(n) < 0.05] = np.nan
    X = pd.DataFrame(
        {
            "flipper_length_mm": flipper,
            "bill_depth_mm": 17 + rng.normal(0, 2, n) - species,
            "year": rng.integers(2007, 2010, n).astype(float),
            "island": pd.Categorical(
                np.where(species == 2, "Biscoe", rng.choice(["Dream", "Torgersen"], n))
            ),
        }
    )
    y = np.asarray(["Adelie", "Chinstrap", "Gentoo"])[species]
    model = HistGradientBoostingClassifier(
        max_iter=20, categorical_features="from_dtype", random_state=0
    ).fit(X, y)
    return model, X, y


@pytest.fixture(scope="module")
def saved_multiclass_pages(tmp_path_factory, chromium_path):
    """A multiclass inspector and a PD widget (showing Chinstrap), each
    saved as a standalone page."""
    from inspectwidgets import ModelInspector, PartialDependenceWidget
    from inspectwidgets.widgets._standalone import save_html

    model, X, y = _penguins()
    folder = tmp_path_factory.mktemp("saved52")
    mi = ModelInspector(model, X, y, random_state=0, n_repeats=3)
    mi.wait(120)
    pd_widget = PartialDependenceWidget(
        model, X, features="flipper_length_mm", grid_resolution=10
    )
    pd_widget.wait(60)
    pd_widget.target = "Chinstrap"
    pd_widget.wait(60)
    try:
        yield {
            "inspector": mi.save_html(folder / "review.html"),
            "pd": save_html(pd_widget, folder / "pd.html"),
        }
    finally:
        mi.close()
        pd_widget.close()


# The class each drawn 1-way chart names in its y title ("... of class X").
Y_TITLE_JS = """
(root) => [...root.querySelectorAll('.pdw-y-title')]
  .filter((t) => t.getBoundingClientRect().height > 0)
  .map((t) => t.querySelector('title')?.textContent ?? t.textContent)
"""


@pytest.mark.parametrize(
    ("page_name", "root_testid", "shown"),
    [("pd", "pdw-root", "Chinstrap"), ("inspector", "mi-root", None)],
)
def test_a_saved_pages_class_menu_is_disabled_and_the_chart_stays_on_its_class(
    browser, saved_multiclass_pages, page_name, root_testid, shown
):
    context = browser.new_context(viewport={"width": 1200, "height": 1200})
    errors = []
    try:
        context.route(lambda url: url.startswith("http"), lambda r: r.abort())
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(saved_multiclass_pages[page_name].as_uri())
        root = page.get_by_test_id(root_testid).first
        expect(root).to_be_visible(timeout=RUN_TIMEOUT)
        if root_testid == "mi-root":
            open_on_demand(root, "mi-settings")
            scope = root.get_by_test_id("mi-panel-effects")
        else:
            scope = root
        menu = scope.get_by_test_id("pdw-target").first
        expect(menu).to_be_visible()
        expect(menu).to_be_disabled()
        shown = shown or menu.input_value()
        assert shown in ("Adelie", "Chinstrap", "Gentoo"), shown
        expect(menu).to_have_value(shown)
        # Its note: which class is drawn, and that another needs a kernel.
        note = menu.get_attribute("title")
        assert f"class {shown}" in note and "kernel" in note, note
        titles = scope.evaluate(Y_TITLE_JS)
        assert titles and all(f"class {isolated(shown)}" in t for t in titles), titles
        # Even a change forced past the disabled menu leaves the chart, and
        # the menu, on the class the page holds.
        other = next(c for c in ("Adelie", "Gentoo") if c != shown)
        menu.evaluate(
            """(select, value) => {
                 select.value = value;
                 select.dispatchEvent(new Event('change', {bubbles: true}));
               }""",
            other,
        )
        page.wait_for_timeout(300)  # a redraw, were there one, is a frame away
        assert scope.evaluate(Y_TITLE_JS) == titles
        expect(menu).to_have_value(shown)
        assert not errors, errors
        nb_path = OUTPUT_DIR / f"issue52_item2_saved_{page_name}_light.png"
        OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
        menu.hover()
        root.screenshot(path=str(nb_path), animations="disabled")
    finally:
        context.close()


# --- Item 6: scorers chosen in the held-out Importance view ------------------

REVIEW = """\
import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.model_selection import train_test_split
from inspectwidgets import ModelInspector

rng = np.random.default_rng(0)
n = 400
species = rng.integers(0, 3, n)
flipper = np.round(185 + 12 * species + rng.normal(0, 6, n))
flipper[rng.random(n) < 0.05] = np.nan
X = pd.DataFrame({
    "flipper_length_mm": flipper,
    "bill_depth_mm": 17 + rng.normal(0, 2, n) - species,
    "year": rng.integers(2007, 2010, n).astype(float),
    "island": pd.Categorical(
        np.where(species == 2, "Biscoe", rng.choice(["Dream", "Torgersen"], n))),
})
y = np.asarray(["Adelie", "Chinstrap", "Gentoo"])[species]
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
model = HistGradientBoostingClassifier(
    max_iter=20, categorical_features="from_dtype", random_state=0
).fit(X_train, y_train)
mi = ModelInspector(model, X_test, y_test, random_state=0, n_repeats=3)
mi
"""

CHOSEN = ["accuracy", "neg_log_loss", "f1_macro"]


def test_scorers_chosen_apply_when_the_list_is_left_and_the_header_follows(
    open_notebook, require_bundle
):
    require_bundle("inspector_widget.js", "mi-root")
    nb = open_notebook(
        "issue52_scorers.ipynb", [REVIEW], viewport={"width": 1280, "height": 1600}
    )
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    root = nb.page.get_by_test_id("mi-root")
    importance = root.get_by_test_id("mi-panel-importance")
    expect(importance.get_by_test_id("piw-root")).to_have_attribute(
        "data-status", "done", timeout=RUN_TIMEOUT
    )
    expect(root.get_by_test_id("mi-score")).to_have_count(1)
    open_on_demand(root, "mi-settings")

    # The Top box has a label of its own, seen and read aloud.
    top_k = importance.get_by_test_id("piw-top-k")
    expect(top_k).to_be_visible()
    label = importance.locator('label:has([data-testid="piw-top-k"])')
    expect(label).to_be_visible()
    expect(label).to_contain_text("k")
    assert "Top" in (top_k.get_attribute("aria-label") or ""), top_k.get_attribute(
        "aria-label"
    )

    # Two more scorers ticked, then the list left (a click elsewhere): the
    # run starts without Apply.
    for name in CHOSEN[1:]:
        importance.locator(
            f'[data-testid="piw-scorer-option"][data-scorer="{name}"]'
        ).check()
    apply = importance.get_by_test_id("piw-apply")
    expect(apply).to_be_enabled()  # staged, not yet sent
    root.get_by_test_id("mi-title").click()
    nb.eventually_prints(
        "print(sorted(mi.views['importance'].scoring))", str(sorted(CHOSEN)), timeout=30
    )
    # Run with them (Apply never clicked): the result holds the three.
    nb.eventually_prints(
        "v = mi.views['importance']; print(v.wait(60), sorted(v.result.scorer_names))",
        f"done {sorted(CHOSEN)}",
        timeout=60,
    )
    expect(apply).to_be_disabled()

    # The header's score table lists the three, in the chosen order.
    rows = root.get_by_test_id("mi-score")
    expect(rows).to_have_count(3, timeout=RUN_TIMEOUT)
    scorers = [row.get_attribute("data-scorer") for row in rows.all()]
    assert sorted(scorers) == sorted(CHOSEN), scorers
    for theme, suffix in [("JupyterLab Light", "light"), ("JupyterLab Dark", "dark")]:
        nb.set_theme(theme)
        nb.screenshot(root, f"issue52_item6_scorers_{suffix}.png")
    nb.set_theme("JupyterLab Light")


# --- The toolbar at a 790-px widget --------------------------------------------

DIABETES_REVIEW = """\
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

# The top of each visible child of the toolbar, and where the selection is.
TOOLBAR_JS = """
(root) => {
  const top = (el) => Math.round(el.getBoundingClientRect().top);
  const shown = (el) => el.getBoundingClientRect().height > 0;
  const bar = root.querySelector('.mi-tabs');
  const selection = root.querySelector('[data-testid="mi-selection"]');
  const status = root.querySelector('[data-testid="mi-status"]');
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  return {
    width: Math.round(root.getBoundingClientRect().width),
    toolbar: [...bar.children].filter(shown).map(top),
    selection: box(selection), status: box(status), root: box(root),
    clear: box(root.querySelector('[data-testid="mi-clear"]')),
  };
}
"""


def test_the_selection_shares_the_status_line_at_790_px(open_notebook, require_bundle):
    require_bundle("inspector_widget.js", "mi-root")
    # A 970-px window, the file browser folded: the widget is 790 px wide.
    nb = open_notebook(
        "issue52_toolbar.ipynb",
        [DIABETES_REVIEW],
        viewport={"width": 970, "height": 1400},
    )
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    root = nb.page.get_by_test_id("mi-root")
    expect(root.get_by_test_id("mi-selection")).to_have_text(
        f"Selected: {isolated('bmi')}", timeout=RUN_TIMEOUT
    )
    places = root.evaluate(TOOLBAR_JS)
    assert places["width"] == 790, places
    # The toolbar on one line; the selection and Clear on the status's line,
    # at its right end, inside the widget (before: "Selected: bmi" began a
    # second toolbar line of its own).
    assert len(set(places["toolbar"])) == 1, places
    selection, status, clear = places["selection"], places["status"], places["clear"]
    assert selection["top"] < status["bottom"] and status["top"] < selection["bottom"]
    assert status["right"] <= selection["left"], places
    assert clear["right"] <= places["root"]["right"] + 0.5, places
    for theme, suffix in [("JupyterLab Light", "light"), ("JupyterLab Dark", "dark")]:
        nb.set_theme(theme)
        nb.screenshot(root, f"issue52_toolbar_790_{suffix}.png")
    nb.set_theme("JupyterLab Light")
    # Clear still clears, from its new place.
    root.get_by_test_id("mi-clear").click()
    nb.eventually_prints("print(mi.selected_features)", "[]")
    expect(root.get_by_test_id("mi-clear")).to_be_hidden()
