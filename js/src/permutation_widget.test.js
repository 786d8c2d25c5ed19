import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import widget from "./permutation_widget.js";
import {
  FakeModel,
  DONE_RUN_TRAITS,
  MSE,
  R2,
  attachedElement,
  click,
  makeChart,
  queryAllTestId,
  queryTestId,
  splitChart,
  stubAnimationFrames,
  checkRedrawGuard,
  longestDrawnText,
  pressEnter,
} from "./test_helpers.js";

function makeModel(overrides = {}) {
  return new FakeModel({
    features: ["age", "bmi", "bp", "s5"],
    n_repeats: 5,
    scoring: ["r2", "neg_mean_squared_error"],
    scorer: "r2",
    kind: "bar",
    max_features: 20,
    ...DONE_RUN_TRAITS,
    _feature_options: ["age", "bmi", "bp", "s5"],
    _scorer_options: ["r2", "neg_mean_squared_error", "explained_variance"],
    _repeats_done: 3,
    _repeats_total: 5,
    _elapsed_seconds: 3.21,
    _chart: makeChart({ r2: R2, neg_mean_squared_error: MSE }),
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
const barFeatures = () =>
  allByTestId("piw-bar").map((b) => b.getAttribute("data-feature"));
const featureBox = (name) =>
  allByTestId("piw-feature-option").find(
    (b) => b.getAttribute("data-feature") === name,
  );
const scorerBox = (name) =>
  allByTestId("piw-scorer-option").find(
    (b) => b.getAttribute("data-scorer") === name,
  );
function toggle(box) {
  box.checked = !box.checked;
  box.dispatchEvent(new Event("change", { bubbles: true }));
}

// ---- The widget ---------------------------------------------------------------

describe("PermutationImportanceWidget front end", () => {
  it("renders the displayed scorer's bars, baseline, notes and status hooks", () => {
    mount(makeModel());
    const root = byTestId("piw-root");
    expect(root.classList.contains("inspectwidgets-permutation")).toBe(true);
    expect(root.getAttribute("data-status")).toBe("done");
    expect(root.getAttribute("data-repeats-done")).toBe("3");
    expect(barFeatures()).toEqual(["bmi", "s5", "bp"]);
    expect(byTestId("piw-chart")).not.toBeNull();
    expect(byTestId("piw-baseline").textContent).toBe("baseline r2 = 0.452");
    expect(byTestId("piw-progress").textContent).toBe("done in 3.2 s");
    // "bp" has a negative mean: the note explains it.
    expect(byTestId("piw-negative-note").hidden).toBe(false);
    expect(byTestId("piw-hidden").hidden).toBe(true);
    expect(byTestId("piw-error").hidden).toBe(true);
  });

  it("says the inspector's bad-model warning above the chart when Python sends it", () => {
    const warning = "The model barely beats a dummy baseline. (test)";
    const model = mount(makeModel());
    expect(byTestId("piw-warning").hidden).toBe(true);
    model.set("_chart", {
      ...makeChart({ r2: R2, neg_mean_squared_error: MSE }),
      warning,
    });
    flushFrames();
    const shown = byTestId("piw-warning");
    expect(shown.hidden).toBe(false);
    expect(shown.textContent).toBe(warning);
    // Before the baseline and the bars, as the inspector's header is.
    const output = shown.parentElement;
    expect(output.firstElementChild).toBe(shown);
    expect(barFeatures()).toEqual(["bmi", "s5", "bp"]);
    model.set("_chart", makeChart({ r2: R2, neg_mean_squared_error: MSE }));
    flushFrames();
    expect(byTestId("piw-warning").hidden).toBe(true);
  });

  it("switches the displayed scorer from the model without Python", () => {
    const model = mount(makeModel());
    model.set("scorer", "neg_mean_squared_error");
    // Redrawn synchronously: no frame, no save_changes.
    expect(barFeatures()).toEqual(["s5", "age"]);
    expect(model.saves).toHaveLength(0);
    expect(byTestId("piw-scorer").value).toBe("neg_mean_squared_error");
    expect(byTestId("piw-baseline").textContent).toBe(
      "baseline neg_mean_squared_error = −2,900",
    );
    expect(byTestId("piw-hidden").textContent).toBe(
      "2 more features not shown (max_features = 20).",
    );
    expect(byTestId("piw-negative-note").hidden).toBe(true);
  });

  it("switches the displayed scorer from the select and writes the trait back", () => {
    const model = mount(makeModel());
    const select = byTestId("piw-scorer");
    expect([...select.options].map((o) => o.value)).toEqual([
      "r2",
      "neg_mean_squared_error",
    ]);
    const s5 = allByTestId("piw-bar").find(
      (b) => b.getAttribute("data-feature") === "s5",
    );
    select.value = "neg_mean_squared_error";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    // Redrawn in the change handler itself, before any frame.
    expect(barFeatures()).toEqual(["s5", "age"]);
    // The surviving feature keeps its bar element.
    expect(
      allByTestId("piw-bar").find(
        (b) => b.getAttribute("data-feature") === "s5",
      ),
    ).toBe(s5);
    expect(model.get("scorer")).toBe("neg_mean_squared_error");
    expect(model.saves).toHaveLength(1);
  });

  it("Run increments _run_requests and saves", () => {
    const model = mount(makeModel({ _run_requests: 4 }));
    click(byTestId("piw-run"));
    expect(model.get("_run_requests")).toBe(5);
    expect(model.saves).toHaveLength(1);
    expect(model.saves[0]._run_requests).toBe(5);
  });

  it("enables Stop only while running; Stop increments _stop_requests", () => {
    const model = mount(makeModel({ status: "idle", _chart: {} }));
    const stop = byTestId("piw-stop");
    expect(stop.disabled).toBe(true);
    model.set("status", "running");
    flushFrames();
    expect(stop.disabled).toBe(false);
    expect(byTestId("piw-root").getAttribute("data-status")).toBe("running");
    click(stop);
    expect(model.get("_stop_requests")).toBe(1);
    expect(model.saves).toHaveLength(1);
    for (const status of ["cancelled", "done", "error", "idle"]) {
      model.set("status", status);
      flushFrames();
      expect(stop.disabled).toBe(true);
    }
  });

  it("the repeats input writes n_repeats and rejects values below 1", () => {
    const model = mount(makeModel());
    const input = byTestId("piw-repeats");
    expect(input.value).toBe("5");
    input.value = "12";
    input.dispatchEvent(new Event("change", { bubbles: true }));
    expect(model.get("n_repeats")).toBe(12);
    expect(model.saves).toHaveLength(1);
    input.value = "0";
    input.dispatchEvent(new Event("change", { bubbles: true }));
    expect(model.get("n_repeats")).toBe(12);
    expect(input.value).toBe("12");
    expect(model.saves).toHaveLength(1);
    model.set("n_repeats", 3);
    expect(input.value).toBe("3");
  });

  it("Enter in the repeats input writes n_repeats, once, and stops there", () => {
    const model = mount(makeModel());
    const input = byTestId("piw-repeats");
    const outside = vi.fn(); // JupyterLab's shortcuts listen on the document
    document.addEventListener("keydown", outside);
    input.focus();
    input.value = "12";
    const event = pressEnter(input);
    document.removeEventListener("keydown", outside);
    expect(model.get("n_repeats")).toBe(12);
    expect(model.saves).toHaveLength(1);
    expect(event.defaultPrevented).toBe(true);
    expect(outside).not.toHaveBeenCalled();
    // Leaving the field afterwards sends nothing new.
    input.dispatchEvent(new Event("change", { bubbles: true }));
    expect(model.saves).toHaveLength(1);
    input.value = "0";
    pressEnter(input);
    expect(input.value).toBe("12");
    expect(model.saves).toHaveLength(1);
    // The field shows what was sent, in whole digits, focused or not.
    input.value = "1e3";
    pressEnter(input);
    expect(model.get("n_repeats")).toBe(1000);
    expect(input.value).toBe("1000");
    input.value = "1e3";
    input.dispatchEvent(new Event("change", { bubbles: true }));
    expect(input.value).toBe("1000");
    expect(model.saves).toHaveLength(2);
  });

  it("Enter in the k field picks the top k, as the Top button does", () => {
    const model = mount(makeModel({ features: ["age"] }));
    byTestId("piw-top-k").value = "2";
    pressEnter(byTestId("piw-top-k"));
    click(byTestId("piw-apply"));
    expect(model.get("features")).toEqual(["bmi", "s5"]);
  });

  it("the repeats input refuses whole numbers JSON cannot carry exactly", () => {
    // 1e21 is sent as "1e+21", a float Python's Int trait refuses, and
    // 99999999999999999999 as 10**20: neither is what the page shows.
    const model = mount(makeModel());
    const input = byTestId("piw-repeats");
    for (const text of ["1e21", "99999999999999999999", "9007199254740992"]) {
      input.value = text;
      input.dispatchEvent(new Event("change", { bubbles: true }));
      expect(model.get("n_repeats")).toBe(5);
      expect(input.value).toBe("5");
    }
    expect(model.saves).toHaveLength(0);
    input.value = "9007199254740991"; // 2^53 - 1: exact, sent
    input.dispatchEvent(new Event("change", { bubbles: true }));
    expect(model.get("n_repeats")).toBe(9007199254740991);
  });

  it("shows the error as text and stays usable", () => {
    const model = mount(makeModel());
    const message = "<img src=x onerror=alert(1)> is not a column";
    model.set("status", "error");
    model.set("error", message);
    flushFrames();
    const box = byTestId("piw-error");
    expect(box.hidden).toBe(false);
    expect(box.textContent).toBe(message);
    expect(el.querySelector("img")).toBeNull();
    expect(byTestId("piw-progress").textContent).toBe("error");
    expect(byTestId("piw-run").disabled).toBe(false);
    model.set("status", "running");
    model.set("error", "");
    flushFrames();
    expect(box.hidden).toBe(true);
  });

  it("shows hostile feature names literally in options, chart, tooltip and table", () => {
    const evil = "<img src=x onerror=alert(1)>";
    const chart = makeChart({ r2: { ...R2, features: [evil, "s5", "bp"] } });
    const model = mount(
      makeModel({
        _feature_options: [evil, "s5", "bp"],
        features: [evil],
        _chart: chart,
      }),
    );
    expect(featureBox(evil)).toBeDefined();
    expect(barFeatures()[0]).toBe(evil);
    allByTestId("piw-bar")[0].dispatchEvent(
      new Event("pointermove", { bubbles: true }),
    );
    expect(el.querySelector(".piw-tooltip-title").textContent).toBe(evil);
    click(byTestId("piw-kind-table"));
    expect(model.get("kind")).toBe("table");
    expect(byTestId("piw-table").querySelector("tbody th").textContent).toBe(
      evil,
    );
    expect(el.querySelector("img")).toBeNull();
  });

  it("the method switch sets `method`, follows it and hides with one option", () => {
    const model = mount(
      makeModel({
        method: "marginal",
        _method_options: ["marginal", "conditional"],
      }),
    );
    const conditional = byTestId("piw-method-conditional");
    expect(conditional.parentElement.hidden).toBe(false);
    expect(byTestId("piw-method-marginal").getAttribute("aria-pressed")).toBe(
      "true",
    );
    click(conditional);
    expect(model.get("method")).toBe("conditional");
    expect(model.saves).toHaveLength(1);
    expect(conditional.getAttribute("aria-pressed")).toBe("true");
    click(conditional); // already conditional: nothing sent
    expect(model.saves).toHaveLength(1);
    model.set("method", "marginal"); // from Python
    expect(conditional.getAttribute("aria-pressed")).toBe("false");
    model.set("_method_options", ["marginal"]); // cross-validated view
    expect(conditional.parentElement.hidden).toBe(true);
  });

  it("shows a conditional result's subgroups on hover of a bar and a table row", () => {
    const chart = {
      ...makeChart({ r2: R2 }),
      method: "conditional",
      subgroups: {
        bmi: [
          ["plan = 'free' and age <= 32", 151],
          ["plan = 'free' and age > 32", 90],
          ["plan != 'free'", 201],
        ],
        s5: [["all rows", 442]],
        bp: [["all rows", 442]],
      },
    };
    const model = mount(makeModel({ method: "conditional", _chart: chart }));
    flushFrames();
    expect(byTestId("piw-baseline").textContent).toContain("conditional");
    allByTestId("piw-bar")[0].dispatchEvent(
      new Event("pointermove", { bubbles: true }),
    );
    const lines = [...byTestId("piw-tooltip").children].map(
      (line) => line.textContent,
    );
    expect(lines.slice(-4)).toEqual([
      "3 subgroups:",
      "\u2068plan = 'free' and age <= 32\u2069 (151 rows)",
      "\u2068plan = 'free' and age > 32\u2069 (90 rows)",
      "\u2068plan != 'free'\u2069 (201 rows)",
    ]);
    click(byTestId("piw-kind-table"));
    expect(model.get("kind")).toBe("table");
    const heads = byTestId("piw-table").querySelectorAll("tbody th");
    expect(heads[1].getAttribute("title")).toBe(
      "1 subgroup: \u2068all rows\u2069 (442 rows; no other feature predicts it)",
    );
  });

  it("the kind switch draws bars, boxes or a table", () => {
    const model = mount(makeModel());
    expect(byTestId("piw-kind-bar").getAttribute("aria-pressed")).toBe("true");
    click(byTestId("piw-kind-box"));
    expect(model.get("kind")).toBe("box");
    expect(model.saves).toHaveLength(1);
    expect(
      allByTestId("piw-box").map((b) => b.getAttribute("data-feature")),
    ).toEqual(["bmi", "s5", "bp"]);
    expect(byTestId("piw-kind-box").getAttribute("aria-pressed")).toBe(
      "true",
    );
    click(byTestId("piw-kind-table"));
    const table = byTestId("piw-table");
    expect(table.hidden).toBe(false);
    expect(el.querySelector(".piw-chart-host").hidden).toBe(true);
    const rows = [...table.querySelectorAll("tbody tr")].map((tr) =>
      [...tr.children].map((c) => c.textContent),
    );
    expect(rows[0]).toEqual(["bmi", "0.3", "0.02", "0.152", "0.452"]);
    expect(rows[2][1]).toBe("−0.02");
    expect(
      [...table.querySelectorAll("thead th")].map((th) => th.textContent),
    ).toEqual([
      "Feature",
      "Mean importance",
      "Std",
      "Permuted r2",
      "Baseline r2",
    ]);
  });

  it("coalesces bursts of live changes into one redraw per frame", () => {
    const model = mount(makeModel({ status: "running", _chart: {} }));
    expect(barFeatures()).toEqual([]);
    for (let done = 1; done <= 5; done += 1) {
      model.set("_repeats_done", done);
      model.set("progress", done / 5);
      model.set("_eta_seconds", 5 - done);
      model.set("_chart", makeChart({ r2: R2 }, { repeatsDone: 3 }));
    }
    expect(frames.size).toBe(1);
    expect(barFeatures()).toEqual([]); // not drawn before the frame
    flushFrames();
    expect(barFeatures()).toEqual(["bmi", "s5", "bp"]);
    expect(byTestId("piw-root").getAttribute("data-repeats-done")).toBe("5");
    expect(byTestId("piw-progress").textContent).toBe(
      "5 / 5 repeats · under 1 s left",
    );
    model.set("_repeats_done", 4);
    model.set("_eta_seconds", 4.2);
    flushFrames();
    expect(byTestId("piw-progress").textContent).toBe(
      "4 / 5 repeats · about 4 s left",
    );
  });

  it("stages feature choices and applies them together", () => {
    const model = mount(makeModel());
    const apply = byTestId("piw-apply");
    expect(featureBox("age").checked).toBe(true);
    expect(apply.disabled).toBe(true);
    toggle(featureBox("age"));
    toggle(featureBox("bp"));
    expect(model.saves).toHaveLength(0);
    expect(apply.disabled).toBe(false);
    click(apply);
    expect(model.get("features")).toEqual(["bmi", "s5"]);
    expect(model.saves).toHaveLength(1);
    expect(apply.disabled).toBe(true);
  });

  it("never sends an empty feature list", () => {
    const model = mount(makeModel());
    click(el.querySelector(".piw-row-buttons button:nth-child(2)")); // None
    expect(allByTestId("piw-feature-option").every((b) => !b.checked)).toBe(
      true,
    );
    expect(byTestId("piw-apply").disabled).toBe(true);
    expect(byTestId("piw-run").disabled).toBe(true);
    expect(byTestId("piw-hint").textContent).toBe(
      "Select at least one feature.",
    );
    click(byTestId("piw-apply"));
    click(byTestId("piw-run"));
    expect(model.saves).toHaveLength(0);
    expect(model.get("features")).toHaveLength(4);
  });

  it("filters the feature list; All and None act on the features shown", () => {
    const model = mount(
      makeModel({
        features: ["age"],
        _feature_options: ["age", "bmi", "bp", "s1", "s2"],
      }),
    );
    const filter = byTestId("piw-feature-filter");
    filter.value = "S";
    filter.dispatchEvent(new Event("input", { bubbles: true }));
    const shown = allByTestId("piw-feature-option").filter(
      (b) => !b.closest("label").hidden,
    );
    expect(shown.map((b) => b.getAttribute("data-feature"))).toEqual([
      "s1",
      "s2",
    ]);
    click(el.querySelector(".piw-row-buttons button:nth-child(1)")); // All
    click(byTestId("piw-apply"));
    expect(model.get("features")).toEqual(["age", "s1", "s2"]);
  });

  it("Top k picks the most important features of the displayed scorer", () => {
    const model = mount(makeModel({ features: ["age"] }));
    byTestId("piw-top-k").value = "2";
    click(byTestId("piw-top"));
    click(byTestId("piw-apply"));
    expect(model.get("features")).toEqual(["bmi", "s5"]);
  });

  it("Run sends staged choices instead of a run request", () => {
    const model = mount(makeModel());
    toggle(featureBox("age"));
    click(byTestId("piw-run"));
    expect(model.get("features")).toEqual(["bmi", "bp", "s5"]);
    expect(model.get("_run_requests")).toBe(0);
    expect(model.saves).toHaveLength(1);
  });

  it("stages scorers, never sends none, and keeps scorer in scoring", () => {
    const model = mount(makeModel());
    toggle(scorerBox("r2"));
    toggle(scorerBox("neg_mean_squared_error"));
    expect(byTestId("piw-apply").disabled).toBe(true);
    expect(byTestId("piw-hint").textContent).toBe(
      "Select at least one scorer.",
    );
    toggle(scorerBox("explained_variance"));
    click(byTestId("piw-apply"));
    expect(model.get("scoring")).toEqual(["explained_variance"]);
    expect(model.get("scorer")).toBe("explained_variance");
    expect(model.saves).toHaveLength(1);
    expect(byTestId("piw-empty").textContent).toBe(
      "No result for explained_variance yet: press Run.",
    );
  });

  it("shows a decoding problem inline instead of throwing", () => {
    const chart = makeChart({ r2: R2 });
    chart.scorers.r2.mean = {
      data: new DataView(new ArrayBuffer(8)),
      dtype: "float32",
      shape: [2],
    };
    mount(makeModel({ _chart: chart }));
    expect(byTestId("piw-error").hidden).toBe(false);
    expect(byTestId("piw-error").textContent).toMatch(
      /^Could not draw the result: r2\.mean has 2 values for 3 features/,
    );
  });

  it("shows the negative note only when something is drawn as negative", () => {
    // "bp": one repeat far below 0 pulls the mean below 0, but the median
    // (0.01) stays above it: its bar is orange, its box is not.
    const mixed = {
      ...R2,
      mean: [0.3, 0.15, -0.09],
      values: [0.28, 0.3, 0.32, 0.14, 0.15, 0.16, -0.3, 0.01, 0.02],
    };
    const model = mount(makeModel({ _chart: makeChart({ r2: mixed }) }));
    const note = byTestId("piw-negative-note");
    const negativeBoxes = () => el.querySelectorAll(".piw-box.piw-negative");
    expect(el.querySelectorAll(".piw-bar.piw-negative")).toHaveLength(1);
    expect(note.hidden).toBe(false);
    expect(note.textContent).toMatch(/^Negative: shuffling the feature/);
    expect(note.textContent).not.toMatch(/does not rely/);

    model.set("kind", "box");
    expect(allByTestId("piw-box")).toHaveLength(3);
    expect(negativeBoxes()).toHaveLength(0);
    expect(note.hidden).toBe(true);

    // All of bp's repeats below 0: its box is orange and the note says why.
    model.set("_chart", makeChart({ r2: R2 }));
    flushFrames();
    expect(negativeBoxes()).toHaveLength(1);
    expect(negativeBoxes()[0].getAttribute("data-feature")).toBe("bp");
    expect(note.hidden).toBe(false);
    expect(note.textContent).toMatch(/^Median below 0: /);
    expect(note.classList.contains("piw-negative-note-box")).toBe(true);

    model.set("kind", "table");
    expect(note.hidden).toBe(false);
    expect(note.textContent).toMatch(/^Negative: /);
    expect(note.classList.contains("piw-negative-note-box")).toBe(false);
  });

  it("keeps whole scorer names, with a title, and counts the scorers", () => {
    const long = "neg_mean_absolute_percentage_error";
    mount(
      makeModel({
        _scorer_options: ["r2", "neg_mean_squared_error", long],
      }),
    );
    const option = scorerBox(long).closest("label");
    expect(option.getAttribute("title")).toBe(long);
    expect(option.querySelector(".piw-option-label").textContent).toBe(long);
    const count = el.querySelector(".piw-group-scorers .piw-count");
    expect(count.textContent).toBe("2 of 3");
    toggle(scorerBox(long));
    expect(count.textContent).toBe("3 of 3");
  });

  it("cuts a 1 MB feature and scorer in the bars, table and menu, each whole on hover (#49 item 9)", () => {
    const huge = (c) => c.repeat(1_000_000);
    const features = [huge("f"), "s5", "bp"];
    const model = mount(
      makeModel({
        _feature_options: features,
        _scorer_options: [huge("s"), "r2"],
        scoring: [huge("s"), "r2"],
        scorer: huge("s"),
        _chart: makeChart({ [huge("s")]: { ...R2, features }, r2: { ...R2, features } }),
      }),
    );
    expect(barFeatures()).toContain(huge("f"));
    expect(longestDrawnText(el).length).toBeLessThan(300);
    const menu = byTestId("piw-scorer");
    expect(menu.value).toBe(huge("s"));
    expect(menu.options[0].title).toBe(huge("s"));
    // The table: each feature's row cut, the whole name on hover.
    model.set("kind", "table");
    flushFrames();
    expect(longestDrawnText(el).length).toBeLessThan(300);
    const rows = [...byTestId("piw-table").querySelectorAll("tbody th")];
    expect(rows.map((r) => r.title)).toContain(huge("f"));
  });

  it("writes each table column, and the tooltip, in one number notation", () => {
    const small = {
      features: ["a", "b", "c", "d"],
      baseline: 0.965,
      mean: [0.0122, 0.0035, 0.000874, 0],
      std: [0.00005, 0.000002, 0.00004, 0],
      permuted: [0.953, 0.962, 0.964, 0.965],
      values: [
        0.012, 0.0122, 0.0124, 0.0035, 0.0035, 0.0035, 0, 0.001, 0.0016, 0, 0,
        0,
      ],
    };
    const model = mount(
      makeModel({
        kind: "table",
        scorer: "accuracy",
        scoring: ["accuracy"],
        _chart: makeChart({ accuracy: small }),
      }),
    );
    const cells = [...byTestId("piw-table").querySelectorAll("tbody tr")].map(
      (tr) => [...tr.children].map((c) => c.textContent),
    );
    const column = (j) => cells.map((row) => row[j]);
    // Decimal notation down the column, small values included...
    expect(column(1)).toEqual(["0.0122", "0.0035", "0.000874", "0"]);
    // ... scientific for a column that is all below 1e-4.
    expect(column(2)).toEqual(["5e-5", "2e-6", "4e-5", "0"]);
    expect(column(3)).toEqual(["0.953", "0.962", "0.964", "0.965"]);
    // The tooltip shows the table's digits.
    model.set("kind", "bar");
    const bar = allByTestId("piw-bar").find(
      (b) => b.getAttribute("data-feature") === "c",
    );
    bar.dispatchEvent(new Event("pointermove", { bubbles: true }));
    const lines = [...byTestId("piw-tooltip").children].map(
      (d) => d.textContent,
    );
    expect(lines[1]).toBe(`${cells[2][1]} ± ${cells[2][2]} (mean ± std)`);
    expect(lines.at(-1)).toBe(`accuracy ${cells[2][4]} → ${cells[2][3]}`);
  });

  it("dims the last result and says so while the error shows", () => {
    const model = mount(makeModel());
    const output = el.querySelector(".piw-output");
    const note = byTestId("piw-stale-note");
    expect(note.hidden).toBe(true);
    expect(output.classList.contains("piw-stale")).toBe(false);
    model.set("status", "error");
    model.set("error", "ValueError: n_repeats must be an int >= 1; got 0.");
    flushFrames();
    expect(byTestId("piw-error").hidden).toBe(false);
    expect(output.classList.contains("piw-stale")).toBe(true);
    expect(note.hidden).toBe(false);
    expect(note.textContent).toBe("Showing the last result before the error.");
    // The caption sits outside the dimmed output, under the error box.
    expect(output.contains(note)).toBe(false);
    expect(byTestId("piw-error").nextElementSibling).toBe(note);
    model.set("status", "running");
    model.set("error", "");
    flushFrames();
    expect(output.classList.contains("piw-stale")).toBe(false);
    expect(note.hidden).toBe(true);
  });

  it("shows the error_details traceback in a details disclosure", () => {
    const model = mount(makeModel({ status: "idle", _chart: {} }));
    model.set("status", "error");
    model.set("error", "RuntimeError: the model broke down");
    model.set("error_details", "Traceback (most recent call last):\n  boom");
    flushFrames();
    expect(byTestId("piw-error-traceback").textContent).toBe(
      "Traceback (most recent call last):\n  boom",
    );
    expect(byTestId("piw-error-details").open).toBe(false);
    model.set("status", "running");
    model.set("error", "");
    model.set("error_details", "");
    flushFrames();
    expect(byTestId("piw-error").hidden).toBe(true);
    expect(el.querySelector('[data-testid="piw-error-details"]')).toBeNull();
  });

  it("has no stale caption for an error without an earlier result", () => {
    const model = mount(makeModel({ status: "idle", _chart: {} }));
    model.set("status", "error");
    model.set("error", "boom");
    flushFrames();
    expect(byTestId("piw-error").hidden).toBe(false);
    expect(byTestId("piw-stale-note").hidden).toBe(true);
    expect(
      el.querySelector(".piw-output").classList.contains("piw-stale"),
    ).toBe(false);
  });

  it("cleanup removes every model listener, DOM node and pending frame", () => {
    const model = makeModel();
    const c = widget.render({ model, el });
    expect(model.onCalls).toBeGreaterThan(10);
    model.set("_repeats_done", 4); // schedules a frame
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
    model.set("scorer", "neg_mean_squared_error");
    expect(other.querySelectorAll('[data-testid="piw-bar"]')).toHaveLength(2);
    c2();
    expect(model.listenerCount()).toBe(0);
  });
});

describe("an error in the view", () => {
  it("is shown and logged, and never freezes the progress line", () => {
    const model = mount(makeModel());
    flushFrames();
    checkRedrawGuard(model, el, "piw", flushFrames);
  });
});

// ---- Split by -----------------------------------------------------------------

describe("split by", () => {
  const splitField = () => byTestId("piw-split-by").closest("label");

  it("is hidden where the view offers no column (cross-validated, out-of-bag)", () => {
    mount(makeModel({ _split_options: [], split_by: null }));
    expect(splitField().hidden).toBe(true);
    expect(byTestId("piw-grouped").closest(".piw-grouped-host").hidden).toBe(
      true,
    );
  });

  it("sends the column picked, and none", () => {
    const model = mount(
      makeModel({ _split_options: ["plan", "sex"], split_by: null }),
    );
    const select = byTestId("piw-split-by");
    expect(splitField().hidden).toBe(false);
    expect([...select.options].map((o) => o.value)).toEqual([
      "",
      "plan",
      "sex",
    ]);
    select.value = "plan";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    expect(model.saves.at(-1).split_by).toBe("plan");
    select.value = "";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    expect(model.saves.at(-1).split_by).toBeNull();
  });

  it("draws one dot per subgroup, the sizes and the greyed note", () => {
    const model = mount(
      makeModel({
        _split_options: ["plan"],
        split_by: "plan",
        scorer: "r2",
        _chart: splitChart(),
      }),
    );
    flushFrames();
    const grouped = byTestId("piw-grouped");
    expect(grouped.closest(".piw-grouped-host").hidden).toBe(false);
    expect(byTestId("piw-chart")?.closest(".piw-chart-host")?.hidden ?? true).toBe(
      true,
    );
    // tenure: "missing" has no number (NaN): 2 dots; plan: 3.
    const dots = (f) =>
      grouped.querySelectorAll(
        `[data-testid="icw-row"][data-feature="${f}"] [data-testid="icw-dot"]`,
      ).length;
    expect([dots("tenure"), dots("plan")]).toEqual([2, 3]);
    expect(grouped.textContent).toContain("missing (n = 12, few rows)");
    expect(byTestId("iw-grouped-note").textContent).toContain(
      "fewer than 30 rows",
    );
    expect(byTestId("piw-baseline").textContent).toContain("split by \u2068plan\u2069");
    expect(byTestId("piw-hidden").textContent).toContain("1 more feature");
    // The kinds apply to the unsplit chart only; a split is marginal.
    expect(byTestId("piw-kind-box").disabled).toBe(true);
    expect(byTestId("piw-method-conditional").disabled).toBe(true);
    model.set("split_by", null);
    expect(byTestId("piw-kind-box").disabled).toBe(false);
    expect(byTestId("piw-method-conditional").disabled).toBe(false);
    model.set("method", "conditional");
    expect(byTestId("piw-split-by").disabled).toBe(true);
  });
});

describe("one rule for settings that start work (#52 item 6)", () => {
  /** @param {Element} from @param {Element | null} to */
  const leave = (from, to) =>
    from.dispatchEvent(new FocusEvent("focusout", { bubbles: true, relatedTarget: to }));

  it("a list of checkboxes applies when the focus leaves it, as Repeats does", () => {
    const model = mount(makeModel());
    toggle(featureBox("age"));
    // Within the list: still one choice in the making.
    leave(featureBox("age"), featureBox("bp"));
    toggle(featureBox("bp"));
    expect(model.saves).toHaveLength(0);
    // Out of it (to the scorers): applied, in one save.
    leave(featureBox("bp"), scorerBox(model.get("scoring")[0]));
    expect(model.saves).toHaveLength(1);
    expect(model.get("features")).toEqual(["bmi", "s5"]);
    // Scorers alike; Enter on a checkbox applies too.
    const before = model.saves.length;
    const box = scorerBox("explained_variance");
    toggle(box);
    expect(model.saves.length).toBe(before);
    box.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
    expect(model.saves.length).toBe(before + 1);
    expect(model.get("scoring")).toEqual(["r2", "neg_mean_squared_error", "explained_variance"]);
  });

  it("the Top box has a visible label", () => {
    mount(makeModel());
    const k = byTestId("piw-top-k");
    const label = k.closest("label");
    expect(label).not.toBeNull();
    expect(label.textContent.trim()).toBe("k");
    expect(k.getAttribute("aria-label")).toMatch(/how many features Top selects/);
  });
});
