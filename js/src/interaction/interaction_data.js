// @ts-check
// Decoding of InteractionWidget's `_h2` trait, and the words the heatmap
// shows for a cell (no statistics: Python computes H²).
//
// `_h2` is `{}` before any result, else `{features, matrix, one_vs_rest,
// n_samples}`: the top features (largest H² against all others first), the
// symmetric k x k matrix of the pairs' H² (NaN on the diagonal and for pairs
// not computed) and each feature's H² against all others.

import { decodeArray } from "../codecs.js";
import { formatNumber, isolate } from "../charts/format.js";

/**
 * A decoded `_h2`.
 *
 * @typedef {{features: string[], matrix: import("../codecs.js").TypedArray,
 *   oneVsRest: import("../codecs.js").TypedArray, nSamples: number}} H2
 */

/**
 * @param {import("../ui/model.js").TraitPayload | null | undefined} value
 *   the trait.
 * @returns {null | H2}
 * @throws {RangeError} when the shapes do not match the features.
 */
export function h2Result(value) {
  if (value == null || Object.keys(value).length === 0) return null;
  const features = Array.isArray(value.features)
    ? value.features.map(String)
    : [];
  const k = features.length;
  const matrix = decodeArray(value.matrix);
  if (
    matrix.shape.length !== 2 ||
    matrix.shape[0] !== k ||
    matrix.shape[1] !== k
  )
    throw new RangeError(
      `_h2.matrix must have shape [${k}, ${k}]; got ${JSON.stringify(matrix.shape)}.`,
    );
  const single = decodeArray(value.one_vs_rest);
  if (single.values.length !== k)
    throw new RangeError(
      `_h2.one_vs_rest must hold ${k} values; got ${single.values.length}.`,
    );
  return {
    features,
    matrix: matrix.values,
    oneVsRest: single.values,
    nSamples: Number(value.n_samples) || 0,
  };
}

/** @param {number} v */
const h2Text = (v) => (Number.isFinite(v) ? formatNumber(v) : "not defined");

/**
 * Tooltip lines of cell (i, j): the pair's H², and each feature's against
 * all others; the diagonal says what it is not.
 *
 * @param {H2} h2
 * @param {number} i
 * @param {number} j
 * @returns {[string, string][]}
 */
export function describeCell(h2, i, j) {
  const [a, b] = [isolate(h2.features[i]), isolate(h2.features[j])];
  if (i === j)
    return [
      ["iw-tooltip-title", h2.features[i]],
      ["", `H² against all other features: ${h2Text(h2.oneVsRest[i])}`],
    ];
  const value = h2.matrix[i * h2.features.length + j];
  /** @type {[string, string][]} */
  const lines = [
    ["iw-tooltip-title", `${a} × ${b}: H² = ${h2Text(value)}`],
    ["", `${a} against all others: ${h2Text(h2.oneVsRest[i])}`],
    ["", `${b} against all others: ${h2Text(h2.oneVsRest[j])}`],
    ["", Number.isFinite(value) ? "click to draw the pair" : ""],
  ];
  return lines.filter(([, text]) => text !== "");
}

/**
 * The chosen pair's cell, or null when it is not among the features.
 *
 * @param {H2 | null} h2
 * @param {string[]} pair
 */
export function selectedCell(h2, pair) {
  if (!h2 || pair.length !== 2) return null;
  const i = h2.features.indexOf(pair[0]);
  const j = h2.features.indexOf(pair[1]);
  return i >= 0 && j >= 0 ? { i, j } : null;
}
