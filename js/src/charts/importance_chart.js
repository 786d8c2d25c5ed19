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

import { scaleLinear } from "d3-scale";
import { select } from "d3-selection";
import "d3-transition";

import "./row_chart.css";
import "./importance_chart.css";
import { createTooltip } from "../ui/tooltip.js";
import { boxStats } from "./box_stats.js";
import {
  LABEL_GAP,
  ROW_HEIGHT,
  TRANSITION_MS,
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
  truncate,
  zeroBasedDomain,
} from "./chart_base.js";
import { columnFormat } from "./format.js";

export { ROW_HEIGHT, TRANSITION_MS, truncate };

const MARGIN = { top: 6, right: 18, bottom: 40 };
const OUTLIER_RADIUS = 2.5;

/** The test ids of a permutation importance chart. */
const PERMUTATION_TESTIDS = Object.freeze({
  chart: "piw-chart",
  bar: "piw-bar",
  box: "piw-box",
  tooltip: "piw-tooltip",
});

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

/** The formatters of one result: one notation per quantity, as in the table. */
function makeFormats(data) {
  return {
    importance: columnFormat(data.mean),
    std: columnFormat(data.std),
    permuted: columnFormat(data.permutedMean),
    baseline: columnFormat([data.baseline]),
  };
}

/** One object per drawn feature, with the numbers the row needs. */
function makeRows(data) {
  const { features, mean, std, permutedMean } = data;
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
      std: Number.isFinite(std?.[i]) ? std[i] : 0,
      permuted: permutedMean ? permutedMean[i] : NaN,
      box: row ? boxStats(row) : null,
    };
  });
}

/** The x domain: 0 and every drawn value, padded a little away from zero. */
export function importanceDomain(rows, kind) {
  const ends = rows.flatMap((r) =>
    kind === "box" && r.box
      ? [r.box.min, r.box.max]
      : [r.mean - r.std, r.mean + r.std, r.mean],
  );
  return zeroBasedDomain(ends, 0.05);
}

/** Append the (initially empty) elements of a new row. */
function buildRow(g) {
  g.attr("tabindex", 0);
  g.append("rect").attr("class", "piw-hit");
  const label = g
    .append("text")
    .attr("class", "piw-label")
    .attr("text-anchor", "end");
  label.append("tspan").attr("class", "piw-label-text");
  label.append("title");

  const bars = g.append("g").attr("class", "piw-bars");
  bars.append("rect").attr("class", "piw-bar");
  bars.append("line").attr("class", "piw-err");
  bars.append("line").attr("class", "piw-err piw-err-cap piw-err-low");
  bars.append("line").attr("class", "piw-err piw-err-cap piw-err-high");

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
 * @property {import("../ui/tooltip.js").Tooltip} [tooltip] a tooltip to use
 *   (and leave in place on destroy) instead of one of the chart's own.
 *
 * @typedef {object} ImportanceChartData
 * @property {string[]} features labels, drawn top to bottom as given.
 * @property {Float32Array} mean mean importance, one per feature.
 * @property {Float32Array} std standard deviation over repeats.
 * @property {Float32Array | null} values per-repeat importances, row-major
 *   `[features.length, repeatsDone]` (needed for "box").
 * @property {number} repeatsDone
 * @property {"bar" | "box"} kind
 * @property {number} baseline score on unpermuted data.
 * @property {Float32Array | null} permutedMean mean score with each feature
 *   permuted.
 * @property {string} [scorer] scorer name, for the axis title and tooltip.
 * @property {string[][]} [details] extra tooltip lines per feature (e.g. a
 *   group's members).
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
  const root = select(container).append("div").attr("class", "piw-chart");
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
    sharedTooltip ?? createTooltip(root.node(), { testid: testids.tooltip });

  let data = null;
  let rows = [];
  let formats = null;
  let lastWidth = 0;
  let hovered = null;
  let hoveredIndex = -1;
  let destroyed = false;
  const transitions = drawTransitions(svg, () => destroyed);

  /** The kind drawn: boxes need per-repeat values. */
  function drawnKind() {
    return data.kind === "box" && rows.some((r) => r.box) ? "box" : "bar";
  }

  function draw(animate) {
    if (data === null) return;
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
    const x0 = x(0);
    const px = (v) => (Number.isFinite(v) ? x(v) : x0);

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
      transform: (d) => `translate(0,${y(d.feature)})`,
      tr,
    });
    joined.attr(
      "aria-label",
      (d) =>
        `${d.feature}: ${formats.importance(d.mean)} ± ${formats.std(d.std)}`,
    );

    drawRowLabels(joined, {
      hit: "rect.piw-hit",
      label: "text.piw-label",
      text: "tspan.piw-label-text",
      labelX: -LABEL_GAP,
      layout,
    });

    // Bars: 0 → mean, with ±std error bars.
    const bars = joined
      .select("g.piw-bars")
      .attr("display", kind === "bar" ? null : "none");
    bars
      .select("rect.piw-bar")
      .attr("data-testid", testids.bar)
      .attr(keyAttribute, (d) => d.feature)
      .classed("piw-negative", (d) => isNegativeRow(d, "bar"));
    tr(bars.select("rect.piw-bar"))
      .attr("x", (d) => Math.min(x0, px(d.mean)))
      .attr("width", (d) => Math.abs(px(d.mean) - x0))
      .attr("y", 0)
      .attr("height", band);
    const hasErr = (d) => Number.isFinite(d.mean) && d.std > 0;
    bars
      .selectAll("line.piw-err")
      .attr("display", (d) => (hasErr(d) ? null : "none"));
    tr(bars.select("line.piw-err:not(.piw-err-cap)"))
      .attr("x1", (d) => px(d.mean - d.std))
      .attr("x2", (d) => px(d.mean + d.std))
      .attr("y1", mid)
      .attr("y2", mid);
    for (const [cls, sign] of [
      ["piw-err-low", -1],
      ["piw-err-high", 1],
    ]) {
      tr(bars.select(`line.${cls}`))
        .attr("x1", (d) => px(d.mean + sign * d.std))
        .attr("x2", (d) => px(d.mean + sign * d.std))
        .attr("y1", band * 0.25)
        .attr("y2", band * 0.75);
    }

    // Box plots of the per-repeat values.
    const boxes = joined
      .select("g.piw-boxplot")
      .attr("display", (d) => (kind === "box" && d.box ? null : "none"))
      .filter((d) => d.box !== null);
    boxes
      .select("rect.piw-box")
      .attr("data-testid", testids.box)
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
    for (const [cls, at] of [
      ["piw-whisker-cap-low", (b) => b.whiskerLow],
      ["piw-whisker-cap-high", (b) => b.whiskerHigh],
    ]) {
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

    // Axis, zero line, title.
    drawRowAxis(
      { zeroLine, axisG, axisTitle },
      {
        x,
        layout,
        margin: MARGIN,
        title: `importance (decrease in ${data.scorer || "score"})`,
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

  function fillTooltip(row, kind) {
    // The table's column formats, so both show the same digits.
    const { importance, std, permuted, baseline } = formats;
    const lines = [
      ["iw-tooltip-title piw-tooltip-title", row.feature],
      ["", `${importance(row.mean)} ± ${std(row.std)} (mean ± std)`],
    ];
    if (kind === "box" && row.box) {
      lines.push([
        "",
        `median ${importance(row.box.median)}, IQR ${importance(row.box.q1)} to ${importance(row.box.q3)}`,
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
    tooltip.fill(lines);
  }

  function hideTooltip() {
    tooltip.hide();
    if (hovered !== null) {
      hovered = null;
      onHover?.(null);
    }
  }

  function showTooltip(rowNode, event) {
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
