import { describe, expect, it, vi } from "vitest";

import { FakeModel } from "../test_helpers.js";
import { subModel } from "./sub_model.js";

function mirror(state, versions) {
  return { state, versions };
}

describe("subModel", () => {
  it("reads the mirror and fires change only for traits whose version moved", () => {
    const parent = new FakeModel({
      _view: mirror({ a: 1, b: "x" }, { a: 1, b: 2 }),
    });
    const proxy = subModel(parent, "_view", { send: vi.fn() });
    expect(proxy.get("a")).toBe(1);
    const onA = vi.fn();
    const onB = vi.fn();
    proxy.on("change:a", onA);
    proxy.on("change:b", onB);
    parent.set("_view", mirror({ a: 5, b: "x" }, { a: 3, b: 2 }));
    expect(onA).toHaveBeenCalledTimes(1);
    expect(onB).not.toHaveBeenCalled();
    expect(proxy.get("a")).toBe(5);
    // A republished value with a new version fires even if equal.
    parent.set("_view", mirror({ a: 5, b: "x" }, { a: 3, b: 4 }));
    expect(onB).toHaveBeenCalledTimes(1);
  });

  it("applies writes at once and sends them together on save_changes", () => {
    const parent = new FakeModel({ _view: mirror({ kind: "bar" }, { kind: 1 }) });
    const send = vi.fn();
    const proxy = subModel(parent, "_view", { send });
    const onKind = vi.fn();
    proxy.on("change:kind", onKind);
    proxy.set("kind", "box");
    proxy.set("n_repeats", 3);
    expect(proxy.get("kind")).toBe("box");
    expect(onKind).toHaveBeenCalledTimes(1);
    proxy.set("kind", "box"); // unchanged: no event
    expect(onKind).toHaveBeenCalledTimes(1);
    expect(send).not.toHaveBeenCalled();
    proxy.save_changes();
    expect(send).toHaveBeenCalledWith({ kind: "box", n_repeats: 3 });
    proxy.save_changes(); // nothing pending
    expect(send).toHaveBeenCalledTimes(1);
  });

  it("sends a custom message as the inspector's own (a rule made a cohort)", () => {
    const parent = new FakeModel({ _view: mirror({}, {}) });
    parent.send = vi.fn();
    const send = vi.fn();
    const proxy = subModel(parent, "_view", { send });
    proxy.send({ set_cohorts: [{ name: "c", rule: "a < 1" }] });
    expect(parent.send).toHaveBeenCalledWith({ set_cohorts: [{ name: "c", rule: "a < 1" }] });
    expect(send).not.toHaveBeenCalled(); // not a write of the child's traits
  });

  it("off() takes null for 'any', as anywidget's model does", () => {
    const parent = new FakeModel({ _view: mirror({ a: 1, b: 1 }, { a: 1, b: 1 }) });
    const proxy = subModel(parent, "_view", { send: vi.fn() });
    const onA = vi.fn();
    const onA2 = vi.fn();
    const onB = vi.fn();
    proxy.on("change:a", onA);
    proxy.on("change:a", onA2);
    proxy.on("change:b", onB);
    proxy.off("change:a", null); // every listener of change:a
    parent.set("_view", mirror({ a: 2, b: 2 }, { a: 2, b: 2 }));
    expect(onA).not.toHaveBeenCalled();
    expect(onA2).not.toHaveBeenCalled();
    expect(onB).toHaveBeenCalledTimes(1);
    proxy.off(null); // every listener
    parent.set("_view", mirror({ a: 3, b: 3 }, { a: 3, b: 3 }));
    expect(onB).toHaveBeenCalledTimes(1);
  });

  it("shares the parent's traits and removes its listeners on destroy", () => {
    const parent = new FakeModel({
      _view: mirror({}, {}),
      selected_features: ["a"],
    });
    const send = vi.fn();
    const proxy = subModel(parent, "_view", {
      shared: ["selected_features"],
      send,
    });
    const onSel = vi.fn();
    proxy.on("change:selected_features", onSel);
    expect(proxy.get("selected_features")).toEqual(["a"]);
    proxy.set("selected_features", ["b"]);
    expect(parent.get("selected_features")).toEqual(["b"]);
    expect(onSel).toHaveBeenCalledTimes(1);
    proxy.save_changes();
    expect(parent.saves).toHaveLength(1);
    expect(send).not.toHaveBeenCalled();
    proxy.destroy();
    expect(parent.listenerCount()).toBe(0);
  });
});
