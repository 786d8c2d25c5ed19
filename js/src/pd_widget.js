// @ts-check
// Front end of PartialDependenceWidget (anywidget ESM module).
//
// Draws what the traits hold: controls that read and write the public traits
// (`features`, `kind`, `centered`, `target`, `scale`, `grid_resolution`,
// `n_ice`), the status block, a warning banner, and `_curve` as one of three
// charts: numeric 1-way (ICE canvas, PDP line, histogram with deciles),
// categorical 1-way (marks per category) or 2-way (heatmap with margins).
// The chart is rebuilt only when that kind of chart changes; a streaming run
// (grid_done growing) updates it in place, one redraw per animation frame.

import "./ui/theme.css";

import { observeResize } from "./charts/chart_base.js";
import { formatNumber, isolate } from "./charts/format.js";
import { createPdCategories } from "./pd/pd_categories.js";
import { createPdCurve } from "./pd/pd_curve.js";
import { curveResult, gridCount, isEmptyCurve } from "./pd/pd_data.js";
import { createPdOverview } from "./pd/pd_overview.js";
import { createSummaryPanel, summaryCaption, withRuleCohort } from "./pd/pd_summaries.js";
import { overviewResult } from "./pd/pd_overview_data.js";
import { createPdHeatmap } from "./pd/pd_heatmap.js";
import { warningActions, warningContent } from "./pd/pd_warning.js";
import {
  bindRunStop,
  fillSelect,
  integerInput,
  runStopButtons,
  saveOnChange,
  selectField,
} from "./ui/controls.js";
import { h, listenerBag } from "./ui/dom.js";
import { frameScheduler } from "./ui/frame.js";
import { createViewGuard, guardRender, messageOf } from "./ui/guard.js";
import { bindModel } from "./ui/model.js";
import { createStatus, errorMessage, statusText } from "./ui/status.js";
import { createWorkload } from "./ui/workload.js";
import { createTooltip } from "./ui/tooltip.js";
import "./pd_widget.css";

const NONE = ""; // value of the "— none —" option of the second feature
/** @type {[string, string][]} */
const ICE_MODES = [
  ["lines", "lines"],
  ["bands", "percentile bands"],
  ["clusters", "clusters"],
];
/** @type {[string, string][]} */
const KINDS = [
  ["average", "average (PDP)"],
  ["individual", "individual (ICE)"],
  ["both", "both"],
  ["ale", "accumulated local effects (ALE)"],
  ["average_and_ale", "PD and ALE"],
];
// Kinds a 2-way surface can draw: its average partial dependence, or the
// second-order ALE.
const TWO_WAY_KINDS = new Set(["average", "ale"]);
// The 1-way partial dependence kinds: for a pair Python computes the average.
const PD_KINDS = new Set(["average", "individual", "both"]);

/**
 * The kind dropdown's options and value: what the engine computes for `kind`
 * and the number of features. For a pair, the partial dependence kinds draw
 * the average surface; the overlay of PD and ALE has no pair form (Python
 * turns it into "ale" when a second feature is picked, and refuses it when
 * asked for with two), so it shows as a disabled option saying why.
 *
 * @param {string} kind the `kind` trait.
 * @param {boolean} twoWay
 * @returns {{options: [string, string][], value: string, disabled: string[]}}
 */
export function kindChoices(kind, twoWay) {
  if (!twoWay) return { options: KINDS, value: kind, disabled: [] };
  const options = KINDS.filter(([k]) => TWO_WAY_KINDS.has(k));
  if (PD_KINDS.has(kind)) return { options, value: "average", disabled: [] };
  if (TWO_WAY_KINDS.has(kind)) return { options, value: kind, disabled: [] };
  const label = KINDS.find(([k]) => k === kind)?.[1] ?? kind;
  /** @type {[string, string]} */
  const pairOnly = [kind, `${label} (one feature only)`];
  return {
    options: [...options, pairOnly],
    value: kind,
    disabled: [kind],
  };
}
/** @type {[string, string][]} */
const SCALES = [
  ["probability", "probability"],
  ["log_odds", "log-odds"],
];
/**
 * @typedef {import("./pd/pd_data.js").Curve1d
 *   | import("./pd/pd_data.js").Curve2d} Curve
 * @typedef {{update(curve: Curve): unknown, destroy(): void}} Chart
 *   `update` takes the curve of its own kind (chartKind picks the chart).
 */

/**
 * @type {Record<string, (host: HTMLElement,
 *   options: {tooltip: import("./ui/tooltip.js").Tooltip}) => Chart>}
 */
const CHARTS = {
  numeric: createPdCurve,
  categorical: createPdCategories,
  "2d": createPdHeatmap,
};

/** Traits that change the status block or the chart. */
const LIVE_TRAITS = [
  "status",
  "progress",
  "error",
  "error_details",
  "_eta_seconds",
  "_phase",
  "_elapsed_seconds",
  "_curve",
];

/**
 * Which chart draws `curve`: a key of CHARTS.
 *
 * @param {Curve} curve
 */
function chartKind(curve) {
  if (curve.mode === "2d") return "2d";
  return curve.x.categorical ? "categorical" : "numeric";
}

/** @param {import("./ui/guard.js").ViewProps} props */
function render({ model, el }) {
  const dom = listenerBag();
  const guard = createViewGuard("pdw");
  const binding = bindModel(model, { guard });
  const context = { model, binding, dom };

  // ---- DOM ----------------------------------------------------------------

  const root = h("div", {
    className: "inspectwidgets inspectwidgets-pd",
    testid: "pdw-root",
  });
  const feature = selectField("pdw-feature", "Feature");
  const feature2 = selectField("pdw-feature2", "and");
  const kind = selectField("pdw-kind", "Kind");
  const centered = h("input", {
    testid: "pdw-centered",
    attrs: { type: "checkbox", "aria-label": "Centered" },
  });
  const centeredField = h("label", { className: "iw-field" }, [
    centered,
    h("span", { text: "centered" }),
  ]);
  const iceSteps = h("input", {
    testid: "pdw-ice-steps",
    attrs: { type: "checkbox", "aria-label": "ICE at every split" },
  });
  const iceStepsField = h("label", { className: "iw-field" }, [
    iceSteps,
    h("span", { text: "ICE at every split" }),
  ]);
  const overviewToggle = h("input", {
    testid: "pdw-overview-toggle",
    attrs: { type: "checkbox", "aria-label": "Overview of every feature" },
  });
  const overviewField = h("label", { className: "iw-field" }, [
    overviewToggle,
    h("span", { text: "overview of every feature" }),
  ]);
  const overviewHost = h("div", {
    className: "pdw-overview-host",
    testid: "pdw-overview-host",
  });
  const splitBy = selectField("pdw-split-by", "Split by");
  const iceMode = selectField("pdw-ice-mode", "ICE as");
  const target = selectField("pdw-target", "Class");
  const scale = selectField("pdw-scale", "Scale");
  const grid = integerInput(
    "pdw-grid",
    { trait: "grid_resolution", label: "Grid", min: 2, fallback: 50 },
    context,
  );
  const nIce = integerInput(
    "pdw-n-ice",
    { trait: "n_ice", label: "ICE curves", min: 1, fallback: 100 },
    context,
  );
  const { run, stop } = runStopButtons("pdw");
  const status = createStatus("pdw");
  status.bar.append(createWorkload("pdw", context).node);
  const warning = h("div", {
    className: "pdw-warning",
    testid: "pdw-warning",
    attrs: { role: "status" },
  });
  warning.hidden = true;
  const caption = h("div", { className: "pdw-caption", testid: "pdw-caption" });
  const empty = h("p", { className: "iw-note", testid: "pdw-empty" });
  const chartHost = h("div", { className: "pdw-chart-host" });
  const output = h("div", { className: "pdw-output" }, [
    warning,
    caption,
    chartHost,
    empty,
  ]);
  const tooltip = createTooltip(output, { testid: "pdw-tooltip" });
  // Inside ModelInspector, with a kernel: its cohorts (shared with every
  // view), which a cluster's rule joins from here.
  const inspectorCohorts = () => {
    const list = model.get("cohorts");
    return Array.isArray(list) && !model.get("_standalone") ? list : null;
  };
  const summaryPanel = createSummaryPanel(output, {
    onRule: (rule) => binding.save({ split_by: rule }),
    onCohort: (rule, cluster) => {
      const list = inspectorCohorts();
      if (list) model.send({ set_cohorts: withRuleCohort(list, rule, cluster) });
    },
    cohortRules: () => inspectorCohorts()?.map((c) => String(c.rule)) ?? null,
    dom,
  });

  root.append(
    h("div", { className: "pdw-controls" }, [
      h("div", { className: "pdw-control-row" }, [
        feature.field,
        feature2.field,
        overviewField,
      ]),
      h("div", { className: "pdw-control-row" }, [
        kind.field,
        centeredField,
        target.field,
        scale.field,
      ]),
      h("div", { className: "pdw-control-row" }, [
        grid.field,
        nIce.field,
        iceStepsField,
        h("div", { className: "iw-buttons" }, [run, stop]),
      ]),
      h("div", { className: "pdw-control-row" }, [
        splitBy.field,
        iceMode.field,
      ]),
    ]),
    status.bar,
    guard.node,
    status.error,
    status.staleNote,
    overviewHost,
    output,
  );
  guard.attach({ root, statusBar: status.bar });
  el.append(root);

  /** @type {{kind: string, chart: Chart} | null} */
  let current = null;
  /** @type {ReturnType<typeof createPdOverview> | null} */
  let overview = null;
  let shownCorrelations = "[]";

  // ---- Controls -----------------------------------------------------------

  const features = () => binding.list("features");

  function syncFeatures() {
    const options = binding.list("_feature_options");
    const [first = "", second = NONE] = features();
    const categorical = new Set(binding.list("_categorical"));
    /**
     * @param {string} f
     * @returns {[string, string]}
     */
    const option = (f) => [f, categorical.has(f) ? `${isolate(f)} (categorical)` : f];
    fillSelect(feature.select, options.map(option), first);
    fillSelect(
      feature2.select,
      [[NONE, "— none —"], ...options.filter((f) => f !== first).map(option)],
      second,
    );
    syncSettings();
  }

  function syncSettings() {
    const twoWay = features().length === 2;
    const value = String(model.get("kind") ?? "average");
    const choices = kindChoices(value, twoWay);
    fillSelect(kind.select, choices.options, choices.value);
    for (const option of kind.select.options)
      option.disabled = choices.disabled.includes(option.value);
    // ICE curves and centering at the first grid value describe 1-way
    // partial dependence only.
    const pdCurve = !twoWay && !value.includes("ale");
    nIce.input.disabled = !pdCurve || value === "average";
    centered.disabled = !pdCurve;
    centered.checked = Boolean(model.get("centered"));
    // Tree models only (Python says whether the feature's splits are read).
    iceStepsField.hidden = !model.get("_steps_available");
    iceSteps.disabled = nIce.input.disabled;
    // Split and summaries read 1-way partial dependence's ICE curves.
    fillSelect(
      splitBy.select,
      [[NONE, "— none —"], ...binding.list("_split_options").map(
        (c) => /** @type {[string, string]} */ ([c, c]),
      )],
      String(model.get("split_by") ?? NONE),
    );
    splitBy.select.disabled = !pdCurve;
    fillSelect(iceMode.select, ICE_MODES, String(model.get("ice_mode") ?? "lines"));
    iceMode.select.disabled = nIce.input.disabled;
    iceSteps.checked = Boolean(model.get("ice_steps"));
    const classes = binding.list("_target_options");
    const classifier = classes.length > 0;
    const shown = String(model.get("target") ?? "");
    fillSelect(
      target.select,
      classes.map((c) => [c, c]),
      classifier ? shown : undefined,
    );
    // A saved page holds the shown class's curve only: another class needs
    // a kernel to compute, so the menu is disabled there and says so (#52).
    const saved = Boolean(model.get("_standalone"));
    target.select.disabled = !classifier || saved;
    target.select.title =
      classifier && saved
        ? `Drawn for class ${shown}; another class needs a kernel to compute (this is a saved page).`
        : "";
    target.field.hidden = !classifier;
    fillSelect(
      scale.select,
      SCALES,
      String(model.get("scale") ?? "probability"),
    );
    scale.select.disabled = !classifier;
  }

  /** `split_by`, or null. */
  function splitName() {
    const value = model.get("split_by");
    return value == null ? null : String(value);
  }

  /** Write `features` from the two selects. */
  function saveFeatures() {
    const first = feature.select.value;
    const second = feature2.select.value;
    const next =
      second !== NONE && second !== first ? [first, second] : [first];
    binding.save({ features: next });
  }

  // ---- Live part: status, warning, chart (one redraw per frame) -----------

  function drawLive() {
    const state = String(model.get("status") ?? "idle");
    const value = model.get("_curve");
    /** @type {string[]} */
    const problems = [];
    /** @type {Curve | null} */
    let curve = null;
    try {
      curve = curveResult(value);
    } catch (err) {
      problems.push(`Could not draw the result: ${messageOf(err)}`);
    }
    stop.disabled = state !== "running";
    root.setAttribute("data-status", state);
    root.setAttribute("data-grid-done", String(curve?.gridDone ?? 0));
    root.setAttribute(
      "data-mode",
      curve ? curve.mode : features().length === 2 ? "2d" : "1d",
    );

    const drawn = curve;
    guard.run("the chart", () => {
      const wanted = drawn ? chartKind(drawn) : null;
      if (current && current.kind !== wanted) {
        current.chart.destroy();
        current = null;
      }
      if (drawn && wanted && !current)
        current = {
          kind: wanted,
          chart: CHARTS[wanted](chartHost, { tooltip }),
        };
      if (drawn) current?.chart.update(drawn);
    });

    const correlated = curve?.correlated ?? [];
    const key = JSON.stringify([correlated, curve?.effect, curve?.mode]);
    if (key !== shownCorrelations) {
      shownCorrelations = key;
      const actions = warningActions(curve);
      warning.replaceChildren(
        ...warningContent(correlated),
        ...(correlated.length > 0 && actions.length > 0
          ? [actionRow(actions)]
          : []),
      );
    }
    warning.hidden = correlated.length === 0;
    const ice = curve?.mode === "1d" ? curve.individual : null;
    const bins = curve && curve.effect !== "pd" ? curve.x.values.length : 0;
    caption.textContent = !curve
      ? ""
      : ice
        ? `${formatNumber(ice.rows)} of ${formatNumber(curve.nRows)} ICE curves shown`
        : bins
          ? `local effects of ${formatNumber(curve.nRows)} rows, ${curve.x.categorical ? "between neighbouring categories" : `in ${bins - 1} quantile bins`}`
          : `averaged over ${formatNumber(curve.nRows)} rows`;
    // Groups, bands and clusters are drawn on a numeric feature's curve.
    const oneWay = curve?.mode === "1d" ? curve : null;
    const numeric = oneWay && !oneWay.x.categorical ? oneWay : null;
    const summarized = numeric
      ? summaryCaption(numeric.summaries, numeric.nRows, splitName())
      : oneWay && (splitName() || model.get("ice_mode") !== "lines")
        ? "split by and ICE summaries are drawn for a numeric feature"
        : "";
    if (summarized) caption.textContent = summarized;
    caption.hidden = !curve;
    summaryPanel.update(numeric?.summaries ?? null, splitName());

    const stale = state === "error" && curve !== null;
    output.classList.toggle("pdw-stale", stale);
    const count = curve && state === "running" ? gridCount(curve) : "";
    status.update({
      status: state,
      progress: model.get("progress"),
      text: statusText({
        status: state,
        count:
          count || `${Math.round(100 * (Number(model.get("progress")) || 0))}%`,
        stoppedAt: gridCount(curve),
        etaSeconds: Number(model.get("_eta_seconds") ?? -1),
        phase: String(model.get("_phase") ?? ""),
        elapsedSeconds: Number(model.get("_elapsed_seconds") ?? 0),
        hasResult: !isEmptyCurve(value),
      }),
      message: errorMessage(state, model.get("error"), problems),
      details: String(model.get("error_details") ?? ""),
      stale,
    });
    empty.hidden = curve !== null;
    empty.textContent =
      state === "running"
        ? "Computing the first grid points…"
        : "No result yet: press Run.";
  }

  const live = frameScheduler(
    guard.wrap("the widget", drawLive, { updatesStatus: true }),
  );

  // ---- The overview: every feature's PD, small multiples ------------------

  function drawOverview() {
    const shown = Boolean(model.get("overview"));
    overviewToggle.checked = shown;
    overviewHost.hidden = !shown;
    if (!shown) return;
    const value = overviewResult(model.get("_overview"));
    if (!overview)
      overview = createPdOverview(overviewHost, {
        onSelect: (f) => binding.save({ features: [f] }),
      });
    overview.update(
      value ?? {
        status: "running",
        progress: 0,
        error: "",
        order_by: "",
        order_label: "",
        target: "",
        panels: [],
      },
      features()[0] ?? "",
    );
  }

  const overviewFrame = frameScheduler(
    guard.wrap("the overview", drawOverview),
  );

  /** The banner's buttons: each switches `kind` (clicks go through `dom`,
   * removed with the widget). */
  /** @param {ReturnType<typeof warningActions>} actions */
  function actionRow(actions) {
    return h(
      "div",
      { className: "pdw-warning-actions" },
      actions.map(({ kind: next, text, testid }) => {
        const button = h("button", {
          className: "pdw-warning-action",
          testid,
          text,
          attrs: { type: "button" },
        });
        dom.on(button, "click", () => binding.save({ kind: next }));
        return button;
      }),
    );
  }

  // ---- Listeners ------------------------------------------------------------

  dom.on(feature.select, "change", saveFeatures);
  dom.on(feature2.select, "change", saveFeatures);
  saveOnChange(kind.select, "kind", context);
  saveOnChange(overviewToggle, "overview", context);
  saveOnChange(centered, "centered", context);
  saveOnChange(iceSteps, "ice_steps", context);
  // A saved page holds one class's curve: a change forced past the disabled
  // menu (a script, a browser that ignores `disabled`) is put back, so the
  // menu never names a class the chart does not show (#52 item 2).
  dom.on(target.select, "change", () => {
    if (model.get("_standalone"))
      target.select.value = String(model.get("target") ?? "");
  });
  saveOnChange(target.select, "target", context);
  saveOnChange(iceMode.select, "ice_mode", context);
  dom.on(splitBy.select, "change", () => {
    const value = splitBy.select.value;
    binding.save({ split_by: value === NONE ? null : value });
  });
  saveOnChange(scale.select, "scale", context);
  bindRunStop({ run, stop }, context);
  dom.on(output, "pointerleave", () => tooltip.hide());
  const stopResize = observeResize(chartHost, live.schedule);

  binding.on(["_feature_options", "_categorical", "features"], () => {
    syncFeatures();
    live.schedule();
  });
  binding.on(
    [
      "kind",
      "centered",
      "ice_steps",
      "_steps_available",
      "target",
      "_target_options",
      "scale",
      "split_by",
      "ice_mode",
      "_split_options",
    ],
    syncSettings,
  );
  // The inspector's cohorts: a rule made one shows "a cohort" beside it.
  binding.on(["kind", "cohorts"], live.schedule);
  binding.on(LIVE_TRAITS, live.schedule);
  binding.on(["overview", "_overview", "features"], overviewFrame.schedule);

  syncFeatures();
  syncSettings();
  live.now();
  overviewFrame.now();

  return () => {
    binding.removeAll();
    dom.removeAll();
    live.cancel();
    overviewFrame.cancel();
    overview?.destroy();
    overview = null;
    stopResize();
    current?.chart.destroy();
    current = null;
    tooltip.destroy();
    root.remove();
  };
}

export default { render: guardRender(render) };
