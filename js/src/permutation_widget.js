// @ts-check
// Front end of PermutationImportanceWidget (anywidget ESM module).
//
// Draws what the traits hold: controls that read and write the public traits,
// a progress line from the status traits, and the chart or table of `_chart`
// for the displayed scorer. Switching the displayed scorer or the kind of chart
// needs no Python: every scorer's result is already in `_chart`.
//
// "Split by" (a column of 2 to 10 values) reruns through Python with one
// dot per subgroup for each feature (permutation/split_data.js,
// charts/grouped_importance.js); the views that offer no column hide it.
//
// Feature and scorer choices are staged and sent together by "Apply" (or by
// "Run"), so a series of clicks starts one computation, not one per click.
//
// This module wires the model and the DOM together; the pieces are in
// permutation/: the controls (controls.js), the staged choices
// (selection.js), the output panel (output_panel.js, with its table in
// results_table.js) and the decoding of `_chart` (permutation_data.js).

import "./ui/theme.css";

import { buildControls, readTopK } from "./permutation/controls.js";
import { createOutputPanel } from "./permutation/output_panel.js";
import {
  progressText,
  scorerResult,
  topFeatures,
} from "./permutation/permutation_data.js";
import { createSelection } from "./permutation/selection.js";
import { isSplit, splitResult } from "./permutation/split_data.js";
import { h, listenerBag } from "./ui/dom.js";
import { commitOnEnter, fillSelect } from "./ui/controls.js";
import { bindFeatureSelection } from "./ui/feature_selection.js";
import { frameScheduler } from "./ui/frame.js";
import { createViewGuard, guardRender, messageOf } from "./ui/guard.js";
import { bindModel } from "./ui/model.js";
import { createStatus, errorMessage } from "./ui/status.js";
import { createWorkload } from "./ui/workload.js";
import "./permutation_widget.css";
import { nameOption } from "./charts/format.js";

/** Traits that change the progress line, the status and the chart. */
const LIVE_TRAITS = [
  "status",
  "progress",
  "error",
  "error_details",
  "_repeats_done",
  "_repeats_total",
  "_eta_seconds",
  "_phase",
  "_elapsed_seconds",
  "_chart",
];

/**
 * Build the DOM. Returns the root and the parts the widget updates; the
 * repeats input is bound to the model through `context`.
 *
 * @param {Parameters<typeof buildControls>[0]} context
 * @param {ReturnType<typeof createViewGuard>} guard
 */
function buildDom(context, guard) {
  const root = h("div", {
    className: "inspectwidgets inspectwidgets-permutation",
    testid: "piw-root",
  });
  const controls = buildControls(context);
  const status = createStatus("piw");
  status.bar.append(createWorkload("piw", context).node);
  const output = createOutputPanel();
  root.append(
    controls.node,
    status.bar,
    guard.node,
    status.error,
    status.staleNote,
    output.node,
  );
  guard.attach({ root, statusBar: status.bar });
  return { root, controls, status, output };
}

/** @param {import("./ui/guard.js").ViewProps} props */
function render({ model, el }) {
  const dom = listenerBag();
  const guard = createViewGuard("piw");
  const binding = bindModel(model, { guard });
  const onModel = binding.on;
  const { save, list } = binding;
  const ui = buildDom({ model, binding, dom }, guard);
  const { controls } = ui;
  el.append(ui.root);

  const selection = createSelection(controls, { model, binding });
  const picked = bindFeatureSelection(ui.root, { model, binding, dom });

  // ---- Controls --------------------------------------------------------

  function syncScorer() {
    const scoring = list("scoring");
    const current = String(model.get("scorer") ?? "");
    const names =
      scoring.includes(current) || current === ""
        ? scoring
        : [...scoring, current];
    controls.scorer.replaceChildren(
      ...names.map((name) => nameOption(name)),
    );
    controls.scorer.value = current;
    controls.scorer.disabled = names.length < 2;
  }

  function syncKind() {
    controls.kinds.setValue(model.get("kind"));
  }

  // The switch shows where the widget computes both methods (not the
  // cross-validated and out-of-bag views).
  function syncMethod() {
    controls.methods.setValue(String(model.get("method") ?? "marginal"));
    controls.methods.node.hidden = list("_method_options").length < 2;
  }

  // "Split by": its columns, hidden when the view offers none; the kinds
  // apply to the unsplit chart only, and a split permutes over each
  // subgroup's rows (marginal), so it and the conditional method exclude
  // each other.
  const NONE = "";
  function syncSplit() {
    const options = list("_split_options");
    const value = model.get("split_by");
    fillSelect(
      controls.splitBy.select,
      [
        [NONE, "— none —"],
        ...options.map((c) => /** @type {[string, string]} */ ([c, c])),
      ],
      value == null ? NONE : String(value),
    );
    controls.splitBy.field.hidden = options.length === 0;
    for (const button of controls.kinds.buttons.values())
      button.disabled = value != null;
    const conditional = controls.methods.buttons.get("conditional");
    if (conditional) conditional.disabled = value != null;
    controls.splitBy.select.disabled = model.get("method") === "conditional";
  }

  // ---- Live part: progress, status, chart (one redraw per frame) --------

  function drawLive() {
    const status = String(model.get("status") ?? "idle");
    const repeatsDone = model.get("_repeats_done") ?? 0;
    const repeatsTotal = model.get("_repeats_total") ?? 0;
    ui.root.setAttribute("data-status", status);
    ui.root.setAttribute("data-repeats-done", String(repeatsDone));
    controls.stop.disabled = status !== "running";

    const chartValue = model.get("_chart") ?? {};
    const scorer = String(model.get("scorer") ?? "");
    let result = null;
    let split = null;
    let drawError = "";
    try {
      if (isSplit(chartValue)) split = splitResult(chartValue, scorer);
      else result = scorerResult(chartValue, scorer);
    } catch (err) {
      drawError = `Could not draw the result: ${messageOf(err)}`;
    }

    const features = (split ?? result)?.features ?? [];
    const hasResult = Object.keys(chartValue?.scorers ?? {}).length > 0;
    // After a failed run the last result stays up, dimmed and captioned.
    const stale = status === "error" && features.length > 0;
    ui.status.update({
      status,
      progress: model.get("progress"),
      text: progressText({
        status,
        repeatsDone,
        repeatsTotal,
        unit: String(chartValue?.unit ?? "repeats"),
        featuresDone: Number(chartValue?.n_features ?? 0),
        featuresPending: Number(chartValue?.n_pending ?? 0),
        etaSeconds: Number(model.get("_eta_seconds") ?? -1),
        phase: String(model.get("_phase") ?? ""),
        elapsedSeconds: Number(model.get("_elapsed_seconds") ?? 0),
        hasResult,
      }),
      message: errorMessage(status, model.get("error"), [drawError]),
      details: String(model.get("error_details") ?? ""),
      stale,
    });
    guard.run("the chart", () =>
      ui.output.update({
        result,
        scorer,
        kind: model.get("kind"),
        status,
        stale,
        hasResult,
        maxFeatures: model.get("max_features"),
        split,
        splitBy: String(model.get("split_by") ?? ""),
      }),
    );
    picked.mark();
  }

  const live = frameScheduler(
    guard.wrap("the widget", drawLive, { updatesStatus: true }),
  );
  const scheduleLive = live.schedule;
  const drawNow = live.now;

  // ---- DOM listeners ----------------------------------------------------

  dom.on(controls.filter, "input", () =>
    selection.setFilter(controls.filter.value),
  );
  dom.on(controls.all, "click", selection.selectShown);
  dom.on(controls.none, "click", selection.unselectShown);
  // "Top k": the button, or Enter in the k field.
  const selectTop = () => {
    const k = readTopK(controls.topK);
    let result = null;
    try {
      const chart = model.get("_chart");
      const scorer = String(model.get("scorer") ?? "");
      result = isSplit(chart)
        ? splitResult(chart, scorer)
        : scorerResult(chart, scorer);
    } catch {
      // Malformed result: result stays null, the option order is used.
    }
    selection.selectFeatures(topFeatures(result, list("_feature_options"), k));
  };
  dom.on(controls.top, "click", selectTop);
  commitOnEnter(controls.topK, selectTop, dom);
  dom.on(controls.scorer, "change", () =>
    save({ scorer: controls.scorer.value }),
  );
  for (const [kind, button] of controls.kinds.buttons) {
    dom.on(button, "click", () => {
      if (model.get("kind") !== kind) save({ kind });
    });
  }
  // A new method reruns at once, through Python (as a new `kind` redraws).
  for (const [method, button] of controls.methods.buttons) {
    dom.on(button, "click", () => {
      if (model.get("method") !== method) save({ method });
    });
  }
  dom.on(controls.splitBy.select, "change", () => {
    const value = controls.splitBy.select.value;
    save({ split_by: value === NONE ? null : value });
  });
  // One rule for every setting that starts work (docs/model_inspector.md):
  // it applies when you leave it. A box (Repeats) on Enter or when the focus
  // leaves it; a list of checkboxes likewise, so several clicks in it make
  // one choice; a menu or a switch when chosen. Apply applies the lists now.
  for (const group of [controls.featureGroup, controls.scorerGroup]) {
    dom.on(group, "focusout", (event) => {
      const next = /** @type {FocusEvent} */ (event).relatedTarget;
      if (!(next instanceof Node && group.contains(next))) selection.apply();
    });
    dom.on(group, "keydown", (event) => {
      const { key, target } = /** @type {KeyboardEvent} */ (event);
      if (key !== "Enter" || !(target instanceof HTMLInputElement)) return;
      if (target.type !== "checkbox") return; // the filter and k have their own
      event.preventDefault();
      event.stopPropagation();
      selection.apply();
    });
  }
  dom.on(controls.apply, "click", selection.apply);
  dom.on(controls.run, "click", () => {
    if (selection.problems().length > 0) return; // never run on an empty list
    // Staged choices are sent instead: changing them makes Python rerun.
    if (!selection.apply()) binding.increment("_run_requests");
  });
  dom.on(controls.stop, "click", () => {
    if (model.get("status") === "running") binding.increment("_stop_requests");
  });

  // ---- Model listeners --------------------------------------------------

  onModel("_feature_options", selection.syncFeatureOptions);
  onModel("features", selection.followFeatures);
  onModel("_scorer_options", selection.syncScorerOptions);
  onModel("scoring", () => {
    selection.followScoring();
    syncScorer();
  });
  onModel("scorer", () => {
    syncScorer();
    drawNow();
  });
  onModel("kind", () => {
    syncKind();
    drawNow();
  });
  onModel("method", () => {
    syncMethod();
    syncSplit();
  });
  onModel("_method_options", syncMethod);
  onModel("split_by", syncSplit);
  onModel("_split_options", syncSplit);
  onModel("max_features", scheduleLive);
  for (const name of LIVE_TRAITS) onModel(name, scheduleLive);

  selection.syncFeatureOptions();
  selection.syncScorerOptions();
  syncScorer();
  syncKind();
  syncMethod();
  syncSplit();
  drawNow();

  return () => {
    binding.removeAll();
    dom.removeAll();
    live.cancel();
    selection.destroy();
    ui.output.destroy();
    ui.root.remove();
  };
}

export default { render: guardRender(render) };
