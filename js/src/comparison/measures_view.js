// @ts-check
// The "Measures" view: every importance measure of each feature on one
// normalized scale (dot plot; values within noise hollow), a caption with the
// permutation progress, baselines and sort key, and "What the flags mean" for
// the flags present. The tooltip gives raw values in each measure's units and,
// under each flag, the intervals it rests on.

import { createDotPlot } from "../charts/dot_plot.js";
import { columnFormat, formatNumber, isolate } from "../charts/format.js";
import { h } from "../ui/dom.js";
import { flagIntervals, flagSummary, splitNotes } from "./comparison_data.js";

const AXIS_TITLE = "importance ÷ the measure's largest |importance|";

/**
 * The tooltip lines under each flag of each feature: the intervals the flag
 * rests on, in the measure's units.
 *
 * @param {import("./comparison_data.js").MeasuresResult} result
 * @param {string[][]} flags per feature (from `splitNotes`).
 * @returns {string[][][]} per feature, per flag, its lines.
 */
export function flagEvidenceLines(result, flags) {
  return flags.map((featureFlags, i) =>
    featureFlags.map((flag) =>
      flagIntervals(result, flag, i).map((interval) => {
        const format = columnFormat(interval.values);
        const units = interval.units ? ` (${interval.units})` : "";
        return `${interval.label} interval ${format(interval.low)} to ${format(interval.high)}${units}`;
      }),
    ),
  );
}

/**
 * @param {{tooltip: import("../ui/tooltip.js").Tooltip}} options
 * @returns {{node: HTMLElement, update: (result: import("./comparison_data.js").MeasuresResult | null) => number,
 *   destroy: () => void}} `update` returns the number of features drawn.
 */
export function createMeasuresView({ tooltip }) {
  const caption = h("div", {
    className: "icw-caption",
    testid: "icw-measures-caption",
  });
  // Why a measure is missing (a Ridge, a LightGBM model), in a sentence.
  const measuresNote = h("p", {
    className: "iw-note",
    testid: "icw-measures-note",
  });
  measuresNote.hidden = true;
  const chartHost = h("div", { className: "icw-chart-host" });
  const notesTitle = h("h4", {
    className: "icw-notes-title",
    text: "What the flags mean",
  });
  const notesList = h("ul", { className: "icw-notes-list" });
  const notes = h("section", { className: "icw-notes", testid: "icw-notes" }, [
    notesTitle,
    notesList,
  ]);
  notes.hidden = true;
  const node = h("div", { className: "icw-view icw-view-measures" }, [
    caption,
    measuresNote,
    chartHost,
    notes,
  ]);
  const chart = createDotPlot(chartHost, { tooltip });

  return {
    node,
    update(result) {
      const features = result?.features ?? [];
      chartHost.hidden = features.length === 0;
      measuresNote.textContent = result?.measuresNote ?? "";
      measuresNote.hidden = !result?.measuresNote;
      if (!result) {
        caption.textContent = "";
        notes.hidden = true;
        return 0;
      }
      const parts = [];
      if (result.scorer) parts.push(`scorer ${result.scorer}`);
      parts.push(
        `permutation: ${result.repeatsDone} of ${result.nRepeats} repeats`,
      );
      /** @type {[string, number][]} */
      const scores = [
        ["train", result.baselineTrain],
        ["test", result.baselineTest],
      ];
      const baselines = scores.filter(([, v]) => Number.isFinite(v));
      if (baselines.length > 0)
        parts.push(
          `baseline ${baselines.map(([k, v]) => `${k} ${formatNumber(v)}`).join(", ")}`,
        );
      const sortedBy = result.measures.find((m) => m.key === result.sortBy);
      if (sortedBy) parts.push(`sorted by ${sortedBy.label}`);
      caption.textContent = parts.join(" · ");

      const flags = result.notes.map(splitNotes);
      chart.update({
        features,
        measures: result.measures,
        flags,
        evidence: flagEvidenceLines(result, flags),
        axisTitle: AXIS_TITLE,
        noiseNote: result.withinNoiseNote,
      });

      const summary = flagSummary(features, result.notes);
      notes.hidden = summary.length === 0;
      notesList.replaceChildren(
        ...summary.map((flag) =>
          h("li", { className: "icw-note-item" }, [
            h("span", { className: "icw-note-headline", text: flag.headline }),
            flag.explanation ? `: ${flag.explanation}` : "",
            h("span", {
              className: "icw-note-features",
              text: ` (${flag.features.map(isolate).join(", ")})`,
            }),
          ]),
        ),
      );
      return features.length;
    },
    destroy() {
      chart.destroy();
      node.remove();
    },
  };
}
