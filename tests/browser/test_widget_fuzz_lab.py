"""Seeded random use of each widget in JupyterLab, then the page against Python.

For each widget: 50 random actions on the controls present in its DOM
(buttons, selects, checkboxes, number inputs with bad values, the filter,
the slider, marks hovered or clicked), a short random pause between them and
no waiting for the computations. Then no uncaught JS error may have been
reported, and once the status has settled the picture must agree with the
kernel's traits (status line, error box, control values, what is drawn).
Last, a good setting from Python must still run to "done" and redraw.

The seed of each widget is fixed (``SEEDS``) and in every failure message,
with the actions performed. To try others, list them in the environment:
``INSPECTWIDGETS_FUZZ_SEEDS=3,4,5 pytest tests/browser/test_widget_fuzz_lab.py``.
"""

import json
import os
import random
import re

import pytest
from conftest import isolated

try:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    PlaywrightError = expect = None

pytestmark = pytest.mark.browser

# Chosen among 0-13 so the final states differ: permutation's 9 ends in
# "error" (1e9 repeats typed, refused by the engine for memory), so the error
# box and the recovery from it are checked. Timing may change an end too:
# comparison's 1 ended "cancelled" once (Stop last), "done" another time.
SEEDS = {"permutation": 9, "pd": 1, "comparison": 1}
EXTRA_SEEDS = os.environ.get("INSPECTWIDGETS_FUZZ_SEEDS", "")


def seeds(widget):
    """The fixed seed, or the seeds asked for in the environment."""
    return [int(s) for s in EXTRA_SEEDS.split(",") if s] or [SEEDS[widget]]


# Each categorical ALE mark is drawn: displayed, as wide as its category, at
# a finite level.
ALE_MARKS_DRAWN_JS = """
(marks) => marks.map((m) => {
  const line = m.querySelector('line');
  return getComputedStyle(m).display !== 'none' && m.getBoundingClientRect().width > 0
    && ['y1', 'y2'].every((a) => Number.isFinite(Number(line?.getAttribute(a))));
})
"""

N_ACTIONS = 50
PAUSE_MS = (20, 150)  # between actions: brief, never until a run completes
ACTION_TIMEOUT = 1_500  # ms; a control gone or disabled since it was listed
RUN_TIMEOUT = 60_000  # ms
# What a user may type into a number input: bad (0, negative, empty, not a
# whole number), huge (1e9 is refused by the engine for its memory; the rest
# cannot cross JSON exactly and the input refuses them), and good.
NUMBER_TEXTS = ["0", "-1", "-12", "", "2.5", "1e9", "99999999999999999999", "1e21"]
NUMBER_TEXTS += ["1", "2", "3", "4", "7"]
FILTER_TEXTS = ["", "x", "petal", "zz", "1", "X_"]

# 150 rows and quick models: a run takes well under a second.
PERMUTATION = """\
import json
import pandas as pd
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from inspectwidgets import PermutationImportanceWidget

X, y = make_classification(n_samples=150, n_features=6, n_informative=3, random_state=0)
X = pd.DataFrame(X, columns=[f"x_{i}" for i in range(6)])
model = LogisticRegression().fit(X, y)
w = PermutationImportanceWidget(
    model, X, y, scoring=["accuracy", "roc_auc"], n_repeats=3, max_features=4
)
w
"""

# Iris with a string column one-hot encoded in the pipeline: numeric and
# categorical curves, surfaces, three classes and both scales.
PD = """\
import json
import pandas as pd
from sklearn.compose import make_column_transformer
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder
from inspectwidgets import PartialDependenceWidget

iris = load_iris(as_frame=True)
X = iris.data.iloc[:, :3].copy()
X["size"] = pd.cut(iris.data["petal width (cm)"], 3, labels=["S", "M", "L"]).astype(str)
y = iris.target.map(dict(enumerate(iris.target_names)))
encode = make_column_transformer((OneHotEncoder(), ["size"]), remainder="passthrough")
model = make_pipeline(encode, LogisticRegression(max_iter=500)).fit(X, y)
w = PartialDependenceWidget(model, X, grid_resolution=10, n_ice=20)
w
"""

COMPARISON = """\
import json
from sklearn.datasets import load_iris
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.model_selection import train_test_split
from inspectwidgets import ImportanceComparisonWidget

X, y = load_iris(return_X_y=True, as_frame=True)
X_train, X_test, y_train, y_test = train_test_split(X, y, stratify=y, random_state=0)
model = GradientBoostingClassifier(n_estimators=10, max_depth=2, random_state=0)
model.fit(X_train, y_train)
w = ImportanceComparisonWidget(model, X_train, y_train, X_test, y_test, n_repeats=3)
w
"""

# The controls a user can reach inside `root`, visible and enabled, each
# tagged with data-fuzz=<index> for the locator that acts on it.
DISCOVER_JS = """
(root) => {
  for (const el of root.querySelectorAll('[data-fuzz]'))
    el.removeAttribute('data-fuzz');
  const found = [];
  const add = (el, kind, extra = {}) => {
    const box = el.getBoundingClientRect();
    if (el.disabled || box.width === 0 || box.height === 0) return;
    el.setAttribute('data-fuzz', String(found.length));
    const what = el.dataset.testid ?? el.tagName;
    found.push({ id: found.length, kind, what, ...extra });
  };
  for (const el of root.querySelectorAll('button, summary, input[type=checkbox]'))
    add(el, 'click');
  for (const el of root.querySelectorAll('select'))
    add(el, 'select', { options: [...el.options].map((o) => o.value) });
  for (const el of root.querySelectorAll('input[type=number]')) add(el, 'number');
  for (const el of root.querySelectorAll('input[type=search]')) add(el, 'text');
  for (const el of root.querySelectorAll('input[type=range]'))
    add(el, 'range', { min: Number(el.min), max: Number(el.max) });
  // Marks: bars, boxes, dots, rows, cells, categories, the ICE canvas, table rows.
  for (const el of root.querySelectorAll('svg [data-testid], canvas, tbody tr'))
    add(el, 'mark');
  return found;
}
"""


@pytest.fixture(scope="module", autouse=True)
def built_bundles(chromium_path, require_bundle):
    require_bundle("permutation_widget.js", "piw-root")
    require_bundle("pd_widget.js", "pdw-root")
    require_bundle("comparison_widget.js", "icw-root")


# --- The fuzzer --------------------------------------------------------------


class JsErrors(list):
    """Uncaught exceptions and console errors of a page, as text."""

    def __init__(self, page):
        super().__init__()
        page.on("pageerror", lambda exc: self.append(f"pageerror: {exc}"))
        page.on("console", self._console)

    def _console(self, message):
        if message.type == "error":
            self.append(f"console.error: {message.text}")


def open_widget(open_notebook, name, code, prefix):
    nb = open_notebook(name, [code], viewport={"width": 1280, "height": 1600})
    # Listening from here on: the widget is rendered by run_all below; what
    # JupyterLab logs while loading its own page is not the widget's.
    errors = JsErrors(nb.page)
    nb.page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    nb.run_all()
    root = nb.page.get_by_test_id(f"{prefix}-root")
    expect(root).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    return nb, root, errors


def fuzz(nb, root, seed):
    """Perform N_ACTIONS seeded random actions in `root`; return the log."""
    rng = random.Random(seed)
    log = []
    for step in range(N_ACTIONS):
        controls = root.evaluate(DISCOVER_JS)
        assert controls, f"seed {seed}: no control left to use after {log}"
        # A kind first, then one of its controls: 30 bars do not drown 3 selects.
        kind = rng.choice(sorted({c["kind"] for c in controls}))
        control = rng.choice([c for c in controls if c["kind"] == kind])
        target = root.locator(f'[data-fuzz="{control["id"]}"]')
        entry = [step, kind, control["what"]]
        try:
            if kind == "click":
                target.click(timeout=ACTION_TIMEOUT)
            elif kind == "select":
                value = rng.choice(control["options"])
                entry.append(value)
                target.select_option(value, timeout=ACTION_TIMEOUT)
            elif kind == "number":
                text, key = rng.choice(NUMBER_TEXTS), rng.choice(["Enter", "Tab"])
                entry += [text, key]
                target.fill(text, timeout=ACTION_TIMEOUT)
                target.press(key, timeout=ACTION_TIMEOUT)
            elif kind == "text":
                text = rng.choice(FILTER_TEXTS)
                entry.append(text)
                target.fill(text, timeout=ACTION_TIMEOUT)
            elif kind == "range":
                value = round(rng.uniform(control["min"], control["max"]), 3)
                entry.append(value)
                target.fill(str(value), timeout=ACTION_TIMEOUT)
                target.dispatch_event("change", timeout=ACTION_TIMEOUT)
            # Marks: the pointer goes to the middle of the mark, as a user's
            # would, even where a part of it lies on top (a bar's error line).
            elif rng.random() < 0.7:
                entry.append("hover")
                target.hover(timeout=ACTION_TIMEOUT, force=True)
            else:
                entry.append("click")
                target.click(timeout=ACTION_TIMEOUT, force=True)
        except PlaywrightError as exc:
            # Gone, hidden or disabled since it was listed (a redraw): a user
            # would have missed it too.
            entry.append(f"missed: {str(exc).splitlines()[0]}")
        log.append(entry)
        nb.page.wait_for_timeout(rng.randint(*PAUSE_MS))
    missed = [e for e in log if str(e[-1]).startswith("missed")]
    # The fuzz must mostly act, or it proves nothing.
    assert len(missed) <= N_ACTIONS // 5, f"seed {seed}: {len(missed)} missed: {log}"
    return log


def settled_state(nb, code, seed, log):
    """The widget's traits as JSON, once the kernel has settled: `code`
    waits for the run, prints the state, and is re-run until two reads agree,
    so a front-end update held back while the kernel was busy has landed."""
    nb.page.evaluate("() => document.activeElement?.blur()")
    nb.page.mouse.move(0, 0)
    index, output = nb.run_code(code)
    for _ in range(10):
        nb.page.wait_for_timeout(300)
        again = nb.rerun(index)
        if again == output and json.loads(output)["status"] != "running":
            return json.loads(output)
        output = again
    pytest.fail(f"seed {seed}: the state never settled: {output}\nactions: {log}")


def check_status(root, prefix, state, context):
    """The status line and the error box say what Python says."""
    expect(root, context).to_have_attribute("data-status", state["status"])
    line = {
        "done": r"^done in ",
        "error": r"^error$",
        "cancelled": r"^cancelled",
        "idle": r"^(ready|not run yet)$",
    }[state["status"]]
    expect(root.get_by_test_id(f"{prefix}-progress"), context).to_have_text(
        re.compile(line)
    )
    error = root.get_by_test_id(f"{prefix}-error")
    if state["status"] == "error":
        expect(error, context).to_be_visible()
        # The message itself: the folded traceback repeats it, so the box's
        # whole text would contain it even with no message shown.
        message = error.evaluate(
            "(box) => [...box.childNodes].filter((n) => n.nodeType === 3)"
            ".map((n) => n.data).join('')"
        )
        assert message == state["error"], (message, context)
    else:
        expect(error, context).to_be_hidden()


def settle_charts(root):
    for chart in root.locator("svg[data-settled]").all():
        if chart.is_visible():
            expect(chart).to_have_attribute("data-settled", "true")


def picture(nb, root, name):
    settle_charts(root)
    nb.screenshot(nb.page.locator(".jp-Cell").filter(has=root), name)


def finish(nb, root, errors, name, seed, log):
    picture(nb, root, f"fuzz_{name}_seed{seed}_recovered.png")
    assert not errors, f"seed {seed}: JS errors {errors}\nactions: {log}"


# --- Permutation importance ------------------------------------------------

PERMUTATION_STATE = """\
status = w.wait(60)
r = w.result
print(json.dumps({
    "status": status, "error": w.error, "features": w.features,
    "scoring": w.scoring, "scorer": w.scorer, "kind": w.kind,
    "n_repeats": w.n_repeats,
    "shown": (
        [r.feature_names[i] for i in r.top(w.scorer, w.max_features)[0]]
        if r is not None and w.scorer in r.scorer_names else None
    ),
}))
"""


@pytest.mark.parametrize("seed", seeds("permutation"))
def test_permutation_widget_fuzz(open_notebook, seed):
    nb, root, errors = open_widget(
        open_notebook, f"fuzz_permutation_{seed}.ipynb", PERMUTATION, "piw"
    )
    log = fuzz(nb, root, seed)
    state = settled_state(nb, PERMUTATION_STATE, seed, log)
    context = f"seed {seed}, state {state}, actions {log}"
    print(context)
    check_status(root, "piw", state, context)

    expect(root.get_by_test_id("piw-scorer"), context).to_have_value(state["scorer"])
    expect(root.get_by_test_id("piw-repeats"), context).to_have_value(
        str(state["n_repeats"])
    )
    expect(root.get_by_test_id(f"piw-kind-{state['kind']}"), context).to_have_attribute(
        "aria-pressed", "true"
    )
    # Nothing staged (the hint says so otherwise, Apply may be disabled for an
    # empty staged list): the checklists show Python's features and scorers.
    if root.get_by_test_id("piw-hint").text_content() == "":
        for testid, key, trait in (
            ("piw-feature-option", "feature", "features"),
            ("piw-scorer-option", "scorer", "scoring"),
        ):
            checked = root.get_by_test_id(testid).evaluate_all(
                f"(bs) => bs.filter((b) => b.checked).map((b) => b.dataset.{key})"
            )
            assert sorted(checked) == sorted(state[trait]), (trait, checked, context)
    if state["status"] == "done":
        expect(root.get_by_test_id("piw-baseline"), context).to_contain_text(
            f"baseline {state['scorer']} ="
        )
        if state["kind"] == "table":
            names = root.get_by_test_id("piw-table").get_by_role("rowheader")
            expect(names, context).to_have_text(state["shown"])
        else:
            marks = root.get_by_test_id(f"piw-{state['kind']}")
            expect(marks, context).to_have_count(len(state["shown"]))
            drawn = marks.evaluate_all("(ms) => ms.map((m) => m.dataset.feature)")
            assert sorted(drawn) == sorted(state["shown"]), (drawn, context)

    picture(nb, root, f"fuzz_permutation_seed{seed}_after_actions.png")

    # Still usable: a good setting from Python runs and redraws.
    nb.run_code(
        "w.kind = 'bar'\nw.scoring = ['accuracy']\nw.features = w._feature_options\n"
        "w.n_repeats = 2\nw.run()"
    )
    _, output = nb.run_code("print(w.wait(60), w.scorer, w.result.n_repeats_done)")
    assert output.split() == ["done", "accuracy", "2"], (output, context)
    expect(root).to_have_attribute("data-status", "done")
    expect(root).to_have_attribute("data-repeats-done", "2")
    expect(root.get_by_test_id("piw-bar")).to_have_count(4)  # max_features
    expect(root.get_by_test_id("piw-error")).to_be_hidden()
    finish(nb, root, errors, "permutation", seed, log)


# --- Partial dependence --------------------------------------------------------

PD_STATE = """\
status = w.wait(60)
r = w.pd_result  # the partial dependence part (None when only ALE is drawn)
print(json.dumps({
    "status": status, "error": w.error, "features": w.features, "kind": w.kind,
    "centered": w.centered, "grid_resolution": w.grid_resolution,
    "n_ice": w.n_ice, "target": w.target, "scale": w.scale,
    "categorical": w._categorical,
    "grid": None if r is None else [len(g) for g in r.grid_values],
    "ice_rows": None if r is None or r.individual is None else r.individual.shape[1],
    "y_label": w._curve.get("y_label"),
}))
"""


@pytest.mark.parametrize("seed", seeds("pd"))
def test_pd_widget_fuzz(open_notebook, seed):
    nb, root, errors = open_widget(open_notebook, f"fuzz_pd_{seed}.ipynb", PD, "pdw")
    log = fuzz(nb, root, seed)
    state = settled_state(nb, PD_STATE, seed, log)
    context = f"seed {seed}, state {state}, actions {log}"
    print(context)
    check_status(root, "pdw", state, context)

    features = state["features"]
    expect(root.get_by_test_id("pdw-feature"), context).to_have_value(features[0])
    expect(root.get_by_test_id("pdw-feature2"), context).to_have_value(
        features[1] if len(features) == 2 else ""
    )
    for testid, trait in (
        ("pdw-kind", "kind"),
        ("pdw-target", "target"),
        ("pdw-scale", "scale"),
        ("pdw-grid", "grid_resolution"),
        ("pdw-n-ice", "n_ice"),
    ):
        expect(root.get_by_test_id(testid), context).to_have_value(str(state[trait]))
    centered = expect(root.get_by_test_id("pdw-centered"), context)
    centered.to_be_checked() if state["centered"] else centered.not_to_be_checked()

    ale = state["kind"] in ("ale", "average_and_ale")
    if state["status"] == "done" and ale:
        if len(features) == 2:
            expect(root.get_by_test_id("pdw-heatmap"), context).to_be_visible()
        elif features[0] in state["categorical"]:
            # A mark is a level line over a band the height of its spread:
            # a flat one has a zero-height box, which Playwright calls hidden.
            marks = root.get_by_test_id("pdw-ale-mark")
            expect(marks.first, context).to_be_attached()
            assert all(marks.evaluate_all(ALE_MARKS_DRAWN_JS)), context
        else:
            line = root.get_by_test_id("pdw-ale-line")
            expect(line, context).not_to_have_attribute("data-points", "0")
    if state["status"] == "done" and not ale:
        two_way = len(features) == 2
        grid = state["grid"]
        expect(root, context).to_have_attribute("data-mode", "2d" if two_way else "1d")
        expect(root, context).to_have_attribute("data-grid-done", str(grid[0]))
        if two_way:
            expect(root.get_by_test_id("pdw-heatmap"), context).to_have_attribute(
                "data-cells", str(grid[0] * grid[1])
            )
        else:
            ice = 0 if state["kind"] == "average" else state["ice_rows"]
            expect(root.get_by_test_id("pdw-ice-canvas"), context).to_have_attribute(
                "data-curves", str(ice)
            )
            title = root.locator(".pdw-y-title title")
            expect(title, context).to_have_text(state["y_label"])
            if features[0] in state["categorical"]:
                # A mark per category shows the average: none for ICE alone.
                marks = root.get_by_test_id("pdw-category")
                average = state["kind"] != "individual"
                expect(marks, context).to_have_count(grid[0] if average else 0)
            elif state["kind"] != "individual":
                pdp = root.get_by_test_id("pdw-pdp")
                expect(pdp, context).to_have_attribute("data-points", str(grid[0]))

    picture(nb, root, f"fuzz_pd_seed{seed}_after_actions.png")

    # Still usable: a good setting from Python runs and redraws.
    nb.run_code(
        "w.features = ['sepal length (cm)']\nw.kind = 'both'\nw.centered = False\n"
        "w.grid_resolution = 7\nw.n_ice = 12\nw.target = 'setosa'\n"
        "w.scale = 'probability'\nw.run()"
    )
    _, output = nb.run_code("print(w.wait(60), w.result.n_points)")
    assert output.split() == ["done", "7"], (output, context)
    expect(root).to_have_attribute("data-status", "done")
    expect(root).to_have_attribute("data-grid-done", "7")
    expect(root.get_by_test_id("pdw-ice-canvas")).to_have_attribute("data-curves", "12")
    expect(root.get_by_test_id("pdw-pdp")).to_have_attribute("data-points", "7")
    expect(root.locator(".pdw-y-title title")).to_have_text(
        f"probability of class {isolated('setosa')}"
    )
    expect(root.get_by_test_id("pdw-error")).to_be_hidden()
    finish(nb, root, errors, "pd", seed, log)


# --- Importance comparison -----------------------------------------------------

COMPARISON_STATE = """\
status = w.wait(60)
r = w.result
print(json.dumps({
    "status": status, "error": w.error, "scoring": w.scoring,
    "n_repeats": w.n_repeats, "sort_by": w.sort_by, "view": w.view,
    "correlation_threshold": w.correlation_threshold,
    "order": None if r is None else [str(f) for f in r.frame.index],
    "n_groups": None if r is None or r.groups is None else len(r.groups),
    "n_cells": len(w._per_class["classes"]) * len(w._per_class["features"]),
}))
"""


@pytest.mark.parametrize("seed", seeds("comparison"))
def test_comparison_widget_fuzz(open_notebook, seed):
    nb, root, errors = open_widget(
        open_notebook, f"fuzz_comparison_{seed}.ipynb", COMPARISON, "icw"
    )
    log = fuzz(nb, root, seed)
    state = settled_state(nb, COMPARISON_STATE, seed, log)
    context = f"seed {seed}, state {state}, actions {log}"
    print(context)
    check_status(root, "icw", state, context)

    expect(root.get_by_test_id("icw-scoring"), context).to_have_value(state["scoring"])
    expect(root.get_by_test_id("icw-sort"), context).to_have_value(state["sort_by"])
    expect(root.get_by_test_id("icw-repeats"), context).to_have_value(
        str(state["n_repeats"])
    )
    expect(root, context).to_have_attribute("data-view", state["view"])
    expect(root.get_by_test_id(f"icw-view-{state['view']}"), context).to_have_attribute(
        "aria-pressed", "true"
    )
    if state["view"] == "correlation":
        shown = root.get_by_test_id("icw-threshold-value")
        expect(shown, context).not_to_have_text("")
        assert float(shown.text_content()) == pytest.approx(
            state["correlation_threshold"], abs=0.01
        ), context
    if state["status"] == "done":
        settle_charts(root)
        if state["view"] == "measures":
            rows = root.get_by_test_id("icw-row")
            expect(rows, context).to_have_count(len(state["order"]))
            # Top to bottom on screen, in Python's sort order.
            drawn = rows.evaluate_all(
                """(rs) => rs.map((r) => [r.getBoundingClientRect().top,
                                          r.dataset.feature])
                             .sort((a, b) => a[0] - b[0]).map((p) => p[1])"""
            )
            assert drawn == state["order"], (drawn, context)
        elif state["view"] == "classes":
            cells = root.get_by_test_id("icw-class-cell")
            expect(cells, context).to_have_count(state["n_cells"])
        else:
            bars = root.get_by_test_id("icw-group-bar")
            expect(bars, context).to_have_count(state["n_groups"])

    picture(nb, root, f"fuzz_comparison_seed{seed}_after_actions.png")

    # Still usable: a good setting from Python runs and redraws.
    nb.run_code(
        "w.view = 'measures'\nw.sort_by = 'mdi'\nw.scoring = 'accuracy'\n"
        "w.n_repeats = 2\nw.run()"
    )
    _, output = nb.run_code(
        "print(json.dumps([w.wait(60), str(w.to_frame().index[0])]))"
    )
    status, top = json.loads(output)
    assert status == "done", (output, context)
    expect(root).to_have_attribute("data-status", "done")
    expect(root.get_by_test_id("icw-measures-caption")).to_contain_text(
        "permutation: 2 of 2 repeats"
    )
    expect(root.get_by_test_id("icw-row")).to_have_count(4)
    expect(root.get_by_test_id("icw-row").first).to_have_attribute("data-feature", top)
    expect(root.get_by_test_id("icw-error")).to_be_hidden()
    finish(nb, root, errors, "comparison", seed, log)
