// @ts-check
// Reading the PermutationImportanceWidget's traits into what the UI draws.
// Pure functions (no DOM), tested in permutation_widget.test.js.

import { decodeArray } from "../codecs.js";
import { statusText } from "../ui/status.js";
import { isolateRule } from "../charts/format.js";

/** @typedef {import("../codecs.js").TypedArray} TypedArray */

/**
 * The decoded result of one scorer from the `_chart` trait.
 *
 * @param {import("../ui/model.js").TraitPayload | null | undefined} chart
 *   the `_chart` value ({} before the
 *   first result).
 * @param {string} scorer
 * @returns {{features: string[], mean: TypedArray, std: TypedArray,
 *   permutedMean: TypedArray, values: TypedArray | null,
 *   repeatsDone: number, baseline: number, nHidden: number,
 *   nFeatures: number, spread: number, spreadLabel: string,
 *   baselineNote: string, intervalLow: TypedArray | null,
 *   intervalHigh: TypedArray | null, intervalLabel: string,
 *   method: string, details: string[][], warning: string} | null} `null`
 *   when `chart` holds no result for `scorer`. `spread` is how many std the
 *   error bars span (1.96 across the folds of a cross-validated result),
 *   `spreadLabel` says so; `baselineNote` what the baseline is when not
 *   one score of one model (e.g. the folds' mean); `intervalLow` and
 *   `intervalHigh` the held-out interval's ends where the result has one
 *   (`intervalLabel` says what it covers), else null. `method` is
 *   "marginal" or "conditional"; `details` each feature's subgroup lines
 *   (see `subgroupLines`); `warning` the inspector header's warning that
 *   the model barely beats a dummy, said by a widget shown on its own
 *   ("" when it does not apply).
 * @throws {TypeError | RangeError} when an array is malformed (see
 *   `decodeArray`) or its length differs from the number of features.
 */
export function scorerResult(chart, scorer) {
  const block = chart?.scorers?.[scorer];
  if (!block) return null;
  const features = (block.features ?? []).map(String);
  const k = features.length;
  /** @param {string} name */
  const vector = (name) => {
    const { values } = decodeArray(block[name]);
    if (values.length !== k) {
      throw new RangeError(
        `${scorer}.${name} has ${values.length} values for ${k} features.`,
      );
    }
    return values;
  };
  let values = null;
  let repeatsDone = chart.repeats_done ?? 0;
  if (block.values) {
    const decoded = decodeArray(block.values);
    if (decoded.shape.length !== 2 || decoded.shape[0] !== k) {
      throw new RangeError(
        `${scorer}.values has shape ${JSON.stringify(decoded.shape)}; expected [${k}, repeats].`,
      );
    }
    values = decoded.values;
    repeatsDone = decoded.shape[1];
  }
  return {
    features,
    mean: vector("mean"),
    std: vector("std"),
    permutedMean: vector("permuted_mean"),
    values,
    repeatsDone,
    baseline: Number(block.baseline),
    nHidden: block.n_hidden ?? 0,
    nFeatures: chart.n_features ?? k,
    spread: Number.isFinite(chart.spread) ? Number(chart.spread) : 1,
    spreadLabel: String(chart.spread_label ?? "std"),
    baselineNote: String(chart.baseline_note ?? ""),
    intervalLow: block.interval_low ? vector("interval_low") : null,
    intervalHigh: block.interval_high ? vector("interval_high") : null,
    intervalLabel: String(chart.interval_label ?? ""),
    method: String(chart.method ?? "marginal"),
    details: subgroupLines(chart.subgroups, features),
    warning: String(chart.warning ?? ""),
  };
}

/** Subgroups listed in a tooltip; the rest are counted. */
export const MAX_SUBGROUP_LINES = 8;

/**
 * The tooltip lines of each feature's subgroups (a conditional result's
 * `subgroups`: `{feature: [[rule, size], ...]}`), one list per feature of
 * `features`; empty lists for a marginal result.
 *
 * @param {unknown} subgroups the `_chart` trait's `subgroups`.
 * @param {string[]} features
 * @returns {string[][]} e.g. `["3 subgroups:", "bmi <= 0.02 (89 rows)",
 *   ...]`, or `["1 subgroup: all rows (no other feature predicts it)"]`.
 */
export function subgroupLines(subgroups, features) {
  const byFeature =
    subgroups && typeof subgroups === "object"
      ? /** @type {Record<string, unknown>} */ (subgroups)
      : {};
  return features.map((feature) => {
    const groups = byFeature[feature];
    if (!Array.isArray(groups) || groups.length === 0) return [];
    const rows = (/** @type {unknown} */ size) => {
      const n = Number(size);
      return `${n.toLocaleString("en-US")} ${n === 1 ? "row" : "rows"}`;
    };
    if (groups.length === 1) {
      const [rule, size] = groups[0];
      return [
        `1 subgroup: ${isolateRule(rule)} (${rows(size)}; no other feature predicts it)`,
      ];
    }
    const shown = groups.slice(0, MAX_SUBGROUP_LINES);
    const lines = [`${groups.length} subgroups:`];
    for (const [rule, size] of shown) lines.push(`${isolateRule(rule)} (${rows(size)})`);
    const more = groups.length - shown.length;
    if (more > 0)
      lines.push(`… ${more} more ${more === 1 ? "subgroup" : "subgroups"}`);
    return lines;
  });
}

/**
 * The `k` features to select for "Top k": the most important ones of
 * `result` (already sorted by mean importance, descending), then — when the
 * result has fewer, or there is none yet — the first options in order.
 *
 * @param {{features: string[]} | null} result from `scorerResult`
 * @param {string[]} options every selectable label
 * @param {number} k
 * @returns {string[]}
 */
export function topFeatures(result, options, k) {
  const allowed = new Set(options);
  /** @type {string[]} */
  const picked = [];
  const seen = new Set();
  /** @param {string} name */
  const take = (name) => {
    if (picked.length < k && allowed.has(name) && !seen.has(name)) {
      picked.push(name);
      seen.add(name);
    }
  };
  for (const name of result?.features ?? []) take(name);
  for (const name of options) take(name);
  return picked;
}

/**
 * The progress line under the controls.
 *
 * @param {{status: string, repeatsDone: number, repeatsTotal: number,
 *   unit?: string, featuresDone?: number, featuresPending?: number,
 *   etaSeconds: number, elapsedSeconds: number, hasResult: boolean,
 *   phase?: string}} state
 *   `unit` counts the steps ("repeats", or the "folds" and "members" of a
 *   cross-validated or out-of-bag result); `featuresPending` > 0 while the
 *   first repeat is shown feature by feature (`featuresDone` of them).
 * @returns {string} e.g. "12 / 30 repeats · about 4 s left", "repeat 1:
 *   7 / 30 features", "done in 3.2 s", "cancelled at 12 / 30", "error".
 */
export function progressText({
  repeatsDone,
  repeatsTotal,
  unit = "repeats",
  featuresDone = 0,
  featuresPending = 0,
  ...state
}) {
  const fraction =
    featuresPending > 0
      ? `repeat 1: ${featuresDone} / ${featuresDone + featuresPending} features`
      : `${repeatsDone} / ${repeatsTotal}`;
  return statusText({
    ...state,
    count: featuresPending > 0 ? fraction : `${fraction} ${unit}`,
    stoppedAt: fraction,
  });
}

/**
 * Whether two collections hold the same members (order ignored).
 *
 * @param {Iterable<string>} a
 * @param {Iterable<string>} b
 */
export function sameMembers(a, b) {
  const setA = new Set(a);
  const setB = new Set(b);
  return setA.size === setB.size && [...setA].every((x) => setB.has(x));
}
