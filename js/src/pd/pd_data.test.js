import { describe, expect, it } from "vitest";

import {
  columnRange,
  curveResult,
  distributionResult,
  drawableSurface,
  finiteExtent,
  gridCount,
  isEmptyCurve,
  nearestIndex,
  correlations,
  stepsResult,
} from "./pd_data.js";
import {
  categoricalCurve,
  numericCurve,
  payloadPacker,
  twoWayCurve,
} from "../test_helpers.js";

describe("curveResult", () => {
  it("is null before any result", () => {
    expect(curveResult({})).toBeNull();
    expect(curveResult(undefined)).toBeNull();
    expect(isEmptyCurve(null)).toBe(true);
  });

  it("decodes a 1-way payload from offset DataViews", () => {
    const curve = curveResult(numericCurve(payloadPacker(), { done: 7 }));
    expect(curve.mode).toBe("1d");
    expect(curve.feature).toBe("age");
    expect(curve.x.values).toBeInstanceOf(Float32Array);
    expect(curve.x.values.byteOffset).toBeGreaterThan(0);
    expect(curve.gridDone).toBe(7);
    expect(curve.individual.rows).toBe(5);
    expect(curve.individual.cols).toBe(20);
    expect(Number.isNaN(curve.average[7])).toBe(true);
    expect(curve.distribution.deciles).toHaveLength(9);
    expect(gridCount(curve)).toBe("7 / 20 grid points");
  });

  it("decodes categorical and 2-way payloads", () => {
    const cat = curveResult(categoricalCurve(payloadPacker()));
    expect(cat.x.categorical).toBe(true);
    expect(cat.x.labels).toEqual(["red", "green", "blue"]);
    expect(cat.distribution.kind).toBe("categories");
    const two = curveResult(twoWayCurve(payloadPacker(), { done: 2 }));
    expect(two.mode).toBe("2d");
    expect(two.features).toEqual(["age", "bmi"]);
    expect(two.average).toHaveLength(30);
    expect(gridCount(two)).toBe("2 / 6 grid rows");
  });

  it("clamps grid_done and rejects malformed payloads", () => {
    const pack = payloadPacker();
    expect(curveResult(numericCurve(pack, { done: 99 })).gridDone).toBe(20);
    const wrongIce = numericCurve(pack);
    wrongIce.individual = pack([1, 2, 3, 4], [2, 2]);
    expect(() => curveResult(wrongIce)).toThrow(
      /individual must have shape \[m, 20\]/,
    );
    const wrongLabels = categoricalCurve(pack);
    wrongLabels.grid_labels = ["a"];
    expect(() => curveResult(wrongLabels)).toThrow(/1 category labels for 3/);
    expect(() => curveResult({ features: ["a", "b", "c"] })).toThrow(/1 or 2/);
    expect(() => distributionResult({ kind: "kde" })).toThrow(
      /"histogram" or "categories"/,
    );
  });
});

describe("stepsResult", () => {
  it("decodes the ICE at every step, and checks its shape", () => {
    const pack = payloadPacker();
    expect(stepsResult(null)).toBeNull();
    const payload = numericCurve(pack);
    payload.steps = {
      grid: pack([0, 0.5, 2]),
      individual: pack([1, 2, 3, 4, 5, 6], [2, 3]),
    };
    const curve = curveResult(payload);
    expect(Array.from(curve.steps.x)).toEqual([0, 0.5, 2]);
    expect(curve.steps.rows).toBe(2);
    expect(curve.steps.cols).toBe(3);
    expect(curveResult(numericCurve(pack)).steps).toBeNull();
    payload.steps.individual = pack([1, 2, 3, 4], [2, 2]);
    expect(() => curveResult(payload)).toThrow(
      /steps.individual must have shape \[m, 3\]/,
    );
  });
});

describe("helpers", () => {
  it("columnRange and finiteExtent skip NaN", () => {
    const m = Float32Array.from([1, NaN, 5, 2, 3, NaN]);
    expect(columnRange(m, 3, 2, 0)).toEqual([1, 5]);
    expect(columnRange(m, 3, 2, 1)).toEqual([2, 2]);
    expect(columnRange(Float32Array.from([NaN]), 1, 1, 0)).toBeNull();
    expect(finiteExtent([m, null, [-1]])).toEqual([-1, 5]);
    expect(finiteExtent([[NaN]])).toBeNull();
  });

  it("nearestIndex searches the computed points only", () => {
    const grid = [0, 1, 2, 4, 8];
    expect(nearestIndex(grid, 5, 2.9)).toBe(2);
    expect(nearestIndex(grid, 5, 3.1)).toBe(3);
    expect(nearestIndex(grid, 2, 7)).toBe(1);
    expect(nearestIndex(grid, 0, 1)).toBe(-1);
  });
});

describe("correlations", () => {
  it("checks and normalizes the list Python sends", () => {
    expect(correlations(undefined)).toEqual([]);
    expect(
      correlations([{ feature: "a", partner: 3, rho: "0.9", message: "m" }]),
    ).toEqual([{ feature: "a", partner: "3", rho: 0.9, message: "m" }]);
    expect(() => correlations("warning text")).toThrow(/must be a list/);
  });
});

describe("drawableSurface", () => {
  it("keeps the grid values that are numbers, with their cells", () => {
    const pack = payloadPacker();
    // average[i, j] = x_i * y_j over x = -2..1 and y = c0..c2 (categorical);
    // x's second value is NaN and only the first 3 rows are computed.
    const curve = curveResult({
      ...twoWayCurve(pack, { ga: 4, gb: 3, done: 3, categoricalY: true }),
      grid: pack([-2, NaN, 0, 1]),
    });
    const { curve: shown, dropped } = drawableSurface(curve);
    expect(dropped).toEqual([1, 0]);
    expect([...shown.x.values]).toEqual([-2, 0, 1]);
    expect(shown.y.labels).toEqual(["c0", "c1", "c2"]);
    expect(shown.gridDone).toBe(2); // rows 0 and 2 of the first 3
    expect([...shown.average.subarray(0, 6)]).toEqual([
      -0, -1, -2, 0, 0, 0,
    ]);
    expect(Number.isNaN(shown.average[6])).toBe(true);
  });

  it("gives nothing to draw when an axis holds no number, the curve itself when all do", () => {
    const pack = payloadPacker();
    const whole = curveResult(twoWayCurve(pack));
    expect(drawableSurface(whole)).toEqual({ curve: whole, dropped: [0, 0] });
    const empty = curveResult({
      ...twoWayCurve(pack, { gb: 2 }),
      grid_y: pack([NaN, NaN]),
    });
    expect(drawableSurface(empty)).toEqual({ curve: null, dropped: [0, 2] });
  });
});
