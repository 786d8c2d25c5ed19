import { describe, expect, it } from "vitest";

import { isolate } from "../charts/format.js";
import { payloadPacker } from "../test_helpers.js";
import { describeCell, h2Result, selectedCell } from "./interaction_data.js";

function payload(pack) {
  return {
    features: ["x0", "x1", "x2"],
    matrix: pack([NaN, 0.9, 0.1, 0.9, NaN, NaN, 0.1, NaN, NaN], [3, 3]),
    one_vs_rest: pack([0.4, 0.35, 0.02]),
    n_samples: 300,
  };
}

describe("h2Result", () => {
  it("decodes the features, the matrix and the one-vs-rest values", () => {
    const h2 = h2Result(payload(payloadPacker()));
    expect(h2.features).toEqual(["x0", "x1", "x2"]);
    expect(h2.matrix[1]).toBeCloseTo(0.9);
    expect(Number.isNaN(h2.matrix[0])).toBe(true);
    expect(h2.oneVsRest[2]).toBeCloseTo(0.02);
    expect(h2.nSamples).toBe(300);
    expect(h2Result({})).toBeNull();
    expect(h2Result(null)).toBeNull();
  });

  it("refuses shapes that do not match the features", () => {
    const pack = payloadPacker();
    const bad = { ...payload(pack), matrix: pack([1, 2, 3, 4], [2, 2]) };
    expect(() => h2Result(bad)).toThrow(/_h2.matrix must have shape \[3, 3\]/);
    const short = { ...payload(pack), one_vs_rest: pack([1]) };
    expect(() => h2Result(short)).toThrow(
      /one_vs_rest must hold 3 values; got 1/,
    );
  });
});

describe("describeCell and selectedCell", () => {
  const h2 = h2Result(payload(payloadPacker()));

  it("words a pair, the diagonal and a pair not computed", () => {
    expect(describeCell(h2, 0, 1)).toEqual([
      ["iw-tooltip-title", `${isolate("x0")} × ${isolate("x1")}: H² = 0.9`],
      ["", `${isolate("x0")} against all others: 0.4`],
      ["", `${isolate("x1")} against all others: 0.35`],
      ["", "click to draw the pair"],
    ]);
    expect(describeCell(h2, 2, 2)[1][1]).toBe(
      "H² against all other features: 0.02",
    );
    const missing = describeCell(h2, 1, 2);
    expect(missing[0][1]).toBe(
      `${isolate("x1")} × ${isolate("x2")}: H² = not defined`,
    );
    expect(missing).toHaveLength(3);
  });

  it("finds the chosen pair's cell", () => {
    expect(selectedCell(h2, ["x1", "x0"])).toEqual({ i: 1, j: 0 });
    expect(selectedCell(h2, ["x1", "x9"])).toBeNull();
    expect(selectedCell(h2, [])).toBeNull();
    expect(selectedCell(null, ["x0", "x1"])).toBeNull();
  });
});
