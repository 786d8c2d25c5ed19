// @ts-check
// `_models_curves` decoded: every model's curve of one feature over one grid
// (with, when asked, the same rows' ICE curves), or every model's surface of
// a pair over one grid. Python computes every value (centering included);
// this only checks shapes and cuts the arrays per model.

import { decodeArray, row } from "../codecs.js";

/**
 * Model `m`'s part of an array whose first axis is the models.
 *
 * @param {{values: import("../codecs.js").TypedArray, shape: number[]}} array
 * @param {number} m
 */
function slab({ values, shape }, m) {
  const size = shape.slice(1).reduce((a, b) => a * b, 1);
  return values.subarray(m * size, (m + 1) * size);
}

/**
 * @typedef {{kind: "curves", effect: string, features: string[], models: string[],
 *   x: (number | string)[], numeric: boolean,
 *   curves: import("../codecs.js").TypedArray[],
 *   individual: {rows: number, values: import("../codecs.js").TypedArray}[] | null,
 *   centered: boolean, output: string}} ModelsCurves
 * @typedef {{kind: "surface", effect: string, features: string[], models: string[],
 *   x: {values: ArrayLike<number>, labels: string[], categorical: boolean},
 *   y: {values: ArrayLike<number>, labels: string[], categorical: boolean},
 *   surfaces: import("../codecs.js").TypedArray[], output: string}} ModelsSurfaces
 */

/**
 * @param {unknown} shape
 * @param {number[]} expected
 * @param {string} name
 */
function checkShape(shape, expected, name) {
  if (JSON.stringify(shape) !== JSON.stringify(expected))
    throw new RangeError(
      `${name} has shape ${JSON.stringify(shape)}; expected ${JSON.stringify(expected)}.`,
    );
}

/**
 * One axis of a surface: numbers, or labels drawn as categories (0..k-1).
 *
 * @param {unknown} grid
 * @param {unknown} labels
 */
function surfaceAxis(grid, labels) {
  if (grid !== null && grid !== undefined) {
    return { values: decodeArray(grid).values, labels: [], categorical: false };
  }
  const names = Array.isArray(labels) ? labels.map(String) : [];
  return { values: names.map((_, k) => k), labels: names, categorical: true };
}

/**
 * Decode `_models_curves` for the selection `features`; null when it holds
 * another selection's curves (the selection moved on: not drawn).
 *
 * @param {import("../ui/model.js").TraitPayload | null | undefined} payload
 * @param {string[]} features the `features` trait.
 * @returns {ModelsCurves | ModelsSurfaces | null}
 * @throws {RangeError} on arrays of the wrong shape.
 */
export function modelsEffects(payload, features) {
  if (!payload || !Array.isArray(payload.models) || !Array.isArray(payload.features))
    return null;
  if (payload.features.map(String).join("\u0000") !== features.join("\u0000")) return null;
  const models = payload.models.map(String);
  const output = String(payload.output ?? "");
  // "pd" (partial dependence) or "ale" (accumulated local effects).
  const effect = payload.effect === "ale" ? "ale" : "pd";
  const average = decodeArray(payload.average);
  if (payload.kind === "surface") {
    const x = surfaceAxis(payload.grid, payload.labels);
    const y = surfaceAxis(payload.grid_y, payload.labels_y);
    checkShape(average.shape, [models.length, x.values.length, y.values.length], "average");
    return {
      kind: "surface",
      effect,
      features,
      models,
      x,
      y,
      surfaces: models.map((_, m) => slab(average, m)),
      output,
    };
  }
  const numeric = payload.grid !== null && payload.grid !== undefined;
  const x = numeric ? [...decodeArray(payload.grid).values] : (payload.labels ?? []).map(String);
  checkShape(average.shape, [models.length, x.length], "average");
  let individual = null;
  if (payload.individual) {
    const ice = decodeArray(payload.individual);
    const rows = Number(ice.shape[1] ?? 0);
    checkShape(ice.shape, [models.length, rows, x.length], "individual");
    individual = models.map((_, m) => ({ rows, values: slab(ice, m) }));
  }
  return {
    kind: "curves",
    effect,
    features,
    models,
    x,
    numeric,
    curves: models.map((_, m) => row(average, m)),
    individual,
    centered: Boolean(payload.centered),
    output,
  };
}
