// @ts-check
// What the partial dependence chart draws of the ICE curves beyond thin
// lines (`_curve.groups`, `.bands`, `.clusters`, all computed in Python):
// one curve per subgroup of rows with a legend of their sizes (small groups
// greyed, with a note), percentile bands, or each cluster's mean curve with
// its count and the rules telling the clusters apart, each a button that
// makes its rule the split.

import { schemeTableau10 } from "d3-scale-chromatic";
import { area, line } from "d3-shape";

import { decodeArray } from "../codecs.js";
import { formatNumber, isolate, isolateRule } from "../charts/format.js";
import { h } from "../ui/dom.js";

/** The colour of a small group's curve: read as "not an estimate". */
export const SMALL_COLOR = "var(--iw-fg-muted)";

/**
 * @typedef {import("../ui/model.js").TraitPayload} TraitPayload
 * @typedef {{values: ArrayLike<number>, rows: number, cols: number}} Rows
 * @typedef {{labels: string[], sizes: number[], small: boolean[],
 *   minSize: number, curves: Rows}} Groups
 * @typedef {{percentiles: number[], curves: Rows}} Bands
 * @typedef {{rule: string, size: number, precision: number,
 *   coverage: number}} Rule
 * @typedef {{sizes: number[], curves: Rows, rules: Rule[][]}} Clusters
 * @typedef {{groups: Groups | null, bands: Bands | null,
 *   clusters: Clusters | null}} Summaries
 */

/**
 * @param {TraitPayload} array
 * @param {string} name
 * @param {number} rows
 * @param {number} cols
 * @returns {Rows}
 */
function rowsOf(array, name, rows, cols) {
  const { values, shape } = decodeArray(array);
  if (shape.length !== 2 || shape[0] !== rows || shape[1] !== cols)
    throw new RangeError(
      `${name} must have shape [${rows}, ${cols}]; got ${JSON.stringify(shape)}.`,
    );
  return { values, rows, cols };
}

/** @param {unknown} value */
const list = (value) => (Array.isArray(value) ? value : []);

/**
 * Decode the summaries of a 1-way `_curve` with `g` grid points computed.
 *
 * @param {TraitPayload} value the `_curve` payload.
 * @param {number} g
 * @returns {Summaries}
 */
export function summariesResult(value, g) {
  /** @type {Summaries} */
  const out = { groups: null, bands: null, clusters: null };
  const groups = value?.groups;
  if (groups) {
    const labels = list(groups.labels).map(String);
    out.groups = {
      labels,
      sizes: list(groups.sizes).map(Number),
      small: list(groups.small).map(Boolean),
      minSize: Number(groups.min_size) || 0,
      curves: rowsOf(groups.average, "groups.average", labels.length, g),
    };
  }
  const bands = value?.bands;
  if (bands) {
    const percentiles = list(bands.percentiles).map(Number);
    out.bands = {
      percentiles,
      curves: rowsOf(bands.values, "bands.values", percentiles.length, g),
    };
  }
  const clusters = value?.clusters;
  if (clusters) {
    const sizes = list(clusters.sizes).map(Number);
    out.clusters = {
      sizes,
      curves: rowsOf(clusters.average, "clusters.average", sizes.length, g),
      rules: list(clusters.rules).map((rules) =>
        list(rules).map((r) => ({
          rule: String(r.rule),
          size: Number(r.size),
          precision: Number(r.precision),
          coverage: Number(r.coverage),
        })),
      ),
    };
  }
  return out;
}

/**
 * The curves drawn, each with its key, colour, legend text and whether it
 * is greyed: the groups' when split, else the clusters'.
 *
 * @param {Summaries} summaries
 * @returns {{key: string, row: number, color: string, text: string,
 *   small: boolean, curves: Rows}[]}
 */
export function summaryCurves(summaries) {
  const { groups, clusters } = summaries;
  if (groups)
    return groups.labels.map((label, i) => ({
      key: `group:${label}`,
      row: i,
      color: groups.small[i]
        ? SMALL_COLOR
        : schemeTableau10[i % schemeTableau10.length],
      text: `${isolate(label)} (n = ${formatNumber(groups.sizes[i])})`,
      small: groups.small[i],
      curves: groups.curves,
    }));
  if (clusters)
    return clusters.sizes.map((size, i) => ({
      key: `cluster:${i}`,
      row: i,
      color: schemeTableau10[i % schemeTableau10.length],
      text: `cluster ${i + 1} (n = ${formatNumber(size)})`,
      small: false,
      curves: clusters.curves,
    }));
  return [];
}

/**
 * The note under a legend holding small groups ("" when none).
 *
 * @param {Groups | null} groups
 */
export function smallNote(groups) {
  if (!groups) return "";
  const small = groups.labels.filter((_, i) => groups.small[i]);
  if (small.length === 0) return "";
  return `Greyed: ${small.map(isolate).join(", ")}: fewer than ${groups.minSize} rows, their curve is an estimate from few rows.`;
}

/**
 * The band pairs to shade, outer first: percentiles p and 100 - p.
 *
 * @param {number[]} percentiles
 * @returns {{low: number, high: number, key: string}[]}
 */
export function bandPairs(percentiles) {
  const pairs = [];
  for (let i = 0; i < percentiles.length; i += 1) {
    const j = percentiles.indexOf(100 - percentiles[i]);
    if (j > i)
      pairs.push({
        low: i,
        high: j,
        key: `${percentiles[i]}-${percentiles[j]}`,
      });
  }
  return pairs;
}

/**
 * Every value the summaries draw, for the y scale.
 *
 * @param {Summaries | undefined} summaries
 */
export function summaryValues(summaries) {
  if (!summaries) return [];
  return [summaries.groups, summaries.bands, summaries.clusters].map(
    (s) => s?.curves.values ?? null,
  );
}

/** @param {Rows} curves @param {number} row @param {number} j */
const at = (curves, row, j) => curves.values[row * curves.cols + j];

/**
 * The layer of the plot drawing bands and curves.
 *
 * @param {import("../charts/chart_base.js").AnySelection} plot
 */
export function createSummaryLayer(plot) {
  const bandsG = plot.append("g").attr("class", "pdw-ice-bands");
  const curvesG = plot.append("g").attr("class", "pdw-summary-curves");

  /**
   * @param {{summaries: Summaries | undefined, grid: ArrayLike<number>,
   *   gridDone: number, x: (v: number) => number,
   *   y: (v: number) => number}} args
   */
  function draw({ summaries, grid, gridDone, x, y }) {
    const bands = summaries?.bands ?? null;
    const n = Math.min(gridDone, bands?.curves.cols ?? gridDone);
    const idx = Array.from({ length: n }, (_, j) => j);
    const pairs = bands ? bandPairs(bands.percentiles) : [];
    bandsG
      .selectAll("path.pdw-ice-band")
      .data(pairs, (/** @type {{key: string}} */ d) => d.key)
      .join("path")
      .attr("class", "pdw-ice-band")
      .attr("data-testid", "pdw-ice-band")
      .attr("data-band", (d) => d.key)
      .attr("d", (d) => {
        if (!bands) return null;
        /** @type {import("d3-shape").Area<number>} */
        const shape = area();
        return shape
          .x((j) => x(grid[j]))
          .y0((j) => y(at(bands.curves, d.low, j)))
          .y1((j) => y(at(bands.curves, d.high, j)))(idx);
      });
    const median = bands ? bands.percentiles.indexOf(50) : -1;
    const medianLine =
      bands && median >= 0
        ? [{ key: "median", color: "", row: median, curves: bands.curves }]
        : [];
    const curves = summaries ? summaryCurves(summaries) : [];
    curvesG
      .selectAll("path.pdw-summary-curve")
      .data([...medianLine, ...curves], (d) => /** @type {any} */ (d).key)
      .join("path")
      .attr("class", "pdw-summary-curve")
      .attr("data-testid", (d) =>
        d.key === "median" ? "pdw-ice-median" : "pdw-group-curve",
      )
      .attr("data-key", (d) => d.key)
      .classed("pdw-small-group", (d) => Boolean(/** @type {any} */ (d).small))
      .style("stroke", (d) => d.color || null)
      .attr("d", (d) => {
        const points = /** @type {[number, number][]} */ ([]);
        for (let j = 0; j < Math.min(gridDone, d.curves.cols); j += 1) {
          const v = at(d.curves, d.row, j);
          if (Number.isFinite(v)) points.push([x(grid[j]), y(v)]);
        }
        return points.length > 0 ? line()(points) : null;
      });
  }
  return { draw };
}

/**
 * `cohorts` with a cluster's rule added as a cohort named after the cluster
 * ("cluster 2", "cluster 2 (2)" if taken); as they are when a cohort has
 * that rule already.
 *
 * @param {{name: string, rule: string}[]} cohorts the inspector's.
 * @param {string} rule
 * @param {number} cluster its cluster, from 0.
 * @returns {{name: string, rule: string}[]}
 */
export function withRuleCohort(cohorts, rule, cluster) {
  if (cohorts.some((c) => c.rule === rule)) return cohorts;
  const names = new Set(cohorts.map((c) => c.name));
  const base = `cluster ${cluster + 1}`;
  let name = base;
  for (let n = 2; names.has(name); n += 1) name = `${base} (${n})`;
  return [...cohorts, { name, rule }];
}

/**
 * The legend and the clusters' rules, beside the chart. A click on a rule
 * calls `onRule(rule)`; inside ModelInspector (`cohortRules` gives its
 * cohorts' rules, null elsewhere) a "+ cohort" beside each calls
 * `onCohort(rule, cluster)`.
 *
 * @param {HTMLElement} host
 * @param {{onRule: (rule: string) => void,
 *   onCohort?: (rule: string, cluster: number) => void,
 *   cohortRules?: () => string[] | null,
 *   dom: ReturnType<typeof import("../ui/dom.js").listenerBag>}} options
 *   `dom` holds the rules' listeners (removed with the widget).
 */
export function createSummaryPanel(
  host,
  { onRule, onCohort = () => {}, cohortRules = () => null, dom },
) {
  const legend = h("ul", { className: "pdw-legend", testid: "pdw-legend" });
  const note = h("p", { className: "iw-note", testid: "pdw-small-note" });
  const rules = h("div", { className: "pdw-rules", testid: "pdw-rules" });
  const node = h("div", { className: "pdw-summary-panel" }, [
    legend,
    note,
    rules,
  ]);
  host.append(node);
  // One listener for every rule button, however often they are replaced.
  dom.on(rules, "click", (event) => {
    const target = /** @type {Element | null} */ (event.target);
    const button = target?.closest?.("button.pdw-rule, button.pdw-rule-cohort");
    if (!(button instanceof HTMLElement) || button.dataset.rule === undefined) return;
    if (button.classList.contains("pdw-rule")) onRule(button.dataset.rule);
    else onCohort(button.dataset.rule, Number(button.dataset.cluster));
  });

  /**
   * @param {Summaries | null} summaries
   * @param {string | null} splitBy
   */
  function update(summaries, splitBy) {
    const curves = summaries ? summaryCurves(summaries) : [];
    const all = summaries?.groups
      ? [
          h("li", { testid: "pdw-legend-all" }, [
            h("span", { className: "pdw-swatch pdw-swatch-all" }),
            h("span", { text: "all rows" }),
          ]),
        ]
      : [];
    legend.replaceChildren(
      ...all,
      ...curves.map((c) =>
        h("li", { testid: "pdw-legend-item" }, [swatch(c.color), h("span", { text: c.text })]),
      ),
    );
    const text = smallNote(summaries?.groups ?? null);
    note.textContent = text;
    note.hidden = !text;
    const clusters = summaries?.clusters ?? null;
    const inCohorts = cohortRules();
    rules.replaceChildren();
    if (clusters) {
      rules.append(
        h("div", {
          className: "pdw-rules-title",
          text: "What sets the clusters apart (click a rule to split by it)",
        }),
      );
      clusters.rules.forEach((list, c) => {
        for (const r of list) {
          const button = h("button", {
            className: "pdw-rule",
            testid: "pdw-rule",
            text: `cluster ${c + 1}: ${isolateRule(r.rule)} (${formatNumber(r.size)} row${r.size === 1 ? "" : "s"}, ${Math.round(100 * r.precision)}% in it)`,
            attrs: { type: "button", "aria-pressed": String(r.rule === splitBy) },
          });
          button.dataset.rule = r.rule;
          if (inCohorts === null) {
            rules.append(button);
            continue;
          }
          const isCohort = inCohorts.includes(r.rule);
          const add = h("button", {
            className: "pdw-rule-cohort",
            testid: "pdw-rule-cohort",
            text: isCohort ? "a cohort" : "+ cohort",
            attrs: {
              type: "button",
              title: isCohort
                ? "This rule is a cohort of the review"
                : "Make this rule a cohort of the review: shown in every view",
            },
          });
          add.dataset.rule = r.rule;
          add.dataset.cluster = String(c);
          /** @type {HTMLButtonElement} */ (add).disabled = isCohort;
          rules.append(h("div", { className: "pdw-rule-line" }, [button, add]));
        }
      });
    }
    node.hidden = curves.length === 0 && !clusters;
  }
  return { node, update };
}

/**
 * The caption's words for the summaries drawn ("" for none).
 *
 * @param {Summaries | undefined} summaries
 * @param {number} nRows
 * @param {string | null} splitBy
 */
export function summaryCaption(summaries, nRows, splitBy) {
  if (!summaries) return "";
  const rows = formatNumber(nRows);
  const parts = [];
  if (summaries.bands) {
    const p = summaries.bands.percentiles;
    parts.push(
      `percentile bands of ${rows} ICE curves (${bandPairs(p)
        .map((b) => `${p[b.low]}–${p[b.high]}`)
        .join(", ")}${p.includes(50) ? ", median" : ""})`,
    );
  }
  if (summaries.clusters)
    parts.push(
      `${summaries.clusters.sizes.length} clusters of ${rows} ICE curves, each its mean curve`,
    );
  if (summaries.groups && splitBy)
    parts.push(
      `split by ${isolate(splitBy)}: ${summaries.groups.labels.length} groups, each the mean of its rows' ICE curves`,
    );
  return parts.join(" · ");
}

/**
 * A legend's colour swatch, coloured through the CSSOM: a saved page's
 * Content-Security-Policy refuses a `style` attribute (#49 item 13).
 *
 * @param {string} color
 */
function swatch(color) {
  const node = h("span", { className: "pdw-swatch" });
  node.style.background = color;
  return node;
}
