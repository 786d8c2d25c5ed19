// 2-way partial dependence: a heatmap of `average` over grid (x, first
// feature) × grid_y (y, second feature), painted on a canvas, with a colour
// legend, contour lines for numeric × numeric grids once complete, and each
// feature's distribution on a margin (x's on top, y's on the right).
//
// Numeric axes are linear, each cell reaching halfway to its neighbours (the
// grid is often quantile-spaced, so cells differ in width); categorical axes
// are bands. charts/heatmap.js (square cells, label axes) does not fit here:
// the margins and contours need the feature's own numeric scale.

import { axisBottom, axisLeft } from "d3-axis";
import { contours } from "d3-contour";
import {
  scaleBand,
  scaleDiverging,
  scaleLinear,
  scaleSequential,
} from "d3-scale";
import { interpolateRdBu, interpolateViridis } from "d3-scale-chromatic";
import { select } from "d3-selection";

import {
  CHAR_WIDTH,
  measureWidth,
  themeAxis,
  truncate,
} from "../charts/chart_base.js";
import { createColorLegend } from "../charts/color_legend.js";
import { formatNumber } from "../charts/format.js";
import { prepareCanvas } from "./pd_canvas.js";
import { finiteExtent, nearestIndex } from "./pd_data.js";
import { drawDistribution } from "./pd_distribution.js";

const MARGIN = { top: 8, right: 12, bottom: 40, left: 72 };
const MARGIN_SIZE = 40; // depth of the distribution strips
const GAP = 4;
const MAX_PLOT = 440;
const CONTOURS = 7;

/** Cell boundaries of a numeric grid: midpoints, half a step beyond ends. */
export function cellEdges(grid) {
  const g = grid.length;
  const edges = new Float64Array(g + 1);
  if (g === 0) return edges;
  if (g === 1) {
    edges[0] = grid[0] - 0.5;
    edges[1] = grid[0] + 0.5;
    return edges;
  }
  for (let k = 1; k < g; k += 1) edges[k] = (grid[k - 1] + grid[k]) / 2;
  edges[0] = grid[0] - (grid[1] - grid[0]) / 2;
  edges[g] = grid[g - 1] + (grid[g - 1] - grid[g - 2]) / 2;
  return edges;
}

/** Diverging around 0 when the values straddle it, else sequential. */
export function heatColor(extent) {
  if (!extent) return scaleSequential(interpolateViridis).domain([0, 1]);
  const [lo, hi] = extent;
  if (lo < 0 && hi > 0) {
    const m = Math.max(-lo, hi);
    return scaleDiverging((t) => interpolateRdBu(1 - t)).domain([-m, 0, m]);
  }
  return scaleSequential(interpolateViridis).domain(
    lo === hi ? [lo - 1, hi + 1] : [lo, hi],
  );
}

/**
 * One axis: scale, the pixel span of each cell, and the cell under a pixel.
 *
 * @param {{values: Float32Array, labels: string[], categorical: boolean}} axis
 * @param {[number, number]} range
 */
function axisGeometry(axis, range) {
  const g = axis.values.length;
  if (axis.categorical) {
    const scale = scaleBand().domain(axis.labels).range(range);
    return {
      scale,
      span: (k) => [
        scale(axis.labels[k]),
        scale(axis.labels[k]) + scale.bandwidth(),
      ],
      at: (px) => {
        const k = Math.floor((px - Math.min(...range)) / scale.step());
        const index = range[0] > range[1] ? g - 1 - k : k;
        return index >= 0 && index < g ? index : -1;
      },
      fromIndex: (t) =>
        scale(axis.labels[Math.round(t)]) + scale.bandwidth() / 2,
      describe: (k) => axis.labels[k],
    };
  }
  const edges = cellEdges(axis.values);
  const scale = scaleLinear().domain([edges[0], edges[g]]).range(range);
  return {
    scale,
    span: (k) => [scale(edges[k]), scale(edges[k + 1])],
    at: (px) => {
      const v = scale.invert(px);
      return v < edges[0] || v > edges[g]
        ? -1
        : nearestIndex(axis.values, g, v);
    },
    // Contour coordinates: value k sits at k + 0.5 (d3-contour's pixels).
    fromIndex: (t) => {
      const u = Math.max(0, Math.min(g - 1, t - 0.5));
      const k = Math.min(g - 2, Math.floor(u));
      if (g < 2) return scale(axis.values[0]);
      const f = u - k;
      return scale(axis.values[k] * (1 - f) + axis.values[k + 1] * f);
    },
    describe: (k) => formatNumber(axis.values[k]),
  };
}

/**
 * Contour lines as an svg path. d3-contour closes each ring along the grid's
 * border (coordinate 0 or n), half a cell beyond the outermost values; the
 * segments that touch the border are dropped, so lines end at the last grid
 * values instead of framing the heatmap.
 */
function contourPath(polygons, nx, ny, toX, toY) {
  const onBorder = ([a, b]) => a === 0 || a === nx || b === 0 || b === ny;
  let path = "";
  for (const polygon of polygons)
    for (const ring of polygon)
      for (let k = 1; k < ring.length; k += 1) {
        if (onBorder(ring[k - 1]) || onBorder(ring[k])) continue;
        const [x0, y0] = ring[k - 1];
        const [x1, y1] = ring[k];
        path += `M${toX(x0).toFixed(1)},${toY(y0).toFixed(1)}L${toX(x1).toFixed(1)},${toY(y1).toFixed(1)}`;
      }
  return path;
}

/**
 * Create the chart inside `container`.
 *
 * @param {HTMLElement} container
 * @param {{tooltip: import("../ui/tooltip.js").Tooltip}} options
 * @returns {{update: (curve: import("./pd_data.js").Curve2d) =>
 *   {cells: number, contours: number}, destroy: () => void}}
 */
export function createPdHeatmap(container, { tooltip }) {
  const wrapper = select(container).append("div").attr("class", "pdw-chart-2d");
  const legendHost = wrapper.append("div").attr("class", "pdw-legend-host");
  const root = wrapper.append("div").attr("class", "pdw-chart");
  const canvas = root
    .append("canvas")
    .attr("class", "pdw-heat-canvas")
    .attr("aria-hidden", "true");
  const svg = root
    .append("svg")
    .attr("class", "iw-chart-svg pdw-svg")
    .attr("data-testid", "pdw-heatmap")
    .attr("data-settled", "true")
    .attr("role", "img");
  const topG = svg.append("g").attr("class", "pdw-margin-x");
  const rightG = svg.append("g").attr("class", "pdw-margin-y");
  const contourPathEl = svg.append("path").attr("class", "pdw-contours");
  const focus = svg
    .append("rect")
    .attr("class", "pdw-cell-focus")
    .style("display", "none");
  const xAxisG = svg.append("g").attr("class", "iw-axis");
  const yAxisG = svg.append("g").attr("class", "iw-axis");
  const xTitle = svg
    .append("text")
    .attr("class", "iw-axis-title")
    .attr("text-anchor", "middle");
  const yTitle = svg
    .append("text")
    .attr("class", "iw-axis-title")
    .attr("text-anchor", "middle");
  const overlay = svg
    .append("rect")
    .attr("class", "pdw-overlay")
    .attr("fill", "transparent");
  const legend = createColorLegend(legendHost.node(), {
    testid: "pdw-legend",
  });

  let curve = null;
  let geometry = null;
  let pointer = null;
  let destroyed = false;

  function draw() {
    const { x: xAxis, y: yAxis, average, gridDone } = curve;
    const ga = xAxis.values.length;
    const gb = yAxis.values.length;
    const available = measureWidth(container);
    const plotW = Math.max(
      120,
      Math.min(
        MAX_PLOT,
        available - MARGIN.left - MARGIN.right - MARGIN_SIZE - GAP,
      ),
    );
    const plotH = Math.round(Math.min(plotW, 360));
    const left = MARGIN.left;
    const top = MARGIN.top + MARGIN_SIZE + GAP;
    const width = left + plotW + GAP + MARGIN_SIZE + MARGIN.right;
    const height = top + plotH + MARGIN.bottom;
    const gx = axisGeometry(xAxis, [left, left + plotW]);
    const gy = axisGeometry(
      yAxis,
      yAxis.categorical ? [top, top + plotH] : [top + plotH, top],
    );
    svg
      .attr("width", width)
      .attr("height", height)
      .attr(
        "aria-label",
        `Partial dependence on ${curve.features[0]} and ${curve.features[1]}`,
      );

    // Colour: over the computed cells only.
    const done = average.subarray(0, gridDone * gb);
    const extent = finiteExtent([done]);
    const color = heatColor(extent);
    if (extent)
      legend.update({
        color,
        domain: [color.domain()[0], color.domain().at(-1)],
        ticks: scaleLinear()
          .domain([color.domain()[0], color.domain().at(-1)])
          .ticks(4),
        title: curve.yLabel || "partial dependence",
      });
    legendHost.style("display", extent ? null : "none");

    const context = prepareCanvas(canvas.node(), {
      left,
      top,
      width: plotW,
      height: plotH,
    });
    let cells = 0;
    for (let i = 0; i < gridDone; i += 1) {
      const [xa, xb] = gx.span(i);
      for (let j = 0; j < gb; j += 1) {
        const v = average[i * gb + j];
        if (v !== v) continue;
        cells += 1;
        if (!context) continue;
        const [ya, yb] = gy.span(j);
        context.fillStyle = color(v);
        // Overlap by a fraction of a pixel so no seams show between cells.
        context.fillRect(
          Math.min(xa, xb) - left,
          Math.min(ya, yb) - top,
          Math.abs(xb - xa) + 0.5,
          Math.abs(yb - ya) + 0.5,
        );
      }
    }

    // Contours once the grid is complete (numeric × numeric).
    let nContours = 0;
    let d = "";
    if (
      !xAxis.categorical &&
      !yAxis.categorical &&
      gridDone === ga &&
      ga >= 2 &&
      gb >= 2 &&
      extent &&
      extent[0] < extent[1]
    ) {
      const transposed = new Float64Array(ga * gb);
      for (let i = 0; i < ga; i += 1)
        for (let j = 0; j < gb; j += 1)
          transposed[j * ga + i] = average[i * gb + j];
      const thresholds = scaleLinear()
        .domain(extent)
        .ticks(CONTOURS)
        .filter((t) => t > extent[0] && t < extent[1]);
      const polygons = contours().size([ga, gb]).thresholds(thresholds)(
        transposed,
      );
      nContours = polygons.filter((p) => p.coordinates.length > 0).length;
      d = contourPath(
        polygons.map((p) => p.coordinates).flat(),
        ga,
        gb,
        gx.fromIndex,
        gy.fromIndex,
      );
    }
    contourPathEl.attr("d", d || null).attr("data-levels", nContours);

    // Distributions on the margins.
    topG.attr("transform", `translate(0,${MARGIN.top})`);
    drawDistribution(topG, curve.distribution, {
      scale: gx.scale,
      orientation: "x",
      size: MARGIN_SIZE,
    });
    rightG.attr("transform", `translate(${left + plotW + GAP},0)`);
    drawDistribution(rightG, curve.distributionY, {
      scale: gy.scale,
      orientation: "y",
      size: MARGIN_SIZE,
    });
    topG.selectAll("rect").attr("data-axis", "x");
    rightG.selectAll("rect").attr("data-axis", "y");

    // Axes and titles.
    const bottomAxis = axisBottom(gx.scale);
    if (xAxis.categorical) {
      const chars = Math.max(2, Math.floor(gx.scale.step() / CHAR_WIDTH));
      bottomAxis.tickFormat((t) => truncate(t, chars));
    } else
      bottomAxis
        .ticks(Math.max(2, Math.floor(plotW / 80)))
        .tickFormat(formatNumber);
    xAxisG.attr("transform", `translate(0,${top + plotH})`).call(bottomAxis);
    themeAxis(xAxisG);
    const leftAxis = axisLeft(gy.scale);
    if (yAxis.categorical)
      leftAxis.tickFormat((t) =>
        truncate(t, Math.floor((MARGIN.left - 12) / CHAR_WIDTH)),
      );
    else leftAxis.ticks(6).tickFormat(formatNumber);
    yAxisG.attr("transform", `translate(${left},0)`).call(leftAxis);
    themeAxis(yAxisG);
    xTitle
      .attr("x", left + plotW / 2)
      .attr("y", height - 4)
      .text(curve.features[0]);
    yTitle
      .attr("transform", `translate(12,${top + plotH / 2}) rotate(-90)`)
      .text(curve.features[1]);
    overlay
      .attr("x", left)
      .attr("y", top)
      .attr("width", plotW)
      .attr("height", plotH);

    svg.attr("data-cells", cells).attr("data-settled", "true");
    geometry = { gx, gy };
    if (pointer) show(pointer);
    else hide();
    return { cells, contours: nContours };
  }

  function hide() {
    focus.style("display", "none");
    tooltip.hide();
  }

  function show(at) {
    if (!curve || !geometry) return hide();
    const { gx, gy } = geometry;
    const box = svg.node().getBoundingClientRect();
    const i = gx.at(at.clientX - box.left);
    const j = gy.at(at.clientY - box.top);
    if (i < 0 || j < 0) return hide();
    const [xa, xb] = gx.span(i);
    const [ya, yb] = gy.span(j);
    focus
      .style("display", null)
      .attr("x", Math.min(xa, xb))
      .attr("y", Math.min(ya, yb))
      .attr("width", Math.abs(xb - xa))
      .attr("height", Math.abs(yb - ya));
    const gb = curve.y.values.length;
    const v = i < curve.gridDone ? curve.average[i * gb + j] : NaN;
    tooltip.fill([
      ["iw-tooltip-title", `${curve.features[0]} = ${gx.describe(i)}`],
      ["iw-tooltip-title", `${curve.features[1]} = ${gy.describe(j)}`],
      [
        "",
        Number.isFinite(v)
          ? `${curve.yLabel || "partial dependence"}: ${formatNumber(v)}`
          : "not computed yet",
      ],
    ]);
    tooltip.show(at);
  }

  overlay
    .on("pointermove", (event) => {
      pointer = { clientX: event.clientX, clientY: event.clientY };
      show(pointer);
    })
    .on("pointerleave", () => {
      pointer = null;
      hide();
    });

  return {
    update(next) {
      if (destroyed) return { cells: 0, contours: 0 };
      curve = next;
      return draw();
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      overlay.on("pointermove", null).on("pointerleave", null);
      hide();
      legend.destroy();
      wrapper.remove();
      curve = null;
    },
  };
}
