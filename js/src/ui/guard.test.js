import { afterEach, describe, expect, it, vi } from "vitest";

import { createViewGuard, guardRender } from "./guard.js";
import { h } from "./dom.js";

const EVIL = "<img src=x onerror=alert(1)>";

describe("createViewGuard", () => {
  afterEach(() => vi.restoreAllMocks());

  function mounted() {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const guard = createViewGuard("x");
    const statusBar = h("div");
    const root = h("div", {}, [statusBar, guard.node]);
    guard.attach({ root, statusBar });
    return { guard, root, statusBar, errors };
  }

  it("catches, logs and shows an error as text, and clears it when the part next runs", () => {
    const { guard, root, statusBar, errors } = mounted();
    expect(guard.node.hidden).toBe(true);
    const boom = new Error(EVIL);
    expect(guard.run("the chart", () => {
      throw boom;
    })).toBeUndefined();
    expect(errors).toHaveBeenCalledWith("inspectwidgets: could not show the chart", boom);
    expect(guard.node.hidden).toBe(false);
    expect(guard.node.textContent).toBe(
      `Could not show the chart: ${EVIL}\n(Details in the browser console.)`,
    );
    expect(guard.node.querySelector("img")).toBeNull();
    expect(root.hasAttribute("data-view-error")).toBe(true);
    // A chart's failure leaves the status line: it was updated elsewhere.
    expect(statusBar.hidden).toBe(false);
    expect(guard.run("the legend", () => 7)).toBe(7);
    expect(guard.failing()).toEqual(["the chart"]);
    expect(guard.run("the chart", () => 3)).toBe(3);
    expect(guard.failing()).toEqual([]);
    expect(guard.node.hidden).toBe(true);
    expect(root.hasAttribute("data-view-error")).toBe(false);
  });

  it("hides the status line while a part that updates it fails", () => {
    const { guard, statusBar } = mounted();
    const draw = vi.fn((n) => {
      if (n < 0) throw new TypeError("negative");
    });
    const guarded = guard.wrap("the widget", draw, { updatesStatus: true });
    expect(() => guarded(-1)).not.toThrow();
    expect(statusBar.hidden).toBe(true);
    expect(guard.node.textContent).toContain("Could not show the widget: negative");
    guarded(1);
    expect(draw).toHaveBeenLastCalledWith(1);
    expect(statusBar.hidden).toBe(false);
  });
});

describe("guardRender", () => {
  afterEach(() => vi.restoreAllMocks());

  it("shows a render that throws in the element instead of throwing", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const el = h("div");
    const render = guardRender(() => {
      throw new Error("no model");
    });
    const cleanup = render({ model: {}, el });
    expect(el.textContent).toContain("Could not show the widget: no model");
    expect(errors).toHaveBeenCalledOnce();
    cleanup();
    expect(el.children).toHaveLength(0);
    const ok = vi.fn(() => "cleanup");
    const model = fakeModel();
    expect(guardRender(ok)({ model, el })).toBe("cleanup");
  });

  it("tells the kernel each view it drew, and not one that failed", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const model = fakeModel();
    const render = guardRender(() => () => {});
    render({ model, el: h("div") });
    render({ model, el: h("div") });
    expect(model.get("_views_rendered")).toBe(2);
    expect(model.save_changes).toHaveBeenCalledTimes(2);
    guardRender(() => {
      throw new Error("no");
    })({ model, el: h("div") });
    expect(model.get("_views_rendered")).toBe(2);
  });
});

function fakeModel() {
  /** @type {Record<string, unknown>} */
  const traits = {};
  return {
    get: (/** @type {string} */ name) => traits[name],
    set: (/** @type {string} */ name, /** @type {unknown} */ value) => {
      traits[name] = value;
    },
    save_changes: vi.fn(),
    on() {},
    off() {},
    send() {},
  };
}
