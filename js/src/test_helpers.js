// Helpers for the widget tests (not bundled): a fake anywidget model and
// binary payloads as ipywidgets delivers them; animation frames under the
// test's control and a fresh element to render into.

import { expect, vi } from "vitest";

/** Like a Backbone model: `set` fires "change:<name>" synchronously. */
export class FakeModel {
  constructor(state) {
    this.state = { ...state };
    this.listeners = new Map();
    this.onCalls = 0;
    this.offCalls = 0;
    this.saves = [];
    // The render's own write (guardRender's view count) is kept apart, so
    // that `saves` holds what the user's actions wrote.
    this.viewCounts = 0;
    this.dirty = new Set();
  }

  get(name) {
    return this.state[name];
  }

  set(name, value) {
    const changed = this.state[name] !== value;
    this.state[name] = value;
    this.dirty.add(name);
    if (changed)
      for (const cb of [...(this.listeners.get(`change:${name}`) ?? [])]) cb();
  }

  on(event, cb) {
    this.onCalls += 1;
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event).add(cb);
  }

  off(event, cb) {
    this.offCalls += 1;
    this.listeners.get(event)?.delete(cb);
  }

  save_changes() {
    const written = [...this.dirty];
    this.dirty.clear();
    if (written.length === 1 && written[0] === "_views_rendered") this.viewCounts += 1;
    else this.saves.push({ ...this.state });
  }

  /** Number of listeners still registered. */
  listenerCount() {
    return [...this.listeners.values()].reduce((n, set) => n + set.size, 0);
  }
}

/**
 * Packs float32 arrays into one ArrayBuffer, each at a non-zero byte offset,
 * and returns `{data: DataView, dtype, shape}` payloads for them.
 *
 * @param {number} [bytes=65536] size of the buffer.
 * @returns {(values: number[], shape?: number[]) => {data: DataView,
 *   dtype: "float32", shape: number[]}}
 */
export function payloadPacker(bytes = 1 << 16) {
  const buffer = new ArrayBuffer(bytes);
  let offset = 12;
  return (values, shape = [values.length]) => {
    new Float32Array(buffer, offset, values.length).set(values);
    const data = new DataView(buffer, offset, values.length * 4);
    offset += values.length * 4 + 8;
    return { data, dtype: "float32", shape };
  };
}

// ---- PermutationImportanceWidget payloads ------------------------------------

/**
 * `_chart` with every array a DataView into one shared ArrayBuffer, at a
 * non-zero byteOffset, as ipywidgets delivers buffers.
 */
export function makeChart(
  scorers,
  { repeatsDone = 3, nRepeats = 5, nFeatures } = {},
) {
  const arrays = [];
  for (const block of Object.values(scorers)) {
    arrays.push(block.mean, block.std, block.permuted, block.values);
  }
  const floats = arrays.reduce((n, a) => n + a.length, 0);
  const buffer = new ArrayBuffer(16 + floats * 4 + 4);
  let offset = 16;
  const view = (values, shape) => {
    new Float32Array(buffer, offset, values.length).set(values);
    const dv = new DataView(buffer, offset, values.length * 4);
    offset += values.length * 4;
    return { data: dv, dtype: "float32", shape };
  };
  const out = {};
  for (const [name, block] of Object.entries(scorers)) {
    const k = block.features.length;
    out[name] = {
      features: block.features,
      n_hidden: block.nHidden ?? 0,
      baseline: block.baseline,
      greater_is_better: true,
      mean: view(block.mean, [k]),
      std: view(block.std, [k]),
      permuted_mean: view(block.permuted, [k]),
      values: view(block.values, [k, repeatsDone]),
    };
  }
  return {
    repeats_done: repeatsDone,
    n_repeats: nRepeats,
    n_features:
      nFeatures ??
      Math.max(...Object.values(scorers).map((b) => b.features.length)),
    scorers: out,
  };
}

export const R2 = {
  features: ["bmi", "s5", "bp"],
  baseline: 0.452,
  mean: [0.3, 0.15, -0.02],
  std: [0.02, 0.01, 0.005],
  permuted: [0.152, 0.302, 0.472],
  values: [0.28, 0.3, 0.32, 0.14, 0.15, 0.16, -0.025, -0.02, -0.015],
};
export const MSE = {
  features: ["s5", "age"],
  baseline: -2900,
  mean: [900, 50],
  std: [40, 10],
  permuted: [-3800, -2950],
  values: [860, 900, 940, 40, 50, 60],
  nHidden: 2,
};

// ---- ImportanceComparisonWidget payloads -------------------------------------

// The flags as the Python engine words them (comparison.py).
export const NEGATIVE =
  "negative test importance: permuting it improved the held-out score in every plausible repeat (its whole interval is below 0). The repeats vary the shuffles, not the held-out rows: check other rows (cross-validated importance) before concluding that the model's use of it hurts on new data";
export const OVERFIT =
  "train importance far above test: the model relies on it much more on its training data than on new data (overfitting)";
export const INFLATED_MDI =
  "high MDI but test permutation importance indistinguishable from zero: impurity importance favours features with many distinct values and is computed on training data, where the model may have overfitted";
export const WITHIN_NOISE =
  "hollow: within noise, the interval mean ± 2 std includes 0 (or fewer than 10 repeats are done)";

/** Normalized copy of `values` (what Python computes), for the fixtures. */
function normalize(values, std) {
  const scale = Math.max(...values.map(Math.abs)) || 1;
  return [values.map((v) => v / scale), std?.map((s) => s / scale)];
}

/**
 * A `_measures` payload for `features` (sorted by test importance) with
 * the four measures; `only` keeps the measures with those keys. Permutation
 * intervals are mean ± 2 std, "within noise" where they include 0, as Python
 * computes them.
 */
export function measuresPayload(
  pack,
  {
    features = ["bmi", "s5", "bp", "age"],
    mdi = [0.4, 0.3, 0.2, 0.1],
    relative = [100, 60, 40, 30],
    train = [0.5, 0.3, 0.2, 0.05],
    trainStd = [0.02, 0.02, 0.01, 0.01],
    // bp's test interval includes 0 (inflated MDI), age's lies below 0.
    test = [0.3, 0.2, 0.05, -0.01],
    testStd = [0.01, 0.01, 0.03, 0.004],
    notes = ["", "", `${OVERFIT}; ${INFLATED_MDI}`, NEGATIVE],
    only = null,
    repeatsDone = 5,
    sortBy = "permutation_test",
  } = {},
) {
  const plain = (key, label, values) => {
    const [normalized] = normalize(values);
    return {
      key,
      label,
      values: pack(values),
      normalized: pack(normalized),
    };
  };
  const spread = (key, label, values, std) => {
    const [normalized, normalizedStd] = normalize(values, std);
    const low = values.map((v, i) => v - 2 * std[i]);
    const high = values.map((v, i) => v + 2 * std[i]);
    const scale = Math.max(...values.map(Math.abs)) || 1;
    return {
      key,
      label,
      units: "decrease in r2",
      values: pack(values),
      std: pack(std),
      normalized: pack(normalized),
      normalized_std: pack(normalizedStd),
      low: pack(low),
      high: pack(high),
      normalized_low: pack(low.map((v) => v / scale)),
      normalized_high: pack(high.map((v) => v / scale)),
      within_noise: pack(low.map((l, i) => (l > 0 || high[i] < 0 ? 0 : 1))),
    };
  };
  const measures = [
    {
      ...plain("mdi", "MDI (train, impurity)", mdi),
      units: "share of the impurity decrease",
    },
    {
      ...plain("relative_importance", "ESL relative importance", relative),
      units: "% of the top feature",
    },
    spread("permutation_train", "Permutation (train)", train, trainStd),
    spread("permutation_test", "Permutation (test)", test, testStd),
  ].filter((m) => only === null || only.includes(m.key));
  return {
    features,
    measures,
    notes,
    flag_evidence: {
      [NEGATIVE]: ["permutation_test"],
      [OVERFIT]: ["permutation_train", "permutation_test"],
      [INFLATED_MDI]: ["permutation_test"],
    },
    within_noise_note: WITHIN_NOISE,
    sort_by: sortBy,
    repeats_done: repeatsDone,
    n_repeats: 10,
    scorer: "r2",
    baseline_train: 0.91,
    baseline_test: 0.452,
  };
}

/** `_per_class` for 3 classes x the 4 features. */
export function perClassPayload(
  pack,
  classes = ["setosa", "versicolor", "virginica"],
) {
  return {
    classes,
    features: ["age", "bmi", "bp", "s5"],
    values: pack(
      [100, 20, 5, 0, 30, 100, 10, 50, 0, 40, 100, 70],
      [classes.length, 4],
    ),
  };
}

/**
 * `_correlation` of 4 features, complete linkage on 1 - |ρ|: leaves s5 (1)
 * and bp (2) merge at 0.1 (|ρ| 0.9), bmi (0) and age (3) at 0.4 (|ρ| 0.6),
 * the two pairs at 1 (|ρ| 0); leaf order [1, 2, 0, 3].
 */
export function correlationPayload(pack, { features } = {}) {
  const names = features ?? ["bmi", "s5", "bp", "age"];
  const leafOrder = [1, 2, 0, 3];
  const rho = [
    [1, 0.9, -0.2, 0.1],
    [0.9, 1, -0.3, 0.0],
    [-0.2, -0.3, 1, 0.6],
    [0.1, 0.0, 0.6, 1],
  ];
  return {
    features: leafOrder.map((i) => names[i]),
    matrix: pack(rho.flat(), [4, 4]),
    linkage: pack([1, 2, 0.1, 2, 0, 3, 0.4, 2, 4, 5, 1, 4], [3, 4]),
    leaf_order: leafOrder,
    max_distance: 1.0,
  };
}

/** `_groups` at `correlation_threshold` 0.4 (two pairs), `repeatsDone` of 10. */
export function groupsPayload(
  pack,
  { repeatsDone = 4, correlationThreshold = 0.4 } = {},
) {
  return {
    correlation_threshold: correlationThreshold,
    groups: [
      { label: "s5 + bp", members: ["s5", "bp"] },
      { label: "bmi + age", members: ["bmi", "age"] },
    ],
    mean: pack([0.35, 0.12]),
    std: pack([0.03, 0.02]),
    repeats_done: repeatsDone,
    n_repeats: 10,
    scorer: "r2",
    baseline: 0.452,
  };
}

// ---- PartialDependenceWidget payloads ----------------------------------------

/**
 * A PartialDependenceWidget's traits after a finished run of "age" (its
 * `_curve` to add), with `overrides`.
 */
export function pdWidgetTraits(overrides = {}) {
  return {
    features: ["age"],
    kind: "both",
    centered: false,
    grid_resolution: 20,
    n_ice: 100,
    target: "",
    scale: "probability",
    ...DONE_RUN_TRAITS,
    _feature_options: ["age", "bmi", "colour"],
    _categorical: ["colour"],
    _target_options: [],
    ...overrides,
  };
}

/**
 * A payload packer with room for `floats` float32 values (for the big ICE
 * payloads); each array sits at a non-zero byte offset like `payloadPacker`.
 */
export function bigPayloadPacker(floats) {
  return payloadPacker(floats * 4 + 4096);
}

/** Values of the first `done` points, NaN beyond (a streaming run). */
const upTo = (values, done) => values.map((v, j) => (j < done ? v : NaN));

/**
 * A 1-way numeric `_curve`: grid 0..g-1 (x = j / 2), PDP = sin, `m` ICE
 * curves shifted from it, 10 histogram bins and 9 deciles.
 */
export function numericCurve(
  pack,
  {
    feature = "age",
    g = 20,
    m = 5,
    done = g,
    average = true,
    nRows = 400,
    correlated = [],
    yLabel = "prediction",
  } = {},
) {
  const grid = Array.from({ length: g }, (_, j) => j / 2);
  const pdp = grid.map((x) => Math.sin(x));
  const ice = [];
  for (let i = 0; i < m; i += 1)
    ice.push(
      ...upTo(
        pdp.map((v) => v + (i - m / 2) * 0.1),
        done,
      ),
    );
  const edges = Array.from({ length: 11 }, (_, k) => -1 + k * 1.2);
  return {
    features: [feature],
    categorical: false,
    grid: pack(grid),
    grid_labels: [],
    grid_done: done,
    average: average ? pack(upTo(pdp, done)) : null,
    individual: m > 0 ? pack(ice, [m, g]) : null,
    n_rows: nRows,
    y_label: yLabel,
    distribution: {
      kind: "histogram",
      edges: pack(edges),
      counts: pack([3, 10, 20, 40, 60, 80, 70, 50, 20, 5]),
      deciles: pack([1, 2, 3, 4, 5, 6, 7, 8, 9]),
    },
    correlated,
  };
}

/** A 1-way categorical `_curve` over `labels`. */
export function categoricalCurve(
  pack,
  { labels = ["red", "green", "blue"], m = 4, done = labels.length } = {},
) {
  const g = labels.length;
  const pdp = labels.map((_, j) => 0.2 + 0.1 * j);
  const ice = [];
  for (let i = 0; i < m; i += 1)
    ice.push(
      ...upTo(
        pdp.map((v) => v + i * 0.01),
        done,
      ),
    );
  return {
    features: ["colour"],
    categorical: true,
    grid: pack(labels.map((_, j) => j)),
    grid_labels: labels,
    grid_done: done,
    average: pack(upTo(pdp, done)),
    individual: m > 0 ? pack(ice, [m, g]) : null,
    n_rows: 300,
    y_label: "partial dependence (probability of class 1)",
    distribution: {
      kind: "categories",
      labels: [...labels].reverse(),
      counts: pack(labels.map((_, j) => 10 * (j + 1)).reverse()),
    },
    correlated: [],
  };
}

/** A 2-way numeric × numeric `_curve`: average[i, j] = x_i * y_j. */
export function twoWayCurve(
  pack,
  { ga = 6, gb = 5, done = ga, categoricalY = false } = {},
) {
  const grid = Array.from({ length: ga }, (_, i) => i - 2);
  const gridY = Array.from({ length: gb }, (_, j) => j / 2);
  const average = [];
  for (let i = 0; i < ga; i += 1)
    for (let j = 0; j < gb; j += 1)
      average.push(i < done ? grid[i] * gridY[j] : NaN);
  const yLabels = categoricalY ? gridY.map((_, j) => `c${j}`) : [];
  return {
    features: ["age", "bmi"],
    categorical: [false, categoricalY],
    grid: pack(grid),
    grid_labels: [],
    grid_y: pack(categoricalY ? gridY.map((_, j) => j) : gridY),
    grid_y_labels: yLabels,
    grid_done: done,
    average: pack(average, [ga, gb]),
    n_rows: 200,
    y_label: "prediction",
    distribution: {
      kind: "histogram",
      edges: pack([-3, -1, 1, 3]),
      counts: pack([5, 10, 5]),
      deciles: pack([-2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, 2]),
    },
    distribution_y: categoricalY
      ? {
          kind: "categories",
          labels: yLabels,
          counts: pack(gridY.map(() => 4)),
        }
      : {
          kind: "histogram",
          edges: pack([0, 1, 2, 3]),
          counts: pack([4, 8, 2]),
          deciles: pack([0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.6, 1.8]),
        },
    correlated: [],
  };
}

/**
 * A recording stand-in for a canvas 2d context: counts every call by name
 * (`calls.stroke`, `calls.moveTo`, ...) and accepts any property.
 */
export function contextSpy() {
  const calls = {};
  const count = (name) => () => {
    calls[name] = (calls[name] ?? 0) + 1;
  };
  const context = { calls };
  for (const name of [
    "save",
    "restore",
    "setTransform",
    "clearRect",
    "beginPath",
    "moveTo",
    "lineTo",
    "stroke",
    "fillRect",
  ])
    context[name] = count(name);
  context.reset = () => {
    for (const name of Object.keys(calls)) delete calls[name];
  };
  return context;
}

/**
 * Stub `requestAnimationFrame` / `cancelAnimationFrame` (undo with
 * `vi.unstubAllGlobals()`): callbacks wait in `frames` (by id) until `flush()`
 * runs them; cancelled ids are recorded in `cancelled`.
 *
 * @returns {{frames: Map<number, Function>, cancelled: number[],
 *   flush: () => void}}
 */
export function stubAnimationFrames() {
  const frames = new Map();
  const cancelled = [];
  let nextFrameId = 1;
  vi.stubGlobal("requestAnimationFrame", (fn) => {
    const id = nextFrameId++;
    frames.set(id, fn);
    return id;
  });
  vi.stubGlobal("cancelAnimationFrame", (id) => {
    cancelled.push(id);
    frames.delete(id);
  });
  const flush = () => {
    const pending = [...frames.values()];
    frames.clear();
    for (const fn of pending) fn(performance.now());
  };
  return { frames, cancelled, flush };
}

/** A new `div` appended to the document body. */
export function attachedElement() {
  const el = document.createElement("div");
  document.body.append(el);
  return el;
}

/** The first element under `root` with `data-testid="id"`. */
export const queryTestId = (root, id) =>
  root.querySelector(`[data-testid="${id}"]`);

/** Every element under `root` with `data-testid="id"`, as an array. */
export const queryAllTestId = (root, id) => [
  ...root.querySelectorAll(`[data-testid="${id}"]`),
];

/** Dispatch a bubbling click on `node`. */
export const click = (node) =>
  node.dispatchEvent(new MouseEvent("click", { bubbles: true }));

/** Set `node.value` (unless `value` is undefined), then dispatch "change". */
export const change = (node, value) => {
  if (value !== undefined) node.value = value;
  node.dispatchEvent(new Event("change", { bubbles: true }));
};

/**
 * Press Enter in `node` (a keydown that bubbles, as a keyboard sends it);
 * returns the event, to see whether the widget took it.
 */
export const pressEnter = (node) => {
  const event = new KeyboardEvent("keydown", {
    key: "Enter",
    bubbles: true,
    cancelable: true,
  });
  node.dispatchEvent(event);
  return event;
};

/** The run-state traits of a widget whose run finished without error. */
export const DONE_RUN_TRAITS = Object.freeze({
  status: "done",
  progress: 1,
  error: "",
  _eta_seconds: -1,
  _run_requests: 0,
  _stop_requests: 0,
});

/**
 * Check a rendered widget's guard (ui/guard.js): a redraw that throws (here
 * on an `_eta_seconds` that no number can be made of) escapes nowhere, shows
 * `<prefix>-view-error` with the error and hides the stale progress line; the
 * next good redraw brings the line back and clears the message.
 */
export function checkRedrawGuard(model, el, prefix, flush) {
  const errors = vi.spyOn(console, "error").mockImplementation(() => {});
  const progress = queryTestId(el, `${prefix}-progress`);
  const box = queryTestId(el, `${prefix}-view-error`);
  expect(box.hidden).toBe(true);
  expect(() => {
    model.set("_eta_seconds", Symbol("eta"));
    flush();
  }).not.toThrow();
  expect(box.hidden).toBe(false);
  expect(box.textContent).toContain(
    "Cannot convert a Symbol value to a number",
  );
  expect(progress.closest("[hidden]")).not.toBeNull();
  expect(errors).toHaveBeenCalled();
  model.set("_eta_seconds", -1);
  flush();
  expect(box.hidden).toBe(true);
  expect(progress.closest("[hidden]")).toBeNull();
  errors.mockRestore();
}

// ---- A permutation split (split_by) ----------------------------------------

/** A split's `_chart`: 3 subgroups (the last small) x 2 features. */
export function splitChart(pack = payloadPacker(), overrides = {}) {
  return {
    repeats_done: 2,
    n_repeats: 5,
    n_features: 3,
    n_pending: 0,
    groups: {
      labels: ["basic", "pro", "missing"],
      sizes: [120, 95, 12],
      n_permuted: [120, 95, 12],
      small: [false, false, true],
      min_size: 30,
    },
    scorers: {
      r2: {
        features: ["tenure", "plan"],
        n_hidden: 1,
        baselines: [0.8, 0.75, Number.NaN],
        mean: pack([0.3, 0.1, 0.5, 0.0, Number.NaN, -0.2], [3, 2]),
        std: pack([0.02, 0.01, 0.05, 0.0, Number.NaN, 0.3], [3, 2]),
      },
    },
    ...overrides,
  };
}

/**
 * The longest text drawn in `root`: each text node's length, but a `<title>`
 * element's (a hover title, not drawn) and each `<option>`'s text counted
 * too, since a menu is as wide as its widest option. A 1 MB name drawn
 * whole anywhere makes this a million (#49 item 9).
 *
 * @param {Element} root
 * @returns {{length: number, text: string}}
 */
export function longestDrawnText(root) {
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let longest = { length: 0, text: "" };
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement?.closest("title")) continue;
    const text = node.nodeValue ?? "";
    if (text.length > longest.length) longest = { length: text.length, text: text.slice(0, 80) };
  }
  return longest;
}
