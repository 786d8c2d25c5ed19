// @ts-check
// The distribution of a feature drawn along a chart axis: histogram bars
// (numeric) or one bar per category, scaled to the strip's size. Shared by
// the 1-way charts (strip under the curve) and the 2-way heatmap (margins).

import { scaleLinear } from "d3-scale";

/**
 * Draw `dist` into `g` (an svg group at the strip's origin).
 *
 * @param {import("../charts/chart_base.js").AnySelection} g
 * @param {ReturnType<typeof import("./pd_data.js").distributionResult>} dist
 * @param {{scale: import("d3-scale").ScaleLinear<number, number>
 *   | import("d3-scale").ScaleBand<string>, orientation: "x" | "y",
 *   size: number}} options
 *   `scale` maps the feature's values (linear) or category labels (band)
 *   along the axis; "x" bars rise from the strip's bottom, "y" bars extend
 *   to the right from its left edge; `size` is the strip's depth in px.
 * @returns {number} bars drawn.
 */
export function drawDistribution(g, dist, { scale, orientation, size }) {
  /** @type {{key: string, lo: number, span: number, count: number,
   *   label: string | null}[]} */
  const bars = [];
  if (dist?.kind === "histogram" && !("bandwidth" in scale)) {
    for (let k = 0; k < dist.counts.length; k += 1) {
      const a = scale(dist.edges[k]);
      const b = scale(dist.edges[k + 1]);
      bars.push({
        key: `b${k}`,
        lo: Math.min(a, b),
        span: Math.abs(b - a),
        count: dist.counts[k],
        label: null,
      });
    }
  } else if (dist?.kind === "categories" && "bandwidth" in scale) {
    const known = new Set(scale.domain());
    dist.labels.forEach((label, k) => {
      if (!known.has(label)) return;
      bars.push({
        key: `c${label}`,
        lo: (scale(label) ?? NaN) + scale.bandwidth() * 0.15,
        span: scale.bandwidth() * 0.7,
        count: dist.counts[k],
        label,
      });
    });
  }
  let max = 0;
  for (const bar of bars) if (bar.count > max) max = bar.count;
  const depth = scaleLinear()
    .domain([0, max || 1])
    .range([0, size]);
  const horizontal = orientation === "x";
  g.selectAll("rect.pdw-bar")
    .data(bars, (/** @type {{key: string}} */ d) => d.key)
    .join("rect")
    .attr("class", "pdw-bar")
    .attr("data-testid", "pdw-histogram")
    .attr("data-count", (d) => d.count)
    .attr("data-category", (d) => d.label)
    .attr("x", (d) => (horizontal ? d.lo : 0))
    .attr("y", (d) => (horizontal ? size - depth(d.count) : d.lo))
    .attr("width", (d) => (horizontal ? d.span : depth(d.count)))
    .attr("height", (d) => (horizontal ? depth(d.count) : d.span));
  return bars.length;
}
