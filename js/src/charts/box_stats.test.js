import { describe, expect, it } from "vitest";

import { boxStats, percentileSorted } from "./box_stats.js";

// Expected numbers were computed with numpy 2.4 / matplotlib 3.11:
//   np.percentile(x, [25, 50, 75])          (default method="linear")
//   matplotlib.cbook.boxplot_stats(x)[0]    (whis=1.5)

describe("percentileSorted", () => {
  it("interpolates linearly between closest ranks like numpy", () => {
    // np.percentile([1, 2, 3, 4], [0, 25, 50, 75, 100]) -> [1, 1.75, 2.5, 3.25, 4]
    const x = [1, 2, 3, 4];
    expect([0, 25, 50, 75, 100].map((p) => percentileSorted(x, p))).toEqual([
      1, 1.75, 2.5, 3.25, 4,
    ]);
  });

  it("returns the only value of a single-element array", () => {
    expect(percentileSorted([5], 25)).toBe(5);
    expect(percentileSorted([5], 75)).toBe(5);
  });
});

describe("boxStats", () => {
  it("matches numpy quartiles and matplotlib whiskers without outliers", () => {
    // x = [3, 1, 4, 1, 5, 9, 2, 6]
    // np.percentile(x, [25, 50, 75]) -> [1.75, 3.5, 5.25]
    // boxplot_stats: whislo=1, whishi=9 (9 <= 5.25 + 1.5 * 3.5 = 10.5), no fliers
    const s = boxStats([3, 1, 4, 1, 5, 9, 2, 6]);
    expect(s.q1).toBeCloseTo(1.75, 12);
    expect(s.median).toBeCloseTo(3.5, 12);
    expect(s.q3).toBeCloseTo(5.25, 12);
    expect(s.whiskerLow).toBe(1);
    expect(s.whiskerHigh).toBe(9);
    expect(s.outliers).toEqual([]);
    expect(s.n).toBe(8);
  });

  it("puts values beyond 1.5 IQR in outliers and stops the whisker inside", () => {
    // x = [0.1, 0.2, 0.15, 0.12, 2.0]
    // np.percentile(x, [25, 50, 75]) -> [0.12, 0.15, 0.2]; IQR 0.08, limit 0.32
    // boxplot_stats: whislo=0.1, whishi=0.2, fliers=[2.0]
    const s = boxStats([0.1, 0.2, 0.15, 0.12, 2.0]);
    expect(s.q1).toBeCloseTo(0.12, 12);
    expect(s.median).toBeCloseTo(0.15, 12);
    expect(s.q3).toBeCloseTo(0.2, 12);
    expect(s.whiskerLow).toBeCloseTo(0.1, 12);
    expect(s.whiskerHigh).toBeCloseTo(0.2, 12);
    expect(s.outliers).toEqual([2.0]);
    expect(s.min).toBeCloseTo(0.1, 12);
    expect(s.max).toBe(2.0);
  });

  it("handles negative importances and outliers on both sides", () => {
    // x = [-0.05, 0.01, 0.02, 0.03, 0.04, -1.0, 0.025]
    // np.percentile(x, [25, 50, 75]) -> [-0.02, 0.02, 0.0275]
    // boxplot_stats: whislo=-0.05, whishi=0.04, fliers=[-1.0]
    const s = boxStats([-0.05, 0.01, 0.02, 0.03, 0.04, -1.0, 0.025]);
    expect(s.q1).toBeCloseTo(-0.02, 12);
    expect(s.median).toBeCloseTo(0.02, 12);
    expect(s.q3).toBeCloseTo(0.0275, 12);
    expect(s.whiskerLow).toBeCloseTo(-0.05, 12);
    expect(s.whiskerHigh).toBeCloseTo(0.04, 12);
    expect(s.outliers).toEqual([-1.0]);

    // x = [1, 2, 3, 4, 100, -50]
    // np.percentile(x, [25, 50, 75]) -> [1.25, 2.5, 3.75]
    // boxplot_stats: whislo=1, whishi=4, fliers=[-50, 100]
    const t = boxStats([1, 2, 3, 4, 100, -50]);
    expect([t.q1, t.median, t.q3]).toEqual([1.25, 2.5, 3.75]);
    expect([t.whiskerLow, t.whiskerHigh]).toEqual([1, 4]);
    expect(t.outliers).toEqual([-50, 100]);
  });

  it("handles one and two values", () => {
    // np.percentile([5], [25, 50, 75]) -> [5, 5, 5]
    expect(boxStats([5])).toMatchObject({
      q1: 5,
      median: 5,
      q3: 5,
      whiskerLow: 5,
      whiskerHigh: 5,
      outliers: [],
    });
    // np.percentile([2, 8], [25, 50, 75]) -> [3.5, 5, 6.5]; whiskers 2 and 8
    expect(boxStats([2, 8])).toMatchObject({
      q1: 3.5,
      median: 5,
      q3: 6.5,
      whiskerLow: 2,
      whiskerHigh: 8,
      outliers: [],
    });
  });

  it("accepts a Float32Array row and ignores non-finite values", () => {
    const buffer = new Float32Array([9, 4, 1, NaN, 3, 2, Infinity, 9]);
    const s = boxStats(buffer.subarray(1, 7)); // [4, 1, NaN, 3, 2, Infinity]
    // np.percentile([4, 1, 3, 2], [25, 50, 75]) -> [1.75, 2.5, 3.25]
    expect([s.q1, s.median, s.q3]).toEqual([1.75, 2.5, 3.25]);
    expect(s.n).toBe(4);
    expect(buffer[1]).toBe(4); // input not reordered
  });

  it("returns null when nothing is finite", () => {
    expect(boxStats([])).toBeNull();
    expect(boxStats([NaN, NaN])).toBeNull();
  });
});
