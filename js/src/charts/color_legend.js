// @ts-check
// A horizontal colour legend: a gradient bar over a domain with an axis
// under it and a title above.

import { axisBottom } from "d3-axis";
import { scaleLinear } from "d3-scale";
import { select } from "d3-selection";

import "./color_legend.css";

import { uniqueId } from "../ui/ids.js";
import { themeAxis } from "./chart_base.js";

const WIDTH = 180;
const BAR_HEIGHT = 10;
const MARGIN = { top: 16, right: 12, bottom: 20, left: 12 };
const STOPS = 11;

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
    .attr("x", MARGIN.left)
    .attr("y", MARGIN.top - 5);
  svg
    .append("rect")
    .attr("class", "iw-legend-bar")
    .attr("x", MARGIN.left)
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
      title.text(text);
      const x = scaleLinear()
        .domain([lo, hi])
        .range([MARGIN.left, MARGIN.left + WIDTH]);
      const axis = axisBottom(x).tickSize(4).tickSizeOuter(0);
      if (ticks) axis.tickValues(ticks);
      else axis.ticks(5);
      axisG.call(axis);
      themeAxis(axisG);
    },
    destroy() {
      svg.remove();
    },
  };
}
