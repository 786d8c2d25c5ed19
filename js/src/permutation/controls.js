// @ts-check
// The permutation widget's controls: the features (filter, All / None / Top
// k, checklist), the scorers (checklist, the displayed scorer) and the run
// settings (repeats, kind of chart, split by, Apply / Run / Stop and the
// hint under them). Elements only; the widget wires them.

import {
  repeatsInput,
  runStopButtons,
  segmentedSwitch,
  selectField,
} from "../ui/controls.js";
import { h } from "../ui/dom.js";

// Values of the `kind` trait ("bar" and "box" as in
// PermutationImportanceDisplay.plot) and their button labels.
/** @type {[string, string][]} */
const KINDS = [
  ["bar", "Bars"],
  ["box", "Boxes"],
  ["table", "Table"],
];
const DEFAULT_TOP_K = 10;

// Values of the `method` trait, their labels and what each permutes.
/** @type {[string, string, string][]} */
const METHODS = [
  ["marginal", "Marginal", "Permute each feature over every row"],
  [
    "conditional",
    "Conditional",
    "Permute each feature only among rows alike in the features that predict it (its subgroups)",
  ],
];

/**
 * Build the controls. The repeats input is bound to the model through
 * `context`.
 *
 * @param {Parameters<typeof repeatsInput>[1]} context
 * @returns `node` (the controls' row) and the elements the widget updates
 *   or listens to.
 */
export function buildControls(context) {
  const ui = {};

  // Features: filter, All / None / Top k, checklist.
  ui.featureCount = h("span", { className: "piw-count" });
  ui.filter = h("input", {
    className: "piw-filter",
    testid: "piw-feature-filter",
    attrs: {
      type: "search",
      placeholder: "Filter features",
      "aria-label": "Filter features",
    },
  });
  ui.all = h("button", {
    text: "All",
    attrs: { type: "button", title: "Select every feature shown" },
  });
  ui.none = h("button", {
    text: "None",
    attrs: { type: "button", title: "Unselect every feature shown" },
  });
  ui.top = h("button", {
    testid: "piw-top",
    text: "Top",
    attrs: {
      type: "button",
      title: "Select the k most important features of the displayed scorer",
    },
  });
  ui.topK = h("input", {
    className: "piw-top-k",
    testid: "piw-top-k",
    attrs: {
      type: "number",
      min: 1,
      step: 1,
      value: DEFAULT_TOP_K,
      "aria-label": "k: how many features Top selects",
      title: "How many features Top selects",
    },
  });
  // The box's own visible label (#52: it had none).
  const topK = h("label", { className: "iw-field piw-top-k-field" }, [
    h("span", { text: "k" }),
    ui.topK,
  ]);
  ui.featureList = h("div", { className: "piw-list-host" });
  const features = h("section", { className: "piw-group piw-group-features" }, [
    h("div", { className: "piw-group-title" }, [
      h("span", { text: "Features" }),
      ui.featureCount,
    ]),
    ui.filter,
    h("div", { className: "iw-buttons piw-row-buttons" }, [
      ui.all,
      ui.none,
      ui.top,
      topK,
    ]),
    ui.featureList,
  ]);

  // Scorers: checklist and the displayed scorer.
  ui.scorerList = h("div", { className: "piw-list-host piw-list-host-short" });
  ui.scorer = h("select", {
    testid: "piw-scorer",
    attrs: { "aria-label": "Displayed scorer" },
  });
  ui.scorerCount = h("span", { className: "piw-count" });
  const scorers = h("section", { className: "piw-group piw-group-scorers" }, [
    h("div", { className: "piw-group-title" }, [
      h("span", { text: "Scorers" }),
      ui.scorerCount,
    ]),
    ui.scorerList,
    h("label", { className: "iw-field" }, [
      h("span", { text: "Show" }),
      ui.scorer,
    ]),
  ]);

  // Run settings, kind switch, actions.
  ui.repeats = repeatsInput("piw-repeats", context);
  ui.kinds = segmentedSwitch(KINDS, "piw-kind", "Chart");
  ui.methods = segmentedSwitch(
    METHODS.map(([value, label]) => [value, label]),
    "piw-method",
    "Permutation",
  );
  for (const [value, , title] of METHODS)
    ui.methods.buttons.get(value)?.setAttribute("title", title);
  // The columns to split by (hidden when the view offers none).
  ui.splitBy = selectField("piw-split-by", "Split by");
  ui.splitBy.select.setAttribute(
    "title",
    "Permutation importance within each subgroup of rows of this column (one dot per subgroup)",
  );
  ui.apply = h("button", {
    className: "piw-apply",
    testid: "piw-apply",
    text: "Apply",
    attrs: { type: "button" },
  });
  const { run: runButton, stop: stopButton } = runStopButtons("piw");
  ui.run = runButton;
  ui.stop = stopButton;
  ui.hint = h("p", {
    className: "iw-hint piw-hint",
    testid: "piw-hint",
    attrs: { "aria-live": "polite" },
  });
  const run = h("section", { className: "piw-group piw-group-run" }, [
    ui.repeats.field,
    ui.methods.node,
    ui.kinds.node,
    ui.splitBy.field,
    h("div", { className: "iw-buttons piw-row-buttons" }, [
      ui.apply,
      ui.run,
      ui.stop,
    ]),
    ui.hint,
  ]);
  // Focusable (not in the tab order) so that a click on a list's label keeps
  // the focus inside its group: leaving the group is what applies it.
  features.tabIndex = -1;
  scorers.tabIndex = -1;
  ui.featureGroup = features;
  ui.scorerGroup = scorers;
  ui.node = h("div", { className: "piw-controls" }, [features, scorers, run]);
  return ui;
}

/**
 * The k of "Top k": the input's whole number (at least 1, `DEFAULT_TOP_K`
 * when it holds none), written back to the input.
 *
 * @param {HTMLInputElement} input
 * @returns {number}
 */
export function readTopK(input) {
  const k = Math.max(1, Math.floor(Number(input.value)) || DEFAULT_TOP_K);
  input.value = String(k);
  return k;
}
