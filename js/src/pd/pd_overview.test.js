import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import widget from "../pd_widget.js";
import {
  FakeModel,
  attachedElement,
  contextSpy,
  pdWidgetTraits,
  queryAllTestId,
  queryTestId,
  stubAnimationFrames,
} from "../test_helpers.js";
import {
  PANEL_MIN_WIDTH,
  gridLayout,
  orderText,
  overviewResult,
  panelMessage,
  sharedDomain,
} from "./pd_overview_data.js";

const EVIL = "<img src=x onerror=alert(1)>";

/** The `_overview` trait as `overview_payload` sends it. */
function overviewPayload(overrides = {}) {
  return {
    status: "done",
    progress: 1,
    error: "",
    order_by: "importance",
    order_label: "permutation importance (r2)",
    target: "",
    panels: [
      {
        feature: "bmi",
        categorical: false,
        importance: 0.4,
        note: "",
        x: [1, 2, 3],
        y: [10, 20, 40],
        missing_y: 5,
        state: "done",
      },
      {
        feature: "colour",
        categorical: true,
        importance: 0.2,
        note: "",
        x: ["red", "blue"],
        y: [12, 18],
        missing_y: null,
        state: "done",
      },
      {
        feature: "a_very_long_feature_name_of_the_warehouse",
        categorical: false,
        importance: 0.1,
        note: "",
        x: [0, 1],
        y: [15, 15],
        missing_y: null,
        state: "done",
      },
      {
        feature: "empty",
        categorical: false,
        importance: null,
        note: `features: column 'empty' holds only missing values ${EVIL}.`,
        x: [],
        y: [],
        missing_y: null,
        state: "failed",
      },
    ],
    ...overrides,
  };
}

describe("the overview's layout", () => {
  it("shares one y-domain over every drawn value, missing points included", () => {
    const { panels } = overviewResult(overviewPayload());
    const [low, high] = sharedDomain(panels);
    // 5 (bmi's missing point) to 40, padded by 5 % of 35.
    expect(low).toBeCloseTo(5 - 1.75);
    expect(high).toBeCloseTo(40 + 1.75);
    expect(sharedDomain([])).toEqual([0, 1]);
    const flat = sharedDomain([{ ...panels[2] }]);
    expect(flat[0]).toBeLessThan(15);
    expect(flat[1]).toBeGreaterThan(15);
  });

  it("keeps Python's order and fits columns to the width", () => {
    const overview = overviewResult(overviewPayload());
    expect(overview.panels.map((p) => p.feature)).toEqual([
      "bmi",
      "colour",
      "a_very_long_feature_name_of_the_warehouse",
      "empty",
    ]);
    expect(gridLayout(20, 800).columns).toBe(
      Math.floor((800 + 8) / (PANEL_MIN_WIDTH + 8)),
    );
    expect(gridLayout(2, 1200).columns).toBe(2);
    expect(gridLayout(20, 100)).toEqual({ columns: 1, panelWidth: PANEL_MIN_WIDTH });
  });

  it("says what the order is based on, and why a panel is empty", () => {
    const overview = overviewResult(overviewPayload());
    expect(orderText(overview)).toContain("by permutation importance (r2)");
    // The shared scale's range: every drawn value, missing points too.
    expect(orderText(overview)).toContain("one y-scale, 5 to 40");
    expect(
      orderText({ ...overview, order_label: "", order_by: "pd_spread", target: "yes" }),
    ).toContain("(by pd_spread) · class \u2068yes\u2069");
    expect(orderText(overview)).not.toContain("computed");
    const running = {
      ...overview,
      status: "running",
      panels: [...overview.panels, { ...overview.panels[0], state: "pending" }],
    };
    expect(orderText(running)).toContain("· 4 of 5 features computed");
    expect(panelMessage(overview.panels[3], "done")).toContain("only missing");
    const pending = { ...overview.panels[0], state: "pending" };
    expect(panelMessage(pending, "running")).toBe("Computing…");
    expect(panelMessage(pending, "cancelled")).toMatch(/stopped/);
    expect(panelMessage(overview.panels[0], "done")).toBe("");
  });

  it("refuses a panel whose x and y differ in length", () => {
    const bad = overviewPayload();
    bad.panels[0].y = [1];
    expect(() => overviewResult(bad)).toThrow(/3 x values, 1 y values/);
    expect(overviewResult(null)).toBeNull();
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

function mount(overrides = {}) {
  const model = new FakeModel(
    pdWidgetTraits({
      _feature_options: ["bmi", "colour", "empty"],
      overview: true,
      _overview: overviewPayload(),
      ...overrides,
    }),
  );
  cleanup = widget.render({ model, el });
  frames.flush();
  return model;
}

describe("the overview in the PD widget", () => {
  it("draws a panel per feature: lines, dots, the missing diamond, notes", () => {
    mount();
    const panels = queryAllTestId(el, "pdw-overview-panel");
    expect(panels.map((p) => p.getAttribute("data-feature"))).toEqual([
      "bmi",
      "colour",
      "a_very_long_feature_name_of_the_warehouse",
      "empty",
    ]);
    const line = panels[0].querySelector("[data-testid=pdw-overview-line]");
    expect(line.getAttribute("d")).toMatch(/^M[\d.]+,[\d.]+L/);
    expect(panels[0].querySelector("[data-testid=pdw-overview-missing]")).not.toBeNull();
    expect(panels[1].querySelectorAll(".pdw-ov-dot")).toHaveLength(2);
    // Long names truncated, the full name on hover.
    const title = panels[2].querySelector(".pdw-ov-title");
    expect(title.textContent.endsWith("…")).toBe(true);
    expect(title.getAttribute("title")).toContain(
      "a_very_long_feature_name_of_the_warehouse",
    );
    // A failed panel says why, as text (never markup).
    const note = panels[3].querySelector("[data-testid=pdw-overview-note]");
    expect(note.textContent).toContain(EVIL);
    expect(note.querySelector("img")).toBeNull();
    expect(queryTestId(el, "pdw-overview-header").textContent).toContain(
      "permutation importance (r2)",
    );
    // No svg ids to collide with another view's.
    expect(el.querySelectorAll(".pdw-overview [id]")).toHaveLength(0);
  });

  it("a click, Enter or Space on a panel selects its feature", () => {
    const model = mount();
    const [bmi, colour, long] = queryAllTestId(el, "pdw-overview-panel");
    colour.click();
    expect(model.get("features")).toEqual(["colour"]);
    bmi.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    expect(model.get("features")).toEqual(["bmi"]);
    long.dispatchEvent(new KeyboardEvent("keydown", { key: " ", bubbles: true }));
    expect(model.get("features")).toEqual([
      "a_very_long_feature_name_of_the_warehouse",
    ]);
    frames.flush();
    const pressed = queryAllTestId(el, "pdw-overview-panel").filter(
      (p) => p.getAttribute("aria-pressed") === "true",
    );
    expect(pressed.map((p) => p.getAttribute("data-feature"))).toEqual([
      "a_very_long_feature_name_of_the_warehouse",
    ]);
  });

  it("is hidden with the toggle off, and the toggle writes `overview`", () => {
    const model = mount({ overview: false });
    expect(queryTestId(el, "pdw-overview-host").hidden).toBe(true);
    const toggle = queryTestId(el, "pdw-overview-toggle");
    toggle.checked = true;
    toggle.dispatchEvent(new Event("change"));
    expect(model.get("overview")).toBe(true);
    frames.flush();
    expect(queryTestId(el, "pdw-overview-host").hidden).toBe(false);
  });

  it("says it is computing before the first panels, and shows an error", () => {
    const model = mount({ _overview: {} });
    expect(queryTestId(el, "pdw-overview-grid").textContent).toContain(
      "Computing",
    );
    model.set("_overview", {
      status: "error",
      progress: 0,
      error: "ValueError: no",
      panels: [],
    });
    frames.flush();
    expect(queryTestId(el, "pdw-overview-header").textContent).toBe(
      "Overview failed: ValueError: no",
    );
    expect(queryTestId(el, "pdw-overview-grid").textContent).toContain(
      "No features",
    );
  });

  it("removes its listeners with the widget", () => {
    const model = mount();
    cleanup();
    cleanup = null;
    expect(model.listenerCount()).toBe(0);
    expect(el.querySelector(".pdw-overview")).toBeNull();
  });
});
