// @ts-check
// 1-way partial dependence of a categorical feature: one band per category
// label; the PDP as a bold mark (dash and dot) per category, joined by label;
// ICE values as thin translucent dashes on a canvas; the category counts as
// bars beneath, on the same band scale.

import { axisBottom } from "d3-axis";
import { scaleBand } from "d3-scale";

import {
  CHAR_WIDTH,
  themeAxis,
  truncateTicks,
} from "../charts/chart_base.js";
import { formatNumber, isolate } from "../charts/format.js";
import {
  canvasColor,
  ICE_FALLBACK_COLOR,
  iceAlpha,
} from "./pd_canvas.js";
import { createAleLayer } from "./pd_ale.js";
import { drawDistribution } from "./pd_distribution.js";
import {
  DIST_HEIGHT,
  createOneWayFrame,
  curveValueLines,
  oneWayHandle,
  prepareIceCanvas,
} from "./pd_frame.js";

const MARK_WIDTH = 0.6; // of the band

/**
 * Create the chart inside `container`.
 *
 * @param {HTMLElement} container
 * @param {{tooltip: import("../ui/tooltip.js").Tooltip}} options
 * @returns {{update: (curve: import("./pd_data.js").Curve1d) =>
 *   {iceDrawn: number, bars: number}, destroy: () => void}}
 */
export function createPdCategories(container, { tooltip }) {
  const frame = createOneWayFrame(container, {
    svgTestid: "pdw-category-chart",
  });
  const marksG = frame.plot.append("g").attr("class", "pdw-category-marks");
  const ale = createAleLayer(frame.plot);
  const focus = frame.plot
    .append("rect")
    .attr("class", "pdw-band-focus")
    .style("display", "none");

  /** @type {import("./pd_data.js").Curve1d | null} */
  let curve = null;
  /**
   * @type {{x: import("d3-scale").ScaleBand<string>,
   *   box: ReturnType<typeof frame.layout>} | null}
   */
  let geometry = null;

  function draw() {
    // oneWayHandle sets the curve before each draw.
    if (curve === null) return { iceDrawn: 0, bars: 0 };
    const { average, individual, gridDone, distribution } = curve;
    const labels = curve.x.labels;
    const box = frame.layout(curve);
    const { y } = box;
    const x = scaleBand()
      .domain(labels)
      .range([box.left, box.right])
      .paddingInner(0.1)
      .paddingOuter(0.05);
    const band = x.bandwidth();

    // ICE: one short dash per curve and category.
    const context = prepareIceCanvas(frame, box);
    const canvas = frame.canvas.node();
    let iceDrawn = 0;
    if (context && canvas && individual && individual.rows > 0) {
      const { values, rows, cols } = individual;
      context.save();
      context.fillStyle = canvasColor(canvas, ICE_FALLBACK_COLOR);
      context.globalAlpha = iceAlpha(rows);
      const w = band * MARK_WIDTH;
      for (let j = 0; j < Math.min(gridDone, cols); j += 1) {
        const left = (x(labels[j]) ?? NaN) - box.left + (band - w) / 2;
        for (let i = 0; i < rows; i += 1) {
          const v = values[i * cols + j];
          if (!Number.isNaN(v)) context.fillRect(left, y(v) - box.top - 0.5, w, 1);
        }
      }
      context.restore();
      iceDrawn = rows;
    }
    frame.canvas.attr("data-curves", individual ? individual.rows : 0);

    // PDP marks, joined by category label.
    /** @type {{label: string, value: number}[]} */
    const marks = [];
    if (average) {
      for (let j = 0; j < Math.min(gridDone, labels.length); j += 1)
        if (Number.isFinite(average[j]))
          marks.push({ label: labels[j], value: average[j] });
    }
    marksG
      .selectAll("g.pdw-category")
      .data(marks, (/** @type {{label: string}} */ d) => d.label)
      .join((/** @type {import("../charts/chart_base.js").AnySelection} */ enter) => {
        const g = enter.append("g").attr("class", "pdw-category");
        g.append("line").attr("class", "pdw-category-dash");
        g.append("circle").attr("class", "pdw-category-dot").attr("r", 4);
        return g;
      })
      .attr("data-testid", "pdw-category")
      .attr("data-category", (d) => d.label)
      .attr("data-value", (d) => d.value)
      .attr(
        "transform",
        (/** @type {{label: string, value: number}} */ d) =>
          `translate(${(x(d.label) ?? NaN) + band / 2},${y(d.value)})`,
      )
      .call((/** @type {import("../charts/chart_base.js").AnySelection} */ g) =>
        g
          .select("line")
          .attr("x1", (-band * MARK_WIDTH) / 2)
          .attr("x2", (band * MARK_WIDTH) / 2),
      );

    ale.drawMarks({ curve, x, y, box });
    const bars = drawDistribution(frame.dist, distribution, {
      scale: x,
      orientation: "x",
      size: DIST_HEIGHT,
    });
    frame.deciles.selectAll("*").remove();
    frame.rare.selectAll("*").remove();

    const maxChars = Math.max(2, Math.floor(x.step() / CHAR_WIDTH));
    frame.xAxis.call(axisBottom(x).tickSizeOuter(0));
    truncateTicks(frame.xAxis, maxChars);
    themeAxis(frame.xAxis);
    frame.svg.attr("data-settled", "true");
    geometry = { x, box };
    pointer.refresh();
    return { iceDrawn, bars };
  }

  function hide() {
    focus.style("display", "none");
    tooltip.hide();
  }

  /** @param {{clientX: number, clientY: number}} at */
  function show(at) {
    if (!curve || !geometry) return hide();
    const { x, box } = geometry;
    const labels = curve.x.labels;
    const j = Math.floor((frame.localX(at) - box.left) / x.step());
    if (j < 0 || j >= Math.min(curve.gridDone, labels.length)) return hide();
    focus
      .style("display", null)
      .attr("x", x(labels[j]) ?? NaN) // j is a label's index: defined
      .attr("width", x.bandwidth())
      .attr("y", box.top)
      .attr("height", box.bottom - box.top);
    /** @type {[string, string][]} */
    const lines = [
      ["iw-tooltip-title", `${isolate(curve.feature)} = ${isolate(labels[j])}`],
      ...curveValueLines(curve, j),
    ];
    const dist = curve.distribution;
    const k = dist?.kind === "categories" ? dist.labels.indexOf(labels[j]) : -1;
    if (dist && k >= 0) lines.push(["", `rows: ${formatNumber(dist.counts[k])}`]);
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
