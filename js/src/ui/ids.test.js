import { afterEach, describe, expect, it, vi } from "vitest";

import {
  DONE_RUN_TRAITS,
  FakeModel,
  attachedElement,
  contextSpy,
  numericCurve,
  payloadPacker,
  pdWidgetTraits,
  stubAnimationFrames,
  twoWayCurve,
} from "../test_helpers.js";

/** A widget module loaded afresh: a copy of its own, as each widget's bundle
 * (and each load of it) is in the page. */
async function freshWidget(path) {
  vi.resetModules();
  return (await import(path)).default;
}

function interactionModel(pack) {
  return new FakeModel({
    features: ["age", "bmi"],
    n_top: 2,
    n_samples: 300,
    pair: ["age", "bmi"],
    kind: "average",
    grid_resolution: 20,
    target: "",
    scale: "probability",
    ...DONE_RUN_TRAITS,
    _feature_options: ["age", "bmi"],
    _categorical: [],
    _target_options: [],
    _h2: {
      features: ["age", "bmi"],
      matrix: pack([NaN, 0.5, 0.5, NaN], [2, 2]),
      one_vs_rest: pack([0.4, 0.3]),
      n_samples: 300,
    },
    _curve: twoWayCurve(pack),
  });
}

function pdModel(pack) {
  return new FakeModel(
    pdWidgetTraits({
      _feature_options: ["age", "bmi"],
      _categorical: [],
      _curve: numericCurve(pack),
    }),
  );
}

/** Every `url(#id)` in `view`'s attributes. */
function references(view) {
  return [...view.querySelectorAll("*")].flatMap((node) =>
    [...node.attributes].flatMap((a) =>
      [...a.value.matchAll(/url\(#([^)]+)\)/g)].map((m) => m[1]),
    ),
  );
}

describe("ids in a page holding several widgets", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    document.body.replaceChildren();
  });

  it("are distinct, and each view's url(#…) resolves inside that view", async () => {
    const { flush } = stubAnimationFrames();
    vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(
      () => contextSpy(),
    );
    const pack = payloadPacker();
    const views = [];
    // Two interaction widgets and two PD widgets, each from its own copy of
    // the bundle: legends (gradients) and clip paths in every one.
    for (const [path, model] of [
      ["../interaction_widget.js", interactionModel],
      ["../interaction_widget.js", interactionModel],
      ["../pd_widget.js", pdModel],
      ["../pd_widget.js", pdModel],
    ]) {
      const widget = await freshWidget(path);
      const el = attachedElement();
      widget.render({ model: model(pack), el });
      views.push(el);
    }
    flush();
    const ids = [...document.querySelectorAll("[id]")].map((n) => n.id);
    expect(ids.length).toBeGreaterThanOrEqual(6);
    expect(new Set(ids).size).toBe(ids.length);
    for (const view of views) {
      const refs = references(view);
      expect(refs.length).toBeGreaterThan(0);
      for (const id of refs) {
        const target = document.getElementById(id);
        expect(target).not.toBeNull();
        expect(view.contains(target)).toBe(true);
      }
    }
  });
});
