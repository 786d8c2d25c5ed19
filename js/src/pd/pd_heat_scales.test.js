import { describe, expect, it } from "vitest";

import { cellEdges, heatColor } from "./pd_heat_scales.js";

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
