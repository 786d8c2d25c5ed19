// @ts-check
// 1-way partial dependence of a numeric feature: ICE curves painted on a
// canvas (thin, translucent), the PDP as a bold svg line on top, and under
// them, on the same x scale, the feature's histogram, with a decile rug in
// the gap between the two.
// Regions beyond the first and last decile are shaded: data is rare there.
//
// Updates reuse every element, so a streaming run (grid_done growing) only
// lengthens the path and repaints the canvas. Hovering shows a vertical
// guide and a tooltip with x, the PDP value and the spread of the drawn ICE.

import { axisBottom } from "d3-axis";
import { scaleLinear } from "d3-scale";
import { line } from "d3-shape";

import { setShown, themeAxis } from "../charts/chart_base.js";
import { formatNumber, isolate } from "../charts/format.js";
import {
  canvasColor,
  ICE_FALLBACK_COLOR,
  iceAlpha,
  paintIce,
} from "./pd_canvas.js";
import { createAleLayer } from "./pd_ale.js";
import {
  MISSING_GUTTER,
  createMissingLayer,
  ticksClearOfMissing,
} from "./pd_missing.js";
import { nearestIndex } from "./pd_data.js";
import { drawDistribution } from "./pd_distribution.js";
import { createSummaryLayer } from "./pd_summaries.js";
import {
  DIST_GAP,
  DIST_HEIGHT,
  createOneWayFrame,
  curveValueLines,
  oneWayHandle,
  prepareIceCanvas,
} from "./pd_frame.js";

const RARE_TITLE = "Data is rare here (beyond the first or last decile)";
const pdpLine = line();

/**
 * Create the chart inside `container`.
 *
 * @param {HTMLElement} container
 * @param {{tooltip: import("../ui/tooltip.js").Tooltip}} options
 * @returns {{update: (curve: import("./pd_data.js").Curve1d) =>
 *   {iceDrawn: number, bars: number}, destroy: () => void}}
 */
export function createPdCurve(container, { tooltip }) {
  const frame = createOneWayFrame(container, { svgTestid: "pdw-curve-chart" });
  const pdp = frame.plot
    .append("path")
    .attr("class", "pdw-pdp")
    .attr("data-testid", "pdw-pdp");
  const ale = createAleLayer(frame.plot);
  const summary = createSummaryLayer(frame.plot);
  const missing = createMissingLayer(frame.svg);
  const guide = frame.plot
    .append("line")
    .attr("class", "pdw-guide")
    .style("display", "none");
  const focus = frame.plot
    .append("circle")
    .attr("class", "pdw-focus")
    .attr("r", 4)
    .style("display", "none");

  /** @type {import("./pd_data.js").Curve1d | null} */
  let curve = null;
  /**
   * @type {{x: import("d3-scale").ScaleLinear<number, number>,
   *   y: import("d3-scale").ScaleLinear<number, number>,
   *   box: ReturnType<typeof frame.layout>} | null}
   */
  let geometry = null;

  function draw() {
    // oneWayHandle sets the curve before each draw.
    if (curve === null) return { iceDrawn: 0, bars: 0 };
    const { x: axis, average, gridDone, distribution, steps } = curve;
    const grid = axis.values;
    const g = grid.length;
    const box = frame.layout(curve);
    const { y, plotW, distTop } = box;
    const lo = g > 0 ? grid[0] : 0;
    const hi = g > 0 ? grid[g - 1] : 1;
    // The missing value's column, when there is one, takes the right edge.
    const right = curve.missing ? box.right - MISSING_GUTTER : box.right;
    const x = scaleLinear()
      .domain(lo === hi ? [lo - 1, hi + 1] : [lo, hi])
      .range([box.left, right]);

    // ICE on the canvas, which covers the plot area only: at every step of
    // a tree model once known, else at the grid points.
    const iceGrid = steps ? steps.x : grid;
    // Bands and clusters stand for the thin lines (10,000 curves read as a
    // few shapes); a split by group draws its curves over them.
    const summarized = Boolean(
      curve.summaries?.bands || curve.summaries?.clusters,
    );
    const individual = summarized ? null : (steps ?? curve.individual);
    const xs = new Float64Array(iceGrid.length);
    for (let j = 0; j < iceGrid.length; j += 1)
      xs[j] = x(iceGrid[j]) - box.left;
    const [d0, d1] = y.domain();
    const ky = -(box.bottom - box.top) / (d1 - d0);
    const context = prepareIceCanvas(frame, box);
    // Under groups' curves the thin lines step back, out of their palette
    // (before painting: the canvas paints in its css colour).
    frame.canvas.classed("pdw-ice-muted", Boolean(curve.summaries?.groups));
    const canvas = frame.canvas.node();
    let iceDrawn = 0;
    if (context && canvas && individual && individual.rows > 0) {
      iceDrawn = paintIce(context, {
        values: individual.values,
        rows: individual.rows,
        cols: individual.cols,
        done: steps ? steps.cols : gridDone,
        steps: Boolean(steps),
        xs,
        y0: -ky * d1,
        ky,
        color: canvasColor(canvas, ICE_FALLBACK_COLOR),
        alpha: iceAlpha(individual.rows),
      });
    }
    frame.canvas.attr("data-curves", individual ? individual.rows : 0);
    frame.canvas.attr("data-steps", steps ? steps.cols : 0);

    // PDP: the computed points only; the path element is kept.
    /** @type {[number, number][]} */
    const points = [];
    if (average) {
      for (let j = 0; j < gridDone; j += 1)
        if (Number.isFinite(average[j]))
          points.push([x(grid[j]), y(average[j])]);
    }
    pdp
      .attr("d", points.length > 0 ? pdpLine(points) : null)
      .attr("data-points", points.length);
    setShown(pdp, Boolean(average));
    pdp.classed("pdw-pdp-behind", Boolean(curve.summaries?.groups));
    ale.drawCurve({ curve, x, y, box });
    summary.draw({ summaries: curve.summaries, grid, gridDone, x, y });

    // Distribution strip, decile rug, rare regions.
    const bars = drawDistribution(frame.dist, distribution, {
      scale: x,
      orientation: "x",
      size: DIST_HEIGHT,
    });
    const counts = distribution?.counts ?? [];
    missing.draw({
      curve,
      y,
      box,
      distTop,
      distHeight: DIST_HEIGHT,
      maxCount: Math.max(0, ...counts, curve.missing?.nMissing ?? 0),
    });
    const deciles =
      distribution?.kind === "histogram" ? [...distribution.deciles] : [];
    const [x0, x1] = x.range();
    /** @param {number} v */
    const clampX = (v) => Math.max(x0, Math.min(x1, x(v)));
    frame.deciles
      .selectAll("line.pdw-decile")
      .data(deciles)
      .join("line")
      .attr("class", "pdw-decile")
      .attr("data-testid", "pdw-decile")
      .attr("data-value", (v) => v)
      .attr("x1", clampX)
      .attr("x2", clampX)
      .attr("y1", distTop - DIST_GAP + 2)
      .attr("y2", distTop - 2);
    const regions =
      deciles.length >= 2
        ? [
            { key: "low", a: x0, b: clampX(deciles[0]) },
            { key: "high", a: clampX(deciles[deciles.length - 1]), b: x1 },
          ]
        : [];
    frame.rare
      .selectAll("rect.pdw-rare-region")
      .data(regions, (/** @type {{key: string}} */ d) => d.key)
      .join((/** @type {import("../charts/chart_base.js").AnySelection} */ enter) =>
        enter
          .append("rect")
          .attr("class", "pdw-rare-region")
          .call((/** @type {import("../charts/chart_base.js").AnySelection} */ r) =>
            r.append("title").text(RARE_TITLE),
          ),
      )
      .attr("data-side", (d) => d.key)
      .attr("x", (d) => d.a)
      .attr("width", (d) => Math.max(0, d.b - d.a))
      .attr("y", box.top)
      .attr("height", distTop + DIST_HEIGHT - box.top);

    /** @param {number | {valueOf(): number}} v */
    const tickLabel = (v) => formatNumber(Number(v));
    const ticks = x.ticks(Math.max(2, Math.floor(plotW / 80)));
    frame.xAxis.call(
      axisBottom(x)
        .tickValues(
          curve.missing ? ticksClearOfMissing(ticks, x, tickLabel, box) : ticks,
        )
        .tickFormat(tickLabel),
    );
    themeAxis(frame.xAxis);
    frame.svg.attr("data-settled", "true");
    geometry = { x, y, box };
    pointer.refresh();
    return { iceDrawn, bars };
  }

  function hide() {
    guide.style("display", "none");
    focus.style("display", "none");
    tooltip.hide();
  }

  /** @param {{clientX: number, clientY: number}} at */
  function show(at) {
    if (!curve || !geometry || curve.gridDone === 0) return hide();
    const { x, y, box } = geometry;
    const grid = curve.x.values;
    const j = nearestIndex(grid, curve.gridDone, x.invert(frame.localX(at)));
    if (j < 0) return hide();
    const px = x(grid[j]);
    guide
      .style("display", null)
      .attr("x1", px)
      .attr("x2", px)
      .attr("y1", box.top)
      .attr("y2", box.bottom);
    const avg = curve.average?.[j] ?? curve.ale?.values[j];
    if (avg !== undefined && Number.isFinite(avg))
      focus.style("display", null).attr("cx", px).attr("cy", y(avg));
    else focus.style("display", "none");
    /** @type {[string, string][]} */
    const lines = [
      ["iw-tooltip-title", `${isolate(curve.feature)} = ${formatNumber(grid[j])}`],
      ...curveValueLines(curve, j),
    ];
    tooltip.fill(lines);
    tooltip.show(at);
  }

  const pointer = frame.track({ show, hide });

  return oneWayHandle({
    frame,
    pointer,
    hide,
    setCurve: (next) => {
      curve = next;
    },
    draw,
  });
}
