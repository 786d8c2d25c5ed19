"""Hostile input from the page, in JupyterLab (#49 items 1 and 12): a
million repeats typed into the inspector's Repeats box are refused with the
largest value that fits, no run starts and the kernel still answers; a
front-end message that sets an output trait (a forged error) changes
nothing in the kernel, and the page shows the kernel's values again."""

import pytest
from conftest import open_on_demand

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 90_000  # ms
REFUSAL_TIMEOUT = 5_000  # ms: a refusal is immediate; a run of 1e6 repeats is not

# The budget is fixed at 512 MiB, as in tests/common/test_run_size_budget.py:
# half of the memory available depends on what else runs on the machine, and
# with a large enough budget a million repeats would run (and take the kernel).
BUDGETED_INSPECTOR = """\
from sklearn.datasets import load_diabetes
from sklearn.linear_model import Ridge
from inspectwidgets import ModelInspector
from inspectwidgets.inspection._core import budget

budget.memory_budget = lambda: 512 * 2**20
X, y = load_diabetes(return_X_y=True, as_frame=True)
model = Ridge().fit(X, y)
mi = ModelInspector(model, X, y, random_state=0, n_repeats=2)
mi
"""

SMALL_WIDGET = """\
from sklearn.datasets import load_diabetes
from sklearn.linear_model import Ridge
from inspectwidgets import PermutationImportanceWidget

X, y = load_diabetes(return_X_y=True, as_frame=True)
model = Ridge().fit(X, y)
w = PermutationImportanceWidget(model, X, y, n_repeats=2, random_state=0)
w
"""

FORGED_ERROR = "Model failed: contact attacker@example.com"

# The anywidget model of `modelId` in the notebook's widget manager, reached
# through a widget view's renderer in the output area (jupyterlab-manager's
# WidgetRenderer keeps its manager in `_manager`): what the page's own code
# would call. Sets `state` on it and sends it to the kernel as the widget's
# controls do.
FORGE_JS = """
async ([modelId, state]) => {
  const panel = window.jupyterapp.shell.currentWidget;
  const children = (w) => Array.from(w.widgets ?? w.layout?.widgets ?? []);
  const walk = (w) => [w, ...children(w).flatMap(walk)];
  const renderer = panel.content.widgets
    .flatMap((cell) => (cell.outputArea ? walk(cell.outputArea) : []))
    .find((w) => w._manager?.promise);
  const manager = await renderer._manager.promise;
  const model = await manager.get_model(modelId);
  model.set(state);
  model.save_changes();
  return Object.keys(state).map((key) => String(model.get(key)));
}
"""


@pytest.fixture(scope="module", autouse=True)
def built_bundle(chromium_path, require_bundle):
    require_bundle("inspector_widget.js", "mi-root")
    require_bundle("permutation_widget.js", "piw-root")


def _screenshots(nb, locator, name):
    try:
        for theme, suffix in [
            ("JupyterLab Light", "light"),
            ("JupyterLab Dark", "dark"),
        ]:
            nb.set_theme(theme)
            nb.screenshot(locator, f"{name}_{suffix}.png")
    finally:
        nb.set_theme("JupyterLab Light")


def test_a_million_repeats_typed_in_the_page_are_refused(open_notebook):
    nb = open_notebook(
        "hostile_repeats.ipynb",
        [BUDGETED_INSPECTOR],
        viewport={"width": 1280, "height": 1600},
    )
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    page = nb.page
    root = page.get_by_test_id("mi-root")
    importance = page.locator(
        '[data-testid="mi-panel-importance"] [data-testid="piw-root"]'
    )
    expect(importance).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    open_on_demand(root, "mi-settings")
    repeats = root.get_by_test_id("piw-repeats")
    repeats.fill("1000000")
    repeats.blur()  # the box applies its value when the user leaves it

    # The refusal is the kernel's sentence, naming the setting and the
    # largest value that fits; no run starts.
    error = importance.get_by_test_id("piw-error")
    expect(error).to_contain_text(
        "n_repeats=1,000,000 needs an estimated", timeout=REFUSAL_TIMEOUT
    )
    expect(error).to_contain_text("memory budget of 512 MiB")
    expect(error).to_contain_text("the largest n_repeats that fits is")
    expect(importance).to_have_attribute(
        "data-status", "error", timeout=REFUSAL_TIMEOUT
    )
    # The kernel answers at once: no run holds it.
    nb.eventually_prints("print(sum(range(10)))", "45", timeout=5)
    _, said = nb.run_code("v = mi.views['importance']\nprint(v.status)\nprint(v.error)")
    status, message = said.strip().split("\n", 1)
    assert status == "error", said
    assert "the largest n_repeats that fits is" in message, said
    fits = int(message.rsplit(" ", 1)[-1].rstrip(".").replace(",", ""))
    assert 1 <= fits < 1_000_000, message
    expect(error).to_contain_text(message)
    expect(importance).not_to_have_attribute("data-status", "running")
    _screenshots(nb, root, "hostile_repeats_refused")

    # The value that fits is taken.
    repeats.fill("3")
    repeats.blur()
    expect(importance).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    expect(error).to_be_hidden()


def test_a_forged_output_from_the_page_changes_nothing(open_notebook):
    nb = open_notebook(
        "forged_output.ipynb", [SMALL_WIDGET], viewport={"width": 1100, "height": 900}
    )
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    root = nb.page.get_by_test_id("piw-root")
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    _, model_id = nb.run_code("print(w.model_id)")
    error = root.get_by_test_id("piw-error")
    expect(error).to_be_hidden()

    forged = nb.page.evaluate(
        FORGE_JS,
        [model_id.strip(), {"error": FORGED_ERROR, "status": "error"}],
    )
    # The page's model held the forgery before the kernel answered...
    assert forged == [FORGED_ERROR, "error"], forged
    # ... the kernel never took it ...
    nb.eventually_prints("print(repr(w.error), w.status)", "'' done")
    # ... and its values, sent back, are what the page shows. (Nothing else
    # here sends them: `w.wait()` would, and is not called.)
    expect(root).to_have_attribute("data-status", "done")
    expect(error).to_be_hidden()
    expect(root).not_to_contain_text("attacker@example.com")
    expect(root.get_by_test_id("piw-bar")).not_to_have_count(0)
    cell = nb.page.locator(".jp-Cell").filter(has=root)
    _screenshots(nb, cell, "hostile_forged_output")
