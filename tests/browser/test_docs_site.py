"""The built documentation site (`make docs`), opened in Chromium from a local
file server with every other request blocked: a user-guide page renders with
the site's own theme, and a gallery page draws its widgets from the embedded
state (docs/_static/iw_embed.js) with no kernel, and their page-side controls
work. Light and dark screenshots go to tests/output/browser/.
"""

import functools
import html
import http.server
import inspect
import re
import threading
from pathlib import Path

import pytest
from conftest import OUTPUT_DIR, _missing

import inspectwidgets

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

SITE = Path(__file__).resolve().parents[2] / "build" / "docs" / "html"
DRAW_TIMEOUT = 30_000  # ms


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def site_url():
    if not (SITE / "gallery" / "permutation_classifier.html").is_file():
        _missing(f"{SITE} is not built: run `make docs`")
    handler = functools.partial(_QuietHandler, directory=str(SITE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def open_page(browser, site_url):
    """``open_page(path, theme) -> (page, blocked)``: the page served locally,
    in `theme` ("light" or "dark"); `blocked` lists the requests that tried to
    leave the local server (aborted), `errors` the page's uncaught errors."""
    contexts = []

    def _open(path, theme):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        contexts.append(context)
        blocked, errors = [], []

        def block(route):
            blocked.append(route.request.url)
            route.abort()

        context.route(lambda url: not url.startswith(site_url + "/"), block)
        # pydata-sphinx-theme keeps the reader's choice in localStorage.
        context.add_init_script(
            f"localStorage.setItem('mode', '{theme}'); "
            f"localStorage.setItem('theme', '{theme}');"
        )
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{site_url}/{path}")
        expect(page.locator("html")).to_have_attribute("data-theme", theme)
        return page, blocked, errors

    yield _open
    for context in contexts:
        context.close()


def _screenshot(page, name):
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    page.mouse.move(0, 0)
    page.screenshot(path=str(OUTPUT_DIR / name), animations="disabled")


# Bars drawn (non-zero width) in each permutation widget of the page.
BARS_JS = """
() => [...document.querySelectorAll('[data-testid="piw-root"]')].map(
  (root) => [...root.querySelectorAll('[data-testid="piw-bar"]')]
    .map((bar) => +bar.getAttribute('width'))
    .filter((width) => width > 0)
)
"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_user_guide_page_renders_from_the_site_alone(open_page, theme):
    page, blocked, errors = open_page("permutation_importance.html", theme)
    expect(page.locator("h1")).to_have_text("Permutation importance#")
    # The theme's own stylesheet and scripts came from the local server.
    assert page.evaluate(
        "() => getComputedStyle(document.body).getPropertyValue"
        "('--pst-color-primary').trim() !== ''"
    )
    # The sidebar links the other user-guide pages.
    sidebar = page.locator(".bd-sidebar-primary")
    for title in ("MDI versus permutation importance", "Relative importance (ESL)"):
        expect(sidebar.get_by_role("link", name=title)).to_be_visible()
    # The formulas are typeset by the site's own MathJax.
    expect(page.locator("mjx-container").first).to_be_visible()
    assert "\\frac" not in page.locator("article").inner_text()
    assert blocked == [] and errors == []
    _screenshot(page, f"docs_user_guide_{theme}.png")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_gallery_page_draws_its_widget_without_a_kernel(open_page, theme):
    page, blocked, errors = open_page("gallery/permutation_classifier.html", theme)
    expect(page.locator("html")).to_have_attribute(
        "data-iw-widgets-drawn", "1", timeout=DRAW_TIMEOUT
    )
    root = page.get_by_test_id("piw-root")
    expect(root).to_have_attribute("data-status", "done")
    expect(root.get_by_test_id("piw-bar").first).to_be_visible()
    (bars,) = page.evaluate(BARS_JS)
    # max_features=15 in the notebook: the top 15 features are drawn.
    assert len(bars) == 15, bars
    page.evaluate(f"() => {{ window.__bars = JSON.stringify(({BARS_JS})()[0]); }}")

    # A page-side control: the displayed scorer redraws from the embedded data.
    baseline = root.get_by_test_id("piw-baseline")
    # The notebook's last cell left `scorer` at neg_log_loss.
    expect(baseline).to_contain_text("neg_log_loss")
    root.get_by_test_id("piw-scorer").select_option("accuracy")
    expect(baseline).to_contain_text("accuracy")
    page.wait_for_function(
        f"() => JSON.stringify(({BARS_JS})()[0]) !== window.__bars",
        timeout=DRAW_TIMEOUT,
    )

    # The widget's bundle came from the site; nothing from elsewhere.
    assert blocked == [] and errors == []
    root.scroll_into_view_if_needed()
    _screenshot(page, f"docs_gallery_{theme}.png")


# Every notebook has its gallery page.
NOTEBOOKS = sorted(p.stem for p in (SITE.parents[2] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_gallery_widget_draws(open_page, name):
    page, blocked, errors = open_page(f"gallery/{name}.html", "light")
    views = page.locator('script[type="application/vnd.jupyter.widget-view+json"]')
    n_views = views.count()
    expect(page.locator("html")).to_have_attribute(
        "data-iw-widgets-drawn", str(n_views), timeout=DRAW_TIMEOUT
    )
    assert n_views > 0
    assert page.locator(".iw-embed-error").count() == 0
    # Every widget drew marks: SVG shapes or a canvas.
    marks = page.evaluate(
        """() => [...document.querySelectorAll('.iw-embed')].map((el) =>
             el.querySelectorAll('svg rect, svg path, svg circle, canvas').length)"""
    )
    assert len(marks) == n_views and all(n > 0 for n in marks), marks
    assert blocked == [] and errors == []
    page.locator(".iw-embed").first.scroll_into_view_if_needed()
    _screenshot(page, f"docs_gallery_{name}.png")


WIDGETS = sorted(
    name for name in inspectwidgets.__all__ if name.endswith(("Widget", "Inspector"))
)


@pytest.mark.parametrize("name", WIDGETS)
def test_widget_api_page_shows_its_parameters(name, site_url):
    """A widget's API page gives its ``__init__``'s parameters, not the
    ``(*args, **kwargs)`` of traitlets' ``__new__`` that autodoc reads first."""
    page = (SITE / "api" / "generated" / f"inspectwidgets.{name}.html").read_text()
    shown = html.unescape(re.sub(r"<[^>]+>", "", page.split('class="sig-paren">(')[1]))
    # Each parameter's name: a word after the start or a comma, before "=",
    # "," or the closing parenthesis (default values hold no such word).
    names = re.findall(r"(?:^|,\s*)\**(\w+)(?=\s*[=,)])", shown.split("\n")[0])
    assert names == list(inspect.signature(getattr(inspectwidgets, name)).parameters)
