"""The permutation widget's marginal / conditional switch in JupyterLab: the
switch reaches Python, the bars redraw with the conditional result, and a
bar's tooltip lists the feature's subgroups as the kernel computed them.
Screenshots of the tooltip in the light and dark themes."""

import pytest
from conftest import OUTPUT_DIR, contrast, isolated, open_on_demand

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 120_000  # ms, for a computation to finish

# Breast cancer: 30 features, many strongly correlated (radius, perimeter
# and area), so most get several subgroups.
CANCER = """\
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from inspectwidgets import PermutationImportanceWidget

X, y = load_breast_cancer(return_X_y=True, as_frame=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
model = RandomForestClassifier(n_estimators=50, random_state=0).fit(X_train, y_train)
w = PermutationImportanceWidget(model, X_test, y_test, n_repeats=5, max_features=8)
w
"""

# Whether no d3 transition is scheduled or running inside `root`.
IDLE_JS = """
(root) => ![root, ...root.querySelectorAll('*')].some(
  (node) => node.__transition && Object.keys(node.__transition).length > 0
)
"""

BAR_WIDTHS_JS = (
    "(bars) => bars.map((b) => `${b.dataset.feature}:${b.getAttribute('width')}`)"
)


@pytest.fixture(scope="module", autouse=True)
def built_bundle(chromium_path, require_bundle):
    require_bundle("permutation_widget.js", "piw-root")


def hover_until_shown(nb, root, bar, tooltip, attempts=3):
    """Hover `bar` until `tooltip` shows. Once the bars are still: after a
    rerun or a theme change the page may still move them, and
    hover(force=True) does not wait for a still target. Tried again (at most
    `attempts` times) where the page moved under the pointer all the same;
    how many tries it took is printed."""
    for attempt in range(1, attempts + 1):
        nb.page.mouse.move(0, 0)
        nb.page.wait_for_function(IDLE_JS, arg=root.element_handle())
        bar.hover(force=True)
        try:
            expect(tooltip).to_be_visible(timeout=3_000)
        except AssertionError:
            if attempt == attempts:
                raise
            continue
        print(f"tooltip shown at hover {attempt}")
        return


def test_switch_to_conditional_redraws_and_hover_shows_the_rules(open_notebook):
    # Tall enough for the whole cell: element screenshots are clipped to the
    # notebook's scrolling area.
    nb = open_notebook(
        "conditional.ipynb", [CANCER], viewport={"width": 1280, "height": 1400}
    )
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    root = nb.page.get_by_test_id("piw-root")
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    marginal = root.get_by_test_id("piw-method-marginal")
    conditional = root.get_by_test_id("piw-method-conditional")
    expect(marginal).to_have_attribute("aria-pressed", "true")
    nb.page.wait_for_function(IDLE_JS, arg=root.element_handle())
    bars_before = root.get_by_test_id("piw-bar").evaluate_all(BAR_WIDTHS_JS)

    conditional.click()
    expect(conditional).to_have_attribute("aria-pressed", "true")
    nb.eventually_prints(
        "print(w.wait(120), w.method, w.result.subgroups is not None)",
        "done conditional True",
        timeout=120,
    )
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    expect(root.get_by_test_id("piw-baseline")).to_contain_text("conditional")
    nb.page.wait_for_function(IDLE_JS, arg=root.element_handle())
    bars_after = root.get_by_test_id("piw-bar").evaluate_all(BAR_WIDTHS_JS)
    assert bars_after != bars_before, "the bars did not redraw"

    # The first bar's tooltip: its subgroups as the kernel holds them.
    _, output = nb.run_code(
        "first = w._chart['scorers']['accuracy']['features'][0]\n"
        "groups = w.result.subgroups[first]\n"
        "print(len(groups))\n"
        "print(first)\n"
        "print(groups[0].rule)\n"
        "print(groups[0].size)"
    )
    n_groups, first, rule, size = output.strip().split("\n")
    bar = root.locator(f'[data-testid="piw-bar"][data-feature="{first}"]')
    tooltip = root.get_by_test_id("piw-tooltip")
    cell = nb.page.locator(".jp-Cell").filter(has=root)
    try:
        for theme, suffix in (
            ("JupyterLab Light", "light"),
            ("JupyterLab Dark", "dark"),
        ):
            nb.set_theme(theme)
            text = contrast(root)
            assert (text["background"] < 0.1) == (suffix == "dark"), text
            assert text["ratio"] >= 4.5, text
            hover_until_shown(nb, root, bar, tooltip)
            expect(tooltip).to_contain_text(f"{n_groups} subgroups:")
            expect(tooltip).to_contain_text(f"{isolated(rule)} ({size} rows)")
            assert contrast(tooltip)["ratio"] >= 4.5
            nb.page.wait_for_function(IDLE_JS, arg=root.element_handle())
            OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
            path = OUTPUT_DIR / f"conditional_tooltip_{suffix}.png"
            cell.screenshot(path=str(path), animations="disabled")
            assert path.stat().st_size > 0
    finally:
        # The theme is a saved setting: leave the server light for other tests.
        nb.set_theme("JupyterLab Light")

    # Back to marginal: no subgroups in the tooltip.
    marginal.click()
    nb.eventually_prints(
        "print(w.wait(120), w.method, w.result.subgroups)", "done marginal None"
    )
    expect(root.get_by_test_id("piw-baseline")).not_to_contain_text("conditional")
    hover_until_shown(nb, root, bar, tooltip)
    expect(tooltip).not_to_contain_text("subgroup")


INSPECTOR = """\
from sklearn.datasets import load_diabetes
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import train_test_split
from inspectwidgets import ModelInspector

X, y = load_diabetes(return_X_y=True, as_frame=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
model = RandomForestRegressor(n_estimators=30, random_state=0).fit(X_train, y_train)
mi = ModelInspector(model, X_test, y_test, X_train=X_train, y_train=y_train,
                    n_repeats=3, random_state=0)
mi
"""


def test_the_inspectors_importance_switch_and_comparison_box(
    open_notebook, require_bundle
):
    require_bundle("inspector_widget.js", "mi-root")
    nb = open_notebook(
        "inspector_conditional.ipynb",
        [INSPECTOR],
        viewport={"width": 1280, "height": 1600},
    )
    nb.run_all()
    page = nb.page
    panel = page.get_by_test_id("mi-panel-importance")
    nb.eventually_prints("print(mi.views['importance'].wait(120))", "done", timeout=120)
    # The switch is the permutation widget's own, drawn in the view (among
    # the settings, opened on demand).
    open_on_demand(page.get_by_test_id("mi-root"), "mi-settings")
    conditional = panel.get_by_test_id("piw-method-conditional")
    expect(conditional).to_be_visible()
    conditional.click()
    nb.eventually_prints(
        "v = mi.views['importance']\n"
        "print(v.wait(120), v.method, v.result.subgroups is not None)",
        "done conditional True",
        timeout=120,
    )
    expect(conditional).to_have_attribute("aria-pressed", "true")
    expect(panel.get_by_test_id("piw-baseline")).to_contain_text("conditional")
    _, first = nb.run_code("print(v._chart['scorers']['r2']['features'][0])")
    bar = panel.locator(f'[data-testid="piw-bar"][data-feature="{first.strip()}"]')
    tooltip = panel.get_by_test_id("piw-tooltip")
    hover_until_shown(nb, panel, bar, tooltip)
    expect(tooltip).to_contain_text("subgroup")

    # The cross-validated view has no conditional variant: no switch.
    page.get_by_test_id("mi-importance-on-cv").click()
    cv = page.get_by_test_id("mi-panel-importance_cv")
    expect(cv.get_by_test_id("piw-method-marginal")).to_be_hidden()
    page.get_by_test_id("mi-importance-on-test").click()

    # The comparison's Conditional box adds the measure, reusing the
    # Importance view's conditional result (same rows and settings).
    page.get_by_test_id("mi-view-comparison").click()
    comparison = page.get_by_test_id("mi-panel-comparison")
    nb.eventually_prints("print(mi.views['comparison'].wait(120))", "done", timeout=120)
    box = comparison.get_by_test_id("icw-conditional")
    box.check()
    nb.eventually_prints(
        "c = mi.views['comparison']\n"
        "print(c.wait(120), c.conditional, "
        "'permutation_conditional_mean' in c.to_frame())",
        "done True True",
        timeout=120,
    )
    expect(
        comparison.locator('[data-measure="permutation_conditional"]').first
    ).to_be_attached()
    root = page.get_by_test_id("mi-root")
    page.mouse.move(0, 0)
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    root.screenshot(
        path=str(OUTPUT_DIR / "inspector_conditional_light.png"),
        animations="disabled",
    )
