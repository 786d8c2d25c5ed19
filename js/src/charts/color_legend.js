// @ts-check
// A horizontal colour legend: a gradient bar over a domain with an axis
// under it and a title above.

import { axisBottom } from "d3-axis";
import { scaleLinear } from "d3-scale";
import { select } from "d3-selection";

import "./color_legend.css";

import { uniqueId } from "../ui/ids.js";
import { CHAR_WIDTH, themeAxis } from "./chart_base.js";

const WIDTH = 180;
const BAR_HEIGHT = 10;
const MARGIN = { top: 16, right: 12, bottom: 20, left: 12 };
const STOPS = 11;

/**
 * The left and right margins (px) that hold the end ticks' labels: a label
 * centred on a tick at the bar's end overhangs it by half its width, and
 * "−0.010" at the left end was cut by the edge of the page (#52). Text is
 * not measured: CHAR_WIDTH per character, as the other chart labels.
 *
 * @param {{offset: number, label: string}[]} ticks `offset`: px from the
 *   bar's left end.
 * @returns {{left: number, right: number}}
 */
export function legendMargins(ticks) {
  let left = MARGIN.left;
  let right = MARGIN.right;
  for (const { offset, label } of ticks) {
    const half = (label.length * CHAR_WIDTH) / 2 + 1;
    left = Math.max(left, half - offset);
    right = Math.max(right, half - (WIDTH - offset));
  }
  return { left: Math.ceil(left), right: Math.ceil(right) };
}

/**
 * Create a legend inside `container`.
 *
 * @param {HTMLElement} container
 * @param {{testid?: string}} [options]
 * @returns {{update: (data: {color: (value: number) => string,
 *   domain: [number, number], title: string, ticks?: number[]}) => void,
 *   destroy: () => void}}
 */
export function createColorLegend(container, { testid } = {}) {
  // Unique in the page: several widgets, several legends (ui/ids.js).
  const id = uniqueId("iw-legend-gradient");
  const svg = select(container)
    .append("svg")
    .attr("class", "iw-chart-svg iw-color-legend")
    .attr("data-testid", testid ?? null)
    .attr("width", WIDTH + MARGIN.left + MARGIN.right)
    .attr("height", MARGIN.top + BAR_HEIGHT + MARGIN.bottom);
  const gradient = svg
    .append("defs")
    .append("linearGradient")
    .attr("id", id)
    .attr("x1", "0%")
    .attr("x2", "100%");
  const title = svg
    .append("text")
    .attr("class", "iw-legend-title")
    .attr("y", MARGIN.top - 5);
  const bar = svg
    .append("rect")
    .attr("class", "iw-legend-bar")
    .attr("y", MARGIN.top)
    .attr("width", WIDTH)
    .attr("height", BAR_HEIGHT)
    .attr("fill", `url(#${id})`);
  const axisG = svg
    .append("g")
    .attr("class", "iw-axis")
    .attr("transform", `translate(0,${MARGIN.top + BAR_HEIGHT})`);

  return {
    update({ color, domain: [lo, hi], title: text, ticks }) {
      const stops = Array.from({ length: STOPS }, (_, k) => k / (STOPS - 1));
      gradient
        .selectAll("stop")
        .data(stops)
        .join("stop")
        .attr("offset", (t) => `${t * 100}%`)
        .attr("stop-color", (t) => color(lo + t * (hi - lo)));
      const x = scaleLinear().domain([lo, hi]).range([0, WIDTH]);
      // The labels d3-axis would write (its default format for these ticks),
      // written explicitly so that the margins are sized for them.
      const values = ticks ?? x.ticks(5);
      const format = ticks ? x.tickFormat() : x.tickFormat(5);
      const { left, right } = legendMargins(
        values.map((v) => ({ offset: x(v), label: format(v) })),
      );
      x.range([left, left + WIDTH]);
      svg.attr("width", left + WIDTH + right);
      title.attr("x", left).text(text);
      bar.attr("x", left);
      axisG.call(
        axisBottom(x)
          .tickSize(4)
          .tickSizeOuter(0)
          .tickValues(values)
          .tickFormat(format),
      );
      themeAxis(axisG);
    },
    destroy() {
      svg.remove();
    },
  };
}
