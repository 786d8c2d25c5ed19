// @ts-check
// Dot plot of several importance measures on one normalized scale: one row
// per feature, one coloured dot per measure (whiskers over its interval, or
// ± std for a measure without one, where the measure has a spread)
// has a spread), a thin line from a feature's lowest to its highest dot so
// disagreement between measures stands out, and a warning marker on features
// with a note. A dot whose measure says it is within noise (its interval
// includes 0) is drawn hollow with a dashed whisker: on a normalized scale
// noise would otherwise look as long as the top feature.
//
// Rows are joined by feature name and dots by measure key, so live updates
// (permutation repeats filling in) move the existing dots with a short
// transition. The svg's `data-settled` works as in the importance chart.

import { scaleLinear } from "d3-scale";
import { select } from "d3-selection";
import "d3-transition";

import "./row_chart.css";
import "./dot_plot.css";

import {
  LABEL_GAP,
  defaultDuration,
  drawRowAxis,
  drawRowLabels,
  drawTransitions,
  hoverRows,
  joinRows,
  measureWidth,
  observeResize,
  rowLayout,
  setShown,
  sizeRowChart,
  zeroBasedDomain,
} from "./chart_base.js";
import { columnFormat, showName } from "./format.js";

export const DOT_RADIUS = 4.5;
/** Height of one feature row, in px: room to offset the measures' dots. */
export const ROW_HEIGHT = 28;
const MARGIN = { top: 6, right: 18, bottom: 40 };
/** Room for the warning marker between the labels and the plot, px. */
const FLAG_WIDTH = 18;

// Okabe-Ito colours (distinguishable with colour-vision deficiencies); the
// two permutation measures share a hue family.
/** @type {Record<string, string>} */
const KNOWN_COLORS = {
  mdi: "#E69F00",
  relative_importance: "#CC79A7",
  permutation_train: "#56B4E9",
  permutation_test: "#0072B2",
  permutation_conditional: "#009E73",
};
// The rest of the Okabe-Ito palette, for other keys (several models, say).
// Yellow (#F0E442) is left out: it is unreadable on the light theme.
const PALETTE = [
  "#0072B2",
  "#D55E00",
  "#009E73",
  "#CC79A7",
  "#E69F00",
  "#56B4E9",
  "#999999",
];

/**
 * A colour per measure key: fixed for the known measures (so a measure keeps
 * its colour when another is absent), then the others in order from the
 * palette's colours no known measure here has taken (cycling past 7 keys).
 * A measure given its own `color` (a subgroup's, say) keeps it.
 *
 * @param {string[]} keys
 * @param {(string | undefined)[]} [own] each key's own colour, if any.
 * @returns {Map<string, string>}
 */
export function measureColors(keys, own = []) {
  const colors = new Map();
  const taken = new Set();
  for (const [i, key] of keys.entries())
    if (!own[i] && Object.hasOwn(KNOWN_COLORS, key)) {
      colors.set(key, KNOWN_COLORS[key]);
      taken.add(KNOWN_COLORS[key]);
    }
  const free = PALETTE.filter((color) => !taken.has(color));
  const others = free.length > 0 ? free : PALETTE;
  let other = 0;
  for (const [i, key] of keys.entries()) {
    if (own[i]) colors.set(key, own[i]);
    else if (!colors.has(key)) {
      colors.set(key, others[other % others.length]);
      other += 1;
    }
  }
  return colors;
}

/**
 * The x domain: 0 and every dot and whisker end, padded a little.
 *
 * @param {{dots: {x: number, whiskerLow: number, whiskerHigh: number}[]}[]}
 *   rows
 */
export function dotDomain(rows) {
  const ends = rows.flatMap((row) =>
    row.dots.flatMap((dot) => {
      const [low, high] = [dot.whiskerLow, dot.whiskerHigh];
      return Number.isFinite(low) && Number.isFinite(high)
        ? [dot.x, low, high]
        : [dot.x, dot.x];
    }),
  );
  return zeroBasedDomain(ends, 0.04);
}

/**
 * One object per feature, with its dots and flags.
 *
 * @param {DotPlotData} data
 */
function makeRows(data) {
  const colors = measureColors(
    data.measures.map((m) => m.key),
    data.measures.map((m) => m.color),
  );
  return data.features.map((feature, i) => {
    const dots = data.measures.map((m, k) => ({
      key: m.key,
      label: m.label,
      color: colors.get(m.key) ?? "",
      k,
      x: m.normalized[i],
      std: m.normalizedStd ? m.normalizedStd[i] : NaN,
      // The interval where the measure has one (NaN while too few repeats
      // are done: no whisker), else ± std.
      whiskerLow: m.normalizedLow
        ? m.normalizedLow[i]
        : m.normalized[i] - (m.normalizedStd ? m.normalizedStd[i] : NaN),
      whiskerHigh: m.normalizedHigh
        ? m.normalizedHigh[i]
        : m.normalized[i] + (m.normalizedStd ? m.normalizedStd[i] : NaN),
      raw: m.values[i],
      rawStd: m.std ? m.std[i] : NaN,
      units: m.units ?? "",
      low: m.low ? m.low[i] : NaN,
      high: m.high ? m.high[i] : NaN,
      withinNoise: m.withinNoise ? m.withinNoise[i] > 0 : false,
    }));
    const drawn = dots.filter((d) => Number.isFinite(d.x)).map((d) => d.x);
    return {
      key: String(feature),
      feature: String(feature),
      index: i,
      dots,
      low: drawn.length > 0 ? Math.min(...drawn) : NaN,
      high: drawn.length > 0 ? Math.max(...drawn) : NaN,
      flags: data.flags?.[i] ?? [],
    };
  });
}

/** @typedef {ReturnType<typeof makeRows>[number]} DotRow */
/** @typedef {DotRow["dots"][number]} Dot */

/** @param {import("./chart_base.js").AnySelection} g */
function buildRow(g) {
  g.attr("tabindex", 0).attr("data-testid", "icw-row");
  g.append("rect").attr("class", "icw-hit");
  const label = g
    .append("text")
    .attr("class", "icw-label")
    .attr("text-anchor", "end");
  label.append("tspan");
  label.append("title");
  const flag = g.append("g").attr("class", "icw-flag");
  flag.append("path").attr("d", "M0,-6L6,5H-6Z");
  flag.append("text").attr("text-anchor", "middle").attr("y", 4).text("!");
  flag.append("title");
  g.append("line").attr("class", "icw-range");
  g.append("g").attr("class", "icw-dots");
}

/**
 * Create the dot plot inside `container`.
 *
 * @param {HTMLElement} container
 * @param {{tooltip: import("../ui/tooltip.js").Tooltip, duration?: number}}
 *   options the tooltip to fill on hover; `duration` as in the importance
 *   chart.
 * @returns {{update: (data: DotPlotData) => void, destroy: () => void}}
 *
 * @typedef {object} DotPlotData
 * @property {string[]} features top to bottom.
 * @property {DotMeasure[]} measures the dots use `normalized`
 *   (± `normalizedStd`), the tooltip the raw `values` (± `std`).
 * @property {string[][]} flags per feature, the flags of its note.
 * @property {string[][][]} [evidence] per feature and flag, lines shown
 *   under the flag in the tooltip (the intervals it rests on).
 * @property {string} axisTitle
 * @property {string} [noiseNote] what a hollow dot means (legend tooltip).
 *
 * A measure may also carry `units` (of the raw values), `low` and `high`
 * (its raw interval), `normalizedLow` and `normalizedHigh` (the interval on
 * the normalized scale, drawn as the whisker instead of ± std) and
 * `withinNoise` (1 where the dot is within noise), and its own `color`
 * (else one of the known measures' or the others' colours) and `muted`
 * (its legend entry greyed: a small subgroup's). `label` is drawn as given
 * (cut by its maker: `visibleName`, `isolate`); `name`, the whole model or
 * subgroup name it holds, is shown on hover.
 *
 * @typedef {import("../codecs.js").TypedArray | number[]} Numbers
 * @typedef {{key: string, label: string, values: Numbers,
 *   std: Numbers | null, normalized: Numbers,
 *   normalizedStd: Numbers | null, units?: string,
 *   low?: Numbers | null, high?: Numbers | null,
 *   normalizedLow?: Numbers | null, normalizedHigh?: Numbers | null,
 *   withinNoise?: Numbers | null, color?: string,
 *   muted?: boolean, name?: string}} DotMeasure
 */
export function createDotPlot(
  container,
  { tooltip, duration = defaultDuration() },
) {
  const root = select(container).append("div").attr("class", "icw-dot-plot");
  const legend = root
    .append("div")
    .attr("class", "icw-legend")
    .attr("data-testid", "icw-legend");
  const svg = root
    .append("svg")
    .attr("class", "iw-chart-svg icw-dot-svg")
    .attr("data-testid", "icw-measures")
    .attr("role", "img")
    .attr("aria-label", "Importance measures per feature")
    .attr("data-settled", "true");
  const plot = svg.append("g").attr("class", "icw-plot");
  const zeroLine = plot.append("line").attr("class", "icw-zero");
  const rowsG = plot.append("g").attr("class", "icw-rows");
  const axisG = plot.append("g").attr("class", "iw-axis");
  const axisTitle = plot
    .append("text")
    .attr("class", "iw-axis-title")
    .attr("text-anchor", "middle");

  /** @type {DotPlotData | null} */
  let data = null;
  /** @type {DotRow[]} */
  let rows = [];
  /** @type {{value: (v: number) => string, std: (v: number) => string}[]} */
  let formats = [];
  let lastWidth = 0;
  /** @type {string | null} */
  let hovered = null;
  let destroyed = false;
  const transitions = drawTransitions(svg, () => destroyed);

  const noiseKey = legend
    .append("span")
    .attr("class", "icw-noise-key")
    .attr("data-testid", "icw-noise-key");
  noiseKey.append("span").attr("class", "icw-swatch icw-swatch-hollow");
  noiseKey.append("span").text("within noise");

  function drawLegend() {
    if (data === null) return;
    const colors = measureColors(
      data.measures.map((m) => m.key),
      data.measures.map((m) => m.color),
    );
    const anyNoise = rows.some((row) => row.dots.some((dot) => dot.withinNoise));
    setShown(noiseKey, anyNoise);
    noiseKey.attr("title", data.noiseNote || null);
    const items = legend
      .selectAll("span.icw-legend-item")
      .data(data.measures, (/** @type {DotMeasure} */ m) => m.key)
      .join((/** @type {import("./chart_base.js").AnySelection} */ enter) => {
        const item = enter.append("span").attr("class", "icw-legend-item");
        item.append("span").attr("class", "icw-swatch");
        item.append("span").attr("class", "icw-legend-label");
        return item;
      })
      .attr("data-measure", (m) => m.key)
      .classed("icw-legend-muted", (m) => Boolean(m.muted));
    items
      .select(".icw-swatch")
      .style(
        "background",
        (/** @type {DotMeasure} */ m) => colors.get(m.key) ?? null,
      );
    items.select(".icw-legend-label").each(function (m) {
      showName(/** @type {Element} */ (this), m.name ?? m.label, m.label);
    });
    items.order();
    const key = noiseKey.node();
    if (key) legend.node()?.append(key); // after the measures
  }

  /** @param {boolean} animate */
  function draw(animate) {
    if (data === null) return;
    const width = measureWidth(container);
    lastWidth = width;
    const layout = rowLayout(rows, width, {
      margin: MARGIN,
      rowHeight: ROW_HEIGHT,
      extra: FLAG_WIDTH,
    });
    const { innerWidth, y, band, mid } = layout;
    const x = scaleLinear().domain(dotDomain(rows)).range([0, innerWidth]);
    const m = data.measures.length;
    // Each measure a little lower than the one before, so equal values
    // stay visible side by side.
    const spread = Math.min(4.5, band / Math.max(1, m));
    /** @param {Dot} dot */
    const dy = (dot) => mid + (dot.k - (m - 1) / 2) * spread;

    const { tr } = transitions(animate, duration, "g.icw-row.icw-exiting");
    sizeRowChart(svg, plot, tr, {
      width,
      layout,
      margin: MARGIN,
      empty: rows.length === 0,
    });

    const joined = joinRows(rowsG, rows, {
      rowClass: "icw-row",
      exitingClass: "icw-exiting",
      keyAttribute: "data-feature",
      build: buildRow,
      transform: (/** @type {DotRow} */ d) => `translate(0,${y(d.feature)})`,
      tr,
    });
    joined
      .attr("data-testid", "icw-row")
      .classed("icw-flagged", (d) => d.flags.length > 0)
      .attr("aria-label", (/** @type {DotRow} */ d) =>
        [
          d.feature,
          ...d.dots.map(
            (dot) => `${dot.label} ${formats[dot.k].value(dot.raw)}`,
          ),
        ].join(", "),
      );
    drawRowLabels(joined, {
      hit: "rect.icw-hit",
      label: "text.icw-label",
      text: "tspan",
      labelX: -LABEL_GAP - FLAG_WIDTH,
      layout,
    });
    const flag = joined
      .select("g.icw-flag")
      .attr("display", (d) => (d.flags.length > 0 ? null : "none"))
      .attr("data-testid", (d) => (d.flags.length > 0 ? "icw-flag" : null))
      .attr("transform", `translate(${-FLAG_WIDTH / 2 - 4},${mid})`);
    flag.select("title").text((d) => d.flags.join("\n"));

    tr(joined.select("line.icw-range"))
      .attr("x1", (d) => (Number.isFinite(d.low) ? x(d.low) : x(0)))
      .attr("x2", (d) => (Number.isFinite(d.high) ? x(d.high) : x(0)))
      .attr("y1", mid)
      .attr("y2", mid);

    const dots = joined
      .select("g.icw-dots")
      .selectAll("g.icw-measure")
      .data(
        (/** @type {DotRow} */ d) => d.dots,
        (/** @type {Dot} */ dot) => dot.key,
      )
      .join((enter) => {
        const g = enter.append("g").attr("class", "icw-measure");
        g.append("line").attr("class", "icw-whisker");
        g.append("circle")
          .attr("class", "icw-dot")
          .attr("r", DOT_RADIUS)
          .attr("cx", (dot) => (Number.isFinite(dot.x) ? x(dot.x) : x(0)))
          .attr("cy", dy);
        return g;
      })
      .attr("data-measure", (dot) => dot.key)
      .attr("display", (dot) => (Number.isFinite(dot.x) ? null : "none"));
    dots.order();
    dots
      .select("circle.icw-dot")
      .attr("data-testid", (dot) => (Number.isFinite(dot.x) ? "icw-dot" : null))
      .attr("data-measure", (dot) => dot.key)
      .attr("data-within-noise", (dot) => (dot.withinNoise ? "true" : null))
      .attr("fill", (dot) => dot.color)
      .classed("icw-within-noise", (dot) => dot.withinNoise)
      .style("stroke", (dot) => (dot.withinNoise ? dot.color : null));
    const visible = dots.filter((dot) => Number.isFinite(dot.x));
    tr(visible.select("circle.icw-dot"))
      .attr("cx", (dot) => x(dot.x))
      .attr("cy", dy);
    /** @param {Dot} dot */
    const whiskered = (dot) =>
      Number.isFinite(dot.whiskerLow) &&
      Number.isFinite(dot.whiskerHigh) &&
      dot.whiskerHigh > dot.whiskerLow;
    visible
      .select("line.icw-whisker")
      .attr("display", (dot) => (whiskered(dot) ? null : "none"))
      .attr("stroke", (dot) => dot.color)
      .classed("icw-within-noise", (dot) => dot.withinNoise);
    tr(visible.filter(whiskered).select("line.icw-whisker"))
      .attr("x1", (dot) => x(dot.whiskerLow))
      .attr("x2", (dot) => x(dot.whiskerHigh))
      .attr("y1", dy)
      .attr("y2", dy);

    drawRowAxis(
      { zeroLine, axisG, axisTitle },
      { x, layout, margin: MARGIN, title: data.axisTitle, tr },
    );

    if (hovered !== null) {
      const row = rows.find((r) => r.feature === hovered);
      if (row) fillTooltip(row);
      else hideTooltip();
    }
  }

  /** @param {DotRow} row */
  function fillTooltip(row) {
    /** @type {[string, string][]} */
    const lines = [["iw-tooltip-title", row.feature]];
    for (const dot of row.dots) {
      const { value, std } = formats[dot.k];
      const spread = Number.isFinite(dot.rawStd) ? ` ± ${std(dot.rawStd)}` : "";
      const units = dot.units ? ` (${dot.units})` : "";
      let text = `${dot.label}: ${value(dot.raw)}${spread}${units}`;
      if (Number.isFinite(dot.low) && Number.isFinite(dot.high))
        text += `, interval ${value(dot.low)} to ${value(dot.high)}`;
      if (dot.withinNoise) text += " (within noise)";
      lines.push([dot.withinNoise ? "icw-tooltip-noise" : "", text]);
    }
    row.flags.forEach((/** @type {string} */ flag, /** @type {number} */ f) => {
      lines.push(["iw-tooltip-wrap icw-tooltip-flag", `⚠ ${flag}`]);
      for (const line of data?.evidence?.[row.index]?.[f] ?? [])
        lines.push(["iw-tooltip-wrap icw-tooltip-evidence", line]);
    });
    tooltip.fill(lines);
  }

  function hideTooltip() {
    if (hovered !== null) {
      hovered = null;
      tooltip.hide();
    }
  }

  const stopHover = hoverRows(svg, {
    rowSelector: "g.icw-row",
    exitingClass: "icw-exiting",
    show(node, event) {
      /** @type {DotRow} */
      const row = select(node).datum();
      hovered = row.feature;
      fillTooltip(row);
      tooltip.show(
        event
          ? { clientX: event.clientX, clientY: event.clientY }
          : { anchor: node },
      );
    },
    hide: hideTooltip,
  });
  const stopObserving = observeResize(container, () => {
    if (!destroyed && data !== null && measureWidth(container) !== lastWidth)
      draw(false);
  });

  return {
    /**
     * Draw `next`, moving the rows and dots already drawn.
     *
     * @param {DotPlotData} next
     */
    update(next) {
      if (destroyed) return;
      const first = data === null;
      data = next;
      rows = makeRows(next);
      formats = next.measures.map((m) => ({
        value: columnFormat(m.values),
        std: columnFormat(m.std),
      }));
      drawLegend();
      draw(!first);
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      stopObserving();
      stopHover();
      hideTooltip();
      svg.selectAll("*").interrupt();
      svg.interrupt();
      root.remove();
      data = null;
      rows = [];
    },
  };
}
