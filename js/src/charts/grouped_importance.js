// @ts-check
// Importance per group of rows (subgroups of a "split by", cohorts): one row
// per feature, one dot per group with its ± std whisker, a legend giving each
// group's rows, and the small groups greyed with a note under the chart
// (kept and drawn, never dropped: their numbers are estimates from few rows).
//
// It is the dot plot (dot_plot.js: rows joined by feature, dots by group, so
// live repeats move the dots) given one measure per group, in the colours the
// partial dependence widget gives the same groups (Tableau 10).

import { schemeTableau10 } from "d3-scale-chromatic";

import { h } from "../ui/dom.js";
import { createDotPlot } from "./dot_plot.js";
import { formatNumber, visibleName } from "./format.js";

/** A small group's colour: grey, legible on light and dark backgrounds. */
export const SMALL_GROUP_COLOR = "#999999";

/**
 * @typedef {import("../codecs.js").TypedArray | number[]} Numbers
 * @typedef {{label: string, size: number, small: boolean}} Group
 * @typedef {object} GroupedData
 * @property {string[]} features top to bottom.
 * @property {Group[]} groups in the engine's order.
 * @property {Numbers} mean row-major (groups, features): NaN where a group
 *   has no number yet (or none at all), drawn as no dot.
 * @property {Numbers} std the same shape.
 * @property {number} minSize below it a group is small.
 * @property {string} axisTitle
 */

/**
 * A group's colour: its place in Tableau 10, grey when small.
 *
 * @param {Group} group
 * @param {number} index
 */
export function groupColor(group, index) {
  return group.small
    ? SMALL_GROUP_COLOR
    : schemeTableau10[index % schemeTableau10.length];
}

/**
 * The group's legend text: its label and rows, and "few rows" when small.
 *
 * @param {Group} group
 */
export function groupLegend(group) {
  const rows = `n = ${formatNumber(group.size)}`;
  return `${visibleName(group.label)} (${rows}${group.small ? ", few rows" : ""})`;
}

/**
 * The dot plot's measures: one per group, its row of `mean` and `std`.
 *
 * @param {GroupedData} data
 * @returns {import("./dot_plot.js").DotMeasure[]}
 */
export function groupMeasures(data) {
  const k = data.features.length;
  if (data.mean.length !== data.groups.length * k)
    throw new RangeError(
      `mean has ${data.mean.length} values for ${data.groups.length} groups x ${k} features.`,
    );
  return data.groups.map((group, g) => {
    const mean = Array.from(data.mean.slice(g * k, (g + 1) * k), Number);
    const std = Array.from(data.std.slice(g * k, (g + 1) * k), Number);
    return {
      key: `group:${g}:${group.label}`,
      label: groupLegend(group),
      name: group.label,
      values: mean,
      std,
      normalized: mean,
      normalizedStd: std,
      color: groupColor(group, g),
      muted: group.small,
    };
  });
}

/**
 * The note under the chart when some groups are small ("" when none).
 *
 * @param {Group[]} groups
 * @param {number} minSize
 */
export function smallGroupsNote(groups, minSize) {
  const small = groups.filter((g) => g.small).map((g) => g.label);
  if (small.length === 0) return "";
  return `Greyed: ${small.join(", ")}: fewer than ${minSize} rows, an estimate from few rows (kept, not dropped).`;
}

/**
 * Create the grouped chart inside `container`.
 *
 * @param {HTMLElement} container
 * @param {{tooltip: import("../ui/tooltip.js").Tooltip, duration?: number,
 *   testid?: string}} options as the dot plot's; `testid` names the root.
 * @returns {{update: (data: GroupedData) => void, destroy: () => void}}
 */
export function createGroupedImportance(container, options) {
  const root = h("div", {
    className: "iw-grouped-importance",
    testid: options.testid ?? "iw-grouped",
  });
  const plotHost = h("div", { className: "iw-grouped-plot" });
  const note = h("p", {
    className: "iw-note iw-grouped-note",
    testid: "iw-grouped-note",
  });
  root.append(plotHost, note);
  container.append(root);
  const plot = createDotPlot(plotHost, options);
  let destroyed = false;
  return {
    update(data) {
      if (destroyed) return;
      plot.update({
        features: data.features,
        measures: groupMeasures(data),
        flags: data.features.map(() => []),
        axisTitle: data.axisTitle,
      });
      note.textContent = smallGroupsNote(data.groups, data.minSize);
      note.hidden = note.textContent === "";
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      plot.destroy();
      root.remove();
    },
  };
}
