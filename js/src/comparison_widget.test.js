import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { isolate } from "./charts/format.js";
import widget from "./comparison_widget.js";
import {
  FakeModel,
  DONE_RUN_TRAITS,
  attachedElement,
  change,
  click,
  correlationPayload,
  groupsPayload,
  measuresPayload,
  payloadPacker,
  perClassPayload,
  queryAllTestId,
  queryTestId,
  stubAnimationFrames,
  checkRedrawGuard,
} from "./test_helpers.js";

function makeModel(overrides = {}) {
  const pack = payloadPacker();
  return new FakeModel({
    scoring: "r2",
    n_repeats: 10,
    sort_by: "permutation_test",
    correlation_threshold: 0.4,
    view: "measures",
    ...DONE_RUN_TRAITS,
    _elapsed_seconds: 3.21,
    _scorer_options: ["r2", "neg_mean_squared_error"],
    _measures: measuresPayload(pack),
    _per_class: perClassPayload(pack),
    _correlation: correlationPayload(pack),
    _groups: groupsPayload(pack),
    ...overrides,
  });
}

// ---- Controlled animation frames --------------------------------------------

let frames;
let cancelled;
let flushFrames;

let el;
let cleanup;
beforeEach(() => {
  ({ frames, cancelled, flush: flushFrames } = stubAnimationFrames());
  el = attachedElement();
  cleanup = null;
});
afterEach(() => {
  cleanup?.();
  el.remove();
  vi.unstubAllGlobals();
});

function mount(model) {
  cleanup = widget.render({ model, el });
  return model;
}

const byTestId = (id) => queryTestId(el, id);
const allByTestId = (id) => queryAllTestId(el, id);
const rowFeatures = () =>
  allByTestId("icw-row").map((r) => r.getAttribute("data-feature"));
const rowOf = (feature) =>
  allByTestId("icw-row").find(
    (r) => r.getAttribute("data-feature") === feature,
  );

describe("ImportanceComparisonWidget front end: controls", () => {
  it("renders the root hooks, controls and status", () => {
    mount(makeModel());
    const root = byTestId("icw-root");
    expect(root.classList.contains("inspectwidgets-comparison")).toBe(true);
    expect(root.classList.contains("inspectwidgets")).toBe(true);
    expect(root.getAttribute("data-status")).toBe("done");
    expect(root.getAttribute("data-view")).toBe("measures");
    const scoring = byTestId("icw-scoring");
    expect([...scoring.options].map((o) => o.value)).toEqual([
      "r2",
      "neg_mean_squared_error",
    ]);
    expect(scoring.value).toBe("r2");
    expect(byTestId("icw-repeats").value).toBe("10");
    expect(byTestId("icw-progress").textContent).toBe("done in 3.2 s");
    expect(byTestId("icw-error").hidden).toBe(true);
    expect(byTestId("icw-stop").disabled).toBe(true);
    expect(byTestId("icw-view-measures").getAttribute("aria-pressed")).toBe(
      "true",
    );
  });

  it("writes scoring, n_repeats and view; Run and Stop bump their counters", () => {
    const model = mount(makeModel({ status: "running", progress: 0.25 }));
    flushFrames();
    change(byTestId("icw-scoring"), "neg_mean_squared_error");
    expect(model.get("scoring")).toBe("neg_mean_squared_error");
    change(byTestId("icw-repeats"), "20");
    expect(model.get("n_repeats")).toBe(20);
    change(byTestId("icw-repeats"), "0");
    expect(model.get("n_repeats")).toBe(20);
    expect(byTestId("icw-repeats").value).toBe("20");
    click(byTestId("icw-view-correlation"));
    expect(model.get("view")).toBe("correlation");
    click(byTestId("icw-run"));
    expect(model.get("_run_requests")).toBe(1);
    expect(byTestId("icw-stop").disabled).toBe(false);
    click(byTestId("icw-stop"));
    expect(model.get("_stop_requests")).toBe(1);
    expect(model.saves).toHaveLength(5);
  });

  it("the Conditional checkbox writes `conditional` and follows it", () => {
    const model = mount(makeModel({ conditional: false }));
    const box = byTestId("icw-conditional");
    expect(box.checked).toBe(false);
    box.checked = true;
    box.dispatchEvent(new Event("change", { bubbles: true }));
    expect(model.get("conditional")).toBe(true);
    expect(model.saves).toHaveLength(1);
    model.set("conditional", false); // from Python
    expect(box.checked).toBe(false);
  });

  it("shows progress as a percentage with the ETA, and cancellation", () => {
    const model = mount(
      makeModel({ status: "running", progress: 0, _measures: {} }),
    );
    model.set("progress", 0.456);
    model.set("_eta_seconds", 4.2);
    flushFrames();
    expect(byTestId("icw-progress").textContent).toBe("45% · about 4 s left");
    expect(byTestId("icw-empty").textContent).toBe(
      "Computing the first repeat…",
    );
    model.set("status", "cancelled");
    flushFrames();
    expect(byTestId("icw-progress").textContent).toBe("cancelled at 45%");
    expect(byTestId("icw-root").getAttribute("data-status")).toBe("cancelled");
  });

  it("disables the per-class view, with a hint, when _per_class is empty", () => {
    const model = mount(makeModel({ _per_class: {} }));
    const button = byTestId("icw-view-classes");
    expect(button.disabled).toBe(true);
    expect(button.title).toMatch(/gradient boosting classifier/);
    expect(byTestId("icw-view-hint").hidden).toBe(false);
    click(button);
    expect(model.get("view")).toBe("measures");
    expect(model.saves).toHaveLength(0);
    model.set("_per_class", perClassPayload(payloadPacker()));
    flushFrames();
    expect(button.disabled).toBe(false);
    expect(byTestId("icw-view-hint").hidden).toBe(true);
  });

  it("shows errors as text and dims the last result", () => {
    const model = mount(makeModel());
    const message = "<img src=x onerror=alert(1)> is not a scorer";
    model.set("status", "error");
    model.set("error", message);
    flushFrames();
    expect(byTestId("icw-error").hidden).toBe(false);
    expect(byTestId("icw-error").textContent).toBe(message);
    expect(el.querySelector("img")).toBeNull();
    expect(byTestId("icw-stale-note").hidden).toBe(false);
    expect(
      el.querySelector(".icw-output").classList.contains("icw-stale"),
    ).toBe(true);
    model.set("status", "running");
    model.set("error", "");
    flushFrames();
    expect(byTestId("icw-error").hidden).toBe(true);
    expect(byTestId("icw-stale-note").hidden).toBe(true);
  });

  it("reports a malformed payload inline instead of throwing", () => {
    const pack = payloadPacker();
    const bad = measuresPayload(pack);
    bad.measures[0].values = pack([1, 2]);
    mount(makeModel({ _measures: bad }));
    expect(byTestId("icw-error").hidden).toBe(false);
    expect(byTestId("icw-error").textContent).toMatch(
      /^Could not draw _measures: mdi\.values has shape \[2\]/,
    );
  });
});

describe("ImportanceComparisonWidget front end: measures view", () => {
  it("draws a row per feature with a dot per measure, flags and their meaning", () => {
    mount(makeModel());
    expect(rowFeatures()).toEqual(["bmi", "s5", "bp", "age"]);
    expect(
      rowOf("bp").querySelectorAll('[data-testid="icw-dot"]'),
    ).toHaveLength(4);
    expect(
      allByTestId("icw-flag").map((f) =>
        f.closest('[data-testid="icw-row"]').getAttribute("data-feature"),
      ),
    ).toEqual(["bp", "age"]);
    const notes = byTestId("icw-notes");
    expect(notes.hidden).toBe(false);
    const items = [...notes.querySelectorAll("li")];
    expect(
      items.map((li) => li.querySelector(".icw-note-headline").textContent),
    ).toEqual([
      "train importance far above test",
      "high MDI but test permutation importance indistinguishable from zero",
      "negative test importance",
    ]);
    expect(items[2].textContent).toMatch(/hurts on new data \(\u2068age\u2069\)$/);
    expect(byTestId("icw-measures-caption").textContent).toBe(
      "scorer r2 · permutation: 5 of 10 repeats · baseline train 0.91, test 0.452 · sorted by Permutation (test)",
    );
    expect(byTestId("icw-measures").getAttribute("data-settled")).toBe("true");
  });

  it("hovering a row shows the raw values and the note in the tooltip", () => {
    mount(makeModel());
    rowOf("age").dispatchEvent(new Event("pointermove", { bubbles: true }));
    const tooltip = byTestId("icw-tooltip");
    expect(tooltip.style.display).toBe("");
    const lines = [...tooltip.children].map((d) => d.textContent);
    expect(lines[0]).toBe("age");
    expect(lines).toContain(
      "Permutation (test): −0.01 ± 0.004 (decrease in r2), interval −0.018 to −0.002",
    );
    // The flag, then the interval it rests on.
    expect(lines.at(-2)).toMatch(/^⚠ negative test importance: /);
    expect(lines.at(-1)).toBe(
      "Permutation (test) interval −0.018 to −0.002 (decrease in r2)",
    );
    expect(allByTestId("icw-tooltip")).toHaveLength(1);
  });

  it("draws values within noise hollow, says so on hover and in the legend", () => {
    mount(makeModel());
    const noisy = [...el.querySelectorAll('[data-within-noise="true"]')].map(
      (dot) => [
        dot.closest('[data-testid="icw-row"]').getAttribute("data-feature"),
        dot.getAttribute("data-measure"),
      ],
    );
    // Only bp's test interval (-0.01 to 0.11) includes 0.
    expect(noisy).toEqual([["bp", "permutation_test"]]);
    const dot = rowOf("bp").querySelector(
      '[data-measure="permutation_test"] circle',
    );
    expect(dot.classList.contains("icw-within-noise")).toBe(true);
    expect(dot.style.stroke).not.toBe("");
    // Whiskers span the interval, so a hollow dot's crosses the zero line.
    const zero = Number(el.querySelector("line.icw-zero").getAttribute("x1"));
    const spans = (feature) => {
      const whisker = rowOf(feature).querySelector(
        '[data-measure="permutation_test"] line.icw-whisker',
      );
      return ["x1", "x2"].map((a) => Number(whisker.getAttribute(a)));
    };
    const [bpLow, bpHigh] = spans("bp");
    expect(bpLow).toBeLessThan(zero);
    expect(bpHigh).toBeGreaterThan(zero);
    const [ageLow, ageHigh] = spans("age");
    expect(ageLow).toBeLessThan(ageHigh);
    expect(ageHigh).toBeLessThan(zero);
    const solid = rowOf("bmi").querySelector(
      '[data-measure="permutation_test"] circle',
    );
    expect(solid.classList.contains("icw-within-noise")).toBe(false);
    const key = byTestId("icw-noise-key");
    expect(key.style.display).toBe("");
    expect(key.getAttribute("title")).toMatch(/^hollow: within noise/);
    rowOf("bp").dispatchEvent(new Event("pointermove", { bubbles: true }));
    const lines = [...byTestId("icw-tooltip").children].map(
      (d) => d.textContent,
    );
    expect(lines).toContain(
      "Permutation (test): 0.05 ± 0.03 (decrease in r2), interval −0.01 to 0.11 (within noise)",
    );
  });

  it("hides the noise key when every value is clear of 0", () => {
    const pack = payloadPacker();
    mount(
      makeModel({
        _measures: measuresPayload(pack, { testStd: [0.01, 0.01, 0.01, 0.004] }),
      }),
    );
    expect(el.querySelectorAll('[data-within-noise="true"]')).toHaveLength(0);
    expect(byTestId("icw-noise-key").style.display).toBe("none");
  });

  it("offers the measures present as sort keys and saves the choice", () => {
    const model = mount(makeModel());
    const sort = byTestId("icw-sort");
    expect([...sort.options].map((o) => o.value)).toEqual([
      "mdi",
      "relative_importance",
      "permutation_train",
      "permutation_test",
    ]);
    expect(sort.value).toBe("permutation_test");
    sort.value = "mdi";
    change(sort);
    expect(model.get("sort_by")).toBe("mdi");
    expect(model.saves.at(-1).sort_by).toBe("mdi");
    // The rows keep Python's order until Python re-sorts.
    expect(rowFeatures()).toEqual(["bmi", "s5", "bp", "age"]);
    model.set(
      "_measures",
      measuresPayload(payloadPacker(), {
        features: ["age", "bp", "s5", "bmi"],
        sortBy: "mdi",
      }),
    );
    flushFrames();
    expect(rowFeatures()).toEqual(["age", "bp", "s5", "bmi"]);
    expect(byTestId("icw-measures-caption").textContent).toMatch(
      /sorted by MDI \(train, impurity\)$/,
    );
  });

  it("keeps row nodes while values fill in live (keyed by feature)", () => {
    const pack = payloadPacker();
    const model = mount(
      makeModel({
        status: "running",
        _measures: measuresPayload(pack, {
          only: ["mdi", "relative_importance", "permutation_test"],
          repeatsDone: 1,
        }),
      }),
    );
    const rows = new Map(rowFeatures().map((f) => [f, rowOf(f)]));
    const bmiDot = rowOf("bmi").querySelector('[data-measure="mdi"] circle');
    for (let done = 2; done <= 4; done += 1) {
      model.set(
        "_measures",
        measuresPayload(pack, {
          features: ["s5", "bmi", "bp", "age"],
          test: [0.25, 0.2, 0.05, -0.01],
          repeatsDone: done,
        }),
      );
    }
    expect(frames.size).toBe(1);
    flushFrames();
    expect(rowFeatures()).toEqual(["s5", "bmi", "bp", "age"]);
    for (const [feature, node] of rows) expect(rowOf(feature)).toBe(node);
    expect(rowOf("bmi").querySelector('[data-measure="mdi"] circle')).toBe(
      bmiDot,
    );
    expect(
      rowOf("bmi").querySelector(
        '[data-testid="icw-dot"][data-measure="permutation_train"]',
      ),
    ).not.toBeNull();
    expect(byTestId("icw-measures-caption").textContent).toMatch(
      /permutation: 4 of 10 repeats/,
    );
  });

  it("keeps a hostile feature name as text everywhere", () => {
    const evil = "<img src=x onerror=alert(1)>";
    const pack = payloadPacker();
    mount(
      makeModel({
        _measures: measuresPayload(pack, {
          features: ["bmi", "s5", "bp", evil],
        }),
        _per_class: {
          ...perClassPayload(pack),
          features: ["age", "bmi", "bp", evil],
        },
        _correlation: correlationPayload(pack, {
          features: ["bmi", "s5", "bp", evil],
        }),
        _groups: {
          ...groupsPayload(pack),
          groups: [
            { label: "s5 + bp", members: ["s5", "bp"] },
            { label: `bmi + ${evil}`, members: ["bmi", evil] },
          ],
        },
      }),
    );
    expect(rowOf(evil)).toBeDefined();
    rowOf(evil).dispatchEvent(new Event("pointermove", { bubbles: true }));
    expect(byTestId("icw-tooltip").firstChild.textContent).toBe(evil);
    expect(byTestId("icw-notes").textContent).toContain(evil);
    click(byTestId("icw-view-classes"));
    expect(
      allByTestId("icw-class-cell").some(
        (c) => c.getAttribute("data-feature") === evil,
      ),
    ).toBe(true);
    click(byTestId("icw-view-correlation"));
    expect(
      allByTestId("icw-group-bar").map((b) => b.getAttribute("data-group")),
    ).toContain(`bmi + ${evil}`);
    expect(
      el.querySelector(".icw-view-correlation .icw-row-labels").textContent,
    ).toContain(evil);
    expect(el.querySelector("img")).toBeNull();
  });
});

describe("ImportanceComparisonWidget front end: per-class view", () => {
  it("draws a classes x features heatmap with a legend", () => {
    const model = mount(makeModel({ view: "classes" }));
    expect(byTestId("icw-root").getAttribute("data-view")).toBe("classes");
    const cells = allByTestId("icw-class-cell");
    expect(cells).toHaveLength(12);
    const cell = cells.find(
      (c) =>
        c.getAttribute("data-class") === "versicolor" &&
        c.getAttribute("data-feature") === "bmi",
    );
    expect(Number(cell.getAttribute("data-value"))).toBe(100);
    expect(byTestId("icw-class-legend")).not.toBeNull();
    cell.dispatchEvent(new Event("pointermove", { bubbles: true }));
    expect(
      [...byTestId("icw-tooltip").children].map((d) => d.textContent),
    ).toEqual(["bmi", `class ${isolate("versicolor")}: 100 of 100`]);
    // Measures rows are gone from view (only the shown view is drawn).
    expect(el.querySelector(".icw-view-measures").hidden).toBe(true);
    model.set("view", "measures");
    expect(el.querySelector(".icw-view-classes").hidden).toBe(true);
    expect(byTestId("icw-tooltip").style.display).toBe("none");
  });
});

describe("ImportanceComparisonWidget front end: correlation view", () => {
  it("draws the matrix in leaf order, the dendrogram, cluster boxes and group bars", () => {
    mount(makeModel({ view: "correlation" }));
    expect(byTestId("icw-heatmap")).not.toBeNull();
    const cells = allByTestId("icw-cell");
    expect(cells).toHaveLength(16);
    expect(cells.slice(0, 4).map((c) => c.getAttribute("data-col"))).toEqual([
      "s5",
      "bp",
      "bmi",
      "age",
    ]);
    expect(
      byTestId("icw-dendrogram").querySelectorAll("path.icw-link"),
    ).toHaveLength(3);
    // At 0.6 the tree splits into the two pairs: two boxes.
    const boxes = [...el.querySelectorAll("rect.icw-cluster")];
    expect(
      boxes.map((b) => [
        b.getAttribute("data-start"),
        b.getAttribute("data-end"),
      ]),
    ).toEqual([
      ["0", "1"],
      ["2", "3"],
    ]);
    expect(byTestId("icw-cluster-count").textContent).toBe(
      "2 groups, 2 with several features",
    );
    const slider = byTestId("icw-threshold");
    expect(slider.type).toBe("range");
    expect(Number(slider.max)).toBe(1);
    expect(Number(slider.step)).toBeCloseTo(0.01, 6);
    expect(Number(slider.value)).toBeCloseTo(0.4, 6);
    expect(byTestId("icw-threshold-value").textContent).toBe("0.4");
    expect(
      allByTestId("icw-group-bar").map((b) => b.getAttribute("data-group")),
    ).toEqual(["s5 + bp", "bmi + age"]);
    expect(byTestId("icw-groups-caption").textContent).toBe(
      "|ρ| ≥ 0.4 · 4 of 10 repeats · baseline r2 = 0.452",
    );
  });

  it("the slider previews the cut while moving and writes correlation_threshold on release", () => {
    const model = mount(makeModel({ view: "correlation" }));
    const slider = byTestId("icw-threshold");
    slider.value = "0.7";
    slider.dispatchEvent(new Event("input", { bubbles: true }));
    // Preview: s5 + bp (|ρ| 0.9) joined, bmi and age (0.6) apart; nothing sent yet.
    expect(model.saves).toHaveLength(0);
    expect(el.querySelectorAll("rect.icw-cluster")).toHaveLength(1);
    expect(byTestId("icw-threshold-value").textContent).toBe("0.7");
    const line = el.querySelector("line.icw-threshold-line");
    const yPreview = Number(line.getAttribute("y1"));
    // The group bars are for 0.4: dimmed while the slider shows 0.7.
    expect(
      el.querySelector(".icw-corr-groups").classList.contains("icw-outdated"),
    ).toBe(true);
    slider.dispatchEvent(new Event("change", { bubbles: true }));
    expect(model.saves).toHaveLength(1);
    expect(model.get("correlation_threshold")).toBeCloseTo(0.7, 6);
    flushFrames();
    expect(Number(line.getAttribute("y1"))).toBeCloseTo(yPreview, 6);
    // Python recomputes the groups for the new |ρ|, live.
    const pack = payloadPacker();
    const bars = new Map(
      allByTestId("icw-group-bar").map((b) => [
        b.getAttribute("data-group"),
        b,
      ]),
    );
    model.set("_groups", {
      ...groupsPayload(pack, { correlationThreshold: 0.7, repeatsDone: 1 }),
      groups: [
        { label: "s5 + bp", members: ["s5", "bp"] },
        { label: "bmi", members: ["bmi"] },
        { label: "age", members: ["age"] },
      ],
      mean: pack([0.35, 0.1, 0.02]),
      std: pack([0.03, 0.01, 0.01]),
    });
    flushFrames();
    expect(
      el.querySelector(".icw-corr-groups").classList.contains("icw-outdated"),
    ).toBe(false);
    expect(
      allByTestId("icw-group-bar").map((b) => b.getAttribute("data-group")),
    ).toEqual(["s5 + bp", "bmi", "age"]);
    // The surviving group keeps its bar.
    expect(
      allByTestId("icw-group-bar").find(
        (b) => b.getAttribute("data-group") === "s5 + bp",
      ),
    ).toBe(bars.get("s5 + bp"));
    expect(byTestId("icw-groups-caption").textContent).toMatch(
      /1 of 10 repeats/,
    );
  });

  it("redraws the cut at the trait's |ρ| when the matrix is resized", () => {
    const observers = [];
    vi.stubGlobal(
      "ResizeObserver",
      class {
        constructor(callback) {
          observers.push(callback);
        }
        observe() {}
        disconnect() {}
      },
    );
    mount(makeModel({ view: "correlation" }));
    const line = el.querySelector("line.icw-threshold-line");
    const before = Number(line.getAttribute("y1"));
    Object.defineProperty(el.querySelector(".icw-corr-matrix"), "clientWidth", {
      value: 640,
      configurable: true,
    });
    for (const callback of observers) callback();
    expect(Number(line.getAttribute("y1"))).toBe(before);
    expect(el.querySelector(".icw-threshold-label").textContent).toBe("|ρ| ≥ 0.4");
  });

  it("follows the correlation_threshold trait when Python changes it", () => {
    const model = mount(makeModel({ view: "correlation" }));
    model.set("correlation_threshold", 0);
    flushFrames();
    expect(byTestId("icw-threshold-value").textContent).toBe("0");
    expect(el.querySelectorAll("rect.icw-cluster")).toHaveLength(1);
    expect(byTestId("icw-cluster-count").textContent).toBe(
      "1 group, 1 with several features",
    );
  });

  it("explains an empty correlation payload", () => {
    mount(makeModel({ view: "correlation", _correlation: {}, _groups: {} }));
    expect(byTestId("icw-heatmap").closest(".icw-corr-matrix").hidden).toBe(
      true,
    );
    expect(el.querySelector(".icw-view-correlation").textContent).toMatch(
      /needs at least two numeric features.*each feature is permuted on its own/,
    );
  });
});

describe("ImportanceComparisonWidget front end: lifecycle", () => {
  it("cleanup removes every model listener, DOM node and pending frame", () => {
    const model = makeModel();
    const c = widget.render({ model, el });
    expect(model.onCalls).toBeGreaterThan(10);
    model.set("progress", 0.5);
    expect(frames.size).toBe(1);
    const [pending] = frames.keys();
    c();
    expect(model.offCalls).toBe(model.onCalls);
    expect(model.listenerCount()).toBe(0);
    expect(cancelled).toContain(pending);
    expect(frames.size).toBe(0);
    expect(el.childNodes).toHaveLength(0);
  });

  it("supports two views of one model, each cleaned up on its own", () => {
    const model = makeModel();
    const other = document.createElement("div");
    const c1 = widget.render({ model, el });
    const c2 = widget.render({ model, el: other });
    const perView = model.listenerCount() / 2;
    c1();
    expect(model.listenerCount()).toBe(perView);
    model.set("view", "correlation");
    expect(other.querySelectorAll('[data-testid="icw-cell"]')).toHaveLength(16);
    c2();
    expect(model.listenerCount()).toBe(0);
  });
});

describe("an error in the view", () => {
  it("is shown and logged, and never freezes the progress line", () => {
    const model = mount(makeModel());
    flushFrames();
    checkRedrawGuard(model, el, "icw", flushFrames);
  });
});
