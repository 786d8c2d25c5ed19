"""ModelInspector in JupyterLab: the header, linked views, laziness, and the
saved page opened offline. Times are recorded, never asserted."""

import ast
import re
import shutil
from pathlib import Path

import pytest
from conftest import isolated

try:
    from playwright.sync_api import expect
except ImportError:  # the chromium_path fixture skips (fails in CI) with the reason
    expect = None

pytestmark = pytest.mark.browser

RUN_TIMEOUT = 60_000  # ms
ROOT = Path(__file__).resolve().parents[2]
OUTPUT_DIR = ROOT / "tests" / "output" / "browser"
# The picture on the first page: README.md and docs/index.md show it below the
# example that draws it. Committed, and rewritten by every run of the test.
FIRST_PAGE_PICTURE = ROOT / "docs" / "_static" / "model_inspector.png"

# A pipeline with a string category, and a counter of the computations each
# view starts (every view's run(), wrapped before anything runs).
REVIEW = """\
import numpy as np
import pandas as pd
from sklearn.compose import make_column_transformer
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder
from inspectwidgets import ModelInspector

rng = np.random.RandomState(0)
n = 1200
X = pd.DataFrame({
    "income": rng.lognormal(3, 0.5, n),
    "age": rng.randint(18, 80, n).astype(float),
    "region": rng.choice(["north", "south", "east", "west"], n),
    "noise": rng.normal(size=n),
})
logit = (X["income"] - 20) / 8 + (X["region"] == "south") - (X["age"] - 50) / 30
y = (logit + rng.logistic(size=n) > 0).astype(int)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
model = make_pipeline(
    make_column_transformer((OneHotEncoder(), ["region"]), remainder="passthrough"),
    RandomForestClassifier(n_estimators=30, random_state=0),
).fit(X_train, y_train)
mi = ModelInspector(model, X_test, y_test, X_train=X_train, y_train=y_train,
                    scoring=["accuracy", "roc_auc"], n_repeats=3, random_state=0,
                    run=False)
runs = dict.fromkeys(mi.views, 0)
def counting(key, run):
    def counted():
        runs[key] += 1
        run()
    return counted
for key, view in mi.views.items():
    view.run = counting(key, view.run)
mi.run()
mi
"""

# 2,000 held-out rows, 100 trees: the target for click -> PD/ICE drawn.
FOREST = """\
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split
from inspectwidgets import ModelInspector

X, y = make_classification(n_samples=4000, n_features=20, n_informative=6,
                           random_state=0)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=2000,
                                                    random_state=0)
model = RandomForestClassifier(n_estimators=100, random_state=0, n_jobs=-1)
model.fit(X_train, y_train)
"""
OPEN = """\
mi = ModelInspector(model, X_test, y_test, n_repeats=3, random_state=0)
mi
"""

# From the cell's start: the header drawn, then the first importance bars.
OPEN_JS = """
(t0) => new Promise((resolve) => {
  let header = -1;
  const tick = () => {
    const now = performance.now() - t0;
    if (header < 0 && document.querySelector('[data-testid="mi-score"]')) header = now;
    const bars = [...document.querySelectorAll(
      '[data-testid="mi-panel-importance"] [data-testid="piw-bar"]')]
      .filter((bar) => +bar.getAttribute('width') > 0);
    if (header >= 0 && bars.length > 0) resolve([header, now]);
    else if (now > 30000) resolve([header, -1]);
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})
"""

# Click a bar, then sample each animation frame until the Effects view
# shows that feature with at least one grid point drawn.
CLICK_TO_EFFECTS_JS = """
async (feature) => {
  const panel = document.querySelector('[data-testid="mi-panel-importance"]');
  const bar = panel.querySelector(`[data-testid="piw-bar"][data-feature="${feature}"]`);
  const t0 = performance.now();
  bar.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  return await new Promise((resolve) => {
    const tick = () => {
      const pd = document.querySelector(
        '[data-testid="mi-panel-effects"] [data-testid="pdw-root"]');
      // The chart's own label: the curve drawn is the clicked feature's.
      const label = `Partial dependence on ${feature}`;
      const chart = pd?.querySelector(`svg[aria-label="${label}"]`);
      const drawn = chart && Number(pd.dataset.gridDone) > 0;
      if (drawn) resolve(performance.now() - t0);
      else if (performance.now() - t0 > 30000) resolve(-1);
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}
"""


# A bare forest (out-of-bag needs the ensemble itself), and a counter of the
# cross-validated and out-of-bag computations started in the kernel.
RESAMPLED = """\
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestRegressor
from sklearn.model_selection import train_test_split
from inspectwidgets import ModelInspector
from inspectwidgets.inspection._permutation.cross_validation import CrossValRun
from inspectwidgets.inspection._permutation.out_of_bag import OobRun

engine = {"cv": 0, "oob": 0}
def counting(cls, key):
    original = cls.__iter__
    def __iter__(self):
        engine[key] += 1
        yield from original(self)
    cls.__iter__ = __iter__
counting(CrossValRun, "cv")
counting(OobRun, "oob")

rng = np.random.RandomState(0)
X = pd.DataFrame(rng.normal(size=(800, 5)), columns=list("abcde"))
y = 3 * X["a"] + X["b"] ** 2 + 0.5 * X["c"] + rng.normal(scale=0.3, size=800)
X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
model = RandomForestRegressor(n_estimators=30, random_state=0).fit(X_train, y_train)
mi = ModelInspector(model, X_test, y_test, X_train=X_train, y_train=y_train,
                    n_repeats=3, random_state=0)
mi
"""


def _bar(page, feature):
    return page.locator(
        f'[data-testid="mi-panel-importance"] [data-testid="piw-bar"]'
        f'[data-feature="{feature}"]'
    )


def _effects(page):
    return page.locator('[data-testid="mi-panel-effects"] [data-testid="pdw-root"]')


def _open_review(open_notebook, name, code, *, model, task):
    """Run `code`, whose last line shows a ModelInspector of `model` for
    `task` (its title), in a notebook opened on a page tall enough for the
    whole review in one picture (a taller widget scrolls inside JupyterLab's
    panel, and its picture would show Lab's menus over it)."""
    nb = open_notebook(name, [code], viewport={"width": 1280, "height": 2400})
    nb.run_all()
    expect(nb.page.get_by_test_id("mi-title")).to_have_text(
        f"{isolated(model)} · {task}"
    )
    return nb


def _first_example(path):
    """The first ```python block of a Markdown file."""
    match = re.search(r"^```python\n(.*?)^```$", path.read_text(), re.S | re.M)
    assert match, f"{path} has no Python example"
    return match.group(1)


def test_first_page_example_and_its_picture(open_notebook, require_bundle):
    # The example a newcomer reads first, run as written; its widget drawn is
    # the picture shown beneath it.
    require_bundle("inspector_widget.js", "mi-root")
    example = _first_example(ROOT / "README.md")
    assert _first_example(ROOT / "docs" / "index.md") == example
    assert example.rstrip().splitlines()[-1].startswith("ModelInspector(")
    nb = _open_review(
        open_notebook,
        "first_page.ipynb",
        example,
        model="RandomForestRegressor",
        task="regression",
    )
    page = nb.page
    # load_diabetes's ten features, each with a bar.
    bars = page.locator('[data-testid="mi-panel-importance"] [data-testid="piw-bar"]')
    expect(bars).to_have_count(10, timeout=RUN_TIMEOUT)
    expect(_effects(page)).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    # The kernel agrees: the cell's value is the inspector, its views done,
    # the most important feature selected.
    nb.run_code("mi = _")
    nb.eventually_prints(
        "print(mi.views['importance'].status, mi.views['effects'].status, "
        "mi.selected_features[0])",
        "done done bmi",
        timeout=60,
    )
    expect(_bar(page, "bmi")).to_have_class("piw-bar iw-selected")
    expect(page.get_by_test_id("mi-status")).to_contain_text("Importance: done")

    # A still picture: every chart's transitions ended (taken at once, one run
    # caught the bars with their error bars not yet drawn).
    root = page.get_by_test_id("mi-root")
    for chart in root.locator("svg[data-settled]").all():
        if chart.is_visible():
            expect(chart).to_have_attribute("data-settled", "true")
    path = nb.screenshot(root, "model_inspector_first_page.png")
    shutil.copyfile(path, FIRST_PAGE_PICTURE)
    # Small enough for a README: the widget alone, at the page's scale.
    assert FIRST_PAGE_PICTURE.stat().st_size < 300_000


def test_header_linking_and_no_duplicate_runs(open_notebook, require_bundle):
    require_bundle("inspector_widget.js", "mi-root")
    nb = _open_review(
        open_notebook,
        "inspector_review.ipynb",
        REVIEW,
        model="Pipeline",
        task="binary classification",
    )
    page = nb.page
    root = page.get_by_test_id("mi-root")
    expect(page.get_by_test_id("mi-model")).to_contain_text("columntransformer")
    expect(page.get_by_test_id("mi-score")).to_have_count(2)

    # The review opens on the most important feature once it is known.
    expect(_effects(page)).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    top = nb.run_code("print(mi.selected_features[0])")[1].strip()
    expect(_bar(page, top)).to_have_class("piw-bar iw-selected")

    # Clicking another bar draws that feature's effects.
    other = "noise" if top != "noise" else "age"
    # At the bar's centre (its error bar lies on top, inside the same row).
    _bar(page, other).click(force=True)
    expect(page.get_by_test_id("mi-selection")).to_have_text(
        f"Selected: {isolated(other)}"
    )
    nb.eventually_prints(
        "e = mi.views['effects']; print(e.status, list(e.result.feature_names))",
        f"done ['{other}']",
        timeout=60,
    )
    expect(_effects(page).get_by_test_id("pdw-feature")).to_have_value(other)
    expect(_effects(page)).to_have_attribute("data-status", "done")

    # The selection shows in the Comparison view; Enter on a row selects it.
    page.get_by_test_id("mi-view-comparison").click()
    rows = page.locator('[data-testid="mi-panel-comparison"] [data-testid="icw-row"]')
    expect(rows).to_have_count(4, timeout=RUN_TIMEOUT)
    selected = rows.and_(page.locator(f'[data-feature="{other}"]'))
    expect(selected).to_have_class("icw-row iw-selected")
    region = rows.and_(page.locator('[data-feature="region"]'))
    region.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("mi-selection")).to_have_text(
        f"Selected: {isolated('region')}"
    )
    nb.eventually_prints("print(mi.views['effects'].status)", "done", timeout=60)

    # Tabs back and forth start nothing new.
    for view in ["importance", "comparison", "importance"]:
        page.get_by_test_id(f"mi-view-{view}").click()
        expect(root).to_have_attribute("data-view", view)
    # Importance on the training rows: computed when shown, selection marked.
    page.get_by_test_id("mi-importance-on-train").click()
    train_bars = page.locator(
        '[data-testid="mi-panel-importance_train"] [data-testid="piw-bar"]'
    )
    expect(train_bars).to_have_count(4, timeout=RUN_TIMEOUT)
    expect(train_bars.and_(page.locator('[data-feature="region"]'))).to_have_class(
        "piw-bar iw-selected"
    )
    page.get_by_test_id("mi-importance-on-test").click()
    page.get_by_test_id("mi-importance-on-train").click()
    page.get_by_test_id("mi-importance-on-test").click()
    # A pipeline has no out-of-bag rows: the option is disabled, saying why.
    oob = page.get_by_test_id("mi-importance-on-oob")
    expect(oob).to_be_disabled()
    expect(oob).to_have_attribute("title", re.compile("bagged ensemble.*Pipeline"))
    nb.eventually_prints(
        "print(mi.views['importance_train'].status, runs)",
        "done {'importance': 1, 'importance_train': 1, 'importance_cv': 0, "
        "'effects': 3, 'comparison': 1}",
        timeout=60,
    )
    expect(page.get_by_test_id("mi-status")).to_contain_text("Importance: done")

    nb.screenshot(root, "model_inspector_light.png")
    nb.set_theme("JupyterLab Dark")
    nb.screenshot(root, "model_inspector_dark.png")
    nb.set_theme("JupyterLab Light")

    # The saved page, with the network blocked.
    orders = nb.run_code(
        "frame = mi.views['comparison'].to_frame()\n"
        "print(list(frame.index)); "
        "print(list(frame.sort_values('mdi', ascending=False, kind='stable').index))"
    )[1]
    by_test, by_mdi = [ast.literal_eval(x) for x in orders.strip().splitlines()]
    assert by_test != by_mdi  # so the re-sort below shows
    nb.run_code("mi.save_html('review.html')")
    path = nb.server.root_dir / "review.html"
    offline = page.context.browser.new_context(viewport={"width": 1200, "height": 1400})
    saved = offline.new_page()
    requests = []

    def only_files(route):
        requests.append(route.request.url)
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            route.abort()

    saved.route("**/*", only_files)
    errors = []
    saved.on("pageerror", lambda exc: errors.append(str(exc)))
    saved.goto(path.as_uri())
    expect(saved.locator("body")).to_have_attribute("data-rendered", "true")
    bars = saved.locator('[data-testid="mi-panel-importance"] [data-testid="piw-bar"]')
    expect(bars).to_have_count(4)
    expect(saved.get_by_test_id("mi-selection")).to_have_text(
        f"Selected: {isolated('region')}"
    )
    # Controls that live in JS: displayed scorer, tooltip, selection, tab.
    saved.get_by_test_id("piw-scorer").select_option("roc_auc")
    expect(saved.get_by_test_id("piw-baseline")).to_contain_text("roc_auc")
    _bar(saved, "age").hover()
    expect(saved.get_by_test_id("piw-tooltip")).to_be_visible()
    _bar(saved, "age").click(force=True)
    expect(saved.get_by_test_id("mi-selection")).to_have_text(
        f"Selected: {isolated('age')}"
    )
    expect(_bar(saved, "age")).to_have_class("piw-bar iw-selected")
    expect(saved.get_by_test_id("mi-effects-title")).to_have_text(
        f"Effects of {isolated('region')} ({isolated('age')} needs a kernel to compute)"
    )
    saved.get_by_test_id("mi-view-comparison").click()
    saved_rows = saved.locator(
        '[data-testid="mi-panel-comparison"] [data-testid="icw-row"]'
    )
    expect(saved_rows).to_have_count(4)
    expect(saved_rows.first).to_have_attribute("data-feature", by_test[0])
    # Sorting is redrawn in the page: the rows take MDI's order.
    saved.get_by_test_id("icw-sort").select_option("mdi")
    expect(saved_rows.first).to_have_attribute("data-feature", by_mdi[0])
    assert [saved_rows.nth(i).get_attribute("data-feature") for i in range(4)] == by_mdi
    expect(
        saved.locator('[data-testid="mi-panel-effects"] [data-testid="pdw-root"]')
    ).to_be_visible()
    saved.mouse.move(0, 0)
    # A still picture: the rows have moved to MDI's order.
    expect(
        saved.locator(
            '[data-testid="mi-panel-comparison"] [data-testid="icw-measures"]'
        )
    ).to_have_attribute("data-settled", "true")
    OUTPUT_DIR.mkdir(parents=True, exist_ok=True)
    saved.screenshot(path=str(OUTPUT_DIR / "model_inspector_saved.png"), full_page=True)
    assert errors == []
    assert all(url.startswith(("file://", "blob:")) for url in requests), requests
    offline.close()


def test_click_to_effects_time(open_notebook, record_timing):
    nb = open_notebook("inspector_forest.ipynb", [FOREST])
    nb.run_all()
    page = nb.page
    nb.run_code("import inspectwidgets.widgets")  # imports are not the widget's time
    header, bars = page.evaluate(OPEN_JS, nb.start_code(OPEN))
    assert bars > 0, "no importance bars"
    record_timing("inspector: cell run -> header drawn (RF 100 x 2000)", header / 1000)
    record_timing("inspector: cell run -> first importance bars", bars / 1000)
    expect(_effects(page)).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    top = nb.run_code("print(mi.selected_features[0])")[1].strip()
    feature = "x7" if top != "x7" else "x8"
    expect(_bar(page, feature)).to_have_count(1)
    elapsed = page.evaluate(CLICK_TO_EFFECTS_JS, feature)
    assert elapsed > 0, "the Effects view never drew the clicked feature"
    record_timing(
        "inspector: click a bar -> its PD/ICE first drawn (RF 100 x 2000)",
        elapsed / 1000,
    )
    nb.eventually_prints("print(mi.views['effects'].status)", "done", timeout=60)


def test_cross_validated_and_out_of_bag_views(open_notebook, require_bundle):
    require_bundle("inspector_widget.js", "_importance_cv")
    nb = open_notebook(
        "inspector_resampled.ipynb",
        [RESAMPLED],
        viewport={"width": 1280, "height": 1400},
    )
    nb.run_all()
    page = nb.page
    root = page.get_by_test_id("mi-root")
    expect(_effects(page)).to_have_attribute("data-status", "done", timeout=RUN_TIMEOUT)
    nb.eventually_prints("print(engine)", "{'cv': 0, 'oob': 0}", timeout=10)

    def bars(view):
        return page.locator(
            f'[data-testid="mi-panel-importance_{view}"] [data-testid="piw-bar"]'
        )

    # Cross-validated: five folds, bars with their ±1.96 std intervals.
    page.get_by_test_id("mi-importance-on-cv").click()
    expect(root).to_have_attribute("data-shown", re.compile("^importance_cv"))
    expect(bars("cv")).to_have_count(5, timeout=RUN_TIMEOUT)
    nb.eventually_prints(
        "print(mi.views['importance_cv'].status)", "done", timeout=RUN_TIMEOUT / 1000
    )
    expect(page.get_by_test_id("mi-status")).to_contain_text(
        "Importance (cross-validated): done"
    )
    panel = page.get_by_test_id("mi-panel-importance_cv")
    # The bars' chart (the view also holds its split's chart, hidden).
    expect(panel.get_by_test_id("piw-chart")).to_have_attribute("data-settled", "true")
    widths = [float(bars("cv").nth(i).get_attribute("width")) for i in range(5)]
    assert max(widths) > 0
    bars("cv").first.hover(force=True)
    tooltip = panel.get_by_test_id("piw-tooltip")
    expect(tooltip).to_contain_text("(mean ± 1.96 std across folds)")
    expect(tooltip).to_contain_text("repeats: 5")  # one per fold
    expect(panel.get_by_test_id("piw-baseline")).to_contain_text(
        "(the folds' mean held-out score)"
    )
    nb.screenshot(root, "model_inspector_cv_light.png")
    page.mouse.move(0, 0)

    # Out-of-bag: the forest's members on their unseen training rows.
    page.get_by_test_id("mi-importance-on-oob").click()
    expect(bars("oob")).to_have_count(5, timeout=RUN_TIMEOUT)
    nb.eventually_prints(
        "print(mi.views['importance_oob'].status)", "done", timeout=RUN_TIMEOUT / 1000
    )
    expect(
        page.get_by_test_id("mi-panel-importance_oob").get_by_test_id("piw-chart")
    ).to_have_attribute("data-settled", "true")
    nb.set_theme("JupyterLab Dark")
    nb.screenshot(root, "model_inspector_oob_dark.png")
    nb.set_theme("JupyterLab Light")

    # Back and forth: each was computed once, when first shown.
    for option in ["test", "cv", "oob", "train", "cv"]:
        page.get_by_test_id(f"mi-importance-on-{option}").click()
        expect(page.get_by_test_id(f"mi-importance-on-{option}")).to_have_attribute(
            "aria-pressed", "true"
        )
    expect(bars("cv")).to_have_count(5)
    nb.eventually_prints(
        "print(mi.importance_on, engine, mi.views['importance_train'].status)",
        "cv {'cv': 1, 'oob': 1} done",
        timeout=60,
    )
