// @ts-check
// 2-way partial dependence: a heatmap of `average` over grid (x, first
// feature) × grid_y (y, second feature), painted on a canvas, with a colour
// legend, contour lines for numeric × numeric grids once complete, and each
// feature's distribution on a margin (x's on top, y's on the right).
//
// Numeric axes are linear, each cell reaching halfway to its neighbours (the
// grid is often quantile-spaced, so cells differ in width); categorical axes
// are bands. charts/heatmap.js (square cells, label axes) does not fit here:
// the margins and contours need the feature's own numeric scale.
//
// This module lays the chart out, paints the cells, draws the margins and
// axes and handles the pointer; the axes' cells and the colours come from
// pd_heat_scales.js, the contour lines from pd_contours.js.

import { axisBottom, axisLeft } from "d3-axis";
import { scaleLinear } from "d3-scale";
import { select } from "d3-selection";

import {
  CHAR_WIDTH,
  measureWidth,
  setShown,
  themeAxis,
  truncateTicks,
} from "../charts/chart_base.js";
import { createColorLegend } from "../charts/color_legend.js";
import { formatNumber, isolate, showName } from "../charts/format.js";
import { prepareCanvas } from "./pd_canvas.js";
import { heatContours } from "./pd_contours.js";
import { drawableSurface, finiteExtent } from "./pd_data.js";
import { drawDistribution } from "./pd_distribution.js";
import { axisGeometry, heatColor, minimumEffectRange } from "./pd_heat_scales.js";

const MARGIN = { top: 8, right: 12, bottom: 40, left: 72 };
// Extra left margin for category labels on the y axis, and the room the
// rotated axis title takes at the left edge (labels must end before it).
const CATEGORY_LABELS = 48;
const Y_TITLE_ROOM = 24;
const MARGIN_SIZE = 40; // depth of the distribution strips
const GAP = 4;
const MAX_PLOT = 440;

/**
 * The note under a surface with grid values that are not numbers: which
 * feature's, and whether anything could be drawn ("" when nothing is
 * missing).
 *
 * @param {import("./pd_data.js").Curve2d} curve
 * @param {[number, number]} dropped grid values left out of each axis.
 * @returns {string}
 */
export function surfaceNote(curve, dropped) {
  const axes = [curve.x, curve.y];
  const empty = curve.features.filter(
    (_, k) => dropped[k] > 0 && dropped[k] === axes[k].values.length,
  );
  if (empty.length > 0)
    return `Nothing to draw: the grid of ${empty.map(isolate).join(" and ")} holds no number (the column's missing values?).`;
  const parts = curve.features
    .map((name, k) =>
      dropped[k] > 0
        ? `${dropped[k]} of ${axes[k].values.length} grid values of ${isolate(name)}`
        : "",
    )
    .filter(Boolean);
  return parts.length > 0
    ? `Not drawn: ${parts.join(" and ")}, which are not numbers.`
    : "";
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
  // legendHost: the div appended above (d3 types node() as maybe null).
  const legend = createColorLegend(
    /** @type {HTMLDivElement} */ (legendHost.node()),
    { testid: "pdw-legend" },
  );
  // What could not be drawn (grid values that are not numbers), in words.
  const note = wrapper
    .append("p")
    .attr("class", "iw-note pdw-surface-note")
    .attr("data-testid", "pdw-surface-note");

  /** @type {import("./pd_data.js").Curve2d | null} */
  let curve = null;
  /**
   * @type {{gx: ReturnType<typeof axisGeometry>,
   *   gy: ReturnType<typeof axisGeometry>} | null}
   */
  let geometry = null;
  /** @type {{clientX: number, clientY: number} | null} */
  let pointer = null;
  let destroyed = false;

  function draw() {
    // update() sets the curve before each draw.
    if (curve === null) return { cells: 0, contours: 0 };
    const { x: xAxis, y: yAxis, average, gridDone } = curve;
    const gb = yAxis.values.length;
    const available = measureWidth(container);
    const left = MARGIN.left + (yAxis.categorical ? CATEGORY_LABELS : 0);
    const plotW = Math.max(
      120,
      Math.min(
        MAX_PLOT,
        available - left - MARGIN.right - MARGIN_SIZE - GAP,
      ),
    );
    const plotH = Math.round(Math.min(plotW, 360));
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
        `Partial dependence on ${isolate(curve.features[0])} and ${isolate(curve.features[1])}`,
      );

    // Colour: over the computed cells only.
    const done = average.subarray(0, gridDone * gb);
    const extent = finiteExtent([done]);
    // A second-order ALE is centred on 0: its colours span at least the
    // stated minimum, so a negligible surface is drawn pale (#52).
    const color = heatColor(extent, {
      minimum: curve.effect === "ale" ? minimumEffectRange(curve.yLabel) : 0,
    });
    if (extent) {
      const ends = color.domain();
      /** @type {[number, number]} */
      const domain = [ends[0], ends[ends.length - 1]];
      legend.update({
        color,
        domain,
        ticks: scaleLinear().domain(domain).ticks(4),
        title: curve.yLabel || "partial dependence",
      });
    }
    setShown(legendHost, Boolean(extent));

    const canvasNode = canvas.node();
    const context = canvasNode
      ? prepareCanvas(canvasNode, { left, top, width: plotW, height: plotH })
      : null;
    let cells = 0;
    for (let i = 0; i < gridDone; i += 1) {
      const [xa, xb] = gx.span(i);
      for (let j = 0; j < gb; j += 1) {
        const v = average[i * gb + j];
        if (Number.isNaN(v)) continue;
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
    const { d, levels: nContours } = heatContours(curve, extent, gx, gy);
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
    /** @param {import("d3-scale").NumberValue} v */
    const tickText = (v) => formatNumber(Number(v));
    xAxisG.attr("transform", `translate(0,${top + plotH})`);
    if (gx.categorical) {
      xAxisG.call(axisBottom(gx.scale));
      truncateTicks(
        xAxisG,
        Math.max(2, Math.floor(gx.scale.step() / CHAR_WIDTH)),
      );
    } else {
      xAxisG.call(
        axisBottom(gx.scale)
          .ticks(Math.max(2, Math.floor(plotW / 80)))
          .tickFormat(tickText),
      );
    }
    themeAxis(xAxisG);
    yAxisG.attr("transform", `translate(${left},0)`);
    if (gy.categorical) {
      yAxisG.call(axisLeft(gy.scale));
      truncateTicks(yAxisG, Math.floor((left - 9 - Y_TITLE_ROOM) / CHAR_WIDTH));
    } else {
      yAxisG.call(axisLeft(gy.scale).ticks(6).tickFormat(tickText));
    }
    themeAxis(yAxisG);
    const [xName, yName] = curve.features;
    showName(xTitle.attr("x", left + plotW / 2).attr("y", height - 4).node(), xName);
    showName(
      yTitle.attr("transform", `translate(12,${top + plotH / 2}) rotate(-90)`).node(),
      yName,
    );
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

  /** @param {{clientX: number, clientY: number}} at */
  function show(at) {
    const node = svg.node();
    if (!curve || !geometry || !node) return hide();
    const { gx, gy } = geometry;
    const box = node.getBoundingClientRect();
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
      ["iw-tooltip-title", `${isolate(curve.features[0])} = ${isolate(gx.describe(i))}`],
      ["iw-tooltip-title", `${isolate(curve.features[1])} = ${isolate(gy.describe(j))}`],
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
    .on("pointermove", (/** @type {PointerEvent} */ event) => {
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
      const drawable = drawableSurface(next);
      note.text(surfaceNote(next, drawable.dropped));
      setShown(note, Boolean(note.text()));
      curve = drawable.curve;
      setShown(root, Boolean(curve));
      svg.attr("data-cells", curve ? null : 0);
      if (!curve) {
        legendHost.style("display", "none");
        hide();
        geometry = null;
        return { cells: 0, contours: 0 };
      }
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
