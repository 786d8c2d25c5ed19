import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { measuresResult, splitNotes } from "../comparison/comparison_data.js";
import { NEGATIVE, measuresPayload, payloadPacker } from "../test_helpers.js";
import { createTooltip } from "../ui/tooltip.js";
import { createDotPlot, dotDomain, measureColors } from "./dot_plot.js";
import { TRANSITION_MS } from "./chart_base.js";

let container;
let tooltip;
beforeEach(() => {
  container = document.createElement("div");
  document.body.append(container);
  tooltip = createTooltip(container, { testid: "tip" });
});
afterEach(() => container.remove());

function plotData(options) {
  const result = measuresResult(measuresPayload(payloadPacker(), options));
  return {
    features: result.features,
    measures: result.measures,
    flags: result.notes.map(splitNotes),
    axisTitle: "normalized importance",
  };
}
const rows = () => [...container.querySelectorAll('[data-testid="icw-row"]')];
const rowOf = (feature) =>
  rows().find((r) => r.getAttribute("data-feature") === feature);
const dotOf = (feature, measure) =>
  rowOf(feature).querySelector(
    `[data-testid="icw-dot"][data-measure="${measure}"]`,
  );
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

describe("createDotPlot", () => {
  it("draws a row per feature and a dot per measure on one scale", () => {
    const chart = createDotPlot(container, { tooltip, duration: 0 });
    chart.update(plotData());
    expect(rows().map((r) => r.getAttribute("data-feature"))).toEqual([
      "bmi",
      "s5",
      "bp",
      "age",
    ]);
    expect(container.querySelectorAll('[data-testid="icw-dot"]')).toHaveLength(
      16,
    );
    // Every measure's largest value is 1 on the shared scale: same x.
    const cx = (f, m) => Number(dotOf(f, m).getAttribute("cx"));
    expect(cx("bmi", "mdi")).toBeCloseTo(cx("bmi", "permutation_test"), 6);
    // age: MDI 0.25 of its max, test permutation below 0, left of the zero line.
    const zero = Number(
      container.querySelector("line.icw-zero").getAttribute("x1"),
    );
    expect(cx("age", "permutation_test")).toBeLessThan(zero);
    expect(cx("age", "mdi")).toBeGreaterThan(zero);
    // The range line joins the lowest and highest dot of the row: test
    // permutation (−0.03) and relative importance (0.3) for age.
    const range = rowOf("age").querySelector("line.icw-range");
    expect(Number(range.getAttribute("x1"))).toBeCloseTo(
      cx("age", "permutation_test"),
      6,
    );
    expect(Number(range.getAttribute("x2"))).toBeCloseTo(
      cx("age", "relative_importance"),
      6,
    );
    // Whiskers only for the permutation measures.
    const whisker = (f, m) =>
      rowOf(f).querySelector(
        `g.icw-measure[data-measure="${m}"] line.icw-whisker`,
      );
    expect(whisker("bmi", "mdi").getAttribute("display")).toBe("none");
    expect(
      whisker("bmi", "permutation_train").getAttribute("display"),
    ).toBeNull();
    // Legend: one item per measure, in order, with its label as text.
    const legend = [...container.querySelectorAll(".icw-legend-item")];
    expect(legend.map((i) => i.textContent)).toEqual([
      "MDI (train, impurity)",
      "ESL relative importance",
      "Permutation (train)",
      "Permutation (test)",
    ]);
    chart.destroy();
  });

  it("marks flagged features and shows raw values and notes on hover", () => {
    const chart = createDotPlot(container, { tooltip, duration: 0 });
    chart.update(plotData());
    const flags = [...container.querySelectorAll('[data-testid="icw-flag"]')];
    expect(
      flags.map((f) => f.closest("g.icw-row").getAttribute("data-feature")),
    ).toEqual(["bp", "age"]);
    rowOf("age").dispatchEvent(new Event("pointermove", { bubbles: true }));
    const lines = [...tooltip.node.children].map((d) => d.textContent);
    expect(lines).toEqual([
      "age",
      "MDI (train, impurity): 0.1 (share of the impurity decrease)",
      "ESL relative importance: 30 (% of the top feature)",
      "Permutation (train): 0.05 ± 0.01 (decrease in r2), interval 0.03 to 0.07",
      "Permutation (test): −0.01 ± 0.004 (decrease in r2), interval −0.018 to −0.002",
      `⚠ ${NEGATIVE}`,
    ]);
    rowOf("bp").dispatchEvent(new Event("pointermove", { bubbles: true }));
    expect(tooltip.node.querySelectorAll(".icw-tooltip-flag")).toHaveLength(2);
    container.querySelector("svg").dispatchEvent(new Event("pointerleave"));
    expect(tooltip.visible()).toBe(false);
    chart.destroy();
  });

  it("keeps row and dot nodes across live updates, keyed by name", async () => {
    const chart = createDotPlot(container, { tooltip });
    chart.update(plotData({ only: ["mdi", "permutation_test"] }));
    const bmiRow = rowOf("bmi");
    const bmiDot = dotOf("bmi", "mdi");
    const ageRow = rowOf("age");
    // More repeats: the train measure arrives and the order changes.
    chart.update(
      plotData({
        features: ["s5", "bmi", "age", "bp"],
        test: [0.35, 0.2, 0.02, -0.01],
      }),
    );
    expect(rowOf("bmi")).toBe(bmiRow);
    expect(dotOf("bmi", "mdi")).toBe(bmiDot);
    expect(rowOf("age")).toBe(ageRow);
    expect(rows().map((r) => r.getAttribute("data-feature"))).toEqual([
      "s5",
      "bmi",
      "age",
      "bp",
    ]);
    expect(dotOf("bmi", "permutation_train")).not.toBeNull();
    const svg = container.querySelector("svg.icw-dot-svg");
    expect(svg.getAttribute("data-settled")).toBe("false");
    await sleep(TRANSITION_MS + 150);
    expect(svg.getAttribute("data-settled")).toBe("true");
    chart.destroy();
  });

  it("hides the dots of a measure not computed yet (NaN)", () => {
    const chart = createDotPlot(container, { tooltip, duration: 0 });
    chart.update(plotData({ train: [NaN, NaN, NaN, NaN] }));
    expect(
      container.querySelectorAll(
        '[data-testid="icw-dot"][data-measure="permutation_train"]',
      ),
    ).toHaveLength(0);
    expect(
      container.querySelectorAll('[data-testid="icw-dot"][data-measure="mdi"]'),
    ).toHaveLength(4);
    chart.destroy();
  });

  it("keeps hostile feature names as text", () => {
    const evil = "<img src=x onerror=alert(1)>";
    const chart = createDotPlot(container, { tooltip, duration: 0 });
    chart.update(plotData({ features: [evil, "s5", "bp", "age"] }));
    expect(container.querySelector("img")).toBeNull();
    expect(rows()[0].getAttribute("data-feature")).toBe(evil);
    expect(rows()[0].querySelector("title").textContent).toBe(evil);
    rows()[0].dispatchEvent(new Event("pointermove", { bubbles: true }));
    expect(tooltip.node.firstChild.textContent).toBe(evil);
    expect(container.querySelector("img")).toBeNull();
    chart.destroy();
    expect(container.querySelector(".icw-dot-plot")).toBeNull();
  });
});

describe("dot plot helpers", () => {
  it("measureColors keeps each known measure's colour", () => {
    const all = measureColors(["mdi", "permutation_test"]);
    const some = measureColors(["permutation_test"]);
    expect(some.get("permutation_test")).toBe(all.get("permutation_test"));
    const other = measureColors(["x", "y"]);
    expect(other.get("x")).not.toBe(other.get("y"));
    // The conditional measure has its own colour, whatever else is drawn.
    const conditional = measureColors([
      "mdi",
      "relative_importance",
      "permutation_train",
      "permutation_test",
      "permutation_conditional",
      "x",
    ]);
    expect(new Set(conditional.values()).size).toBe(6);
    expect(
      measureColors(["permutation_conditional"]).get("permutation_conditional"),
    ).toBe(conditional.get("permutation_conditional"));
  });

  it("measureColors gives up to 7 other keys distinct, readable colours", () => {
    const models = measureColors(["a", "b", "c", "d", "e", "f", "g"]);
    expect(new Set(models.values()).size).toBe(7);
    expect([...models.values()]).not.toContain("#F0E442");
    // Beside the known measures, another key takes a colour none of them has.
    const known = ["mdi", "permutation_train", "permutation_test"];
    const mixed = measureColors([...known, "x"]);
    expect(known.map((k) => mixed.get(k))).not.toContain(mixed.get("x"));
  });

  it("dotDomain spans zero, the dots and their whiskers", () => {
    const rows = [
      {
        dots: [
          { x: 1, whiskerLow: 0.9, whiskerHigh: 1.1 },
          { x: -0.2, whiskerLow: NaN, whiskerHigh: NaN },
        ],
      },
      { dots: [{ x: NaN, whiskerLow: NaN, whiskerHigh: NaN }] },
    ];
    const [lo, hi] = dotDomain(rows);
    expect(lo).toBeLessThan(-0.2);
    expect(hi).toBeGreaterThan(1.1);
    expect(dotDomain([])).toEqual([0, 1]);
  });
});
