import { afterEach, describe, expect, it } from "vitest";

import { CHAR_WIDTH } from "./chart_base.js";
import { createColorLegend, legendMargins } from "./color_legend.js";

let host;
afterEach(() => host?.remove());

/** The legend drawn over `domain` with `ticks`, in a fresh element. */
function drawn(domain, ticks) {
  host = document.createElement("div");
  document.body.append(host);
  const legend = createColorLegend(host, { testid: "legend" });
  legend.update({ color: () => "#888", domain, title: "effect", ticks });
  return host.querySelector("svg");
}

/** Each tick label's estimated [left, right] in the svg (centred on it). */
function labelSpans(svg) {
  return [...svg.querySelectorAll(".tick")].map((tick) => {
    const x = Number(/translate\(([-\d.]+),/.exec(tick.getAttribute("transform"))[1]);
    const half = (tick.textContent.length * CHAR_WIDTH) / 2;
    return [x - half, x + half, tick.textContent];
  });
}

describe("the colour legend", () => {
  it("holds its end ticks' labels inside its own width (#52: −0.010 was cut)", () => {
    const svg = drawn([-0.01, 0.01], [-0.01, 0, 0.01]);
    const width = Number(svg.getAttribute("width"));
    const spans = labelSpans(svg);
    expect(spans.map((s) => s[2])).toEqual(["−0.010", "0.000", "0.010"]);
    for (const [left, right] of spans) {
      expect(left).toBeGreaterThanOrEqual(0);
      expect(right).toBeLessThanOrEqual(width);
    }
    // The bar and the title start where the axis starts.
    const bar = svg.querySelector(".iw-legend-bar");
    expect(Number(bar.getAttribute("x"))).toBe(
      Number(svg.querySelector(".iw-legend-title").getAttribute("x")),
    );
    // The first tick at the bar's left end (d3-axis adds half a pixel).
    const [first] = labelSpans(svg);
    const barX = Number(bar.getAttribute("x"));
    expect((first[0] + first[1]) / 2).toBeCloseTo(barX + 0.5, 5);
  });

  it("keeps its 12 px margins when the end labels are short", () => {
    expect(legendMargins([{ offset: 0, label: "0" }, { offset: 180, label: "1" }])).toEqual({
      left: 12,
      right: 12,
    });
    const { left } = legendMargins([{ offset: 0, label: "−0.010" }]);
    expect(left).toBeGreaterThanOrEqual(3 * CHAR_WIDTH);
  });
});
