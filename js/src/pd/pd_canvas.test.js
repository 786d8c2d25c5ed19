import { describe, expect, it } from "vitest";

import { paintIce } from "./pd_canvas.js";

/** A context that records the pen's moves. */
function recorder() {
  const calls = [];
  const record =
    (name) =>
    (...args) =>
      calls.push([name, ...args]);
  return {
    calls,
    context: {
      save() {},
      restore() {},
      beginPath: record("begin"),
      moveTo: record("move"),
      lineTo: record("line"),
      stroke: record("stroke"),
    },
  };
}

const curves = (steps) => ({
  values: [1, 2, NaN, 4],
  rows: 1,
  cols: 4,
  done: 4,
  xs: [0, 10, 20, 30],
  y0: 0,
  ky: 1,
  color: "#000",
  alpha: 1,
  steps,
});

describe("paintIce", () => {
  it("joins points with straight segments by default", () => {
    const { calls, context } = recorder();
    expect(paintIce(context, curves(false))).toBe(1);
    expect(calls.filter(([n]) => n !== "begin" && n !== "stroke")).toEqual([
      ["move", 0, 1],
      ["line", 10, 2],
      ["move", 30, 4], // NaN lifted the pen
    ]);
  });

  it("draws steps: each value holds from the previous point on", () => {
    const { calls, context } = recorder();
    paintIce(context, {
      ...curves(true),
      values: [1, 2, 3, 3],
    });
    expect(calls.filter(([n]) => n !== "begin" && n !== "stroke")).toEqual([
      ["move", 0, 1],
      ["line", 0, 2], // rises at x=0: the value 2 holds on (0, 10]
      ["line", 10, 2],
      ["line", 10, 3],
      ["line", 20, 3],
      ["line", 20, 3],
      ["line", 30, 3],
    ]);
  });
});
