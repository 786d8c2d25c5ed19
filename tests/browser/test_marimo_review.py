"""notebooks/marimo_review.py served by ``marimo run``, driven in Chromium.

Every widget of the notebook goes through ``mo.ui.anywidget``: the tests see
each one draw its finished run, a run stream into the page and stop on Stop,
and a click on a bar rerun the cell that reads ``selected_features``. marimo
draws each widget inside a shadow root; Playwright's locators look into it.
One page (one marimo kernel) serves the whole file; the tests run in order.
Times are recorded (conftest's ``record_timing``), never asserted.
"""

import re
import time
from pathlib import Path

import pytest
from conftest import OUTPUT_DIR, VIEWPORT, contrast

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

NOTEBOOK = Path(__file__).resolve().parents[2] / "notebooks" / "marimo_review.py"
RUN_TIMEOUT = 180_000  # ms: five widgets share the cores while the page loads
CELL_TIMEOUT = 30_000  # ms, for a cell to rerun or a run to start
ROOTS = ("piw-root", "pdw-root", "icw-root", "iaw-root")


@pytest.fixture(scope="module")
def review(browser, marimo_app, require_bundle):
    require_bundle("permutation_widget.js", "piw-root")
    url = marimo_app(NOTEBOOK)
    # Tall enough for the inspector's picture: marimo scrolls an inner box,
    # and a screenshot shows only its part in view.
    context = browser.new_context(viewport={**VIEWPORT, "height": 2200})
    context.set_default_timeout(RUN_TIMEOUT)
    page = context.new_page()
    started = time.monotonic()
    page.goto(url)
    page.started = started
    yield page
    context.close()


def _screenshot(locator, name):
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    locator.page.mouse.move(0, 0)
    locator.screenshot(path=str(OUTPUT_DIR / name), animations="disabled")


def _permutation(page):
    # The first permutation chart: the notebook's own widget (the inspector's
    # Importance view comes later in the page).
    return page.get_by_test_id("piw-root").first


def test_every_widget_draws_its_run(review, record_timing):
    page = review
    permutation = _permutation(page)
    expect(permutation.get_by_test_id("piw-bar").first).to_be_visible(
        timeout=RUN_TIMEOUT
    )
    record_timing("marimo page open to first bar", time.monotonic() - page.started)
    for testid in ROOTS:
        root = page.get_by_test_id(testid).first
        expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
        _screenshot(root, f"marimo_{testid.split('-')[0]}.png")
    inspector = page.get_by_test_id("mi-root")
    for panel in ("importance", "effects"):
        expect(
            inspector.get_by_test_id(f"mi-panel-{panel}").locator("[data-status]").first
        ).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    _screenshot(inspector, "marimo_inspector.png")
    # The dependent cell waits for a click.
    expect(page.get_by_text("Click a bar above")).to_be_visible(timeout=RUN_TIMEOUT)


def test_a_click_on_a_bar_reruns_the_dependent_cell(review, record_timing):
    page = review
    permutation = _permutation(page)
    expect(permutation).to_have_attribute("data-status", "done")
    # At the bar's centre (its error bar lies on top, inside the same row).
    clicked = time.monotonic()
    permutation.locator('[data-testid="piw-bar"][data-feature="bmi"]').click(force=True)
    heading = page.get_by_text("Partial dependence of")
    expect(heading).to_have_text("Partial dependence of bmi", timeout=CELL_TIMEOUT)
    record_timing("marimo click to dependent cell rerun", time.monotonic() - clicked)
    # The PD table the cell computed: a row per grid point.
    table = heading.locator("xpath=ancestor::*[contains(., 'average')][1]")
    expect(table).to_contain_text("average")

    # The inspector's selection is a cell input too.
    inspector = page.get_by_test_id("mi-root")
    inspector.locator(
        '[data-testid="mi-panel-importance"] [data-testid="piw-bar"][data-feature="s5"]'
    ).click(force=True)
    expect(page.get_by_text("The inspector shows the effects of")).to_have_text(
        "The inspector shows the effects of: s5", timeout=CELL_TIMEOUT
    )
    _screenshot(page.locator("body"), "marimo_after_click.png")


def test_a_long_run_streams_and_stops(review):
    page = review
    root = _permutation(page)
    repeats = root.get_by_test_id("piw-repeats")
    # Long enough that Stop lands mid-run: 200 repeats of this forest on 111
    # rows once ended before Stop reached the kernel.
    repeats.fill("5000")
    repeats.press("Enter")  # applied on change: a new run
    expect(root).to_have_attribute("data-status", "running", timeout=CELL_TIMEOUT)
    # Results of the run, sent from the widget's thread, reach the page while
    # it runs (the attribute still holds the last run's count until then).
    expect(root.get_by_test_id("piw-progress")).to_have_text(
        re.compile(r"\b[1-9]\d* / 5000\b"), timeout=CELL_TIMEOUT
    )
    root.get_by_test_id("piw-stop").click()
    expect(root).to_have_attribute("data-status", "cancelled", timeout=30_000)
    expect(root.get_by_test_id("piw-progress")).to_contain_text("cancelled")
    done = int(root.get_attribute("data-repeats-done"))
    assert 0 < done < 5000, done
    expect(root.get_by_test_id("piw-bar").first).to_be_visible()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_widgets_take_marimo_s_theme(review, scheme):
    page = review
    # marimo's theme follows the system's (the server's .marimo.toml).
    page.emulate_media(color_scheme=scheme)
    expect(page.locator("body")).to_have_class(re.compile(rf"\b{scheme}\b"))
    root = _permutation(page)
    # marimo's background, not the widget's own white (the page's variables
    # follow the body's class within a few frames).
    deadline = time.monotonic() + 5
    text = contrast(root)
    while (text["background"] < 0.1) != (scheme == "dark"):
        assert time.monotonic() < deadline, text
        text = contrast(root)
    assert text["ratio"] >= 4.5, text
    tick = contrast(root.locator(".iw-axis text").first, "fill")
    assert tick["ratio"] >= 4.5, tick
    _screenshot(root, f"marimo_permutation_{scheme}.png")
    _screenshot(page.get_by_test_id("mi-root"), f"marimo_inspector_{scheme}.png")
