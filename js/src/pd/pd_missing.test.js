import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import widget from "../pd_widget.js";
import {
  FakeModel,
  attachedElement,
  categoricalCurve,
  contextSpy,
  numericCurve,
  payloadPacker,
  pdWidgetTraits,
  queryAllTestId,
  queryTestId,
  stubAnimationFrames,
} from "../test_helpers.js";
import { curveResult } from "./pd_data.js";
import { missingLabelLeft, ticksClearOfMissing } from "./pd_missing.js";
import { CHAR_WIDTH } from "../charts/chart_base.js";

const EVIL = "<img src=x onerror=alert(1)>";

/** A numeric curve whose feature misses 30 of 400 values: the missing
 * point's average and its 5 ICE values, as `curve_payload` sends them. */
function withMissing(pack, { average = 2.5, note = "" } = {}) {
  return {
    ...numericCurve(pack),
    missing: {
      n_missing: 30,
      n_rows: 400,
      average,
      individual: average == null ? null : pack([2.3, 2.4, 2.5, 2.6, 2.7]),
    },
    missing_note: note,
  };
}

let el;
let cleanup;
beforeEach(() => {
  stubAnimationFrames();
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

function mount(curve) {
  const model = new FakeModel(
    pdWidgetTraits({ _feature_options: ["age", "colour"], _curve: curve }),
  );
  cleanup = widget.render({ model, el });
  return model;
}

describe("the missing value's point beside a numeric curve", () => {
  it("decodes the point, its ICE values and the share", () => {
    const curve = curveResult(withMissing(payloadPacker(), { note: "n" }));
    expect(curve.missing.average).toBe(2.5);
    expect([...curve.missing.individual]).toEqual(
      [2.3, 2.4, 2.5, 2.6, 2.7].map(Math.fround),
    );
    expect(curve.missing).toMatchObject({ nMissing: 30, nRows: 400, note: "n" });
    expect(curveResult(numericCurve(payloadPacker())).missing).toBeNull();
  });

  it("draws a diamond, the ICE dots and the share bar right of the curve", () => {
    mount(withMissing(payloadPacker()));
    const group = queryTestId(el, "pdw-missing");
    expect(group.style.display).toBe("");
    expect(queryTestId(el, "pdw-missing-label").textContent).toBe("missing");
    const diamond = queryTestId(el, "pdw-missing-average");
    expect(Number(diamond.getAttribute("data-value"))).toBe(2.5);
    expect(queryAllTestId(el, "pdw-missing-dot")).toHaveLength(5);
    expect(queryTestId(el, "pdw-missing-bar").getAttribute("data-count")).toBe(
      "30",
    );
    // The marker sits right of every grid point of the curve.
    const cx = Number(
      /translate\(([-\d.]+),/.exec(diamond.getAttribute("transform"))[1],
    );
    const path = queryTestId(el, "pdw-pdp").getAttribute("d");
    const xs = [...path.matchAll(/[ML]([-\d.]+),/g)].map((m) => Number(m[1]));
    expect(xs).toHaveLength(20);
    expect(cx).toBeGreaterThan(Math.max(...xs));
    // The y scale holds the missing point's values too.
    const y = Number(/,([-\d.]+)\)/.exec(diamond.getAttribute("transform"))[1]);
    expect(Number.isFinite(y)).toBe(true);
    expect(queryTestId(el, "pdw-missing-title").textContent).toBe(
      "30 rows (7.5 %) miss \u2068age\u2069.",
    );
  });

  it("shows the share and the model's reason, as text, when there is no point", () => {
    mount(withMissing(payloadPacker(), { average: null, note: EVIL }));
    expect(queryTestId(el, "pdw-missing").style.display).toBe("");
    expect(queryTestId(el, "pdw-missing-average").style.display).toBe("none");
    expect(queryAllTestId(el, "pdw-missing-dot")).toHaveLength(0);
    expect(queryTestId(el, "pdw-missing-title").textContent).toContain(EVIL);
    expect(el.querySelector("img")).toBeNull();
  });

  it("drops an axis tick whose label would run into the 'missing' label", () => {
    const box = { right: 500 };
    const end = box.right - 44; // the axis ends where the missing column starts
    const scale = (v) => (v / 100) * end;
    const ticks = ticksClearOfMissing([0, 50, 80, 100], scale, String, box);
    // "100" centred at the axis's end would overlap "missing" (#52 item 5).
    expect(ticks).toEqual([0, 50, 80]);
    expect(scale(80) + 1.5 * CHAR_WIDTH).toBeLessThan(missingLabelLeft(box));
  });

  it("draws no x tick label into the 'missing' label", () => {
    mount(withMissing(payloadPacker()));
    const label = queryTestId(el, "pdw-missing-label");
    const left =
      Number(label.getAttribute("x")) - (label.textContent.length * CHAR_WIDTH) / 2;
    const ticks = [...el.querySelectorAll(".pdw-x-axis .tick")];
    expect(ticks.length).toBeGreaterThan(1);
    for (const tick of ticks) {
      const x = Number(/translate\(([-\d.]+),/.exec(tick.getAttribute("transform"))[1]);
      const text = tick.querySelector("text").textContent;
      expect(x + (text.length * CHAR_WIDTH) / 2).toBeLessThan(left);
    }
    // On the tick labels' line: 9 px under the axis, hung from the top.
    const axisY = Number(
      /,([-\d.]+)\)/.exec(el.querySelector(".pdw-x-axis").getAttribute("transform"))[1],
    );
    expect(Number(label.getAttribute("y"))).toBe(axisY + 9);
    expect(label.getAttribute("dy")).toBe("0.71em");
  });

  it("hides the layer for a feature without missing values", () => {
    mount(numericCurve(payloadPacker()));
    expect(queryTestId(el, "pdw-missing").style.display).toBe("none");
    expect(queryTestId(el, "pdw-pdp")).not.toBeNull();
  });

  it("draws a categorical feature's missing value as a category", () => {
    const labels = ["basic", "pro", "missing"];
    const model = mount(categoricalCurve(payloadPacker(), { labels }));
    model.set("features", ["colour"]);
    const marks = queryAllTestId(el, "pdw-category");
    expect(marks.map((m) => m.getAttribute("data-category"))).toEqual(labels);
    const ticks = [...el.querySelectorAll(".pdw-x-axis .tick text")];
    expect(ticks.map((t) => t.textContent)).toEqual(labels);
  });
});
