// @ts-check
// Horizontal permutation-importance chart: bars (mean ± std) or box plots of
// the per-repeat importances, one row per feature, drawn with d3.
//
// Rows are joined by feature name, so a live update (more repeats done, a new
// order) moves and resizes the existing elements with a short transition
// instead of redrawing; features that enter or leave fade in or out. Rows on
// their way out lose their `data-testid`s at once, so tests and screen readers
// only see the rows of the latest data.
//
// The svg's `data-settled` attribute is "false" while a transition runs and
// "true" once the last one ended (at once when nothing animates), so browser
// tests can wait for a still picture.
//
// This module lays the chart out and handles hover and resizing; the rows'
// numbers and tooltip lines come from importance_rows.js, the marks are drawn
// by importance_bars.js and importance_boxes.js.

import { scaleLinear } from "d3-scale";
import { select } from "d3-selection";
import "d3-transition";

import "./row_chart.css";
import "./importance_chart.css";
import { createTooltip } from "../ui/tooltip.js";
import {
  LABEL_GAP,
  ROW_HEIGHT,
  defaultDuration,
  drawRowAxis,
  drawRowLabels,
  drawTransitions,
  hoverRows,
  joinRows,
  measureWidth,
  observeResize,
  rowLayout,
  sizeRowChart,
} from "./chart_base.js";
import { visibleName } from "./format.js";
import { appendBars, drawBars } from "./importance_bars.js";
import { appendBoxPlot, drawBoxes } from "./importance_boxes.js";
import {
  importanceDomain,
  isNegativeRow,
  makeFormats,
  makeRows,
  tooltipLines,
} from "./importance_rows.js";

const MARGIN = { top: 6, right: 18, bottom: 40 };

/** The test ids of a permutation importance chart. */
const PERMUTATION_TESTIDS = Object.freeze({
  chart: "piw-chart",
  bar: "piw-bar",
  box: "piw-box",
  tooltip: "piw-tooltip",
});

/** @typedef {import("./importance_rows.js").ImportanceRow} ImportanceRow */

/**
 * Append the (initially empty) elements of a new row.
 *
 * @param {import("./chart_base.js").AnySelection} g
 */
function buildRow(g) {
  g.attr("tabindex", 0);
  g.append("rect").attr("class", "piw-hit");
  const label = g
    .append("text")
    .attr("class", "piw-label")
    .attr("text-anchor", "end");
  label.append("tspan").attr("class", "piw-label-text");
  label.append("title");
  appendBars(g);
  appendBoxPlot(g);
}

/**
 * Create the chart inside `container`.
 *
 * @param {HTMLElement} container
 * @param {ImportanceChartOptions} [options]
 * @returns {{update: (data: ImportanceChartData) => ImportanceChartDrawn,
 *   destroy: () => void}}
 *
 * @typedef {object} ImportanceChartOptions
 * @property {(key: string | null) => void} [onHover] called with the hovered
 *   row's label, then `null`.
 * @property {number} [duration] of the transitions in ms (0 draws
 *   synchronously; default `TRANSITION_MS`, or 0 when the user prefers
 *   reduced motion).
 * @property {{chart?: string, bar?: string, box?: string, tooltip?: string}}
 *   [testids] of the svg, bars, boxes and tooltip (default "piw-chart",
 *   "piw-bar", "piw-box", "piw-tooltip").
 * @property {string} [keyAttribute="data-feature"] attribute carrying each
 *   row's label on the row, its bar and its box.
 * @property {string} [label="Permutation importance"] the svg's aria-label.
 * @property {import("../ui/tooltip.js").Tooltip | null} [tooltip] a tooltip to use
 *   (and leave in place on destroy) instead of one of the chart's own.
 *
 * @typedef {object} ImportanceChartData
 * @property {string[]} features labels, drawn top to bottom as given.
 * @property {import("../codecs.js").TypedArray} mean mean importance, one per feature.
 * @property {import("../codecs.js").TypedArray} std standard deviation over repeats.
 * @property {import("../codecs.js").TypedArray | null} values per-repeat importances, row-major
 *   `[features.length, repeatsDone]` (needed for "box").
 * @property {number} repeatsDone
 * @property {"bar" | "box"} kind
 * @property {number} baseline score on unpermuted data.
 * @property {import("../codecs.js").TypedArray | null} permutedMean mean score with each feature
 *   permuted.
 * @property {string} [scorer] scorer name, for the axis title and tooltip.
 * @property {string[][]} [details] extra tooltip lines per feature (e.g. a
 *   group's members).
 * @property {number} [spread=1] how many `std` the error bars span either
 *   side of the mean (1.96 for a cross-validated result's 95% interval).
 * @property {string} [spreadLabel="std"] what the error bars are, for the
 *   tooltip.
 * @property {import("../codecs.js").TypedArray | null} [intervalLow] the
 *   held-out interval's lower ends, one per feature (a result computed with
 *   `n_bootstrap`), shown in the tooltip.
 * @property {import("../codecs.js").TypedArray | null} [intervalHigh] its
 *   upper ends.
 * @property {string} [intervalLabel] what that interval covers.
 *
 * @typedef {object} MarksOptions how `drawBars` and `drawBoxes` draw.
 * @property {boolean} visible whether the marks are shown.
 * @property {import("d3-scale").ScaleLinear<number, number>} x
 * @property {number} band the height of a row's marks.
 * @property {number} mid the middle of a row's marks.
 * @property {import("./chart_base.js").Tr} tr the draw's transition.
 * @property {string} testid of each bar or box.
 * @property {string} keyAttribute carrying the row's label.
 *
 * @typedef {object} ImportanceChartDrawn what `update` drew.
 * @property {"bar" | "box"} kind "bar" also when "box" was asked for
 *   without per-repeat values.
 * @property {number} negative how many rows are drawn in the negative colour
 *   (see `isNegativeRow`).
 */
export function createImportanceChart(
  container,
  {
    onHover,
    duration = defaultDuration(),
    testids: testidOptions = {},
    keyAttribute = "data-feature",
    label: ariaLabel = "Permutation importance",
    tooltip: sharedTooltip = null,
  } = {},
) {
  const testids = { ...PERMUTATION_TESTIDS, ...testidOptions };
  const rootNode = document.createElement("div");
  container.append(rootNode);
  const root = select(rootNode).attr("class", "piw-chart");
  const svg = root
    .append("svg")
    .attr("class", "iw-chart-svg piw-chart-svg")
    .attr("data-testid", testids.chart)
    .attr("role", "img")
    .attr("aria-label", ariaLabel)
    .attr("data-settled", "true");
  const plot = svg.append("g").attr("class", "piw-plot");
  const rowsG = plot.append("g").attr("class", "piw-rows");
  const zeroLine = plot.append("line").attr("class", "piw-zero");
  const axisG = plot.append("g").attr("class", "iw-axis piw-axis");
  const axisTitle = plot
    .append("text")
    .attr("class", "iw-axis-title piw-axis-title")
    .attr("text-anchor", "middle");
  const tooltip =
    sharedTooltip ?? createTooltip(rootNode, { testid: testids.tooltip });

  /** @type {ImportanceChartData | null} */
  let data = null;
  /** @type {ImportanceRow[]} */
  let rows = [];
  /** @type {ReturnType<typeof makeFormats> | null} */
  let formats = null;
  let lastWidth = 0;
  /** @type {string | null} */
  let hovered = null;
  let hoveredIndex = -1;
  let destroyed = false;
  const transitions = drawTransitions(svg, () => destroyed);

  /** The kind drawn: boxes need per-repeat values. */
  /** @returns {"bar" | "box"} */
  function drawnKind() {
    return data?.kind === "box" && rows.some((r) => r.box) ? "box" : "bar";
  }

  /**
   * @param {boolean} animate
   * @returns {ImportanceChartDrawn}
   */
  function draw(animate) {
    if (data === null || formats === null) return { kind: "bar", negative: 0 };
    const shown = formats;
    const kind = drawnKind();
    const width = measureWidth(container);
    lastWidth = width;

    const layout = rowLayout(rows, width, {
      margin: MARGIN,
      rowHeight: ROW_HEIGHT,
    });
    const { innerWidth, y, band, mid } = layout;

    const x = scaleLinear()
      .domain(importanceDomain(rows, kind))
      .range([0, innerWidth]);

    const { tr } = transitions(animate, duration, "g.piw-row.piw-exiting");

    sizeRowChart(svg, plot, tr, {
      width,
      layout,
      margin: MARGIN,
      empty: rows.length === 0,
    });

    const joined = joinRows(rowsG, rows, {
      rowClass: "piw-row",
      exitingClass: "piw-exiting",
      keyAttribute,
      build: buildRow,
      transform: (/** @type {ImportanceRow} */ d) =>
        `translate(0,${y(d.feature)})`,
      tr,
    });
    joined.attr(
      "aria-label",
      (/** @type {ImportanceRow} */ d) =>
        `${d.feature}: ${shown.importance(d.mean)} ± ${shown.std(d.std)}`,
    );

    drawRowLabels(joined, {
      hit: "rect.piw-hit",
      label: "text.piw-label",
      text: "tspan.piw-label-text",
      labelX: -LABEL_GAP,
      layout,
    });

    // Bars (0 → mean, ±std) and box plots of the per-repeat values.
    const marks = { x, band, mid, tr, keyAttribute };
    drawBars(joined, {
      ...marks,
      visible: kind === "bar",
      testid: testids.bar,
    });
    drawBoxes(joined, {
      ...marks,
      visible: kind === "box",
      testid: testids.box,
    });

    // Axis, zero line, title.
    drawRowAxis(
      { zeroLine, axisG, axisTitle },
      {
        x,
        layout,
        margin: MARGIN,
        title: `importance (decrease in ${data.scorer ? visibleName(data.scorer) : "score"})`,
        tr,
      },
    );

    if (hovered !== null) {
      // Keep the tooltip while its row stays in place (live updates of the
      // numbers); hide it when the row moved away from under the pointer.
      const row = rows.find((r) => r.feature === hovered);
      if (row && row.index === hoveredIndex) fillTooltip(row, kind);
      else hideTooltip();
    }
    return {
      kind,
      negative: rows.filter((r) => isNegativeRow(r, kind)).length,
    };
  }

  /**
   * @param {ImportanceRow} row
   * @param {"bar" | "box"} kind
   */
  function fillTooltip(row, kind) {
    if (data === null || formats === null) return;
    tooltip.fill(tooltipLines(row, kind, data, formats));
  }

  function hideTooltip() {
    tooltip.hide();
    if (hovered !== null) {
      hovered = null;
      onHover?.(null);
    }
  }

  /**
   * @param {Element} rowNode
   * @param {PointerEvent | null} event
   */
  function showTooltip(rowNode, event) {
    /** @type {ImportanceRow} */
    const row = select(rowNode).datum();
    fillTooltip(row, drawnKind());
    tooltip.show(
      event
        ? { clientX: event.clientX, clientY: event.clientY }
        : { anchor: rowNode },
    );
    hoveredIndex = row.index;
    if (hovered !== row.feature) {
      hovered = row.feature;
      onHover?.(row.feature);
    }
  }

  const stopHover = hoverRows(svg, {
    rowSelector: "g.piw-row",
    exitingClass: "piw-exiting",
    show: showTooltip,
    hide: hideTooltip,
  });
  const stopObserving = observeResize(container, () => {
    if (!destroyed && data !== null && measureWidth(container) !== lastWidth)
      draw(false);
  });

  return {
    /**
     * Draw `data`, moving the rows of features already drawn.
     *
     * @param {ImportanceChartData} next
     * @returns {ImportanceChartDrawn}
     */
    update(next) {
      if (destroyed) return { kind: "bar", negative: 0 };
      const first = data === null;
      data = next;
      rows = makeRows(next);
      formats = makeFormats(next);
      return draw(!first);
    },
    /** Stop transitions, remove listeners, the observer and every element. */
    destroy() {
      if (destroyed) return;
      destroyed = true;
      stopObserving();
      stopHover();
      if (sharedTooltip && hovered !== null) sharedTooltip.hide();
      svg.selectAll("*").interrupt();
      svg.interrupt();
      root.remove();
      data = null;
      rows = [];
      formats = null;
    },
  };
}
