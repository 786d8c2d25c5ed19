import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { schemeTableau10 } from "d3-scale-chromatic";

import { createTooltip } from "../ui/tooltip.js";
import {
  SMALL_GROUP_COLOR,
  createGroupedImportance,
  groupLegend,
  groupMeasures,
  smallGroupsNote,
} from "./grouped_importance.js";

const GROUPS = [
  { label: "basic", size: 1200, small: false },
  { label: "pro", size: 95, small: false },
  { label: "missing", size: 12, small: true },
];

function data(mean = [0.3, 0.1, 0.5, 0.0, Number.NaN, -0.2]) {
  return {
    features: ["tenure", "plan"],
    groups: GROUPS,
    mean: Float32Array.from(mean),
    std: Float32Array.from([0.02, 0.01, 0.05, 0, Number.NaN, 0.3]),
    minSize: 30,
    axisTitle: "drop in r2",
  };
}

let container;
let tooltip;
beforeEach(() => {
  container = document.createElement("div");
  document.body.append(container);
  tooltip = createTooltip(container, { testid: "tip" });
});
afterEach(() => container.remove());

const dotsOf = (feature) =>
  [
    ...container.querySelectorAll(
      `[data-testid="icw-row"][data-feature="${feature}"] [data-testid="icw-dot"]`,
    ),
  ];

describe("groupMeasures", () => {
  it("gives each group its row of the arrays, its colour and its size", () => {
    const measures = groupMeasures(data());
    expect(measures.map((m) => m.label)).toEqual([
      "basic (n = 1,200)",
      "pro (n = 95)",
      "missing (n = 12, few rows)",
    ]);
    expect(measures[1].values[0]).toBeCloseTo(0.5, 6);
    expect(measures[1].std[0]).toBeCloseTo(0.05, 6);
    expect(measures.map((m) => m.color)).toEqual([
      schemeTableau10[0],
      schemeTableau10[1],
      SMALL_GROUP_COLOR,
    ]);
    expect(measures.map((m) => Boolean(m.muted))).toEqual([false, false, true]);
  });

  it("refuses arrays of another size", () => {
    expect(() => groupMeasures(data([1, 2, 3]))).toThrow(
      /mean has 3 values for 3 groups x 2 features/,
    );
  });

  it("says which groups are greyed, and nothing when none is", () => {
    expect(groupLegend(GROUPS[2])).toBe("missing (n = 12, few rows)");
    expect(smallGroupsNote(GROUPS, 30)).toMatch(
      /^Greyed: missing: fewer than 30 rows/,
    );
    expect(smallGroupsNote(GROUPS.slice(0, 2), 30)).toBe("");
  });
});

describe("createGroupedImportance", () => {
  it("draws a dot per group with a number, a legend and the small note", () => {
    const chart = createGroupedImportance(container, { tooltip, duration: 0 });
    chart.update(data());
    // plan: every group has a number; tenure: "missing" has none (NaN).
    expect(dotsOf("plan")).toHaveLength(3);
    expect(dotsOf("tenure")).toHaveLength(2);
    const legend = container.querySelector('[data-testid="icw-legend"]');
    expect(legend.textContent).toContain("pro (n = 95)");
    expect(
      legend.querySelector(".icw-legend-muted").textContent,
    ).toContain("missing");
    const note = container.querySelector('[data-testid="iw-grouped-note"]');
    expect(note.hidden).toBe(false);
    expect(note.textContent).toContain("missing");
    // The small group's dot is grey, the others their palette colour.
    const fills = dotsOf("plan").map((d) => d.getAttribute("fill"));
    expect(fills).toEqual([
      schemeTableau10[0],
      schemeTableau10[1],
      SMALL_GROUP_COLOR,
    ]);
    chart.destroy();
    expect(container.querySelector('[data-testid="iw-grouped"]')).toBeNull();
  });

  it("cuts a 1 MB subgroup name in the legend, its size kept, the whole name on hover (#49 item 9)", () => {
    const huge = "s".repeat(1_000_000);
    const chart = createGroupedImportance(container, { tooltip, duration: 0 });
    chart.update({ ...data(), groups: [{ label: huge, size: 50, small: false }, ...GROUPS.slice(1)] });
    const label = container.querySelector(".icw-legend-label");
    expect(label.textContent).toBe(`${"s".repeat(39)}… (n = 50)`);
    expect(label.getAttribute("title")).toBe(huge);
    chart.destroy();
  });

  it("moves the same dots on a live update (joined by feature and group)", () => {
    const chart = createGroupedImportance(container, { tooltip, duration: 0 });
    chart.update(data());
    const before = dotsOf("tenure");
    const x0 = before.map((d) => Number(d.getAttribute("cx")));
    chart.update(data([0.1, 0.1, 0.5, 0.0, 0.2, -0.2]));
    const after = dotsOf("tenure");
    expect(after).toHaveLength(3); // "missing" has its first number
    expect(after[0]).toBe(before[0]);
    expect(Number(after[0].getAttribute("cx"))).toBeLessThan(x0[0]);
    chart.destroy();
  });
});
