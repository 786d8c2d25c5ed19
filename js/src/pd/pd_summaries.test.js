import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import widget from "../pd_widget.js";
import {
  FakeModel,
  attachedElement,
  categoricalCurve,
  change,
  click,
  contextSpy,
  numericCurve,
  payloadPacker,
  pdWidgetTraits,
  queryAllTestId,
  queryTestId,
  stubAnimationFrames,
} from "../test_helpers.js";
import { curveResult } from "./pd_data.js";
import {
  SMALL_COLOR,
  bandPairs,
  smallNote,
  summariesResult,
  summaryCaption,
  summaryCurves,
  withRuleCohort,
} from "./pd_summaries.js";

const EVIL = "<img src=x onerror=alert(1)>";
const G = 20;

/** Three groups as `groups_payload` sends them, the last one small. */
function groupsOf(pack) {
  const rows = [0, 1, 2].map((k) =>
    Array.from({ length: G }, (_, j) => k + j / 10),
  );
  return {
    labels: ["basic", "pro", EVIL],
    sizes: [180, 200, 12],
    small: [false, false, true],
    min_size: 30,
    average: pack(rows.flat(), [3, G]),
  };
}

function bandsOf(pack) {
  const p = [5, 25, 50, 75, 95];
  const rows = p.map((q) => Array.from({ length: G }, () => q / 100));
  return { percentiles: p, values: pack(rows.flat(), [5, G]) };
}

function clustersOf(pack) {
  const rows = [0, 1].map((k) => Array.from({ length: G }, (_, j) => (k ? -j : j)));
  return {
    sizes: [250, 150],
    average: pack(rows.flat(), [2, G]),
    rules: [
      [{ rule: "x1 <= 0.2", size: 250, precision: 0.98, coverage: 1 }],
      [{ rule: EVIL, size: 150, precision: 0.9, coverage: 0.95 }],
    ],
  };
}

describe("decoding and the pure parts", () => {
  it("decodes groups, bands and clusters, checking their shapes", () => {
    const pack = payloadPacker();
    const s = summariesResult(
      { groups: groupsOf(pack), bands: bandsOf(pack), clusters: clustersOf(pack) },
      G,
    );
    expect(s.groups.labels).toEqual(["basic", "pro", EVIL]);
    expect(s.groups.curves.rows).toBe(3);
    expect(s.groups.curves.values[G + 1]).toBeCloseTo(1.1, 5);
    expect(s.bands.percentiles).toEqual([5, 25, 50, 75, 95]);
    expect(s.clusters.rules[1][0].rule).toBe(EVIL);
    expect(() => summariesResult({ groups: groupsOf(pack) }, G + 1)).toThrow(
      /groups.average must have shape \[3, 21\]/,
    );
    expect(summariesResult({}, G)).toEqual({
      groups: null,
      bands: null,
      clusters: null,
    });
  });

  it("greys small groups and says so; pairs the bands outer first", () => {
    const s = summariesResult({ groups: groupsOf(payloadPacker()) }, G);
    const curves = summaryCurves(s);
    expect(curves.map((c) => c.text)).toEqual([
      "\u2068basic\u2069 (n = 180)",
      "\u2068pro\u2069 (n = 200)",
      `\u2068${EVIL}\u2069 (n = 12)`,
    ]);
    expect(curves[2].color).toBe(SMALL_COLOR);
    expect(new Set(curves.map((c) => c.color)).size).toBe(3);
    expect(smallNote(s.groups)).toMatch(/Greyed: .*fewer than 30 rows/);
    expect(smallNote(null)).toBe("");
    expect(bandPairs([5, 25, 50, 75, 95]).map((b) => b.key)).toEqual([
      "5-95",
      "25-75",
    ]);
    expect(summaryCaption(summariesResult({ bands: bandsOf(payloadPacker()) }, G), 400, null)).toBe(
      "percentile bands of 400 ICE curves (5–95, 25–75, median)",
    );
  });
});

let el;
let cleanup;
let frames;
beforeEach(() => {
  frames = stubAnimationFrames();
  const ctx = contextSpy();
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(
    () => ctx,
  );
  el = attachedElement();
});
afterEach(() => {
  cleanup?.();
  el.remove();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function mount(extra, traits = {}) {
  const pack = payloadPacker();
  const curve = { ...numericCurve(pack, { g: G }), ...extra(pack) };
  const model = new FakeModel(
    pdWidgetTraits({
      _curve: curve,
      _split_options: ["plan", "seats"],
      split_by: null,
      ice_mode: "lines",
      ...traits,
    }),
  );
  cleanup = widget.render({ model, el });
  return model;
}

describe("the widget's split and summaries", () => {
  it("draws a curve per group with a legend of sizes and a note for small ones", () => {
    mount((pack) => ({ groups: groupsOf(pack) }), { split_by: "plan" });
    const curves = queryAllTestId(el, "pdw-group-curve");
    expect(curves).toHaveLength(3);
    expect(curves[2].classList.contains("pdw-small-group")).toBe(true);
    for (const c of curves)
      expect([...c.getAttribute("d").matchAll(/[ML]/g)]).toHaveLength(G);
    const items = queryAllTestId(el, "pdw-legend-item").map((i) => i.textContent);
    expect(items).toEqual([
      "\u2068basic\u2069 (n = 180)",
      "\u2068pro\u2069 (n = 200)",
      `\u2068${EVIL}\u2069 (n = 12)`,
    ]);
    expect(el.querySelector("img")).toBeNull(); // text, never markup
    expect(queryTestId(el, "pdw-small-note").hidden).toBe(false);
    expect(queryTestId(el, "pdw-caption").textContent).toMatch(/split by \u2068plan\u2069: 3 groups/);
  });

  it("saves split_by and ice_mode from the controls", () => {
    const model = mount(() => ({}));
    const split = queryTestId(el, "pdw-split-by");
    expect([...split.options].map((o) => o.value)).toEqual(["", "plan", "seats"]);
    change(split, "seats");
    expect(model.saves.at(-1).split_by).toBe("seats");
    change(split, "");
    expect(model.saves.at(-1).split_by).toBeNull();
    change(queryTestId(el, "pdw-ice-mode"), "bands");
    expect(model.saves.at(-1).ice_mode).toBe("bands");
  });

  it("draws bands instead of thin lines, then clusters whose rules set the split", () => {
    const model = mount((pack) => ({ bands: bandsOf(pack) }), { ice_mode: "bands" });
    expect(queryAllTestId(el, "pdw-ice-band").map((b) => b.dataset.band)).toEqual([
      "5-95",
      "25-75",
    ]);
    expect(queryTestId(el, "pdw-ice-median")).not.toBeNull();
    expect(el.querySelector(".pdw-ice-canvas").getAttribute("data-curves")).toBe("0");
    const pack = payloadPacker();
    model.set("_curve", { ...numericCurve(pack, { g: G }), clusters: clustersOf(pack) });
    frames.flush();
    expect(queryAllTestId(el, "pdw-ice-band")).toHaveLength(0);
    expect(queryAllTestId(el, "pdw-group-curve")).toHaveLength(2);
    const rules = queryAllTestId(el, "pdw-rule");
    expect(rules.map((r) => r.dataset.rule)).toEqual(["x1 <= 0.2", EVIL]);
    click(rules[1]);
    expect(model.saves.at(-1).split_by).toBe(EVIL);
    // Redrawn rules keep one listener: a click saves once.
    model.set("_curve", { ...numericCurve(pack, { g: G }), clusters: clustersOf(pack) });
    frames.flush();
    const before = model.saves.length;
    click(queryAllTestId(el, "pdw-rule")[0]);
    expect(model.saves.length).toBe(before + 1);
  });

  it("offers no cohort beside a rule outside the inspector", () => {
    mount((pack) => ({ clusters: clustersOf(pack) }), { ice_mode: "clusters" });
    expect(queryAllTestId(el, "pdw-rule")).toHaveLength(2);
    expect(queryAllTestId(el, "pdw-rule-cohort")).toHaveLength(0);
  });

  it("makes a cluster's rule a cohort of the inspector, once", () => {
    const model = mount((pack) => ({ clusters: clustersOf(pack) }), {
      ice_mode: "clusters",
      cohorts: [{ name: "cluster 2", rule: "x0 > 1" }],
    });
    model.send = vi.fn();
    const adds = queryAllTestId(el, "pdw-rule-cohort");
    expect(adds.map((b) => b.textContent)).toEqual(["+ cohort", "+ cohort"]);
    click(adds[1]);
    // The whole list, as the header's form sends it: the name not taken.
    expect(model.send).toHaveBeenCalledWith({
      set_cohorts: [
        { name: "cluster 2", rule: "x0 > 1" },
        { name: "cluster 2 (2)", rule: EVIL },
      ],
    });
    expect(model.saves).toHaveLength(0); // not a split of this view
    // Python set it: shown as a cohort, not offered again.
    model.set("cohorts", [...model.get("cohorts"), { name: "cluster 2 (2)", rule: EVIL }]);
    frames.flush();
    const after = queryAllTestId(el, "pdw-rule-cohort");
    expect(after[1].disabled).toBe(true);
    expect(after[1].textContent).toBe("a cohort");
    expect(after[0].disabled).toBe(false);
    expect(el.querySelector("img")).toBeNull();
    // A saved page: no kernel to check a cohort, no button.
    model.set("_standalone", true);
    model.set("_curve", { ...model.get("_curve") });
    frames.flush();
    expect(queryAllTestId(el, "pdw-rule-cohort")).toHaveLength(0);
  });

  it("names a rule's cohort after its cluster, the rule once", () => {
    const one = withRuleCohort([], "a < 1", 0);
    expect(one).toEqual([{ name: "cluster 1", rule: "a < 1" }]);
    expect(withRuleCohort(one, "a < 1", 3)).toBe(one);
    expect(withRuleCohort(one, "b < 1", 0).at(-1)).toEqual({
      name: "cluster 1 (2)",
      rule: "b < 1",
    });
  });

  it("says a categorical feature's curve draws no split, with no legend", () => {
    const pack = payloadPacker();
    const model = new FakeModel(
      pdWidgetTraits({
        features: ["colour"],
        _curve: { ...categoricalCurve(pack), groups: null },
        _split_options: ["plan"],
        split_by: "plan",
        ice_mode: "lines",
      }),
    );
    cleanup = widget.render({ model, el });
    expect(queryTestId(el, "pdw-caption").textContent).toBe(
      "split by and ICE summaries are drawn for a numeric feature",
    );
    expect(queryAllTestId(el, "pdw-legend-item")).toHaveLength(0);
  });

  it("decodes no summary for a curve without one", () => {
    const curve = curveResult(numericCurve(payloadPacker(), { g: G }));
    expect(curve.summaries).toEqual({ groups: null, bands: null, clusters: null });
  });
});
