import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { isolate } from "./charts/format.js";
import widget from "./interaction_widget.js";
import {
  DONE_RUN_TRAITS,
  FakeModel,
  attachedElement,
  click,
  contextSpy,
  payloadPacker,
  queryAllTestId,
  queryTestId,
  numericCurve,
  stubAnimationFrames,
  twoWayCurve,
} from "./test_helpers.js";

const EVIL = "<img src=x onerror=alert(1)>";

function h2Payload(pack, features = ["age", "bmi", EVIL]) {
  return {
    features,
    matrix: pack([NaN, 0.8, 0.1, 0.8, NaN, 0.2, 0.1, 0.2, NaN], [3, 3]),
    one_vs_rest: pack([0.5, 0.4, 0.1]),
    n_samples: 300,
  };
}

describe("InteractionWidget", () => {
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

  function mount(overrides = {}) {
    const model = new FakeModel({
      features: ["age", "bmi", EVIL],
      n_top: 3,
      n_samples: 300,
      pair: [],
      kind: "average",
      grid_resolution: 20,
      target: "",
      scale: "probability",
      ...DONE_RUN_TRAITS,
      _feature_options: ["age", "bmi", EVIL],
      _categorical: [],
      _target_options: [],
      _h2: h2Payload(payloadPacker()),
      _curve: {},
      ...overrides,
    });
    cleanup = widget.render({ model, el });
    flush();
    return model;
  }
  const cell = (row, col) =>
    queryAllTestId(el, "iaw-cell").find(
      (c) =>
        c.getAttribute("data-row") === row &&
        c.getAttribute("data-col") === col,
    );

  it("draws H² as a heatmap whose cells write `pair`", () => {
    const model = mount();
    expect(queryAllTestId(el, "iaw-cell")).toHaveLength(9);
    expect(Number(cell("age", "bmi").getAttribute("data-value"))).toBeCloseTo(
      0.8,
    );
    // Names are text, never markup.
    expect(el.querySelector("img")).toBeNull();
    expect(queryTestId(el, "iaw-surface")).toBeNull();
    click(cell("bmi", "age"));
    expect(model.saves.at(-1).pair).toEqual(["bmi", "age"]);
    cell("age", EVIL).dispatchEvent(
      new KeyboardEvent("keydown", { key: "Enter", bubbles: true }),
    );
    expect(model.saves.at(-1).pair).toEqual(["age", EVIL]);
    flush(); // the redraw waits for the next animation frame
    expect(queryTestId(el, "iaw-root").getAttribute("data-pair")).toBe(
      `age × ${EVIL}`,
    );
  });

  it("draws the chosen pair's surface with the PD chart and marks its cell", () => {
    const pack = payloadPacker();
    mount({ pair: ["age", "bmi"], _curve: twoWayCurve(pack) });
    expect(queryTestId(el, "pdw-heatmap")).not.toBeNull();
    const selected = queryTestId(el, "iaw-cell-selected");
    expect(selected.getAttribute("data-row")).toBe("age");
    expect(selected.getAttribute("data-col")).toBe("bmi");
    expect(queryTestId(el, "iaw-pair-caption").textContent).toBe(
      `${isolate("age")} × ${isolate("bmi")}: prediction`,
    );
    expect(queryTestId(el, "iaw-root").getAttribute("data-surface")).toBe(
      "age × bmi",
    );
  });

  it("draws H² beside a 1-way _curve, which has no surface", () => {
    // A 1-way curve has `feature`, not `features`: reading the latter for
    // data-surface threw, and the view showed an error instead of H².
    mount({ _curve: numericCurve(payloadPacker()) });
    expect(queryAllTestId(el, "iaw-cell").length).toBe(9);
    expect(queryTestId(el, "iaw-view-error").hidden).toBe(true);
    expect(queryTestId(el, "iaw-root").getAttribute("data-surface")).toBe("");
    expect(queryTestId(el, "pdw-heatmap")).toBeNull();
  });

  it("shows a malformed payload as an error, and cleans up", () => {
    const pack = payloadPacker();
    const model = mount({
      _h2: { ...h2Payload(pack), one_vs_rest: pack([1]) },
    });
    expect(queryTestId(el, "iaw-root").textContent).toContain(
      "Could not draw the result",
    );
    cleanup();
    cleanup = null;
    expect(model.listenerCount()).toBe(0);
    expect(el.children).toHaveLength(0);
  });

  describe("on a churn-like table (string categories, NaN in numeric columns)", () => {
    // The traits InteractionWidget sent for a Pipeline(OrdinalEncoder,
    // HistGradientBoostingClassifier) on 4,000 rows with 3-8 % NaN: H² is
    // finite, but the pair's 2-way grid of `total_charges` (8 % NaN) is
    // NaN throughout, while Python says done.
    const FEATURES = ["tenure", "monthly_charges", "total_charges", "contract"];
    function churnTraits(pack, gridY) {
      const curve = twoWayCurve(pack, { ga: 20, gb: gridY.length });
      return {
        features: FEATURES,
        n_top: 4,
        pair: ["tenure", "total_charges"],
        target: "stay",
        _feature_options: FEATURES,
        _categorical: ["contract"],
        _target_options: ["churn", "stay"],
        _h2: {
          features: FEATURES,
          matrix: pack(
            [NaN, 0.05, 0.09, 0.01, 0.05, NaN, 0.15, 0.02, 0.09, 0.15, NaN,
              0.01, 0.01, 0.02, 0.01, NaN],
            [4, 4],
          ),
          one_vs_rest: pack([0.15, 0.1, 0.1, 0.07]),
          n_samples: 200,
        },
        _curve: {
          ...curve,
          features: ["tenure", "total_charges"],
          grid_y: pack(gridY),
          y_label: "probability of class stay",
        },
      };
    }

    it("draws H² and says why the pair's surface cannot be drawn", () => {
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      const pack = payloadPacker();
      expect(() =>
        mount(churnTraits(pack, Array.from({ length: 20 }, () => NaN))),
      ).not.toThrow();
      expect(queryAllTestId(el, "iaw-cell")).toHaveLength(16);
      expect(queryTestId(el, "iaw-progress").textContent).toMatch(/^done/);
      expect(queryTestId(el, "pdw-surface-note").textContent).toBe(
        "Nothing to draw: the grid of \u2068total_charges\u2069 holds no number (the column's missing values?).",
      );
      expect(queryTestId(el, "pdw-heatmap").getAttribute("data-cells")).toBe(
        "0",
      );
      expect(queryTestId(el, "iaw-error").hidden).toBe(true);
      expect(errors).not.toHaveBeenCalled();
    });

    it("draws the numbers of a grid that holds a few NaN, and counts the rest", () => {
      const pack = payloadPacker();
      const gridY = Array.from({ length: 20 }, (_, j) => (j === 19 ? NaN : j));
      mount(churnTraits(pack, gridY));
      const svg = queryTestId(el, "pdw-heatmap");
      expect(svg.getAttribute("data-cells")).toBe(String(20 * 19));
      expect(queryTestId(el, "pdw-surface-note").textContent).toBe(
        "Not drawn: 1 of 20 grid values of \u2068total_charges\u2069, which are not numbers.",
      );
      expect(svg.querySelector(".pdw-contours").getAttribute("d")).not.toMatch(
        /NaN|undefined/,
      );
    });
  });

  describe("an error in the view", () => {
    it("of a chart's update is shown and logged; the status still says done", () => {
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      const broken = contextSpy();
      broken.fillRect = () => {
        throw new Error("canvas lost");
      };
      HTMLCanvasElement.prototype.getContext.mockImplementation(() => broken);
      const pack = payloadPacker();
      expect(() =>
        mount({ pair: ["age", "bmi"], _curve: twoWayCurve(pack) }),
      ).not.toThrow();
      const box = queryTestId(el, "iaw-view-error");
      expect(box.hidden).toBe(false);
      expect(box.textContent).toContain(
        "Could not show the pair's surface: canvas lost",
      );
      expect(errors).toHaveBeenCalledWith(
        "inspectwidgets: could not show the pair's surface",
        expect.any(Error),
      );
      expect(queryAllTestId(el, "iaw-cell")).toHaveLength(9);
      expect(queryTestId(el, "iaw-progress").textContent).toMatch(/^done/);
      expect(queryTestId(el, "iaw-progress").closest("[hidden]")).toBeNull();
    });

    it("of the redraw replaces the frozen progress line, until a redraw works", () => {
      const errors = vi.spyOn(console, "error").mockImplementation(() => {});
      const model = mount({ status: "running", progress: 0.94, _eta_seconds: 0.3 });
      const progress = queryTestId(el, "iaw-progress");
      expect(progress.textContent).toBe("94% · under 1 s left");
      // A value the redraw cannot read (Number(Symbol) throws).
      expect(() => {
        model.set("_eta_seconds", Symbol("eta"));
        model.set("status", "done");
        flush();
      }).not.toThrow();
      expect(progress.closest("[hidden]")).not.toBeNull();
      expect(queryTestId(el, "iaw-view-error").textContent).toContain(
        "Could not show the widget: Cannot convert a Symbol value to a number",
      );
      expect(errors).toHaveBeenCalledOnce();
      model.set("_eta_seconds", -1);
      flush();
      expect(progress.closest("[hidden]")).toBeNull();
      expect(progress.textContent).toMatch(/^done/);
      expect(queryTestId(el, "iaw-view-error").hidden).toBe(true);
    });

    it("of a model listener is shown and stops no other listener", () => {
      vi.spyOn(console, "error").mockImplementation(() => {});
      const model = mount();
      const unreadable = { toString: () => { throw new Error("odd class"); } };
      expect(() => model.set("_target_options", [unreadable])).not.toThrow();
      expect(queryTestId(el, "iaw-view-error").textContent).toContain(
        "Could not show the change of kind, scale, target, _target_options: odd class",
      );
      model.set("status", "running"); // later changes still draw
      flush();
      expect(queryTestId(el, "iaw-root").getAttribute("data-status")).toBe(
        "running",
      );
    });
  });
});
