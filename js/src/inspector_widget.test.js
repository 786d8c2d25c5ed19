import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { isolate } from "./charts/format.js";
import { headerLines, reviewedChoices, scoreColumns } from "./inspector/header.js";
import widget, {
  effectsTitleText,
  importanceOptions,
  statusLine,
} from "./inspector_widget.js";
import {
  DONE_RUN_TRAITS,
  FakeModel,
  R2,
  attachedElement,
  change,
  click,
  makeChart,
  queryAllTestId,
  queryTestId,
  pressEnter,
  stubAnimationFrames,
} from "./test_helpers.js";

const HEADER = {
  task: "regression",
  model: { type: "Pipeline", steps: ["prep: ColumnTransformer", "rf: RandomForestRegressor"] },
  n_rows: 20000,
  n_features: 4,
  n_rows_views: 5000,
  random_state: 0,
  dummy: "DummyRegressor",
  dummy_fitted_on: "training data",
  scores: [{ scorer: "r2", model: 0.05, dummy: 0, barely: true }],
  warning: "The model barely beats a dummy baseline.",
  comparison: false,
};

function mirrored(state) {
  const versions = Object.fromEntries(Object.keys(state).map((k) => [k, 1]));
  return { state, versions };
}

function makeModel(overrides = {}) {
  return new FakeModel({
    view: "importance",
    selected_features: [],
    max_rows: 5000,
    _header: HEADER,
    _importance: mirrored({
      features: R2.features,
      n_repeats: 5,
      scoring: ["r2"],
      scorer: "r2",
      kind: "bar",
      max_features: 20,
      ...DONE_RUN_TRAITS,
      _elapsed_seconds: 1.5,
      _feature_options: R2.features,
      _scorer_options: ["r2"],
      _repeats_done: 3,
      _repeats_total: 5,
      _chart: makeChart({ r2: R2 }),
    }),
    _comparison: {},
    _effects: mirrored({
      features: [R2.features[0]],
      kind: "both",
      ...DONE_RUN_TRAITS,
      status: "idle",
      _feature_options: R2.features,
      _categorical: [],
      _target_options: [],
      _curve: {},
    }),
    ...overrides,
  });
}

describe("headerLines and statusLine", () => {
  it("say the model, the data and the subsample", () => {
    const lines = headerLines(HEADER);
    expect(lines.title).toBe(`${isolate("Pipeline")} · regression`);
    expect(lines.model).toBe(
      `pipeline: ${isolate("prep: ColumnTransformer")} → ${isolate("rf: RandomForestRegressor")}`,
    );
    expect(lines.data).toContain("20,000 rows × 4 features");
    expect(lines.rows).toContain("5,000 of 20,000 rows");
    expect(headerLines({ ...HEADER, n_rows_views: 20000 }).rows).toContain(
      "all 20,000 rows",
    );
  });

  it("title the Effects panel by what it draws", () => {
    expect(effectsTitleText([], [], false)).toBe("Effects");
    expect(effectsTitleText(["a"], ["a"], false)).toBe("Effects of \u2068a\u2069");
    expect(effectsTitleText(["a", "b"], [], false)).toBe("Effects of \u2068a\u2069 and \u2068b\u2069");
    expect(effectsTitleText(["b"], ["a"], false)).toBe(
      "Effects of \u2068a\u2069; computing \u2068b\u2069…",
    );
    expect(effectsTitleText(["b"], ["a"], true)).toBe(
      "Effects of \u2068a\u2069 (\u2068b\u2069 needs a kernel to compute)",
    );
  });

  it("joins each shown view's status", () => {
    expect(
      statusLine([
        ["Importance", { status: "done", _elapsed_seconds: 1.5 }],
        ["Effects", { status: "running", progress: 0.4 }],
      ]),
    ).toBe("Importance: done in 1.5 s · Effects: 40%");
  });
});

describe("ModelInspector front end", () => {
  let frames;
  beforeEach(() => {
    frames = stubAnimationFrames();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.body.replaceChildren();
  });

  it("score several models side by side, the reviewed one first", () => {
    const model = makeModel();
    model.set("_header", {
      ...HEADER,
      model_name: "forest",
      other_models: [
        { name: "ridge", scores: { r2: 0.4 } },
        { name: "<b>knn</b>", scores: {} },
      ],
    });
    const el = attachedElement();
    const cleanup = widget.render({ model, el });
    frames.flush();
    const table = queryTestId(el, "mi-scores");
    const titles = [...table.querySelectorAll("th")].map((th) => th.textContent);
    expect(titles).toEqual([
      "held-out score",
      isolate("forest"),
      isolate("ridge"),
      isolate("<b>knn</b>"),
      "DummyRegressor",
    ]);
    expect(table.querySelector("b")).toBeNull();
    const cells = [...queryAllTestId(el, "mi-score")[0].querySelectorAll("td")];
    expect(cells.map((td) => td.textContent)).toEqual([
      "r2",
      "0.05",
      "0.4",
      "n/a",
      "0",
    ]);
    expect(scoreColumns(HEADER)).toEqual(["model", "DummyRegressor"]);
    cleanup();
  });

  it("choose the reviewed model from a menu in the header, of several only", () => {
    const model = makeModel({ reviewed: "forest" });
    model.set("_header", {
      ...HEADER,
      model_name: "forest",
      models: ["forest", "<b>ridge</b>"],
      other_models: [{ name: "<b>ridge</b>", scores: { r2: 0.4 } }],
    });
    const el = attachedElement();
    const cleanup = widget.render({ model, el });
    frames.flush();
    const menu = /** @type {HTMLSelectElement} */ (queryTestId(el, "mi-reviewed"));
    expect(menu.closest("label").hidden).toBe(false);
    expect([...menu.options].map((o) => o.textContent)).toEqual(["forest", "<b>ridge</b>"]);
    expect(menu.querySelector("b")).toBeNull(); // names are text
    expect(menu.value).toBe("forest");
    change(menu, "<b>ridge</b>");
    expect(model.get("reviewed")).toBe("<b>ridge</b>");
    expect(model.saves.at(-1).reviewed).toBe("<b>ridge</b>");
    // Python's answer: the header names the reviewed model first.
    model.set("_header", {
      ...HEADER,
      model_name: "<b>ridge</b>",
      models: ["forest", "<b>ridge</b>"],
      other_models: [{ name: "forest", scores: { r2: 0.9 } }],
    });
    model.set("reviewed", "forest"); // set from Python: the menu follows
    frames.flush();
    expect(menu.value).toBe("forest");
    expect(menu.disabled).toBe(false);
    expect(reviewedChoices(HEADER)).toEqual([]);
    expect(reviewedChoices({ ...HEADER, models: ["only"] })).toEqual([]);
    cleanup();
  });

  it("disable the reviewed-model menu in a saved page", () => {
    const model = makeModel({ reviewed: "forest", _standalone: true });
    model.set("_header", { ...HEADER, models: ["forest", "ridge"] });
    const el = attachedElement();
    const cleanup = widget.render({ model, el });
    frames.flush();
    expect(queryTestId(el, "mi-reviewed").disabled).toBe(true);
    cleanup();
  });

  it("show no reviewed-model menu for one model", () => {
    const el = attachedElement();
    const cleanup = widget.render({ model: makeModel(), el });
    frames.flush();
    expect(queryTestId(el, "mi-reviewed").closest("label").hidden).toBe(true);
    cleanup();
  });

  it("show the model's scores pending until the first walk, n/a if it failed", () => {
    const model = makeModel();
    const pending = {
      ...HEADER,
      model_scores: "pending",
      scores: [{ scorer: "r2", model: null, dummy: 0 }],
    };
    model.set("_header", pending);
    const el = attachedElement();
    const cleanup = widget.render({ model, el });
    frames.flush();
    const modelCell = () =>
      queryAllTestId(el, "mi-score")[0].querySelectorAll("td")[1].textContent;
    expect(modelCell()).toBe("…");
    model.set("_header", { ...pending, model_scores: "failed" });
    frames.flush();
    expect(modelCell()).toBe("n/a");
    model.set("_header", HEADER);
    frames.flush();
    expect(modelCell()).toBe("0.05");
    cleanup();
  });

  it("draws the header, renders only the shown view, links a click", () => {
    const model = makeModel();
    model.send = vi.fn();
    const el = attachedElement();
    const cleanup = widget.render({ model, el });
    frames.flush();
    expect(queryTestId(el, "mi-title").textContent).toBe(
      `${isolate("Pipeline")} · regression`,
    );
    expect(queryAllTestId(el, "mi-score")).toHaveLength(1);
    expect(queryTestId(el, "mi-warning").hidden).toBe(false);
    expect(queryTestId(el, "mi-view-comparison").disabled).toBe(true);
    const root = queryTestId(el, "mi-root");
    expect(root.dataset.rendered).toBe("importance");
    expect(queryTestId(el, "mi-panel-effects").hidden).toBe(true);
    expect(queryTestId(el, "mi-status").textContent).toBe(
      "Importance: done in 1.5 s",
    );

    const bar = queryAllTestId(el, "piw-bar")[1];
    click(bar);
    const feature = bar.getAttribute("data-feature");
    expect(model.get("selected_features")).toEqual([feature]);
    frames.flush();
    expect(root.dataset.rendered).toBe("importance effects");
    expect(queryTestId(el, "mi-panel-effects").hidden).toBe(false);
    expect(queryTestId(el, "mi-selection").textContent).toBe(`Selected: ${isolate(feature)}`);
    expect(queryTestId(el, "mi-effects-title").textContent).toBe(`Effects of \u2068${feature}\u2069`);
    // A child's own control goes to Python as a message to that view.
    click(queryTestId(el, "piw-kind-box"));
    expect(model.send).toHaveBeenCalledWith({
      view: "importance",
      set: { kind: "box" },
    });

    // The rows Effects and Comparison use: the header's field writes max_rows.
    const maxRows = queryTestId(el, "mi-max-rows");
    expect(maxRows.value).toBe("5000");
    change(maxRows, "2000");
    expect(model.get("max_rows")).toBe(2000);
    change(maxRows, "0"); // refused in the page
    expect(model.get("max_rows")).toBe(2000);
    maxRows.value = "3000"; // Enter commits too
    expect(pressEnter(maxRows).defaultPrevented).toBe(true);
    expect(model.get("max_rows")).toBe(3000);

    // Options Python did not make are disabled, saying why.
    const train = queryTestId(el, "mi-importance-on-train");
    expect(train.parentElement.hidden).toBe(false);
    expect(train.disabled).toBe(true);
    expect(train.title).toMatch(/^Unavailable/);

    const saves = model.saves.length;
    click(queryTestId(el, "mi-view-importance")); // the shown tab: no write
    expect(model.saves.length).toBe(saves);

    click(queryTestId(el, "mi-clear"));
    expect(model.get("selected_features")).toEqual([]);
    cleanup();
    expect(model.listenerCount()).toBe(0);
  });
});

describe("importance on training rows, cross-validated or out-of-bag", () => {
  let frames;
  beforeEach(() => {
    frames = stubAnimationFrames();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.body.replaceChildren();
  });

  it("switches the Importance panel to the training rows' view", () => {
    const base = makeModel();
    const model = makeModel({
      _importance_train: base.get("_importance"),
      _importance_options: { test: "", train: "", cv: "", oob: "" },
    });
    model.send = vi.fn();
    const el = attachedElement();
    const cleanup = widget.render({ model, el });
    frames.flush();
    const root = queryTestId(el, "mi-root");
    const train = queryTestId(el, "mi-importance-on-train");
    expect(train.parentElement.hidden).toBe(false);
    click(train);
    expect(model.get("importance_on")).toBe("train");
    expect(root.dataset.shown).toBe("importance_train");
    expect(root.dataset.view).toBe("importance");
    expect(queryTestId(el, "mi-panel-importance").hidden).toBe(true);
    expect(queryTestId(el, "mi-panel-importance_train").hidden).toBe(false);
    expect(train.getAttribute("aria-pressed")).toBe("true");
    cleanup();
    expect(model.listenerCount()).toBe(0);
  });

  it("says why an option is unavailable", () => {
    const options = importanceOptions({
      test: "",
      train: "",
      cv: "",
      oob: "forest must be a bagged ensemble fitted with bootstrap; got Pipeline.",
    });
    expect(options.map((o) => [o.value, o.disabled])).toEqual([
      ["test", false],
      ["train", false],
      ["cv", false],
      ["oob", true],
    ]);
    expect(options[2].title).toContain("±1.96 std across folds");
    expect(options[3].title).toBe(
      "Unavailable: forest must be a bagged ensemble fitted with bootstrap; got Pipeline.",
    );
    // A saved page from before the option existed: only held-out.
    expect(importanceOptions({}).map((o) => o.disabled)).toEqual([
      false,
      true,
      true,
      true,
    ]);
  });

  it("shows the cross-validated view with its 95% bars; a disabled option writes nothing", () => {
    const base = makeModel().get("_importance");
    const chart = { ...base.state._chart, unit: "folds", spread: 1.96, spread_label: "±1.96 std across folds" };
    const model = makeModel({
      _importance_cv: mirrored({ ...base.state, _chart: chart }),
      _importance_options: { test: "", train: "", cv: "", oob: "not a forest" },
    });
    model.send = vi.fn();
    const el = attachedElement();
    const cleanup = widget.render({ model, el });
    frames.flush();
    const oob = queryTestId(el, "mi-importance-on-oob");
    expect(oob.disabled).toBe(true);
    const saves = model.saves.length;
    click(oob);
    expect(model.saves.length).toBe(saves);
    click(queryTestId(el, "mi-importance-on-cv"));
    expect(model.get("importance_on")).toBe("cv");
    frames.flush();
    const root = queryTestId(el, "mi-root");
    expect(root.dataset.shown).toBe("importance_cv");
    expect(queryTestId(el, "mi-panel-importance_cv").hidden).toBe(false);
    const panel = queryTestId(el, "mi-panel-importance_cv");
    expect(queryAllTestId(panel, "piw-bar")).toHaveLength(R2.features.length);
    cleanup();
    expect(model.listenerCount()).toBe(0);
  });
});

describe("ModelInspector: an error in the view", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    document.body.replaceChildren();
  });

  it("is shown and logged in place of the status line, and clears", () => {
    const frames = stubAnimationFrames();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const model = makeModel();
    model.send = vi.fn();
    const el = attachedElement();
    const cleanup = widget.render({ model, el });
    frames.flush();
    const unreadable = { toString: () => { throw new Error("odd name"); } };
    expect(() => model.set("selected_features", [unreadable])).not.toThrow();
    const box = queryTestId(el, "mi-view-error");
    expect(box.hidden).toBe(false);
    expect(box.textContent).toContain("Could not show the inspector: odd name");
    expect(queryTestId(el, "mi-status").hidden).toBe(true);
    expect(errors).toHaveBeenCalled();
    model.set("selected_features", []);
    expect(box.hidden).toBe(true);
    expect(queryTestId(el, "mi-status").hidden).toBe(false);
    cleanup();
  });
});
