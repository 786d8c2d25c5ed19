// @ts-check
// The Effects overview: every feature's partial dependence as small
// multiples (pd_overview_data.js lays them out), most important first. Each
// panel is a button: a click, Enter or Space calls `onSelect(feature)`. A
// numeric panel is a line (the PD view's colour) with its missing point as
// the PD view's diamond right of it; a categorical one, dots. A panel without
// a curve says why. The svgs hold no ids (no gradient or clip path), so two
// views in one page cannot share one.

import { scaleLinear, scalePoint } from "d3-scale";
import { select } from "d3-selection";
import { line, symbol, symbolDiamond } from "d3-shape";

import { observeResize, truncate } from "../charts/chart_base.js";
import { formatNumber, isolate, isolateWhole } from "../charts/format.js";
import { h, listenerBag } from "../ui/dom.js";
import {
  PANEL_HEIGHT,
  TITLE_CHARS,
  gridLayout,
  orderText,
  panelMessage,
  sharedDomain,
} from "./pd_overview_data.js";

const MARGIN = { top: 6, right: 6, bottom: 6, left: 6 };
/** Width (px) right of a numeric curve for its missing point. */
const MISSING_GUTTER = 16;
const diamond = symbol(symbolDiamond, 36);

/**
 * @param {HTMLElement} host
 * @param {{onSelect: (feature: string) => void}} options
 */
export function createPdOverview(host, { onSelect }) {
  const dom = listenerBag();
  const header = h("div", {
    className: "pdw-ov-header",
    testid: "pdw-overview-header",
  });
  const grid = h("div", {
    className: "pdw-ov-grid",
    testid: "pdw-overview-grid",
  });
  const root = h(
    "div",
    { className: "pdw-overview", testid: "pdw-overview" },
    [header, grid],
  );
  host.append(root);
  /** @type {string} */
  let selected = "";
  // The panels are laid out for the host's width: drawn again when it
  // changes (a narrower window, a side panel opened).
  /** @type {[import("./pd_overview_data.js").Overview, string] | null} */
  let drawn = null;
  let drawnWidth = 0;
  const stopResize = observeResize(host, () => {
    if (drawn && host.clientWidth > 0 && host.clientWidth !== drawnWidth)
      update(drawn[0], selected);
  });

  /** @param {string} feature */
  function choose(feature) {
    selected = feature;
    onSelect(feature);
  }

  /**
   * @param {import("./pd_overview_data.js").Overview} overview
   * @param {string} current the feature shown in the single view.
   */
  function update(overview, current) {
    drawn = [overview, current];
    drawnWidth = host.clientWidth;
    selected = current;
    header.textContent =
      overview.status === "error"
        ? `Overview failed: ${overview.error}`
        : orderText(overview, formatNumber);
    root.setAttribute("data-status", overview.status);
    const width = Math.max(host.clientWidth || 0, 320);
    const { columns, panelWidth } = gridLayout(overview.panels.length, width);
    grid.style.gridTemplateColumns = `repeat(${columns}, ${panelWidth}px)`;
    const [low, high] = sharedDomain(overview.panels);
    const y = scaleLinear()
      .domain([low, high])
      .range([PANEL_HEIGHT - MARGIN.bottom, MARGIN.top]);
    dom.removeAll();
    grid.replaceChildren(
      ...overview.panels.map((panel) =>
        drawPanel(panel, overview.status, panelWidth, y),
      ),
    );
    if (overview.panels.length === 0)
      grid.append(
        h("p", {
          className: "iw-note",
          text:
            overview.status === "running"
              ? "Computing every feature's partial dependence…"
              : "No features to show.",
        }),
      );
  }

  /**
   * @param {import("./pd_overview_data.js").Panel} panel
   * @param {string} status
   * @param {number} width
   * @param {import("d3-scale").ScaleLinear<number, number>} y
   */
  function drawPanel(panel, status, width, y) {
    const importance =
      panel.importance === null ? "" : ` (${formatNumber(panel.importance)})`;
    const title = h("div", {
      className: "pdw-ov-title",
      text: truncate(panel.feature, TITLE_CHARS),
      attrs: { title: `${isolateWhole(panel.feature)}${importance}` },
    });
    const node = h(
      "div",
      {
        className: "pdw-ov-panel",
        testid: "pdw-overview-panel",
        attrs: {
          role: "button",
          tabindex: 0,
          "data-feature": panel.feature,
          "data-state": panel.state,
          "aria-pressed": String(panel.feature === selected),
          "aria-label": `Show ${isolate(panel.feature)}${importance}`,
        },
      },
      [title],
    );
    const message = panelMessage(panel, status);
    if (message) {
      node.append(
        h("div", {
          className: "pdw-ov-note",
          testid: "pdw-overview-note",
          text: message,
          attrs: { title: message },
        }),
      );
    } else {
      node.append(drawChart(panel, width, y));
    }
    dom.on(node, "click", () => choose(panel.feature));
    dom.on(node, "keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        choose(panel.feature);
      }
    });
    return node;
  }

  /**
   * @param {import("./pd_overview_data.js").Panel} panel
   * @param {number} width
   * @param {import("d3-scale").ScaleLinear<number, number>} y
   */
  function drawChart(panel, width, y) {
    const svg = select(document.createElementNS("http://www.w3.org/2000/svg", "svg"))
      .attr("class", "pdw-ov-svg")
      .attr("width", width - 2)
      .attr("height", PANEL_HEIGHT)
      .attr("aria-hidden", "true");
    const missing = panel.missing_y !== null;
    const right = width - 2 - MARGIN.right - (missing ? MISSING_GUTTER : 0);
    const values = panel.y;
    if (panel.categorical) {
      const x = scalePoint()
        .domain(panel.x.map(String))
        .range([MARGIN.left, right])
        .padding(0.5);
      svg
        .selectAll("circle")
        .data(values)
        .join("circle")
        .attr("class", "pdw-ov-dot")
        .attr("cx", (_, i) => x(String(panel.x[i])) ?? 0)
        .attr("cy", (v) => y(v))
        .attr("r", 3)
        .append("title")
        .text((v, i) => `${isolate(panel.x[i])}: ${formatNumber(v)}`);
    } else {
      const xs = panel.x.map(Number);
      const x = scaleLinear()
        .domain([xs[0], xs[xs.length - 1]])
        .range([MARGIN.left, right]);
      if (xs.length === 1) x.domain([xs[0] - 1, xs[0] + 1]);
      const path = line()
        .x((_, i) => x(xs[i]))
        .y((v) => y(/** @type {number} */ (/** @type {unknown} */ (v))));
      svg
        .append("path")
        .attr("class", "pdw-ov-line")
        .attr("data-testid", "pdw-overview-line")
        .attr("d", path(/** @type {any} */ (values)) ?? "");
      if (xs.length === 1)
        svg
          .append("circle")
          .attr("class", "pdw-ov-dot")
          .attr("cx", x(xs[0]))
          .attr("cy", y(values[0]))
          .attr("r", 3);
    }
    if (missing) {
      const cx = width - 2 - MARGIN.right - MISSING_GUTTER / 2;
      const value = /** @type {number} */ (panel.missing_y);
      svg
        .append("path")
        .attr("class", "pdw-ov-missing")
        .attr("data-testid", "pdw-overview-missing")
        .attr("d", diamond() ?? "")
        .attr("transform", `translate(${cx},${y(value)})`)
        .append("title")
        .text(`missing: ${formatNumber(value)}`);
    }
    return /** @type {SVGSVGElement} */ (svg.node());
  }

  return {
    update,
    destroy() {
      stopResize();
      dom.removeAll();
      root.remove();
    },
    /** The feature last chosen or shown. */
    get selected() {
      return selected;
    },
  };
}
