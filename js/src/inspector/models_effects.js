// @ts-check
// Every model's partial dependence of the selected feature on one axis (a
// several-model inspector, below the reviewed model's Effects view): one
// line per model over the same grid, a legend naming the models in the
// Importance view's colours; on demand ("ICE") each model's ICE curves of
// the same rows side by side, and for a selected pair each model's surface
// side by side (models_effects_panels.js); partial dependence or ALE. Curves of another selection than
// the one asked are not drawn. It draws `_models_curves` as Python made it.

import "./models_effects.css";

import { axisBottom, axisLeft } from "d3-axis";
import { scaleLinear, scalePoint } from "d3-scale";
import { select } from "d3-selection";
import { line } from "d3-shape";

import { measureColors } from "../charts/dot_plot.js";
import { segmentedSwitch } from "../ui/controls.js";
import { h, listenerBag } from "../ui/dom.js";
import { frameScheduler } from "../ui/frame.js";
import { createViewGuard, guardRender } from "../ui/guard.js";
import { bindModel } from "../ui/model.js";
import { createStatus, errorMessage, statusText } from "../ui/status.js";
import { modelsEffects } from "./models_effects_data.js";
import { createIcePanels, createSurfacePanels } from "./models_effects_panels.js";
import { truncateTicks } from "../charts/chart_base.js";
import { MAX_NAME_CHARS, isolate, showName } from "../charts/format.js";

const WIDTH = 560;
const HEIGHT = 240;
const MARGIN = { top: 10, right: 16, bottom: 40, left: 56 };

/**
 * The panel's title: what is drawn, of which selection.
 *
 * @param {string[]} features
 * @param {string} output the class drawn ("" for a regressor).
 * @param {{ice: boolean, centered: boolean, ale?: boolean}} shown
 */
export function titleText(features, output, { ice, centered, ale = false }) {
  const of = output ? ` (${isolate(output)})` : "";
  if (ale && features.length === 2)
    return `Every model's second-order accumulated local effects of ${features.map(isolate).join(" and ")}${of}, the same bins, one colour scale`;
  if (ale)
    return `Every model's accumulated local effects of ${isolate(features[0] ?? "")}${of}, the same bins`;
  if (features.length === 2)
    return `Every model's partial dependence on ${features.map(isolate).join(" and ")}${of}, one grid, one colour scale`;
  const what = ice ? "partial dependence and ICE curves (the same rows)" : "partial dependence";
  return `Every model's ${centered ? "centered " : ""}${what} of ${isolate(features[0] ?? "")}${of}, one grid`;
}

/**
 * A labelled checkbox.
 *
 * @param {string} text
 * @param {string} testid
 * @param {string} tip
 */
function toggle(text, testid, tip) {
  const box = h("input", { testid, attrs: { type: "checkbox" } });
  const label = h("label", { className: "mme-toggle", attrs: { title: tip } }, [box, ` ${text}`]);
  return { box, label };
}

/** @param {import("../ui/guard.js").ViewProps} props */
function render({ model, el }) {
  const dom = listenerBag();
  const guard = createViewGuard("mme");
  const binding = bindModel(model, { guard });
  const status = createStatus("mme");
  const title = h("div", { className: "icw-caption", testid: "mme-title" });
  const legend = h("div", { className: "icw-legend", testid: "mme-legend" });
  const ice = toggle(
    "ICE",
    "mme-ice-toggle",
    "Each model's ICE curves of the same rows, side by side (computed when first asked)",
  );
  const centered = toggle(
    "Centered",
    "mme-centered-toggle",
    "Every curve as its change from the first grid value",
  );
  const effect = segmentedSwitch(
    [
      ["pd", "PD"],
      ["ale", "ALE"],
    ],
    "mme-effect",
    "Effect",
  );
  const toggles = h("span", { className: "mme-controls" }, [ice.label, centered.label]);
  const controls = h("div", { className: "mme-controls", testid: "mme-controls" }, [
    effect.node,
    toggles,
  ]);
  const root = h(
    "div",
    { className: "inspectwidgets iw-models-effects", testid: "mme-root" },
    [title, controls, status.bar, guard.node, status.error, legend],
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
  const icePanels = createIcePanels(root);
  const surfacePanels = createSurfacePanels(root);
  guard.attach({ root, statusBar: status.bar });
  el.append(root);
  dom.on(ice.box, "change", () => binding.save({ ice: ice.box.checked }));
  dom.on(centered.box, "change", () => binding.save({ centered: centered.box.checked }));
  for (const [value, button] of effect.buttons)
    dom.on(button, "click", () => {
      if (model.get("effect") !== value) binding.save({ effect: value });
    });

  function draw() {
    const state = String(model.get("status") ?? "idle");
    const features = binding.list("features");
    const shown = modelsEffects(model.get("_models_curves"), features);
    const curves = shown?.kind === "curves" ? shown : null;
    const surfaces = shown?.kind === "surface" ? shown : null;
    const pair = features.length === 2;
    ice.box.checked = Boolean(model.get("ice"));
    centered.box.checked = Boolean(model.get("centered"));
    const ale = model.get("effect") === "ale";
    effect.setValue(ale ? "ale" : "pd");
    // ICE and centering are partial dependence's, of one feature.
    ice.box.disabled = pair || ale;
    centered.box.disabled = pair || ale;
    toggles.hidden = pair || ale;
    root.setAttribute("data-status", state);
    root.setAttribute("data-kind", shown?.kind ?? "");
    status.update({
      status: state,
      progress: Number(model.get("progress") ?? 0),
      text: statusText({
        status: state,
        count: shown ? `${shown.models.length} models drawn` : "",
        elapsedSeconds: Number(model.get("_elapsed_seconds") ?? 0),
        hasResult: shown !== null,
      }),
      message: errorMessage(state, model.get("error"), []),
      details: String(model.get("error_details") ?? ""),
      stale: false,
    });
    const output = shown?.output ? ` (${isolate(shown.output)})` : "";
    const drawnAle = shown?.effect === "ale";
    title.textContent = titleText(features, shown?.output ?? "", {
      ice: Boolean(curves?.individual),
      centered: Boolean(curves?.centered),
      ale: drawnAle,
    });
    // A style, not the attribute: the stylesheet's display of svgs would win.
    svg.style("display", curves ? "" : "none");
    const colors = measureColors((shown?.models ?? []).map((_, m) => `model-${m}`));
    /** @param {number} m */
    const colorOf = (m) => colors.get(`model-${m}`) ?? "";
    // The surfaces' panels are named by model: the colour legend is theirs.
    legend.hidden = surfaces !== null;
    legend.replaceChildren(
      ...(curves?.models ?? []).map((name, m) => {
        const swatch = h("span", { className: "icw-swatch" });
        swatch.style.background = colorOf(m);
        return h("span", { className: "icw-legend-item", testid: "mme-legend-item" }, [
          swatch,
          showName(h("span", { className: "icw-legend-label" }), name),
        ]);
      }),
    );
    const quantity = drawnAle ? "accumulated local effect" : "partial dependence";
    const yLabel = `${curves?.centered ? "change in " : ""}${quantity}${output}`;
    icePanels.update(curves, colorOf, yLabel);
    surfacePanels.update(surfaces, `${drawnAle ? "second-order " : ""}${quantity}${output}`);
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
      truncateTicks(xAxis, MAX_NAME_CHARS); // categories: cut, whole on hover
    }
    xAxis.attr("transform", `translate(0,${innerHeight})`);
    yAxis.call(axisLeft(y).ticks(5));
    showName(xTitle.attr("x", innerWidth / 2).attr("y", innerHeight + 34).node(), features[0]);
    yTitle
      .attr("x", -innerHeight / 2)
      .attr("y", -44)
      .text(yLabel);
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
      .attr("stroke", (_, m) => colorOf(m))
      .attr("d", (c) => path([...c].map((v, i) => [i, v])));
  }
  const live = frameScheduler(guard.wrap("the curves", draw, { updatesStatus: true }));
  binding.on(
    ["status", "progress", "error", "_models_curves", "features", "ice", "centered", "effect"],
    live.schedule,
  );
  live.now();

  return () => {
    live.cancel();
    icePanels.destroy();
    surfacePanels.destroy();
    binding.removeAll();
    dom.removeAll();
    root.remove();
  };
}

export default { render: guardRender(render) };
