// @ts-check
// The permutation widget's output: the baseline score, the chart (bars or
// boxes) or the table of the displayed scorer's result, the note on negative
// values, how many features `max_features` leaves out, and what to do while
// there is no result. A split (`split_by`) draws one dot per subgroup for
// each feature instead (charts/grouped_importance.js), whatever the kind.

import { formatNumber, visibleName } from "../charts/format.js";
import { createGroupedImportance } from "../charts/grouped_importance.js";
import { createImportanceChart } from "../charts/importance_chart.js";
import { h } from "../ui/dom.js";
import { createTooltip } from "../ui/tooltip.js";
import { fillTable } from "./results_table.js";
import { splitBaselineText } from "./split_data.js";

// The negative-value notes, each shown only when something is drawn in the
// negative colour in the kind of chart it describes.
// What a negative value shows is only that shuffling helped on these rows:
// no evidence that the model needs the feature. It does not show that the
// model ignores it (a noise feature it splits on can come out negative on
// one held-out sample and positive on others).
const NEGATIVE_NOTE =
  "Negative: shuffling the feature improved the score on these rows — no evidence that the model needs it; small negative values are usually noise.";
const NEGATIVE_BOX_NOTE =
  "Median below 0: shuffling the feature improved the score in at least half of the repeats — no evidence that the model needs it.";

/**
 * Create the output panel (not yet in the page: place its `node`).
 *
 * @returns {{node: HTMLElement, update: (state: OutputState) => void,
 *   destroy: () => void}}
 *
 * @typedef {object} OutputState
 * @property {ReturnType<typeof import("./permutation_data.js").scorerResult>
 *   | null} result the displayed scorer's result (null when none or
 *   malformed).
 * @property {string} scorer the displayed scorer.
 * @property {string} kind the `kind` trait: "bar", "box" or "table".
 * @property {string} status the `status` trait.
 * @property {boolean} stale whether the result is the last one before an
 *   error (drawn dimmed).
 * @property {boolean} hasResult whether any scorer has a result.
 * @property {unknown} maxFeatures the `max_features` trait.
 * @property {import("./split_data.js").SplitResult | null} [split] a
 *   split's result for the displayed scorer (drawn instead of `result`).
 * @property {string} [splitBy] the `split_by` trait.
 */
export function createOutputPanel() {
  // Above the chart, as the inspector's header says it above its views.
  const warning = h("div", {
    className: "piw-warning",
    testid: "piw-warning",
    attrs: { role: "note" },
  });
  warning.hidden = true;
  const baseline = h("div", {
    className: "piw-baseline",
    testid: "piw-baseline",
  });
  const chartHost = h("div", { className: "piw-chart-host" });
  const table = h("table", { className: "piw-table", testid: "piw-table" });
  table.hidden = true;
  const negativeNote = h("p", {
    className: "iw-note piw-negative-note",
    testid: "piw-negative-note",
    text: NEGATIVE_NOTE,
  });
  const hidden = h("p", { className: "iw-note", testid: "piw-hidden" });
  const empty = h("p", { className: "iw-note piw-empty", testid: "piw-empty" });
  const node = h("div", { className: "piw-output" }, [
    warning,
    baseline,
    chartHost,
    table,
    negativeNote,
    hidden,
    empty,
  ]);
  const chart = createImportanceChart(chartHost);
  const groupedHost = h("div", { className: "piw-grouped-host" });
  groupedHost.style.position = "relative";
  groupedHost.hidden = true;
  chartHost.after(groupedHost);
  const tooltip = createTooltip(groupedHost, { testid: "piw-grouped-tooltip" });
  const grouped = createGroupedImportance(groupedHost, {
    tooltip,
    testid: "piw-grouped",
  });

  /**
   * Draw a split's result: one dot per subgroup; the kind's chart and
   * table hidden.
   *
   * @param {import("./split_data.js").SplitResult} split
   * @param {string} scorer
   * @param {string} splitBy
   * @param {unknown} maxFeatures
   */
  function drawSplit(split, scorer, splitBy, maxFeatures) {
    warning.hidden = true;
    chartHost.hidden = true;
    table.hidden = true;
    groupedHost.hidden = split.features.length === 0;
    baseline.textContent = splitBaselineText(split, scorer, splitBy);
    grouped.update({
      features: split.features,
      groups: split.groups,
      mean: split.mean,
      std: split.std,
      minSize: split.minSize,
      axisTitle: `importance within each subgroup: drop in ${visibleName(scorer)} (dot: mean, whisker: ± std over ${split.repeatsDone} repeats)`,
    });
    let note = "";
    for (let i = 0; i < split.mean.length; i += 1)
      if (split.mean[i] < 0) note = NEGATIVE_NOTE;
    negativeNote.textContent = note;
    negativeNote.hidden = note === "";
    negativeNote.classList.remove("piw-negative-note-box");
    hidden.hidden = split.nHidden <= 0;
    hidden.textContent =
      split.nHidden > 0
        ? `${split.nHidden} more ${split.nHidden === 1 ? "feature" : "features"} not shown (max_features = ${maxFeatures}).`
        : "";
    empty.hidden = split.features.length > 0;
  }

  return {
    node,
    /** Draw `state` (see `OutputState`). */
    update({
      result,
      scorer,
      kind,
      status,
      stale,
      hasResult,
      maxFeatures,
      split = null,
      splitBy = "",
    }) {
      node.classList.toggle("piw-stale", stale);
      if (split) {
        drawSplit(split, scorer, splitBy, maxFeatures);
        return;
      }
      groupedHost.hidden = true;
      warning.textContent = result?.warning ?? "";
      warning.hidden = warning.textContent === "";
      const features = result?.features ?? [];
      const what = result?.baselineNote ? ` (${result.baselineNote})` : "";
      const method =
        result?.method === "conditional"
          ? " · conditional: each feature permuted within its subgroups (hover a feature)"
          : "";
      baseline.textContent = result
        ? `baseline ${visibleName(scorer)} = ${formatNumber(result.baseline)}${what}${method}`
        : "";
      chartHost.hidden = kind === "table" || features.length === 0;
      table.hidden = kind !== "table" || features.length === 0;
      node.classList.toggle("piw-stale", stale);

      // The negative note explains the negative colour, so it shows only when
      // something is drawn in it: table rows and bars with a mean below 0,
      // boxes with a median below 0.
      let note = "";
      if (kind === "table") {
        if (result) fillTable(table, result, scorer);
        if (result?.mean.some((v) => v < 0)) note = NEGATIVE_NOTE;
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
          spread: result?.spread ?? 1,
          spreadLabel: result?.spreadLabel ?? "std",
          intervalLow: result?.intervalLow ?? null,
          intervalHigh: result?.intervalHigh ?? null,
          intervalLabel: result?.intervalLabel ?? "",
          details: result?.details ?? [],
          scorer,
        });
        if (drawn.negative > 0)
          note = drawn.kind === "box" ? NEGATIVE_BOX_NOTE : NEGATIVE_NOTE;
      }
      negativeNote.textContent = note;
      negativeNote.hidden = note === "";
      negativeNote.classList.toggle(
        "piw-negative-note-box",
        note === NEGATIVE_BOX_NOTE,
      );
      const nHidden = result?.nHidden ?? 0;
      hidden.hidden = nHidden <= 0;
      hidden.textContent =
        nHidden > 0
          ? `${nHidden} more ${nHidden === 1 ? "feature" : "features"} not shown (max_features = ${maxFeatures}).`
          : "";
      empty.hidden = features.length > 0;
      empty.textContent =
        features.length > 0
          ? ""
          : !hasResult
            ? status === "running"
              ? "Computing the first repeat…"
              : "No result yet: press Run."
            : `No result for ${scorer} yet: press Run.`;
    },
    /** Remove the chart (the widget removes `node`). */
    destroy() {
      chart.destroy();
      grouped.destroy();
      tooltip.destroy();
    },
  };
}
