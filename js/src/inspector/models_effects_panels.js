// @ts-check
// The several-model Effects panel's small multiples, one panel per model,
// side by side: each model's ICE curves (the same rows for every model) on
// one y scale, or each model's surface of a pair with one colour scale, so
// that a difference seen between panels is a difference between models.

import { axisBottom, axisLeft } from "d3-axis";
import { scaleLinear, scalePoint } from "d3-scale";
import { select } from "d3-selection";
import { line } from "d3-shape";

import { createColorLegend } from "../charts/color_legend.js";
import { h } from "../ui/dom.js";
import {
  ICE_FALLBACK_COLOR,
  canvasColor,
  iceAlpha,
  paintIce,
  prepareCanvas,
} from "../pd/pd_canvas.js";
import { finiteExtent } from "../pd/pd_data.js";
import { axisGeometry, heatColor } from "../pd/pd_heat_scales.js";
import { truncateTicks } from "../charts/chart_base.js";
import { MAX_NAME_CHARS, isolate, showName } from "../charts/format.js";

const PANEL = { width: 250, height: 200 };
const MARGIN = { top: 8, right: 10, bottom: 34, left: 46 };

/**
 * One model's panel: a title, a canvas under an svg of the same size.
 *
 * @param {string} name
 * @param {string} testid
 */
function panel(name, testid) {
  const title = showName(h("div", { className: "icw-caption mme-panel-title" }), name);
  const node = h("div", { className: "mme-panel", testid }, [title]);
  node.setAttribute("data-model", name);
  const plot = h("div", { className: "mme-plot" });
  const canvas = h("canvas", { className: "mme-canvas", attrs: { "aria-hidden": "true" } });
  plot.append(canvas);
  node.append(plot);
  const svg = select(plot)
    .append("svg")
    .attr("class", "iw-chart-svg mme-panel-svg")
    .attr("role", "img")
    .attr("width", PANEL.width)
    .attr("height", PANEL.height);
  return { node, canvas, svg };
}

const inner = {
  width: PANEL.width - MARGIN.left - MARGIN.right,
  height: PANEL.height - MARGIN.top - MARGIN.bottom,
};

/**
 * The x scale of a curve's grid: numbers (the grid's finite values; a
 * missing point, NaN at the end, is not drawn) or categories.
 *
 * @param {import("./models_effects_data.js").ModelsCurves} curves
 */
function curveX(curves) {
  const start = MARGIN.left;
  if (curves.numeric) {
    const xs = /** @type {number[]} */ (curves.x);
    const finite = xs.findIndex((v) => !Number.isFinite(v));
    const n = finite === -1 ? xs.length : finite;
    const scale = scaleLinear()
      .domain([xs[0], xs[Math.max(0, n - 1)]])
      .range([start, start + inner.width]);
    return { axis: axisBottom(scale).ticks(4), n, at: (/** @type {number} */ j) => scale(xs[j]) };
  }
  const labels = curves.x.map(String);
  const scale = scalePoint().domain(labels).range([start, start + inner.width]).padding(0.5);
  return { axis: axisBottom(scale), n: labels.length, at: (/** @type {number} */ j) => scale(labels[j]) ?? 0 };
}

/**
 * Each model's ICE curves and average in its own panel, one y scale.
 *
 * @param {HTMLElement} container
 */
export function createIcePanels(container) {
  const host = h("div", { className: "mme-panels", testid: "mme-ice" });
  container.append(host);
  return {
    /**
     * @param {import("./models_effects_data.js").ModelsCurves | null} curves
     *   null (or no ICE curves): nothing drawn.
     * @param {(m: number) => string} colorOf each model's colour.
     * @param {string} yLabel
     */
    update(curves, colorOf, yLabel) {
      host.hidden = !curves?.individual;
      if (!curves?.individual) {
        host.replaceChildren();
        return;
      }
      const ice = curves.individual;
      const x = curveX(curves);
      const extent = finiteExtent([...curves.curves, ...ice.map((c) => c.values)]) ?? [0, 1];
      const pad = (extent[1] - extent[0]) * 0.05 || 1;
      const y = scaleLinear()
        .domain([extent[0] - pad, extent[1] + pad])
        .range([MARGIN.top + inner.height, MARGIN.top]);
      const xs = Array.from({ length: curves.x.length }, (_, j) => x.at(j) - MARGIN.left);
      host.replaceChildren(
        ...curves.models.map((name, m) => {
          const { node, canvas, svg } = panel(name, "mme-ice-panel");
          node.setAttribute("data-rows", String(ice[m].rows));
          node.setAttribute("data-y-domain", y.domain().map((v) => v.toPrecision(6)).join(","));
          const context = prepareCanvas(canvas, {
            left: MARGIN.left,
            top: MARGIN.top,
            width: inner.width,
            height: inner.height,
          });
          if (context) {
            const [y0, y1] = [y(0), y(1)];
            paintIce(context, {
              values: ice[m].values,
              rows: ice[m].rows,
              cols: curves.x.length,
              done: x.n,
              xs,
              y0: y0 - MARGIN.top,
              ky: y1 - y0,
              color: canvasColor(canvas, ICE_FALLBACK_COLOR),
              alpha: iceAlpha(ice[m].rows),
            });
          }
          const axes = svg.append("g").attr("class", "iw-axis");
          axes.attr("transform", `translate(0,${MARGIN.top + inner.height})`).call(x.axis);
          // Categories cut, the whole one on hover (numbers keep their format).
          if (!curves.numeric) truncateTicks(axes, MAX_NAME_CHARS);
          svg.append("g").attr("class", "iw-axis").attr("transform", `translate(${MARGIN.left},0)`).call(axisLeft(y).ticks(4));
          svg
            .append("text")
            .attr("class", "iw-axis-title")
            .attr("text-anchor", "middle")
            .attr("x", MARGIN.left + inner.width / 2)
            .attr("y", PANEL.height - 4)
            .call((t) => showName(t.node(), curves.features[0]));
          const average = line()
            .defined(([j, v]) => j < x.n && Number.isFinite(v))
            .x(([j]) => x.at(j))
            .y(([, v]) => y(v));
          svg
            .append("path")
            .attr("data-testid", "mme-ice-average")
            .attr("fill", "none")
            .attr("stroke-width", 2.5)
            .attr("stroke", colorOf(m))
            .attr("d", average([...curves.curves[m]].map((v, j) => [j, v])));
          svg.attr("aria-label", `${isolate(name)}: ${ice[m].rows} ICE curves of ${isolate(curves.features[0])}; ${yLabel}`);
          return node;
        }),
      );
    },
    destroy() {
      host.remove();
    },
  };
}

/**
 * Each model's surface of a pair in its own panel, one colour scale.
 *
 * @param {HTMLElement} container
 */
export function createSurfacePanels(container) {
  const legendHost = h("div", { className: "mme-legend-host" });
  const host = h("div", { className: "mme-panels", testid: "mme-surfaces" });
  const wrapper = h("div", { className: "mme-surfaces-wrapper" }, [legendHost, host]);
  container.append(wrapper);
  const legend = createColorLegend(legendHost, { testid: "mme-color-legend" });
  return {
    /**
     * @param {import("./models_effects_data.js").ModelsSurfaces | null} surfaces
     * @param {string} title the colour legend's title.
     */
    update(surfaces, title) {
      wrapper.hidden = !surfaces;
      if (!surfaces) {
        host.replaceChildren();
        return;
      }
      // One scale over every model's cells: equal colours, equal values.
      const extent = finiteExtent(surfaces.surfaces);
      const color = heatColor(extent);
      const ends = color.domain();
      /** @type {[number, number]} */
      const domain = [ends[0], ends[ends.length - 1]];
      legend.update({ color, domain, title, ticks: scaleLinear().domain(domain).ticks(4) });
      const gx = axisGeometry(surfaces.x, [MARGIN.left, MARGIN.left + inner.width]);
      const gy = axisGeometry(
        surfaces.y,
        surfaces.y.categorical
          ? [MARGIN.top, MARGIN.top + inner.height]
          : [MARGIN.top + inner.height, MARGIN.top],
      );
      const nx = surfaces.x.values.length;
      const ny = surfaces.y.values.length;
      host.replaceChildren(
        ...surfaces.models.map((name, m) => {
          const { node, canvas, svg } = panel(name, "mme-surface-panel");
          node.setAttribute("data-color-domain", domain.map((v) => v.toPrecision(6)).join(","));
          const context = prepareCanvas(canvas, {
            left: MARGIN.left,
            top: MARGIN.top,
            width: inner.width,
            height: inner.height,
          });
          let cells = 0;
          const values = surfaces.surfaces[m];
          for (let i = 0; i < nx; i += 1) {
            const [xa, xb] = gx.span(i);
            for (let j = 0; j < ny; j += 1) {
              const v = values[i * ny + j];
              if (!Number.isFinite(v)) continue;
              cells += 1;
              if (!context) continue;
              const [ya, yb] = gy.span(j);
              context.fillStyle = color(v);
              // Overlapping by half a pixel: no seams between cells.
              context.fillRect(
                Math.min(xa, xb) - MARGIN.left,
                Math.min(ya, yb) - MARGIN.top,
                Math.abs(xb - xa) + 0.5,
                Math.abs(yb - ya) + 0.5,
              );
            }
          }
          node.setAttribute("data-cells", String(cells));
          svg
            .append("g")
            .attr("class", "iw-axis")
            .attr("transform", `translate(0,${MARGIN.top + inner.height})`)
            .call(axisBottom(/** @type {any} */ (gx.scale)).ticks(4))
            .call((/** @type {any} */ g) => surfaces.x.categorical && truncateTicks(g, MAX_NAME_CHARS));
          svg
            .append("g")
            .attr("class", "iw-axis")
            .attr("transform", `translate(${MARGIN.left},0)`)
            .call(axisLeft(/** @type {any} */ (gy.scale)).ticks(4))
            .call((/** @type {any} */ g) => surfaces.y.categorical && truncateTicks(g, MAX_NAME_CHARS));
          svg
            .append("text")
            .attr("class", "iw-axis-title")
            .attr("text-anchor", "middle")
            .attr("x", MARGIN.left + inner.width / 2)
            .attr("y", PANEL.height - 4)
            .call((t) => showName(t.node(), surfaces.features[0]));
          svg
            .append("text")
            .attr("class", "iw-axis-title")
            .attr("text-anchor", "middle")
            .attr("transform", "rotate(-90)")
            .attr("x", -(MARGIN.top + inner.height / 2))
            .attr("y", 12)
            .call((t) => showName(t.node(), surfaces.features[1]));
          svg.attr("aria-label", `${isolate(name)}: partial dependence on ${surfaces.features.map(isolate).join(" and ")}`);
          return node;
        }),
      );
    },
    destroy() {
      legend.destroy();
      wrapper.remove();
    },
  };
}
