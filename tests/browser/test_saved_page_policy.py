"""A saved page's Content-Security-Policy (#49 item 13), in Chromium from
the file: the page still draws and its controls work under it, with no
violation reported; markup injected into a saved page (an inline script, an
event handler, a remote image, a style attribute, a fetch) is refused by the
policy, and the same markup runs in the page without it (the control: the
policy is what stops it)."""

import re

import numpy as np
import pandas as pd
import pytest
from conftest import OUTPUT_DIR
from sklearn.ensemble import RandomForestClassifier

import inspectwidgets as iw
from inspectwidgets.widgets._standalone import save_html

from hostile import build_widgets

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

DRAW_TIMEOUT = 30_000  # ms

# Recorded before any of the page's scripts (an init script is not the
# page's: the policy does not govern it).
WATCH_JS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.__violations.push({directive: e.effectiveDirective, blocked: e.blockedURI}));
"""

INJECTED = """
<script>window.__pwned = "inline script";</script>
<img src="x" onerror="window.__pwned = 'event handler'">
<img src="https://example.com/pixel.png" data-testid="remote">
<div data-testid="styled" style="width: 123px">styled</div>
<style>#widget { display: none; }</style>
"""


@pytest.fixture(scope="module")
def saved(tmp_path_factory, chromium_path):
    """A review and a PD widget split by a column (its legend's swatches
    are coloured by the script), saved."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {
            "age": rng.normal(40, 10, 200),
            "income": rng.normal(size=200),
            "plan": rng.integers(0, 2, 200),
        }
    )
    X.loc[::17, "income"] = np.nan
    y = (X["age"] + 5 * X["income"].fillna(0) > 40).astype(int)
    model = RandomForestClassifier(n_estimators=20, random_state=0).fit(X, y)
    folder = tmp_path_factory.mktemp("policy")
    review = iw.ModelInspector(
        model,
        X[100:],
        y[100:],
        X_train=X[:100],
        y_train=y[:100],
        n_repeats=2,
        random_state=0,
    )
    pd_widget = iw.PartialDependenceWidget(
        model, X, features=["age"], split_by="plan", grid_resolution=8
    )
    try:
        for widget in (review, pd_widget):
            widget.wait(timeout=120)
        review.view = "comparison"  # computed once shown: saved with the page
        review.wait(timeout=120)
        review.view = "importance"
        yield {
            "inspector": save_html(review, folder / "inspector.html"),
            "partial_dependence": save_html(pd_widget, folder / "pd.html"),
        }
    finally:
        review.close()
        pd_widget.close()


@pytest.fixture
def open_page(browser):
    """``open_page(path) -> (page, requests, errors)``: the page from its
    file with violations recorded; every request but the file's own listed
    in `requests` and aborted."""
    contexts = []

    def _open(path):
        context = browser.new_context(viewport={"width": 1200, "height": 1000})
        contexts.append(context)
        context.add_init_script(WATCH_JS)
        requests, errors = [], []

        def block(route):
            requests.append(route.request.url)
            route.abort()

        context.route(lambda url: not url.startswith(("file:", "blob:")), block)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(path.as_uri())
        return page, requests, errors

    yield _open
    for context in contexts:
        context.close()


def _drawn(page):
    expect(page.locator("body")).to_have_attribute(
        "data-rendered", "true", timeout=DRAW_TIMEOUT
    )
    page.wait_for_function(
        "() => document.querySelectorAll('#widget svg rect, #widget svg path')"
        ".length > 0",
        timeout=DRAW_TIMEOUT,
    )


@pytest.fixture(scope="module")
def every_widget(tmp_path_factory, chromium_path):
    """Each of the five widgets on tests/hostile.py's strings, saved."""
    folder = tmp_path_factory.mktemp("every")
    widgets = build_widgets()
    try:
        yield {
            name: save_html(widget, folder / f"{name}.html")
            for name, widget in widgets.items()
        }
    finally:
        for widget in widgets.values():
            widget.close()


WIDGETS = [
    "permutation",
    "partial_dependence",
    "comparison",
    "interaction",
    "inspector",
]


@pytest.mark.parametrize("name", WIDGETS)
def test_every_widget_draws_with_no_violation(every_widget, open_page, name):
    page, requests, errors = open_page(every_widget[name])
    _drawn(page)
    assert page.evaluate("() => window.__violations") == []
    assert errors == [] and requests == []


def test_the_policy_allows_nothing_from_anywhere(saved):
    page = saved["inspector"].read_text(encoding="utf-8")
    (policy,) = re.findall(
        r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', page
    )
    assert policy.startswith("default-src 'none'; script-src 'sha256-")
    assert "unsafe" not in policy and "http" not in policy and "*" not in policy
    # Before the first element it governs.
    assert page.index("Content-Security-Policy") < page.index("<style>")


def test_the_review_draws_and_works_under_the_policy(saved, open_page):
    page, requests, errors = open_page(saved["inspector"])
    _drawn(page)
    bars = page.locator('[data-testid="mi-panel-importance"] [data-testid="piw-bar"]')
    expect(bars).to_have_count(3)
    # Controls that live in the page: a bar selected, another view shown.
    bars.first.click(force=True)
    expect(page.get_by_test_id("mi-selection")).to_contain_text("Selected:")
    page.get_by_test_id("mi-view-comparison").click()
    expect(
        page.locator('[data-testid="mi-panel-comparison"] [data-testid="icw-row"]')
    ).to_have_count(3)
    page.screenshot(path=str(OUTPUT_DIR / "saved_page_policy_inspector.png"))
    assert page.evaluate("() => window.__violations") == []
    assert errors == [] and requests == []


def test_a_split_pd_widget_draws_its_legend_under_the_policy(saved, open_page):
    page, requests, errors = open_page(saved["partial_dependence"])
    _drawn(page)
    swatches = page.locator('[data-testid="pdw-legend-item"] .pdw-swatch')
    expect(swatches).to_have_count(2)
    colours = swatches.evaluate_all(
        "(nodes) => nodes.map((n) => getComputedStyle(n).backgroundColor)"
    )
    assert len(set(colours)) == 2 and "rgba(0, 0, 0, 0)" not in colours
    page.screenshot(path=str(OUTPUT_DIR / "saved_page_policy_pd.png"))
    assert page.evaluate("() => window.__violations") == []
    assert errors == [] and requests == []


@pytest.mark.parametrize("policy", [True, False], ids=["policy", "without"])
def test_injected_markup_is_refused(saved, open_page, tmp_path, policy):
    html = saved["inspector"].read_text(encoding="utf-8")
    if not policy:  # the control: the same page without its policy
        html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", html)
    injected = tmp_path / "injected.html"
    injected.write_text(html.replace("</body>", INJECTED + "</body>"), "utf-8")
    page, requests, _ = open_page(injected)
    _drawn(page) if policy else page.wait_for_load_state("load")
    fetched = page.evaluate(
        "() => fetch('https://example.com/x').then(() => 'sent', () => 'refused')"
    )
    pwned = page.evaluate("() => window.__pwned ?? null")
    width = page.get_by_test_id("styled").evaluate("(n) => n.offsetWidth")
    shown = page.locator("#widget").is_visible()
    if policy:
        assert pwned is None
        assert width != 123  # the style attribute not applied
        assert shown  # the injected <style> not applied
        assert requests == []  # the remote image and the fetch never sent
        assert fetched == "refused"
        directives = {v["directive"] for v in page.evaluate("() => __violations")}
        assert {"script-src-elem", "script-src-attr", "img-src"} <= directives
        assert {"style-src-attr", "style-src-elem", "connect-src"} <= directives
        page.screenshot(path=str(OUTPUT_DIR / "saved_page_policy_injected.png"))
    else:
        assert pwned is not None and width == 123 and not shown
        assert any(url.startswith("https://example.com") for url in requests)
