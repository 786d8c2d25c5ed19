import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import modelsWidget, { captionText } from "./models_importance.js";
import { differenceFlags, modelsChart } from "./models_data.js";
import { viewWidget } from "../inspector_widget.js";
import permutationWidget from "../permutation_widget.js";
import {
  DONE_RUN_TRAITS,
  FakeModel,
  attachedElement,
  click,
  longestDrawnText,
  payloadPacker,
  queryAllTestId,
  queryTestId,
  stubAnimationFrames,
} from "../test_helpers.js";

/** `_models_chart` as Python sends it: two models, three features. */
function makeModelsChart({ differs = [true, false, false], low, high } = {}) {
  const pack = payloadPacker();
  return {
    scorer: "r2",
    scorers: ["r2", "neg_mean_squared_error"],
    models: ["forest", "<i>ridge</i>"],
    features: ["bmi", "s5", "bp"],
    n_hidden: 2,
    mean: pack([0.3, 0.1, 0.0, 0.1, 0.12, 0.01], [2, 3]),
    std: pack([0.02, 0.01, 0.0, 0.01, 0.02, 0.005], [2, 3]),
    repeats_done: 3,
    n_repeats: 5,
    reviewed: "forest",
    differences: [
      {
        first: "forest",
        second: "<i>ridge</i>",
        confidence_level: 0.95,
        mean: pack([0.2, -0.02, -0.01]),
        low: pack(low ?? [0.15, -0.05, -0.03]),
        high: pack(high ?? [0.25, 0.01, 0.01]),
        differs,
      },
    ],
  };
}

/** A third model's paired difference with the reviewed one. */
function thirdModel(chart, differs) {
  const pack = payloadPacker();
  chart.models = [...chart.models, "knn"];
  chart.mean = pack([0.3, 0.1, 0.0, 0.1, 0.12, 0.01, 0.05, 0.2, 0.0], [3, 3]);
  chart.std = pack([0.02, 0.01, 0.0, 0.01, 0.02, 0.005, 0.01, 0.01, 0.0], [3, 3]);
  chart.differences.push({
    first: "forest",
    second: "knn",
    confidence_level: 0.9,
    mean: pack([0.25, -0.1, 0.0]),
    low: pack([0.2, -0.15, -0.01]),
    high: pack([0.3, -0.05, 0.01]),
    differs,
  });
  return chart;
}

describe("modelsChart", () => {
  it("decodes one measure per model, in the models' order", () => {
    const chart = modelsChart(makeModelsChart());
    expect(chart.models).toEqual(["forest", "<i>ridge</i>"]);
    // Each model's legend text (cut), its whole name shown on hover.
    expect(chart.measures.map((m) => m.label)).toEqual(chart.models);
    expect(chart.measures.map((m) => m.name)).toEqual(chart.models);
    expect([...chart.measures[1].values].map((v) => Number(v.toFixed(2)))).toEqual([0.1, 0.12, 0.01]);
    expect([...chart.measures[0].std].map((v) => Number(v.toFixed(2)))).toEqual([0.02, 0.01, 0]);
    expect(chart.nHidden).toBe(2);
    expect(modelsChart({})).toBeNull();
    expect(modelsChart(null)).toBeNull();
  });

  it("refuses arrays of the wrong shape", () => {
    const bad = makeModelsChart();
    bad.features = ["bmi", "s5"];
    expect(() => modelsChart(bad)).toThrow(RangeError);
  });

  it("flags only what Python flags, with its interval, and never without one", () => {
    const { flags, evidence, note } = differenceFlags(makeModelsChart().differences, 3);
    expect(flags[0]).toHaveLength(1);
    expect(flags[0][0]).toContain("\u2068forest\u2069 − \u2068<i>ridge</i>\u2069");
    expect(flags[1]).toEqual([]);
    expect(flags[2]).toEqual([]);
    expect(evidence[0][0][0]).toMatch(/^difference 0\.2, 95 % interval 0\.15 to 0\.25$/);
    expect(note).toContain("excludes 0");
    // A flag whose interval is missing (NaN) is not shown.
    const noInterval = makeModelsChart({ low: [NaN, NaN, NaN], high: [NaN, NaN, NaN] });
    expect(differenceFlags(noInterval.differences, 3).flags.flat()).toEqual([]);
    expect(differenceFlags(null, 2)).toEqual({ flags: [[], []], evidence: [[], []], note: "" });
  });

  it("flags the reviewed model against each other model, each on its own", () => {
    const chart = modelsChart(thirdModel(makeModelsChart(), [true, true, false]));
    expect(chart.reviewed).toBe("forest");
    expect(chart.measures).toHaveLength(3);
    // bmi: both differences exclude 0; s5: only forest − knn; bp: neither.
    expect(chart.flags[0]).toEqual([
      "\u2068forest\u2069 − \u2068<i>ridge</i>\u2069: the paired difference's 95 % interval excludes 0",
      "\u2068forest\u2069 − \u2068knn\u2069: the paired difference's 90 % interval excludes 0",
    ]);
    expect(chart.flags[1]).toEqual([
      "\u2068forest\u2069 − \u2068knn\u2069: the paired difference's 90 % interval excludes 0",
    ]);
    expect(chart.flags[2]).toEqual([]);
    expect(chart.evidence[1][0][0]).toBe("difference −0.1, 90 % interval −0.15 to −0.05");
    expect(chart.differenceNote).toContain("\u2068forest\u2069 − \u2068<i>ridge</i>\u2069, \u2068forest\u2069 − \u2068knn\u2069");
    const bad = thirdModel(makeModelsChart(), [true, true]);
    expect(() => modelsChart(bad)).toThrow(RangeError);
  });

  it("counts the features not permuted yet in a first round", () => {
    const partial = makeModelsChart();
    partial.n_pending = 7;
    partial.repeats_done = 1;
    const chart = modelsChart(partial);
    expect(chart.nPending).toBe(7);
    expect(captionText(chart)).toContain("7 features not permuted yet");
    expect(captionText(modelsChart(makeModelsChart()))).not.toContain("not permuted");
  });

  it("says what a dot and its whisker are", () => {
    expect(captionText(modelsChart(makeModelsChart()))).toBe(
      "2 models on the same permuted copies of the held-out rows · dot: mean importance (r2), whisker ± std over 3 of 5 repeats · 2 less important features not drawn",
    );
  });
});

describe("the several-model Importance view", () => {
  let frames;
  beforeEach(() => {
    frames = stubAnimationFrames();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.body.replaceChildren();
  });

  it("is the view's module only where the mirror holds _models_chart", () => {
    expect(viewWidget("importance", { _models_chart: {} })).toBe(modelsWidget);
    expect(viewWidget("importance", { _chart: {} })).toBe(permutationWidget);
    expect(viewWidget("importance_train", { _models_chart: {} })).toBe(permutationWidget);
  });

  it("draws a dot per model with a legend, flags, selects, stops, cleans up", () => {
    const model = new FakeModel({
      ...DONE_RUN_TRAITS,
      status: "running",
      scorer: "r2",
      selected_features: [],
      _models_chart: makeModelsChart(),
    });
    const el = attachedElement();
    const cleanup = modelsWidget.render({ model, el });
    frames.flush();
    const legend = queryTestId(el, "icw-legend");
    expect(legend.textContent).toContain("forest");
    expect(legend.textContent).toContain("<i>ridge</i>");
    expect(legend.querySelector("i")).toBeNull(); // names are text
    expect(queryAllTestId(el, "icw-row")).toHaveLength(3);
    expect(queryAllTestId(el, "icw-dot")).toHaveLength(6);
    const flags = queryAllTestId(el, "icw-flag");
    expect(flags).toHaveLength(1);
    expect(flags[0].closest("[data-feature]").getAttribute("data-feature")).toBe("bmi");
    expect(queryTestId(el, "mmi-caption").textContent).toContain("3 of 5 repeats");
    expect(queryTestId(el, "mmi-scorer").hidden).toBe(false);
    // Live: the next round moves the same rows.
    const next = makeModelsChart({ differs: [true, true, false] });
    next.repeats_done = 4;
    model.set("_models_chart", next);
    frames.flush();
    expect(queryAllTestId(el, "icw-flag")).toHaveLength(2);
    expect(queryTestId(el, "mmi-root").dataset.repeatsDone).toBe("4");
    click(queryAllTestId(el, "icw-row")[1]);
    expect(model.get("selected_features")).toEqual(["s5"]);
    click(queryTestId(el, "mmi-stop"));
    expect(model.get("_stop_requests")).toBe(1);
    model.set("status", "cancelled");
    frames.flush();
    expect(queryTestId(el, "mmi-stop").disabled).toBe(true);
    cleanup();
    expect(el.childElementCount).toBe(0);
    expect(model.listenerCount()).toBe(0);
  });

  it("cuts 1 MB model and scorer names in the legend, flags and menu, each whole on hover (#49 item 9)", () => {
    const huge = (c) => c.repeat(1_000_000);
    const chart = makeModelsChart();
    chart.models = [huge("m"), huge("n")];
    chart.differences[0].first = huge("m");
    chart.differences[0].second = huge("n");
    chart.reviewed = huge("m");
    chart.scorers = [huge("s"), "r2"];
    chart.scorer = huge("s");
    chart.features = [huge("f"), "s5", "bp"];
    const model = new FakeModel({
      ...DONE_RUN_TRAITS,
      scorer: huge("s"),
      selected_features: [],
      _models_chart: chart,
    });
    const el = attachedElement();
    const cleanup = modelsWidget.render({ model, el });
    frames.flush();
    expect(queryAllTestId(el, "icw-dot")).toHaveLength(6);
    expect(longestDrawnText(el).length).toBeLessThan(300);
    const labels = [...el.querySelectorAll(".icw-legend-label")];
    expect(labels.map((l) => l.title)).toEqual([huge("m"), huge("n")]);
    const menu = queryTestId(el, "mmi-scorer");
    expect([...menu.options].map((o) => o.value)).toEqual([huge("s"), "r2"]);
    expect(menu.options[0].title).toBe(huge("s"));
    expect(menu.value).toBe(huge("s"));
    cleanup();
  });
});
