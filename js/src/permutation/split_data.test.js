import { describe, expect, it } from "vitest";

import { payloadPacker, splitChart } from "../test_helpers.js";
import { isSplit, splitBaselineText, splitResult } from "./split_data.js";

describe("splitResult", () => {
  it("decodes the subgroups and their (subgroups, features) arrays", () => {
    const chart = splitChart();
    expect(isSplit(chart)).toBe(true);
    expect(isSplit({ scorers: {} })).toBe(false);
    const result = splitResult(chart, "r2");
    expect(result.features).toEqual(["tenure", "plan"]);
    expect(result.groups).toEqual([
      { label: "basic", size: 120, small: false },
      { label: "pro", size: 95, small: false },
      { label: "missing", size: 12, small: true },
    ]);
    expect(result.minSize).toBe(30);
    expect(Array.from(result.mean.slice(2, 4))).toEqual([
      expect.closeTo(0.5, 6),
      0,
    ]);
    expect(Number.isNaN(result.mean[4])).toBe(true);
    expect(result.nHidden).toBe(1);
    expect(result.repeatsDone).toBe(2);
    expect(splitResult(chart, "accuracy")).toBeNull();
  });

  it("refuses arrays that are not (subgroups, features)", () => {
    const pack = payloadPacker();
    const chart = splitChart(pack);
    chart.scorers.r2.mean = pack([0.3, 0.1, 0.5, 0.0], [2, 2]);
    expect(() => splitResult(chart, "r2")).toThrow(
      /r2\.mean has shape \[2,2\]; expected \[3, 2\]/,
    );
  });

  it("writes each subgroup's baseline, n/a where it has none", () => {
    const result = splitResult(splitChart(), "r2");
    expect(splitBaselineText(result, "r2", "plan")).toBe(
      "split by \u2068plan\u2069: baseline r2 = 0.8 (\u2068basic\u2069), 0.75 (\u2068pro\u2069), n/a (\u2068missing\u2069)",
    );
  });
});
