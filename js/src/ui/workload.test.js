import { describe, expect, it } from "vitest";

import { listenerBag } from "./dom.js";
import { bindModel } from "./model.js";
import { createWorkload } from "./workload.js";
import { FakeModel } from "../test_helpers.js";

function make(traits) {
  const model = new FakeModel(traits);
  const context = { model, binding: bindModel(model), dom: listenerBag() };
  const workload = createWorkload("pdw", context);
  document.body.append(workload.node);
  return { model, workload, context };
}

describe("createWorkload", () => {
  it("is hidden while Python says nothing about the work", () => {
    const { model, workload } = make({ _workload: "", max_rows: 500 });
    expect(workload.node.hidden).toBe(true);
    model.set("_workload", "10,000 of 1,000,000 rows × 50 features");
    expect(workload.node.hidden).toBe(false);
    expect(workload.node.textContent).toContain("10,000 of 1,000,000 rows");
    workload.node.remove();
  });

  it("writes a whole number of rows to max_rows, and refuses others", () => {
    const { model, workload } = make({
      _workload: "10,000 of 1,000,000 rows (seeded subsample)",
      max_rows: 10000,
      _n_rows: 1000000,
    });
    const input = workload.rows;
    expect(input.value).toBe("10000");
    expect(input.max).toBe("1000000");
    input.value = "2500";
    input.dispatchEvent(new Event("change"));
    expect(model.get("max_rows")).toBe(2500);
    input.value = "0";
    input.dispatchEvent(new Event("change"));
    expect(model.get("max_rows")).toBe(2500);
    expect(input.value).toBe("2500");
    workload.node.remove();
  });

  it("has no field where the widget has no max_rows (permutation)", () => {
    const { workload } = make({ _workload: "1,000,000 rows × 5 repeats" });
    expect(workload.rows).toBeNull();
    expect(workload.node.querySelector("input")).toBeNull();
    workload.node.remove();
  });
});
