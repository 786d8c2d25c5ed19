import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import effectsWidget, { titleText } from "./models_effects.js";
import { modelsEffects } from "./models_effects_data.js";
import {
  DONE_RUN_TRAITS,
  FakeModel,
  attachedElement,
  longestDrawnText,
  payloadPacker,
  queryAllTestId,
  queryTestId,
  stubAnimationFrames,
} from "../test_helpers.js";

function makeCurves({ feature = "bmi", labels = null, ice = false } = {}) {
  const pack = payloadPacker();
  return {
    features: [feature],
    kind: "curves",
    models: ["forest", "<b>ridge</b>"],
    grid: labels ? null : pack([0, 1, 2]),
    labels,
    average: pack([1, 2, 3, 2, 2, 2], [2, 3]),
    // Two rows' curves per model (the same rows).
    individual: ice ? pack([0, 1, 2, 2, 3, 4, 1, 1, 1, 3, 3, 3], [2, 2, 3]) : null,
    centered: false,
    output: "",
    response: "predict",
  };
}

function makeSurfaces() {
  const pack = payloadPacker();
  return {
    features: ["bmi", "plan"],
    kind: "surface",
    models: ["forest", "ridge"],
    grid: pack([0, 1, 2]),
    labels: null,
    grid_y: null,
    labels_y: ["basic", "pro"],
    // The forest's values span 0..5, the ridge's 10..15: one scale for both.
    average: pack([0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15], [2, 3, 2]),
    output: "1",
    response: "predict_proba",
  };
}

describe("modelsEffects", () => {
  it("decodes one curve per model over the one grid", () => {
    const curves = modelsEffects(makeCurves(), ["bmi"]);
    expect(curves.models).toEqual(["forest", "<b>ridge</b>"]);
    expect(curves.x).toEqual([0, 1, 2]);
    expect(curves.numeric).toBe(true);
    expect([...curves.curves[1]]).toEqual([2, 2, 2]);
  });

  it("takes labels for a categorical grid", () => {
    const curves = modelsEffects(makeCurves({ labels: ["a", "b", "c"] }), ["bmi"]);
    expect(curves.numeric).toBe(false);
    expect(curves.x).toEqual(["a", "b", "c"]);
  });

  it("draws nothing of another feature, refuses a wrong shape", () => {
    expect(modelsEffects(makeCurves(), ["age"])).toBeNull();
    expect(modelsEffects(makeCurves(), ["bmi", "age"])).toBeNull();
    expect(modelsEffects(undefined, ["bmi"])).toBeNull();
    const bad = makeCurves();
    bad.models = ["forest"];
    expect(() => modelsEffects(bad, ["bmi"])).toThrow(RangeError);
  });

  it("cuts each model's ICE curves, refuses rows of another grid", () => {
    const curves = modelsEffects(makeCurves({ ice: true }), ["bmi"]);
    expect(curves.individual.map((c) => c.rows)).toEqual([2, 2]);
    expect([...curves.individual[1].values]).toEqual([1, 1, 1, 3, 3, 3]);
    const bad = makeCurves({ ice: true });
    bad.individual = payloadPacker()([0, 1, 2, 3], [2, 1, 2]);
    expect(() => modelsEffects(bad, ["bmi"])).toThrow(/individual has shape/);
  });

  it("decodes a pair's surfaces, a categorical axis as labels", () => {
    const surfaces = modelsEffects(makeSurfaces(), ["bmi", "plan"]);
    expect(surfaces.kind).toBe("surface");
    expect([...surfaces.x.values]).toEqual([0, 1, 2]);
    expect(surfaces.y).toMatchObject({ labels: ["basic", "pro"], categorical: true });
    expect([...surfaces.surfaces[1]]).toEqual([10, 11, 12, 13, 14, 15]);
    const bad = makeSurfaces();
    bad.labels_y = ["basic"];
    expect(() => modelsEffects(bad, ["bmi", "plan"])).toThrow(RangeError);
  });

  it("titles what is drawn", () => {
    expect(titleText(["bmi"], "", { ice: true, centered: true })).toContain(
      "centered partial dependence and ICE curves",
    );
    expect(titleText(["bmi", "age"], "1", { ice: false, centered: false })).toContain(
      "on \u2068bmi\u2069 and \u2068age\u2069 (\u20681\u2069), one grid, one colour scale",
    );
  });
});

describe("the several-model Effects panel", () => {
  let frames;
  beforeEach(() => {
    frames = stubAnimationFrames();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.body.replaceChildren();
  });

  it("draws a curve per model with a legend, hides another feature's", () => {
    const model = new FakeModel({
      ...DONE_RUN_TRAITS,
      features: ["bmi"],
      _models_curves: makeCurves(),
    });
    const el = attachedElement();
    const cleanup = effectsWidget.render({ model, el });
    frames.flush();
    const curves = queryAllTestId(el, "mme-curve");
    expect(curves.map((c) => c.getAttribute("data-model"))).toEqual([
      "forest",
      "<b>ridge</b>",
    ]);
    expect(curves[0].getAttribute("stroke")).not.toBe(curves[1].getAttribute("stroke"));
    const items = queryAllTestId(el, "mme-legend-item");
    expect(items.map((i) => i.textContent)).toEqual(["forest", "<b>ridge</b>"]);
    expect(queryTestId(el, "mme-legend").querySelector("b")).toBeNull();
    expect(curves[0].getAttribute("d")).not.toContain("NaN");
    // A missing-value point at the grid's end is left out of the line.
    const withMissing = makeCurves();
    withMissing.grid = payloadPacker()([0, 1, NaN]);
    model.set("_models_curves", withMissing);
    frames.flush();
    const d = queryAllTestId(el, "mme-curve")[0].getAttribute("d");
    expect(d).not.toContain("NaN");
    expect(d.split("L")).toHaveLength(2); // two points drawn
    // The selection moved on: the old feature's curves are not drawn.
    model.set("features", ["age"]);
    model.set("status", "running");
    frames.flush();
    expect(queryTestId(el, "mme-chart").style.display).toBe("none");
    expect(queryAllTestId(el, "mme-legend-item")).toHaveLength(0);
    cleanup();
    expect(el.childElementCount).toBe(0);
    expect(model.listenerCount()).toBe(0);
  });

  it("asks for ICE with its toggle, draws a panel per model on one scale", () => {
    const model = new FakeModel({
      ...DONE_RUN_TRAITS,
      features: ["bmi"],
      ice: false,
      centered: false,
      _models_curves: makeCurves(),
    });
    const el = attachedElement();
    const cleanup = effectsWidget.render({ model, el });
    frames.flush();
    expect(queryTestId(el, "mme-ice").hidden).toBe(true);
    const toggle = queryTestId(el, "mme-ice-toggle");
    toggle.checked = true;
    toggle.dispatchEvent(new Event("change"));
    expect(model.saves.at(-1).ice).toBe(true);
    const centered = queryTestId(el, "mme-centered-toggle");
    centered.checked = true;
    centered.dispatchEvent(new Event("change"));
    expect(model.saves.at(-1).centered).toBe(true);
    // Python's answer: the curves with every model's ICE rows.
    model.set("_models_curves", makeCurves({ ice: true }));
    frames.flush();
    const panels = queryAllTestId(el, "mme-ice-panel");
    expect(panels.map((p) => p.getAttribute("data-model"))).toEqual(["forest", "<b>ridge</b>"]);
    expect(panels.map((p) => p.getAttribute("data-rows"))).toEqual(["2", "2"]);
    // One y scale: the same domain in both panels, spanning both models.
    const domains = panels.map((p) => p.getAttribute("data-y-domain"));
    expect(domains[0]).toBe(domains[1]);
    const [low, high] = domains[0].split(",").map(Number);
    expect(low).toBeLessThan(0);
    expect(high).toBeGreaterThan(4);
    expect(queryAllTestId(el, "mme-ice-average")[1].getAttribute("d")).not.toContain("NaN");
    expect(el.querySelector("b")).toBeNull(); // names as text
    cleanup();
    expect(el.childElementCount).toBe(0);
    expect(model.listenerCount()).toBe(0);
  });

  it("draws a pair's surfaces side by side with one colour scale", () => {
    const model = new FakeModel({
      ...DONE_RUN_TRAITS,
      features: ["bmi", "plan"],
      ice: true,
      centered: false,
      _models_curves: makeSurfaces(),
    });
    const el = attachedElement();
    const cleanup = effectsWidget.render({ model, el });
    frames.flush();
    expect(queryTestId(el, "mme-root").getAttribute("data-kind")).toBe("surface");
    expect(queryTestId(el, "mme-chart").style.display).toBe("none");
    expect(queryTestId(el, "mme-ice-toggle").disabled).toBe(true);
    const panels = queryAllTestId(el, "mme-surface-panel");
    expect(panels.map((p) => p.getAttribute("data-model"))).toEqual(["forest", "ridge"]);
    expect(panels.map((p) => p.getAttribute("data-cells"))).toEqual(["6", "6"]);
    const domains = panels.map((p) => p.getAttribute("data-color-domain"));
    expect(domains[0]).toBe(domains[1]);
    const [low, high] = domains[0].split(",").map(Number);
    expect(low).toBeLessThanOrEqual(0);
    expect(high).toBeGreaterThanOrEqual(15);
    expect(queryTestId(el, "mme-color-legend")).not.toBeNull();
    // Back to one feature: the surfaces go.
    model.set("features", ["bmi"]);
    model.set("_models_curves", makeCurves());
    frames.flush();
    expect(queryAllTestId(el, "mme-surface-panel")).toHaveLength(0);
    expect(queryAllTestId(el, "mme-curve")).toHaveLength(2);
    cleanup();
    expect(model.listenerCount()).toBe(0);
  });

  it("cuts 1 MB model, feature and category names, each whole on hover (#49 item 9)", () => {
    const huge = (c) => c.repeat(1_000_000);
    const curves = makeCurves({ feature: huge("f"), labels: [huge("a"), "b", "c"], ice: true });
    curves.models = [huge("m"), "ridge"];
    const model = new FakeModel({
      ...DONE_RUN_TRAITS,
      features: [huge("f")],
      ice: true,
      _models_curves: curves,
    });
    const el = attachedElement();
    const cleanup = effectsWidget.render({ model, el });
    frames.flush();
    expect(queryAllTestId(el, "mme-curve")).toHaveLength(2);
    expect(longestDrawnText(el).length).toBeLessThan(200);
    // The legend, the ICE panels' titles: the whole model name on hover.
    const [item] = queryAllTestId(el, "mme-legend-item");
    expect(item.querySelector(".icw-legend-label").title).toBe(huge("m"));
    const [panel] = queryAllTestId(el, "mme-ice-panel");
    expect(panel.querySelector(".mme-panel-title").title).toBe(huge("m"));
    // The axis titles and a category's tick: an SVG <title>.
    const titles = [...el.querySelectorAll("svg title")].map((t) => t.textContent);
    expect(titles).toContain(huge("f"));
    expect(titles).toContain(huge("a"));
    // A pair's surfaces: both axis titles cut the same way.
    const surfaces = makeSurfaces();
    surfaces.features = [huge("f"), huge("g")];
    surfaces.labels_y = [huge("p"), "pro"];
    model.set("features", surfaces.features);
    model.set("_models_curves", surfaces);
    frames.flush();
    expect(queryAllTestId(el, "mme-surface-panel")).toHaveLength(2);
    expect(longestDrawnText(el).length).toBeLessThan(200);
    const surfaceTitles = [...el.querySelectorAll(".mme-panel-svg title")].map((t) => t.textContent);
    expect(surfaceTitles).toEqual(expect.arrayContaining([huge("f"), huge("g"), huge("p")]));
    cleanup();
  });

  it("switches PD and ALE, hiding the toggles of partial dependence", () => {
    const model = new FakeModel({
      ...DONE_RUN_TRAITS,
      features: ["bmi"],
      effect: "pd",
      ice: false,
      centered: false,
      _models_curves: makeCurves(),
    });
    const el = attachedElement();
    const cleanup = effectsWidget.render({ model, el });
    frames.flush();
    expect(queryTestId(el, "mme-effect-pd").getAttribute("aria-pressed")).toBe("true");
    queryTestId(el, "mme-effect-ale").click();
    expect(model.saves.at(-1).effect).toBe("ale");
    model.set("_models_curves", { ...makeCurves(), effect: "ale" });
    frames.flush();
    expect(queryTestId(el, "mme-effect-ale").getAttribute("aria-pressed")).toBe("true");
    expect(queryTestId(el, "mme-ice-toggle").disabled).toBe(true);
    expect(queryTestId(el, "mme-title").textContent).toContain("accumulated local effects of \u2068bmi\u2069");
    expect(queryAllTestId(el, "mme-curve")).toHaveLength(2);
    const saves = model.saves.length;
    queryTestId(el, "mme-effect-ale").click(); // already shown: nothing sent
    expect(model.saves).toHaveLength(saves);
    cleanup();
    expect(model.listenerCount()).toBe(0);
  });
});
