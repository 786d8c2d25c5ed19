import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { SMALL_GROUP_COLOR } from "../charts/grouped_importance.js";
import { cohortLines } from "./cohort_editor.js";
import {
  cohortColor,
  conditionText,
  operatorsFor,
  ruleName,
  ruleValue,
} from "./cohort_data.js";
import inspector from "../inspector_widget.js";
import {
  DONE_RUN_TRAITS,
  FakeModel,
  attachedElement,
  change,
  click,
  longestDrawnText,
  pressEnter,
  queryAllTestId,
  queryTestId,
  splitChart,
  stubAnimationFrames,
} from "../test_helpers.js";

describe("cohortColor", () => {
  it("is the grouped chart's colour of the same position, grey when small", () => {
    expect(cohortColor(0, false)).toBe("#4e79a7");
    expect(cohortColor(1, false)).not.toBe(cohortColor(0, false));
    expect(cohortColor(10, false)).toBe(cohortColor(0, false));
    expect(cohortColor(0, true)).toBe(SMALL_GROUP_COLOR);
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
    expect(ruleValue("a\nb\x00", "text")).toBe("'a\\x0ab\\x00'");
  });

  it("quotes a name so that it reads back as that column only (#49 item 7)", () => {
    // A backtick is doubled: this name wrote `score` > 0 or `score` < -100.
    expect(ruleName("score` > 0 or `score")).toBe("`score`` > 0 or ``score`");
    expect(ruleName("`")).toBe("````");
    expect(ruleName("")).toBe("``");
    expect(ruleName("line\nend $x$")).toBe("`line\nend $x$`");
    // Plain, unless another column goes on from it.
    expect(ruleName("age", ["age", "age_group"])).toBe("age");
    expect(ruleName("age", ["age", "age > 0 or x"])).toBe("`age`");
    expect(conditionText({ name: "a`b", kind: "number" }, "<", "3", ["a`b"])).toBe("`a``b` < 3");
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
        { name: "none", rule: "age > 200", size: 0, scores: {} },
      ],
      ["r2"],
    );
    expect(lines[2].scores).toEqual(["n/a"]); // no rows: no score, not pending
    expect(lines[0]).toMatchObject({ rows: "1,200 rows", scores: ["…"], removable: true });
    expect(lines[1]).toMatchObject({ rule: "rows in no cohort", scores: ["0.5"], removable: false });
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

  it("cuts 1 MB names in the header, the cohort table and the form, each whole on hover (#49 item 9)", () => {
    const huge = (c) => c.repeat(1_000_000);
    const rule = `${huge("c")} > 0`;
    const model = makeInspector({
      cohorts: [{ name: huge("k"), rule }],
      _cohort_fields: [{ name: huge("c"), kind: "number", values: [] }],
    });
    model.set("_header", {
      ...model.get("_header"),
      model_name: huge("m"),
      models: [huge("m"), huge("n")],
      other_models: [{ name: huge("n"), scores: { [huge("s")]: 0.5 } }],
      scores: [{ scorer: huge("s"), model: 0.7, dummy: 0 }],
      cohorts: [{ name: huge("k"), rule, size: 200, scores: { [huge("s")]: 0.3 } }],
    });
    const el = attachedElement();
    const cleanup = inspector.render({ model, el });
    frames.flush();
    expect(queryAllTestId(el, "mi-cohort")).toHaveLength(1);
    expect(longestDrawnText(el).length).toBeLessThan(300);
    const hover = [...el.querySelectorAll("[title]")].map((n) => n.getAttribute("title"));
    // The reviewed-model menu, the score table's columns and scorer, the
    // cohort's name and rule, the form's column menu.
    for (const whole of [huge("m"), huge("n"), huge("s"), huge("k"), rule, huge("c")])
      expect(hover.includes(whole)).toBe(true);
    cleanup();
  });

  it("says under the form why an ID-like column suggests few values (#49 item 2)", () => {
    const note = "200 distinct values, none in 5 rows or more: no value is named (an ID or an e-mail names a person).";
    const model = makeInspector({
      _cohort_fields: [
        { name: "age", kind: "number", values: [] },
        { name: "email", kind: "text", values: [], note },
        { name: "plan", kind: "text", values: ["pro", "free"], note: "" },
      ],
    });
    const el = attachedElement();
    const cleanup = inspector.render({ model, el });
    frames.flush();
    const shown = queryTestId(el, "mi-cohort-note");
    expect(shown.hidden).toBe(true); // age: a number, nothing to say
    change(queryTestId(el, "mi-cohort-field"), "email");
    expect(shown.hidden).toBe(false);
    expect(shown.textContent).toBe(`\u2068email\u2069: ${note}`);
    expect(el.querySelector("datalist").children).toHaveLength(0);
    change(queryTestId(el, "mi-cohort-field"), "plan");
    expect(shown.hidden).toBe(true);
    expect(el.querySelector("datalist").children).toHaveLength(2);
    cleanup();
    // A saved page: no form, no note.
    const saved = makeInspector({
      _standalone: true,
      _cohort_fields: [{ name: "email", kind: "text", values: [], note }],
    });
    const page = attachedElement();
    const cleanupSaved = inspector.render({ model: saved, el: page });
    frames.flush();
    expect(queryTestId(page, "mi-cohort-form").hidden).toBe(true);
    expect(queryTestId(page, "mi-cohort-note").hidden).toBe(true);
    cleanupSaved();
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

  it("splits the held-out Importance view by them: no panel of their own", () => {
    const names = ["young <b>pro</b>", "few", "rest"];
    const chart = splitChart();
    chart.groups = { ...chart.groups, labels: names, small: [false, true, false] };
    const model = makeInspector({
      cohorts: [
        { name: names[0], rule: "age < 30" },
        { name: "few", rule: "age > 90" },
      ],
      _importance: {
        state: {
          ...DONE_RUN_TRAITS,
          scorer: "r2",
          scoring: ["r2"],
          split_by: "(cohorts)",
          _split_options: ["plan", "(cohorts)"],
          _chart: chart,
        },
        versions: {},
      },
    });
    const el = attachedElement();
    const cleanup = inspector.render({ model, el });
    frames.flush();
    expect(queryTestId(el, "mi-root").dataset.shown).toBe("importance");
    expect(el.querySelector("[data-testid='mi-panel-cohort_importance']")).toBeNull();
    const split = queryTestId(el, "piw-split-by");
    expect([...split.options].map((o) => o.value)).toContain("(cohorts)");
    expect(split.value).toBe("(cohorts)");
    const legend = queryTestId(el, "icw-legend");
    expect(legend.textContent).toContain("young <b>pro</b> (n = 120)");
    expect(legend.textContent).toContain("few (n = 95, few rows)");
    expect(legend.querySelector("b")).toBeNull(); // names are text
    // Each cohort's dots in its header colour, the small one grey.
    const colours = [...queryAllTestId(el, "icw-dot")].map((dot) => dot.getAttribute("fill"));
    expect(new Set(colours)).toEqual(
      new Set([cohortColor(0, false), cohortColor(1, true), cohortColor(2, false)]),
    );
    // Another split chosen there goes to the held-out view.
    change(split, "plan");
    expect(model.send).toHaveBeenCalledWith({ view: "importance", set: { split_by: "plan" } });
    cleanup();
  });
});
