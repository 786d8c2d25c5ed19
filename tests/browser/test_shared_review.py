"""A saved review holding hostile strings (tests/hostile.py: HTML and script
openers, NUL, lone surrogates, bidi controls, a 100,000-character name) in
every place a string can reach, opened in Chromium from its file with the
network blocked: every widget draws, no script fails, nothing injected runs,
the strings show as text, and a name holding a right-to-left override does
not reverse the text after it. One page per widget; see "Sharing" in
docs/reliability.md for the figures.
"""

import time

import pytest
from conftest import OUTPUT_DIR

from inspectwidgets.widgets._standalone import save_html

from hostile import HOSTILE, build_widgets

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

DRAW_TIMEOUT = 30_000  # ms

# Each widget's root, as its front end marks it.
ROOTS = {
    "permutation": "piw-root",
    "partial_dependence": "pdw-root",
    "comparison": "icw-root",
    "interaction": "iaw-root",
    "inspector": "mi-root",
}

# Marks drawn inside the page's widget: SVG shapes or a canvas.
MARKS_JS = """() => document.querySelectorAll(
  '#widget svg rect, #widget svg path, #widget svg circle, #widget canvas'
).length"""

# Where the characters of the tooltip's first line are drawn: the right edge
# of the name (before " = ") and the left edge of "=". `line` is the text
# node's text; a second text node holding the same text without its bidi
# isolates is measured the same way, to show the measure sees a reversal.
BIDI_JS = """
(selector) => {
  const line = document.querySelector(selector);
  const measure = (node) => {
    const text = node.firstChild;
    const at = text.data.indexOf(" = ");
    const range = document.createRange();
    const box = (i) => {
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      return range.getBoundingClientRect();
    };
    const name = [];
    for (let i = 0; i < at; i += 1) {
      const r = box(i);
      if (r.width > 0) name.push(r);
    }
    return {
      nameLeft: Math.min(...name.map((r) => r.left)),
      nameRight: Math.max(...name.map((r) => r.right)),
      equals: box(at + 1).left,
    };
  };
  const bare = line.cloneNode(false);
  bare.textContent = line.textContent.replace(/[\\u2068\\u2069]/g, "");
  line.after(bare);
  const result = { isolated: measure(line), bare: measure(bare) };
  bare.remove();
  return result;
}
"""


@pytest.fixture(scope="module")
def saved_pages(tmp_path_factory, chromium_path):
    """Every widget built on hostile strings, saved with a hostile title."""
    folder = tmp_path_factory.mktemp("shared")
    widgets = build_widgets()
    try:
        yield {
            name: save_html(widget, folder / f"{name}.html", title="".join(HOSTILE))
            for name, widget in widgets.items()
        }
    finally:
        for widget in widgets.values():
            widget.close()


@pytest.fixture
def open_offline(browser):
    """``open_offline(path) -> (page, blocked, errors)``: the saved page from
    its file, every http(s) request aborted and listed in `blocked`, the
    page's uncaught errors in `errors`."""
    contexts = []

    def _open(path):
        context = browser.new_context(viewport={"width": 1200, "height": 1000})
        contexts.append(context)
        blocked, errors = [], []

        def block(route):
            blocked.append(route.request.url)
            route.abort()

        context.route(lambda url: url.startswith("http"), block)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(path.as_uri())
        return page, blocked, errors

    yield _open
    for context in contexts:
        context.close()


@pytest.mark.parametrize("name", list(ROOTS))
def test_saved_page_of_hostile_strings_draws_and_runs_nothing(
    saved_pages, open_offline, record_timing, name
):
    started = time.perf_counter()
    page, blocked, errors = open_offline(saved_pages[name])
    expect(page.locator("body")).to_have_attribute(
        "data-rendered", "true", timeout=DRAW_TIMEOUT
    )
    root = page.get_by_test_id(ROOTS[name])
    expect(root).to_be_visible()
    page.wait_for_function(f"({MARKS_JS})() > 0", timeout=DRAW_TIMEOUT)
    record_timing(f"shared review {name}: drawn", time.perf_counter() - started)

    assert errors == []
    assert blocked == []
    # Nothing in the data became markup or ran.
    assert page.evaluate("() => window.__pwned") is None
    assert page.evaluate("() => document.querySelectorAll('img, iframe').length") == 0
    assert page.evaluate("() => document.scripts.length") == 3  # ours
    # The data's strings show as text, whole.
    shown = page.evaluate("() => document.getElementById('widget').textContent")
    assert "<!--<script>" in shown or "</script>" in shown
    assert page.title().startswith("<!--<script></script><!--<script]]>")
    page.screenshot(path=str(OUTPUT_DIR / f"shared_review_{name}.png"))


def test_a_right_to_left_name_does_not_reverse_what_follows(saved_pages, open_offline):
    page, _, errors = open_offline(saved_pages["partial_dependence"])
    root = page.get_by_test_id("pdw-root")
    # The surface of the right-to-left column (first) and the categorical one.
    heatmap = root.get_by_test_id("pdw-heatmap")
    expect(heatmap).to_be_visible(timeout=DRAW_TIMEOUT)
    box = heatmap.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    title = root.locator('[data-testid="pdw-tooltip"] .iw-tooltip-title').first
    expect(title).to_contain_text("right-to-left override\u2069 = ")
    drawn = page.evaluate(BIDI_JS, '[data-testid="pdw-tooltip"] .iw-tooltip-title')
    # Isolated, the name (drawn right to left, as its author wrote it) comes
    # first and " = value" after it, left to right.
    assert drawn["isolated"]["equals"] >= drawn["isolated"]["nameRight"] - 0.5
    # Without the isolates the override would carry on: "=" drawn on the
    # name's left, the line reversed. The measure sees it.
    assert drawn["bare"]["equals"] < drawn["bare"]["nameLeft"]
    assert errors == []


# Names a figure would read as mathtext, and names that differ invisibly
# (#49 items 4 and 10): on the page, each drawn as itself and apart.
TEXT_NAMES = [
    "$x^{2}$",
    "cost ($) per unit ($)",
    "age",
    "age ",
    "\u0430ge",
    "a\u200dge",
]


def test_dollar_and_look_alike_names_are_drawn_as_text_and_apart(
    tmp_path, open_offline
):
    import numpy as np
    import pandas as pd
    from sklearn.linear_model import LinearRegression

    import inspectwidgets as iw

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(60, len(TEXT_NAMES))), columns=TEXT_NAMES)
    y = X.to_numpy() @ np.arange(1, len(TEXT_NAMES) + 1)
    widget = iw.PermutationImportanceWidget(
        LinearRegression().fit(X, y), X, y, n_repeats=2, random_state=0
    )
    try:
        widget.wait(60)
        path = save_html(widget, tmp_path / "text.html")
    finally:
        widget.close()
    page, _, errors = open_offline(path)
    labels = page.get_by_test_id("piw-root").locator("text.piw-label tspan")
    expect(labels).to_have_count(len(TEXT_NAMES), timeout=DRAW_TIMEOUT)
    drawn = labels.all_text_contents()
    assert "$x^{2}$" in drawn and "cost ($) per unit ($)" in drawn
    assert {"age", "age\u2423", "\\u0430ge", "a\\u200dge"} <= set(drawn), drawn
    # So does the features list (its checkbox's title holds the name).
    listed = page.locator(".piw-option-label").all_text_contents()
    assert {"age", "age\u2423", "\\u0430ge", "a\\u200dge"} <= set(listed), listed
    # Each label's title holds the name itself, shown on hover.
    titles = page.locator("text.piw-label title").all_text_contents()
    assert set(titles) == set(TEXT_NAMES)
    page.screenshot(path=str(OUTPUT_DIR / "shared_review_text_names.png"))
    assert errors == []


def test_megabyte_names_keep_the_page_narrow(open_offline, tmp_path):
    """#49 item 9: 1 MB names (two models, a column, a category, a cohort)
    made the saved page 11 million pixels wide; cut to 40 characters, the
    page stays within the window, the whole name on hover."""
    import numpy as np
    import pandas as pd
    from sklearn.tree import DecisionTreeRegressor

    import inspectwidgets as iw

    long, other = "n" * 10**6, "m" * 10**6
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(80, 2)), columns=[long, "b"])
    X["kind"] = np.where(np.arange(80) % 2, 1.0, 0.0)
    y = 2 * X[long] + X["b"]
    models = {
        long: DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y),
        other: DecisionTreeRegressor(max_depth=2, random_state=0).fit(X, y),
    }
    review = iw.ModelInspector(
        models, X, y, n_repeats=2, random_state=0, selected_features=[long],
        cohorts={other: "b > 0"},
    )  # fmt: skip
    try:
        for _ in range(3):
            review.wait(120)
        path = save_html(review, tmp_path / "long.html")
    finally:
        review.close()
    page, _, errors = open_offline(path)
    page.wait_for_selector("body[data-rendered='true']", timeout=DRAW_TIMEOUT)
    page.wait_for_timeout(1500)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    page.screenshot(path=str(OUTPUT_DIR / "shared_review_megabyte_names.png"))
    assert width <= 1200, width  # the window's: no horizontal scroll
    titles = page.locator("th[title]").evaluate_all("(a) => a.map((e) => e.title)")
    assert long in titles
    # The legends (models, cohorts) and the axis titles: cut, each the whole
    # name on hover; so is the reviewed-model menu's option.
    legend = page.locator(".icw-legend-label[title]").evaluate_all(
        "(a) => a.map((e) => [e.textContent.length, e.title])"
    )
    assert {whole for _, whole in legend} == {long, other}
    assert max(shown for shown, _ in legend) <= 42  # 40 and the isolates
    axis_titles = page.locator("text.iw-axis-title > title").all_text_contents()
    assert long in axis_titles
    options = page.locator("option[title]").evaluate_all(
        "(a) => a.map((e) => [e.textContent.length, e.title])"
    )
    assert [40, long] in options
    assert errors == []
