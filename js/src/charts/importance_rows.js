// @ts-check
// The rows of the importance chart, before anything is drawn: one object per
// feature with the numbers its row needs (box geometry included), the x
// domain, the number formats, which rows take the "negative" colour, and
// the lines of a row's tooltip.

import { boxStats } from "./box_stats.js";
import { zeroBasedDomain } from "./chart_base.js";
import { columnFormat } from "./format.js";

/**
 * Whether `row` is drawn in the "negative" colour: its bar when the mean is
 * below 0, its box when the median is.
 *
 * @param {{mean: number, box: {median: number} | null}} row
 * @param {"bar" | "box"} kind the kind actually drawn.
 * @returns {boolean}
 */
export function isNegativeRow(row, kind) {
  return kind === "box"
    ? row.box !== null && row.box.median < 0
    : row.mean < 0;
}

/** @typedef {import("./importance_chart.js").ImportanceChartData} ImportanceChartData */
/** @typedef {ReturnType<typeof makeRows>[number]} ImportanceRow */

/**
 * The formatters of one result: one notation per quantity, as in the table.
 *
 * @param {ImportanceChartData} data
 */
export function makeFormats(data) {
  return {
    importance: columnFormat(data.mean),
    std: columnFormat(data.std),
    permuted: columnFormat(data.permutedMean),
    baseline: columnFormat([data.baseline]),
  };
}

/**
 * One object per drawn feature, with the numbers the row needs; `std` is
 * the error bar's half-width (`spread` times the data's std).
 *
 * @param {ImportanceChartData} data
 */
export function makeRows(data) {
  const { features, mean, std, permutedMean } = data;
  const spread = Number.isFinite(data.spread) ? Number(data.spread) : 1;
  const repeats = data.repeatsDone ?? 0;
  const values =
    data.values &&
    repeats > 0 &&
    data.values.length === features.length * repeats
      ? data.values
      : null;
  return features.map((feature, i) => {
    const row = values ? values.subarray(i * repeats, (i + 1) * repeats) : null;
    return {
      key: String(feature),
      feature: String(feature),
      index: i,
      details: data.details?.[i] ?? [],
      mean: mean[i],
      std: (Number.isFinite(std?.[i]) ? std[i] : 0) * spread,
      permuted: permutedMean ? permutedMean[i] : NaN,
      box: row ? boxStats(row) : null,
      low: data.intervalLow?.[i] ?? NaN,
      high: data.intervalHigh?.[i] ?? NaN,
    };
  });
}

/**
 * The x domain: 0 and every drawn value, padded a little away from zero.
 *
 * @param {ImportanceRow[]} rows
 * @param {"bar" | "box"} kind
 */
export function importanceDomain(rows, kind) {
  const ends = rows.flatMap((r) =>
    kind === "box" && r.box
      ? [r.box.min, r.box.max]
      : [r.mean - r.std, r.mean + r.std, r.mean],
  );
  return zeroBasedDomain(ends, 0.05);
}

/**
 * The tooltip of `row`, as `[className, text]` lines for `Tooltip.fill`.
 *
 * @param {ReturnType<typeof makeRows>[number]} row
 * @param {"bar" | "box"} kind the kind drawn.
 * @param {import("./importance_chart.js").ImportanceChartData} data
 * @param {ReturnType<typeof makeFormats>} formats
 * @returns {[string, string][]}
 */
export function tooltipLines(row, kind, data, formats) {
  // The table's column formats, so both show the same digits.
  const { importance, std, permuted, baseline } = formats;
  /** @type {[string, string][]} */
  const lines = [
    ["iw-tooltip-title piw-tooltip-title", row.feature],
    // Wraps: its label can be a sentence wider than the tooltip ("std over
    // the repeats' shuffles, not over held-out samples").
    [
      "iw-tooltip-wrap",
      `${importance(row.mean)} ± ${std(row.std)} (mean ± ${data.spreadLabel ?? "std"})`,
    ],
  ];
  if (kind === "box" && row.box) {
    lines.push([
      "",
      `median ${importance(row.box.median)}, IQR ${importance(row.box.q1)} to ${importance(row.box.q3)}`,
    ]);
  }
  if (Number.isFinite(row.low) && Number.isFinite(row.high)) {
    // Beside the repeats' spread: this one also covers the sampling noise
    // of the held-out rows (computed in Python, see permutation_importance).
    lines.push([
      "iw-tooltip-wrap",
      `${data.intervalLabel || "held-out interval"}: [${importance(row.low)}, ${importance(row.high)}]`,
    ]);
  }
  lines.push(["", `repeats: ${data.repeatsDone ?? 0}`]);
  if (Number.isFinite(data.baseline) && Number.isFinite(row.permuted)) {
    const name = data.scorer ? `${data.scorer} ` : "";
    lines.push([
      "",
      `${name}${baseline(data.baseline)} → ${permuted(row.permuted)}`,
    ]);
  }
  for (const line of row.details) lines.push(["iw-tooltip-wrap", line]);
  return lines;
}
