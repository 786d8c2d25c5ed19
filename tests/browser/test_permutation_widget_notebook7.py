"""The permutation widget in Jupyter Notebook 7 (the same server as Lab)."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[1] / "output" / "browser"


def test_widget_runs_and_switches_kind_in_notebook_7(
    lab_server, browser, notebook_file
):
    name = notebook_file(
        "notebook7.ipynb",
        [
            "from sklearn.datasets import load_diabetes\n"
            "from sklearn.linear_model import Ridge\n"
            "from inspectwidgets import PermutationImportanceWidget\n\n"
            "X, y = load_diabetes(return_X_y=True, as_frame=True)\n"
            "w = PermutationImportanceWidget(Ridge().fit(X, y), X, y, n_repeats=5)\n"
            "w"
        ],
    )
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{lab_server.url}/notebooks/{name}")
        page.wait_for_function(
            """() => window.jupyterapp?.shell?.currentWidget?.sessionContext
                 ?.session?.kernel?.status === 'idle'""",
            timeout=60_000,
        )
        page.evaluate(
            "() => window.jupyterapp.commands.execute('notebook:run-all-cells')"
        )
        root = page.get_by_test_id("piw-root")
        expect(root).to_have_attribute("data-status", "done", timeout=60_000)
        expect(page.get_by_test_id("piw-bar")).to_have_count(10)
        page.get_by_test_id("piw-kind-box").click()
        expect(page.get_by_test_id("piw-box")).to_have_count(10)
        expect(page.get_by_test_id("piw-baseline")).to_contain_text("r2")
        expect(page.get_by_test_id("piw-chart")).to_have_attribute(
            "data-settled", "true"
        )
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        root.screenshot(path=str(SCREENSHOTS / "permutation_notebook7_box.png"))
    finally:
        context.close()
