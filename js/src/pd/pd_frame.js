// @ts-check
// What the two 1-way partial dependence charts share: the element tree (an
// ICE canvas under an svg with the plot, a distribution strip beneath it on
// the same x scale, axes and titles, a transparent overlay for the pointer),
// its layout, the pointer tracking that keeps a tooltip live while a run
// streams, the tooltip lines of a curve's values and the `{update, destroy}`
// of a chart.

import { axisLeft } from "d3-axis";
import { scaleLinear } from "d3-scale";
import { select } from "d3-selection";

import {
  CHAR_WIDTH,
  measureWidth,
  observeTheme,
  themeAxis,
  wrapLabel,
} from "../charts/chart_base.js";
import { formatNumber, showName } from "../charts/format.js";
import { uniqueId } from "../ui/ids.js";
import { LEGEND_ROW, legendEntries } from "./pd_ale.js";
import { prepareCanvas } from "./pd_canvas.js";
import { columnRange, finiteExtent } from "./pd_data.js";
import { summaryValues } from "./pd_summaries.js";

export const MARGIN = { top: 8, right: 16, bottom: 38, left: 64 };
export const PLOT_HEIGHT = 240;
// The gap between the plot and the distribution strip holds the decile rug:
// drawn on the strip, its ticks lay over the bars (#52 item 5).
export const DIST_GAP = 10;
export const DIST_HEIGHT = 44;
const MAX_WIDTH = 760;
// The y title: lines along the plot's height, each further line 15 px to
// the right (the left margin grows by as much).
const Y_TITLE_X = 14;
const Y_TITLE_LINE = 15;
const Y_TITLE_MAX_LINES = 3;

/** @type {Record<string, string>} */
const EFFECT_NAMES = {
  pd: "Partial dependence on",
  ale: "Accumulated local effects of",
  overlay: "Partial dependence and accumulated local effects of",
};

/**
 * @typedef {import("./pd_data.js").Curve1d} Curve1d
 * @typedef {ReturnType<typeof createOneWayFrame>} OneWayFrame
 */

/**
 * Pad a [lo, hi] extent by 5% (a flat one by half its size, or ±1 at 0).
 *
 * @param {[number, number] | null} extent
 * @returns {[number, number]}
 */
export function paddedDomain(extent) {
  if (!extent) return [0, 1];
  const [lo, hi] = extent;
  if (hi === lo) {
    const half = lo === 0 ? 1 : Math.abs(lo) * 0.5;
    return [lo - half, hi + half];
  }
  const pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}

/**
 * Build the element tree inside `container`.
 *
 * @param {HTMLElement} container
 * @param {{svgTestid: string}} options
 */
export function createOneWayFrame(container, { svgTestid }) {
  const clipId = uniqueId("pdw-clip"); // unique in the page (ui/ids.js)
  const root = select(container).append("div").attr("class", "pdw-chart");
  const canvas = root
    .append("canvas")
    .attr("class", "pdw-ice-canvas")
    .attr("data-testid", "pdw-ice-canvas")
    .attr("aria-hidden", "true");
  const svg = root
    .append("svg")
    .attr("class", "iw-chart-svg pdw-svg")
    .attr("data-testid", svgTestid)
    .attr("data-settled", "true")
    .attr("role", "img");
  const clipRect = svg
    .append("defs")
    .append("clipPath")
    .attr("id", clipId)
    .append("rect");
  const frame = {
    root,
    canvas,
    svg,
    rare: svg.append("g").attr("class", "pdw-rare"),
    dist: svg
      .append("g")
      .attr("class", "pdw-dist")
      .attr("clip-path", `url(#${clipId})`)
      .append("g"),
    deciles: svg.append("g").attr("class", "pdw-deciles"),
    plot: svg.append("g").attr("class", "pdw-plot"),
    xAxis: svg.append("g").attr("class", "iw-axis pdw-x-axis"),
    yAxis: svg.append("g").attr("class", "iw-axis pdw-y-axis"),
    xTitle: svg
      .append("text")
      .attr("class", "iw-axis-title")
      .attr("text-anchor", "middle"),
    yTitle: svg
      .append("text")
      .attr("class", "iw-axis-title pdw-y-title")
      .attr("text-anchor", "middle"),
    overlay: svg
      .append("rect")
      .attr("class", "pdw-overlay")
      .attr("fill", "transparent"),
  };

  /**
   * Size everything for `curve` and return the layout and y scale (over the
   * finite PDP and ICE values).
   *
   * @param {Curve1d} curve
   */
  const layout = (curve) => {
    const yLines = wrapLabel(
      curve.yLabel,
      PLOT_HEIGHT / CHAR_WIDTH,
      Y_TITLE_MAX_LINES,
    );
    const left = MARGIN.left + Math.max(0, yLines.length - 1) * Y_TITLE_LINE;
    const width = Math.min(MAX_WIDTH, measureWidth(container));
    const plotW = Math.max(120, width - left - MARGIN.right);
    // A legend takes rows of its own above the plot (pd_ale.js).
    const top = MARGIN.top + legendEntries(curve).length * LEGEND_ROW;
    const distTop = top + PLOT_HEIGHT + DIST_GAP;
    const height = distTop + DIST_HEIGHT + MARGIN.bottom;
    const y = scaleLinear()
      .domain(
        paddedDomain(
          finiteExtent([
            curve.average,
            curve.individual?.values,
            curve.steps?.values,
            curve.ale?.lower,
            curve.ale?.upper,
            curve.ale?.values,
            curve.missing?.individual,
            curve.missing?.average == null ? null : [curve.missing.average],
            ...summaryValues(curve.summaries),
          ]),
        ),
      )
      .range([top + PLOT_HEIGHT, top]);
    svg
      .attr("width", width)
      .attr("height", height)
      .attr(
        "aria-label",
        `${EFFECT_NAMES[curve.effect] ?? EFFECT_NAMES.pd} ${curve.feature}`,
      );
    clipRect
      .attr("x", left)
      .attr("y", distTop)
      .attr("width", plotW)
      .attr("height", DIST_HEIGHT);
    frame.dist.attr("transform", `translate(0,${distTop})`);
    frame.xAxis.attr("transform", `translate(0,${distTop + DIST_HEIGHT})`);
    frame.yAxis
      .attr("transform", `translate(${left},0)`)
      .call(
        axisLeft(y)
          .ticks(6)
          .tickFormat((v) => formatNumber(Number(v))),
      );
    themeAxis(frame.yAxis);
    frame.xTitle
      .attr("x", left + plotW / 2)
      .attr("y", height - 4)
      .call((/** @type {import("../charts/chart_base.js").AnySelection} */ t) => showName(t.node(), curve.feature));
    frame.yTitle
      .attr(
        "transform",
        `translate(${Y_TITLE_X},${top + PLOT_HEIGHT / 2}) rotate(-90)`,
      )
      .call((/** @type {import("../charts/chart_base.js").AnySelection} */ t) => {
        // Wrapped to the plot's height, one tspan per line; the whole label
        // also in its title (shown on hover).
        t.selectAll("*").remove();
        for (const [k, text] of yLines.entries())
          t.append("tspan")
            .attr("x", 0)
            .attr("dy", k === 0 ? 0 : Y_TITLE_LINE)
            .text(text);
        t.append("title").text(curve.yLabel);
      });
    frame.overlay
      .attr("x", left)
      .attr("y", top)
      .attr("width", plotW)
      .attr("height", PLOT_HEIGHT);
    return {
      plotW,
      distTop,
      distHeight: DIST_HEIGHT,
      height,
      y,
      left,
      right: left + plotW,
      top,
      bottom: top + PLOT_HEIGHT,
      legendTop: MARGIN.top,
    };
  };

  /**
   * Track the pointer over the overlay: `show(at)` on move (and again after
   * each redraw via `refresh`), `hide()` on leave.
   *
   * @param {{show: (at: {clientX: number, clientY: number}) => void,
   *   hide: () => void}} handlers
   */
  const track = ({ show, hide }) => {
    /** @type {{clientX: number, clientY: number} | null} */
    let pointer = null;
    frame.overlay
      .on("pointermove", (/** @type {PointerEvent} */ event) => {
        pointer = { clientX: event.clientX, clientY: event.clientY };
        show(pointer);
      })
      .on("pointerleave", () => {
        pointer = null;
        hide();
      });
    return {
      refresh() {
        if (pointer) show(pointer);
        else hide();
      },
      stop() {
        frame.overlay.on("pointermove", null).on("pointerleave", null);
        pointer = null;
      },
    };
  };

  /**
   * Pointer x relative to the svg (css px).
   *
   * @param {{clientX: number}} at
   */
  const localX = (at) =>
    at.clientX - (svg.node()?.getBoundingClientRect().left ?? 0);

  return Object.assign(frame, { layout, track, localX });
}

/**
 * The ICE canvas of `frame`, sized to the plot area of `box` (or null).
 *
 * @param {OneWayFrame} frame
 * @param {ReturnType<OneWayFrame["layout"]>} box
 */
export function prepareIceCanvas(frame, box) {
  const canvas = frame.canvas.node();
  if (!canvas) return null;
  return prepareCanvas(canvas, {
    left: box.left,
    top: box.top,
    width: box.plotW,
    height: box.bottom - box.top,
  });
}

/**
 * Tooltip lines for grid point `j` of `curve`: its partial dependence (when
 * computed) and the spread of the drawn ICE curves there.
 *
 * @param {Curve1d} curve
 * @param {number} j
 * @returns {[string, string][]}
 */
export function curveValueLines(curve, j) {
  /** @type {[string, string][]} */
  const lines = [];
  const avg = curve.average?.[j];
  const pdName =
    curve.effect === "pd" ? curve.yLabel || "partial dependence" : "PD";
  if (avg !== undefined && Number.isFinite(avg)) lines.push(["", `${pdName}: ${formatNumber(avg)}`]);
  const ale = curve.ale;
  if (ale && Number.isFinite(ale.values[j])) {
    const band = Number.isFinite(ale.lower[j])
      ? ` (band ${formatNumber(ale.lower[j])} – ${formatNumber(ale.upper[j])})`
      : "";
    lines.push(["", `ALE: ${formatNumber(ale.values[j])}${band}`]);
    // Numeric: the rows of the bin ending at this edge.
    const dist = curve.distribution;
    if (dist?.kind === "histogram" && j > 0 && j <= dist.counts.length)
      lines.push([
        "",
        `rows in the bin ending here: ${formatNumber(dist.counts[j - 1])}`,
      ]);
  }
  const ice = curve.individual;
  const range = ice ? columnRange(ice.values, ice.rows, ice.cols, j) : null;
  if (ice && range)
    lines.push([
      "",
      `ICE spread: ${formatNumber(range[0])} – ${formatNumber(range[1])} (${ice.rows} curves)`,
    ]);
  return lines;
}

/**
 * The `{update, destroy}` of a 1-way chart: `setCurve(next)` then `draw()`
 * on update; on destroy stop `pointer`, `hide()`, remove the frame and
 * `setCurve(null)`.
 *
 * @param {{frame: OneWayFrame, pointer: {stop: () => void},
 *   hide: () => void, setCurve: (curve: Curve1d | null) => void,
 *   draw: () => {iceDrawn: number, bars: number}}} parts
 * @returns {{update: (curve: Curve1d) => {iceDrawn: number, bars: number},
 *   destroy: () => void}}
 */
export function oneWayHandle({ frame, pointer, hide, setCurve, draw }) {
  let destroyed = false;
  let drawn = false;
  // The ICE canvas keeps the theme's colour it was painted with.
  const stopTheme = observeTheme(() => {
    if (!destroyed && drawn) draw();
  });
  return {
    update(next) {
      if (destroyed) return { iceDrawn: 0, bars: 0 };
      setCurve(next);
      drawn = next !== null;
      return draw();
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      stopTheme();
      pointer.stop();
      hide();
      frame.root.remove();
      setCurve(null);
    },
  };
}
