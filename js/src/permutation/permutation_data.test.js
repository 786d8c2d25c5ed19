import { describe, expect, it } from "vitest";

import { R2, makeChart } from "../test_helpers.js";
import {
  MAX_SUBGROUP_LINES,
  progressText,
  scorerResult,
  subgroupLines,
  topFeatures,
} from "./permutation_data.js";

describe("scorerResult", () => {
  it("decodes DataViews at non-zero offsets, including misaligned ones", () => {
    const chart = makeChart({ r2: R2 });
    const result = scorerResult(chart, "r2");
    expect(chart.scorers.r2.mean.data.byteOffset).toBeGreaterThan(0);
    expect(result.features).toEqual(["bmi", "s5", "bp"]);
    expect([...result.mean]).toEqual([...Float32Array.from(R2.mean)]);
    expect(result.repeatsDone).toBe(3);
    expect(result.values).toHaveLength(9);

    const bytes = new Uint8Array(3 + 12);
    new Uint8Array(Float32Array.from([1, 2, 3]).buffer).forEach((b, i) => {
      bytes[3 + i] = b;
    });
    chart.scorers.r2.std = {
      data: new DataView(bytes.buffer, 3, 12),
      dtype: "float32",
      shape: [3],
    };
    expect([...scorerResult(chart, "r2").std]).toEqual([1, 2, 3]);
  });

  it("returns null without a result for the scorer", () => {
    expect(scorerResult({}, "r2")).toBeNull();
    expect(scorerResult(null, "r2")).toBeNull();
    expect(scorerResult(makeChart({ r2: R2 }), "accuracy")).toBeNull();
  });
});

describe("topFeatures", () => {
  it("takes the result's order, then fills from the options", () => {
    const options = ["a", "b", "c", "d"];
    expect(topFeatures({ features: ["c", "a"] }, options, 1)).toEqual(["c"]);
    expect(topFeatures({ features: ["c", "a"] }, options, 3)).toEqual([
      "c",
      "a",
      "b",
    ]);
    expect(topFeatures(null, options, 2)).toEqual(["a", "b"]);
    expect(topFeatures({ features: ["gone", "d"] }, options, 1)).toEqual(["d"]);
  });
});

describe("scorerResult of a resampled result", () => {
  it("reads how wide the error bars are, 1 std by default", () => {
    const chart = makeChart({ r2: R2 });
    expect(scorerResult(chart, "r2").spread).toBe(1);
    expect(scorerResult(chart, "r2").spreadLabel).toBe("std");
    const cv = { ...chart, spread: 1.96, spread_label: "±1.96 std across folds" };
    expect(scorerResult(cv, "r2").spread).toBe(1.96);
    expect(scorerResult(cv, "r2").spreadLabel).toBe("±1.96 std across folds");
    expect(scorerResult(chart, "r2").baselineNote).toBe("");
  });
});

describe("progressText", () => {
  const base = {
    repeatsDone: 12,
    repeatsTotal: 30,
    etaSeconds: 4.4,
    elapsedSeconds: 3.21,
    hasResult: true,
  };
  it("describes each status", () => {
    expect(progressText({ ...base, status: "running" })).toBe(
      "12 / 30 repeats · about 4 s left",
    );
    expect(progressText({ ...base, status: "running", etaSeconds: -1 })).toBe(
      "12 / 30 repeats",
    );
    // Cross-validated and out-of-bag results count folds and members.
    expect(
      progressText({ ...base, status: "running", etaSeconds: -1, unit: "folds" }),
    ).toBe("12 / 30 folds");
    expect(progressText({ ...base, status: "running", etaSeconds: 0.2 })).toBe(
      "12 / 30 repeats · under 1 s left",
    );
    expect(progressText({ ...base, status: "running", etaSeconds: 125 })).toBe(
      "12 / 30 repeats · about 2 min 5 s left",
    );
    expect(progressText({ ...base, status: "done" })).toBe("done in 3.2 s");
    expect(
      progressText({ ...base, status: "done", elapsedSeconds: 0.02 }),
    ).toBe("done in <0.1 s");
    expect(progressText({ ...base, status: "cancelled" })).toBe(
      "cancelled at 12 / 30",
    );
    expect(progressText({ ...base, status: "error" })).toBe("error");
    expect(progressText({ ...base, status: "idle" })).toBe("ready");
    expect(progressText({ ...base, status: "idle", hasResult: false })).toBe(
      "not run yet",
    );
  });
  it("counts the first repeat's features while they come", () => {
    const first = { ...base, repeatsDone: 0, featuresDone: 7, featuresPending: 23 };
    expect(progressText({ ...first, status: "running" })).toBe(
      "repeat 1: 7 / 30 features · about 4 s left",
    );
    expect(progressText({ ...first, status: "cancelled" })).toBe(
      "cancelled at repeat 1: 7 / 30 features",
    );
    // Once the round is done the repeats are counted again.
    expect(
      progressText({ ...first, repeatsDone: 1, featuresPending: 0, status: "running" }),
    ).toBe("1 / 30 repeats · about 4 s left");
  });
});

describe("scorerResult with a held-out interval", () => {
  it("decodes its ends and label, and is null without them", () => {
    const chart = makeChart({ r2: R2 });
    expect(scorerResult(chart, "r2").intervalLow).toBeNull();
    expect(scorerResult(chart, "r2").intervalLabel).toBe("");
    const ends = (values) => ({
      data: new DataView(Float32Array.from(values).buffer),
      dtype: "float32",
      shape: [values.length],
    });
    const withInterval = {
      ...chart,
      interval_label: "95 % interval over resampled held-out rows",
      scorers: {
        r2: {
          ...chart.scorers.r2,
          interval_low: ends([0.25, 0.125, -0.5]),
          interval_high: ends([0.5, 0.25, 0.5]),
        },
      },
    };
    const result = scorerResult(withInterval, "r2");
    expect([...result.intervalLow]).toEqual([0.25, 0.125, -0.5]);
    expect([...result.intervalHigh]).toEqual([0.5, 0.25, 0.5]);
    expect(result.intervalLabel).toBe("95 % interval over resampled held-out rows");
    withInterval.scorers.r2.interval_low = ends([0.25]);
    expect(() => scorerResult(withInterval, "r2")).toThrow(RangeError);
  });
});

describe("subgroupLines", () => {
  it("lists each feature's subgroups with their rows, in the features' order", () => {
    const subgroups = {
      bmi: [
        ["s5 <= 0.025 and bp <= 0.012", 89],
        ["s5 > 0.025", 1234],
      ],
      bp: [["all rows", 442]],
    };
    expect(subgroupLines(subgroups, ["bp", "bmi", "age"])).toEqual([
      ["1 subgroup: \u2068all rows\u2069 (442 rows; no other feature predicts it)"],
      [
        "2 subgroups:",
        "\u2068s5 <= 0.025 and bp <= 0.012\u2069 (89 rows)",
        "\u2068s5 > 0.025\u2069 (1,234 rows)",
      ],
      [],
    ]);
  });

  it("counts the subgroups beyond the lines shown", () => {
    const many = Array.from({ length: MAX_SUBGROUP_LINES + 3 }, (_, i) => [
      `x <= ${i}`,
      1,
    ]);
    const [lines] = subgroupLines({ f: many }, ["f"]);
    expect(lines[0]).toBe(`${MAX_SUBGROUP_LINES + 3} subgroups:`);
    expect(lines[1]).toBe("\u2068x <= 0\u2069 (1 row)");
    expect(lines).toHaveLength(MAX_SUBGROUP_LINES + 2);
    expect(lines.at(-1)).toBe("… 3 more subgroups");
  });

  it("gives no lines for a marginal or malformed payload", () => {
    expect(subgroupLines(undefined, ["a"])).toEqual([[]]);
    expect(subgroupLines({}, ["a"])).toEqual([[]]);
    expect(subgroupLines({ a: "nope" }, ["a"])).toEqual([[]]);
    expect(subgroupLines(null, [])).toEqual([]);
  });

  it("reaches scorerResult's details, aligned with its features", () => {
    const chart = {
      ...makeChart({ r2: R2 }),
      method: "conditional",
      subgroups: { s5: [["all rows", 10]], bmi: [["a", 4], ["b", 6]] },
    };
    const result = scorerResult(chart, "r2");
    expect(result.method).toBe("conditional");
    expect(result.details).toEqual([
      ["2 subgroups:", "\u2068a\u2069 (4 rows)", "\u2068b\u2069 (6 rows)"],
      ["1 subgroup: \u2068all rows\u2069 (10 rows; no other feature predicts it)"],
      [],
    ]);
    expect(scorerResult(makeChart({ r2: R2 }), "r2").method).toBe("marginal");
  });
});
