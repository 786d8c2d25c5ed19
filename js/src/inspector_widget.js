// @ts-check
// Front end of ModelInspector (anywidget ESM module).
//
// The header, the tabs (Importance, Comparison), the Effects panel below
// them, and one status line. Each view is the widget's own front end
// (permutation_widget.js, comparison_widget.js, pd_widget.js), rendered with
// a model proxy over the inspector's mirror of that widget's traits
// (inspector/sub_model.js); a view is rendered the first time it is shown.
// The selection (`selected_features`) is the inspector's trait, shared by
// every view: clicking a feature in any chart selects it, and the Effects
// panel draws it.

import "./ui/theme.css";

import { isolate } from "./charts/format.js";
import comparisonWidget from "./comparison_widget.js";
import { createCohortEditor } from "./inspector/cohort_editor.js";
import { createHeader } from "./inspector/header.js";
import modelsEffects from "./inspector/models_effects.js";
import modelsImportance from "./inspector/models_importance.js";
import { subModel } from "./inspector/sub_model.js";
import pdWidget from "./pd_widget.js";
import permutationWidget from "./permutation_widget.js";
import { disclosureButton, segmentedSwitch } from "./ui/controls.js";
import { h, listenerBag } from "./ui/dom.js";
import { frameScheduler } from "./ui/frame.js";
import { createViewGuard, guardRender } from "./ui/guard.js";
import { bindModel } from "./ui/model.js";
import { statusText } from "./ui/status.js";
import "./inspector_widget.css";

/**
 * The views: their trait, their widget module and their name.
 *
 * @type {Record<string, {trait: string, label: string,
 *   widget: {render: (props: import("./ui/guard.js").ViewProps) => () => void}}>}
 */
export const VIEWS = {
  importance: { trait: "_importance", widget: permutationWidget, label: "Importance" },
  importance_train: {
    trait: "_importance_train",
    widget: permutationWidget,
    label: "Importance (training rows)",
  },
  importance_cv: {
    trait: "_importance_cv",
    widget: permutationWidget,
    label: "Importance (cross-validated)",
  },
  importance_oob: {
    trait: "_importance_oob",
    widget: permutationWidget,
    label: "Importance (out-of-bag)",
  },
  comparison: { trait: "_comparison", widget: comparisonWidget, label: "Comparison" },
  effects: { trait: "_effects", widget: pdWidget, label: "Effects" },
  effects_models: {
    trait: "_effects_models",
    widget: modelsEffects,
    label: "Every model's effects",
  },
};
const TABS = ["importance", "comparison"];

/**
 * The module that draws view `key`: its widget's, but for the held-out
 * Importance view of several models, whose mirror holds `_models_chart`
 * (one run of every model, drawn by inspector/models_importance.js).
 *
 * @param {string} key
 * @param {Record<string, unknown> | undefined} state the view's mirrored state.
 */
export function viewWidget(key, state) {
  if (key === "importance" && state && "_models_chart" in state) return modelsImportance;
  return VIEWS[key].widget;
}

/**
 * The `importance_on` options: their view, label and what they show.
 *
 * @type {Record<string, {view: string, label: string, title: string}>}
 */
export const IMPORTANCE_ON = {
  test: {
    view: "importance",
    label: "held-out",
    title: "Permutation importance on the held-out rows.",
  },
  train: {
    view: "importance_train",
    label: "training rows",
    title: "Permutation importance on the training rows.",
  },
  cv: {
    view: "importance_cv",
    label: "cross-validated",
    title:
      "Cross-validated on the training data, a clone fitted per fold; bars ±1.96 std across folds.",
  },
  oob: {
    view: "importance_oob",
    label: "out-of-bag",
    title: "Out-of-bag: each member of the ensemble scored on the training rows it did not see.",
  },
};

/**
 * Each `importance_on` option's button state: disabled, with Python's
 * reason as its tooltip, when the model or data do not allow it.
 *
 * @param {Record<string, string>} reasons the `_importance_options` trait
 *   ("" for an available option).
 * @returns {{value: string, disabled: boolean, title: string}[]}
 */
export function importanceOptions(reasons) {
  return Object.entries(IMPORTANCE_ON).map(([value, option]) => {
    const reason = String(reasons?.[value] ?? (value === "test" ? "" : "unavailable"));
    return {
      value,
      disabled: reason !== "",
      title: reason === "" ? option.title : `Unavailable: ${reason}`,
    };
  });
}

/**
 * The one status line: each rendered view's status, "·"-separated.
 *
 * @param {[string, Record<string, unknown>][]} views
 *   `[label, child state]` pairs.
 * @returns {string}
 */
export function statusLine(views) {
  return views
    .filter(([, state]) => state && state.status)
    .map(([label, state]) => {
      const status = String(state.status);
      const percent = `${Math.round(100 * (Number(state.progress) || 0))}%`;
      return `${label}: ${statusText({
        status,
        count: percent,
        etaSeconds: Number(state._eta_seconds ?? -1),
        phase: String(state._phase ?? ""),
        elapsedSeconds: Number(state._elapsed_seconds ?? 0),
        hasResult: status !== "idle",
      })}`;
    })
    .join(" · ");
}

/**
 * The Effects panel's title: the feature(s) drawn, and the selection when
 * its curve is not drawn yet (or, in a saved page, cannot be computed).
 *
 * @param {string[]} selected
 * @param {string[]} drawn the features of the curve shown.
 * @param {boolean} standalone a saved page, without a kernel.
 * @returns {string}
 */
export function effectsTitleText(selected, drawn, standalone) {
  /** @param {string[]} features */
  const names = (features) => features.map(isolate).join(" and ");
  if (selected.length === 0) return "Effects";
  if (drawn.length === 0 || names(drawn) === names(selected))
    return `Effects of ${names(selected)}`;
  return standalone
    ? `Effects of ${names(drawn)} (${names(selected)} needs a kernel to compute)`
    : `Effects of ${names(drawn)}; computing ${names(selected)}…`;
}

/**
 * What the status line needs of a view's model.
 *
 * @param {import("./ui/model.js").WidgetModel} proxy
 * @returns {Record<string, unknown>}
 */
function childStatus(proxy) {
  const names = ["status", "progress", "_eta_seconds", "_phase", "_elapsed_seconds"];
  return Object.fromEntries(names.map((name) => [name, proxy.get(name)]));
}

/** @param {import("./ui/guard.js").ViewProps} props */
function render({ model, el }) {
  const dom = listenerBag();
  const guard = createViewGuard("mi");
  const binding = bindModel(model, { guard });

  const header = createHeader({ model, binding, dom });
  const cohortEditor = createCohortEditor({ model, dom });
  const tabs = segmentedSwitch(
    TABS.map((key) => [key, VIEWS[key].label]),
    "mi-view",
    "View",
  );
  const rows = segmentedSwitch(
    Object.entries(IMPORTANCE_ON).map(([value, option]) => [value, option.label]),
    "mi-importance-on",
    "Importance on",
  );
  const selection = h("span", { className: "mi-selection", testid: "mi-selection" });
  const clear = h("button", {
    testid: "mi-clear",
    text: "Clear",
    attrs: { type: "button", "aria-label": "Clear the selection" },
  });
  // The first screen is the verdict, the bars and the selected feature's
  // effect (#52): the settings (every view's controls, the rows used) and
  // the cohort form open on demand.
  const settings = disclosureButton(
    "mi-settings",
    "Settings",
    "Features, scorers, repeats, the effects' settings and the rows used",
    dom,
    (open) => root.classList.toggle("mi-settings-open", open),
  );
  const cohortsToggle = disclosureButton(
    "mi-cohorts-toggle",
    "Cohorts",
    "Define cohorts: named rules on the rows, scored and split by in every view",
    dom,
    (open) => root.classList.toggle("mi-cohorts-open", open),
  );
  const status = h("div", {
    className: "mi-status",
    testid: "mi-status",
    attrs: { role: "status", "aria-live": "polite" },
  });
  const hosts = Object.fromEntries(
    Object.keys(VIEWS).map((key) => [
      key,
      h("div", { className: `mi-panel mi-panel-${key}`, testid: `mi-panel-${key}` }),
    ]),
  );
  const effectsTitle = h("h4", {
    className: "mi-effects-title",
    testid: "mi-effects-title",
  });
  const effectsHint = h("p", {
    className: "iw-note",
    testid: "mi-effects-hint",
    text: "Click a bar, dot or cell (or press Enter on a focused row) to see that feature's effects.",
  });
  const root = h("div", { className: "inspectwidgets iw-inspector", testid: "mi-root" }, [
    header.node,
    h("div", { className: "mi-tabs" }, [
      tabs.node,
      rows.node,
      settings.button,
      cohortsToggle.button,
    ]),
    cohortEditor.node,
    // What is shown, under the controls that choose it: the views' status
    // and the selection. In the toolbar the selection wrapped to a line of
    // its own below 890 px (#52); here it shares the status's line.
    h("div", { className: "mi-shown" }, [
      status,
      h("span", { className: "mi-selected", testid: "mi-selected" }, [
        selection,
        clear,
      ]),
    ]),
    guard.node,
    // Side by side where the output is wide enough (inspector_widget.css):
    // the view shown, and the selected feature's effects.
    h("div", { className: "mi-body" }, [
      h("div", { className: "mi-main" }, [
        hosts.importance,
        hosts.importance_train,
        hosts.importance_cv,
        hosts.importance_oob,
        hosts.comparison,
      ]),
      h("div", { className: "mi-effects", testid: "mi-effects" }, [
        effectsTitle,
        effectsHint,
        hosts.effects,
        hosts.effects_models,
      ]),
    ]),
  ]);
  guard.attach({ root, statusBar: status });
  el.append(root);

  /**
   * Rendered views: key -> {proxy, cleanup}.
   *
   * @type {Map<string, {proxy: ReturnType<typeof subModel>,
   *   cleanup: () => void}>}
   */
  const rendered = new Map();
  /** @param {string} key */
  function ensureRendered(key) {
    if (rendered.has(key) || !model.get(VIEWS[key].trait)?.state) return;
    const proxy = subModel(model, VIEWS[key].trait, {
      // The cohorts too, and whether a kernel checks them: Effects makes a
      // cluster's rule a cohort (`set_cohorts`, as the header's form).
      shared: ["selected_features", "cohorts", "_standalone"],
      send: (changes) => model.send({ view: key, set: changes }),
    });
    const widget = viewWidget(key, model.get(VIEWS[key].trait)?.state);
    const cleanup = widget.render({ model: proxy, el: hosts[key] });
    proxy.on("change:status", live.schedule);
    proxy.on("change:progress", live.schedule);
    rendered.set(key, { proxy, cleanup });
  }

  const tab = () => (TABS.includes(model.get("view")) ? model.get("view") : "importance");

  /** The Importance view of `importance_on`, when Python made it. */
  function importanceView() {
    const view = IMPORTANCE_ON[model.get("importance_on")]?.view ?? "importance";
    return model.get(VIEWS[view].trait)?.state ? view : "importance";
  }

  function shownViews() {
    const view = tab() === "importance" ? importanceView() : tab();
    const shown = [view];
    const selected = binding.list("selected_features");
    if (selected.length > 0) shown.push("effects");
    // Several models: each one's curve of the selected feature, or surface
    // of the selected pair.
    if (selected.length > 0 && model.get("_effects_models")?.state)
      shown.push("effects_models");
    return shown;
  }

  function draw() {
    const hasComparison = Boolean(model.get("_comparison")?.state);
    const comparisonTab = tabs.buttons.get("comparison");
    if (comparisonTab) {
      comparisonTab.disabled = !hasComparison;
      comparisonTab.title = hasComparison ? "" : "Pass X_train and y_train to compare measures.";
    }
    const shown = shownViews();
    tabs.setValue(tab());
    const on = Object.keys(IMPORTANCE_ON).find((k) => IMPORTANCE_ON[k].view === shown[0]);
    rows.setValue(on ?? "test");
    rows.node.hidden = tab() !== "importance";
    for (const option of importanceOptions(model.get("_importance_options"))) {
      const button = rows.buttons.get(option.value);
      if (!button) continue; // one per IMPORTANCE_ON key: never
      button.disabled = option.disabled;
      button.title = option.title;
    }
    for (const key of Object.keys(VIEWS)) {
      if (shown.includes(key)) ensureRendered(key);
      hosts[key].hidden = !shown.includes(key);
    }
    const selected = binding.list("selected_features");
    selection.textContent = selected.length ? `Selected: ${selected.map(isolate).join(" × ")}` : "";
    clear.hidden = selected.length === 0;
    effectsTitle.textContent = effectsTitleText(
      selected,
      model.get("_effects")?.state?._curve?.features ?? [],
      Boolean(model.get("_standalone")),
    );
    effectsHint.hidden = selected.length > 0;
    // A saved page cannot add cohorts (no kernel checks their rules).
    cohortsToggle.button.hidden = Boolean(model.get("_standalone"));
    header.update(model.get("_header"));
    cohortEditor.update();
    /** @type {[string, Record<string, unknown>][]} */
    const states = [];
    for (const key of shown) {
      const view = rendered.get(key);
      if (view) states.push([VIEWS[key].label, childStatus(view.proxy)]);
    }
    const line = statusLine(states);
    status.textContent = line;
    root.setAttribute("data-view", tab());
    root.setAttribute("data-shown", shown.join(" "));
    root.setAttribute("data-rendered", [...rendered.keys()].join(" "));
  }
  const live = frameScheduler(
    guard.wrap("the inspector", draw, { updatesStatus: true }),
  );

  for (const [key, button] of tabs.buttons) {
    dom.on(button, "click", () => {
      if (!button.disabled && model.get("view") !== key) binding.save({ view: key });
    });
  }
  for (const [value, button] of rows.buttons) {
    dom.on(button, "click", () => {
      if (!button.disabled && model.get("importance_on") !== value)
        binding.save({ importance_on: value });
    });
  }
  dom.on(clear, "click", () => binding.save({ selected_features: [] }));
  binding.on(
    [
      "view",
      "importance_on",
      "_importance_options",
      "selected_features",
      "_header",
      "max_rows",
      "cohorts",
      "_cohorts_error",
      "_cohort_fields",
    ],
    live.now,
  );
  binding.on(
    Object.values(VIEWS).map((v) => v.trait),
    live.schedule,
  );
  live.now();

  return () => {
    live.cancel();
    binding.removeAll();
    dom.removeAll();
    for (const { proxy, cleanup } of rendered.values()) {
      cleanup?.();
      proxy.destroy();
    }
    rendered.clear();
    root.remove();
  };
}

export default { render: guardRender(render) };
