import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { TRANSITION_MS } from "./chart_base.js";
import { createImportanceChart } from "./importance_chart.js";

function chartData(features, means, overrides = {}) {
  const k = features.length;
  return {
    features,
    mean: Float32Array.from(means),
    std: Float32Array.from(overrides.std ?? means.map(() => 0.01)),
    values: overrides.values ?? null,
    repeatsDone: overrides.repeatsDone ?? 3,
    kind: overrides.kind ?? "bar",
    baseline: 0.452,
    permutedMean: Float32Array.from(
      overrides.permuted ?? new Array(k).fill(0.3),
    ),
    scorer: "r2",
  };
}

const liveBars = (el) => [...el.querySelectorAll('[data-testid="piw-bar"]')];
const barOf = (el, feature) =>
  liveBars(el).find((node) => node.getAttribute("data-feature") === feature);
/** Record add/removeEventListener calls on every EventTarget. */
function trackListeners() {
  const { addEventListener: add, removeEventListener: remove } =
    EventTarget.prototype;
  const added = [];
  const removed = [];
  EventTarget.prototype.addEventListener = function (type, fn, options) {
    added.push({ target: this, type, fn });
    return add.call(this, type, fn, options);
  };
  EventTarget.prototype.removeEventListener = function (type, fn, options) {
    removed.push({ target: this, type, fn });
    return remove.call(this, type, fn, options);
  };
  return {
    added,
    restore() {
      EventTarget.prototype.addEventListener = add;
      EventTarget.prototype.removeEventListener = remove;
    },
    /** Listeners added and never removed, as "type" strings. */
    pending() {
      return added
        .filter(
          (a) =>
            !removed.some(
              (r) =>
                r.target === a.target && r.type === a.type && r.fn === a.fn,
            ),
        )
        .map((a) => a.type);
    },
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let container;
beforeEach(() => {
  container = document.createElement("div");
  document.body.append(container);
});
afterEach(() => {
  container.remove();
});

describe("createImportanceChart", () => {
  it("draws one bar per feature, keyed by name, top to bottom as given", () => {
    const chart = createImportanceChart(container);
    chart.update(chartData(["age", "bmi", "bp"], [0.3, 0.2, 0.1]));
    const bars = liveBars(container);
    expect(bars.map((b) => b.getAttribute("data-feature"))).toEqual([
      "age",
      "bmi",
      "bp",
    ]);
    const rows = [...container.querySelectorAll("g.piw-row")];
    const ys = rows.map((r) =>
      Number(/translate\(0,([\d.]+)\)/.exec(r.getAttribute("transform"))[1]),
    );
    expect(ys[0]).toBeLessThan(ys[1]);
    expect(ys[1]).toBeLessThan(ys[2]);
    // Widths are proportional to the means, from the zero line.
    const widths = bars.map((b) => Number(b.getAttribute("width")));
    expect(widths[0] / widths[2]).toBeCloseTo(3, 1);
    expect(
      container.querySelectorAll('[data-testid="piw-chart"]'),
    ).toHaveLength(1);
    chart.destroy();
  });

  it("shows each row's error bars from the data of the latest draw", () => {
    const chart = createImportanceChart(container, { duration: 0 });
    const shown = () =>
      [...container.querySelectorAll("line.piw-err")].map(
        (line) => line.getAttribute("display") !== "none",
      );
    // One repeat done: no spread, no error bars.
    chart.update(chartData(["age", "bmi"], [0.3, 0.2], { std: [0, 0] }));
    expect(shown()).toEqual(new Array(6).fill(false));
    // The next draw has a spread for "age" only: its three lines show.
    chart.update(chartData(["age", "bmi"], [0.3, 0.2], { std: [0.02, 0] }));
    expect(shown()).toEqual([true, true, true, false, false, false]);
    chart.update(chartData(["age", "bmi"], [0.3, 0.2], { std: [0, 0.01] }));
    expect(shown()).toEqual([false, false, false, true, true, true]);
    chart.destroy();
  });

  it("keeps the DOM nodes of surviving features and removes departed ones", async () => {
    const chart = createImportanceChart(container);
    chart.update(chartData(["age", "bmi", "bp"], [0.3, 0.2, 0.1]));
    const ageBefore = barOf(container, "age");
    const bpBefore = barOf(container, "bp");
    const bpRowBefore = bpBefore.closest("g.piw-row");
    const bmiRow = barOf(container, "bmi").closest("g.piw-row");

    chart.update(chartData(["bp", "age", "s5"], [0.5, 0.25, 0.05]));
    // Same nodes, new order and sizes.
    expect(barOf(container, "age")).toBe(ageBefore);
    expect(barOf(container, "bp")).toBe(bpBefore);
    expect(
      liveBars(container).map((b) => b.getAttribute("data-feature")),
    ).toEqual(["bp", "age", "s5"]);
    const rows = [...container.querySelectorAll("g.piw-row:not(.piw-exiting)")];
    expect(rows[0]).toBe(bpRowBefore);
    // "bmi" leaves: no longer a test hook at once, faded out, then removed.
    expect(barOf(container, "bmi")).toBeUndefined();
    expect(bmiRow.classList.contains("piw-exiting")).toBe(true);
    await sleep(TRANSITION_MS + 150);
    expect(bmiRow.isConnected).toBe(false);
    expect(container.querySelectorAll("g.piw-row")).toHaveLength(3);
    // The transitions have settled on the new geometry.
    const width = (f) => Number(barOf(container, f).getAttribute("width"));
    expect(width("bp") / width("age")).toBeCloseTo(2, 1);
    chart.destroy();
  });

  it("brings back a feature that returns while fading out, without a duplicate", () => {
    const chart = createImportanceChart(container);
    chart.update(chartData(["a", "b"], [0.2, 0.1]));
    const bRow = barOf(container, "b").closest("g.piw-row");
    chart.update(chartData(["a"], [0.2]));
    chart.update(chartData(["a", "b"], [0.2, 0.15]));
    expect(barOf(container, "b").closest("g.piw-row")).toBe(bRow);
    expect(bRow.classList.contains("piw-exiting")).toBe(false);
    expect(container.querySelectorAll("g.piw-row")).toHaveLength(2);
    chart.destroy();
  });

  it("removes departed rows at once with duration 0", () => {
    const chart = createImportanceChart(container, { duration: 0 });
    chart.update(chartData(["a", "b"], [0.2, 0.1]));
    chart.update(chartData(["a"], [0.4]));
    expect(container.querySelectorAll("g.piw-row")).toHaveLength(1);
    chart.destroy();
  });

  it("marks negative importances and draws them left of zero", () => {
    const chart = createImportanceChart(container, { duration: 0 });
    chart.update(chartData(["good", "noise"], [0.2, -0.05]));
    const good = barOf(container, "good");
    const noise = barOf(container, "noise");
    expect(good.classList.contains("piw-negative")).toBe(false);
    expect(noise.classList.contains("piw-negative")).toBe(true);
    const zero = Number(
      container.querySelector("line.piw-zero").getAttribute("x1"),
    );
    expect(
      Number(noise.getAttribute("x")) + Number(noise.getAttribute("width")),
    ).toBeCloseTo(zero, 6);
    expect(Number(good.getAttribute("x"))).toBeCloseTo(zero, 6);
    expect(Number(noise.getAttribute("x"))).toBeLessThan(zero);
    chart.destroy();
  });

  it('draws box plots of the per-repeat values with kind "box"', () => {
    const chart = createImportanceChart(container, { duration: 0 });
    // 2 features x 5 repeats, row-major; the second row has an outlier (2.0).
    const values = Float32Array.from([
      0.3, 0.31, 0.29, 0.32, 0.28, 0.1, 0.2, 0.15, 0.12, 2.0,
    ]);
    chart.update(
      chartData(["a", "b"], [0.3, 0.514], {
        values,
        repeatsDone: 5,
        kind: "box",
      }),
    );
    const boxes = [...container.querySelectorAll('[data-testid="piw-box"]')];
    expect(boxes.map((b) => b.getAttribute("data-feature"))).toEqual([
      "a",
      "b",
    ]);
    expect(
      container.querySelectorAll(
        "g.piw-boxplot:not([display]) line.piw-median",
      ),
    ).toHaveLength(2);
    expect(container.querySelectorAll("circle.piw-outlier")).toHaveLength(1);
    // Bars are hidden while boxes show.
    expect(container.querySelector("g.piw-bars").getAttribute("display")).toBe(
      "none",
    );
    // Switching back to bars reuses the rows.
    const row = boxes[0].closest("g.piw-row");
    chart.update(
      chartData(["a", "b"], [0.3, 0.514], { values, repeatsDone: 5 }),
    );
    expect(barOf(container, "a").closest("g.piw-row")).toBe(row);
    expect(
      container.querySelector("g.piw-boxplot").getAttribute("display"),
    ).toBe("none");
    chart.destroy();
  });

  it("falls back to bars when boxes have no values", () => {
    const chart = createImportanceChart(container, { duration: 0 });
    chart.update(chartData(["a"], [0.3], { kind: "box", values: null }));
    expect(
      container.querySelector("g.piw-bars").getAttribute("display"),
    ).toBeNull();
    chart.destroy();
  });

  it("sets data text as text: a hostile feature name creates no element", () => {
    const chart = createImportanceChart(container, { duration: 0 });
    const evil = "<img src=x onerror=alert(1)>";
    chart.update(chartData([evil, "ok"], [0.2, 0.1]));
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("title").textContent).toBe(evil);
    expect(barOf(container, evil)).toBeDefined();
    const row = barOf(container, evil).closest("g.piw-row");
    row.dispatchEvent(new Event("pointermove", { bubbles: true }));
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector(".piw-tooltip-title").textContent).toBe(
      evil,
    );
    chart.destroy();
  });

  it("truncates long labels with an ellipsis and keeps the full name in a title", () => {
    const chart = createImportanceChart(container, { duration: 0 });
    const long =
      "a_really_long_feature_name_that_goes_on_and_on_and_on_forever_and_ever_more";
    chart.update(chartData([long], [0.2]));
    const label = container.querySelector("text.piw-label tspan").textContent;
    expect(label.endsWith("…")).toBe(true);
    expect(label.length).toBeLessThan(long.length);
    expect(container.querySelector("text.piw-label title").textContent).toBe(
      long,
    );
    chart.destroy();
  });

  it("shows a tooltip with mean ± std, repeats and the raw score drop", () => {
    const onHover = vi.fn();
    const chart = createImportanceChart(container, { duration: 0, onHover });
    chart.update(
      chartData(["age", "bmi"], [0.151, 0.1], {
        std: [0.012, 0.01],
        permuted: [0.301, 0.35],
        repeatsDone: 12,
      }),
    );
    const tooltip = container.querySelector('[data-testid="piw-tooltip"]');
    expect(tooltip.style.display).toBe("none");
    barOf(container, "age").dispatchEvent(
      new Event("pointermove", { bubbles: true }),
    );
    expect(tooltip.style.display).toBe("");
    const lines = [...tooltip.children].map((d) => d.textContent);
    expect(lines).toEqual([
      "age",
      "0.151 ± 0.012 (mean ± std)",
      "repeats: 12",
      "r2 0.452 → 0.301",
    ]);
    expect(onHover).toHaveBeenLastCalledWith("age");
    // A live update that keeps the row in place refreshes the numbers...
    chart.update(
      chartData(["age", "bmi"], [0.16, 0.1], {
        std: [0.01, 0.01],
        permuted: [0.292, 0.35],
        repeatsDone: 13,
      }),
    );
    expect(tooltip.style.display).toBe("");
    expect(tooltip.children[2].textContent).toBe("repeats: 13");
    // ... one that moves it away from under the pointer hides the tooltip.
    chart.update(chartData(["bmi", "age"], [0.3, 0.16]));
    expect(tooltip.style.display).toBe("none");
    expect(onHover).toHaveBeenLastCalledWith(null);
    barOf(container, "age").dispatchEvent(
      new Event("pointermove", { bubbles: true }),
    );
    expect(tooltip.style.display).toBe("");
    container.querySelector("svg").dispatchEvent(new Event("pointerleave"));
    expect(tooltip.style.display).toBe("none");
    expect(onHover).toHaveBeenLastCalledWith(null);
    chart.destroy();
  });

  it("reports the kind drawn and how many rows are drawn as negative", () => {
    const chart = createImportanceChart(container, { duration: 0 });
    // "b": mean below 0 (one very negative repeat), median above 0.
    const values = Float32Array.from([0.2, 0.3, 0.25, -0.9, 0.01, 0.02]);
    const data = (kind, vals = values) =>
      chartData(["a", "b"], [0.25, -0.29], {
        values: vals,
        repeatsDone: 3,
        kind,
      });
    expect(chart.update(data("bar"))).toEqual({ kind: "bar", negative: 1 });
    expect(chart.update(data("box"))).toEqual({ kind: "box", negative: 0 });
    expect(container.querySelectorAll(".piw-box.piw-negative")).toHaveLength(0);
    // Without per-repeat values "box" falls back to bars, and says so.
    expect(chart.update(data("box", null))).toEqual({
      kind: "bar",
      negative: 1,
    });
    chart.destroy();
    expect(chart.update(data("bar"))).toEqual({ kind: "bar", negative: 0 });
  });

  it("marks the svg settled only once the last transition has ended", async () => {
    const duration = 600;
    const chart = createImportanceChart(container, { duration });
    const svg = container.querySelector('[data-testid="piw-chart"]');
    const settled = () => svg.getAttribute("data-settled");
    expect(settled()).toBe("true");
    // The first draw does not animate.
    chart.update(chartData(["a", "b"], [0.2, 0.1]));
    expect(settled()).toBe("true");
    chart.update(chartData(["b", "c"], [0.3, 0.1]));
    expect(settled()).toBe("false");
    await sleep(duration / 2);
    // A second update halfway restarts the wait: the end (or interruption)
    // of the first one's transitions must not mark the chart settled.
    chart.update(chartData(["c", "a"], [0.4, 0.2]));
    expect(settled()).toBe("false");
    await sleep(duration / 2 + 100);
    expect(settled()).toBe("false");
    await vi.waitFor(() => expect(settled()).toBe("true"), {
      timeout: 3 * duration,
      interval: 10,
    });
    // Everything is in place: departed rows removed, bars at full width.
    expect(container.querySelectorAll("g.piw-row")).toHaveLength(2);
    const width = (f) => Number(barOf(container, f).getAttribute("width"));
    expect(width("c") / width("a")).toBeCloseTo(2, 1);
    chart.destroy();
  });

  it("is settled at once without transitions (duration 0, reduced motion)", () => {
    const chart = createImportanceChart(container, { duration: 0 });
    const svg = container.querySelector('[data-testid="piw-chart"]');
    chart.update(chartData(["a", "b"], [0.2, 0.1]));
    chart.update(chartData(["b", "c"], [0.3, 0.1]));
    expect(svg.getAttribute("data-settled")).toBe("true");
    chart.destroy();
  });

  it("leaves the axis font to the stylesheet and names the scorer", async () => {
    const chart = createImportanceChart(container);
    chart.update(chartData(["a", "b"], [0.2, 0.1]));
    chart.update(chartData(["a", "b"], [0.3, 0.1]));
    const axis = container.querySelector("g.piw-axis");
    // d3-axis's font-size="10" would make the theme's relative sizes tiny.
    expect(axis.hasAttribute("font-size")).toBe(false);
    expect(axis.hasAttribute("font-family")).toBe(false);
    expect(axis.querySelectorAll(".tick text").length).toBeGreaterThan(1);
    expect(container.querySelector(".piw-axis-title").textContent).toBe(
      "importance (decrease in r2)",
    );
    await sleep(TRANSITION_MS + 60);
    expect(axis.hasAttribute("font-size")).toBe(false);
    chart.destroy();
  });

  it("destroy removes every element and every listener it added", () => {
    const listeners = trackListeners();
    try {
      const chart = createImportanceChart(container);
      chart.update(chartData(["a", "b"], [0.2, -0.1]));
      chart.update(chartData(["b", "c"], [0.3, 0.1]));
      chart.destroy();
    } finally {
      listeners.restore();
    }
    expect(container.childNodes).toHaveLength(0);
    expect(listeners.added.length).toBeGreaterThan(0);
    expect(listeners.pending()).toEqual([]);
  });

  it("ignores updates after destroy and tolerates a double destroy", () => {
    const chart = createImportanceChart(container);
    chart.destroy();
    chart.update(chartData(["a"], [0.1]));
    chart.destroy();
    expect(container.childNodes).toHaveLength(0);
  });
});
