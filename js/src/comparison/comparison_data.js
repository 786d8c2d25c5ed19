// @ts-check
// Reading the ImportanceComparisonWidget's traits into what the views draw.
// Pure functions (no DOM, no statistics: every number comes from Python),
// tested in comparison_data.test.js.

import { decodeArray } from "../codecs.js";

/**
 * Whether a payload trait holds nothing yet (`{}`, null, undefined, or no
 * object at all).
 *
 * @param {unknown} value
 * @returns {value is null | undefined | Record<string, never>}
 */
export function isEmpty(value) {
  return (
    value === null ||
    value === undefined ||
    typeof value !== "object" ||
    Object.keys(value).length === 0
  );
}

/**
 * @param {unknown} value
 * @param {number} fallback
 */
const finiteOr = (value, fallback) =>
  value === null || value === undefined || !Number.isFinite(Number(value))
    ? fallback
    : Number(value);

/**
 * Decode `array` ({data, dtype, shape}) and check its shape.
 *
 * @param {import("../ui/model.js").TraitPayload} array
 * @param {number[]} shape expected shape.
 * @param {string} name for the error message, e.g. "_measures.mdi.values".
 * @returns {import("../codecs.js").TypedArray}
 * @throws {RangeError} when the shape differs.
 */
function decodeShaped(array, shape, name) {
  const decoded = decodeArray(array);
  const same =
    decoded.shape.length === shape.length &&
    decoded.shape.every((n, i) => n === shape[i]);
  if (!same) {
    throw new RangeError(
      `${name} has shape ${JSON.stringify(decoded.shape)}; expected ${JSON.stringify(shape)}.`,
    );
  }
  return decoded.values;
}

/** @param {unknown} list */
const names = (list) => (Array.isArray(list) ? list.map(String) : []);

/**
 * The `_measures` trait, decoded.
 *
 * @param {import("../ui/model.js").TraitPayload | null | undefined} value `{}` before the first result.
 * @returns {MeasuresResult | null}
 * @throws {TypeError | RangeError} when an array is malformed.
 *
 * @typedef {object} MeasuresResult
 * @property {string[]} features sorted by test permutation importance.
 * @property {Measure[]} measures in the order Python sent them.
 * @property {string[]} notes per feature, "" when none.
 * @property {number} repeatsDone
 * @property {number} nRepeats
 * @property {string} scorer
 * @property {number} baselineTrain NaN while unknown.
 * @property {number} baselineTest
 * @property {Object<string, string[]>} flagEvidence flag text -> the keys of
 *   the measures whose intervals it rests on.
 * @property {string} withinNoiseNote what a hollow mark means, in words.
 * @property {string} measuresNote why MDI and relative importance are
 *   missing and what the model shows instead, "" where they are there.
 * @property {string} sortBy the key of the measure the features are sorted by.
 *
 * @typedef {object} Measure
 * @property {string} key e.g. "mdi", "permutation_test".
 * @property {string} label
 * @property {string} units of the raw values, e.g. "decrease in accuracy".
 * @property {import("../codecs.js").TypedArray} values raw importances.
 * @property {import("../codecs.js").TypedArray | null} std raw std over repeats (permutation).
 * @property {import("../codecs.js").TypedArray} normalized values / max |values|, in [-1, 1].
 * @property {import("../codecs.js").TypedArray | null} normalizedStd std on the same scale.
 * @property {import("../codecs.js").TypedArray | null} low raw interval, mean - 2 std (NaN
 *   while too few repeats are done); `high` likewise.
 * @property {import("../codecs.js").TypedArray | null} high
 * @property {import("../codecs.js").TypedArray | null} normalizedLow the interval on the
 *   normalized scale; `normalizedHigh` likewise.
 * @property {import("../codecs.js").TypedArray | null} normalizedHigh
 * @property {import("../codecs.js").TypedArray | null} withinNoise 1 where the interval
 *   includes 0 (or is unknown), 0 elsewhere; null for impurity measures.
 */
export function measuresResult(value) {
  if (isEmpty(value)) return null;
  const features = names(value.features);
  const n = features.length;
  const measures = (Array.isArray(value.measures) ? value.measures : []).map(
    (/** @type {import("../ui/model.js").TraitPayload} */ m) => {
      const key = String(m.key);
      /** @param {string} field */
      const vector = (field) =>
        m[field] ? decodeShaped(m[field], [n], `${key}.${field}`) : null;
      const values = vector("values");
      const normalized = vector("normalized");
      if (values === null || normalized === null) {
        throw new TypeError(`Measure ${key} needs values and normalized.`);
      }
      return {
        key,
        label: String(m.label ?? key),
        units: String(m.units ?? ""),
        values,
        std: vector("std"),
        normalized,
        normalizedStd: vector("normalized_std"),
        low: vector("low"),
        high: vector("high"),
        normalizedLow: vector("normalized_low"),
        normalizedHigh: vector("normalized_high"),
        withinNoise: vector("within_noise"),
      };
    },
  );
  const notes = names(value.notes);
  const evidence =
    value.flag_evidence && typeof value.flag_evidence === "object"
      ? value.flag_evidence
      : {};
  return {
    features,
    measures,
    notes: features.map((_, i) => notes[i] ?? ""),
    repeatsDone: finiteOr(value.repeats_done, 0),
    nRepeats: finiteOr(value.n_repeats, 0),
    scorer: String(value.scorer ?? ""),
    baselineTrain: finiteOr(value.baseline_train, NaN),
    baselineTest: finiteOr(value.baseline_test, NaN),
    flagEvidence: Object.fromEntries(
      Object.entries(evidence).map(([flag, keys]) => [flag, names(keys)]),
    ),
    withinNoiseNote: String(value.within_noise_note ?? ""),
    measuresNote: String(value.measures_note ?? ""),
    sortBy: String(value.sort_by ?? ""),
  };
}

/**
 * `result` with its features in the order of measure `key`, largest first
 * (stable, NaN last: Python's order for `sort_by`), so a new "Sort by"
 * redraws at once, and in a saved page without a kernel too. Python's next
 * payload comes in that order already.
 *
 * @param {MeasuresResult | null} result
 * @param {string} key a measure's key (the `sort_by` trait).
 * @returns {MeasuresResult | null} `result` itself when it is in that order
 *   or has no such measure.
 */
export function sortedBy(result, key) {
  const measure = result?.measures.find((m) => m.key === key);
  if (!result || !measure || result.sortBy === key) return result;
  const v = measure.values;
  /** @param {number} i */
  const rank = (i) => (Number.isNaN(v[i]) ? -Infinity : v[i]);
  const order = result.features
    .map((_, i) => i)
    .sort((a, b) =>
      Number.isNaN(v[a]) !== Number.isNaN(v[b])
        ? Number(Number.isNaN(v[a])) - Number(Number.isNaN(v[b]))
        : rank(b) - rank(a) || a - b,
    );
  /** @param {import("../codecs.js").TypedArray | null} array */
  const take = (array) =>
    array === null ? null : Float64Array.from(order, (i) => array[i]);
  /**
   * @type {("values" | "std" | "normalized" | "normalizedStd" | "low"
   *   | "high" | "normalizedLow" | "normalizedHigh" | "withinNoise")[]}
   */
  const fields = ["values", "std", "normalized", "normalizedStd", "low"];
  fields.push("high", "normalizedLow", "normalizedHigh", "withinNoise");
  return {
    ...result,
    features: order.map((i) => result.features[i]),
    notes: order.map((i) => result.notes[i]),
    measures: result.measures.map((m) => ({
      ...m,
      ...Object.fromEntries(fields.map((f) => [f, take(m[f])])),
    })),
    sortBy: key,
  };
}

/**
 * The intervals a flag of feature `i` rests on, as Python names them in
 * `flag_evidence`: one per measure that has an interval.
 *
 * @param {MeasuresResult} result
 * @param {string} flag one flag's text (from `splitNotes`).
 * @param {number} i the feature's index.
 * @returns {{label: string, units: string, low: number, high: number,
 *   values: import("../codecs.js").TypedArray}[]} `values` the measure's raw values (for a
 *   format shared with the other features).
 */
export function flagIntervals(result, flag, i) {
  const keys = result.flagEvidence[flag] ?? [];
  return keys.flatMap((key) => {
    const m = result.measures.find((measure) => measure.key === key);
    return m && m.low && m.high
      ? [
          {
            label: m.label,
            units: m.units,
            low: m.low[i],
            high: m.high[i],
            values: m.values,
          },
        ]
      : [];
  });
}

/**
 * The choices of the "Sort by" control: the measures present, and the
 * current key too when it is not among them (so the control shows it).
 *
 * @param {import("../ui/model.js").TraitPayload | null | undefined} value the raw `_measures` trait.
 * @param {string} current the `sort_by` trait.
 * @returns {[string, string][]} `[key, label]` pairs.
 */
export function sortChoices(value, current) {
  const measures = isEmpty(value) || !Array.isArray(value.measures)
    ? []
    : value.measures;
  /** @type {[string, string][]} */
  const choices = measures.map(
    (/** @type {import("../ui/model.js").TraitPayload} */ m) => [
      String(m.key),
      String(m.label ?? m.key),
    ],
  );
  if (current && !choices.some(([key]) => key === current))
    choices.push([current, current.replaceAll("_", " ")]);
  return choices;
}

/**
 * The `_per_class` trait, decoded.
 *
 * @param {import("../ui/model.js").TraitPayload | null | undefined} value `{}` when not applicable.
 * @returns {{classes: string[], features: string[], values: import("../codecs.js").TypedArray}
 *   | null} `values` row-major `[classes, features]`, each row 0..100.
 */
export function perClassResult(value) {
  if (isEmpty(value)) return null;
  const classes = names(value.classes);
  const features = names(value.features);
  const values = decodeShaped(
    value.values,
    [classes.length, features.length],
    "_per_class.values",
  );
  return { classes, features, values };
}

/**
 * The `_correlation` trait, decoded.
 *
 * @param {import("../ui/model.js").TraitPayload | null | undefined} value `{}` when there are fewer than two numeric features.
 * @returns {{features: string[], matrix: import("../codecs.js").TypedArray,
 *   linkage: import("../codecs.js").TypedArray, leafOrder: number[], maxDistance: number}
 *   | null} `features` and `matrix` in leaf order; `linkage` row-major
 *   `[n - 1, 4]` in original feature indices; `leafOrder[p]` the original
 *   index of the leaf at position `p`.
 */
export function correlationResult(value) {
  if (isEmpty(value)) return null;
  const features = names(value.features);
  const n = features.length;
  const matrix = decodeShaped(value.matrix, [n, n], "_correlation.matrix");
  const linkage = decodeShaped(
    value.linkage,
    [Math.max(0, n - 1), 4],
    "_correlation.linkage",
  );
  /** @type {number[]} */
  const leafOrder = (value.leaf_order ?? []).map(Number);
  const seen = new Set(leafOrder);
  if (
    leafOrder.length !== n ||
    seen.size !== n ||
    !leafOrder.every((i) => Number.isInteger(i) && i >= 0 && i < n)
  ) {
    throw new RangeError(
      `_correlation.leaf_order must be a permutation of 0..${n - 1}.`,
    );
  }
  let maxDistance = finiteOr(value.max_distance, 0);
  for (let k = 0; k < n - 1; k += 1)
    maxDistance = Math.max(maxDistance, linkage[k * 4 + 2]);
  return { features, matrix, linkage, leafOrder, maxDistance };
}

/**
 * The `_groups` trait, decoded.
 *
 * @param {import("../ui/model.js").TraitPayload | null | undefined} value `{}` before the first grouped result.
 * @returns {{correlationThreshold: number, labels: string[], members: string[][],
 *   mean: import("../codecs.js").TypedArray, std: import("../codecs.js").TypedArray, repeatsDone: number,
 *   nRepeats: number, scorer: string, baseline: number} | null}
 */
export function groupsResult(value) {
  if (isEmpty(value)) return null;
  const groups = Array.isArray(value.groups) ? value.groups : [];
  const g = groups.length;
  return {
    correlationThreshold: finiteOr(value.correlation_threshold, NaN),
    labels: groups.map(
      (/** @type {{label: unknown}} */ group) => String(group.label),
    ),
    members: groups.map(
      (/** @type {{members: unknown}} */ group) => names(group.members),
    ),
    mean: decodeShaped(value.mean, [g], "_groups.mean"),
    std: decodeShaped(value.std, [g], "_groups.std"),
    repeatsDone: finiteOr(value.repeats_done, 0),
    nRepeats: finiteOr(value.n_repeats, 0),
    scorer: String(value.scorer ?? ""),
    baseline: finiteOr(value.baseline, NaN),
  };
}

/**
 * The flags of one feature's note. Python joins flags with "; ", and a flag
 * reads "headline: explanation" — whose explanation may itself contain "; ".
 * A piece without ": " therefore continues the flag before it.
 *
 * @param {string} note
 * @returns {string[]}
 */
export function splitNotes(note) {
  const flags = [];
  for (const piece of String(note ?? "").split("; ")) {
    const text = piece.trim();
    if (text === "") continue;
    if (flags.length > 0 && !text.includes(": ")) {
      flags[flags.length - 1] += `; ${text}`;
    } else {
      flags.push(text);
    }
  }
  return flags;
}

/**
 * Every distinct flag present, in order of first appearance, with the
 * features that carry it.
 *
 * @param {string[]} features
 * @param {string[]} notes per feature.
 * @returns {{text: string, headline: string, explanation: string,
 *   features: string[]}[]} `headline` is the text before the first ": "
 *   (the whole text when there is none), `explanation` the rest.
 */
export function flagSummary(features, notes) {
  const byText = new Map();
  features.forEach((feature, i) => {
    for (const text of splitNotes(notes[i])) {
      if (!byText.has(text)) {
        const cut = text.indexOf(": ");
        byText.set(text, {
          text,
          headline: cut < 0 ? text : text.slice(0, cut),
          explanation: cut < 0 ? "" : text.slice(cut + 2),
          features: [],
        });
      }
      byText.get(text).features.push(feature);
    }
  });
  return [...byText.values()];
}

/**
 * The progress text of a run (the widget reports a fraction, not repeats).
 *
 * @param {number} progress 0..1
 * @returns {string} e.g. "45%".
 */
export function percent(progress) {
  const value = Math.min(1, Math.max(0, Number(progress) || 0));
  return `${Math.floor(value * 100)}%`;
}

/**
 * Whether two thresholds are the same number (up to float32 rounding).
 *
 * @param {number} a
 * @param {number} b
 */
export function sameThreshold(a, b) {
  return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
}
