import { describe, expect, it } from "vitest";

import { cellEdges, h2Scale, heatColor, minimumEffectRange } from "./pd_heat_scales.js";

describe("helpers", () => {
  it("cellEdges puts cell borders halfway between grid values", () => {
    expect([...cellEdges([0, 1, 3])]).toEqual([-0.5, 0.5, 2, 4]);
    expect([...cellEdges([2])]).toEqual([1.5, 2.5]);
  });

  it("heatColor diverges around 0 only when values straddle it", () => {
    expect(heatColor([-1, 2]).domain()).toEqual([-2, 0, 2]);
    expect(heatColor([1, 2]).domain()).toEqual([1, 2]);
  });
});

describe("honest magnitudes (#52 item 3)", () => {
  it("a negligible second-order effect is drawn pale, not at full red and blue", () => {
    const minimum = minimumEffectRange("second-order accumulated local effect on the probability of 1");
    expect(minimum).toBe(0.01);
    const color = heatColor([-0.00002, 0.00002], { minimum });
    expect(color.domain()).toEqual([-0.01, 0, 0.01]);
    // Nearly the white of 0, far from the end colour.
    expect(color(0.00002)).toBe(color(0));
    expect(color(0.00002)).not.toBe(color(0.01));
    // A real effect still spans the whole scale.
    expect(heatColor([-0.2, 0.3], { minimum }).domain()).toEqual([-0.3, 0, 0.3]);
  });

  it("the minimum is stated only where the unit is known", () => {
    expect(minimumEffectRange("second-order accumulated local effect on the log-odds of 1")).toBe(0.05);
    expect(minimumEffectRange("second-order accumulated local effect on the prediction")).toBe(0);
  });

  it("H² above 1 keeps a colour of its own", () => {
    const scale = h2Scale([0.2, 1, 1.8, NaN]);
    expect(scale.domain).toEqual([0, 1.8]);
    expect(scale.ticks).toEqual([0, 0.5, 1, 1.8]);
    expect(scale.color(1.8)).not.toBe(scale.color(1));
    const usual = h2Scale([0.1, 0.4]);
    expect(usual.domain).toEqual([0, 1]);
    expect(usual.color(0.4)).not.toBe(usual.color(0.1));
  });
});
