// @ts-check
// Decoding of PartialDependenceWidget's `_curve` trait, and the few facts the
// drawing needs from it (no statistics: Python computes those).
//
// `_curve` is `{}` before any result, else a 1-way or a 2-way payload (see
// `curveResult`). Arrays arrive as `{data: DataView, dtype, shape}`; NaN marks
// grid points not computed yet while a run streams.

import { decodeArray } from "../codecs.js";
import { summariesResult } from "./pd_summaries.js";

/**
 * @typedef {import("../codecs.js").TypedArray} TypedArray
 * @typedef {import("../ui/model.js").TraitPayload} TraitPayload
 */

/**
 * True for `{}`, null and undefined: no result yet.
 *
 * @param {unknown} value
 * @returns {value is null | undefined | Record<string, never>}
 */
export function isEmptyCurve(value) {
  return (
    value === null ||
    value === undefined ||
    (typeof value === "object" && Object.keys(value).length === 0)
  );
}

/**
 * @param {TraitPayload} array an encoded array.
 * @param {string} name for the error.
 * @param {number} [length] the length it must have.
 */
function vector(array, name, length) {
  const { values, shape } = decodeArray(array);
  if (shape.length !== 1 || (length !== undefined && values.length !== length))
    throw new RangeError(
      `${name} must have shape [${length ?? "n"}]; got ${JSON.stringify(shape)}.`,
    );
  return values;
}

/**
 * @param {TraitPayload} array an encoded array.
 * @param {string} name for the error.
 * @param {number} cols the columns it must have.
 */
function matrix(array, name, cols) {
  const { values, shape } = decodeArray(array);
  if (shape.length !== 2 || shape[1] !== cols)
    throw new RangeError(
      `${name} must have shape [m, ${cols}]; got ${JSON.stringify(shape)}.`,
    );
  return { values, rows: shape[0], cols };
}

/**
 * Decode the `steps` payload: a grid and one row per ICE curve.
 *
 * @param {TraitPayload | null | undefined} value
 */
export function stepsResult(value) {
  if (isEmptyCurve(value)) return null;
  const x = vector(value.grid, "steps.grid");
  return { x, ...matrix(value.individual, "steps.individual", x.length) };
}

/** @param {unknown} value */
const strings = (value) => (Array.isArray(value) ? value.map(String) : []);

/**
 * Decode a `distribution` payload.
 *
 * @returns {null | {kind: "histogram", edges: TypedArray,
 *   counts: TypedArray, deciles: TypedArray} | {kind: "categories",
 *   labels: string[], counts: TypedArray}}
 */
export function distributionResult(
  /** @type {TraitPayload | null | undefined} */ value,
  name = "distribution",
) {
  if (isEmptyCurve(value)) return null;
  if (value.kind === "histogram") {
    const counts = vector(value.counts, `${name}.counts`);
    const edges = vector(value.edges, `${name}.edges`, counts.length + 1);
    const deciles = value.deciles
      ? vector(value.deciles, `${name}.deciles`)
      : new Float32Array(0);
    return { kind: "histogram", edges, counts, deciles };
  }
  if (value.kind === "categories") {
    const labels = strings(value.labels);
    const counts = vector(value.counts, `${name}.counts`, labels.length);
    return { kind: "categories", labels, counts };
  }
  throw new TypeError(
    `${name}.kind must be "histogram" or "categories"; got ${JSON.stringify(value.kind)}.`,
  );
}

/**
 * Decode `_curve.missing`: the missing point of a numeric feature.
 *
 * @returns {null | {average: number | null, individual: TypedArray | null,
 *   nMissing: number, nRows: number, note: string}} null when the feature
 *   has no missing value (or is categorical: its missing value is a
 *   category). `average` and `individual` are null until computed, or when
 *   the model refused a missing value (`note` says why).
 */
export function missingResult(
  /** @type {TraitPayload | null | undefined} */ value,
  /** @type {unknown} */ note = "",
) {
  if (value == null) return null;
  const average = value.average == null ? null : Number(value.average);
  return {
    average,
    individual:
      value.individual == null
        ? null
        : vector(value.individual, "missing.individual"),
    nMissing: Number(value.n_missing) || 0,
    nRows: Number(value.n_rows) || 0,
    note: String(note ?? ""),
  };
}

/**
 * An axis of the grid: its values, labels (categorical) and flag.
 *
 * @param {TypedArray} values
 * @param {unknown} labels
 * @param {boolean} categorical
 * @param {string} name for the error.
 */
function axis(values, labels, categorical, name) {
  const labelList = strings(labels);
  if (categorical && labelList.length !== values.length)
    throw new RangeError(
      `${name}: ${labelList.length} category labels for ${values.length} grid points.`,
    );
  return { values, labels: categorical ? labelList : [], categorical };
}

const EFFECTS = ["pd", "ale", "overlay"];

/**
 * Decode the accumulated local effects of a 1-way `_curve`: the centred
 * values at the g edges and the band's bounds (NaN where a bin has no row).
 *
 * @returns {null | {values: TypedArray, lower: TypedArray,
 *   upper: TypedArray}} null when the curve has none.
 */
export function aleResult(
  /** @type {TraitPayload | null | undefined} */ value,
  /** @type {number} */ g,
) {
  if (value == null) return null;
  return {
    values: vector(value.values, "ale.values", g),
    lower: vector(value.lower, "ale.lower", g),
    upper: vector(value.upper, "ale.upper", g),
  };
}

/**
 * Decode `_curve`.
 *
 * @param {TraitPayload | null | undefined} value the trait.
 * @returns {null | Curve1d | Curve2d} null for `{}`.
 * @throws {TypeError | RangeError} on a malformed payload (the widget shows
 *   the message in its error box).
 *
 * @typedef {object} Curve1d
 * @property {"1d"} mode
 * @property {string} feature
 * @property {{values: TypedArray, labels: string[], categorical: boolean}} x
 * @property {number} gridDone grid points computed (clamped to [0, g]).
 * @property {"pd" | "ale" | "overlay"} effect what is drawn: partial
 *   dependence, accumulated local effects, or both on one axis.
 * @property {ReturnType<typeof aleResult>} ale
 * @property {ReturnType<typeof missingResult>} missing the missing value's
 *   point, drawn beside the curve.
 * @property {TypedArray | null} average `[g]`.
 * @property {{values: TypedArray, rows: number, cols: number} | null}
 *   individual `[m, g]`, row-major.
 * @property {{x: TypedArray, values: TypedArray, rows: number,
 *   cols: number} | null} steps the same ICE rows at every step of a tree
 *   model: `values[i, k]` holds on `(x[k - 1], x[k]]`.
 * @property {number} nRows
 * @property {string} yLabel
 * @property {ReturnType<typeof distributionResult>} distribution
 * @property {ReturnType<typeof correlations>} correlated
 * @property {import("./pd_summaries.js").Summaries} [summaries] subgroups'
 *   curves, percentile bands or clusters (`split_by`, `ice_mode`).
 *
 * @typedef {object} Curve2d
 * @property {"2d"} mode
 * @property {"pd" | "ale" | "overlay"} effect as for Curve1d (an `_curve`
 *   of a pair carries one too).
 * @property {[string, string]} features
 * @property {Curve1d["x"]} x the first feature's axis (ga points).
 * @property {Curve1d["x"]} y the second feature's axis (gb points).
 * @property {number} gridDone rows of the x axis computed.
 * @property {TypedArray} average `[ga, gb]`, row-major.
 * @property {number} nRows
 * @property {string} yLabel
 * @property {ReturnType<typeof distributionResult>} distribution of x.
 * @property {ReturnType<typeof distributionResult>} distributionY of y.
 * @property {ReturnType<typeof correlations>} correlated
 */
export function curveResult(value) {
  if (isEmptyCurve(value)) return null;
  if (typeof value !== "object")
    throw new TypeError(`_curve must be an object; got ${typeof value}.`);
  const features = strings(value.features);
  const common = {
    effect: EFFECTS.includes(value.effect) ? value.effect : "pd",
    nRows: Number(value.n_rows) || 0,
    yLabel: String(value.y_label ?? ""),
    correlated: correlations(value.correlated),
  };
  if (features.length === 1) {
    const grid = vector(value.grid, "grid");
    const g = grid.length;
    const x = axis(grid, value.grid_labels, Boolean(value.categorical), "grid");
    const average =
      value.average == null ? null : vector(value.average, "average", g);
    const individual =
      value.individual == null
        ? null
        : matrix(value.individual, "individual", g);
    return {
      mode: "1d",
      feature: features[0],
      ale: aleResult(value.ale, g),
      steps: stepsResult(value.steps),
      missing: missingResult(value.missing, value.missing_note),
      x,
      gridDone: clampDone(value.grid_done, g),
      average,
      individual,
      distribution: distributionResult(value.distribution),
      summaries: summariesResult(value, g),
      ...common,
    };
  }
  if (features.length === 2) {
    const categorical = Array.isArray(value.categorical)
      ? value.categorical.map(Boolean)
      : [false, false];
    const gridX = vector(value.grid, "grid");
    const gridY = vector(value.grid_y, "grid_y");
    const { values: average } = matrix(value.average, "average", gridY.length);
    if (average.length !== gridX.length * gridY.length)
      throw new RangeError(
        `average must have shape [${gridX.length}, ${gridY.length}].`,
      );
    return {
      mode: "2d",
      features: [features[0], features[1]],
      x: axis(gridX, value.grid_labels, categorical[0], "grid"),
      y: axis(gridY, value.grid_y_labels, categorical[1], "grid_y"),
      gridDone: clampDone(value.grid_done, gridX.length),
      average,
      distribution: distributionResult(value.distribution),
      distributionY: distributionResult(value.distribution_y, "distribution_y"),
      ...common,
    };
  }
  throw new RangeError(
    `_curve.features must name 1 or 2 features; got ${features.length}.`,
  );
}

/**
 * @param {unknown} value
 * @param {number} g
 */
function clampDone(value, g) {
  const n = Math.floor(Number(value));
  return Number.isFinite(n) ? Math.min(g, Math.max(0, n)) : g;
}

/**
 * Smallest and largest finite value of column `j` of a row-major
 * `[rows, cols]` matrix: the spread of the drawn ICE curves at grid point j.
 *
 * @param {ArrayLike<number>} values
 * @param {number} rows
 * @param {number} cols
 * @param {number} j
 * @returns {[number, number] | null} null when the column has no finite value.
 */
export function columnRange(values, rows, cols, j) {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < rows; i += 1) {
    const v = values[i * cols + j];
    if (v < lo) lo = v; // NaN compares false: skipped
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : null;
}

/**
 * Extent of the finite values of several arrays.
 *
 * @param {(ArrayLike<number> | null | undefined)[]} arrays
 * @returns {[number, number] | null}
 */
export function finiteExtent(arrays) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const array of arrays) {
    if (!array) continue;
    for (let k = 0; k < array.length; k += 1) {
      const v = array[k];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return lo <= hi ? [lo, hi] : null;
}

/**
 * Index of the grid value nearest `value` among the first `n` (sorted).
 *
 * @param {ArrayLike<number>} grid
 * @param {number} n
 * @param {number} value
 */
export function nearestIndex(grid, n, value) {
  let lo = 0;
  let hi = n - 1;
  if (hi < 0) return -1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (grid[mid] <= value) lo = mid;
    else hi = mid;
  }
  return Math.abs(grid[hi] - value) < Math.abs(grid[lo] - value) ? hi : lo;
}

/**
 * The progress count: "12 / 50 grid points" (rows of the grid for 2-way).
 *
 * @param {Curve1d | Curve2d | null} curve
 */
export function gridCount(curve) {
  if (!curve) return "";
  const total = curve.x.values.length;
  const unit = curve.mode === "2d" ? "grid rows" : "grid points";
  return `${curve.gridDone} / ${total} ${unit}`;
}

/**
 * The correlation warnings of `_curve.correlated`, checked.
 *
 * @param {unknown} value a list of {feature, partner, rho, message}.
 * @returns {{feature: string, partner: string, rho: number,
 *   message: string}[]}
 */
export function correlations(value) {
  if (value == null) return [];
  if (!Array.isArray(value))
    throw new TypeError("_curve.correlated must be a list.");
  return value.map((c) => ({
    feature: String(c.feature),
    partner: String(c.partner),
    rho: Number(c.rho),
    message: String(c.message ?? ""),
  }));
}

/**
 * Indices of the finite values of a numeric axis (every index of a
 * categorical one, whose positions are 0..k-1).
 *
 * @param {Curve1d["x"]} axis
 */
function finiteIndices(axis) {
  /** @type {number[]} */
  const kept = [];
  for (let k = 0; k < axis.values.length; k += 1)
    if (axis.categorical || Number.isFinite(axis.values[k])) kept.push(k);
  return kept;
}

/**
 * The part of a 2-way surface that can be drawn: the grid values that are
 * numbers (a column holding missing values can give the engine a grid of
 * NaN), with their rows and columns of `average`.
 *
 * @param {Curve2d} curve
 * @returns {{curve: Curve2d | null, dropped: [number, number]}} `curve` is
 *   null when an axis has no finite grid value (nothing to draw), else the
 *   curve itself when nothing is dropped; `dropped` counts the grid values
 *   left out of each axis.
 */
export function drawableSurface(curve) {
  const keepX = finiteIndices(curve.x);
  const keepY = finiteIndices(curve.y);
  const ga = curve.x.values.length;
  const gb = curve.y.values.length;
  /** @type {[number, number]} */
  const dropped = [ga - keepX.length, gb - keepY.length];
  if (keepX.length === 0 || keepY.length === 0) return { curve: null, dropped };
  if (dropped[0] === 0 && dropped[1] === 0) return { curve, dropped };
  /**
   * @param {Curve1d["x"]} axis
   * @param {number[]} keep
   */
  const pick = (axis, keep) => ({
    ...axis,
    values: Float32Array.from(keep, (k) => axis.values[k]),
    labels: axis.categorical ? keep.map((k) => axis.labels[k]) : [],
  });
  const average = new Float32Array(keepX.length * keepY.length);
  keepX.forEach((i, a) =>
    keepY.forEach((j, b) => {
      average[a * keepY.length + b] = curve.average[i * gb + j];
    }),
  );
  return {
    curve: {
      ...curve,
      x: pick(curve.x, keepX),
      y: pick(curve.y, keepY),
      average,
      gridDone: keepX.filter((i) => i < curve.gridDone).length,
    },
    dropped,
  };
}
