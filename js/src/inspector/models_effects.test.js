import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import effectsWidget, { modelsCurves } from "./models_effects.js";
import {
  DONE_RUN_TRAITS,
  FakeModel,
  attachedElement,
  payloadPacker,
  queryAllTestId,
  queryTestId,
  stubAnimationFrames,
} from "../test_helpers.js";

function makeCurves({ feature = "bmi", labels = null } = {}) {
  const pack = payloadPacker();
  return {
    feature,
    models: ["forest", "<b>ridge</b>"],
    grid: labels ? null : pack([0, 1, 2]),
    labels,
    average: pack([1, 2, 3, 2, 2, 2], [2, 3]),
    output: "",
    response: "predict",
  };
}

describe("modelsCurves", () => {
  it("decodes one curve per model over the one grid", () => {
    const curves = modelsCurves(makeCurves(), "bmi");
    expect(curves.models).toEqual(["forest", "<b>ridge</b>"]);
    expect(curves.x).toEqual([0, 1, 2]);
    expect(curves.numeric).toBe(true);
    expect([...curves.curves[1]]).toEqual([2, 2, 2]);
  });

  it("takes labels for a categorical grid", () => {
    const curves = modelsCurves(makeCurves({ labels: ["a", "b", "c"] }), "bmi");
    expect(curves.numeric).toBe(false);
    expect(curves.x).toEqual(["a", "b", "c"]);
  });

  it("draws nothing of another feature, refuses a wrong shape", () => {
    expect(modelsCurves(makeCurves(), "age")).toBeNull();
    expect(modelsCurves(undefined, "bmi")).toBeNull();
    const bad = makeCurves();
    bad.models = ["forest"];
    expect(() => modelsCurves(bad, "bmi")).toThrow(RangeError);
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
      feature: "bmi",
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
    model.set("feature", "age");
    model.set("status", "running");
    frames.flush();
    expect(queryTestId(el, "mme-chart").getAttribute("display")).toBe("none");
    expect(queryAllTestId(el, "mme-legend-item")).toHaveLength(0);
    cleanup();
    expect(el.childElementCount).toBe(0);
    expect(model.listenerCount()).toBe(0);
  });
});
