import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import widget from "../permutation_widget.js";
import {
  DONE_RUN_TRAITS,
  FakeModel,
  R2,
  attachedElement,
  click,
  makeChart,
  queryAllTestId,
  stubAnimationFrames,
} from "../test_helpers.js";
import { clickedFeatures, markSelected } from "./feature_selection.js";

function svgNode(tag, attrs) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

describe("clickedFeatures", () => {
  it("finds the feature of a row, a bar inside it, and a correlation cell", () => {
    const root = document.createElement("div");
    const row = svgNode("g", { "data-feature": "age" });
    const label = svgNode("text", {});
    row.append(label);
    const cell = svgNode("rect", { "data-row": "bmi", "data-col": "bp" });
    const diagonal = svgNode("rect", { "data-row": "bp", "data-col": "bp" });
    const plain = svgNode("line", {});
    root.append(row, cell, diagonal, plain);
    expect(clickedFeatures(label, root)).toEqual(["age"]);
    expect(clickedFeatures(cell, root)).toEqual(["bmi", "bp"]);
    expect(clickedFeatures(diagonal, root)).toEqual(["bp"]);
    expect(clickedFeatures(plain, root)).toBeNull();
    expect(clickedFeatures(root, root)).toBeNull();
  });
});

describe("markSelected", () => {
  it("marks rows of selected features and cells with both features selected", () => {
    const root = document.createElement("div");
    const age = svgNode("g", { "data-feature": "age" });
    const bmi = svgNode("g", { "data-feature": "bmi" });
    const pair = svgNode("rect", { "data-row": "age", "data-col": "bmi" });
    const half = svgNode("rect", { "data-row": "age", "data-col": "bp" });
    root.append(age, bmi, pair, half);
    expect(markSelected(root, ["age", "bmi"])).toBe(3);
    expect(age.classList.contains("iw-selected")).toBe(true);
    expect(pair.getAttribute("aria-current")).toBe("true");
    expect(half.classList.contains("iw-selected")).toBe(false);
    expect(markSelected(root, [])).toBe(0);
    expect(age.classList.contains("iw-selected")).toBe(false);
    expect(age.hasAttribute("aria-current")).toBe(false);
  });
});

describe("selection in the permutation widget", () => {
  let frames;
  beforeEach(() => {
    frames = stubAnimationFrames();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.body.replaceChildren();
  });

  function renderWith(extra) {
    const model = new FakeModel({
      features: R2.features,
      n_repeats: 5,
      scoring: ["r2"],
      scorer: "r2",
      kind: "bar",
      max_features: 20,
      ...DONE_RUN_TRAITS,
      _feature_options: R2.features,
      _scorer_options: ["r2"],
      _repeats_done: 3,
      _repeats_total: 5,
      _chart: makeChart({ r2: R2 }),
      ...extra,
    });
    const el = attachedElement();
    const cleanup = widget.render({ model, el });
    frames.flush();
    return { model, el, cleanup };
  }

  it("a click on a bar, or Enter on a row, writes selected_features", () => {
    const { model, el, cleanup } = renderWith({ selected_features: [] });
    const [, second] = queryAllTestId(el, "piw-bar");
    click(second);
    const feature = second.getAttribute("data-feature");
    expect(model.get("selected_features")).toEqual([feature]);
    expect(model.saves.length).toBeGreaterThan(0);
    const row = el.querySelector(`g.piw-row[data-feature="${R2.features[0]}"]`);
    row.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    expect(model.get("selected_features")).toEqual([R2.features[0]]);
    expect(row.classList.contains("iw-selected")).toBe(true);
    cleanup();
    expect(model.listenerCount()).toBe(0);
  });

  it("a selection set from Python is marked", () => {
    const { model, el, cleanup } = renderWith({ selected_features: [] });
    model.set("selected_features", [R2.features[1]]);
    const marked = [...el.querySelectorAll(".iw-selected")];
    expect(marked.length).toBeGreaterThan(0);
    expect(
      marked.every((n) => n.getAttribute("data-feature") === R2.features[1]),
    ).toBe(true);
    cleanup();
  });

  it("does nothing on a model without the trait", () => {
    const { model, el, cleanup } = renderWith({});
    click(queryAllTestId(el, "piw-bar")[0]);
    expect(model.get("selected_features")).toBeUndefined();
    expect(el.querySelectorAll(".iw-selected").length).toBe(0);
    cleanup();
  });
});
