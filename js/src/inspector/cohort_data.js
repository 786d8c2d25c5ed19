// @ts-check
// The inspector's cohorts as drawn: `_cohort_chart` (Python's
// widgets/_cohort_importance.py) decoded into what the dot plot draws, one
// measure per cohort with its size in the legend; and the rule text the
// header's form writes. Nothing is computed here: each cohort's mean and std
// over the repeats, its size and whether it is small come from Python.

import { schemeTableau10 } from "d3-scale-chromatic";

import { decodeArray, row } from "../codecs.js";

// The Effects view's colours for its "split by" (pd/pd_summaries.js), so a
// cohort has one colour in the header, under Importance and under Effects
// (Python lists the cohorts in the same order, "rest" last, in each).
export const COHORT_COLORS = schemeTableau10;
// Grey as a colour, not the theme's variable the Effects view uses: the dot
// plot sets it as an SVG attribute, where var() does not apply.
export const SMALL_COLOR = "#999999";

/**
 * A cohort's colour: its own by position (the same in every view), grey
 * when small.
 *
 * @param {number} index
 * @param {boolean} small
 */
export function cohortColor(index, small) {
  return small ? SMALL_COLOR : COHORT_COLORS[index % COHORT_COLORS.length];
}

/**
 * A cohort's legend label: its name and rows, and "few rows" when small.
 *
 * @param {string} name
 * @param {number} size
 * @param {boolean} small
 */
export function cohortLabel(name, size, small) {
  const rows = `n = ${size.toLocaleString("en-US")}`;
  return small ? `${name} (${rows}, few rows)` : `${name} (${rows})`;
}

/**
 * @typedef {object} CohortChart
 * @property {string[]} cohorts as listed, "rest" last.
 * @property {number[]} sizes
 * @property {boolean[]} small
 * @property {number} minSize
 * @property {string[]} features top to bottom.
 * @property {string} scorer
 * @property {string[]} scorers
 * @property {number} nHidden
 * @property {number} repeatsDone
 * @property {number} nRepeats
 * @property {import("../charts/dot_plot.js").DotMeasure[]} measures one per cohort.
 */

/**
 * Decode `_cohort_chart`; null before the first result.
 *
 * @param {import("../ui/model.js").TraitPayload | null | undefined} chart
 * @returns {CohortChart | null}
 * @throws {RangeError} on a malformed payload.
 */
export function cohortChart(chart) {
  if (!chart || !Array.isArray(chart.cohorts) || !Array.isArray(chart.features))
    return null;
  const cohorts = chart.cohorts.map(String);
  const features = chart.features.map(String);
  const sizes = Array.isArray(chart.sizes) ? chart.sizes.map(Number) : [];
  const small = Array.isArray(chart.small) ? chart.small.map(Boolean) : [];
  if (sizes.length !== cohorts.length || small.length !== cohorts.length)
    throw new RangeError(`sizes and small need one value per cohort (${cohorts.length}).`);
  const mean = decodeArray(chart.mean);
  const std = decodeArray(chart.std);
  const shape = [cohorts.length, features.length];
  for (const [name, array] of /** @type {const} */ ([["mean", mean], ["std", std]])) {
    if (String(array.shape) !== String(shape))
      throw new RangeError(
        `${name} has shape ${JSON.stringify(array.shape)}; expected ${JSON.stringify(shape)}.`,
      );
  }
  const measures = cohorts.map((cohort, c) => {
    const values = row(mean, c);
    const spread = row(std, c);
    return {
      key: `cohort-${c}`,
      label: cohortLabel(cohort, sizes[c], small[c]),
      color: cohortColor(c, small[c]),
      muted: small[c],
      values,
      std: spread,
      normalized: values,
      normalizedStd: spread,
    };
  });
  return {
    cohorts,
    sizes,
    small,
    minSize: Number(chart.min_size ?? 0),
    features,
    scorer: String(chart.scorer ?? ""),
    scorers: Array.isArray(chart.scorers) ? chart.scorers.map(String) : [],
    nHidden: Number(chart.n_hidden ?? 0),
    repeatsDone: Number(chart.repeats_done ?? 0),
    nRepeats: Number(chart.n_repeats ?? 0),
    measures,
  };
}

/**
 * The note under the chart: the small cohorts, greyed, and why.
 *
 * @param {CohortChart} chart
 * @returns {string}
 */
export function smallNote(chart) {
  const names = chart.cohorts.filter((_, c) => chart.small[c]);
  if (names.length === 0) return "";
  return (
    `Grey: ${names.join(", ")} ${names.length === 1 ? "has" : "have"} fewer than ` +
    `${chart.minSize} rows; kept, but their importances rest on few rows.`
  );
}

/**
 * A column's name as a rule writes it: as is when it is a plain word, else
 * in backticks.
 *
 * @param {string} name
 */
export function ruleName(name) {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : `\`${name}\``;
}

/**
 * A value as a rule writes it: numbers and True/False as they are for
 * number and bool columns, anything else quoted.
 *
 * @param {string} value as typed or chosen.
 * @param {string} kind the column's kind: "number", "bool" or "text".
 */
export function ruleValue(value, kind) {
  const text = value.trim();
  if (kind === "number" && text !== "" && Number.isFinite(Number(text))) return text;
  if (kind === "bool" && /^(true|false)$/i.test(text))
    return text.toLowerCase() === "true" ? "True" : "False";
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

/**
 * One condition's text: `name op value`, or `name is missing`.
 *
 * @param {{name: string, kind: string}} field
 * @param {string} op
 * @param {string} value
 */
export function conditionText(field, op, value) {
  if (op === "is missing" || op === "is not missing") return `${ruleName(field.name)} ${op}`;
  return `${ruleName(field.name)} ${op} ${ruleValue(value, field.kind)}`;
}

/**
 * The comparisons the form offers for a kind of column.
 *
 * @param {string} kind
 * @returns {string[]}
 */
export function operatorsFor(kind) {
  const always = ["==", "!=", "is missing", "is not missing"];
  return kind === "number" ? ["<", "<=", ">", ">=", ...always] : always;
}
