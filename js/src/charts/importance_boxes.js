// @ts-check
// The box plots of the importance chart: per row, the box of the per-repeat
// importances (quartiles and median), whiskers with caps, and outliers.

import { isNegativeRow } from "./importance_rows.js";

const OUTLIER_RADIUS = 2.5;

/** @typedef {NonNullable<ReturnType<typeof import("./box_stats.js").boxStats>>} Box */

/**
 * Append the (initially empty) box-plot elements of a new row `g`.
 *
 * @param {import("./chart_base.js").AnySelection} g
 */
export function appendBoxPlot(g) {
  const box = g.append("g").attr("class", "piw-boxplot");
  box.append("line").attr("class", "piw-whisker piw-whisker-low");
  box.append("line").attr("class", "piw-whisker piw-whisker-high");
  box
    .append("line")
    .attr("class", "piw-whisker piw-whisker-cap piw-whisker-cap-low");
  box
    .append("line")
    .attr("class", "piw-whisker piw-whisker-cap piw-whisker-cap-high");
  box.append("rect").attr("class", "piw-box");
  box.append("line").attr("class", "piw-median");
  box.append("g").attr("class", "piw-outliers");
}

/**
 * Draw the box plots of the `joined` rows that have per-repeat values
 * (`d.box`), or hide them.
 *
 * @param {import("./chart_base.js").AnySelection} joined the rows.
 * @param {import("./importance_chart.js").MarksOptions} options `visible`
 *   when boxes are the kind drawn.
 */
export function drawBoxes(
  joined,
  { visible, x, band, mid, tr, testid, keyAttribute },
) {
  const boxes = joined
    .select("g.piw-boxplot")
    .attr("display", (d) => (visible && d.box ? null : "none"))
    .filter((d) => d.box !== null);
  boxes
    .select("rect.piw-box")
    .attr("data-testid", testid)
    .attr(keyAttribute, (d) => d.feature)
    .classed("piw-negative", (d) => isNegativeRow(d, "box"));
  tr(boxes.select("rect.piw-box"))
    .attr("x", (d) => x(d.box.q1))
    .attr("width", (d) => Math.max(1, x(d.box.q3) - x(d.box.q1)))
    .attr("y", 0)
    .attr("height", band);
  tr(boxes.select("line.piw-median"))
    .attr("x1", (d) => x(d.box.median))
    .attr("x2", (d) => x(d.box.median))
    .attr("y1", 0)
    .attr("y2", band);
  /** @type {[string, (b: Box) => number, (b: Box) => number][]} */
  const whiskers = [
    ["piw-whisker-low", (b) => b.whiskerLow, (b) => b.q1],
    ["piw-whisker-high", (b) => b.q3, (b) => b.whiskerHigh],
  ];
  for (const [cls, from, to] of whiskers) {
    tr(boxes.select(`line.${cls}`))
      .attr("x1", (d) => x(from(d.box)))
      .attr("x2", (d) => x(to(d.box)))
      .attr("y1", mid)
      .attr("y2", mid);
  }
  /** @type {[string, (b: Box) => number][]} */
  const caps = [
    ["piw-whisker-cap-low", (b) => b.whiskerLow],
    ["piw-whisker-cap-high", (b) => b.whiskerHigh],
  ];
  for (const [cls, at] of caps) {
    tr(boxes.select(`line.${cls}`))
      .attr("x1", (d) => x(at(d.box)))
      .attr("x2", (d) => x(at(d.box)))
      .attr("y1", band * 0.25)
      .attr("y2", band * 0.75);
  }
  const outliers = boxes
    .select("g.piw-outliers")
    .selectAll("circle.piw-outlier")
    .data((d) => d.box.outliers)
    .join((enter) =>
      enter
        .append("circle")
        .attr("class", "piw-outlier")
        .attr("r", OUTLIER_RADIUS)
        .attr("cy", mid)
        .attr("cx", (v) => x(v)),
    );
  tr(outliers)
    .attr("cx", (v) => x(v))
    .attr("cy", mid);
}
