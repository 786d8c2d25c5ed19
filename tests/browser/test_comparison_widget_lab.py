"""ImportanceComparisonWidget in JupyterLab: measures, classes, correlation."""

import pytest

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 90_000  # ms

CANCER = """\
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from inspectwidgets import ImportanceComparisonWidget

X, y = load_breast_cancer(return_X_y=True, as_frame=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
model = RandomForestClassifier(n_estimators=30, random_state=0).fit(X_train, y_train)
# 10 repeats: the fewest with intervals (and so flags and "within noise").
w = ImportanceComparisonWidget(model, X_train, y_train, X_test, y_test, n_repeats=10)
w
"""

WINE = """\
from sklearn.datasets import load_wine
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.model_selection import train_test_split
from inspectwidgets import ImportanceComparisonWidget

X, y = load_wine(return_X_y=True, as_frame=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, stratify=y, random_state=0)
model = GradientBoostingClassifier(n_estimators=30, max_depth=2, random_state=0)
model.fit(X_train, y_train)
w = ImportanceComparisonWidget(
    model, X_train, y_train, X_test, y_test, n_repeats=2, view="classes"
)
w
"""


@pytest.fixture(scope="module", autouse=True)
def built_bundle(chromium_path, require_bundle):
    require_bundle("comparison_widget.js", "icw-root")


def root_of(nb):
    return nb.page.get_by_test_id("icw-root")


def settle(nb):
    for chart in nb.page.locator("svg[data-settled]").all():
        if chart.is_visible():
            expect(chart).to_have_attribute("data-settled", "true")


def test_measures_and_correlation_threshold_reach_python(open_notebook):
    nb = open_notebook(
        "comparison.ipynb", [CANCER], viewport={"width": 1280, "height": 2400}
    )
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    root = root_of(nb)
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    expect(root.get_by_test_id("icw-row")).to_have_count(30)
    expect(root.get_by_test_id("icw-notes")).to_be_visible()
    cell = nb.page.locator(".jp-Cell").filter(has=root)
    settle(nb)
    nb.screenshot(cell, "comparison_measures_light.png")

    # Hollow exactly where Python's intervals include 0.
    noisy = root.locator('circle[data-within-noise="true"]')
    n_noisy = noisy.count()
    assert n_noisy > 0
    nb.eventually_prints(
        "f = w.to_frame(); print(sum(int(((f[k + '_low'] <= 0) & "
        "(f[k + '_high'] >= 0)).sum()) for k in "
        "('permutation_train', 'permutation_test')))",
        str(n_noisy),
    )
    expect(root.get_by_test_id("icw-noise-key")).to_be_visible()
    noisy.first.locator("xpath=ancestor::*[@data-testid='icw-row']").hover()
    expect(root.get_by_test_id("icw-tooltip")).to_contain_text("(within noise)")
    expect(root.get_by_test_id("icw-tooltip")).to_contain_text(
        "(decrease in accuracy), interval"
    )

    # Sorting is Python's: the control writes sort_by, the rows follow.
    root.get_by_test_id("icw-sort").select_option("mdi")
    nb.eventually_prints("print(w.sort_by)", "mdi")
    nb.eventually_prints(
        "print(list(w.to_frame().index[:3]) == "
        "list(w.to_frame()['mdi'].nlargest(3).index))",
        "True",
    )
    _, top = nb.run_code("print(w.to_frame().index[0])")
    top = top.strip()
    expect(root.get_by_test_id("icw-row").first).to_have_attribute("data-feature", top)
    expect(root.get_by_test_id("icw-measures-caption")).to_contain_text(
        "sorted by MDI (train, impurity)"
    )
    settle(nb)
    nb.screenshot(cell, "comparison_measures_sorted_by_mdi_light.png")

    root.get_by_test_id("icw-view-correlation").click()
    expect(root).to_have_attribute("data-view", "correlation")
    nb.eventually_prints("print(w.view)", "correlation")
    expect(root.get_by_test_id("icw-heatmap")).to_be_visible()
    expect(root.get_by_test_id("icw-dendrogram")).to_be_visible()
    bars_before = root.get_by_test_id("icw-group-bar").count()
    assert bars_before > 0
    slider = root.get_by_test_id("icw-threshold")
    slider.fill("0.95")  # stricter than the default 0.8: fewer features grouped
    slider.dispatch_event("change")
    # The slider snaps to its step; Python must get what it shows.
    shown = round(float(slider.input_value()), 3)
    assert abs(shown - 0.95) < 0.05
    nb.eventually_prints("print(round(w.correlation_threshold, 3))", str(shown))
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    nb.eventually_prints(f"print(len(w.result.groups) > {bars_before})", "True")
    expect(root.get_by_test_id("icw-group-bar")).not_to_have_count(bars_before)
    settle(nb)
    nb.screenshot(cell, "comparison_correlation_light.png")
    try:
        nb.set_theme("JupyterLab Dark")
        settle(nb)
        # The theme's relayout redraws the view: still the trait's cut (a
        # redraw on resize once read a field the rename had dropped: "n/a").
        expect(root.get_by_test_id("icw-threshold-value")).to_have_text(str(shown))
        expect(root.locator(".icw-threshold-label")).to_have_text(f"|ρ| ≥ {shown}")
        nb.screenshot(cell, "comparison_correlation_dark.png")
        root.get_by_test_id("icw-view-measures").click()
        settle(nb)
        nb.screenshot(cell, "comparison_measures_dark.png")
    finally:
        nb.set_theme("JupyterLab Light")


def test_per_class_view_of_three_class_boosting(open_notebook):
    nb = open_notebook(
        "per_class.ipynb", [WINE], viewport={"width": 1280, "height": 1600}
    )
    nb.run_all()
    root = root_of(nb)
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    expect(root).to_have_attribute("data-view", "classes")
    expect(root.get_by_test_id("icw-class-cell")).to_have_count(3 * 13)
    cell = nb.page.locator(".jp-Cell").filter(has=root)
    settle(nb)
    nb.screenshot(cell, "comparison_classes_light.png")
