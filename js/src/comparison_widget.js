// @ts-check
// Front end of ImportanceComparisonWidget (anywidget ESM module).
//
// Draws what the traits hold: the controls read and write the public traits
// (`scoring`, `n_repeats`, `sort_by`, `correlation_threshold`, `view`), the status block
// follows the status traits, and one of three views draws the payloads:
// "measures"
// (`_measures`), "classes" (`_per_class`) and "correlation" (`_correlation`
// and `_groups`). Only the shown view is drawn; bursts of trait changes are
// coalesced into one redraw per animation frame.

import "./ui/theme.css";

import {
  NO_PER_CLASS,
  NO_PER_CLASS_HINT,
  createClassesView,
} from "./comparison/classes_view.js";
import {
  correlationResult,
  groupsResult,
  isEmpty,
  measuresResult,
  percent,
  perClassResult,
  sortChoices,
  sortedBy,
} from "./comparison/comparison_data.js";
import { createCorrelationView } from "./comparison/correlation_view.js";
import { createMeasuresView } from "./comparison/measures_view.js";
import {
  bindRunStop,
  repeatsInput,
  runStopButtons,
  saveOnChange,
  segmentedSwitch,
} from "./ui/controls.js";
import { h, listenerBag } from "./ui/dom.js";
import { bindFeatureSelection } from "./ui/feature_selection.js";
import { frameScheduler } from "./ui/frame.js";
import { createViewGuard, guardRender, messageOf } from "./ui/guard.js";
import { bindModel } from "./ui/model.js";
import { createStatus, errorMessage, statusText } from "./ui/status.js";
import { createWorkload } from "./ui/workload.js";
import { createTooltip } from "./ui/tooltip.js";
import "./comparison_widget.css";
import { nameOption } from "./charts/format.js";

/** @type {[string, string][]} */
const VIEWS = [
  ["measures", "Measures"],
  ["classes", "Per class"],
  ["correlation", "Correlation"],
];

/** Traits that change the status block or the drawn view. */
const LIVE_TRAITS = [
  "status",
  "progress",
  "error",
  "error_details",
  "_eta_seconds",
  "_phase",
  "_elapsed_seconds",
  "_measures",
  "_per_class",
  "_correlation",
  "_groups",
  "correlation_threshold",
  "sort_by",
];

/**
 * The view to draw: the trait's, or "measures" for an unknown one.
 *
 * @param {unknown} view
 * @returns {string}
 */
function shownView(view) {
  return typeof view === "string" && VIEWS.some(([name]) => name === view)
    ? view
    : "measures";
}

/** @param {import("./ui/guard.js").ViewProps} props */
function render({ model, el }) {
  const dom = listenerBag();
  const guard = createViewGuard("icw");
  const binding = bindModel(model, { guard });
  const context = { model, binding, dom };

  // ---- DOM ----------------------------------------------------------------

  const root = h("div", {
    className: "inspectwidgets inspectwidgets-comparison",
    testid: "icw-root",
  });
  const scoring = h("select", {
    testid: "icw-scoring",
    attrs: { "aria-label": "Scorer" },
  });
  const repeats = repeatsInput("icw-repeats", context);
  const sortBy = h("select", {
    testid: "icw-sort",
    attrs: {
      "aria-label": "Sort features by",
      title: "The measure ordering the features, largest first",
    },
  });
  // The conditional measure is computed on demand (another run of the
  // test rows): a checkbox, sent at once.
  const conditional = h("input", {
    testid: "icw-conditional",
    attrs: { type: "checkbox" },
  });
  const views = segmentedSwitch(VIEWS, "icw-view", "View");
  // VIEWS lists "classes": the Map has its button.
  const classesButton = /** @type {HTMLButtonElement} */ (
    views.buttons.get("classes")
  );
  const viewHint = h("span", {
    className: "iw-hint",
    testid: "icw-view-hint",
    text: NO_PER_CLASS_HINT,
    attrs: { title: NO_PER_CLASS },
  });
  const { run, stop } = runStopButtons("icw");
  const status = createStatus("icw");
  status.bar.append(createWorkload("icw", context).node);
  const empty = h("p", { className: "iw-note", testid: "icw-empty" });
  const output = h("div", { className: "icw-output" });
  const tooltip = createTooltip(output, { testid: "icw-tooltip" });

  root.append(
    h("div", { className: "icw-controls" }, [
      h("label", { className: "iw-field" }, [
        h("span", { text: "Scorer" }),
        scoring,
      ]),
      repeats.field,
      h("label", { className: "iw-field" }, [
        h("span", { text: "Sort by" }),
        sortBy,
      ]),
      h(
        "label",
        {
          className: "iw-field icw-conditional",
          attrs: {
            title:
              "Also compute conditional permutation importance on the test rows: each feature permuted only among rows alike in the features that predict it",
          },
        },
        [conditional, h("span", { text: "Conditional" })],
      ),
      h("div", { className: "icw-view-switch" }, [views.node, viewHint]),
      h("div", { className: "iw-buttons" }, [run, stop]),
    ]),
    status.bar,
    guard.node,
    status.error,
    status.staleNote,
    output,
  );
  guard.attach({ root, statusBar: status.bar });

  const panels = {
    measures: createMeasuresView({ tooltip }),
    classes: createClassesView({ tooltip }),
    correlation: createCorrelationView({
      tooltip,
      onThreshold: (value) => binding.save({ correlation_threshold: value }),
    }),
  };
  output.append(empty, ...Object.values(panels).map((p) => p.node));
  el.append(root);
  const picked = bindFeatureSelection(root, context);

  // ---- Controls -----------------------------------------------------------

  function syncScoring() {
    const options = binding.list("_scorer_options");
    const current = String(model.get("scoring") ?? "");
    const names =
      current === "" || options.includes(current)
        ? options
        : [...options, current];
    scoring.replaceChildren(
      ...names.map((name) => nameOption(name)),
    );
    scoring.value = current;
    scoring.disabled = names.length < 2;
  }

  let sortKeys = "";
  function syncSort() {
    const current = String(model.get("sort_by") ?? "");
    const choices = sortChoices(model.get("_measures"), current);
    const keys = JSON.stringify(choices);
    // Rebuilt only when the choices change (not on every repeat), so an open
    // list is not reset.
    if (keys !== sortKeys) {
      sortKeys = keys;
      sortBy.replaceChildren(
        ...choices.map(([key, label]) =>
          h("option", { text: label, attrs: { value: key } }),
        ),
      );
    }
    sortBy.value = current;
    sortBy.disabled = choices.length < 2;
  }

  function syncViewSwitch() {
    views.setValue(shownView(model.get("view")));
    const perClass = !isEmpty(model.get("_per_class"));
    classesButton.disabled = !perClass;
    classesButton.title = perClass ? "" : NO_PER_CLASS;
    viewHint.hidden = perClass;
  }

  // ---- Live part: status and the shown view (one redraw per frame) --------

  /**
   * Decode a payload; a malformed one is reported, not thrown.
   *
   * @template T
   * @param {(value: any) => T} decoder
   * @param {string} name
   * @param {string[]} problems
   * @returns {T | null}
   */
  function decode(decoder, name, problems) {
    try {
      return decoder(model.get(name));
    } catch (err) {
      problems.push(`Could not draw ${name}: ${messageOf(err)}`);
      return null;
    }
  }

  /**
   * Draw the shown view's panel; returns what it drew (0: nothing).
   *
   * @param {string} view
   * @param {string[]} problems
   */
  function drawPanel(view, problems) {
    if (view === "measures") {
      const sortBy = String(model.get("sort_by") ?? "");
      return panels.measures.update(
        decode((/** @type {import("./ui/model.js").TraitPayload} */ v) => sortedBy(measuresResult(v), sortBy), "_measures", problems),
      );
    }
    if (view === "classes")
      return panels.classes.update(decode(perClassResult, "_per_class", problems));
    return panels.correlation.update({
      correlation: decode(correlationResult, "_correlation", problems),
      groups: decode(groupsResult, "_groups", problems),
      correlationThreshold: Number(model.get("correlation_threshold")) || 0,
    });
  }

  function drawLive() {
    const state = String(model.get("status") ?? "idle");
    const view = shownView(model.get("view"));
    root.setAttribute("data-status", state);
    root.setAttribute("data-view", view);
    stop.disabled = state !== "running";
    syncViewSwitch();

    /** @type {string[]} */
    const problems = [];
    for (const [name, panel] of Object.entries(panels))
      panel.node.hidden = name !== view;
    const drawn = guard.run("the chart", () => drawPanel(view, problems)) ?? 0;

    const hasResult = !isEmpty(model.get("_measures"));
    // After a failed run the last result stays up, dimmed and captioned.
    const stale = state === "error" && drawn > 0;
    output.classList.toggle("icw-stale", stale);
    status.update({
      status: state,
      progress: model.get("progress"),
      text: statusText({
        status: state,
        count: percent(model.get("progress")),
        etaSeconds: Number(model.get("_eta_seconds") ?? -1),
        phase: String(model.get("_phase") ?? ""),
        elapsedSeconds: Number(model.get("_elapsed_seconds") ?? 0),
        hasResult,
      }),
      message: errorMessage(state, model.get("error"), problems),
      details: String(model.get("error_details") ?? ""),
      stale,
    });

    empty.hidden = view !== "measures" || hasResult;
    empty.textContent =
      state === "running"
        ? "Computing the first repeat…"
        : "No result yet: press Run.";
    picked.mark();
  }

  const live = frameScheduler(
    guard.wrap("the widget", drawLive, { updatesStatus: true }),
  );

  // ---- Listeners -----------------------------------------------------------

  saveOnChange(scoring, "scoring", context);
  saveOnChange(sortBy, "sort_by", context);
  saveOnChange(conditional, "conditional", context);
  const syncConditional = () => {
    conditional.checked = Boolean(model.get("conditional"));
  };
  for (const [view, button] of views.buttons) {
    dom.on(button, "click", () => {
      if (!button.disabled && model.get("view") !== view)
        binding.save({ view });
    });
  }
  bindRunStop({ run, stop }, context);
  // Leaving a chart hides the tooltip it showed.
  dom.on(output, "pointerleave", () => tooltip.hide());

  binding.on(["_scorer_options", "scoring"], syncScoring);
  binding.on(["_measures", "sort_by"], syncSort);
  binding.on("conditional", syncConditional);
  binding.on("view", () => {
    tooltip.hide();
    live.now();
  });
  binding.on(LIVE_TRAITS, live.schedule);

  syncScoring();
  syncSort();
  syncConditional();
  live.now();

  return () => {
    binding.removeAll();
    dom.removeAll();
    live.cancel();
    for (const panel of Object.values(panels)) panel.destroy();
    tooltip.destroy();
    root.remove();
  };
}

export default { render: guardRender(render) };
