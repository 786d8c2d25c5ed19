// @ts-check
// The scales of the 2-way partial dependence heatmap: the cells of each axis
// (numeric grids: linear, each cell reaching halfway to its neighbours;
// categorical: bands) and the colour of a value.

import {
  scaleBand,
  scaleDiverging,
  scaleLinear,
  scaleSequential,
} from "d3-scale";
import { interpolateRdBu, interpolateViridis } from "d3-scale-chromatic";

import { formatNumber } from "../charts/format.js";
import { nearestIndex } from "./pd_data.js";

/**
 * Cell boundaries of a numeric grid: midpoints, half a step beyond ends.
 *
 * @param {ArrayLike<number>} grid
 */
export function cellEdges(grid) {
  const g = grid.length;
  const edges = new Float64Array(g + 1);
  if (g === 0) return edges;
  if (g === 1) {
    edges[0] = grid[0] - 0.5;
    edges[1] = grid[0] + 0.5;
    return edges;
  }
  for (let k = 1; k < g; k += 1) edges[k] = (grid[k - 1] + grid[k]) / 2;
  edges[0] = grid[0] - (grid[1] - grid[0]) / 2;
  edges[g] = grid[g - 1] + (grid[g - 1] - grid[g - 2]) / 2;
  return edges;
}

/**
 * The smallest half-range a centred effect's colours span (#52): a
 * negligible surface (a second-order ALE of ±0.00002 in probability) drawn
 * at full red and blue looked as strong as a real interaction. Below this,
 * a value is drawn pale, its colour saying how small it is; in the
 * response's units, so only for the scales whose unit is known.
 */
export const MINIMUM_EFFECT_RANGE = {
  probability: 0.01, // one percentage point
  "log-odds": 0.05,
};

/**
 * The stated minimum half-range of a surface from its label (the payload's
 * `y_label`, which names the scale), or 0 when its unit is the target's own.
 *
 * @param {string} yLabel
 * @returns {number}
 */
export function minimumEffectRange(yLabel) {
  const label = String(yLabel ?? "");
  if (label.includes("log-odds")) return MINIMUM_EFFECT_RANGE["log-odds"];
  if (label.includes("probability")) return MINIMUM_EFFECT_RANGE.probability;
  return 0;
}

/**
 * Diverging around 0 when the values straddle it, else sequential. A
 * diverging scale spans at least ±`minimum` (minimumEffectRange), so its
 * colours show magnitude, not only sign.
 *
 * @param {[number, number] | null | undefined} extent
 * @param {{minimum?: number}} [options]
 */
export function heatColor(extent, { minimum = 0 } = {}) {
  if (!extent) return scaleSequential(interpolateViridis).domain([0, 1]);
  const [lo, hi] = extent;
  if (lo < 0 && hi > 0) {
    const m = Math.max(-lo, hi, minimum);
    return scaleDiverging((t) => interpolateRdBu(1 - t)).domain([-m, 0, m]);
  }
  return scaleSequential(interpolateViridis).domain(
    lo === hi ? [lo - 1, hi + 1] : [lo, hi],
  );
}

/**
 * The colours of Friedman's H²: 0 to 1, and on to the largest value when
 * one exceeds 1 (an H² above 1 happens where the pair's effects nearly
 * cancel; clamped at 1, it looked like 1).
 *
 * @param {ArrayLike<number>} values the matrix's cells (NaN: no pair).
 * @returns {{color: (value: number) => string, domain: [number, number],
 *   ticks: number[]}}
 */
export function h2Scale(values) {
  let top = 1;
  for (let k = 0; k < values.length; k += 1)
    if (Number.isFinite(values[k]) && values[k] > top) top = values[k];
  const scale = scaleSequential(interpolateViridis).domain([0, top]);
  return {
    color: (value) => scale(Math.max(0, value)),
    domain: [0, top],
    ticks: top > 1 ? [0, 0.5, 1, top] : [0, 0.5, 1],
  };
}

/**
 * One axis: scale, the pixel span of each cell, and the cell under a pixel.
 *
 * @param {{values: ArrayLike<number>, labels: string[],
 *   categorical: boolean}} axis
 * @param {[number, number]} range
 */
export function axisGeometry(axis, range) {
  const g = axis.values.length;
  if (axis.categorical) {
    const scale = scaleBand().domain(axis.labels).range(range);
    /** @param {number} k */
    const start = (k) => scale(axis.labels[k]) ?? NaN;
    return {
      categorical: /** @type {const} */ (true),
      scale,
      /** @param {number} k */
      span: (k) => [start(k), start(k) + scale.bandwidth()],
      /** @param {number} px */
      at: (px) => {
        const k = Math.floor((px - Math.min(...range)) / scale.step());
        const index = range[0] > range[1] ? g - 1 - k : k;
        return index >= 0 && index < g ? index : -1;
      },
      /** @param {number} t */
      fromIndex: (t) => start(Math.round(t)) + scale.bandwidth() / 2,
      /** @param {number} k */
      describe: (k) => axis.labels[k],
    };
  }
  const edges = cellEdges(axis.values);
  const scale = scaleLinear().domain([edges[0], edges[g]]).range(range);
  return {
    categorical: /** @type {const} */ (false),
    scale,
    /** @param {number} k */
    span: (k) => [scale(edges[k]), scale(edges[k + 1])],
    /** @param {number} px */
    at: (px) => {
      const v = scale.invert(px);
      return v < edges[0] || v > edges[g]
        ? -1
        : nearestIndex(axis.values, g, v);
    },
    // Contour coordinates: value k sits at k + 0.5 (d3-contour's pixels).
    /** @param {number} t */
    fromIndex: (t) => {
      const u = Math.max(0, Math.min(g - 1, t - 0.5));
      const k = Math.min(g - 2, Math.floor(u));
      if (g < 2) return scale(axis.values[0]);
      const f = u - k;
      return scale(axis.values[k] * (1 - f) + axis.values[k + 1] * f);
    },
    /** @param {number} k */
    describe: (k) => formatNumber(axis.values[k]),
  };
}
