// @ts-check
// Contour lines of the 2-way partial dependence heatmap, for numeric ×
// numeric grids once complete.

import { contours } from "d3-contour";
import { scaleLinear } from "d3-scale";

const CONTOURS = 7;

/**
 * Contour lines as an svg path. d3-contour closes each ring along the grid's
 * border (coordinate 0 or n), half a cell beyond the outermost values; the
 * segments that touch the border are dropped, so lines end at the last grid
 * values instead of framing the heatmap.
 *
 * @param {number[][][][]} polygons rings of [x, y] points, per polygon.
 * @param {number} nx
 * @param {number} ny
 * @param {(x: number) => number} toX
 * @param {(y: number) => number} toY
 */
function contourPath(polygons, nx, ny, toX, toY) {
  /** @param {number[]} point */
  const onBorder = ([a, b]) => a === 0 || a === nx || b === 0 || b === ny;
  let path = "";
  for (const polygon of polygons)
    for (const ring of polygon)
      for (let k = 1; k < ring.length; k += 1) {
        if (onBorder(ring[k - 1]) || onBorder(ring[k])) continue;
        const [x0, y0] = ring[k - 1];
        const [x1, y1] = ring[k];
        const ends = [toX(x0), toY(y0), toX(x1), toY(y1)];
        // A grid value that is not a number has no pixel: no segment there.
        if (!ends.every(Number.isFinite)) continue;
        const [a, b, c, d] = ends.map((v) => v.toFixed(1));
        path += `M${a},${b}L${c},${d}`;
      }
  return path;
}

/**
 * The contour lines of `curve` at round values inside `extent`, as an svg
 * path in the pixels of `gx` and `gy`; none ("") unless both axes are numeric
 * with at least 2 values, all finite, the grid is complete and the values
 * vary.
 *
 * @param {import("./pd_data.js").Curve2d} curve
 * @param {[number, number] | null} extent of the computed values.
 * @param {ReturnType<typeof import("./pd_heat_scales.js").axisGeometry>} gx
 * @param {ReturnType<typeof import("./pd_heat_scales.js").axisGeometry>} gy
 * @returns {{d: string, levels: number}} `levels`: how many thresholds drew
 *   a line.
 */
export function heatContours(curve, extent, gx, gy) {
  const { x: xAxis, y: yAxis, average, gridDone } = curve;
  const ga = xAxis.values.length;
  const gb = yAxis.values.length;
  let nContours = 0;
  let d = "";
  if (
    !xAxis.categorical &&
    !yAxis.categorical &&
    gridDone === ga &&
    ga >= 2 &&
    gb >= 2 &&
    // A column with missing values and fewer distinct values than the grid
    // has NaN as a grid point (as in scikit-learn): no place on the axis.
    xAxis.values.every(Number.isFinite) &&
    yAxis.values.every(Number.isFinite) &&
    extent &&
    extent[0] < extent[1]
  ) {
    // A plain array (d3-contour's type), every element set below.
    /** @type {number[]} */
    const transposed = new Array(ga * gb);
    for (let i = 0; i < ga; i += 1)
      for (let j = 0; j < gb; j += 1)
        transposed[j * ga + i] = average[i * gb + j];
    const thresholds = scaleLinear()
      .domain(extent)
      .ticks(CONTOURS)
      .filter((t) => t > extent[0] && t < extent[1]);
    const polygons = contours().size([ga, gb]).thresholds(thresholds)(
      transposed,
    );
    nContours = polygons.filter((p) => p.coordinates.length > 0).length;
    d = contourPath(
      polygons.map((p) => p.coordinates).flat(),
      ga,
      gb,
      gx.fromIndex,
      gy.fromIndex,
    );
  }
  return { d, levels: nContours };
}
