// @ts-check
// The "Correlation" view: the Spearman correlation matrix in dendrogram leaf
// order with the dendrogram above it, a |ρ| slider that cuts the tree
// (dashed line on the dendrogram, clusters boxed on the heatmap), and next to
// it the grouped permutation importance of the clusters, live as repeats
// arrive.
//
// The tree is Python's complete linkage on 1 - |ρ|, so cutting it at height
// 1 - t leaves groups whose every pair has |ρ| >= t; the axis is labelled in
// |ρ|. Moving the slider previews the cut at once (drawing only: the clusters
// are read off the tree); releasing it calls `onThreshold`, which writes the
// `correlation_threshold` trait so Python recomputes the grouped importance.

import { scaleDiverging } from "d3-scale";
import { interpolateRdBu } from "d3-scale-chromatic";

import { observeResize } from "../charts/chart_base.js";
import { createColorLegend } from "../charts/color_legend.js";
import { createDendrogram, cutTree } from "../charts/dendrogram.js";
import { formatNumber, isolate, visibleName } from "../charts/format.js";
import { createHeatmap } from "../charts/heatmap.js";
import { createImportanceChart } from "../charts/importance_chart.js";
import { h, listenerBag } from "../ui/dom.js";
import { sameThreshold } from "./comparison_data.js";

/** Width of the matrix panel before it has a layout (and in jsdom), px. */
const MATRIX_FALLBACK_WIDTH = 460;
const NO_CORRELATION =
  "The correlation view needs at least two numeric features: with fewer " +
  "there is nothing to cluster, so each feature is permuted on its own.";

/** ρ = -1 blue, 0 white, +1 red. */
const correlationColor = scaleDiverging((t) => interpolateRdBu(1 - t))
  .domain([-1, 0, 1])
  .clamp(true);

/**
 * @param {{tooltip: import("../ui/tooltip.js").Tooltip,
 *   onThreshold: (value: number) => void}} options
 * @returns {{node: HTMLElement, update: (state: CorrelationState) => number,
 *   destroy: () => void}} `update` returns the number of features drawn.
 *
 * @typedef {object} CorrelationState
 * @property {ReturnType<typeof import("./comparison_data.js").correlationResult>} correlation
 * @property {ReturnType<typeof import("./comparison_data.js").groupsResult>} groups
 * @property {number} correlationThreshold the trait's value, a |ρ|.
 */
export function createCorrelationView({ tooltip, onThreshold }) {
  const dom = listenerBag();
  const slider = h("input", {
    className: "icw-threshold",
    testid: "icw-threshold",
    attrs: {
      type: "range",
      min: 0,
      max: 1,
      step: 0.01,
      "aria-label": "Correlation threshold, |Spearman ρ|",
    },
  });
  const sliderValue = h("output", {
    className: "icw-threshold-value",
    testid: "icw-threshold-value",
  });
  const clusterCount = h("span", {
    className: "iw-note",
    testid: "icw-cluster-count",
  });
  const controls = h("div", { className: "icw-threshold-row" }, [
    h("label", { className: "iw-field" }, [
      h("span", {
        text: "Group features with |ρ| ≥",
        attrs: {
          title:
            "Features are grouped when every pair's |Spearman ρ| is at least this",
        },
      }),
      slider,
    ]),
    sliderValue,
    clusterCount,
  ]);

  const legendHost = h("div", { className: "icw-legend-host" });
  const dendrogramHost = h("div", { className: "icw-dendrogram-host" });
  const heatmapHost = h("div", { className: "icw-heatmap-host" });
  const matrix = h("div", { className: "icw-corr-matrix" }, [
    legendHost,
    dendrogramHost,
    heatmapHost,
  ]);
  const groupsCaption = h("div", {
    className: "icw-caption",
    testid: "icw-groups-caption",
  });
  const groupsChartHost = h("div", { className: "icw-chart-host" });
  const groupsEmpty = h("p", { className: "iw-note" });
  const groupsPanel = h("div", { className: "icw-corr-groups" }, [
    h("h4", {
      className: "icw-panel-title",
      text: "Grouped permutation importance (test)",
    }),
    groupsCaption,
    groupsChartHost,
    groupsEmpty,
  ]);
  const empty = h("p", { className: "iw-note", text: NO_CORRELATION });
  const node = h("div", { className: "icw-view icw-view-correlation" }, [
    controls,
    empty,
    h("div", { className: "icw-corr-panels" }, [matrix, groupsPanel]),
  ]);

  const legend = createColorLegend(legendHost, { testid: "icw-corr-legend" });
  legend.update({
    color: correlationColor,
    domain: [-1, 1],
    ticks: [-1, -0.5, 0, 0.5, 1],
    title: "Spearman correlation ρ",
  });
  const dendrogram = createDendrogram(dendrogramHost);
  const heatmap = createHeatmap(heatmapHost, {
    testid: "icw-heatmap",
    cellTestid: "icw-cell",
    rowAttribute: "data-row",
    colAttribute: "data-col",
    label: "Spearman correlation between features, in dendrogram order",
    tooltip,
    width: () =>
      matrix.clientWidth > 0 ? matrix.clientWidth : MATRIX_FALLBACK_WIDTH,
  });
  const groupsChart = createImportanceChart(groupsChartHost, {
    testids: {
      chart: "icw-groups",
      bar: "icw-group-bar",
      box: "icw-group-box",
    },
    keyAttribute: "data-group",
    label: "Grouped permutation importance",
    tooltip,
  });

  /** @type {CorrelationState | null} */
  let state = null;
  /**
   * Slider value while dragging, before release; null otherwise.
   *
   * @type {number | null}
   */
  let preview = null;
  let drawnWidth = 0;
  // The heatmap and the dendrogram above it share one layout: a new width
  // redraws both.
  const stopObserving = observeResize(matrix, () => {
    if (state !== null && matrix.clientWidth !== drawnWidth) {
      drawnWidth = matrix.clientWidth;
      drawMatrix(preview ?? state.correlationThreshold);
    }
  });

  /** @param {number} threshold */
  function drawMatrix(threshold) {
    if (state === null) return 0; // not drawn before the first update
    const { correlation } = state;
    sliderValue.textContent = formatNumber(threshold);
    if (!correlation) return 0;
    const { features, matrix: values, linkage, leafOrder } = correlation;
    const clusters = cutTree(linkage, leafOrder, 1 - threshold);
    const grouped = clusters.filter((c) => c.end > c.start).length;
    clusterCount.textContent = `${clusters.length} ${clusters.length === 1 ? "group" : "groups"}, ${grouped} with several features`;
    const layout = heatmap.update({
      rows: features,
      cols: features,
      values,
      color: correlationColor,
      boxes: clusters,
      describe: (i, j, value) => [
        ["iw-tooltip-title", `${isolate(features[i])} × ${isolate(features[j])}`],
        ["", `Spearman ρ = ${formatNumber(value)}`],
      ],
    });
    // null only from a destroyed heatmap: nothing to line up with.
    if (layout !== null)
      dendrogram.update({
        linkage,
        leafOrder,
        left: layout.left,
        cell: layout.cell,
        width: layout.width,
        maxDistance: correlation.maxDistance,
        cut: 1 - threshold,
        cutLabel: `|ρ| ≥ ${formatNumber(threshold)}`,
        tickFormat: (height) => formatNumber(1 - height),
      });
    return features.length;
  }

  function drawGroups() {
    if (state === null) return;
    const { groups, correlationThreshold: threshold } = state;
    const has = groups !== null && groups.labels.length > 0;
    groupsChartHost.hidden = !has;
    groupsEmpty.hidden = has;
    groupsEmpty.textContent = has ? "" : "No grouped result yet.";
    // The bars belong to the groups' threshold; dimmed until Python has
    // recomputed them for the one shown.
    const current =
      has && sameThreshold(groups.correlationThreshold, preview ?? threshold);
    groupsPanel.classList.toggle("icw-outdated", has && !current);
    if (!has) {
      groupsCaption.textContent = "";
      return;
    }
    const parts = [
      `|ρ| ≥ ${formatNumber(groups.correlationThreshold)}`,
      `${groups.repeatsDone} of ${groups.nRepeats} repeats`,
    ];
    if (groups.scorer && Number.isFinite(groups.baseline))
      parts.push(
        `baseline ${visibleName(groups.scorer)} = ${formatNumber(groups.baseline)}`,
      );
    groupsCaption.textContent = parts.join(" · ");
    groupsChart.update({
      features: groups.labels,
      mean: groups.mean,
      std: groups.std,
      values: null,
      repeatsDone: groups.repeatsDone,
      kind: "bar",
      baseline: groups.baseline,
      permutedMean: null,
      scorer: groups.scorer,
      details: groups.members.map((/** @type {string[]} */ members) => [
        `members: ${members.join(", ")}`,
      ]),
    });
  }

  function syncSlider() {
    if (state === null) return;
    slider.disabled = !state.correlation;
    if (preview === null) slider.value = String(state.correlationThreshold);
  }

  dom.on(slider, "input", () => {
    if (!state) return;
    preview = Number(slider.value);
    drawMatrix(preview);
    drawGroups();
  });
  dom.on(slider, "change", () => {
    if (!state) return;
    const value = Number(slider.value);
    preview = null;
    if (Number.isFinite(value) && value >= 0 && value <= 1) onThreshold(value);
  });

  return {
    node,
    update(next) {
      state = next;
      const has = next.correlation !== null;
      empty.hidden = has;
      matrix.hidden = !has;
      controls.hidden = !has;
      syncSlider();
      drawnWidth = matrix.clientWidth;
      const drawn = drawMatrix(preview ?? next.correlationThreshold);
      drawGroups();
      return drawn;
    },
    destroy() {
      stopObserving();
      dom.removeAll();
      groupsChart.destroy();
      heatmap.destroy();
      dendrogram.destroy();
      legend.destroy();
      node.remove();
    },
  };
}
