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
});
