import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { createTooltip } from "../ui/tooltip.js";
import { CANVAS_ABOVE, createHeatmap, heatmapLayout } from "./heatmap.js";

let container;
let tooltip;
beforeEach(() => {
  container = document.createElement("div");
  document.body.append(container);
  tooltip = createTooltip(container, { testid: "tip" });
});
afterEach(() => {
  container.remove();
  vi.restoreAllMocks();
});

const options = () => ({
  testid: "hm",
  cellTestid: "hm-cell",
  rowAttribute: "data-row",
  colAttribute: "data-col",
  label: "test heatmap",
  tooltip,
});
const square = (names, value = (i, j) => (i === j ? 1 : 0.5)) => ({
  rows: names,
  cols: names,
  values: Float32Array.from(
    names.flatMap((_, i) => names.map((__, j) => value(i, j))),
  ),
  color: (v) => (v > 0.75 ? "red" : "white"),
  describe: (i, j, v) => [
    ["iw-tooltip-title", `${names[i]} × ${names[j]}`],
    ["", `value ${v}`],
  ],
});
const cells = () => [...container.querySelectorAll('[data-testid="hm-cell"]')];

describe("createHeatmap", () => {
  it("draws one cell per value with its labels, colour and position", () => {
    const heatmap = createHeatmap(container, options());
    const layout = heatmap.update(square(["a", "b", "c"]));
    expect(cells()).toHaveLength(9);
    const ab = cells().find(
      (c) =>
        c.getAttribute("data-row") === "a" &&
        c.getAttribute("data-col") === "b",
    );
    expect(ab.getAttribute("fill")).toBe("white");
    expect(Number(ab.getAttribute("x"))).toBe(layout.left + layout.cell);
    expect(Number(ab.getAttribute("y"))).toBe(layout.top);
    expect(cells()[0].getAttribute("fill")).toBe("red");
    expect(layout.cell).toBe(24); // small matrix: the largest cell
    const labels = (group) =>
      [...container.querySelectorAll(`${group} text tspan`)].map(
        (t) => t.textContent,
      );
    expect(labels(".icw-row-labels")).toEqual(["a", "b", "c"]);
    expect(labels(".icw-col-labels")).toEqual(["a", "b", "c"]);
    heatmap.destroy();
    expect(container.querySelector('[data-testid="hm"]')).toBeNull();
  });

  it("boxes the diagonal blocks of several rows", () => {
    const heatmap = createHeatmap(container, options());
    const layout = heatmap.update({
      ...square(["a", "b", "c", "d"]),
      boxes: [
        { start: 0, end: 0 },
        { start: 1, end: 3 },
      ],
    });
    const boxes = [...container.querySelectorAll("rect.icw-cluster")];
    expect(boxes).toHaveLength(1);
    expect(Number(boxes[0].getAttribute("x"))).toBe(layout.left + layout.cell);
    expect(Number(boxes[0].getAttribute("width"))).toBe(3 * layout.cell);
    heatmap.destroy();
  });

  it("keeps hostile labels as text, in cells, labels and tooltip", () => {
    const evil = "<img src=x onerror=alert(1)>";
    const heatmap = createHeatmap(container, options());
    heatmap.update(square([evil, "b"]));
    expect(container.querySelector("img")).toBeNull();
    expect(cells()[0].getAttribute("data-row")).toBe(evil);
    expect(container.querySelector(".icw-row-labels title").textContent).toBe(
      evil,
    );
    cells()[1].dispatchEvent(new Event("pointermove", { bubbles: true }));
    expect(tooltip.visible()).toBe(true);
    expect(tooltip.node.firstChild.textContent).toBe(`${evil} × b`);
    expect(container.querySelector("img")).toBeNull();
    container
      .querySelector(".icw-heatmap")
      .dispatchEvent(new Event("pointerleave"));
    expect(tooltip.visible()).toBe(false);
    heatmap.destroy();
  });

  it(`paints on a canvas above ${CANVAS_ABOVE} rows, hovering by position`, () => {
    const filled = [];
    const context = {
      setTransform() {},
      clearRect() {},
      fillRect(x, y, w, h) {
        filled.push([x, y, w, h, this.fillStyle]);
      },
      fillStyle: "",
    };
    vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockReturnValue(
      context,
    );
    const names = Array.from({ length: CANVAS_ABOVE + 1 }, (_, i) => `f${i}`);
    const heatmap = createHeatmap(container, options());
    const layout = heatmap.update(square(names));
    expect(cells()).toHaveLength(0);
    expect(filled).toHaveLength(names.length ** 2);
    expect(filled[0][4]).toBe("red");
    expect(filled[1][4]).toBe("white");
    const canvas = container.querySelector("canvas");
    expect(canvas.style.display).toBe("");
    // jsdom has no layout: the canvas sits at client (0, 0).
    const event = new MouseEvent("pointermove", {
      bubbles: true,
      clientX: 2.5 * layout.cell,
      clientY: 1.5 * layout.cell,
    });
    canvas.dispatchEvent(event);
    expect(tooltip.node.firstChild.textContent).toBe("f1 × f2");
    heatmap.destroy();
  });

  it("drops text labels when cells get too small for them", () => {
    const layout = heatmapLayout(
      Array.from({ length: 200 }, (_, i) => `feature_${i}`),
      Array.from({ length: 200 }, (_, i) => `feature_${i}`),
      640,
    );
    expect(layout.cell).toBeLessThan(10);
    expect(layout.labelled).toBe(false);
    expect(layout.columnLabelHeight).toBe(0);
  });

  it("makes finite cells buttons: click, Enter and Space activate them", () => {
    const activated = [];
    const heatmap = createHeatmap(container, {
      ...options(),
      onActivate: (i, j) => activated.push([i, j]),
    });
    const data = square(["a", "b"], (i, j) => (i === j ? NaN : 0.3));
    heatmap.update({ ...data, selected: { i: 0, j: 1 } });
    const at = (row, col) =>
      cells().find(
        (c) =>
          c.getAttribute("data-row") === row &&
          c.getAttribute("data-col") === col,
      );
    const ab = at("a", "b");
    expect(ab.getAttribute("tabindex")).toBe("0");
    expect(ab.getAttribute("role")).toBe("button");
    expect(ab.getAttribute("aria-label")).toBe("a × b");
    // The diagonal (NaN) is no button and does nothing.
    expect(at("a", "a").getAttribute("tabindex")).toBeNull();
    at("a", "a").dispatchEvent(new MouseEvent("click", { bubbles: true }));
    ab.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    const key = (node, k) =>
      node.dispatchEvent(
        new KeyboardEvent("keydown", { key: k, bubbles: true }),
      );
    key(at("b", "a"), "Enter");
    key(at("b", "a"), " ");
    key(at("b", "a"), "x");
    expect(activated).toEqual([
      [0, 1],
      [1, 0],
      [1, 0],
    ]);
    const selected = container.querySelector(
      '[data-testid="hm-cell-selected"]',
    );
    expect(selected.style.display).not.toBe("none");
    expect(selected.getAttribute("data-col")).toBe("b");
    heatmap.destroy();
    ab.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(activated).toHaveLength(3);
  });

  it("has no buttons without onActivate", () => {
    const heatmap = createHeatmap(container, options());
    heatmap.update(square(["a", "b"]));
    expect(cells().every((c) => c.getAttribute("tabindex") === null)).toBe(
      true,
    );
    cells()[1].dispatchEvent(new MouseEvent("click", { bubbles: true }));
    heatmap.destroy();
  });
});
