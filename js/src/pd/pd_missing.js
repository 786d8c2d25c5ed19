// @ts-check
// The missing value of a numeric feature, drawn beside its partial
// dependence: a column right of the plot, past a dashed separator, labelled
// "missing", holding the ICE values at the missing point (small dots) and
// their average (a diamond), and in the distribution strip a bar of the
// rows missing the value, on the histogram's count scale. Python computes
// every number (`_curve.missing`); this draws them.

import { symbol, symbolDiamond } from "d3-shape";

import { CHAR_WIDTH, setShown } from "../charts/chart_base.js";
import { isolate } from "../charts/format.js";

/** Width (px) taken from the plot's right for the missing value's column. */
export const MISSING_GUTTER = 44;
export const MISSING_LABEL = "missing";
const diamond = symbol(symbolDiamond, 64);

// d3-axis's bottom tick labels: 6 px of tick and 3 of padding below the
// axis, then hung from the top (0.71em). The "missing" label sits alike.
const TICK_LABEL_Y = 9;
// The least room (px) between an axis tick label and the "missing" label.
const LABEL_GAP = 6;

/**
 * The x of the left end of the "missing" label under a chart whose plot
 * ends at `box.right` (text is not measured: CHAR_WIDTH per character, as
 * the other chart labels are sized).
 *
 * @param {{right: number}} box
 */
export function missingLabelLeft(box) {
  return box.right - MISSING_GUTTER / 2 - (MISSING_LABEL.length * CHAR_WIDTH) / 2;
}

/**
 * The `ticks` of the x axis whose labels (`format`) end clear of the
 * "missing" label: a tick at the axis's end ran into it (#52 item 5).
 *
 * @param {number[]} ticks
 * @param {(value: number) => number} scale
 * @param {(value: number) => string} format
 * @param {{right: number}} box
 * @returns {number[]}
 */
export function ticksClearOfMissing(ticks, scale, format, box) {
  const limit = missingLabelLeft(box) - LABEL_GAP;
  return ticks.filter(
    (v) => scale(v) + (format(v).length * CHAR_WIDTH) / 2 <= limit,
  );
}

/**
 * @typedef {{curve: NonNullable<ReturnType<
 *   typeof import("./pd_data.js").curveResult>>,
 *   y: (value: number) => number, box: {top: number, right: number},
 *   distTop: number, distHeight: number, maxCount: number}} DrawOptions
 */

/**
 * Create the layer in `svg` (the chart's svg selection).
 *
 * @param {import("../charts/chart_base.js").AnySelection} svg
 * @returns {{draw: (options: DrawOptions) => void}}
 */
export function createMissingLayer(svg) {
  const g = svg
    .append("g")
    .attr("class", "pdw-missing")
    .attr("data-testid", "pdw-missing");
  // The group's tooltip: the rows missing the value, and why a point is
  // absent. Text, never markup: the note quotes the model's error.
  const title = g.append("title").attr("data-testid", "pdw-missing-title");
  const separator = g.append("line").attr("class", "pdw-missing-separator");
  const dots = g.append("g").attr("class", "pdw-missing-ice");
  const average = g
    .append("path")
    .attr("class", "pdw-missing-average")
    .attr("data-testid", "pdw-missing-average");
  const bar = g
    .append("rect")
    .attr("class", "pdw-bar pdw-missing-bar")
    .attr("data-testid", "pdw-missing-bar");
  const label = g
    .append("text")
    .attr("class", "pdw-missing-label")
    .attr("data-testid", "pdw-missing-label")
    .attr("text-anchor", "middle")
    .attr("dy", "0.71em")
    .text(MISSING_LABEL);

  /** @param {DrawOptions} options */
  function draw({ curve, y, box, distTop, distHeight, maxCount }) {
    const missing = curve.mode === "1d" ? curve.missing : null;
    setShown(g, Boolean(missing));
    if (curve.mode !== "1d" || !missing) return;
    const cx = box.right - MISSING_GUTTER / 2;
    const sepX = box.right - MISSING_GUTTER + 6;
    separator
      .attr("x1", sepX)
      .attr("x2", sepX)
      .attr("y1", box.top)
      .attr("y2", distTop + distHeight);
    const ice = missing.individual
      ? [...missing.individual].filter(Number.isFinite)
      : [];
    dots
      .selectAll("circle")
      .data(ice)
      .join("circle")
      .attr("class", "pdw-missing-dot")
      .attr("data-testid", "pdw-missing-dot")
      .attr("r", 1.5)
      .attr("cx", cx)
      .attr("cy", (/** @type {number} */ v) => y(v));
    const value = missing.average;
    const shown = value != null && Number.isFinite(value);
    setShown(average, shown);
    average
      .attr("d", diamond())
      .attr("data-value", shown ? value : null)
      .attr("transform", shown ? `translate(${cx},${y(value)})` : null);
    const depth =
      maxCount > 0 ? (Math.min(missing.nMissing, maxCount) / maxCount) * distHeight : 0;
    bar
      .attr("data-count", missing.nMissing)
      .attr("x", cx - 6)
      .attr("width", 12)
      .attr("y", distTop + distHeight - depth)
      .attr("height", depth);
    label.attr("x", cx).attr("y", distTop + distHeight + TICK_LABEL_Y);
    const share = missing.nRows > 0 ? missing.nMissing / missing.nRows : 0;
    const note = missing.note ? ` ${missing.note}` : "";
    title.text(
      `${missing.nMissing} rows (${(share * 100).toFixed(1)} %) miss ` +
        `${isolate(curve.feature)}.${note}`,
    );
  }

  return { draw };
}
