import { describe, expect, it } from "vitest";

import { bindModel } from "./model.js";
import { createStatus, errorMessage, statusText } from "./status.js";
import { FakeModel } from "../test_helpers.js";

describe("statusText", () => {
  it("uses the count while running and where a run stopped", () => {
    expect(statusText({ status: "running", count: "45%", etaSeconds: 3 })).toBe(
      "45% · about 3 s left",
    );
    expect(statusText({ status: "running" })).toBe("running");
    expect(statusText({ status: "running", etaSeconds: 90 })).toBe(
      "about 1 min 30 s left",
    );
    expect(statusText({ status: "cancelled", count: "45%" })).toBe(
      "cancelled at 45%",
    );
    expect(statusText({ status: "cancelled" })).toBe("cancelled");
    expect(statusText({ status: "done", elapsedSeconds: 42 })).toBe(
      "done in 42 s",
    );
    expect(statusText({ status: "idle" })).toBe("not run yet");
  });

  it("says what a running computation does before its first result", () => {
    const phase = "compiling the tree walk (first use)";
    expect(
      statusText({ status: "running", count: "0 / 5 repeats", phase }),
    ).toBe(phase);
    // A phase with its own time left (the baseline of a big X).
    expect(
      statusText({
        status: "running",
        count: "0 / 5 repeats",
        phase: "baseline score on all 1,000,000 rows: 40%",
        etaSeconds: 3.2,
      }),
    ).toBe("baseline score on all 1,000,000 rows: 40% · about 3 s left");
    // Only while running: a finished run says how it ended.
    expect(statusText({ status: "done", elapsedSeconds: 42, phase })).toBe(
      "done in 42 s",
    );
  });

  it("errorMessage puts the Python error before drawing problems", () => {
    expect(errorMessage("error", "")).toBe("The computation failed.");
    expect(errorMessage("done", "", ["bad array"])).toBe("bad array");
    expect(errorMessage("error", "boom", ["", "bad array"])).toBe(
      "boom\nbad array",
    );
    expect(errorMessage("idle", undefined)).toBe("");
  });
});

describe("createStatus", () => {
  it("sets the bar, the text, the error box and the stale caption", () => {
    const status = createStatus("x");
    status.update({
      status: "running",
      progress: 0.25,
      text: "25%",
      message: "",
      stale: false,
    });
    const fill = status.bar.querySelector(".iw-progress-fill");
    expect(fill.style.width).toBe("25%");
    expect(
      status.bar.querySelector('[data-testid="x-progress"]').textContent,
    ).toBe("25%");
    expect(status.error.hidden).toBe(true);
    status.update({
      status: "done",
      progress: 0.5,
      text: "done",
      message: "<b>not bold</b>",
      stale: true,
    });
    expect(fill.style.width).toBe("100%");
    expect(status.error.hidden).toBe(false);
    expect(status.error.textContent).toBe("<b>not bold</b>");
    expect(status.error.querySelector("b")).toBeNull();
    expect(status.staleNote.hidden).toBe(false);
  });

  it("folds the traceback into a details disclosure of the error box", () => {
    const status = createStatus("x");
    const state = {
      status: "error",
      progress: 0,
      text: "error",
      message: "ValueError: boom",
      stale: false,
    };
    const traceback = 'Traceback (most recent call last):\n  File "<b>x</b>"';
    status.update({ ...state, details: traceback });
    const details = status.error.querySelector('[data-testid="x-error-details"]');
    expect(details.tagName).toBe("DETAILS");
    expect(details.open).toBe(false);
    expect(details.querySelector("summary").textContent).toBe("details");
    const pre = details.querySelector('[data-testid="x-error-traceback"]');
    expect(pre.textContent).toBe(traceback);
    expect(pre.querySelector("b")).toBeNull();
    expect(status.error.firstChild.data).toBe("ValueError: boom");
    // Opened by the user, it stays open while the same error is redrawn.
    details.open = true;
    status.update({ ...state, details: traceback });
    expect(details.open).toBe(true);
    expect(status.error.querySelectorAll("details")).toHaveLength(1);
    // Without a traceback (or without an error) the box holds the message only.
    status.update({ ...state, details: "" });
    expect(status.error.textContent).toBe("ValueError: boom");
    status.update({ ...state, message: "", details: traceback });
    expect(status.error.hidden).toBe(true);
    expect(status.error.querySelector("details")).toBeNull();
  });
});

describe("bindModel", () => {
  it("saves together, increments counters and removes its listeners", () => {
    const model = new FakeModel({ a: 1, b: 2, _run_requests: 3 });
    const binding = bindModel(model);
    let calls = 0;
    binding.on(["a", "b"], () => {
      calls += 1;
    });
    binding.save({ a: 5, b: 6 });
    expect(calls).toBe(2);
    expect(model.saves).toHaveLength(1);
    binding.increment("_run_requests");
    expect(model.get("_run_requests")).toBe(4);
    expect(binding.list("a")).toEqual([]);
    binding.removeAll();
    expect(model.listenerCount()).toBe(0);
  });
});
