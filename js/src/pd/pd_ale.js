// @ts-check
// The accumulated local effects layer of the 1-way charts: the ALE as a line
// (marks per category) over its band (the rows' changes' spread within each
// bin, its width set by the bin count, not a confidence band), and, when partial
// dependence is drawn on the same axis (kind "average_and_ale"), a legend
// naming the two, in rows above the plot. Python computes the values and the band's bounds; this
// only places them. The elements are kept between updates, so a streaming
// run only moves them.

import { area, line } from "d3-shape";

import { setShown } from "../charts/chart_base.js";

// Points are [x, y(ALE), y(lower), y(upper)]. Bins without rows have no
// band (NaN bounds): a gap.
/** @typedef {[number, number, number, number]} AlePoint */
const aleLine = line(
  (/** @type {AlePoint} */ d) => d[0],
  (d) => d[1],
).defined((d) => Number.isFinite(d[1]));
const aleBand = area(
  (/** @type {AlePoint} */ d) => d[0],
  (d) => d[2],
  (d) => d[3],
).defined((d) => Number.isFinite(d[2]) && Number.isFinite(d[3]));

/**
 * @typedef {import("../charts/chart_base.js").AnySelection} AnySelection
 * @typedef {import("d3-scale").ScaleLinear<number, number>} ScaleLinear
 * @typedef {import("d3-scale").ScaleBand<string>} ScaleBand
 * @typedef {{curve: import("./pd_data.js").Curve1d, y: ScaleLinear,
 *   box: {left: number, top: number, legendTop: number, distTop: number,
 *   distHeight: number}}}
 *   DrawOptions
 * @typedef {{key: string, text: string, className: string}} LegendEntry
 */

/**
 * Height (px) of a legend row. The legend takes rows of its own above the
 * plot (the frame's layout makes room): drawn inside it, it lay on the
 * curves (#52 item 5).
 */
export const LEGEND_ROW = 16;

/** @type {LegendEntry[]} */
const LEGEND = [
  { key: "pd", text: "partial dependence", className: "pdw-legend-pd" },
  {
    key: "ale",
    text: "ALE ± std of rows' changes per bin (width set by the bin count)",
    className: "pdw-legend-ale",
  },
];

/**
 * The legend's entries for `curve`: both curves in the overlay, none else.
 *
 * @param {{effect?: string} | null} curve
 * @returns {{key: string, text: string, className: string}[]}
 */
export function legendEntries(curve) {
  return curve?.effect === "overlay" ? LEGEND : [];
}

/**
 * Create the layer in `plot` (a d3 selection), under the PDP line.
 *
 * @param {AnySelection} plot
 * @returns {{drawCurve: (at: DrawOptions & {x: ScaleLinear}) => void,
 *   drawMarks: (at: DrawOptions & {x: ScaleBand}) => void}}
 */
export function createAleLayer(plot) {
  const g = plot.insert("g", ":first-child").attr("class", "pdw-ale");
  const band = g
    .append("path")
    .attr("class", "pdw-ale-band")
    .attr("data-testid", "pdw-ale-band");
  const path = g
    .append("path")
    .attr("class", "pdw-ale-line")
    .attr("data-testid", "pdw-ale-line");
  const marks = g.append("g").attr("class", "pdw-ale-marks");
  const legend = plot.append("g").attr("class", "pdw-legend");
  // Quantile bins hold about as many rows each: the strip under the curve
  // says so, rather than passing for a histogram of the values.
  const stripLabel = plot
    .append("text")
    .attr("class", "pdw-strip-label")
    .attr("data-testid", "pdw-strip-label")
    .attr("text-anchor", "end")
    .attr("dy", "0.32em");

  /**
   * @param {DrawOptions["curve"]} curve
   * @param {DrawOptions["box"]} box
   */
  function drawLegend(curve, box) {
    legend
      .attr("transform", `translate(${box.left},${box.legendTop})`)
      .selectAll("g.pdw-legend-item")
      .data(legendEntries(curve), (/** @type {LegendEntry} */ d) => d.key)
      .join((/** @type {AnySelection} */ enter) => {
        const item = enter.append("g").attr("class", "pdw-legend-item");
        item.append("line").attr("x1", 0).attr("x2", 18);
        item.append("text").attr("x", 24).attr("dy", "0.32em");
        return item;
      })
      .attr("data-testid", "pdw-legend-item")
      .attr("data-key", (d) => d.key)
      .attr(
        "transform",
        (_, i) => `translate(0,${LEGEND_ROW / 2 + i * LEGEND_ROW})`,
      )
      .call((/** @type {AnySelection} */ item) => {
        item
          .select("line")
          .attr("class", (/** @type {LegendEntry} */ d) => d.className);
        item.select("text").text((/** @type {LegendEntry} */ d) => d.text);
      });
  }

  /**
   * A numeric feature: line and band at the edges (x: a linear scale).
   *
   * @param {DrawOptions & {x: ScaleLinear}} options
   */
  function drawCurve({ curve, x, y, box }) {
    const ale = curve.ale;
    /** @type {AlePoint[]} */
    const points = [];
    if (ale) {
      for (let j = 0; j < curve.x.values.length; j += 1) {
        const at = x(curve.x.values[j]);
        points.push([at, y(ale.values[j]), y(ale.lower[j]), y(ale.upper[j])]);
      }
    }
    const shown = points.some((p) => Number.isFinite(p[1]));
    band.attr("d", shown ? aleBand(points) : null);
    path
      .attr("d", shown ? aleLine(points) : null)
      .attr("data-points", points.filter((p) => Number.isFinite(p[1])).length);
    setShown(g, Boolean(ale));
    marks.selectAll("*").remove();
    drawLegend(curve, box);
    stripLabel
      .attr("x", box.left - 6)
      .attr("y", box.distTop + box.distHeight / 2)
      .text(ale ? "rows / bin" : "");
  }

  /**
   * A categorical feature: a mark and a band bar per category (x: a band
   * scale over the labels).
   *
   * @param {DrawOptions & {x: ScaleBand}} options
   */
  function drawMarks({ curve, x, y, box }) {
    const ale = curve.ale;
    /** @typedef {{label: string, value: number, lo: number, hi: number}} Mark */
    /** @type {Mark[]} */
    const data = [];
    if (ale) {
      curve.x.labels.forEach((label, j) => {
        if (Number.isFinite(ale.values[j]))
          data.push({
            label,
            value: ale.values[j],
            lo: ale.lower[j],
            hi: ale.upper[j],
          });
      });
    }
    const w = x.bandwidth() * 0.3;
    marks
      .selectAll("g.pdw-ale-mark")
      .data(data, (/** @type {Mark} */ d) => d.label)
      .join((/** @type {AnySelection} */ enter) => {
        const mark = enter.append("g").attr("class", "pdw-ale-mark");
        mark.append("rect").attr("class", "pdw-ale-band");
        mark.append("line").attr("class", "pdw-ale-line");
        return mark;
      })
      .attr("data-testid", "pdw-ale-mark")
      .attr("data-category", (d) => d.label)
      .attr("data-value", (d) => d.value)
      .attr(
        "transform",
        (/** @type {Mark} */ d) =>
          `translate(${(x(d.label) ?? NaN) + x.bandwidth() / 2},0)`,
      )
      .call((/** @type {AnySelection} */ mark) => {
        /** @param {Mark} d */
        const finite = (d) => Number.isFinite(d.lo) && Number.isFinite(d.hi);
        mark
          .select("rect")
          .attr("x", -w / 2)
          .attr("width", w)
          .attr("y", (d) => (finite(d) ? y(d.hi) : y(d.value)))
          .attr("height", (d) => (finite(d) ? Math.abs(y(d.lo) - y(d.hi)) : 0));
        mark
          .select("line")
          .attr("x1", -w)
          .attr("x2", w)
          .attr("y1", (d) => y(d.value))
          .attr("y2", (d) => y(d.value));
      });
    band.attr("d", null);
    path.attr("d", null).attr("data-points", data.length);
    setShown(g, Boolean(ale));
    drawLegend(curve, box);
    stripLabel.text("");
  }

  return { drawCurve, drawMarks };
}
