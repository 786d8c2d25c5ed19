import { describe, expect, it } from "vitest";

import {
  importanceDomain,
  isNegativeRow,
  makeFormats,
  makeRows,
  tooltipLines,
} from "./importance_rows.js";

describe("importanceDomain", () => {
  it("includes zero and every drawn value, padded away from zero", () => {
    const rows = [
      { mean: 0.2, std: 0.05, box: null },
      { mean: -0.1, std: 0.02, box: null },
    ];
    const [lo, hi] = importanceDomain(rows, "bar");
    expect(lo).toBeLessThan(-0.12);
    expect(hi).toBeGreaterThan(0.25);
    expect(
      importanceDomain([{ mean: 0.2, std: 0, box: null }], "bar")[0],
    ).toBe(0);
    expect(importanceDomain([], "bar")).toEqual([0, 1]);
    const boxRows = [{ mean: 0.1, std: 0, box: { min: -0.5, max: 2 } }];
    const [blo, bhi] = importanceDomain(boxRows, "box");
    expect(blo).toBeLessThan(-0.5);
    expect(bhi).toBeGreaterThan(2);
  });
});

describe("isNegativeRow", () => {
  it("follows the mean for bars and the median for boxes", () => {
    const row = { mean: -0.1, box: { median: 0.02 } };
    expect(isNegativeRow(row, "bar")).toBe(true);
    expect(isNegativeRow(row, "box")).toBe(false);
    expect(isNegativeRow({ mean: 0.1, box: { median: -0.02 } }, "box")).toBe(
      true,
    );
    expect(isNegativeRow({ mean: -0.1, box: null }, "box")).toBe(false);
  });
});

describe("error bars of a resampled result", () => {
  const data = {
    features: ["a", "b"],
    mean: Float32Array.from([0.5, 0.1]),
    std: Float32Array.from([0.1, 0.05]),
    values: null,
    repeatsDone: 5,
    baseline: 0.9,
    permutedMean: null,
    scorer: "r2",
  };

  it("span `spread` std either side, and the tooltip says what they are", () => {
    const plain = makeRows(data);
    expect(plain.map((r) => r.std)).toEqual([...data.std]);
    const cv = { ...data, spread: 1.96, spreadLabel: "1.96 std across folds" };
    const rows = makeRows(cv);
    expect(rows[0].std).toBeCloseTo(1.96 * data.std[0], 6);
    expect(rows[1].std).toBeCloseTo(1.96 * data.std[1], 6);
    // The domain reaches the end of the widest interval.
    expect(importanceDomain(rows, "bar")[1]).toBeGreaterThan(0.5 + 0.196);
    const lines = tooltipLines(rows[0], "bar", cv, makeFormats(cv));
    expect(lines[1][1]).toMatch(/\(mean ± 1\.96 std across folds\)$/);
    // A long label wraps inside the tooltip instead of running out of it.
    expect(lines[1][0]).toBe("iw-tooltip-wrap");
  });
});

describe("the held-out interval", () => {
  const data = {
    features: ["a", "b"],
    mean: Float32Array.from([0.5, 0.1]),
    std: Float32Array.from([0.1, 0.05]),
    values: null,
    repeatsDone: 5,
    baseline: 0.9,
    permutedMean: null,
    scorer: "r2",
    intervalLow: Float32Array.from([0.25, -0.125]),
    intervalHigh: Float32Array.from([0.75, 0.375]),
    intervalLabel: "95 % interval over resampled held-out rows",
  };

  it("is a tooltip line beside the repeats' spread, with its own ends", () => {
    const rows = makeRows(data);
    const lines = tooltipLines(rows[1], "bar", data, makeFormats(data));
    const texts = lines.map((l) => l[1]);
    expect(texts[1]).toMatch(/\(mean ± std\)$/);
    expect(texts[2]).toBe(
      "95 % interval over resampled held-out rows: [\u22120.125, 0.375]",
    );
  });

  it("is absent from a result without resamples", () => {
    const plain = { ...data, intervalLow: null, intervalHigh: null };
    const rows = makeRows(plain);
    const texts = tooltipLines(rows[0], "bar", plain, makeFormats(plain)).map(
      (l) => l[1],
    );
    expect(texts.some((t) => t.includes("interval"))).toBe(false);
  });
});
