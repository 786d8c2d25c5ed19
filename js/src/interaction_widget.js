// @ts-check
// Front end of InteractionWidget (anywidget ESM module).
//
// Draws what the traits hold: controls for the public traits (`n_top`,
// `n_samples`, `kind`, `grid_resolution`, `target`, `scale`), the status
// block, the H² heatmap of `_h2` (charts/heatmap.js, its cells buttons that
// write `pair`) with its colour legend, and below it the chosen pair's 2-way
// surface from `_curve`, drawn by the partial dependence widget's own chart
// (pd/pd_heatmap.js). One redraw per animation frame.

import "./ui/theme.css";


import { observeResize } from "./charts/chart_base.js";
import { createColorLegend } from "./charts/color_legend.js";
import { formatNumber, isolate, nameOption } from "./charts/format.js";
import { createHeatmap } from "./charts/heatmap.js";
import {
  describeCell,
  h2Result,
  selectedCell,
} from "./interaction/interaction_data.js";
import { curveResult, isEmptyCurve } from "./pd/pd_data.js";
import { h2Scale } from "./pd/pd_heat_scales.js";
import { createPdHeatmap } from "./pd/pd_heatmap.js";
import {
  bindRunStop,
  integerInput,
  runStopButtons,
  saveOnChange,
} from "./ui/controls.js";
import { h, listenerBag } from "./ui/dom.js";
import { frameScheduler } from "./ui/frame.js";
import { createViewGuard, guardRender, messageOf } from "./ui/guard.js";
import { bindModel } from "./ui/model.js";
import { createStatus, errorMessage, statusText } from "./ui/status.js";
import { createTooltip } from "./ui/tooltip.js";
// The surface's rules are the partial dependence widget's (scoped by its
// root class, which this root also carries).
import "./pd_widget.css";
import "./interaction_widget.css";

/** @type {[string, string][]} */
const KINDS = [
  ["average", "2-way partial dependence"],
  ["ale", "second-order ALE"],
];
/** @type {[string, string][]} */
const SCALES = [
  ["probability", "probability"],
  ["log_odds", "log-odds"],
];
const NO_PAIR_COLOR = "rgba(128, 128, 128, 0.15)";

const LIVE_TRAITS = [
  "status",
  "progress",
  "error",
  "error_details",
  "_eta_seconds",
  "_phase",
  "_elapsed_seconds",
  "_h2",
  "_curve",
  "pair",
];

/**
 * A labelled select filled with `[value, label]` options.
 *
 * @param {string} testid
 * @param {string} label
 * @param {[string, string][]} options
 */
function selectField(testid, label, options) {
  const select = h(
    "select",
    { testid, attrs: { "aria-label": label } },
    options.map(([value, text]) => h("option", { text, attrs: { value } })),
  );
  return {
    select,
    field: h("label", { className: "iw-field" }, [
      h("span", { text: label }),
      select,
    ]),
  };
}

/** @param {import("./ui/guard.js").ViewProps} props */
function render({ model, el }) {
  const dom = listenerBag();
  const guard = createViewGuard("iaw");
  const binding = bindModel(model, { guard });
  const context = { model, binding, dom };

  const root = h("div", {
    className: "inspectwidgets inspectwidgets-pd inspectwidgets-ia",
    testid: "iaw-root",
  });
  const nTop = integerInput(
    "iaw-n-top",
    { trait: "n_top", label: "Top features", min: 2, fallback: 5 },
    context,
  );
  const nSamples = integerInput(
    "iaw-n-samples",
    { trait: "n_samples", label: "Rows", min: 2, fallback: 300 },
    context,
  );
  const grid = integerInput(
    "iaw-grid",
    { trait: "grid_resolution", label: "Grid", min: 2, fallback: 20 },
    context,
  );
  const kind = selectField("iaw-kind", "Pair view", KINDS);
  const target = selectField("iaw-target", "Class", []);
  const scale = selectField("iaw-scale", "Scale", SCALES);
  const { run, stop } = runStopButtons("iaw");
  const status = createStatus("iaw");
  const caption = h("div", { className: "iaw-caption", testid: "iaw-caption" });
  const legendHost = h("div", { className: "iaw-legend" });
  const heatmapHost = h("div", { className: "iaw-heatmap-host" });
  const pairCaption = h("div", {
    className: "iaw-caption",
    testid: "iaw-pair-caption",
  });
  const surfaceHost = h("div", { className: "iaw-surface-host" });
  const output = h("div", { className: "iaw-output" }, [
    caption,
    h("div", { className: "iaw-matrix" }, [legendHost, heatmapHost]),
    pairCaption,
    surfaceHost,
  ]);
  const tooltip = createTooltip(output, { testid: "iaw-tooltip" });
  root.append(
    h("div", { className: "iaw-controls" }, [
      nTop.field,
      nSamples.field,
      kind.field,
      grid.field,
      target.field,
      scale.field,
      h("div", { className: "iw-buttons" }, [run, stop]),
    ]),
    status.bar,
    guard.node,
    status.error,
    status.staleNote,
    output,
  );
  guard.attach({ root, statusBar: status.bar });
  el.append(root);

  const legend = createColorLegend(legendHost, { testid: "iaw-legend" });
  /** @param {ArrayLike<number>} values the H² matrix (NaN: no pair). */
  function updateLegend(values) {
    const scale = h2Scale(values);
    legend.update({ ...scale, title: "Friedman's H² of the pair" });
    return scale;
  }
  updateLegend([]);
  /** @type {import("./interaction/interaction_data.js").H2 | null} */
  let h2 = null;
  const heatmap = createHeatmap(heatmapHost, {
    testid: "iaw-heatmap",
    cellTestid: "iaw-cell",
    rowAttribute: "data-row",
    colAttribute: "data-col",
    label: "Friedman's H² between pairs of the top features",
    tooltip,
    onActivate: (i, j) => {
      if (h2) binding.save({ pair: [h2.features[i], h2.features[j]] });
    },
  });
  /** @type {ReturnType<typeof createPdHeatmap> | null} */
  let surface = null;

  function syncSettings() {
    kind.select.value = String(model.get("kind") ?? "average");
    scale.select.value = String(model.get("scale") ?? "probability");
    const classes = binding.list("_target_options");
    target.select.replaceChildren(
      ...classes.map((c) => nameOption(c)),
    );
    target.select.value = String(model.get("target") ?? "");
    target.field.hidden = classes.length === 0;
    scale.select.disabled = classes.length === 0;
  }

  function drawLive() {
    const state = String(model.get("status") ?? "idle");
    /** @type {string[]} */
    const problems = [];
    /** @type {ReturnType<typeof curveResult>} */
    let curve = null;
    /** @type {typeof h2} */
    let decoded = null;
    try {
      decoded = h2Result(model.get("_h2"));
      curve = curveResult(model.get("_curve"));
    } catch (err) {
      problems.push(`Could not draw the result: ${messageOf(err)}`);
    }
    h2 = decoded;
    const pair = binding.list("pair");
    root.setAttribute("data-status", state);
    root.setAttribute("data-pair", pair.join(" × "));
    // Only a pair draws a surface (a 1-way curve has no `features`).
    root.setAttribute(
      "data-surface",
      curve?.mode === "2d" ? curve.features.join(" × ") : "",
    );
    stop.disabled = state !== "running";
    if (decoded) {
      const shown = decoded;
      // Above 1 (effects that nearly cancel) the scale goes on: not clamped.
      const { color } = updateLegend(shown.matrix);
      guard.run("the H² heatmap", () =>
        heatmap.update({
          rows: shown.features,
          cols: shown.features,
          values: shown.matrix,
          color: (v) => (Number.isFinite(v) ? color(v) : NO_PAIR_COLOR),
          describe: (i, j) => describeCell(shown, i, j),
          selected: selectedCell(shown, pair),
          maxCell: 56,
        }),
      );
    }
    caption.textContent = h2
      ? `H² of the pairs among the ${h2.features.length} features that interact most (on ${formatNumber(h2.nSamples)} rows); click a cell to draw the pair`
      : state === "running"
        ? "Computing H²…"
        : "No result yet: press Run.";
    if (curve && curve.mode === "2d") {
      guard.run("the pair's surface", () => {
        surface ??= createPdHeatmap(surfaceHost, { tooltip });
        surface.update(curve);
      });
    } else if (surface) {
      surface.destroy();
      surface = null;
    }
    pairCaption.textContent =
      pair.length === 2
        ? `${isolate(pair[0])} × ${isolate(pair[1])}: ${curve ? curve.yLabel : "computing…"}`
        : "";
    status.update({
      status: state,
      progress: model.get("progress"),
      text: statusText({
        status: state,
        count: `${Math.round(100 * (Number(model.get("progress")) || 0))}%`,
        stoppedAt: "",
        etaSeconds: Number(model.get("_eta_seconds") ?? -1),
        phase: String(model.get("_phase") ?? ""),
        elapsedSeconds: Number(model.get("_elapsed_seconds") ?? 0),
        hasResult: h2 !== null || !isEmptyCurve(model.get("_curve")),
      }),
      message: errorMessage(state, model.get("error"), problems),
      details: String(model.get("error_details") ?? ""),
      stale: state === "error" && h2 !== null,
    });
  }

  const live = frameScheduler(
    guard.wrap("the widget", drawLive, { updatesStatus: true }),
  );
  saveOnChange(kind.select, "kind", context);
  saveOnChange(target.select, "target", context);
  saveOnChange(scale.select, "scale", context);
  bindRunStop({ run, stop }, context);
  dom.on(output, "pointerleave", () => tooltip.hide());
  const stopResize = observeResize(heatmapHost, live.schedule);
  binding.on(["kind", "scale", "target", "_target_options"], syncSettings);
  binding.on(LIVE_TRAITS, live.schedule);
  syncSettings();
  live.now();

  return () => {
    binding.removeAll();
    dom.removeAll();
    live.cancel();
    stopResize();
    heatmap.destroy();
    legend.destroy();
    surface?.destroy();
    tooltip.destroy();
    root.remove();
  };
}

export default { render: guardRender(render) };
