"""PermutationImportanceWidget in JupyterLab, driven through the real page.

Each test writes a notebook, runs it in Lab, works the widget's controls in
Chromium and then asks the kernel (a print cell) what Python received. Times
are measured and reported (see conftest's ``record_timing``), never asserted:
a test that needs a run in progress holds the model (``PACED``).
"""

import re

import pytest
from conftest import contrast

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 60_000  # ms, for a computation to finish

IMPORTS = """\
import numpy as np
import pandas as pd
from inspectwidgets import PermutationImportanceWidget
"""

# 2,000 test rows x 20 features; predictions of 100 trees take a while.
FOREST = (
    IMPORTS
    + """\
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

X, y = make_classification(
    n_samples=4000, n_features=20, n_informative=6, random_state=0
)
X_train, X_test, y_train, y_test = train_test_split(
    X, y, test_size=2000, random_state=0
)
model = RandomForestClassifier(n_estimators=100, random_state=0, n_jobs=-1)
model.fit(X_train, y_train)
"""
)

# The forest, predicting only the calls the test allows: the page is looked
# at while the run is known to be in progress, with no race against the
# model's speed. `run_until` lets calls through one at a time until the
# widget's result holds some repeats, and returns with the widget's thread
# waiting for its next call.
PACED = (
    FOREST
    + """\
import threading
from sklearn.base import BaseEstimator, ClassifierMixin


class Paced(ClassifierMixin, BaseEstimator):
    def __init__(self, model):
        self.model = model

    def fit(self, X, y):
        self.classes_ = self.model.classes_
        self.n_features_in_ = self.model.n_features_in_
        self._turn = threading.Condition()
        self._allowed = self._calls = self._arrived = 0
        return self

    def _wait_turn(self):
        with self._turn:
            self._arrived += 1
            self._turn.notify_all()
            self._turn.wait_for(lambda: self._calls < self._allowed, timeout=60)
            self._calls += 1

    def predict(self, X):
        self._wait_turn()
        return self.model.predict(X)

    def predict_proba(self, X):
        self._wait_turn()
        return self.model.predict_proba(X)

    def _waiting(self, widget):
        # A call arrived beyond the allowed ones (its thread waits in
        # _wait_turn), or the run ended.
        return widget.status != "running" or self._arrived > self._allowed

    def run_until(self, widget, n_repeats):
        with self._turn:
            while widget.status == "running" and (
                widget.result is None or widget.result.n_repeats_done < n_repeats
            ):
                self._allowed += 1
                self._turn.notify_all()
                while not self._waiting(widget):
                    self._turn.wait(0.01)
        return widget.result.n_repeats_done

    def allow_all(self):
        with self._turn:
            self._allowed = float("inf")
            self._turn.notify_all()


paced = Paced(model).fit(X_train, y_train)
"""
)

# A quick model: a run takes a fraction of a second.
LOGISTIC = (
    IMPORTS
    + """\
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression

X, y = make_classification(n_samples=500, n_features=8, n_informative=4, random_state=0)
model = LogisticRegression().fit(X, y)
"""
)

# Named features of different lengths, for the pictures.
CANCER = (
    IMPORTS
    + """\
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

X, y = load_breast_cancer(return_X_y=True, as_frame=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
model = RandomForestClassifier(n_estimators=50, random_state=0).fit(X_train, y_train)
w = PermutationImportanceWidget(
    model, X_test, y_test, scoring=["accuracy", "roc_auc"], n_repeats=8, max_features=15
)
w
"""
)

EVIL = "<img src=x onerror=alert(1)>"

# Whether no d3 transition is scheduled or running inside `root`.
IDLE_JS = """
(root) => ![root, ...root.querySelectorAll('*')].some(
  (node) => node.__transition && Object.keys(node.__transition).length > 0
)
"""

# On the next `change` of the displayed-scorer select, time (page clock) the
# first frame whose baseline and axis title name `scorer`, then the frame in
# which the bars stopped moving; collect the statuses seen meanwhile. The
# listener captures the event before the widget's own handler runs.
SWITCH_WATCH_JS = f"""
([select, scorer]) => {{
  const idle = {IDLE_JS};
  const root = select.closest('[data-testid="piw-root"]');
  const s = (window.__switch = {{}});
  const tick = () => {{
    s.statuses.add(root.dataset.status);
    const title = root.querySelector('.piw-axis-title')?.textContent ?? '';
    const baseline = root.querySelector('[data-testid="piw-baseline"]').textContent;
    if (s.labelled === undefined && baseline.includes(scorer) && title.includes(scorer))
      s.labelled = performance.now();
    if (s.labelled !== undefined && idle(root)) {{
      s.statuses = [...s.statuses];
      s.settled = performance.now();
    }} else {{
      requestAnimationFrame(tick);
    }}
  }};
  select.addEventListener('change', () => {{
    s.t0 = performance.now();
    s.statuses = new Set();
    requestAnimationFrame(tick);
  }}, {{ capture: true, once: true }});
}}
"""

BAR_WIDTHS_JS = (
    "(bars) => bars.map((b) => `${b.dataset.feature}:${b.getAttribute('width')}`)"
)


@pytest.fixture(scope="module", autouse=True)
def built_bundle(chromium_path, require_bundle):
    require_bundle("permutation_widget.js", "piw-root")


def widget_root(nb):
    return nb.page.get_by_test_id("piw-root")


def wait_status(nb, status, timeout=RUN_TIMEOUT):
    expect(widget_root(nb)).to_have_attribute("data-status", status, timeout=timeout)


def wait_settled(nb):
    nb.page.wait_for_function(IDLE_JS, arg=widget_root(nb).element_handle())


def widget_cell(nb):
    return nb.page.locator(".jp-Cell").filter(has=widget_root(nb))


# --- 1. Live fill-in -------------------------------------------------------


def test_bars_fill_in_while_running(open_notebook):
    """The chart shows each result the run streams, while it runs: held at
    two points of the run (the model waits), the page draws that many
    repeats, the status still running, and the bars change between them."""
    nb = open_notebook("live_fill_in.ipynb", [PACED])
    nb.run_all()
    nb.run_code(
        "w = PermutationImportanceWidget(\n"
        "    paced, X_test, y_test,\n"
        '    scoring=["accuracy", "roc_auc", "neg_log_loss"], n_repeats=10,\n'
        ")\n"
        "w"
    )
    root = widget_root(nb)
    drawn = []
    for n_repeats in (2, 6):
        _, output = nb.run_code(f"print(paced.run_until(w, {n_repeats}), w.status)")
        done, status = output.split()
        assert status == "running" and int(done) < 10, output
        expect(root).to_have_attribute("data-repeats-done", done, timeout=RUN_TIMEOUT)
        expect(root).to_have_attribute("data-status", "running")
        expect(root.get_by_test_id("piw-bar").first).to_be_visible()
        wait_settled(nb)
        drawn.append(root.get_by_test_id("piw-bar").evaluate_all(BAR_WIDTHS_JS))
    assert drawn[0] and drawn[0] != drawn[1], f"the bars never changed: {drawn}"

    nb.run_code("paced.allow_all()")
    wait_status(nb, "done")
    expect(root).to_have_attribute("data-repeats-done", "10")
    nb.eventually_prints(
        "print(w.wait(60), w.result.n_repeats_done, len(w.scoring))", "done 10 3"
    )


# --- 2. Controls reach Python ---------------------------------------------


def test_controls_reach_python(open_notebook, record_timing):
    nb = open_notebook(
        "controls.ipynb",
        [
            LOGISTIC,
            "w = PermutationImportanceWidget(\n"
            '    model, X, y, scoring=["accuracy", "roc_auc", "neg_log_loss"],\n'
            "    n_repeats=3,\n"
            ")\n"
            "w",
        ],
    )
    nb.run_all()
    root = widget_root(nb)
    wait_status(nb, "done")
    expect(root).to_have_attribute("data-repeats-done", "3")

    # Repeats: typed into the number input, applied on change (Enter).
    repeats = root.get_by_test_id("piw-repeats")
    expect(repeats).to_have_value("3")
    repeats.fill("7")
    repeats.press("Enter")
    nb.eventually_prints("print(w.n_repeats)", "7")
    wait_status(nb, "done")
    expect(root).to_have_attribute("data-repeats-done", "7")

    # Displayed scorer: redrawn from the data already in the page, no rerun.
    nb.run_code("result_before_switch = w.result")
    baseline = root.get_by_test_id("piw-baseline")
    expect(baseline).to_contain_text("accuracy")
    bars_before = root.get_by_test_id("piw-bar").evaluate_all(BAR_WIDTHS_JS)
    select = root.get_by_test_id("piw-scorer")
    nb.page.evaluate(SWITCH_WATCH_JS, [select.element_handle(), "roc_auc"])
    select.select_option("roc_auc")
    nb.page.wait_for_function("() => window.__switch.settled !== undefined")
    switch = nb.page.evaluate("() => window.__switch")
    record_timing(
        "scorer switch: select -> chart labelled roc_auc",
        (switch["labelled"] - switch["t0"]) / 1000,
    )
    record_timing(
        "scorer switch: select -> bars settled",
        (switch["settled"] - switch["t0"]) / 1000,
    )
    assert switch["statuses"] == ["done"], f"status changed during the switch: {switch}"
    expect(baseline).to_contain_text("roc_auc")
    bars_after = root.get_by_test_id("piw-bar").evaluate_all(BAR_WIDTHS_JS)
    assert bars_after != bars_before, "the bars did not change with the scorer"
    expect(root).to_have_attribute("data-status", "done")
    nb.eventually_prints(
        "print(w.scorer, w.status, w.result is result_before_switch)",
        "roc_auc done True",
    )

    # Scorers: staged in the checklist, sent by Apply.
    option = root.locator(
        '[data-testid="piw-scorer-option"][data-scorer="neg_log_loss"]'
    )
    expect(option).to_be_checked()
    option.uncheck()
    apply = root.get_by_test_id("piw-apply")
    expect(apply).to_be_enabled()
    apply.click()
    nb.eventually_prints("print(w.scoring)", "['accuracy', 'roc_auc']")
    wait_status(nb, "done")
    expect(select.locator("option")).to_have_text(["accuracy", "roc_auc"])
    expect(select).to_have_value("roc_auc")
    expect(apply).to_be_disabled()


# --- 3. Stop -----------------------------------------------------------------


def test_stop_cancels_a_long_run(open_notebook):
    nb = open_notebook(
        "stop.ipynb",
        [
            FOREST,
            "w = PermutationImportanceWidget(model, X_test, y_test, n_repeats=200)\nw",
        ],
    )
    nb.run_all()
    root = widget_root(nb)
    wait_status(nb, "running")
    # At least one repeat in, so the partial result is not empty. One repeat
    # of this forest took over the 5 s default on a loaded machine (two
    # cores, six test sessions): the run's own timeout, the same condition.
    expect(root).to_have_attribute(
        "data-repeats-done", re.compile(r"^[1-9]\d*$"), timeout=RUN_TIMEOUT
    )
    stop = root.get_by_test_id("piw-stop")
    expect(stop).to_be_enabled()
    stop.click()
    wait_status(nb, "cancelled", timeout=30_000)
    expect(stop).to_be_disabled()
    expect(root.get_by_test_id("piw-progress")).to_contain_text("cancelled")

    _, output = nb.run_code("print(w.wait(30), w.result.n_repeats_done)")
    status, done = output.split()
    assert status == "cancelled", output
    assert 0 < int(done) < 200, output
    expect(root).to_have_attribute("data-repeats-done", done)
    expect(root.get_by_test_id("piw-bar").first).to_be_visible()
    wait_settled(nb)
    nb.screenshot(widget_cell(nb), "permutation_cancelled.png")


# --- 4. Text from data is never HTML ---------------------------------------


def test_feature_names_are_text_not_html(open_notebook):
    dialogs = []
    nb = open_notebook(
        "xss.ipynb",
        [
            IMPORTS
            + f"""\
from sklearn.linear_model import Ridge

EVIL = {EVIL!r}
rng = np.random.default_rng(0)
X = pd.DataFrame({{EVIL: rng.normal(size=300), "normal": rng.normal(size=300)}})
y = 3 * X[EVIL] + X["normal"] + rng.normal(scale=0.1, size=300)
w = PermutationImportanceWidget(Ridge().fit(X, y), X, y, n_repeats=5)
w
"""
        ],
        on_dialog=lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()),
    )
    nb.run_all()
    root = widget_root(nb)
    wait_status(nb, "done")
    evil_img = root.locator('img[src="x"]')

    chart = root.get_by_test_id("piw-chart")
    # The label (its <title> holds the same text, not drawn).
    expect(chart.get_by_text(EVIL, exact=True).filter(visible=True)).to_have_count(1)
    expect(
        root.locator(f'[data-testid="piw-bar"][data-feature="{EVIL}"]')
    ).to_be_visible()
    expect(
        root.locator(f'[data-testid="piw-feature-option"][data-feature="{EVIL}"]')
    ).to_be_checked()
    expect(root.locator(".piw-option-label", has_text=EVIL)).to_have_text(EVIL)
    expect(evil_img).to_have_count(0)
    wait_settled(nb)
    nb.screenshot(root, "permutation_xss.png")

    # The tooltip repeats the name.
    root.locator(f'[data-testid="piw-bar"][data-feature="{EVIL}"]').hover()
    expect(root.get_by_test_id("piw-tooltip")).to_contain_text(EVIL)
    expect(evil_img).to_have_count(0)

    root.get_by_test_id("piw-kind-table").click()
    table = root.get_by_test_id("piw-table")
    expect(table).to_be_visible()
    expect(table.get_by_role("rowheader", name=EVIL, exact=True)).to_be_visible()
    expect(evil_img).to_have_count(0)

    # Round trip through the kernel, so a late onerror would have fired.
    nb.eventually_prints("print(w.kind)", "table")
    assert nb.page.locator('img[src="x"]').count() == 0
    assert dialogs == [], f"dialogs fired: {dialogs}"


# --- 5. Errors show inline -------------------------------------------------


def test_bad_setting_shows_error_inline_then_recovers(open_notebook):
    nb = open_notebook(
        "error.ipynb",
        [
            LOGISTIC,
            "w = PermutationImportanceWidget(model, X, y, n_repeats=3)\nw",
        ],
    )
    nb.run_all()
    root = widget_root(nb)
    error = root.get_by_test_id("piw-error")
    wait_status(nb, "done")
    expect(error).to_be_hidden()

    # A count out of bounds is refused in the kernel (TraitError), unchanged.
    nb.eventually_prints(
        "try:\n    w.n_repeats = 0\nexcept Exception as e:\n"
        "    print(type(e).__name__, w.n_repeats, w.status)",
        "TraitError 3 done",
    )
    nb.run_code('w.scoring = ["r3"]')
    wait_status(nb, "error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("scoring")
    # The traceback is folded under "details", and opens on a click.
    traceback = root.get_by_test_id("piw-error-traceback")
    expect(traceback).to_be_hidden()
    root.get_by_test_id("piw-error-details").locator("summary").click()
    expect(traceback).to_be_visible()
    expect(traceback).to_contain_text("Traceback (most recent call last)")
    wait_settled(nb)
    nb.screenshot(root, "permutation_error.png")

    nb.run_code('w.scoring = ["accuracy"]')
    wait_status(nb, "done")
    expect(error).to_be_hidden()
    expect(root).to_have_attribute("data-repeats-done", "3")
    nb.eventually_prints("print(w.status, repr(w.error))", "done ''")


# --- 6. Pictures -------------------------------------------------------------


def test_screenshots_light_and_dark(open_notebook):
    # Tall enough for the whole cell: element screenshots are clipped to the
    # notebook's scrolling area.
    nb = open_notebook(
        "screenshots.ipynb", [CANCER], viewport={"width": 1280, "height": 1800}
    )
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    root = widget_root(nb)
    wait_status(nb, "done")
    cell = widget_cell(nb)
    try:
        for theme, suffix in (
            ("JupyterLab Light", "light"),
            ("JupyterLab Dark", "dark"),
        ):
            nb.set_theme(theme)
            # JupyterLab's colours (ui/theme.css), and readable text on them.
            text = contrast(root)
            assert (text["background"] < 0.1) == (suffix == "dark"), text
            assert text["ratio"] >= 4.5, text
            for kind in ("bar", "box", "table"):
                button = root.get_by_test_id(f"piw-kind-{kind}")
                button.click()
                expect(button).to_have_attribute("aria-pressed", "true")
                if kind == "table":
                    expect(root.get_by_test_id("piw-table")).to_be_visible()
                else:
                    expect(root.get_by_test_id("piw-chart")).to_be_visible()
                    wait_settled(nb)
                path = nb.screenshot(cell, f"permutation_{kind}_{suffix}.png")
                assert path.stat().st_size > 0
    finally:
        # The theme is a saved setting: leave the server light for other tests.
        nb.set_theme("JupyterLab Light")
