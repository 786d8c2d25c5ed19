import { describe, expect, it } from "vitest";

import { importanceDomain, isNegativeRow } from "./importance_rows.js";

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
