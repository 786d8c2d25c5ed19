// @ts-check
// The bars of the importance chart: one bar from 0 to the mean per row, with
// ±std error bars.

import { select } from "d3-selection";

import { isNegativeRow } from "./importance_rows.js";

/**
 * Append the (initially empty) bar elements of a new row `g`.
 *
 * @param {import("./chart_base.js").AnySelection} g
 */
export function appendBars(g) {
  const bars = g.append("g").attr("class", "piw-bars");
  bars.append("rect").attr("class", "piw-bar");
  bars.append("line").attr("class", "piw-err");
  bars.append("line").attr("class", "piw-err piw-err-cap piw-err-low");
  bars.append("line").attr("class", "piw-err piw-err-cap piw-err-high");
}

/**
 * Draw the bars of the `joined` rows, or hide them.
 *
 * @param {import("./chart_base.js").AnySelection} joined the rows.
 * @param {import("./importance_chart.js").MarksOptions} options `visible`
 *   when bars are the kind drawn.
 */
export function drawBars(
  joined,
  { visible, x, band, mid, tr, testid, keyAttribute },
) {
  const x0 = x(0);
  /** @param {number} v */
  const px = (v) => (Number.isFinite(v) ? x(v) : x0);
  const bars = joined
    .select("g.piw-bars")
    .attr("display", visible ? null : "none");
  bars
    .select("rect.piw-bar")
    .attr("data-testid", testid)
    .attr(keyAttribute, (d) => d.feature)
    .classed("piw-negative", (d) => isNegativeRow(d, "bar"));
  tr(bars.select("rect.piw-bar"))
    .attr("x", (d) => Math.min(x0, px(d.mean)))
    .attr("width", (d) => Math.abs(px(d.mean) - x0))
    .attr("y", 0)
    .attr("height", band);
  /** @param {import("./importance_rows.js").ImportanceRow} d */
  const hasErr = (d) => Number.isFinite(d.mean) && d.std > 0;
  // Each row's own datum: `selectAll` does not pass the row's data down,
  // and the lines' own would be that of the previous draw (the error bars
  // of a result whose previous draw had one repeat stayed hidden).
  bars.each(function (d) {
    select(this)
      .selectAll("line.piw-err")
      .attr("display", hasErr(d) ? null : "none");
  });
  tr(bars.select("line.piw-err:not(.piw-err-cap)"))
    .attr("x1", (d) => px(d.mean - d.std))
    .attr("x2", (d) => px(d.mean + d.std))
    .attr("y1", mid)
    .attr("y2", mid);
  /** @type {[string, number][]} */
  const caps = [
    ["piw-err-low", -1],
    ["piw-err-high", 1],
  ];
  for (const [cls, sign] of caps) {
    tr(bars.select(`line.${cls}`))
      .attr("x1", (d) => px(d.mean + sign * d.std))
      .attr("x2", (d) => px(d.mean + sign * d.std))
      .attr("y1", band * 0.25)
      .attr("y2", band * 0.75);
  }
}
