"""The permutation widget's first bars in JupyterLab and in marimo, side by side.

    python benchmarks/front_ends.py [--runs N]

The same model (a random forest, 100 trees, on 2,000 x 20 held-out rows of
``make_classification``) and the same widget (5 repeats) in a JupyterLab
notebook and in a marimo app (``mo.ui.anywidget``), both served on 127.0.0.1
and driven in Debian's Chromium. Timed on the page's clock:

- first bars: from the request to compute (JupyterLab: a new cell with the
  widget run; marimo: a ``mo.ui.run_button`` clicked, which reruns the
  widget's cell) to the first bar drawn in the new widget;
- marimo's rerun: from a click on a bar to the output of the cell that reads
  ``selected_features`` showing that feature.

One untimed run each first (imports, the tree walk's compilation), then the
front ends alternate, their order swapped from run to run. Both pages must
end with the same baseline score and the same order of bars (a difference
exits 1). Never asserted; results in benchmarks/results/front_ends.md.
"""

import argparse
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT = 300_000  # ms

MODEL = """\
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from inspectwidgets import PermutationImportanceWidget

X, y = make_classification(
    n_samples=4000, n_features=20, n_informative=6, random_state=0
)
X_train, X_test, y_train, y_test = train_test_split(
    X, y, test_size=2000, random_state=0
)
model = RandomForestClassifier(n_estimators=100, min_samples_leaf=5, random_state=0)
model.fit(X_train, y_train)
"""
WIDGET = "PermutationImportanceWidget(model, X_test, y_test, n_repeats=5)"

MARIMO_APP = f"""\
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
__MODEL__
    compute = mo.ui.run_button(label="Compute")
    compute
    return PermutationImportanceWidget, X_test, compute, mo, model, y_test


@app.cell
def _(PermutationImportanceWidget, X_test, compute, mo, model, y_test):
    mo.stop(not compute.value)
    permutation = mo.ui.anywidget({WIDGET})
    permutation
    return (permutation,)


@app.cell
def _(mo, permutation):
    mo.md(f"selected: {{', '.join(permutation.selected_features)}}.")
    return
""".replace("__MODEL__", "\n".join("    " + line for line in MODEL.splitlines()))

# performance.now() once `selector` matches an element outside the widgets
# marked old, looking into open shadow roots (marimo draws widgets in them).
DEEP_FIND_JS = """
(selector) => {
  const find = (root) => {
    for (const el of root.querySelectorAll(selector)) {
      if (!el.closest('[data-bench-old]')) return el;
    }
    for (const host of root.querySelectorAll('*')) {
      if (host.shadowRoot) {
        const found = find(host.shadowRoot);
        if (found) return found;
      }
    }
    return null;
  };
  return find(document) ? performance.now() : null;
}
"""
DEEP_TEXT_JS = """
(text) => {
  const all = (root) => [root, ...Array.from(root.querySelectorAll('*'))
    .filter((el) => el.shadowRoot).flatMap((el) => all(el.shadowRoot))];
  return all(document.documentElement).some((root) => root.textContent.includes(text))
    ? performance.now() : null;
}
"""
# The widgets now in the page marked old, so the next one is told apart.
MARK_OLD_JS = (
    "(roots) => roots.forEach((root) => root.setAttribute('data-bench-old', ''))"
)
# What both pages must agree on: the baseline and the bars' order.
DRAWN_JS = """(root) => [
  root.querySelector('[data-testid="piw-baseline"]').textContent,
  Array.from(root.querySelectorAll('[data-testid="piw-bar"]')).map(
    (bar) => bar.getAttribute('data-feature')),
]"""


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def server(command, url, probe, folder):
    env = {
        **os.environ,
        "HOME": str(folder),
        "JUPYTER_PLATFORM_DIRS": "1",
        "PYTHONPATH": os.pathsep.join(map(os.path.abspath, sys.path)),
    }
    for name in (
        "JUPYTER_CONFIG_DIR",
        "JUPYTER_DATA_DIR",
        "JUPYTER_RUNTIME_DIR",
        "JUPYTERLAB_SETTINGS_DIR",
        "JUPYTERLAB_WORKSPACES_DIR",
    ):
        env[name] = str(folder / name.lower())
    log = open(folder / "server.log", "wb")  # noqa: SIM115 (closed below)
    process = subprocess.Popen(
        command, cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url + probe, timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    sys.exit(f"{command[2]} did not start: see {folder}/server.log")
                time.sleep(0.2)
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(10)
        log.close()


class Lab:
    name = "JupyterLab"

    def __init__(self, page, url, folder):
        import nbformat

        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
        nb.cells = [nbformat.v4.new_code_cell(MODEL)]
        nbformat.write(nb, folder / "bench.ipynb")
        self.page = page
        page.goto(f"{url}/lab/tree/bench.ipynb")
        page.wait_for_function(
            """() => window.jupyterapp?.shell?.currentWidget?.sessionContext
                 ?.session?.kernel?.status === 'idle'""",
            timeout=TIMEOUT,
            polling=100,
        )
        page.evaluate(
            "() => window.jupyterapp.commands.execute('notebook:run-all-cells')"
        )

    def first_bars(self):
        page = self.page
        page.locator('[data-testid="piw-root"]').evaluate_all(MARK_OLD_JS)
        started = page.evaluate(
            """async (code) => {
              const app = window.jupyterapp;
              const notebook = app.shell.currentWidget.content;
              notebook.activeCellIndex = notebook.widgets.length - 1;
              await app.commands.execute('notebook:insert-cell-below');
              notebook.activeCell.model.sharedModel.setSource(code);
              const t0 = performance.now();
              app.commands.execute('notebook:run-cell');
              return t0;
            }""",
            f"w = {WIDGET}\nw",
        )
        return self._until(started)

    def _until(self, started):
        drawn = self.page.wait_for_function(
            DEEP_FIND_JS, arg='[data-testid="piw-bar"]', polling="raf", timeout=TIMEOUT
        ).json_value()
        return (drawn - started) / 1000

    def drawn(self):
        root = self.page.locator('[data-testid="piw-root"]:not([data-bench-old])')
        expect(root).to_have_attribute("data-status", "done", timeout=TIMEOUT)
        return root.evaluate(DRAWN_JS)


class Marimo(Lab):
    name = "marimo"

    def __init__(self, page, url, folder):
        self.page = page
        page.goto(url)
        page.get_by_role("button", name="Compute").wait_for(timeout=TIMEOUT)

    def first_bars(self):
        page = self.page
        page.locator('[data-testid="piw-root"]').evaluate_all(MARK_OLD_JS)
        started = page.evaluate("() => performance.now()")
        page.get_by_role("button", name="Compute").click()
        return self._until(started)

    def rerun_after_click(self, feature):
        root = self.page.locator('[data-testid="piw-root"]:not([data-bench-old])')
        bar = root.locator(f'[data-testid="piw-bar"][data-feature="{feature}"]')
        started = self.page.evaluate("() => performance.now()")
        bar.click(force=True)  # its centre: the error bar lies on top
        shown = self.page.wait_for_function(
            DEEP_TEXT_JS, arg=f"selected: {feature}.", polling="raf", timeout=TIMEOUT
        ).json_value()
        return (shown - started) / 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        lab_dir, marimo_dir = Path(tmp, "lab"), Path(tmp, "marimo")
        lab_dir.mkdir(), marimo_dir.mkdir()
        (marimo_dir / "bench.py").write_text(MARIMO_APP)
        lab_port, marimo_port = free_port(), free_port()
        lab_command = [
            sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
            "--IdentityProvider.token=", "--ServerApp.password=",
            "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={lab_port}",
            "--LabApp.expose_app_in_browser=True", "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ]  # fmt: skip
        marimo_command = [
            sys.executable, "-m", "marimo", "run", "bench.py", "--host=127.0.0.1",
            f"--port={marimo_port}", "--headless", "--no-token", "--no-sandbox",
        ]  # fmt: skip
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS
        )
        lab_url = f"http://127.0.0.1:{lab_port}"
        marimo_url = f"http://127.0.0.1:{marimo_port}"
        with (
            server(lab_command, lab_url, "/api/status", lab_dir),
            server(marimo_command, marimo_url, "/health", marimo_dir),
        ):
            viewport = {"width": 1280, "height": 1600}
            fronts = [
                Lab(browser.new_page(viewport=viewport), lab_url, lab_dir),
                Marimo(browser.new_page(viewport=viewport), marimo_url, marimo_dir),
            ]
            times = {front.name: [] for front in fronts}
            for front in fronts:  # warm-up: imports, the tree walk compiled
                front.first_bars()
                front.drawn()
            for run in range(runs):
                for front in fronts if run % 2 == 0 else fronts[::-1]:
                    times[front.name].append(front.first_bars())
                    front.drawn()
            drawn = {front.name: front.drawn() for front in fronts}
            features = drawn["marimo"][1][:runs]
            reruns = [fronts[1].rerun_after_click(f) for f in features]
        browser.close()
    if drawn["JupyterLab"] != drawn["marimo"]:
        sys.exit(f"the pages differ: {json.dumps(drawn)}")
    lab, marimo = (statistics.median(times[name]) for name in ("JupyterLab", "marimo"))
    print(f"runs: {runs}, after one untimed run each; medians, seconds")
    print(f"{'':32}{'JupyterLab':>12}{'marimo':>12}{'marimo/Lab':>12}")
    print(f"{'request to first bars':32}{lab:12.3f}{marimo:12.3f}{marimo / lab:12.2f}")
    print(
        f"{'click to dependent cell shown':32}{'':12}{statistics.median(reruns):12.3f}"
    )
    rounded = {name: [round(t, 3) for t in runs] for name, runs in times.items()}
    print("first bars, each run:", json.dumps(rounded))
    print("reruns, each click:", [round(t, 3) for t in reruns])
    print("both pages:", drawn["JupyterLab"][0], "; bars in the same order")


if __name__ == "__main__":
    main()
