// @ts-check
// The "Per class" view: ESL relative importance of each feature for each
// class (K-class gradient boosting), as a heatmap with a colour legend.

import { scaleSequential } from "d3-scale";
import { interpolateBlues } from "d3-scale-chromatic";

import { observeResize } from "../charts/chart_base.js";
import { createColorLegend } from "../charts/color_legend.js";
import { columnFormat, isolate } from "../charts/format.js";
import { createHeatmap } from "../charts/heatmap.js";
import { h } from "../ui/dom.js";

/**
 * @typedef {NonNullable<ReturnType<
 *   typeof import("./comparison_data.js").perClassResult>>} ClassesResult
 */

/** Why the view can be empty, shown in it and on the disabled switch. */
export const NO_PER_CLASS =
  "Per-class relative importance is read from scikit-learn's gradient boosting classifiers with 3 or more classes.";
/** The short form, next to the disabled switch. */
export const NO_PER_CLASS_HINT =
  "Per class: scikit-learn's K-class gradient boosting only";

/**
 * @param {{tooltip: import("../ui/tooltip.js").Tooltip}} options
 * @returns {{node: HTMLElement, update: (result: ReturnType<typeof import("./comparison_data.js").perClassResult>) => number,
 *   destroy: () => void}} `update` returns the number of cells drawn.
 */
export function createClassesView({ tooltip }) {
  const empty = h("p", { className: "iw-note", text: NO_PER_CLASS });
  const heatmapHost = h("div", { className: "icw-chart-host" });
  const legendHost = h("div", { className: "icw-legend-host" });
  const node = h("div", { className: "icw-view icw-view-classes" }, [
    empty,
    legendHost,
    heatmapHost,
  ]);
  const color = scaleSequential(interpolateBlues).domain([0, 100]).clamp(true);
  const heatmap = createHeatmap(heatmapHost, {
    testid: "icw-class-heatmap",
    cellTestid: "icw-class-cell",
    rowAttribute: "data-class",
    colAttribute: "data-feature",
    label: "Relative importance per class",
    tooltip,
  });
  const legend = createColorLegend(legendHost, { testid: "icw-class-legend" });
  legend.update({
    color,
    domain: [0, 100],
    ticks: [0, 25, 50, 75, 100],
    title: "relative importance in the class (most important = 100)",
  });

  /** @type {ClassesResult | null} */
  let last = null;
  let drawnWidth = 0;
  const stopObserving = observeResize(heatmapHost, () => {
    if (last !== null && heatmapHost.clientWidth !== drawnWidth) draw(last);
  });

  /** @param {ClassesResult} result */
  function draw(result) {
    last = result;
    drawnWidth = heatmapHost.clientWidth;
    const format = columnFormat(result.values);
    heatmap.update({
      rows: result.classes,
      cols: result.features,
      values: result.values,
      color,
      // Few classes: cells may be larger than in a correlation matrix.
      maxCell: 32,
      describe: (i, j, value) => [
        ["iw-tooltip-title", result.features[j]],
        ["", `class ${isolate(result.classes[i])}: ${format(value)} of 100`],
      ],
    });
  }

  return {
    node,
    update(result) {
      const has = result !== null && result.features.length > 0;
      empty.hidden = has;
      heatmapHost.hidden = !has;
      legendHost.hidden = !has;
      if (!has) {
        last = null;
        return 0;
      }
      draw(result);
      return result.classes.length * result.features.length;
    },
    destroy() {
      stopObserving();
      heatmap.destroy();
      legend.destroy();
      node.remove();
    },
  };
}
