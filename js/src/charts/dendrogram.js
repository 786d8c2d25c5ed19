// @ts-check
// A dendrogram drawn from a SciPy linkage matrix, leaves along the bottom
// (aligned with the columns of a heatmap below it), merge height upwards, and
// a dashed line where the tree is cut.
//
// Geometry only: each linkage row [a, b, height, size] merges clusters a and
// b (leaves are 0..n-1, the cluster made by row k is n + k) at `height`; a
// leaf sits at the centre of its position in the leaf order, a merged
// cluster midway between its two children, as scipy.cluster.hierarchy's
// dendrogram draws it.

import { axisLeft } from "d3-axis";
import { scaleLinear } from "d3-scale";
import { select } from "d3-selection";

import "./dendrogram.css";

import { themeAxis } from "./chart_base.js";

const MARGIN = { top: 10, bottom: 4 };
/** Height of the dendrogram's drawing area, in px. */
export const DENDROGRAM_HEIGHT = 110;

/**
 * The linkage's rows, checked: each merges clusters made before it.
 *
 * @param {ArrayLike<number>} linkage
 * @param {number} n leaves.
 * @returns {{a: number, b: number, height: number}[]}
 */
function checkedLinkage(linkage, n) {
  if (linkage.length !== Math.max(0, n - 1) * 4) {
    throw new RangeError(
      `A linkage of ${n} leaves has ${n - 1} rows of 4 values; got ${linkage.length} values.`,
    );
  }
  /** @type {{a: number, b: number, height: number}[]} */
  const rows = [];
  for (let k = 0; k < n - 1; k += 1) {
    const a = Math.round(linkage[k * 4]);
    const b = Math.round(linkage[k * 4 + 1]);
    const limit = n + k; // a row merges leaves or clusters made before it
    if (!(a >= 0 && a < limit && b >= 0 && b < limit)) {
      throw new RangeError(
        `Linkage row ${k} merges ${a} and ${b}; expected clusters below ${limit}.`,
      );
    }
    rows.push({ a, b, height: linkage[k * 4 + 2] });
  }
  return rows;
}

/**
 * @typedef {{n: number, nodes: {id: number, x: number, height: number,
 *   start: number, end: number}[], links: Link[], maxHeight: number}} Layout
 * @typedef {{id: number, left: number, right: number, height: number,
 *   xLeft: number, hLeft: number, xRight: number, hRight: number}} Link
 */

/**
 * Positions of the dendrogram's nodes and the links between them.
 *
 * @param {ArrayLike<number>} linkage row-major `[n - 1, 4]`.
 * @param {number[]} leafOrder original index of the leaf at each position.
 * @returns {Layout}
 *   `x` in leaf units (leaf at position p: p + 0.5); `start`/`end` the
 *   first and last leaf position under the node; one link per linkage row,
 *   `id` the cluster it makes.
 */
export function dendrogramLayout(linkage, leafOrder) {
  const n = leafOrder.length;
  const rows = checkedLinkage(linkage, n);
  /** @type {Layout["nodes"]} */
  const nodes = new Array(Math.max(0, 2 * n - 1));
  leafOrder.forEach((leaf, position) => {
    nodes[leaf] = {
      id: leaf,
      x: position + 0.5,
      height: 0,
      start: position,
      end: position,
    };
  });
  /** @type {Layout["links"]} */
  const links = [];
  let maxHeight = 0;
  rows.forEach(({ a, b, height }, k) => {
    const left = nodes[a];
    const right = nodes[b];
    const id = n + k;
    nodes[id] = {
      id,
      x: (left.x + right.x) / 2,
      height,
      start: Math.min(left.start, right.start),
      end: Math.max(left.end, right.end),
    };
    links.push({
      id,
      left: a,
      right: b,
      height,
      xLeft: left.x,
      hLeft: left.height,
      xRight: right.x,
      hRight: right.height,
    });
    maxHeight = Math.max(maxHeight, height);
  });
  return { n, nodes, links, maxHeight };
}

/**
 * The flat clusters when the tree is cut at `threshold`: clusters merged at a
 * height <= threshold are one (SciPy's `fcluster(..., criterion="distance")`
 * for a monotonic linkage such as Ward's). Each is a run of leaf positions.
 *
 * @param {ArrayLike<number>} linkage
 * @param {number[]} leafOrder
 * @param {number} threshold
 * @returns {{start: number, end: number}[]} in leaf order.
 */
export function cutTree(linkage, leafOrder, threshold) {
  const n = leafOrder.length;
  const rows = checkedLinkage(linkage, n);
  // Union-find over cluster ids, each rooted at a leaf.
  const parent = Array.from({ length: Math.max(0, 2 * n - 1) }, (_, i) => i);
  /** @param {number} i */
  const find = (i) => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  rows.forEach(({ a, b, height }, k) => {
    const id = n + k;
    if (height <= threshold) {
      parent[find(b)] = find(a);
      parent[id] = find(a);
    }
  });
  /** @type {{root: number, start: number, end: number}[]} */
  const clusters = [];
  /** @type {{root: number, start: number, end: number} | null} */
  let current = null;
  leafOrder.forEach((leaf, position) => {
    const root = find(leaf);
    if (current && current.root === root) {
      current.end = position;
    } else {
      current = { root, start: position, end: position };
      clusters.push(current);
    }
  });
  return clusters.map(({ start, end }) => ({ start, end }));
}

/**
 * The "π" path of a link, in pixels.
 *
 * @param {Link} link
 * @param {(units: number) => number} x
 * @param {(height: number) => number} y
 */
export function linkPath(link, x, y) {
  const xl = x(link.xLeft);
  const xr = x(link.xRight);
  return `M${xl},${y(link.hLeft)}V${y(link.height)}H${xr}V${y(link.hRight)}`;
}

/**
 * Create the dendrogram inside `container`.
 *
 * @param {HTMLElement} container
 * @param {{testid?: string}} [options]
 * @returns {{update: (data: DendrogramData) => void, destroy: () => void}}
 *
 * @typedef {object} DendrogramData
 * @property {ArrayLike<number>} linkage
 * @property {number[]} leafOrder
 * @property {number} left px from the svg's left edge to the first leaf's
 *   cell (the heatmap's label column).
 * @property {number} cell px per leaf.
 * @property {number} width of the svg.
 * @property {number} maxDistance top of the height axis.
 * @property {number} cut the height where the dashed line is drawn; merges
 *   at or below it are highlighted.
 * @property {string} cutLabel the line's label.
 * @property {(height: number) => string} [tickFormat] the height axis' tick
 *   labels (heights as numbers by default).
 */
export function createDendrogram(
  container,
  { testid = "icw-dendrogram" } = {},
) {
  const svg = select(container)
    .append("svg")
    .attr("class", "iw-chart-svg icw-dendrogram")
    .attr("data-testid", testid)
    .attr("data-settled", "true")
    .attr("role", "img")
    .attr("aria-label", "Dendrogram of the feature clusters");
  const axisG = svg.append("g").attr("class", "iw-axis");
  const linksG = svg.append("g").attr("class", "icw-links");
  const line = svg.append("line").attr("class", "icw-threshold-line");
  const lineLabel = svg
    .append("text")
    .attr("class", "icw-threshold-label")
    .attr("text-anchor", "end");
  let destroyed = false;

  return {
    update({
      linkage,
      leafOrder,
      left,
      cell,
      width,
      maxDistance,
      cut,
      cutLabel,
      tickFormat = null,
    }) {
      if (destroyed) return;
      const layout = dendrogramLayout(linkage, leafOrder);
      const top = Math.max(maxDistance, layout.maxHeight) || 1;
      /** @param {number} units */
      const x = (units) => left + units * cell;
      const y = scaleLinear()
        .domain([0, top])
        .range([MARGIN.top + DENDROGRAM_HEIGHT, MARGIN.top])
        .clamp(true);
      svg
        .attr("width", width)
        .attr("height", MARGIN.top + DENDROGRAM_HEIGHT + MARGIN.bottom);
      linksG
        .selectAll("path.icw-link")
        .data(layout.links, (/** @type {Link} */ d) => d.id)
        .join("path")
        .attr("class", "icw-link")
        .classed("icw-link-joined", (d) => d.height <= cut)
        .attr("data-node", (d) => d.id)
        .attr("d", (d) => linkPath(d, x, y));
      const axis = axisLeft(y).ticks(4).tickSizeOuter(0);
      if (tickFormat) axis.tickFormat((height) => tickFormat(Number(height)));
      else axis.tickFormat(null);
      axisG.attr("transform", `translate(${left - 4},0)`).call(axis);
      themeAxis(axisG);
      const yt = y(Math.min(cut, top));
      line
        .attr("x1", left)
        .attr("x2", x(layout.n))
        .attr("y1", yt)
        .attr("y2", yt);
      lineLabel
        .attr("x", x(layout.n))
        .attr("y", yt - 3)
        .text(cutLabel);
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      svg.remove();
    },
  };
}
