// @ts-check
// The several-model Importance view's data: `_models_chart` (Python's
// widgets/_inspector_importance.py) decoded into what the dot plot draws.
// Nothing is computed here: each model's mean and std over the repeats, the
// paired differences (the reviewed model minus each other model), their
// intervals and whether each excludes 0 all come from
// Python; a feature is flagged only where Python says the interval excludes
// 0, and the flag's tooltip gives that interval.

import { decodeArray, row } from "../codecs.js";
import { columnFormat, isolate, visibleName } from "../charts/format.js";

/**
 * @typedef {object} ModelsChart
 * @property {string[]} models in the order given.
 * @property {string} reviewed the model whose differences are flagged.
 * @property {string[]} features top to bottom.
 * @property {string} scorer
 * @property {string[]} scorers
 * @property {number} nHidden features not drawn.
 * @property {number} nPending features some model has yet to permute once
 *   (a first round in progress).
 * @property {number} repeatsDone
 * @property {number} nRepeats
 * @property {import("../charts/dot_plot.js").DotMeasure[]} measures one per model.
 * @property {string[][]} flags per feature: a paired-difference flag per
 *   other model whose interval excludes 0.
 * @property {string[][][]} evidence per feature and flag: its interval.
 * @property {string} differenceNote what a flag means ("" with one model).
 */

/**
 * Decode `_models_chart`; null before the first result.
 *
 * @param {import("../ui/model.js").TraitPayload | null | undefined} chart
 * @returns {ModelsChart | null}
 * @throws {TypeError | RangeError} on a malformed payload.
 */
export function modelsChart(chart) {
  if (!chart || !Array.isArray(chart.models) || !Array.isArray(chart.features))
    return null;
  const models = chart.models.map(String);
  const features = chart.features.map(String);
  const mean = decodeArray(chart.mean);
  const std = decodeArray(chart.std);
  const shape = [models.length, features.length];
  /** @type {[string, ReturnType<typeof decodeArray>][]} */
  const arrays = [
    ["mean", mean],
    ["std", std],
  ];
  for (const [name, array] of arrays) {
    if (String(array.shape) !== String(shape))
      throw new RangeError(
        `${name} has shape ${JSON.stringify(array.shape)}; expected ${JSON.stringify(shape)}.`,
      );
  }
  const measures = models.map((model, m) => {
    const values = row(mean, m);
    const spread = row(std, m);
    return {
      key: `model-${m}`,
      label: visibleName(model),
      name: model,
      values,
      std: spread,
      normalized: values,
      normalizedStd: spread,
    };
  });
  const differences = Array.isArray(chart.differences) ? chart.differences : [];
  const { flags, evidence, note } = differenceFlags(differences, features.length);
  return {
    models,
    reviewed: String(chart.reviewed ?? models[0] ?? ""),
    features,
    scorer: String(chart.scorer ?? ""),
    scorers: Array.isArray(chart.scorers) ? chart.scorers.map(String) : [],
    nHidden: Number(chart.n_hidden ?? 0),
    nPending: Number(chart.n_pending ?? 0),
    repeatsDone: Number(chart.repeats_done ?? 0),
    nRepeats: Number(chart.n_repeats ?? 0),
    measures,
    flags,
    evidence,
    differenceNote: note,
  };
}

/**
 * The paired differences' flags: on each feature, one per other model
 * whose difference with the reviewed model has an interval Python says
 * excludes 0, with that interval as its evidence (the tooltip lists each).
 *
 * @param {import("../ui/model.js").TraitPayload[] | null | undefined} differences
 *   one per other model (`first` the reviewed one).
 * @param {number} n the number of features.
 * @returns {{flags: string[][], evidence: string[][][], note: string}}
 */
export function differenceFlags(differences, n) {
  const flags = Array.from({ length: n }, () => /** @type {string[]} */ ([]));
  const evidence = Array.from({ length: n }, () => /** @type {string[][]} */ ([]));
  const pairs = [];
  let level = "";
  for (const difference of differences ?? []) {
    const mean = decodeArray(difference.mean).values;
    const low = decodeArray(difference.low).values;
    const high = decodeArray(difference.high).values;
    const differs = Array.isArray(difference.differs) ? difference.differs : [];
    if (mean.length !== n || low.length !== n || high.length !== n || differs.length !== n)
      throw new RangeError(`the paired difference needs ${n} values per field.`);
    const format = columnFormat([...mean, ...low, ...high]);
    level = `${Math.round(100 * Number(difference.confidence_level ?? 0.95))} %`;
    const pair = `${isolate(difference.first)} − ${isolate(difference.second)}`;
    pairs.push(pair);
    for (let i = 0; i < n; i += 1) {
      // Python's flag, which it sets only where the interval is finite and
      // excludes 0.
      if (differs[i] !== true || !Number.isFinite(low[i]) || !Number.isFinite(high[i]))
        continue;
      flags[i].push(`${pair}: the paired difference's ${level} interval excludes 0`);
      evidence[i].push([
        `difference ${format(mean[i])}, ${level} interval ${format(low[i])} to ${format(high[i])}`,
      ]);
    }
  }
  if (pairs.length === 0) return { flags, evidence, note: "" };
  return {
    flags,
    evidence,
    note:
      `⚠ on a feature: ${pairs.join(", ")}, paired over the same permuted copies, ` +
      `has a ${level} interval (Student's t over the repeats) that excludes 0.`,
  };
}
