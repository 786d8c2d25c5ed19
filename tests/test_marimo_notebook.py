"""notebooks/marimo_review.py without a browser.

Two ways marimo runs a notebook with no page: ``marimo export html`` runs
every cell in marimo's own runtime (widgets open marimo's comm, and the
command fails when a cell raises), and ``app.run()`` runs them as a script,
returning the cells' definitions, so the widgets can be driven from here and
the cell that reads ``selected_features`` run again with a selection, as
marimo reruns it after a click (tests/browser/test_marimo_review.py clicks).
"""

import importlib.util
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("marimo")

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "marimo_review.py"
WIDGETS = (
    "PermutationImportanceWidget",
    "PartialDependenceWidget",
    "ImportanceComparisonWidget",
    "InteractionWidget",
    "ModelInspector",
)
RUN_TIMEOUT = 300  # seconds

pytestmark = pytest.mark.notebook


def test_marimo_export_runs_every_cell(tmp_path):
    html = tmp_path / "marimo_review.html"
    completed = subprocess.run(
        [sys.executable, "-m", "marimo", "export", "html", str(NOTEBOOK)]
        + ["-o", str(html), "--no-sandbox"],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        cwd=tmp_path,
        # Run elsewhere, the notebook imports what this process imports.
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join(map(os.path.abspath, sys.path)),
        },
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    page = html.read_text()
    # Each widget opened a comm in marimo's runtime: its model is in the page.
    opened = set(re.findall(r"inspectwidgets\.widgets\.\w+\.(\w+)", page))
    assert set(WIDGETS) <= opened, opened


@pytest.fixture(scope="module")
def review():
    spec = importlib.util.spec_from_file_location("marimo_review", NOTEBOOK)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _, defs = module.app.run()
    yield module, defs
    for name in ("permutation", "effects", "comparison", "interactions", "inspector"):
        defs[name].close()


def test_widgets_run_and_the_dependent_cell_follows_the_selection(review):
    module, defs = review
    permutation, inspector = defs["permutation"], defs["inspector"]
    assert permutation.wait(RUN_TIMEOUT) == "done"
    assert permutation.result.n_repeats_done == permutation.n_repeats
    assert set(inspector.wait(RUN_TIMEOUT).values()) <= {"done", "idle"}
    # Nothing selected yet: the cell asks for a click.
    assert defs["pd_table"] is None

    names = ("X_test", "mo", "model", "partial_dependence", "permutation")
    for feature in ("bmi", "sex"):
        permutation.selected_features = [feature]  # as a click on its bar does
        _, cell_defs = module.selected_effect.run(**{n: defs[n] for n in names})
        table = cell_defs["pd_table"]
        assert list(table.columns) == [feature, "average"]
        assert table["average"].notna().all()


def test_a_run_cancelled_keeps_its_repeats(review):
    _, defs = review
    permutation = defs["permutation"]
    first_repeat = threading.Event()

    def on_repeats(change):
        if change["new"] >= 1:
            first_repeat.set()

    permutation.observe(on_repeats, "_repeats_done")
    permutation.n_repeats = 200  # a new run, as the Repeats box starts
    assert first_repeat.wait(RUN_TIMEOUT)  # a hang guard, not a timing
    permutation.cancel()
    permutation.unobserve(on_repeats, "_repeats_done")
    assert permutation.wait(RUN_TIMEOUT) == "cancelled"
    assert 1 <= permutation.result.n_repeats_done < 200
