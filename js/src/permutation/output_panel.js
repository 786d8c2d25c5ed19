// @ts-check
// The permutation widget's output: the baseline score, the chart (bars or
// boxes) or the table of the displayed scorer's result, the note on negative
// values, how many features `max_features` leaves out, and what to do while
// there is no result.

import { formatNumber } from "../charts/format.js";
import { createImportanceChart } from "../charts/importance_chart.js";
import { h } from "../ui/dom.js";
import { fillTable } from "./results_table.js";

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
 */
export function createOutputPanel() {
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
    baseline,
    chartHost,
    table,
    negativeNote,
    hidden,
    empty,
  ]);
  const chart = createImportanceChart(chartHost);

  return {
    node,
    /** Draw `state` (see `OutputState`). */
    update({ result, scorer, kind, status, stale, hasResult, maxFeatures }) {
      const features = result?.features ?? [];
      const what = result?.baselineNote ? ` (${result.baselineNote})` : "";
      const method =
        result?.method === "conditional"
          ? " · conditional: each feature permuted within its subgroups (hover a feature)"
          : "";
      baseline.textContent = result
        ? `baseline ${scorer} = ${formatNumber(result.baseline)}${what}${method}`
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
    },
  };
}
