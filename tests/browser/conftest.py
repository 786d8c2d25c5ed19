"""JupyterLab + Playwright fixtures for the end-to-end widget tests.

One JupyterLab server, one Chromium and one JupyterLab page per test
process (the recipe in ``/work/shared/recipes/browser-testing.md``). Every
test writes its own notebook into the server's root folder with nbformat and
opens it in that page, with a kernel of its own; the notebook is closed, its
kernel shut down and the page's layout, viewport and theme put back after the
test. Starting JupyterLab in a page costs as much processor time as many
tests' own work in it: the suite starts it once per process.

``marimo_app`` serves a marimo notebook with ``marimo run`` instead, one
server per notebook for the session.

Screenshots and ``timings.json`` go to ``tests/output/browser/`` (git-ignored).
The browser is Debian's ``/usr/bin/chromium``; never run ``playwright install``.
Without it the tests are skipped, except when ``CI`` is set: there they fail.
"""

import contextlib
import fcntl
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
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
OUTPUT_DIR = Path(__file__).resolve().parents[1] / "output" / "browser"
BUNDLE = Path(__file__).resolve().parents[2] / "src" / "inspectwidgets" / "static"
VIEWPORT = {"width": 1280, "height": 1000}
SERVER_START_TIMEOUT = 60  # seconds
KERNEL_READY_TIMEOUT = 60_000  # ms
CELL_TIMEOUT = 60_000  # ms
LIGHT_THEME = "JupyterLab Light"

# Measurements printed at the end of the session and saved to timings.json:
# observations, never asserted against a threshold.
TIMINGS = {}


def isolated(name):
    """`name` as the front end writes it inside a longer text: between the
    bidi isolates U+2068 and U+2069 (isolate() in js/src/charts/format.js)."""
    return f"\u2068{name}\u2069"


def _missing(reason):
    """Skip on a developer's machine; fail in CI, where the suite must run."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: browser tests must not be skipped)")
    pytest.skip(reason)


def open_on_demand(root, testid):
    """Open the inspector's part behind the button `testid` (``mi-settings``:
    every view's controls and the rows used; ``mi-cohorts-toggle``: the
    cohort form), which its first screen keeps closed (#52)."""
    button = root.get_by_test_id(testid)
    if button.get_attribute("aria-expanded") != "true":
        button.click()
    from playwright.sync_api import expect

    expect(button).to_have_attribute("aria-expanded", "true")


@pytest.fixture(scope="session")
def require_bundle():
    """``require_bundle(module, root_testid)``: fail unless the widget's
    built front end (`module` in the static folder, drawing `root_testid`)
    is there; without it the page would stay empty."""

    def _require(module, root_testid):
        source = BUNDLE / module
        if not source.exists() or root_testid not in source.read_text():
            pytest.fail(
                f"{source} is missing or not the built front end: run "
                "`cd js && npm install && npm run build`"
            )

    return _require


# --- Browser ---------------------------------------------------------------


@pytest.fixture(scope="session")
def chromium_path():
    if not CHROMIUM.exists():
        _missing(f"{CHROMIUM} not found; install it with `apt-get install chromium`")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _missing(
            "the playwright Python package is not installed (pip install playwright)"
        )
    return CHROMIUM


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium_path), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


# --- JupyterLab server -----------------------------------------------------


@dataclass
class LabServer:
    url: str
    root_dir: Path
    log: Path


def _free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_ready(url, process, log, *, probe="/api/status", name="JupyterLab"):
    """Poll `url` + `probe` until it answers 200; fail with the server's log
    if `process` exits or the time runs out."""
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"{name} exited with {process.returncode}:\n{_tail(log)}")
        try:
            with urllib.request.urlopen(f"{url}{probe}", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    pytest.fail(f"{name} not ready after {SERVER_START_TIMEOUT} s:\n{_tail(log)}")


def _tail(log):
    return log.read_text(errors="replace")[-3000:]


def _stop(process):
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory, chromium_path):
    """A JupyterLab server on a free local port, isolated from the user's
    Jupyter folders; its root is an empty temporary folder."""
    base = tmp_path_factory.mktemp("jupyterlab")
    root_dir = base / "root"
    dirs = {
        name: base / name.lower()
        for name in (
            "JUPYTER_CONFIG_DIR",
            "JUPYTER_DATA_DIR",
            "JUPYTER_RUNTIME_DIR",
            "JUPYTERLAB_SETTINGS_DIR",
            "JUPYTERLAB_WORKSPACES_DIR",
            "IPYTHONDIR",
        )
    }
    # Kernels talk over Unix sockets in the runtime folder, not TCP ports: a
    # port jupyter_client found free can be taken by another test process
    # before the kernel binds it ("Address already in use"; the notebook then
    # waits for a kernel that never comes). A socket's path must stay under
    # 108 bytes, hence a short folder of its own.
    dirs["JUPYTER_RUNTIME_DIR"] = Path(tempfile.mkdtemp(prefix="iw-lab-"))
    for path in [root_dir, *dirs.values()]:
        path.mkdir(exist_ok=True)
    # Without this a "Jupyter news?" toast covers the screenshots.
    notification = (
        dirs["JUPYTERLAB_SETTINGS_DIR"]
        / "@jupyterlab"
        / "apputils-extension"
        / "notification.jupyterlab-settings"
    )
    notification.parent.mkdir(parents=True)
    notification.write_text(
        json.dumps(
            {"fetchNews": "false", "checkForUpdates": False, "doNotDisturbMode": True}
        )
    )

    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--ServerApp.root_dir={root_dir}",
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly",
        "--KernelManager.transport=ipc",
        # Notebook 7 is served by the same server, under /notebooks/.
        "--JupyterNotebookApp.expose_app_in_browser=True",
    ]
    if os.geteuid() == 0:
        command.append("--allow-root")
    env = {
        **os.environ,
        **{name: str(path) for name, path in dirs.items()},
        "JUPYTER_PLATFORM_DIRS": "1",
    }
    log = base / "server.log"
    with log.open("wb") as log_file:
        process = subprocess.Popen(
            command,
            env=env,
            cwd=root_dir,
            stdin=subprocess.DEVNULL,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # the server and its kernels: one process group
        )
    try:
        _wait_ready(url, process, log)
        yield LabServer(url=url, root_dir=root_dir, log=log)
    finally:
        _stop(process)
        shutil.rmtree(dirs["JUPYTER_RUNTIME_DIR"], ignore_errors=True)


# --- marimo ----------------------------------------------------------------


@pytest.fixture(scope="session")
def marimo_app(tmp_path_factory, chromium_path):
    """``marimo_app(notebook) -> url``: serve `notebook` (a path) with
    ``marimo run`` on a free local port, with no token, until the session
    ends. The server runs in an empty temporary folder that is also its HOME,
    so no user's ``.marimo.toml`` applies; the one written there follows the
    page's colour scheme (``page.emulate_media(color_scheme="dark")``)."""
    servers = {}

    def _serve(notebook):
        notebook = Path(notebook).resolve()
        if notebook in servers:
            return servers[notebook]
        home = tmp_path_factory.mktemp("marimo")
        (home / ".marimo.toml").write_text('[display]\ntheme = "system"\n')
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        command = [
            sys.executable,
            "-m",
            "marimo",
            "run",
            str(notebook),
            "--host=127.0.0.1",
            f"--port={port}",
            "--headless",
            "--no-token",
            "--no-sandbox",
            "--no-check",
        ]
        env = {
            **os.environ,
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home),
            # Run elsewhere, the kernel imports what this process imports.
            "PYTHONPATH": os.pathsep.join(map(os.path.abspath, sys.path)),
        }
        log = home / "server.log"
        with log.open("wb") as log_file:
            process = subprocess.Popen(
                command,
                env=env,
                cwd=home,
                stdin=subprocess.DEVNULL,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        processes.append(process)
        _wait_ready(url, process, log, probe="/health", name="marimo")
        servers[notebook] = url
        return url

    processes = []
    try:
        yield _serve
    finally:
        for process in processes:
            _stop(process)


# --- Notebooks in the page -------------------------------------------------

# Text of a cell's outputs, from the model (not the DOM), one output a line.
_OUTPUT_TEXT_JS = """
(cell) => {
  const text = (v) => (Array.isArray(v) ? v.join('') : (v ?? ''));
  return cell.model.outputs.toJSON().map((o) => {
    if (o.output_type === 'stream') return text(o.text);
    if (o.output_type === 'error') return `${o.ename}: ${o.evalue}`;
    return text((o.data || {})['text/plain']);
  }).join('');
}
"""

_RUN_CELL_JS = f"""
async ([index, code]) => {{
  const app = window.jupyterapp;
  const notebook = app.shell.currentWidget.content;
  if (index === null) {{
    notebook.activeCellIndex = notebook.widgets.length - 1;
    await app.commands.execute('notebook:insert-cell-below');
    index = notebook.activeCellIndex;
  }} else {{
    notebook.activeCellIndex = index;
  }}
  const cell = notebook.widgets[index];
  if (code !== null) cell.model.sharedModel.setSource(code);
  // Resolves when the kernel has replied and its outputs have arrived.
  await app.commands.execute('notebook:run-cell');
  return [index, ({_OUTPUT_TEXT_JS})(cell)];
}}
"""


# The notebook panel in the main area whose document is at `name`.
_PANEL_JS = """
(name) => Array.from(window.jupyterapp?.shell?.widgets('main') ?? [])
  .find((widget) => widget.context?.path === name)
"""

# What a notebook that never got an idle kernel looked like, for the error.
_PANEL_STATE_JS = f"""
(name) => {{
  const shell = window.jupyterapp.shell;
  const panel = ({_PANEL_JS})(name);
  const session = panel?.sessionContext;
  return {{
    current: shell.currentWidget?.context?.path ?? shell.currentWidget?.id ?? null,
    open: Array.from(shell.widgets('main')).map((w) => w.context?.path ?? w.id),
    found: Boolean(panel),
    kernel: session?.session?.kernel?.status ?? null,
    connection: session?.session?.kernel?.connectionStatus ?? null,
    kernelName: session?.kernelDisplayName ?? null,
    dialogs: document.querySelectorAll('.jp-Dialog').length,
  }};
}}
"""


def write_notebook(path, cells):
    """Write code `cells` (strings) as a Python 3 notebook at `path`."""
    # Imported here: nbformat's schema validator takes seconds to load, and
    # every pytest process loads this conftest, the inner loop's included.
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    nbformat.write(nb, path)


class LabNotebook:
    """A notebook open in JupyterLab, driven through ``window.jupyterapp``."""

    def __init__(self, page, server, name):
        self.page = page
        self.server = server
        self.name = name

    # Opening and running ------------------------------------------------

    def open(self):
        from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

        # Returns nothing: the opened widget is no value Playwright can send
        # back (it failed at random: "object reference chain is too long").
        self.page.evaluate(
            """async (path) => {
              await window.jupyterapp.commands.execute(
                'docmanager:open', {path, factory: 'Notebook'});
            }""",
            self.name,
        )
        # The panel is found by its path and activated, not taken to be the
        # current widget: the other methods drive `shell.currentWidget`.
        try:
            self.page.wait_for_function(
                f"""(name) => {{
                  const panel = ({_PANEL_JS})(name);
                  if (panel && window.jupyterapp.shell.currentWidget !== panel) {{
                    window.jupyterapp.shell.activateById(panel.id);
                  }}
                  return panel?.sessionContext?.session?.kernel?.status === 'idle';
                }}""",
                arg=self.name,
                timeout=KERNEL_READY_TIMEOUT,
                polling=100,
            )
        except PlaywrightTimeoutError as error:
            state = self.page.evaluate(_PANEL_STATE_JS, self.name)
            raise AssertionError(
                f"{self.name}: no idle kernel after {KERNEL_READY_TIMEOUT} ms; "
                f"the page: {state}; the server log ends:\n{_tail(self.server.log)}"
            ) from error
        return self

    def run_all(self):
        """Run every cell; fail with the tracebacks if a cell raised."""
        errors = self.page.evaluate(
            """async () => {
              const app = window.jupyterapp;
              await app.commands.execute('notebook:run-all-cells');
              const notebook = app.shell.currentWidget.content;
              return notebook.widgets
                .filter((cell) => cell.model.type === 'code')
                .flatMap((cell) => cell.model.outputs.toJSON())
                .filter((o) => o.output_type === 'error')
                .map((o) => `${o.ename}: ${o.evalue}`);
            }"""
        )
        assert not errors, f"cells of {self.name} raised: {errors}"

    def run_code(self, code):
        """Insert a cell at the end with `code`, run it and wait for its reply.

        Returns ``(index, output_text)``; the index re-runs it with `rerun`.
        """
        index, output = self.page.evaluate(_RUN_CELL_JS, [None, code])
        return index, output

    def rerun(self, index):
        """Run the cell at `index` again; return its output text."""
        return self.page.evaluate(_RUN_CELL_JS, [index, None])[1]

    def start_code(self, code):
        """Insert a cell with `code` and start running it without waiting.

        Returns the page's ``performance.now()`` taken just before the run
        command is issued.
        """
        return self.page.evaluate(
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
            code,
        )

    def eventually_prints(self, code, expected, timeout=15):
        """Run `code` until its output (stripped) equals `expected`.

        ipywidgets keeps one front-end → kernel update in flight and sends the
        next only when the kernel is idle, so a print right after a UI change
        may still show the old value: re-run (bounded), never sleep.
        """
        index, output = self.run_code(code)
        deadline = time.monotonic() + timeout
        while output.strip() != expected and time.monotonic() < deadline:
            output = self.rerun(index)
        assert output.strip() == expected, (
            f"{code!r} printed {output.strip()!r}, expected {expected!r}"
        )
        return output

    # Theme and pictures -------------------------------------------------

    def set_theme(self, theme):
        self.page.evaluate(
            """(theme) => window.jupyterapp.commands.execute(
                 'apputils:change-theme', {theme})""",
            theme,
        )
        light = "true" if "Light" in theme else "false"
        self.page.wait_for_function(
            """([theme, light]) => document.body.dataset.jpThemeName === theme
                 && document.body.dataset.jpThemeLight === light""",
            arg=[theme, light],
        )

    def screenshot(self, locator, name):
        OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
        path = OUTPUT_DIR / name
        self.page.mouse.move(0, 0)  # no hover highlight in the picture
        locator.screenshot(path=str(path), animations="disabled")
        return path


# Every document in the main area closed without asking to save, each
# notebook's kernel shut down first; the layout as a new workspace has it
# (file browser open on the left, nothing on the right).
_CLOSE_DOCUMENTS_JS = """
async () => {
  const app = window.jupyterapp;
  for (const widget of Array.from(app.shell.widgets('main'))) {
    try {
      await widget.sessionContext?.shutdown();
    } finally {
      widget.dispose();
    }
  }
  app.shell.collapseRight();
  app.shell.activateById('filebrowser');
}
"""


@pytest.fixture(scope="session")
def lab_page(lab_server, browser):
    """The JupyterLab page of this test process, in an empty workspace."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(CELL_TIMEOUT)
    page = context.new_page()
    page.goto(f"{lab_server.url}/lab/workspaces/browser-tests?reset")
    page.wait_for_function(
        "() => window.jupyterapp !== undefined",
        timeout=KERNEL_READY_TIMEOUT,
        polling=100,
    )
    page.evaluate("() => window.jupyterapp.restored")
    yield page
    context.close()


@pytest.fixture
def open_notebook(lab_server, lab_page):
    """``open_notebook(name, cells) -> LabNotebook``: write the notebook into
    the server's root, open it in this process's JupyterLab page and wait for
    an idle kernel. After the test: the notebook closed, its kernel shut down,
    and the page's viewport, layout and theme as they were."""
    page = lab_page
    dialogs = []

    def _open(name, cells, *, on_dialog=None, viewport=VIEWPORT):
        write_notebook(lab_server.root_dir / name, cells)
        page.set_viewport_size(viewport)
        if on_dialog is not None:
            page.on("dialog", on_dialog)
            dialogs.append(on_dialog)
        return LabNotebook(page, lab_server, name).open()

    yield _open
    for handler in dialogs:
        page.remove_listener("dialog", handler)
    page.evaluate(_CLOSE_DOCUMENTS_JS)
    page.set_viewport_size(VIEWPORT)
    if page.evaluate("() => document.body.dataset.jpThemeName") != LIGHT_THEME:
        LabNotebook(page, lab_server, None).set_theme(LIGHT_THEME)


@pytest.fixture
def notebook_file(lab_server):
    """``notebook_file(name, cells)``: write a notebook into the server's root."""

    def _write(name, cells):
        write_notebook(lab_server.root_dir / name, cells)
        return name

    return _write


# --- Colours ---------------------------------------------------------------

# The WCAG contrast ratio of an element's text (`color`, or `fill` for SVG
# text) against what lies behind it: every ancestor's background, across
# shadow roots, painted from the page down onto one canvas pixel (so any
# colour form the browser computes, display-p3 included, is measured in sRGB).
CONTRAST_JS = """
(el, property) => {
  const layers = [];
  for (let node = el; node; node = node.parentNode || node.host) {
    if (node.nodeType === 1) layers.push(getComputedStyle(node).backgroundColor);
  }
  const ctx = document.createElement('canvas').getContext('2d');
  const paint = (colour) => { ctx.fillStyle = colour; ctx.fillRect(0, 0, 1, 1); };
  const pixel = () => Array.from(ctx.getImageData(0, 0, 1, 1).data.slice(0, 3));
  paint('#fff');
  layers.reverse().forEach(paint);
  const background = pixel();
  paint(getComputedStyle(el)[property]);
  const text = pixel();
  const luminance = (rgb) => rgb
    .map((v) => v / 255)
    .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const [hi, lo] = [luminance(text), luminance(background)].sort((a, b) => b - a);
  return {ratio: (hi + 0.05) / (lo + 0.05), background: luminance(background)};
}
"""


def contrast(locator, prop="color"):
    """``{"ratio", "background"}``: the WCAG contrast ratio of `locator`'s
    text against its background, and that background's luminance (0 black,
    1 white)."""
    return locator.evaluate(CONTRAST_JS, prop)


# --- Timings ---------------------------------------------------------------


@pytest.fixture
def record_timing():
    """``record_timing(name, seconds)``: print a measurement and keep it for
    ``tests/output/browser/timings.json`` and the session summary."""

    def _record(name, seconds):
        TIMINGS[name] = round(seconds, 3)
        print(f"[timing] {name}: {seconds:.3f} s")

    return _record


def pytest_sessionfinish(session, exitstatus):
    if TIMINGS:
        # Merged into earlier sessions' timings: running one test file only
        # updates its own measurements.
        # Under pytest-xdist every worker merges its own, one at a time.
        path = OUTPUT_DIR / "timings.json"
        OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
        with open(OUTPUT_DIR / "timings.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                saved = json.loads(path.read_text())
            except (OSError, ValueError):
                saved = {}
            path.write_text(json.dumps({**saved, **TIMINGS}, indent=2) + "\n")


def pytest_terminal_summary(terminalreporter):
    if TIMINGS:
        terminalreporter.section("browser timings (measured, not asserted)")
        for name, seconds in TIMINGS.items():
            terminalreporter.write_line(f"{name}: {seconds:.3f} s")
