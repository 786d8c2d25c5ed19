import { describe, expect, it } from "vitest";

import {
  correlationResult,
  flagSummary,
  groupsResult,
  isEmpty,
  measuresResult,
  percent,
  perClassResult,
  sameThreshold,
  sortChoices,
  splitNotes,
  flagIntervals,
  sortedBy,
} from "./comparison_data.js";
import {
  INFLATED_MDI,
  NEGATIVE,
  OVERFIT,
  WITHIN_NOISE,
  correlationPayload,
  groupsPayload,
  measuresPayload,
  payloadPacker,
  perClassPayload,
} from "../test_helpers.js";

const f32 = (values) => [...Float32Array.from(values)];

describe("measuresResult", () => {
  it("decodes every measure from DataViews at non-zero offsets", () => {
    const payload = measuresPayload(payloadPacker());
    expect(payload.measures[0].values.data.byteOffset).toBeGreaterThan(0);
    const result = measuresResult(payload);
    expect(result.features).toEqual(["bmi", "s5", "bp", "age"]);
    expect(result.measures.map((m) => m.key)).toEqual([
      "mdi",
      "relative_importance",
      "permutation_train",
      "permutation_test",
    ]);
    const [mdi, , , test] = result.measures;
    expect([...mdi.values]).toEqual(f32([0.4, 0.3, 0.2, 0.1]));
    expect([...mdi.normalized]).toEqual(f32([1, 0.75, 0.5, 0.25]));
    expect(mdi.std).toBeNull();
    expect(mdi.normalizedStd).toBeNull();
    expect([...test.std]).toEqual(f32([0.01, 0.01, 0.03, 0.004]));
    expect([...test.low]).toEqual(f32([0.28, 0.18, -0.01, -0.018]));
    expect([...test.high]).toEqual(f32([0.32, 0.22, 0.11, -0.002]));
    expect([...test.withinNoise]).toEqual([0, 0, 1, 0]);
    expect(test.units).toBe("decrease in r2");
    expect(mdi.units).toBe("share of the impurity decrease");
    expect(mdi.low).toBeNull();
    expect(mdi.withinNoise).toBeNull();
    expect(test.normalizedStd).toHaveLength(4);
    expect(result.notes[3]).toBe(NEGATIVE);
    expect(result).toMatchObject({
      repeatsDone: 5,
      nRepeats: 10,
      scorer: "r2",
      baselineTrain: 0.91,
      baselineTest: 0.452,
      sortBy: "permutation_test",
      withinNoiseNote: WITHIN_NOISE,
    });
    expect(result.flagEvidence[OVERFIT]).toEqual([
      "permutation_train",
      "permutation_test",
    ]);
  });

  it("accepts absent measures, missing notes and an unknown train baseline", () => {
    const payload = measuresPayload(payloadPacker(), {
      only: ["permutation_test"],
    });
    payload.baseline_train = null;
    payload.notes = [];
    const result = measuresResult(payload);
    expect(result.measures.map((m) => m.key)).toEqual(["permutation_test"]);
    expect(result.notes).toEqual(["", "", "", ""]);
    expect(result.baselineTrain).toBeNaN();
  });

  it("returns null before the first result and rejects wrong lengths", () => {
    expect(measuresResult({})).toBeNull();
    expect(measuresResult(undefined)).toBeNull();
    const pack = payloadPacker();
    const payload = measuresPayload(pack);
    payload.measures[1].normalized = pack([1, 2, 3]);
    expect(() => measuresResult(payload)).toThrow(
      /relative_importance\.normalized has shape \[3\]; expected \[4\]/,
    );
  });
});

describe("perClassResult, correlationResult, groupsResult", () => {
  it("decode their payloads", () => {
    const pack = payloadPacker();
    const perClass = perClassResult(perClassPayload(pack));
    expect(perClass.classes).toEqual(["setosa", "versicolor", "virginica"]);
    expect(perClass.values).toHaveLength(12);
    expect(perClass.values[5]).toBe(100); // versicolor, bmi

    const correlation = correlationResult(correlationPayload(pack));
    expect(correlation.features).toEqual(["s5", "bp", "bmi", "age"]);
    expect(correlation.leafOrder).toEqual([1, 2, 0, 3]);
    expect(correlation.matrix).toHaveLength(16);
    expect(correlation.linkage).toHaveLength(12);
    expect(correlation.maxDistance).toBe(1);

    const groups = groupsResult(groupsPayload(pack));
    expect(groups.labels).toEqual(["s5 + bp", "bmi + age"]);
    expect(groups.members).toEqual([
      ["s5", "bp"],
      ["bmi", "age"],
    ]);
    expect([...groups.mean]).toEqual(f32([0.35, 0.12]));
    expect(groups).toMatchObject({
      correlationThreshold: 0.4,
      repeatsDone: 4,
      nRepeats: 10,
    });

    expect(perClassResult({})).toBeNull();
    expect(correlationResult({})).toBeNull();
    expect(groupsResult({})).toBeNull();
  });

  it("reject malformed shapes and leaf orders", () => {
    const pack = payloadPacker();
    const perClass = perClassPayload(pack);
    perClass.values = pack([1, 2, 3], [1, 3]);
    expect(() => perClassResult(perClass)).toThrow(/expected \[3,4\]/);
    const correlation = correlationPayload(pack);
    correlation.leaf_order = [0, 0, 1, 2];
    expect(() => correlationResult(correlation)).toThrow(
      /permutation of 0\.\.3/,
    );
    const misaligned = correlationPayload(pack);
    misaligned.linkage = pack([1, 2, 0.2, 2], [1, 4]);
    expect(() => correlationResult(misaligned)).toThrow(/expected \[3,4\]/);
  });
});

describe("splitNotes and flagSummary", () => {
  it("splits on '; ' but keeps a flag whose explanation contains '; '", () => {
    const continued = "headline: an explanation; with a second clause";
    expect(splitNotes("")).toEqual([]);
    expect(splitNotes(continued)).toEqual([continued]);
    expect(splitNotes(`${OVERFIT}; ${continued}`)).toEqual([
      OVERFIT,
      continued,
    ]);
    expect(splitNotes(NEGATIVE)).toEqual([NEGATIVE]);
    expect(splitNotes(`${OVERFIT}; ${INFLATED_MDI}`)).toEqual([
      OVERFIT,
      INFLATED_MDI,
    ]);
    expect(splitNotes(`${INFLATED_MDI}; ${NEGATIVE}`)).toEqual([
      INFLATED_MDI,
      NEGATIVE,
    ]);
  });

  it("lists each distinct flag once with its features, headline first", () => {
    const summary = flagSummary(
      ["a", "b", "c"],
      [NEGATIVE, `${OVERFIT}; ${NEGATIVE}`, ""],
    );
    expect(summary.map((f) => f.features)).toEqual([["a", "b"], ["b"]]);
    expect(summary[0].headline).toBe("negative test importance");
    expect(summary[0].explanation).toMatch(/^permuting it improved/);
    expect(summary[0].explanation).toMatch(/hurts on new data$/);
    expect(summary[1].headline).toBe("train importance far above test");
    expect(flagSummary(["x"], ["plain flag"])).toEqual([
      {
        text: "plain flag",
        headline: "plain flag",
        explanation: "",
        features: ["x"],
      },
    ]);
  });
});

describe("small helpers", () => {
  it("isEmpty, percent, sameThreshold", () => {
    expect(isEmpty({})).toBe(true);
    expect(isEmpty(null)).toBe(true);
    expect(isEmpty({ a: 1 })).toBe(false);
    expect(percent(0.456)).toBe("45%");
    expect(percent(2)).toBe("100%");
    expect(percent(undefined)).toBe("0%");
    expect(sameThreshold(0.6, Math.fround(0.6))).toBe(true);
    expect(sameThreshold(0.6, 0.61)).toBe(false);
  });
});

describe("flagIntervals and sortChoices", () => {
  it("gives the intervals a flag rests on, as Python names them", () => {
    const result = measuresResult(measuresPayload(payloadPacker()));
    const [overfit] = flagIntervals(result, OVERFIT, 2).map((i) => i.label);
    expect(overfit).toBe("Permutation (train)");
    const [test] = flagIntervals(result, NEGATIVE, 3);
    expect(test).toMatchObject({
      label: "Permutation (test)",
      units: "decrease in r2",
    });
    expect(test.low).toBeCloseTo(-0.018, 6);
    expect(test.high).toBeCloseTo(-0.002, 6);
    expect(flagIntervals(result, OVERFIT, 2)).toHaveLength(2);
    expect(flagIntervals(result, "unknown flag: text", 0)).toEqual([]);
    // A measure without intervals (not computed yet) gives none.
    const partial = measuresResult(
      measuresPayload(payloadPacker(), { only: ["mdi", "permutation_test"] }),
    );
    expect(flagIntervals(partial, OVERFIT, 2).map((i) => i.label)).toEqual([
      "Permutation (test)",
    ]);
  });

  it("offers the measures present, and keeps an unknown current key", () => {
    const payload = measuresPayload(payloadPacker(), {
      only: ["permutation_train", "permutation_test"],
    });
    expect(sortChoices(payload, "permutation_test")).toEqual([
      ["permutation_train", "Permutation (train)"],
      ["permutation_test", "Permutation (test)"],
    ]);
    expect(sortChoices(payload, "mdi").at(-1)).toEqual(["mdi", "mdi"]);
    expect(sortChoices({}, "permutation_test")).toEqual([
      ["permutation_test", "permutation test"],
    ]);
  });
});

describe("sortedBy", () => {
  it("orders features and every per-feature array by a measure, NaN last", () => {
    const pack = payloadPacker();
    const result = measuresResult(
      measuresPayload(pack, { mdi: [0.1, NaN, 0.4, 0.2] }),
    );
    expect(sortedBy(result, "permutation_test")).toBe(result); // already
    expect(sortedBy(result, "unknown")).toBe(result);
    const byMdi = sortedBy(result, "mdi");
    expect(byMdi.features).toEqual(["bp", "age", "bmi", "s5"]);
    expect(byMdi.sortBy).toBe("mdi");
    expect(byMdi.notes).toEqual([
      result.notes[2],
      result.notes[3],
      result.notes[0],
      result.notes[1],
    ]);
    const test = (r) => r.measures.find((m) => m.key === "permutation_test");
    expect([...test(byMdi).values]).toEqual(
      [2, 3, 0, 1].map((i) => test(result).values[i]),
    );
    expect([...test(byMdi).withinNoise]).toEqual(
      [2, 3, 0, 1].map((i) => test(result).withinNoise[i]),
    );
    expect(byMdi.measures.find((m) => m.key === "mdi").std).toBeNull();
  });
});
