// @ts-check
// Reading a split's `_chart` (permutation importance within each subgroup of
// rows of a column, `split_by`) into what the grouped chart draws. Pure
// functions (no DOM), tested in split_data.test.js.

import { decodeArray } from "../codecs.js";
import { formatNumber, isolate } from "../charts/format.js";

/**
 * @typedef {import("../charts/grouped_importance.js").Group} Group
 * @typedef {{features: string[], groups: Group[], minSize: number,
 *   mean: import("../codecs.js").TypedArray,
 *   std: import("../codecs.js").TypedArray, baselines: number[],
 *   nHidden: number, repeatsDone: number}} SplitResult
 */

/**
 * Whether `chart` holds a split's result (one bar per subgroup).
 *
 * @param {import("../ui/model.js").TraitPayload | null | undefined} chart
 */
export function isSplit(chart) {
  return Boolean(chart?.groups);
}

/**
 * The decoded result of one scorer of a split's `_chart`.
 *
 * @param {import("../ui/model.js").TraitPayload | null | undefined} chart
 * @param {string} scorer
 * @returns {SplitResult | null} null when `chart` holds no split result for
 *   `scorer`.
 * @throws {TypeError | RangeError} when an array is malformed or its shape
 *   is not (subgroups, features).
 */
export function splitResult(chart, scorer) {
  const block = chart?.scorers?.[scorer];
  const groups = chart?.groups;
  if (!block || !groups) return null;
  /** @type {string[]} */
  const labels = (groups.labels ?? []).map(String);
  const sizes = (groups.sizes ?? []).map(Number);
  const small = (groups.small ?? []).map(Boolean);
  const features = (block.features ?? []).map(String);
  /** @param {string} name */
  const matrix = (name) => {
    const { values, shape } = decodeArray(block[name]);
    if (
      shape.length !== 2 ||
      shape[0] !== labels.length ||
      shape[1] !== features.length
    )
      throw new RangeError(
        `${scorer}.${name} has shape ${JSON.stringify(shape)}; expected [${labels.length}, ${features.length}] (subgroups, features).`,
      );
    return values;
  };
  return {
    features,
    groups: labels.map((label, i) => ({
      label,
      size: sizes[i] ?? 0,
      small: small[i] ?? false,
    })),
    minSize: Number(groups.min_size) || 0,
    mean: matrix("mean"),
    std: matrix("std"),
    baselines: (block.baselines ?? []).map(Number),
    nHidden: Number(block.n_hidden ?? 0),
    repeatsDone: Number(chart?.repeats_done ?? 0),
  };
}

/**
 * The line above the chart: each subgroup's baseline score.
 *
 * @param {SplitResult} result
 * @param {string} scorer
 * @param {string} splitBy the column split by.
 * @returns {string} e.g. "split by plan: baseline r2 = 0.81 (basic), 0.77 (pro)".
 */
export function splitBaselineText(result, scorer, splitBy) {
  const scores = result.groups.map(
    (group, i) => `${formatNumber(result.baselines[i])} (${isolate(group.label)})`,
  );
  return `split by ${isolate(splitBy)}: baseline ${scorer} = ${scores.join(", ")}`;
}
