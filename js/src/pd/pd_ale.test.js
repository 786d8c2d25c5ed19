import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import widget from "../pd_widget.js";
import {
  FakeModel,
  attachedElement,
  categoricalCurve,
  click,
  contextSpy,
  numericCurve,
  payloadPacker,
  queryAllTestId,
  queryTestId,
  stubAnimationFrames,
  pdWidgetTraits,
} from "../test_helpers.js";
import { LEGEND_ROW, legendEntries } from "./pd_ale.js";
import { MARGIN } from "./pd_frame.js";
import { aleResult, curveResult } from "./pd_data.js";
import { warningActions } from "./pd_warning.js";

const G = 11;

/** An ALE `_curve` (1-way numeric): values = edge², band ± 0.5, the band
 * missing at edge `gap`; with `overlay`, a PD average too. */
function aleCurve(pack, { overlay = false, gap = 4, correlated = [] } = {}) {
  const base = numericCurve(pack, { g: G, m: 0, average: overlay, correlated });
  const edges = Array.from({ length: G }, (_, j) => j / 2);
  const values = edges.map((x) => x * x - 5);
  const lower = values.map((v, j) => (j === gap ? NaN : v - 0.5));
  const upper = values.map((v, j) => (j === gap ? NaN : v + 0.5));
  return {
    ...base,
    effect: overlay ? "overlay" : "ale",
    ale: { values: pack(values), lower: pack(lower), upper: pack(upper) },
  };
}

describe("decoding", () => {
  it("reads the ALE and the effect, and checks the lengths", () => {
    const pack = payloadPacker();
    const curve = curveResult(aleCurve(pack));
    expect(curve.effect).toBe("ale");
    expect(Array.from(curve.ale.values)).toEqual(
      Array.from({ length: G }, (_, j) => (j / 2) ** 2 - 5),
    );
    expect(Number.isNaN(curve.ale.lower[4])).toBe(true);
    expect(curveResult(numericCurve(pack)).effect).toBe("pd");
    expect(curveResult(numericCurve(pack)).ale).toBeNull();
    expect(() =>
      aleResult(
        { values: pack([1, 2]), lower: pack([1]), upper: pack([1, 2]) },
        2,
      ),
    ).toThrow(/ale.lower must have shape \[2\]/);
  });

  it("names both curves in the overlay's legend only", () => {
    expect(legendEntries({ effect: "overlay" }).map((e) => e.key)).toEqual([
      "pd",
      "ale",
    ]);
    expect(legendEntries({ effect: "ale" })).toEqual([]);
    expect(legendEntries({ effect: "pd" })).toEqual([]);
  });

  it("offers the views not drawn yet, the overlay for 1-way only", () => {
    const kinds = (curve) => warningActions(curve).map((a) => a.kind);
    expect(kinds({ mode: "1d", effect: "pd" })).toEqual([
      "ale",
      "average_and_ale",
    ]);
    expect(kinds({ mode: "1d", effect: "ale" })).toEqual(["average_and_ale"]);
    expect(kinds({ mode: "1d", effect: "overlay" })).toEqual(["ale"]);
    expect(kinds({ mode: "2d", effect: "pd" })).toEqual(["ale"]);
    expect(kinds(null)).toEqual([]);
  });
});

describe("PartialDependenceWidget: accumulated local effects", () => {
  let el;
  let cleanup;
  let flush;
  beforeEach(() => {
    ({ flush } = stubAnimationFrames());
    vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(() =>
      contextSpy(),
    );
    el = attachedElement();
  });
  afterEach(() => {
    cleanup?.();
    el.remove();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  function mount(curve, overrides = {}) {
    const model = new FakeModel(
      pdWidgetTraits({
        kind: curve.effect === "overlay" ? "average_and_ale" : "ale",
        grid_resolution: 10,
        _curve: curve,
        ...overrides,
      }),
    );
    cleanup = widget.render({ model, el });
    flush();
    return model;
  }
  const byTestId = (id) => queryTestId(el, id);

  it("draws the ALE line at every edge and its band with a gap", () => {
    mount(aleCurve(payloadPacker()));
    const line = byTestId("pdw-ale-line");
    expect(line.getAttribute("data-points")).toBe(String(G));
    expect(line.getAttribute("d")).toMatch(/^M/);
    // The band's bounds are NaN at one edge: two pieces, two "M" moves.
    const band = byTestId("pdw-ale-band").getAttribute("d");
    expect(band.match(/M/g)).toHaveLength(2);
    // The band spans ± 0.5 around the line: above and below it.
    const ys = (d) =>
      [...d.matchAll(/[ML]([-\d.e]+),([-\d.e]+)/g)].map((m) => Number(m[2]));
    const lineYs = ys(line.getAttribute("d"));
    const bandYs = ys(band);
    expect(Math.min(...bandYs)).toBeLessThan(Math.min(...lineYs) - 1);
    expect(Math.max(...bandYs)).toBeGreaterThan(Math.max(...lineYs) + 1);
    expect(byTestId("pdw-pdp").style.display).toBe("none");
    expect(queryAllTestId(el, "pdw-legend-item")).toHaveLength(0);
    expect(byTestId("pdw-caption").textContent).toBe(
      "local effects of 400 rows, in 10 quantile bins",
    );
    expect(
      byTestId("pdw-root").querySelector("svg").getAttribute("aria-label"),
    ).toBe("Accumulated local effects of age");
    // Centering at the first grid value means nothing for ALE.
    expect(byTestId("pdw-centered").disabled).toBe(true);
  });

  it("overlays the PD and the ALE with a legend", () => {
    mount(aleCurve(payloadPacker(), { overlay: true }));
    expect(byTestId("pdw-pdp").getAttribute("data-points")).toBe(String(G));
    expect(byTestId("pdw-ale-line").getAttribute("data-points")).toBe(
      String(G),
    );
    const items = queryAllTestId(el, "pdw-legend-item");
    expect(items.map((i) => i.getAttribute("data-key"))).toEqual(["pd", "ale"]);
    expect(items[0].textContent).toBe("partial dependence");
    // In rows of their own above the plot, not on the curves (#52 item 5).
    const plotTop = Number(
      el.querySelector(".pdw-overlay").getAttribute("y"),
    );
    const rows = items.map((i) =>
      Number(/translate\(0,([-\d.]+)\)/.exec(i.getAttribute("transform"))[1]),
    );
    const legendTop = Number(
      /,([-\d.]+)\)/.exec(
        el.querySelector("g.pdw-legend").getAttribute("transform"),
      )[1],
    );
    // Each row's text is centred on its y (dy 0.32em): half a row each side.
    expect(legendTop + Math.max(...rows) + LEGEND_ROW / 2).toBeLessThanOrEqual(
      plotTop,
    );
  });

  it("keeps the plot at the top without a legend", () => {
    mount(aleCurve(payloadPacker()));
    expect(Number(el.querySelector(".pdw-overlay").getAttribute("y"))).toBe(
      MARGIN.top,
    );
  });

  it("switches kind from the correlation banner's buttons", () => {
    const correlated = [
      { feature: "age", partner: "bmi", rho: 0.95, message: "correlated" },
    ];
    const pack = payloadPacker();
    const model = mount(numericCurve(pack, { correlated }), { kind: "both" });
    expect(byTestId("pdw-warning").hidden).toBe(false);
    click(byTestId("pdw-show-ale"));
    expect(model.saves.at(-1).kind).toBe("ale");
    click(byTestId("pdw-show-overlay"));
    expect(model.saves.at(-1).kind).toBe("average_and_ale");
    // Drawn as the overlay, the banner keeps only the other view.
    model.set("_curve", aleCurve(pack, { overlay: true, correlated }));
    flush();
    expect(byTestId("pdw-show-overlay")).toBeNull();
    expect(byTestId("pdw-show-ale")).not.toBeNull();
  });

  it("draws a categorical feature's ALE as a mark per category", () => {
    const pack = payloadPacker();
    const base = categoricalCurve(pack, { m: 0 });
    const curve = {
      ...base,
      average: null,
      effect: "ale",
      ale: {
        values: pack([-1, 0, 2]),
        lower: pack([-1.5, -0.5, 1.5]),
        upper: pack([-0.5, 0.5, 2.5]),
      },
    };
    mount(curve, { features: ["colour"] });
    const marks = queryAllTestId(el, "pdw-ale-mark");
    expect(marks.map((m) => m.getAttribute("data-category"))).toEqual([
      "red",
      "green",
      "blue",
    ]);
    expect(marks.map((m) => Number(m.getAttribute("data-value")))).toEqual([
      -1, 0, 2,
    ]);
    expect(queryAllTestId(el, "pdw-category")).toHaveLength(0);
  });
});
