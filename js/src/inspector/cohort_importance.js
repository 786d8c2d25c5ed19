// @ts-check
// The held-out Importance view per cohort (anywidget-style module rendered
// over the inspector's mirror, like the embedded widgets): each cohort's
// permutation importance per feature as a dot with its ± std whisker, one
// colour per cohort (as in the header and the Effects split), its rows in
// the legend, a small cohort grey with a note. Run and Stop, the scorer
// drawn, a click on a feature selects it. It draws `_cohort_chart` as Python
// made it (inspector/cohort_data.js).

import { createDotPlot } from "../charts/dot_plot.js";
import { bindRunStop, runStopButtons, saveOnChange } from "../ui/controls.js";
import { h, listenerBag } from "../ui/dom.js";
import { bindFeatureSelection } from "../ui/feature_selection.js";
import { frameScheduler } from "../ui/frame.js";
import { createViewGuard, guardRender } from "../ui/guard.js";
import { bindModel } from "../ui/model.js";
import { createStatus, errorMessage, statusText } from "../ui/status.js";
import { createTooltip } from "../ui/tooltip.js";
import { cohortChart, smallNote } from "./cohort_data.js";

const LIVE_TRAITS = [
  "status",
  "progress",
  "error",
  "error_details",
  "_eta_seconds",
  "_phase",
  "_elapsed_seconds",
  "_cohort_chart",
  "scorer",
];

/**
 * The caption: what a dot and its whisker are, the repeats done, the
 * features left out.
 *
 * @param {import("./cohort_data.js").CohortChart} chart
 * @returns {string}
 */
export function cohortCaption(chart) {
  const parts = [
    `${chart.cohorts.length} cohorts of the held-out rows, each permuted and scored on its own rows`,
    `dot: mean importance (${chart.scorer}), whisker ± std over ${chart.repeatsDone} of ${chart.nRepeats} repeats`,
  ];
  if (chart.nHidden > 0) parts.push(`${chart.nHidden} less important features not drawn`);
  return parts.join(" · ");
}

/** @param {import("../ui/guard.js").ViewProps} props */
function render({ model, el }) {
  const dom = listenerBag();
  const guard = createViewGuard("mci");
  const binding = bindModel(model, { guard });
  const buttons = runStopButtons("mci");
  const scorer = h("select", {
    testid: "mci-scorer",
    attrs: { "aria-label": "Scorer drawn" },
  });
  const status = createStatus("mci");
  const title = h("h4", { className: "mi-effects-title", text: "Importance per cohort" });
  const caption = h("div", { className: "icw-caption", testid: "mci-caption" });
  const note = h("p", { className: "iw-note", testid: "mci-small-note" });
  const chartHost = h("div", { className: "icw-chart-host mci-chart", testid: "mci-chart" });
  chartHost.style.position = "relative";
  const root = h(
    "div",
    { className: "inspectwidgets iw-cohort-importance", testid: "mci-root" },
    [
      title,
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
  const tooltip = createTooltip(chartHost, { testid: "mci-tooltip" });
  const chart = createDotPlot(chartHost, { tooltip });
  bindRunStop(buttons, { model, binding, dom });
  saveOnChange(scorer, "scorer", { model, binding, dom });
  const picked = bindFeatureSelection(root, { model, binding, dom });

  function draw() {
    const state = String(model.get("status") ?? "idle");
    const drawn = cohortChart(model.get("_cohort_chart"));
    root.setAttribute("data-status", state);
    root.setAttribute("data-cohorts", drawn ? drawn.cohorts.join("|") : "");
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
        ...names.map((name) => h("option", { text: name, attrs: { value: name } })),
      );
    scorer.value = drawn?.scorer ?? "";
    scorer.hidden = names.length < 2;
    chartHost.hidden = drawn === null;
    caption.textContent = drawn ? cohortCaption(drawn) : "";
    note.textContent = drawn ? smallNote(drawn) : "";
    note.hidden = note.textContent === "";
    if (drawn)
      chart.update({
        features: drawn.features,
        measures: drawn.measures,
        flags: drawn.features.map(() => []),
        axisTitle: `importance within each cohort: drop in ${drawn.scorer}`,
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
