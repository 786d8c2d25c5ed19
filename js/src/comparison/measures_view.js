// The "Measures" view: every importance measure of each feature on one
// normalized scale (dot plot), a caption with the permutation progress and
// baselines, and "What the flags mean" for the flags present.

import { createDotPlot } from "../charts/dot_plot.js";
import { formatNumber } from "../charts/format.js";
import { h } from "../ui/dom.js";
import { flagSummary, splitNotes } from "./comparison_data.js";

const AXIS_TITLE = "importance ÷ the measure's largest |importance|";

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
    chartHost,
    notes,
  ]);
  const chart = createDotPlot(chartHost, { tooltip });

  return {
    node,
    update(result) {
      const features = result?.features ?? [];
      chartHost.hidden = features.length === 0;
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
      const baselines = [
        ["train", result.baselineTrain],
        ["test", result.baselineTest],
      ].filter(([, v]) => Number.isFinite(v));
      if (baselines.length > 0)
        parts.push(
          `baseline ${baselines.map(([k, v]) => `${k} ${formatNumber(v)}`).join(", ")}`,
        );
      caption.textContent = parts.join(" · ");

      chart.update({
        features,
        measures: result.measures,
        flags: result.notes.map(splitNotes),
        axisTitle: AXIS_TITLE,
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
              text: ` (${flag.features.join(", ")})`,
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
