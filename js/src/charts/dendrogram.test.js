import { afterEach, beforeEach, describe, expect, it } from "vitest";

import {
  DENDROGRAM_HEIGHT,
  createDendrogram,
  cutTree,
  dendrogramLayout,
} from "./dendrogram.js";

// Three features a (0), b (1), c (2): a and c merge at 0.3 into cluster 3,
// then b joins at 0.9 (cluster 4). SciPy's leaf order for it is b, a, c.
const LINKAGE = Float32Array.from([0, 2, 0.3, 2, 1, 3, 0.9, 3]);
const LEAVES = [1, 0, 2];

describe("dendrogramLayout", () => {
  it("places leaves at their positions and merges midway, by hand", () => {
    const layout = dendrogramLayout(LINKAGE, LEAVES);
    expect(layout.n).toBe(3);
    // Leaves at the centre of their positions: b 0.5, a 1.5, c 2.5.
    expect(layout.nodes.slice(0, 3).map((n) => n.x)).toEqual([1.5, 0.5, 2.5]);
    // Cluster 3 = a + c: midway between 1.5 and 2.5, spanning positions 1..2.
    expect(layout.nodes[3]).toMatchObject({ x: 2, start: 1, end: 2 });
    expect(layout.nodes[3].height).toBeCloseTo(0.3, 6);
    // Cluster 4 = b + (a + c): midway between 0.5 and 2.
    expect(layout.nodes[4]).toMatchObject({ x: 1.25, start: 0, end: 2 });
    expect(layout.links).toHaveLength(2);
    expect(layout.links[1]).toMatchObject({
      id: 4,
      left: 1,
      right: 3,
      xLeft: 0.5,
      hLeft: 0,
      xRight: 2,
    });
    expect(layout.links[1].hRight).toBeCloseTo(0.3, 6);
    expect(layout.maxHeight).toBeCloseTo(0.9, 6);
  });

  it("rejects a linkage that does not fit the leaves", () => {
    expect(() => dendrogramLayout(LINKAGE, [0, 1])).toThrow(/1 rows of 4/);
    const forward = Float32Array.from([0, 4, 0.3, 2, 1, 3, 0.9, 3]);
    expect(() => dendrogramLayout(forward, LEAVES)).toThrow(
      /row 0 merges 0 and 4; expected clusters below 3/,
    );
  });
});

describe("cutTree", () => {
  it("joins the clusters merged at or below the threshold, in leaf order", () => {
    expect(cutTree(LINKAGE, LEAVES, 0.1)).toEqual([
      { start: 0, end: 0 },
      { start: 1, end: 1 },
      { start: 2, end: 2 },
    ]);
    expect(cutTree(LINKAGE, LEAVES, 0.5)).toEqual([
      { start: 0, end: 0 },
      { start: 1, end: 2 },
    ]);
    expect(cutTree(LINKAGE, LEAVES, Math.fround(0.3))).toEqual([
      { start: 0, end: 0 },
      { start: 1, end: 2 },
    ]);
    expect(cutTree(LINKAGE, LEAVES, 2)).toEqual([{ start: 0, end: 2 }]);
  });
});

describe("createDendrogram", () => {
  let container;
  beforeEach(() => {
    container = document.createElement("div");
    document.body.append(container);
  });
  afterEach(() => container.remove());

  it("draws each merge as a π-shaped path at its height, and the cut", () => {
    const chart = createDendrogram(container);
    chart.update({
      linkage: LINKAGE,
      leafOrder: LEAVES,
      left: 100,
      cell: 20,
      width: 180,
      maxDistance: 0.9,
      cut: 0.45,
      cutLabel: "|ρ| ≥ 0.55",
      tickFormat: (height) => (1 - height).toFixed(1),
    });
    const svg = container.querySelector('[data-testid="icw-dendrogram"]');
    expect(svg).not.toBeNull();
    // Heights map 0..0.9 onto y = 10 + 110 (bottom) .. 10 (top).
    const bottom = 10 + DENDROGRAM_HEIGHT;
    const y = (h) => bottom - (h / 0.9) * DENDROGRAM_HEIGHT;
    const paths = [...svg.querySelectorAll("path.icw-link")];
    const numbers = (d) => d.match(/-?[\d.]+/g).map(Number);
    // Cluster 3: from a (x = 100 + 1.5 * 20) up to 0.3, across to c (150).
    const [x1, y1, v1, x2, y2] = numbers(paths[0].getAttribute("d"));
    expect([x1, y1, x2, y2]).toEqual([130, bottom, 150, bottom]);
    expect(v1).toBeCloseTo(y(0.3), 3);
    // Cluster 4: from b (110, leaf) up to 0.9 (top), across to cluster 3 (140).
    const [bx, by, top, cx, cy] = numbers(paths[1].getAttribute("d"));
    expect([bx, by, cx]).toEqual([110, bottom, 140]);
    expect(top).toBeCloseTo(10, 3); // float32 0.9 is the top of the axis
    expect(cy).toBeCloseTo(y(0.3), 3);
    // Merges at or below the cut are highlighted.
    expect(paths.map((p) => p.classList.contains("icw-link-joined"))).toEqual([
      true,
      false,
    ]);
    const line = svg.querySelector("line.icw-threshold-line");
    expect(Number(line.getAttribute("y1"))).toBeCloseTo(y(0.45), 3);
    expect(Number(line.getAttribute("x1"))).toBe(100);
    expect(Number(line.getAttribute("x2"))).toBe(160);
    expect(svg.querySelector(".icw-threshold-label").textContent).toBe(
      "|ρ| ≥ 0.55",
    );
    // Ticks in the caller's units.
    const ticks = [...svg.querySelectorAll(".tick text")].map((t) => t.textContent);
    expect(ticks[0]).toBe("1.0");
    chart.destroy();
    expect(container.childNodes).toHaveLength(0);
  });
});
