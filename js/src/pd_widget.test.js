import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { formatNumber, isolate } from "./charts/format.js";
import { paintIce } from "./pd/pd_canvas.js";
import widget from "./pd_widget.js";
import {
  FakeModel,
  attachedElement,
  change,
  bigPayloadPacker,
  categoricalCurve,
  contextSpy,
  numericCurve,
  payloadPacker,
  pdWidgetTraits,
  twoWayCurve,
  queryAllTestId,
  queryTestId,
  stubAnimationFrames,
  checkRedrawGuard,
  longestDrawnText,
} from "./test_helpers.js";

const EVIL = "<img src=x onerror=alert(1)>";

function makeModel(overrides = {}) {
  return new FakeModel(
    pdWidgetTraits({
      _elapsed_seconds: 1.5,
      _curve: numericCurve(payloadPacker()),
      ...overrides,
    }),
  );
}

// ---- Controlled animation frames and a canvas context spy -------------------

let frames;
let cancelled;
let flushFrames;

let el;
let cleanup;
let ctx;
beforeEach(() => {
  ({ frames, cancelled, flush: flushFrames } = stubAnimationFrames());
  ctx = contextSpy();
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(
    () => ctx,
  );
  el = attachedElement();
  cleanup = null;
});
afterEach(() => {
  cleanup?.();
  el.remove();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function mount(model) {
  cleanup = widget.render({ model, el });
  return model;
}

const byTestId = (id) => queryTestId(el, id);
const allByTestId = (id) => queryAllTestId(el, id);
const lastSave = (model) => model.saves.at(-1);
/** Number of points in an svg path "M..L..L..". */
const pathPoints = (d) => (d ?? "").split(/[ML]/).filter(Boolean).length;

describe("PartialDependenceWidget: 1-way numeric", () => {
  it("draws the PDP path, histogram, 9 deciles and the ICE polylines", () => {
    mount(makeModel());
    const root = byTestId("pdw-root");
    expect(root.classList.contains("inspectwidgets-pd")).toBe(true);
    expect(root.getAttribute("data-mode")).toBe("1d");
    expect(root.getAttribute("data-status")).toBe("done");
    expect(root.getAttribute("data-grid-done")).toBe("20");

    const pdp = byTestId("pdw-pdp");
    expect(pathPoints(pdp.getAttribute("d"))).toBe(20);
    expect(allByTestId("pdw-histogram")).toHaveLength(10);
    const deciles = allByTestId("pdw-decile");
    expect(deciles).toHaveLength(9);
    expect(deciles.map((d) => Number(d.getAttribute("data-value")))).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    // The rug lies in the gap between the plot and the strip, not over the
    // strip's bars (#52 item 5).
    const plot = el.querySelector(".pdw-overlay");
    const plotBottom =
      Number(plot.getAttribute("y")) + Number(plot.getAttribute("height"));
    const stripTop = Number(
      /,([-\d.]+)\)/.exec(el.querySelector(".pdw-dist").firstChild.getAttribute("transform"))[1],
    );
    for (const rug of deciles) {
      const [y1, y2] = ["y1", "y2"].map((a) => Number(rug.getAttribute(a)));
      expect(Math.min(y1, y2)).toBeGreaterThan(plotBottom);
      expect(Math.max(y1, y2)).toBeLessThan(stripTop);
    }
    // Rare regions: before the first and after the last decile.
    const rare = [...el.querySelectorAll(".pdw-rare-region")];
    expect(rare.map((r) => r.getAttribute("data-side"))).toEqual([
      "low",
      "high",
    ]);
    expect(Number(rare[0].getAttribute("width"))).toBeGreaterThan(0);

    // One polyline (moveTo + stroke) per ICE curve, 19 segments each.
    expect(byTestId("pdw-ice-canvas")).not.toBeNull();
    expect(ctx.calls.stroke).toBe(5);
    expect(ctx.calls.moveTo).toBe(5);
    expect(ctx.calls.lineTo).toBe(5 * 19);
    expect(byTestId("pdw-caption").textContent).toBe(
      "5 of 400 ICE curves shown",
    );
    expect(byTestId("pdw-curve-chart").getAttribute("data-settled")).toBe(
      "true",
    );
    expect(el.querySelector(".pdw-y-title tspan").textContent).toBe(
      "prediction",
    );
    expect(byTestId("pdw-warning").hidden).toBe(true);
    expect(byTestId("pdw-progress").textContent).toBe("done in 1.5 s");
  });

  it("extends the curves as grid_done grows, in place, once per frame", () => {
    const model = mount(
      makeModel({
        status: "running",
        _curve: numericCurve(payloadPacker(), { done: 5 }),
      }),
    );
    const pdp = byTestId("pdw-pdp");
    const svg = byTestId("pdw-curve-chart");
    const canvas = byTestId("pdw-ice-canvas");
    expect(pathPoints(pdp.getAttribute("d"))).toBe(5);
    expect(ctx.calls.lineTo).toBe(5 * 4);
    expect(byTestId("pdw-progress").textContent).toBe("5 / 20 grid points");

    ctx.reset();
    model.set("_curve", numericCurve(payloadPacker(), { done: 12 }));
    model.set("progress", 0.6);
    model.set("_curve", numericCurve(payloadPacker(), { done: 15 }));
    expect(pathPoints(pdp.getAttribute("d"))).toBe(5); // not drawn yet
    expect(frames.size).toBe(1); // coalesced
    flushFrames();
    expect(ctx.calls.stroke).toBe(5);
    expect(ctx.calls.lineTo).toBe(5 * 14);
    // Same elements: no rebuild.
    expect(byTestId("pdw-pdp")).toBe(pdp);
    expect(byTestId("pdw-curve-chart")).toBe(svg);
    expect(byTestId("pdw-ice-canvas")).toBe(canvas);
    expect(pathPoints(pdp.getAttribute("d"))).toBe(15);
    expect(byTestId("pdw-root").getAttribute("data-grid-done")).toBe("15");
  });

  it("shows x, the PDP value and the ICE spread on hover", () => {
    mount(makeModel());
    const overlay = el.querySelector(".pdw-overlay");
    // jsdom has no layout: the svg's box is at 0, so clientX is svg x.
    const x0 = Number(overlay.getAttribute("x"));
    const w = Number(overlay.getAttribute("width"));
    const event = new Event("pointermove", { bubbles: true });
    Object.assign(event, { clientX: x0 + w, clientY: 20 });
    overlay.dispatchEvent(event);
    const tip = byTestId("pdw-tooltip");
    expect(tip.style.display).not.toBe("none");
    const lines = [...tip.children].map((d) => d.textContent);
    expect(lines[0]).toBe(`${isolate("age")} = 9.5`);
    expect(lines[1]).toBe(
      `prediction: ${formatNumber(Math.fround(Math.sin(9.5)))}`,
    );
    expect(lines[2]).toMatch(/^ICE spread: .+ – .+ \(5 curves\)$/);
    expect(el.querySelector(".pdw-guide").style.display).not.toBe("none");
    overlay.dispatchEvent(new Event("pointerleave"));
    expect(tip.style.display).toBe("none");
  });

  it("wraps a long y title (centered) onto lines that fit the plot", () => {
    const label =
      "partial dependence (prediction), change from the first grid value";
    const model = mount(makeModel());
    const yAxisX = () =>
      el.querySelector(".pdw-y-axis").getAttribute("transform");
    expect(yAxisX()).toBe("translate(64,0)");
    model.set("_curve", numericCurve(payloadPacker(), { yLabel: label }));
    flushFrames();
    const yTitle = el.querySelector(".pdw-y-title");
    const lines = [...yTitle.querySelectorAll("tspan")];
    // Broken after the comma, nothing cut, each line within the plot's
    // 240 px height (at about 6.6 px a character).
    expect(lines.map((t) => t.textContent)).toEqual([
      "partial dependence (prediction),",
      "change from the first grid value",
    ]);
    expect(lines.map((t) => t.textContent).join(" ")).toBe(label);
    for (const t of lines) expect(t.textContent.length).toBeLessThanOrEqual(36);
    expect(lines.map((t) => t.getAttribute("dy"))).toEqual(["0", "15"]);
    expect(yTitle.querySelector("title").textContent).toBe(label);
    // The second line takes room from the plot, not from the tick labels.
    expect(yAxisX()).toBe("translate(79,0)");
    expect(Number(el.querySelector(".pdw-overlay").getAttribute("x"))).toBe(
      79,
    );

    // Longer labels are balanced over up to three lines.
    const long =
      "centered log-odds of class versicolor, change from the first grid value";
    model.set("_curve", numericCurve(payloadPacker(), { yLabel: long }));
    flushFrames();
    const longLines = [...yTitle.querySelectorAll("tspan")].map(
      (t) => t.textContent,
    );
    expect(longLines).toHaveLength(3);
    expect(longLines.join(" ")).toBe(long);
    expect(yAxisX()).toBe("translate(94,0)");

    // A short label stays one line, the margin goes back.
    model.set("_curve", numericCurve(payloadPacker()));
    flushFrames();
    expect(
      [...yTitle.querySelectorAll("tspan")].map((t) => t.textContent),
    ).toEqual(["prediction"]);
    expect(yAxisX()).toBe("translate(64,0)");
  });

  it("draws 1000 ICE curves x 100 points quickly (timing printed)", () => {
    const pack = bigPayloadPacker(1000 * 100 + 2000);
    const curve = numericCurve(pack, { g: 100, m: 1000, nRows: 5000 });
    const model = mount(makeModel({ _curve: {} }));
    ctx.reset();
    const start = performance.now();
    model.set("_curve", curve);
    flushFrames();
    const widgetMs = performance.now() - start;
    expect(ctx.calls.stroke).toBe(1000);
    expect(ctx.calls.lineTo).toBe(1000 * 99);
    expect(byTestId("pdw-caption").textContent).toBe(
      "1,000 of 5,000 ICE curves shown",
    );

    // The canvas painter alone, on a decoded payload.
    const values = new Float32Array(1000 * 100).map((_, k) => Math.sin(k));
    const xs = Float64Array.from({ length: 100 }, (_, j) => j * 6);
    const t0 = performance.now();
    const n = paintIce(contextSpy(), {
      values,
      rows: 1000,
      cols: 100,
      done: 100,
      xs,
      y0: 120,
      ky: -100,
      color: "#000",
      alpha: 0.1,
    });
    const paintMs = performance.now() - t0;
    expect(n).toBe(1000);
    console.info(
      `ICE draw, 1000 x 100 (jsdom, context spy): whole redraw ${widgetMs.toFixed(1)} ms, paintIce ${paintMs.toFixed(1)} ms`,
    );
  });

  it("skips NaN points inside a curve (pen lifted)", () => {
    const ctx2 = contextSpy();
    const values = Float32Array.from([0, 1, NaN, 3, 4, NaN, NaN, NaN]);
    const n = paintIce(ctx2, {
      values,
      rows: 2,
      cols: 4,
      done: 4,
      xs: [0, 1, 2, 3],
      y0: 0,
      ky: 1,
      color: "#000",
      alpha: 1,
    });
    expect(n).toBe(2);
    expect(ctx2.calls.moveTo).toBe(3); // [0,1] [3] and [4]
    expect(ctx2.calls.lineTo).toBe(1);
  });
});

describe("PartialDependenceWidget: categorical and 2-way", () => {
  it("draws one PDP mark per category and the category counts", () => {
    mount(makeModel({ _curve: categoricalCurve(payloadPacker()) }));
    const marks = allByTestId("pdw-category");
    expect(marks.map((m) => m.getAttribute("data-category"))).toEqual([
      "red",
      "green",
      "blue",
    ]);
    expect(byTestId("pdw-pdp")).toBeNull();
    const bars = allByTestId("pdw-histogram");
    expect(bars).toHaveLength(3);
    // Counts are matched by label, whatever their order in the payload.
    const count = (label) =>
      Number(
        bars
          .find((b) => b.getAttribute("data-category") === label)
          .getAttribute("data-count"),
      );
    expect([count("red"), count("green"), count("blue")]).toEqual([10, 20, 30]);
    // ICE: one dash per curve and category.
    expect(ctx.calls.fillRect).toBe(4 * 3);
    // The y label, too long for one line along the plot, wraps onto two;
    // its title holds it whole too.
    const yTitle = el.querySelector(".pdw-y-title");
    expect(
      [...yTitle.querySelectorAll("tspan")].map((t) => t.textContent),
    ).toEqual(["partial dependence", "(probability of class 1)"]);
    expect(yTitle.querySelector("title").textContent).toBe(
      "partial dependence (probability of class 1)",
    );
    const ticks = [...el.querySelectorAll(".pdw-x-axis .tick text")];
    expect(ticks.map((t) => t.textContent)).toEqual(["red", "green", "blue"]);
  });

  it("streams categories in by label, keeping the marks", () => {
    const model = mount(
      makeModel({ _curve: categoricalCurve(payloadPacker(), { done: 1 }) }),
    );
    const first = byTestId("pdw-category");
    model.set("_curve", categoricalCurve(payloadPacker(), { done: 3 }));
    flushFrames();
    expect(allByTestId("pdw-category")).toHaveLength(3);
    expect(byTestId("pdw-category")).toBe(first);
  });

  it("draws a 2-way heatmap with legend, contours and both margins", () => {
    const model = mount(
      makeModel({
        features: ["age", "bmi"],
        _curve: twoWayCurve(payloadPacker()),
      }),
    );
    const root = byTestId("pdw-root");
    expect(root.getAttribute("data-mode")).toBe("2d");
    const heatmap = byTestId("pdw-heatmap");
    expect(heatmap.getAttribute("data-cells")).toBe(String(6 * 5));
    expect(ctx.calls.fillRect).toBe(30);
    expect(byTestId("pdw-legend")).not.toBeNull();
    expect(
      Number(el.querySelector(".pdw-contours").getAttribute("data-levels")),
    ).toBeGreaterThan(0);
    const bars = allByTestId("pdw-histogram");
    expect(
      bars.filter((b) => b.getAttribute("data-axis") === "x"),
    ).toHaveLength(3);
    expect(
      bars.filter((b) => b.getAttribute("data-axis") === "y"),
    ).toHaveLength(3);
    expect(byTestId("pdw-ice-canvas")).toBeNull();
    // A surface is the average partial dependence or the second-order ALE.
    expect([...byTestId("pdw-kind").options].map((o) => o.value)).toEqual([
      "average",
      "ale",
    ]);
    expect(byTestId("pdw-kind").value).toBe("average");
    expect(byTestId("pdw-n-ice").disabled).toBe(true);
    expect(byTestId("pdw-centered").disabled).toBe(true);

    // Streaming: the heatmap fills row by row, no contours until complete.
    model.set("_curve", twoWayCurve(payloadPacker(), { done: 2 }));
    flushFrames();
    expect(byTestId("pdw-heatmap")).toBe(heatmap);
    expect(heatmap.getAttribute("data-cells")).toBe(String(2 * 5));
    expect(el.querySelector(".pdw-contours").getAttribute("data-levels")).toBe(
      "0",
    );

    // A NaN grid point (a column with missing values): the surface of the
    // grid values that are numbers, its contours placed, nothing thrown.
    const pack = payloadPacker();
    model.set("_curve", {
      ...twoWayCurve(pack),
      grid_y: pack([0, 0.5, 1, 1.5, NaN]),
    });
    flushFrames();
    const contourPaths = el.querySelector(".pdw-contours");
    expect(Number(contourPaths.getAttribute("data-levels"))).toBeGreaterThan(0);
    expect(contourPaths.getAttribute("d") ?? "").not.toMatch(/NaN/);
    model.set("_curve", twoWayCurve(payloadPacker(), { done: 2 }));
    flushFrames();

    // Hover names both features and the cell's value.
    const overlay = el.querySelector(".pdw-overlay");
    const event = new Event("pointermove", { bubbles: true });
    Object.assign(event, {
      clientX: Number(overlay.getAttribute("x")) + 1,
      clientY:
        Number(overlay.getAttribute("y")) +
        Number(overlay.getAttribute("height")) -
        1,
    });
    overlay.dispatchEvent(event);
    const lines = [...byTestId("pdw-tooltip").children].map(
      (d) => d.textContent,
    );
    expect(lines).toEqual([
      `${isolate("age")} = ${isolate("−2")}`,
      `${isolate("bmi")} = ${isolate("0")}`,
      "prediction: 0",
    ]);
  });

  it("switches chart when the result changes from 1-way to 2-way", () => {
    const model = mount(makeModel());
    expect(byTestId("pdw-curve-chart")).not.toBeNull();
    model.set("_curve", twoWayCurve(payloadPacker(), { categoricalY: true }));
    flushFrames();
    expect(byTestId("pdw-curve-chart")).toBeNull();
    expect(byTestId("pdw-heatmap")).not.toBeNull();
    // Categorical y: no contours, category bars on the right margin.
    expect(el.querySelector(".pdw-contours").getAttribute("data-levels")).toBe(
      "0",
    );
    expect(
      allByTestId("pdw-histogram").filter(
        (b) => b.getAttribute("data-category") === "c0",
      ),
    ).toHaveLength(1);
    model.set("_curve", {});
    flushFrames();
    expect(byTestId("pdw-heatmap")).toBeNull();
    expect(byTestId("pdw-empty").hidden).toBe(false);
  });
});

describe("PartialDependenceWidget: controls", () => {
  it("writes features (with a second feature), kind, centered, grid, n_ice", () => {
    const model = mount(makeModel());
    const feature2 = byTestId("pdw-feature2");
    expect([...feature2.options].map((o) => o.textContent)).toEqual([
      "— none —",
      "bmi",
      "\u2068colour\u2069 (categorical)",
    ]);
    change(feature2, "bmi");
    expect(lastSave(model).features).toEqual(["age", "bmi"]);
    change(feature2, "");
    expect(lastSave(model).features).toEqual(["age"]);
    change(byTestId("pdw-feature"), "colour");
    expect(lastSave(model).features).toEqual(["colour"]);

    change(byTestId("pdw-kind"), "individual");
    expect(lastSave(model).kind).toBe("individual");
    const centered = byTestId("pdw-centered");
    centered.checked = true;
    change(centered);
    expect(lastSave(model).centered).toBe(true);
    change(byTestId("pdw-grid"), "30");
    expect(lastSave(model).grid_resolution).toBe(30);
    const saves = model.saves.length;
    change(byTestId("pdw-grid"), "1"); // below 2: reverted, not sent
    expect(model.saves).toHaveLength(saves);
    expect(byTestId("pdw-grid").value).toBe("30");
    change(byTestId("pdw-n-ice"), "250");
    expect(lastSave(model).n_ice).toBe(250);
  });

  it("offers ICE at every split where Python reads the steps, and draws them", () => {
    const model = mount(makeModel({ _steps_available: false }));
    const steps = byTestId("pdw-ice-steps");
    expect(steps.closest("label").hidden).toBe(true);
    model.set("_steps_available", true);
    expect(steps.closest("label").hidden).toBe(false);
    steps.checked = true;
    change(steps);
    expect(lastSave(model).ice_steps).toBe(true);

    // The steps replace the grid's ICE: 5 curves of 3 steps, 2 segments
    // (a rise and a flat) per step after the first.
    const pack = payloadPacker();
    const curve = numericCurve(pack);
    curve.steps = {
      grid: pack([0, 4, 9.5]),
      individual: pack(
        Array.from({ length: 15 }, (_, k) => k % 3),
        [5, 3],
      ),
    };
    ctx.calls.lineTo = 0;
    model.set("_curve", curve);
    flushFrames();
    expect(byTestId("pdw-ice-canvas").getAttribute("data-steps")).toBe("3");
    expect(ctx.calls.lineTo).toBe(5 * 2 * 2);

    // ALE and average-only kinds draw no ICE: the box is disabled.
    model.set("kind", "average");
    expect(steps.disabled).toBe(true);
  });

  it("writes target and scale for classifiers, disables them for regressors", () => {
    const regressor = mount(makeModel());
    expect(byTestId("pdw-target").disabled).toBe(true);
    expect(byTestId("pdw-target").closest("label").hidden).toBe(true);
    expect(byTestId("pdw-scale").disabled).toBe(true);
    regressor.set("_target_options", ["setosa", "versicolor"]);
    regressor.set("target", "setosa");
    expect(byTestId("pdw-target").disabled).toBe(false);
    expect(byTestId("pdw-target").value).toBe("setosa");
    change(byTestId("pdw-target"), "versicolor");
    expect(lastSave(regressor).target).toBe("versicolor");
    expect(byTestId("pdw-scale").disabled).toBe(false);
    change(byTestId("pdw-scale"), "log_odds");
    expect(lastSave(regressor).scale).toBe("log_odds");
  });

  it("in a saved page the class menu is disabled, saying it needs a kernel (#52)", () => {
    // Before: it changed, while the chart and captions stayed on the first class.
    const model = mount(
      makeModel({
        _target_options: ["setosa", "versicolor"],
        target: "setosa",
        _standalone: true,
      }),
    );
    const select = byTestId("pdw-target");
    expect(select.disabled).toBe(true);
    expect(select.value).toBe("setosa");
    expect(select.title).toMatch(/class setosa; another class needs a kernel/);
    // A change forced past the disabled menu is put back: the menu keeps
    // naming the class the chart shows.
    change(select, "versicolor");
    expect(select.value).toBe("setosa");
    expect(model.get("target")).toBe("setosa");
  });

  it("run and stop increment their counters", () => {
    const model = mount(makeModel({ status: "running" }));
    byTestId("pdw-run").click();
    expect(model.get("_run_requests")).toBe(1);
    byTestId("pdw-stop").click();
    expect(model.get("_stop_requests")).toBe(1);
    model.set("status", "done");
    flushFrames();
    expect(byTestId("pdw-stop").disabled).toBe(true);
    byTestId("pdw-stop").click();
    expect(model.get("_stop_requests")).toBe(1);
  });
});

describe("PartialDependenceWidget: text, errors, cleanup", () => {
  /** A correlation warning as Python sends it. */
  const correlation = (feature, partner, rho) => ({
    feature,
    partner,
    rho,
    message: `Feature '${feature}' is strongly correlated with '${partner}'.`,
  });

  it("cuts 1 MB names in the axis titles, menu and warning, each whole on hover (#49 item 9)", () => {
    const huge = (c) => c.repeat(1_000_000);
    const model = mount(
      makeModel({
        features: [huge("f")],
        _feature_options: [huge("f"), huge("g")],
        _curve: numericCurve(payloadPacker(), {
          feature: huge("f"),
          correlated: [correlation(huge("f"), huge("g"), 0.93)],
        }),
      }),
    );
    const root = byTestId("pdw-root");
    expect(longestDrawnText(root).length).toBeLessThan(300);
    const titles = [...root.querySelectorAll("svg title")].map((t) => t.textContent);
    expect(titles).toContain(huge("f"));
    expect(byTestId("pdw-feature").value).toBe(huge("f"));
    // A surface: both axis titles.
    const surface = twoWayCurve(payloadPacker());
    surface.features = [huge("f"), huge("g")];
    model.set("features", surface.features);
    model.set("_curve", surface);
    flushFrames();
    expect(longestDrawnText(root).length).toBeLessThan(300);
    const surfaceTitles = [...root.querySelectorAll(".iw-axis-title title")].map((t) => t.textContent);
    expect(surfaceTitles).toEqual(expect.arrayContaining([huge("f"), huge("g")]));
  });

  it("keeps feature names and the warning as literal text", () => {
    mount(
      makeModel({
        features: [EVIL],
        _feature_options: [EVIL, "bmi"],
        _curve: numericCurve(payloadPacker(), {
          feature: EVIL,
          correlated: [correlation(EVIL, EVIL, 0.93)],
        }),
      }),
    );
    expect(el.querySelector("img")).toBeNull();
    const banner = byTestId("pdw-warning");
    expect(banner.hidden).toBe(false);
    expect(banner.textContent).toContain(`'\u2068${EVIL}\u2069' is strongly correlated`);
    expect(byTestId("pdw-warning-item").textContent).toBe(
      `${EVIL} (Spearman ρ = +0.93)`,
    );
    expect(byTestId("pdw-feature").value).toBe(EVIL);
    expect(
      [...el.querySelectorAll(".iw-axis-title")].map((t) => t.textContent),
    ).toContain(EVIL);
  });

  it("lists correlation warnings, one line per partner, names as text", () => {
    const correlated = [
      correlation("petal length (cm)", "petal width (cm)", 0.9412),
      correlation("petal length (cm)", EVIL, -0.8799),
    ];
    const model = mount(
      makeModel({
        _curve: numericCurve(payloadPacker(), {
          feature: "petal length (cm)",
          correlated,
        }),
      }),
    );
    expect(el.querySelector("img")).toBeNull();
    const banner = byTestId("pdw-warning");
    expect(banner.hidden).toBe(false);
    expect(banner.querySelector(".pdw-warning-lead").textContent).toBe(
      "'\u2068petal length (cm)\u2069' is strongly correlated with 2 other features, " +
        "so the plot averages over value combinations that rarely occur:",
    );
    const items = allByTestId("pdw-warning-item");
    expect(items.map((li) => li.tagName)).toEqual(["LI", "LI"]);
    expect(items.map((li) => li.textContent)).toEqual([
      "petal width (cm) (Spearman ρ = +0.94)",
      `${EVIL} (Spearman ρ = -0.88)`,
    ]);
    // The whole message of each stays readable on hover.
    expect(items.map((li) => li.getAttribute("title"))).toEqual(
      correlated.map((c) => c.message),
    );

    // One partner: "another feature", one item; none: hidden and empty.
    model.set(
      "_curve",
      numericCurve(payloadPacker(), {
        correlated: [correlation("x1", "x2", 1)],
      }),
    );
    flushFrames();
    expect(banner.querySelector(".pdw-warning-lead").textContent).toMatch(
      /^'\u2068x1\u2069' is strongly correlated with another feature, so /,
    );
    expect(allByTestId("pdw-warning-item").map((li) => li.textContent)).toEqual(
      ["x2 (Spearman ρ = +1.00)"],
    );
    model.set("_curve", numericCurve(payloadPacker()));
    flushFrames();
    expect(banner.hidden).toBe(true);
    expect(banner.textContent).toBe("");
  });

  it("lists a 2-way surface's correlated pairs once each", () => {
    mount(
      makeModel({
        features: ["age", "bmi"],
        _curve: {
          ...twoWayCurve(payloadPacker()),
          correlated: [
            correlation("age", "bmi", 0.9),
            correlation("bmi", "age", 0.9),
            correlation("bmi", "bp", 0.9),
          ],
        },
      }),
    );
    expect(
      byTestId("pdw-warning").querySelector(".pdw-warning-lead").textContent,
    ).toMatch(/^Strongly correlated features, so /);
    expect(allByTestId("pdw-warning-item").map((li) => li.textContent)).toEqual(
      [
        "age with bmi (Spearman ρ = +0.90)",
        "bmi with bp (Spearman ρ = +0.90)",
      ],
    );
  });

  it("shows the Python error and a malformed payload in the error box", () => {
    const model = mount(makeModel({ status: "error", error: "boom" }));
    expect(byTestId("pdw-error").textContent).toBe("boom");
    expect(byTestId("pdw-error").hidden).toBe(false);
    expect(
      el.querySelector(".pdw-output").classList.contains("pdw-stale"),
    ).toBe(true);
    const bad = numericCurve(payloadPacker());
    bad.average = payloadPacker()([1, 2, 3]);
    model.set("_curve", bad);
    flushFrames();
    expect(byTestId("pdw-error").textContent).toMatch(
      /^boom\nCould not draw the result: average must have shape \[20\]/,
    );
  });

  it("cleanup removes listeners, cancels the frame and the DOM", () => {
    const model = makeModel();
    mount(model);
    model.set("_curve", numericCurve(payloadPacker(), { done: 3 }));
    expect(frames.size).toBe(1);
    const [pending] = frames.keys();
    cleanup();
    cleanup = null;
    expect(cancelled).toContain(pending);
    expect(model.listenerCount()).toBe(0);
    expect(el.querySelector("[data-testid=pdw-root]")).toBeNull();
    expect(el.querySelector(".iw-tooltip")).toBeNull();
    model.set("_curve", {});
    expect(frames.size).toBe(0);
  });
});

describe("an error in the view", () => {
  it("is shown and logged, and never freezes the progress line", () => {
    const model = mount(makeModel());
    flushFrames();
    checkRedrawGuard(model, el, "pdw", flushFrames);
  });

  it("of a chart's update is shown and logged; the status still says done", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    ctx.stroke = () => {
      throw new Error("canvas lost");
    };
    expect(() => mount(makeModel())).not.toThrow();
    expect(byTestId("pdw-view-error").textContent).toContain(
      "Could not show the chart: canvas lost",
    );
    expect(errors).toHaveBeenCalledWith(
      "inspectwidgets: could not show the chart",
      expect.any(Error),
    );
    expect(byTestId("pdw-progress").textContent).toBe("done in 1.5 s");
    expect(byTestId("pdw-progress").closest("[hidden]")).toBeNull();
  });
});

describe("PartialDependenceWidget: the kind dropdown shows what is computed", () => {
  const shown = () => {
    const select = byTestId("pdw-kind");
    return [select.value, select.selectedOptions[0].textContent];
  };

  it("for a pair: the average for PD kinds, ALE for ALE, the overlay disabled", () => {
    const model = mount(
      makeModel({ features: ["age", "bmi"], kind: "both", _curve: {} }),
    );
    expect(shown()).toEqual(["average", "average (PDP)"]);
    model.set("kind", "ale");
    expect(shown()).toEqual(["ale", "accumulated local effects (ALE)"]);
    // Asked for from Python with two features: an error there, and said here.
    model.set("kind", "average_and_ale");
    expect(shown()).toEqual(["average_and_ale", "PD and ALE (one feature only)"]);
    expect(byTestId("pdw-kind").selectedOptions[0].disabled).toBe(true);
    expect(
      [...byTestId("pdw-kind").options].filter((o) => !o.disabled).map((o) => o.value),
    ).toEqual(["average", "ale"]);
  });

  it("a second feature picked under PD and ALE: never shown as the average", () => {
    const model = mount(makeModel({ kind: "average_and_ale" }));
    expect(shown()).toEqual(["average_and_ale", "PD and ALE"]);
    change(byTestId("pdw-feature2"), "bmi");
    expect(model.saves.at(-1).features).toEqual(["age", "bmi"]);
    expect(shown()[0]).not.toBe("average");
    model.set("kind", "ale"); // what Python answers (tests/widgets/test_ale_widget.py)
    expect(shown()).toEqual(["ale", "accumulated local effects (ALE)"]);
    change(byTestId("pdw-feature2"), "");
    expect(model.saves.at(-1).features).toEqual(["age"]);
    expect(shown()).toEqual(["ale", "accumulated local effects (ALE)"]);
  });
});

describe("PartialDependenceWidget: long category labels", () => {
  const LABELS = [
    "month-to-month contract",
    "one year contract",
    "two year contract with a very long name",
  ];
  /** The tick labels of the axis in `g`: [shown text, title or null]. */
  const ticks = (g) =>
    [...g.querySelectorAll(".tick text")].map((t) => [
      t.childNodes[0].textContent,
      t.querySelector("title")?.textContent ?? null,
    ]);

  it("are cut on the axis and keep their full text on hover (1-way)", () => {
    // A narrow chart: bands of a few characters.
    vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(260);
    mount(makeModel({ _curve: categoricalCurve(payloadPacker(), { labels: LABELS }) }));
    const axis = el.querySelector(".pdw-x-axis");
    const shown = ticks(axis);
    expect(shown.map(([, title]) => title)).toEqual(
      shown.map(([text], k) => (text === LABELS[k] ? null : LABELS[k])),
    );
    const cut = shown.filter(([text]) => text.endsWith("…"));
    expect(cut.length).toBeGreaterThan(0);
    for (const [text, title] of cut) expect(title.startsWith(text.slice(0, -1))).toBe(true);
  });

  it("on a surface's categorical axis too (2-way)", () => {
    const pack = payloadPacker();
    const curve = twoWayCurve(pack, { gb: 3, categoricalY: true });
    curve.grid_y_labels = LABELS;
    curve.distribution_y.labels = LABELS;
    mount(makeModel({ features: ["age", "contract"], _curve: curve }));
    const yAxis = [...byTestId("pdw-heatmap").querySelectorAll(".iw-axis")].find(
      (g) => g.textContent.includes("…"),
    );
    expect(ticks(yAxis).map(([, title]) => title)).toEqual(LABELS);
    expect(yAxis.querySelector("img")).toBeNull();
  });
});
