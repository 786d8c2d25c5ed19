// @ts-check
// The Importance view of a several-model inspector (anywidget-style module
// rendered over the inspector's mirror, like the embedded widgets): every
// model's importance per feature as a dot with its ± std whisker, a legend
// naming the models, and a ⚠ on the features where the first two models'
// paired difference has an interval excluding 0 (its interval in the
// tooltip). Run and Stop, the scorer drawn, a click on a feature selects it.
// It draws `_models_chart` as Python made it (inspector/models_data.js).

import { createDotPlot } from "../charts/dot_plot.js";
import { h, listenerBag } from "../ui/dom.js";
import { bindRunStop, runStopButtons, saveOnChange } from "../ui/controls.js";
import { bindFeatureSelection } from "../ui/feature_selection.js";
import { frameScheduler } from "../ui/frame.js";
import { createViewGuard, guardRender } from "../ui/guard.js";
import { bindModel } from "../ui/model.js";
import { createStatus, errorMessage, statusText } from "../ui/status.js";
import { createTooltip } from "../ui/tooltip.js";
import { modelsChart } from "./models_data.js";
import { nameOption, visibleName } from "../charts/format.js";

const LIVE_TRAITS = [
  "status",
  "progress",
  "error",
  "error_details",
  "_eta_seconds",
  "_phase",
  "_elapsed_seconds",
  "_models_chart",
  "scorer",
];

/**
 * The caption: what a dot and its whisker are, the repeats done, the
 * features left out.
 *
 * @param {import("./models_data.js").ModelsChart} chart
 * @returns {string}
 */
export function captionText(chart) {
  const parts = [
    `${chart.models.length} models on the same permuted copies of the held-out rows`,
    `dot: mean importance (${visibleName(chart.scorer)}), whisker ± std over ${chart.repeatsDone} of ${chart.nRepeats} repeats`,
  ];
  if (chart.nHidden > 0) parts.push(`${chart.nHidden} less important features not drawn`);
  if (chart.nPending > 0) parts.push(`${chart.nPending} features not permuted yet`);
  return parts.join(" · ");
}

/** @param {import("../ui/guard.js").ViewProps} props */
function render({ model, el }) {
  const dom = listenerBag();
  const guard = createViewGuard("mmi");
  const binding = bindModel(model, { guard });
  const buttons = runStopButtons("mmi");
  const scorer = h("select", {
    testid: "mmi-scorer",
    attrs: { "aria-label": "Scorer drawn" },
  });
  const status = createStatus("mmi");
  const caption = h("div", { className: "icw-caption", testid: "mmi-caption" });
  const note = h("p", { className: "iw-note", testid: "mmi-difference-note" });
  const chartHost = h("div", { className: "icw-chart-host mmi-chart" });
  chartHost.style.position = "relative";
  const root = h(
    "div",
    { className: "inspectwidgets iw-models-importance", testid: "mmi-root" },
    [
      h("div", { className: "iw-controls" }, [buttons.run, buttons.stop, scorer]),
      status.bar,
      guard.node,
      status.error,
      caption,
      chartHost,
      note,
    ],
  );
  guard.attach({ root, statusBar: status.bar });
  el.append(root);
  const tooltip = createTooltip(chartHost, { testid: "mmi-tooltip" });
  const chart = createDotPlot(chartHost, { tooltip });
  bindRunStop(buttons, { model, binding, dom });
  saveOnChange(scorer, "scorer", { model, binding, dom });
  const picked = bindFeatureSelection(root, { model, binding, dom });

  function draw() {
    const state = String(model.get("status") ?? "idle");
    const drawn = modelsChart(model.get("_models_chart"));
    root.setAttribute("data-status", state);
    root.setAttribute("data-repeats-done", String(drawn?.repeatsDone ?? 0));
    buttons.stop.disabled = state !== "running";
    status.update({
      status: state,
      progress: Number(model.get("progress") ?? 0),
      text: statusText({
        status: state,
        count: drawn ? `${drawn.repeatsDone} of ${drawn.nRepeats} repeats` : "",
        etaSeconds: Number(model.get("_eta_seconds") ?? -1),
        phase: String(model.get("_phase") ?? ""),
        elapsedSeconds: Number(model.get("_elapsed_seconds") ?? 0),
        hasResult: drawn !== null,
      }),
      message: errorMessage(state, model.get("error"), []),
      details: String(model.get("error_details") ?? ""),
      stale: state === "error" && drawn !== null,
    });
    const names = drawn?.scorers ?? [];
    if (scorer.options.length !== names.length)
      scorer.replaceChildren(
        ...names.map((name) => nameOption(name)),
      );
    scorer.value = drawn?.scorer ?? "";
    scorer.hidden = names.length < 2;
    chartHost.hidden = drawn === null;
    caption.textContent = drawn ? captionText(drawn) : "";
    note.textContent = drawn?.differenceNote ?? "";
    note.hidden = !drawn?.differenceNote;
    if (drawn)
      chart.update({
        features: drawn.features,
        measures: drawn.measures,
        flags: drawn.flags,
        evidence: drawn.evidence,
        axisTitle: `importance: drop in ${visibleName(drawn.scorer)}`,
      });
    picked.mark();
  }
  const live = frameScheduler(guard.wrap("the chart", draw, { updatesStatus: true }));
  binding.on(LIVE_TRAITS, live.schedule);
  live.now();

  return () => {
    live.cancel();
    binding.removeAll();
    dom.removeAll();
    chart.destroy();
    tooltip.destroy();
    root.remove();
  };
}

export default { render: guardRender(render) };
