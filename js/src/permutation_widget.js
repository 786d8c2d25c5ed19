// Front end of PermutationImportanceWidget (anywidget ESM module).
//
// Draws what the traits hold: controls that read and write the public traits,
// a progress line from the status traits, and the chart or table of `_chart`
// for the displayed scorer. Switching the displayed scorer or the kind of chart
// needs no Python: every scorer's result is already in `_chart`.
//
// Feature and scorer choices are staged and sent together by "Apply" (or by
// "Run"), so a series of clicks starts one computation, not one per click.

import "./ui/theme.css";

import { createImportanceChart } from "./charts/importance_chart.js";
import { columnFormat, formatNumber } from "./charts/format.js";
import {
  progressText,
  sameMembers,
  scorerResult,
  topFeatures,
} from "./permutation/permutation_data.js";
import { createChecklist } from "./ui/checklist.js";
import {
  repeatsInput,
  runStopButtons,
  segmentedSwitch,
} from "./ui/controls.js";
import { h, listenerBag } from "./ui/dom.js";
import { frameScheduler } from "./ui/frame.js";
import { bindModel } from "./ui/model.js";
import { createStatus, errorMessage } from "./ui/status.js";
import "./permutation_widget.css";

// Values of the `kind` trait ("bar" and "box" as in
// PermutationImportanceDisplay.plot) and their button labels.
const KINDS = [
  ["bar", "Bars"],
  ["box", "Boxes"],
  ["table", "Table"],
];
const DEFAULT_TOP_K = 10;
// The negative-value notes, each shown only when something is drawn in the
// negative colour in the kind of chart it describes.
const NEGATIVE_NOTE =
  "Negative: permuting the feature improved the score — the model does not rely on it; the value is noise.";
const NEGATIVE_BOX_NOTE =
  "Median below 0: permuting the feature improved the score in at least half of the repeats — the model does not rely on it.";

/** Traits that change the progress line, the status and the chart. */
const LIVE_TRAITS = [
  "status",
  "progress",
  "error",
  "_repeats_done",
  "_repeats_total",
  "_eta_seconds",
  "_elapsed_seconds",
  "_chart",
];

/**
 * Build the DOM. Returns the root and the elements the widget updates; the
 * repeats input is bound to the model through `context`.
 */
function buildDom(context) {
  const ui = {};
  ui.root = h("div", {
    className: "inspectwidgets inspectwidgets-permutation",
    testid: "piw-root",
  });

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
      "aria-label": "k",
    },
  });
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
      ui.topK,
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
  ui.apply = h("button", {
    className: "piw-apply",
    testid: "piw-apply",
    text: "Apply",
    attrs: { type: "button" },
  });
  ({ run: ui.run, stop: ui.stop } = runStopButtons("piw"));
  ui.hint = h("p", {
    className: "iw-hint piw-hint",
    testid: "piw-hint",
    attrs: { "aria-live": "polite" },
  });
  const run = h("section", { className: "piw-group piw-group-run" }, [
    ui.repeats.field,
    ui.kinds.node,
    h("div", { className: "iw-buttons piw-row-buttons" }, [
      ui.apply,
      ui.run,
      ui.stop,
    ]),
    ui.hint,
  ]);

  // Progress, error, output.
  ui.status = createStatus("piw");
  ui.baseline = h("div", { className: "piw-baseline", testid: "piw-baseline" });
  ui.chartHost = h("div", { className: "piw-chart-host" });
  ui.table = h("table", { className: "piw-table", testid: "piw-table" });
  ui.table.hidden = true;
  ui.negativeNote = h("p", {
    className: "iw-note piw-negative-note",
    testid: "piw-negative-note",
    text: NEGATIVE_NOTE,
  });
  ui.hidden = h("p", { className: "iw-note", testid: "piw-hidden" });
  ui.empty = h("p", { className: "iw-note piw-empty", testid: "piw-empty" });
  ui.output = h("div", { className: "piw-output" }, [
    ui.baseline,
    ui.chartHost,
    ui.table,
    ui.negativeNote,
    ui.hidden,
    ui.empty,
  ]);

  ui.root.append(
    h("div", { className: "piw-controls" }, [features, scorers, run]),
    ui.status.bar,
    ui.status.error,
    ui.status.staleNote,
    ui.output,
  );
  return ui;
}

/**
 * Fill `table` with one row per feature of `result` (text only). Each column
 * keeps one number notation (see `columnFormat`), as the chart's tooltip does.
 */
function fillTable(table, result, scorer) {
  const mean = columnFormat(result.mean);
  const std = columnFormat(result.std);
  const permuted = columnFormat(result.permutedMean);
  const baseline = columnFormat([result.baseline]);
  const head = h("thead", {}, [
    h("tr", {}, [
      h("th", { text: "Feature", attrs: { scope: "col" } }),
      h("th", { text: "Mean importance", attrs: { scope: "col" } }),
      h("th", { text: "Std", attrs: { scope: "col" } }),
      h("th", { text: `Permuted ${scorer}`, attrs: { scope: "col" } }),
      h("th", { text: `Baseline ${scorer}`, attrs: { scope: "col" } }),
    ]),
  ]);
  const body = h(
    "tbody",
    {},
    result.features.map((feature, i) =>
      h("tr", { className: result.mean[i] < 0 ? "piw-negative" : "" }, [
        h("th", { text: feature, attrs: { scope: "row" } }),
        h("td", { text: mean(result.mean[i]) }),
        h("td", { text: std(result.std[i]) }),
        h("td", { text: permuted(result.permutedMean[i]) }),
        h("td", { text: baseline(result.baseline) }),
      ]),
    ),
  );
  table.replaceChildren(head, body);
}

function render({ model, el }) {
  const dom = listenerBag();
  const binding = bindModel(model);
  const onModel = binding.on;
  const { save, list } = binding;
  const ui = buildDom({ model, binding, dom });
  el.append(ui.root);

  // Staged multi-select choices; null = follow the model.
  let pendingFeatures = null;
  let pendingScorers = null;
  const chosenFeatures = () => pendingFeatures ?? new Set(list("features"));
  const chosenScorers = () => pendingScorers ?? new Set(list("scoring"));
  const featuresChanged = () =>
    pendingFeatures !== null && !sameMembers(pendingFeatures, list("features"));
  const scorersChanged = () =>
    pendingScorers !== null && !sameMembers(pendingScorers, list("scoring"));

  const featureList = createChecklist(ui.featureList, {
    testid: "piw-feature-option",
    dataAttribute: "data-feature",
    label: "Features",
    onToggle(name, checked) {
      const next = new Set(chosenFeatures());
      if (checked) next.add(name);
      else next.delete(name);
      pendingFeatures = next;
      syncSelection();
    },
  });
  const scorerList = createChecklist(ui.scorerList, {
    testid: "piw-scorer-option",
    dataAttribute: "data-scorer",
    label: "Scorers",
    onToggle(name, checked) {
      const next = new Set(chosenScorers());
      if (checked) next.add(name);
      else next.delete(name);
      pendingScorers = next;
      syncSelection();
    },
  });

  let chart = createImportanceChart(ui.chartHost);

  // ---- Controls --------------------------------------------------------

  /** Why the staged choices cannot be sent (empty lists), as sentences. */
  function selectionProblems() {
    const problems = [];
    if (chosenFeatures().size === 0)
      problems.push("Select at least one feature.");
    if (chosenScorers().size === 0)
      problems.push("Select at least one scorer.");
    return problems;
  }

  /** Reflect staged choices: checkboxes, counts, Apply/Run, hint. */
  function syncSelection() {
    const options = list("_feature_options");
    const features = chosenFeatures();
    const scorers = chosenScorers();
    featureList.setSelected(features);
    scorerList.setSelected(scorers);
    ui.featureCount.textContent = `${[...features].filter((f) => options.includes(f)).length} of ${options.length}`;
    const scorerOptions = scorerList.options();
    ui.scorerCount.textContent = `${[...scorers].filter((s) => scorerOptions.includes(s)).length} of ${scorerOptions.length}`;

    const problems = selectionProblems();
    const changed = featuresChanged() || scorersChanged();
    ui.apply.disabled = !changed || problems.length > 0;
    ui.run.disabled = problems.length > 0;
    ui.apply.classList.toggle(
      "piw-attention",
      changed && problems.length === 0,
    );
    ui.hint.textContent =
      problems.length > 0
        ? problems.join(" ")
        : changed
          ? "Changes not applied yet: Apply or Run."
          : "";
    ui.hint.classList.toggle("piw-hint-problem", problems.length > 0);
  }

  /** Send staged choices to Python (which reruns). Returns whether it sent. */
  function applyPending() {
    if (selectionProblems().length > 0) return false;
    const values = {};
    if (featuresChanged()) {
      const options = list("_feature_options");
      values.features = [
        ...options.filter((f) => pendingFeatures.has(f)),
        ...[...pendingFeatures].filter((f) => !options.includes(f)),
      ];
    }
    if (scorersChanged()) {
      const options = list("_scorer_options");
      const scoring = [
        ...options.filter((s) => pendingScorers.has(s)),
        ...[...pendingScorers].filter((s) => !options.includes(s)),
      ];
      values.scoring = scoring;
      if (!scoring.includes(model.get("scorer"))) values.scorer = scoring[0];
    }
    if (Object.keys(values).length === 0) return false;
    pendingFeatures = null;
    pendingScorers = null;
    save(values);
    syncSelection();
    return true;
  }

  function syncFeatureOptions() {
    featureList.setOptions(list("_feature_options"));
    syncSelection();
  }

  function syncScorerOptions() {
    const options = list("_scorer_options");
    const extra = list("scoring").filter((s) => !options.includes(s));
    scorerList.setOptions([...options, ...extra]);
    syncSelection();
  }

  function syncScorer() {
    const scoring = list("scoring");
    const current = String(model.get("scorer") ?? "");
    const names =
      scoring.includes(current) || current === ""
        ? scoring
        : [...scoring, current];
    ui.scorer.replaceChildren(
      ...names.map((name) =>
        h("option", { text: name, attrs: { value: name } }),
      ),
    );
    ui.scorer.value = current;
    ui.scorer.disabled = names.length < 2;
  }

  function syncKind() {
    ui.kinds.setValue(model.get("kind"));
  }

  // ---- Live part: progress, status, chart (one redraw per frame) --------

  function drawLive() {
    const status = String(model.get("status") ?? "idle");
    const repeatsDone = model.get("_repeats_done") ?? 0;
    const repeatsTotal = model.get("_repeats_total") ?? 0;
    ui.root.setAttribute("data-status", status);
    ui.root.setAttribute("data-repeats-done", String(repeatsDone));
    ui.stop.disabled = status !== "running";

    const chartValue = model.get("_chart") ?? {};
    const scorer = String(model.get("scorer") ?? "");
    let result = null;
    let drawError = "";
    try {
      result = scorerResult(chartValue, scorer);
    } catch (err) {
      drawError = `Could not draw the result: ${err.message}`;
    }

    const kind = model.get("kind");
    const features = result?.features ?? [];
    ui.baseline.textContent = result
      ? `baseline ${scorer} = ${formatNumber(result.baseline)}`
      : "";
    ui.chartHost.hidden = kind === "table" || features.length === 0;
    ui.table.hidden = kind !== "table" || features.length === 0;
    // After a failed run the last result stays up, dimmed and captioned.
    const stale = status === "error" && features.length > 0;
    ui.output.classList.toggle("piw-stale", stale);
    ui.status.update({
      status,
      progress: model.get("progress"),
      text: progressText({
        status,
        repeatsDone,
        repeatsTotal,
        etaSeconds: Number(model.get("_eta_seconds") ?? -1),
        elapsedSeconds: Number(model.get("_elapsed_seconds") ?? 0),
        hasResult: Object.keys(chartValue?.scorers ?? {}).length > 0,
      }),
      message: errorMessage(status, model.get("error"), [drawError]),
      stale,
    });

    // The negative note explains the negative colour, so it shows only when
    // something is drawn in it: table rows and bars with a mean below 0,
    // boxes with a median below 0.
    let negativeNote = "";
    if (kind === "table") {
      if (result) fillTable(ui.table, result, scorer);
      if (result?.mean.some((v) => v < 0)) negativeNote = NEGATIVE_NOTE;
    } else {
      const drawn = chart.update({
        features,
        mean: result?.mean ?? new Float32Array(0),
        std: result?.std ?? new Float32Array(0),
        values: result?.values ?? null,
        repeatsDone: result?.repeatsDone ?? 0,
        kind: kind === "box" ? "box" : "bar",
        baseline: result?.baseline ?? NaN,
        permutedMean: result?.permutedMean ?? null,
        scorer,
      });
      if (drawn.negative > 0)
        negativeNote =
          drawn.kind === "box" ? NEGATIVE_BOX_NOTE : NEGATIVE_NOTE;
    }
    ui.negativeNote.textContent = negativeNote;
    ui.negativeNote.hidden = negativeNote === "";
    ui.negativeNote.classList.toggle(
      "piw-negative-note-box",
      negativeNote === NEGATIVE_BOX_NOTE,
    );
    const nHidden = result?.nHidden ?? 0;
    ui.hidden.hidden = nHidden <= 0;
    ui.hidden.textContent =
      nHidden > 0
        ? `${nHidden} more ${nHidden === 1 ? "feature" : "features"} not shown (max_features = ${model.get("max_features")}).`
        : "";
    ui.empty.hidden = features.length > 0;
    ui.empty.textContent =
      features.length > 0
        ? ""
        : Object.keys(chartValue?.scorers ?? {}).length === 0
          ? status === "running"
            ? "Computing the first repeat…"
            : "No result yet: press Run."
          : `No result for ${scorer} yet: press Run.`;
  }

  const live = frameScheduler(drawLive);
  const scheduleLive = live.schedule;
  const drawNow = live.now;

  // ---- DOM listeners ----------------------------------------------------

  dom.on(ui.filter, "input", () => featureList.setFilter(ui.filter.value));
  dom.on(ui.all, "click", () => {
    pendingFeatures = new Set([
      ...chosenFeatures(),
      ...featureList.visibleOptions(),
    ]);
    syncSelection();
  });
  dom.on(ui.none, "click", () => {
    const next = new Set(chosenFeatures());
    for (const name of featureList.visibleOptions()) next.delete(name);
    pendingFeatures = next;
    syncSelection();
  });
  dom.on(ui.top, "click", () => {
    const k = Math.max(1, Math.floor(Number(ui.topK.value)) || DEFAULT_TOP_K);
    ui.topK.value = String(k);
    let result = null;
    try {
      result = scorerResult(
        model.get("_chart"),
        String(model.get("scorer") ?? ""),
      );
    } catch {
      result = null; // malformed result: fall back to the option order
    }
    pendingFeatures = new Set(topFeatures(result, list("_feature_options"), k));
    syncSelection();
  });
  dom.on(ui.scorer, "change", () => save({ scorer: ui.scorer.value }));
  for (const [kind, button] of ui.kinds.buttons) {
    dom.on(button, "click", () => {
      if (model.get("kind") !== kind) save({ kind });
    });
  }
  dom.on(ui.apply, "click", applyPending);
  dom.on(ui.run, "click", () => {
    if (selectionProblems().length > 0) return; // never run on an empty list
    // Staged choices are sent instead: changing them makes Python rerun.
    if (!applyPending()) binding.increment("_run_requests");
  });
  dom.on(ui.stop, "click", () => {
    if (model.get("status") === "running") binding.increment("_stop_requests");
  });

  // ---- Model listeners --------------------------------------------------

  onModel("_feature_options", syncFeatureOptions);
  onModel("features", () => {
    if (!featuresChanged()) pendingFeatures = null;
    syncSelection();
  });
  onModel("_scorer_options", syncScorerOptions);
  onModel("scoring", () => {
    if (!scorersChanged()) pendingScorers = null;
    syncScorerOptions();
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
  onModel("max_features", scheduleLive);
  for (const name of LIVE_TRAITS) onModel(name, scheduleLive);

  syncFeatureOptions();
  syncScorerOptions();
  syncScorer();
  syncKind();
  drawLive();

  return () => {
    binding.removeAll();
    dom.removeAll();
    live.cancel();
    featureList.destroy();
    scorerList.destroy();
    chart.destroy();
    chart = null;
    ui.root.remove();
  };
}

export default { render };
