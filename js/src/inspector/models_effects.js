// @ts-check
// Every model's partial dependence of the selected feature on one axis (a
// several-model inspector, below the reviewed model's Effects view): one
// line per model over the same grid, a legend naming the models in the
// Importance view's colours. Curves of another feature than the one asked
// are not drawn. It draws `_models_curves` as Python made it.

import { axisBottom, axisLeft } from "d3-axis";
import { scaleLinear, scalePoint } from "d3-scale";
import { select } from "d3-selection";
import { line } from "d3-shape";

import { decodeArray, row } from "../codecs.js";
import { measureColors } from "../charts/dot_plot.js";
import { h, listenerBag } from "../ui/dom.js";
import { frameScheduler } from "../ui/frame.js";
import { createViewGuard, guardRender } from "../ui/guard.js";
import { bindModel } from "../ui/model.js";
import { createStatus, errorMessage, statusText } from "../ui/status.js";

const WIDTH = 560;
const HEIGHT = 240;
const MARGIN = { top: 10, right: 16, bottom: 40, left: 56 };

/**
 * Decode `_models_curves` for `feature`; null when it holds no curve of it.
 *
 * @param {import("../ui/model.js").TraitPayload | null | undefined} payload
 * @param {string} feature the feature asked (the `feature` trait).
 * @returns {{feature: string, models: string[], x: (number | string)[],
 *   numeric: boolean, curves: import("../codecs.js").TypedArray[], output: string} | null}
 * @throws {RangeError} on arrays of the wrong shape.
 */
export function modelsCurves(payload, feature) {
  if (!payload || !Array.isArray(payload.models) || payload.feature !== feature) return null;
  const models = payload.models.map(String);
  const numeric = payload.grid !== null && payload.grid !== undefined;
  const x = numeric ? [...decodeArray(payload.grid).values] : (payload.labels ?? []).map(String);
  const average = decodeArray(payload.average);
  if (average.shape.length !== 2 || average.shape[0] !== models.length || average.shape[1] !== x.length)
    throw new RangeError(
      `average has shape ${JSON.stringify(average.shape)}; expected [${models.length}, ${x.length}].`,
    );
  return {
    feature,
    models,
    x,
    numeric,
    curves: models.map((_, m) => row(average, m)),
    output: String(payload.output ?? ""),
  };
}

/** @param {import("../ui/guard.js").ViewProps} props */
function render({ model, el }) {
  const dom = listenerBag();
  const guard = createViewGuard("mme");
  const binding = bindModel(model, { guard });
  const status = createStatus("mme");
  const title = h("div", { className: "icw-caption", testid: "mme-title" });
  const legend = h("div", { className: "icw-legend", testid: "mme-legend" });
  const root = h(
    "div",
    { className: "inspectwidgets iw-models-effects", testid: "mme-root" },
    [title, status.bar, guard.node, status.error, legend],
  );
  const svg = select(root)
    .append("svg")
    .attr("class", "iw-chart-svg")
    .attr("data-testid", "mme-chart")
    .attr("role", "img")
    .attr("viewBox", `0 0 ${WIDTH} ${HEIGHT}`)
    .attr("width", WIDTH)
    .attr("height", HEIGHT);
  const plot = svg.append("g").attr("transform", `translate(${MARGIN.left},${MARGIN.top})`);
  const xAxis = plot.append("g").attr("class", "iw-axis");
  const yAxis = plot.append("g").attr("class", "iw-axis");
  const xTitle = plot.append("text").attr("class", "iw-axis-title").attr("text-anchor", "middle");
  const yTitle = plot
    .append("text")
    .attr("class", "iw-axis-title")
    .attr("text-anchor", "middle")
    .attr("transform", "rotate(-90)");
  const lines = plot.append("g");
  guard.attach({ root, statusBar: status.bar });
  el.append(root);

  function draw() {
    const state = String(model.get("status") ?? "idle");
    const feature = String(model.get("feature") ?? "");
    const curves = modelsCurves(model.get("_models_curves"), feature);
    root.setAttribute("data-status", state);
    status.update({
      status: state,
      progress: Number(model.get("progress") ?? 0),
      text: statusText({
        status: state,
        count: curves ? `${curves.models.length} models drawn` : "",
        elapsedSeconds: Number(model.get("_elapsed_seconds") ?? 0),
        hasResult: curves !== null,
      }),
      message: errorMessage(state, model.get("error"), []),
      details: String(model.get("error_details") ?? ""),
      stale: false,
    });
    const output = curves?.output ? ` (${curves.output})` : "";
    title.textContent = `Every model's partial dependence of ${feature}${output}, one grid`;
    svg.attr("display", curves ? null : "none");
    const colors = measureColors((curves?.models ?? []).map((_, m) => `model-${m}`));
    legend.replaceChildren(
      ...(curves?.models ?? []).map((name, m) => {
        const swatch = h("span", { className: "icw-swatch" });
        swatch.style.background = colors.get(`model-${m}`) ?? "";
        return h("span", { className: "icw-legend-item", testid: "mme-legend-item" }, [
          swatch,
          h("span", { className: "icw-legend-label", text: name }),
        ]);
      }),
    );
    if (!curves) return;
    const innerWidth = WIDTH - MARGIN.left - MARGIN.right;
    const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
    const values = curves.curves.flatMap((c) => [...c]).filter(Number.isFinite);
    const low = Math.min(...values);
    const high = Math.max(...values);
    const pad = (high - low) * 0.05 || 1;
    const y = scaleLinear().domain([low - pad, high + pad]).range([innerHeight, 0]);
    /** @type {(v: number | string) => number} */
    let x;
    if (curves.numeric) {
      // A missing-value point (NaN at the grid's end) is not drawn here.
      const xs = /** @type {number[]} */ (curves.x).filter(Number.isFinite);
      const scale = scaleLinear()
        .domain([Math.min(...xs), Math.max(...xs)])
        .range([0, innerWidth]);
      x = (v) => scale(Number(v));
      xAxis.call(axisBottom(scale).ticks(6));
    } else {
      const scale = scalePoint().domain(curves.x.map(String)).range([0, innerWidth]).padding(0.5);
      x = (v) => scale(String(v)) ?? 0;
      xAxis.call(axisBottom(scale));
    }
    xAxis.attr("transform", `translate(0,${innerHeight})`);
    yAxis.call(axisLeft(y).ticks(5));
    xTitle.attr("x", innerWidth / 2).attr("y", innerHeight + 34).text(feature);
    yTitle
      .attr("x", -innerHeight / 2)
      .attr("y", -44)
      .text(`partial dependence${output}`);
    const path = line()
      .defined(([i, v]) => Number.isFinite(v) && Number.isFinite(x(curves.x[i])))
      .x(([i]) => x(curves.x[i]))
      .y(([, v]) => y(v));
    lines
      .selectAll("path")
      .data(curves.curves)
      .join("path")
      .attr("data-testid", "mme-curve")
      .attr("data-model", (_, m) => curves.models[m])
      .attr("fill", "none")
      .attr("stroke-width", 2)
      .attr("stroke", (_, m) => colors.get(`model-${m}`) ?? "")
      .attr("d", (c) => path([...c].map((v, i) => [i, v])));
  }
  const live = frameScheduler(guard.wrap("the curves", draw, { updatesStatus: true }));
  binding.on(["status", "progress", "error", "_models_curves", "feature"], live.schedule);
  live.now();

  return () => {
    live.cancel();
    binding.removeAll();
    dom.removeAll();
    root.remove();
  };
}

export default { render: guardRender(render) };
