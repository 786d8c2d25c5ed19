import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import cohortWidget, { cohortCaption } from "./cohort_importance.js";
import { cohortLines } from "./cohort_editor.js";
import {
  SMALL_COLOR,
  cohortChart,
  cohortColor,
  conditionText,
  operatorsFor,
  ruleName,
  ruleValue,
  smallNote,
} from "./cohort_data.js";
import inspector from "../inspector_widget.js";
import {
  DONE_RUN_TRAITS,
  FakeModel,
  attachedElement,
  change,
  click,
  payloadPacker,
  pressEnter,
  queryAllTestId,
  queryTestId,
  stubAnimationFrames,
} from "../test_helpers.js";

/** `_cohort_chart` as Python sends it: two cohorts and the rest, three features. */
function makeCohortChart() {
  const pack = payloadPacker();
  return {
    scorer: "r2",
    scorers: ["r2"],
    cohorts: ["young <b>pro</b>", "few", "rest"],
    sizes: [120, 12, 868],
    small: [false, true, false],
    min_size: 30,
    features: ["age", "plan", "visits"],
    n_hidden: 0,
    mean: pack([0.3, 0.2, 0.0, 0.1, 0.0, 0.05, 0.25, 0.1, 0.02], [3, 3]),
    std: pack([0.02, 0.01, 0.0, 0.05, 0.01, 0.02, 0.01, 0.01, 0.0], [3, 3]),
    repeats_done: 2,
    n_repeats: 5,
    scores: [{ r2: 0.4 }, { r2: 0.1 }, { r2: 0.8 }],
  };
}

describe("cohortChart", () => {
  it("decodes one measure per cohort, with its rows, grey when small", () => {
    const chart = cohortChart(makeCohortChart());
    expect(chart.cohorts).toEqual(["young <b>pro</b>", "few", "rest"]);
    expect(chart.measures.map((m) => m.label)).toEqual([
      "young <b>pro</b> (n = 120)",
      "few (n = 12, few rows)",
      "rest (n = 868)",
    ]);
    expect(chart.measures[1].color).toBe(SMALL_COLOR);
    expect(chart.measures[0].color).toBe(cohortColor(0, false));
    expect(chart.measures[2].color).not.toBe(SMALL_COLOR);
    expect([...chart.measures[2].values].map((v) => Number(v.toFixed(2)))).toEqual([0.25, 0.1, 0.02]);
    expect(smallNote(chart)).toBe(
      "Grey: few has fewer than 30 rows; kept, but their importances rest on few rows.",
    );
    expect(cohortCaption(chart)).toContain("whisker ± std over 2 of 5 repeats");
    expect(cohortChart({})).toBeNull();
  });

  it("refuses a payload of the wrong shape", () => {
    const bad = makeCohortChart();
    bad.features = ["age"];
    expect(() => cohortChart(bad)).toThrow(RangeError);
    const sizes = makeCohortChart();
    sizes.sizes = [1];
    expect(() => cohortChart(sizes)).toThrow(/one value per cohort/);
  });
});

describe("the rule text the form writes", () => {
  it("quotes names and values as the rule language reads them", () => {
    expect(ruleName("age")).toBe("age");
    expect(ruleName("tenure months")).toBe("`tenure months`");
    expect(ruleValue("30", "number")).toBe("30");
    expect(ruleValue("thirty", "number")).toBe("'thirty'");
    expect(ruleValue("true", "bool")).toBe("True");
    expect(ruleValue("it's", "text")).toBe("'it\\'s'");
    expect(conditionText({ name: "plan", kind: "text" }, "==", "pro")).toBe("plan == 'pro'");
    expect(conditionText({ name: "age", kind: "number" }, "is missing", "x")).toBe(
      "age is missing",
    );
    expect(operatorsFor("text")).not.toContain("<");
    expect(operatorsFor("number")).toContain("<=");
  });

  it("lists each cohort's rows and scores, pending as …", () => {
    const lines = cohortLines(
      [
        { name: "young", rule: "age < 30", size: 1200, scores: null },
        { name: "rest", rule: "", size: 8800, small: false, scores: { r2: 0.5 } },
      ],
      ["r2"],
    );
    expect(lines[0]).toMatchObject({ rows: "1,200 rows", scores: ["…"], removable: true });
    expect(lines[1]).toMatchObject({ rule: "rows in no cohort", scores: ["0.5"], removable: false });
  });
});

describe("the cohort Importance view", () => {
  let frames;
  beforeEach(() => {
    frames = stubAnimationFrames();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.body.replaceChildren();
  });

  it("draws a dot per cohort with its size in the legend, selects, cleans up", () => {
    const model = new FakeModel({
      ...DONE_RUN_TRAITS,
      scorer: "r2",
      selected_features: [],
      _cohort_chart: makeCohortChart(),
    });
    const el = attachedElement();
    const cleanup = cohortWidget.render({ model, el });
    frames.flush();
    const legend = queryTestId(el, "icw-legend");
    expect(legend.textContent).toContain("young <b>pro</b> (n = 120)");
    expect(legend.querySelector("b")).toBeNull(); // names are text
    expect(queryAllTestId(el, "icw-dot")).toHaveLength(9);
    expect(queryTestId(el, "mci-small-note").hidden).toBe(false);
    click(queryAllTestId(el, "icw-row")[1]);
    expect(model.get("selected_features")).toEqual(["plan"]);
    cleanup();
    expect(el.childElementCount).toBe(0);
    expect(model.listenerCount()).toBe(0);
  });
});

describe("the inspector's cohorts", () => {
  let frames;
  beforeEach(() => {
    frames = stubAnimationFrames();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.body.replaceChildren();
  });

  function makeInspector(overrides = {}) {
    const model = new FakeModel({
      view: "importance",
      importance_on: "test",
      selected_features: [],
      max_rows: 5000,
      cohorts: [],
      _cohorts_error: "",
      _cohort_fields: [
        { name: "age", kind: "number", values: [] },
        { name: "plan", kind: "text", values: ["pro", "free"] },
      ],
      _header: {
        task: "regression",
        model: { type: "Ridge" },
        n_rows: 1000,
        n_features: 2,
        scores: [{ scorer: "r2", model: 0.7, dummy: 0 }],
        cohorts: [],
      },
      _importance: { state: { ...DONE_RUN_TRAITS, _chart: {} }, versions: {} },
      _cohort_importance: {},
      _comparison: {},
      _effects: {},
      ...overrides,
    });
    model.send = vi.fn();
    return model;
  }

  it("builds a rule from the form and sends the whole list", () => {
    const model = makeInspector({ cohorts: [{ name: "old", rule: "age > 60" }] });
    const el = attachedElement();
    const cleanup = inspector.render({ model, el });
    frames.flush();
    change(queryTestId(el, "mi-cohort-field"), "age");
    change(queryTestId(el, "mi-cohort-op"), "<");
    queryTestId(el, "mi-cohort-value").value = "30";
    click(queryTestId(el, "mi-cohort-and"));
    change(queryTestId(el, "mi-cohort-field"), "plan");
    const ops = [...queryTestId(el, "mi-cohort-op").options].map((o) => o.value);
    expect(ops).not.toContain("<"); // text: no ordering
    change(queryTestId(el, "mi-cohort-op"), "==");
    queryTestId(el, "mi-cohort-value").value = "pro";
    click(queryTestId(el, "mi-cohort-and"));
    expect(queryTestId(el, "mi-cohort-rule").value).toBe("age < 30 and plan == 'pro'");
    queryTestId(el, "mi-cohort-name").value = "young pro";
    pressEnter(queryTestId(el, "mi-cohort-name"));
    expect(model.send).toHaveBeenLastCalledWith({
      set_cohorts: [
        { name: "old", rule: "age > 60" },
        { name: "young pro", rule: "age < 30 and plan == 'pro'" },
      ],
    });
    cleanup();
    expect(model.listenerCount()).toBe(0);
  });

  it("lists the cohorts with their rows, removes one, shows a refusal", () => {
    const model = makeInspector({ cohorts: [{ name: "old", rule: "age > 60" }] });
    model.set("_header", {
      ...model.get("_header"),
      cohorts: [
        { name: "old", rule: "age > 60", size: 200, scores: { r2: 0.3 } },
        { name: "rest", rule: "", size: 800, scores: null },
      ],
    });
    const el = attachedElement();
    const cleanup = inspector.render({ model, el });
    frames.flush();
    const rows = queryAllTestId(el, "mi-cohort");
    expect(rows.map((r) => r.dataset.cohort)).toEqual(["old", "rest"]);
    expect([...rows[0].querySelectorAll("td")].map((td) => td.textContent).slice(1, 4)).toEqual([
      "age > 60",
      "200 rows",
      "0.3",
    ]);
    const removes = queryAllTestId(el, "mi-cohort-remove");
    expect(removes[1].hidden).toBe(true); // "rest" is no cohort to remove
    click(removes[0]);
    expect(model.send).toHaveBeenLastCalledWith({ set_cohorts: [] });
    expect(queryTestId(el, "mi-cohort-error").hidden).toBe(true);
    expect(queryTestId(el, "mi-cohort-form").hidden).toBe(false);
    model.set("_cohorts_error", "cohort rule 'agee < 3': 'agee' is not a column of X");
    frames.flush();
    expect(queryTestId(el, "mi-cohort-error").textContent).toContain("'agee' is not a column");
    expect(queryTestId(el, "mi-cohort-error").hidden).toBe(false);
    // A saved page: the cohorts listed, no form to send to a kernel.
    model.set("_standalone", true); // as a saved page opens
    model.set("_cohorts_error", "");
    frames.flush();
    expect(queryTestId(el, "mi-cohort-form").hidden).toBe(true);
    expect(queryAllTestId(el, "mi-cohort")).toHaveLength(2);
    cleanup();
  });

  it("shows the cohort importance under the held-out view only with cohorts", () => {
    const chart = { state: { ...DONE_RUN_TRAITS, scorer: "r2", _cohort_chart: makeCohortChart() }, versions: {} };
    const model = makeInspector({ _cohort_importance: chart });
    const el = attachedElement();
    const cleanup = inspector.render({ model, el });
    frames.flush();
    expect(queryTestId(el, "mi-root").dataset.shown).toBe("importance");
    model.set("cohorts", [{ name: "few", rule: "age > 90" }]);
    frames.flush();
    expect(queryTestId(el, "mi-root").dataset.shown).toBe("importance cohort_importance");
    expect(queryTestId(el, "mi-panel-cohort_importance").hidden).toBe(false);
    expect(queryAllTestId(el, "icw-dot")).toHaveLength(9);
    cleanup();
  });
});
