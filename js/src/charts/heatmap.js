// @ts-check
// A heatmap of a row-major matrix: row labels on the left, column labels
// under it (rotated), one cell per value coloured by a scale the caller
// gives, optional boxes around diagonal blocks (clusters).
//
// Up to CANVAS_ABOVE rows and columns the cells are svg rects joined by
// (row, column) label, each with a test id and data attributes; beyond, they
// are painted on a canvas (thousands of rects would be slow) and hovering
// finds the cell from the pointer position. Labels are dropped when cells
// are too small to hold them; the tooltip always names the cell. Given
// `onActivate`, the cells with a finite value are buttons: a click, or Enter
// or Space on the focused cell, calls it with the cell's row and column.

import { select } from "d3-selection";

import "./heatmap.css";

import {
  CHAR_WIDTH,
  LABEL_GAP,
  labelLayout,
  setShown,
  truncate,
} from "./chart_base.js";

/** Largest number of rows or columns drawn as svg rects. */
export const CANVAS_ABOVE = 60;
const MAX_CELL = 24;
const MIN_CELL = 3;
/** Smallest cell that still gets a text label, in px. */
const MIN_LABELLED_CELL = 10;
const MAX_COLUMN_CHARS = 18;
const MARGIN = { top: 2, right: 8 };

/**
 * Cell size and label space for a `rows` x `cols` heatmap in `width` px.
 *
 * @returns {{left: number, top: number, cell: number, maxChars: number,
 *   labelled: boolean, columnLabelHeight: number, width: number,
 *   height: number}}
 * @param {string[]} rows
 * @param {string[]} cols
 * @param {number} width
 * @param {{maxCell?: number}} [options]
 */
export function heatmapLayout(rows, cols, width, { maxCell = MAX_CELL } = {}) {
  const { labelWidth, maxChars } = labelLayout(rows, width);
  const fit = Math.floor(
    (width - labelWidth - MARGIN.right) / Math.max(1, cols.length),
  );
  const cell = Math.max(MIN_CELL, Math.min(maxCell, fit));
  const labelled = cell >= MIN_LABELLED_CELL;
  const longest = cols.reduce((n, c) => Math.max(n, c.length), 0);
  const columnLabelHeight = labelled
    ? Math.min(longest, MAX_COLUMN_CHARS) * CHAR_WIDTH + LABEL_GAP
    : 0;
  const left = labelled ? labelWidth : LABEL_GAP;
  return {
    left,
    top: MARGIN.top,
    cell,
    maxChars,
    labelled,
    columnLabelHeight,
    width: left + cols.length * cell + MARGIN.right,
    height: MARGIN.top + rows.length * cell + columnLabelHeight,
  };
}

/**
 * Create a heatmap inside `container`.
 *
 * @param {HTMLElement} container
 * @param {HeatmapOptions} options
 * @returns {{update: (data: HeatmapData) =>
 *   ReturnType<typeof heatmapLayout> | null,
 *   destroy: () => void}}
 *
 * @typedef {object} HeatmapOptions
 * @property {string} testid of the svg.
 * @property {string} cellTestid of each svg cell.
 * @property {string} rowAttribute e.g. "data-row", carries the row label.
 * @property {string} colAttribute e.g. "data-col".
 * @property {string} label the svg's aria-label.
 * @property {import("../ui/tooltip.js").Tooltip} tooltip
 * @property {() => number} [width] available width (default: container's).
 * @property {(i: number, j: number) => void} [onActivate] called when a cell
 *   with a finite value is clicked, or activated from the keyboard.
 *
 * @typedef {object} HeatmapData
 * @property {string[]} rows
 * @property {string[]} cols
 * @property {ArrayLike<number>} values row-major `[rows, cols]`.
 * @property {(value: number) => string} color
 * @property {(i: number, j: number, value: number) => [string, string][]}
 *   describe tooltip lines of cell (i, j).
 * @property {{start: number, end: number}[]} [boxes] diagonal blocks to
 *   outline (square matrices), in row/column positions.
 * @property {number} [maxCell] largest cell size, px.
 * @property {{i: number, j: number} | null} [selected] cell outlined as chosen.
 */
export function createHeatmap(container, options) {
  const { testid, cellTestid, rowAttribute, colAttribute, label, tooltip } =
    options;
  const { onActivate } = options;
  const root = select(container).append("div").attr("class", "icw-heatmap");
  const canvas = root
    .append("canvas")
    .attr("class", "icw-heatmap-canvas")
    .style("display", "none");
  const svg = root
    .append("svg")
    .attr("class", "iw-chart-svg icw-heatmap-svg")
    .attr("data-testid", testid)
    .attr("data-settled", "true")
    .attr("role", "img")
    .attr("aria-label", label);
  const cellsG = svg.append("g").attr("class", "icw-cells");
  const rowLabels = svg.append("g").attr("class", "icw-row-labels");
  const colLabels = svg.append("g").attr("class", "icw-col-labels");
  const boxesG = svg.append("g").attr("class", "icw-boxes");
  const focus = svg
    .append("rect")
    .attr("class", "icw-cell-focus")
    .style("display", "none");
  const chosen = svg
    .append("rect")
    .attr("class", "icw-cell-selected")
    .attr("data-testid", `${cellTestid}-selected`)
    .style("display", "none");

  /** @type {HeatmapData | null} */
  let data = null;
  /** @type {ReturnType<typeof heatmapLayout> | null} */
  let layout = null;
  let onCanvas = false;
  let destroyed = false;

  const available = () =>
    options.width?.() ??
    (container.clientWidth > 0 ? container.clientWidth : 480);

  function paintCanvas() {
    if (data === null || layout === null) return;
    const { rows, cols, values, color } = data;
    const { left, top, cell } = layout;
    const ratio = globalThis.devicePixelRatio || 1;
    const w = cols.length * cell;
    const h = rows.length * cell;
    canvas
      .style("display", null)
      .style("left", `${left}px`)
      .style("top", `${top}px`)
      .style("width", `${w}px`)
      .style("height", `${h}px`)
      .attr("width", Math.round(w * ratio))
      .attr("height", Math.round(h * ratio));
    const context = canvas.node()?.getContext?.("2d");
    if (!context) return; // no canvas support (jsdom): cells stay unpainted
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, w, h);
    for (let i = 0; i < rows.length; i += 1) {
      for (let j = 0; j < cols.length; j += 1) {
        context.fillStyle = color(values[i * cols.length + j]);
        context.fillRect(j * cell, i * cell, cell, cell);
      }
    }
  }

  function draw() {
    const current = data;
    if (current === null) return null;
    const { rows, cols, values, color } = current;
    layout = heatmapLayout(rows, cols, available(), {
      maxCell: current.maxCell,
    });
    const { left, top, cell, maxChars, labelled } = layout;
    onCanvas = rows.length > CANVAS_ABOVE || cols.length > CANVAS_ABOVE;
    svg.attr("width", layout.width).attr("height", layout.height);

    /** @typedef {{key: string, i: number, j: number, value: number}} Cell */
    /** @type {Cell[]} */
    const cells = [];
    if (!onCanvas) {
      for (let i = 0; i < rows.length; i += 1) {
        for (let j = 0; j < cols.length; j += 1) {
          cells.push({
            key: `${rows[i]}\u0000${cols[j]}`,
            i,
            j,
            value: values[i * cols.length + j],
          });
        }
      }
      canvas.style("display", "none");
    } else {
      paintCanvas();
    }
    cellsG
      .selectAll("rect.icw-heat-cell")
      .data(cells, (/** @type {Cell} */ d) => d.key)
      .join("rect")
      .attr("class", "icw-heat-cell")
      .attr("data-testid", cellTestid)
      .attr(rowAttribute, (d) => rows[d.i])
      .attr(colAttribute, (d) => cols[d.j])
      .attr("data-value", (d) => d.value)
      .attr("x", (d) => left + d.j * cell)
      .attr("y", (d) => top + d.i * cell)
      .attr("width", cell)
      .attr("height", cell)
      .attr("fill", (d) => color(d.value))
      .each(function (/** @type {Cell} */ d) {
        // Buttons only where there is something to show.
        const button = onActivate !== undefined && Number.isFinite(d.value);
        const node = select(this)
          .attr("tabindex", button ? 0 : null)
          .attr("role", button ? "button" : null)
          .classed("icw-heat-cell-button", button);
        const [, first = ""] = current.describe(d.i, d.j, d.value)[0] ?? [];
        node.attr("aria-label", button ? first : null);
      });
    const selected = current.selected;
    setShown(chosen, Boolean(selected));
    chosen
      .attr("data-row", selected ? rows[selected.i] : null)
      .attr("data-col", selected ? cols[selected.j] : null)
      .attr("x", selected ? left + selected.j * cell : 0)
      .attr("y", selected ? top + selected.i * cell : 0)
      .attr("width", cell)
      .attr("height", cell);

    rowLabels
      .selectAll("text")
      .data(labelled ? rows : [])
      .join((enter) => enter.append("text").call((t) => t.append("title")))
      .attr("class", "icw-heat-label")
      .attr("text-anchor", "end")
      .attr("x", left - LABEL_GAP / 2)
      .attr("y", (_, i) => top + (i + 0.5) * cell)
      .attr("dy", "0.32em")
      .each(function (name) {
        const text = select(this);
        text.selectChildren("tspan").remove();
        text.append("tspan").text(truncate(name, maxChars));
        text.select("title").text(name);
      });
    const y0 = top + rows.length * cell + LABEL_GAP / 2;
    colLabels
      .selectAll("text")
      .data(labelled ? cols : [])
      .join((enter) => enter.append("text").call((t) => t.append("title")))
      .attr("class", "icw-heat-label")
      .attr("text-anchor", "end")
      .attr("dy", "0.32em")
      .attr("transform", (_, j) => {
        const x = left + (j + 0.5) * cell;
        return `translate(${x},${y0}) rotate(-90)`;
      })
      .each(function (name) {
        const text = select(this);
        text.selectChildren("tspan").remove();
        text.append("tspan").text(truncate(name, MAX_COLUMN_CHARS));
        text.select("title").text(name);
      });

    boxesG
      .selectAll("rect.icw-cluster")
      .data((current.boxes ?? []).filter((b) => b.end > b.start))
      .join("rect")
      .attr("class", "icw-cluster")
      .attr("data-start", (b) => b.start)
      .attr("data-end", (b) => b.end)
      .attr("x", (b) => left + b.start * cell)
      .attr("y", (b) => top + b.start * cell)
      .attr("width", (b) => (b.end - b.start + 1) * cell)
      .attr("height", (b) => (b.end - b.start + 1) * cell);
    hide();
    return layout;
  }

  function hide() {
    focus.style("display", "none");
    tooltip.hide();
  }

  /**
   * @param {number} i
   * @param {number} j
   * @param {MouseEvent} event
   */
  function show(i, j, event) {
    if (data === null || layout === null) return;
    const { left, top, cell } = layout;
    const value = data.values[i * data.cols.length + j];
    focus
      .style("display", null)
      .attr("x", left + j * cell)
      .attr("y", top + i * cell)
      .attr("width", cell)
      .attr("height", cell);
    tooltip.fill(data.describe(i, j, value));
    tooltip.show({ clientX: event.clientX, clientY: event.clientY });
  }

  /**
   * The cell under the pointer: its rect, or its place on the canvas.
   *
   * @param {MouseEvent | KeyboardEvent} event
   * @returns {[number, number] | null}
   */
  function cellAt(event) {
    if (!onCanvas) {
      const rect = cellOf(event.target);
      /** @type {{i: number, j: number} | null} */
      const d = rect ? select(rect).datum() : null;
      return d ? [d.i, d.j] : null;
    }
    const node = canvas.node();
    // A key has no position: no cell on the canvas (as NaN gave before).
    if (!node || data === null || layout === null || !("clientX" in event))
      return null;
    const box = node.getBoundingClientRect();
    const j = Math.floor((event.clientX - box.left) / layout.cell);
    const i = Math.floor((event.clientY - box.top) / layout.cell);
    const inside =
      i >= 0 && j >= 0 && i < data.rows.length && j < data.cols.length;
    return inside ? [i, j] : null;
  }

  /**
   * The svg cell an event's target is in, if any.
   *
   * @param {EventTarget | null} target
   */
  function cellOf(target) {
    return target instanceof Element
      ? target.closest("rect.icw-heat-cell")
      : null;
  }

  /** @param {MouseEvent | KeyboardEvent} event */
  function activate(event) {
    if (data === null || onActivate === undefined) return;
    const at = cellAt(event);
    if (at && Number.isFinite(data.values[at[0] * data.cols.length + at[1]]))
      onActivate(at[0], at[1]);
  }

  root
    .on("click", activate)
    .on("keydown", (/** @type {KeyboardEvent} */ event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      if (!cellOf(event.target)) return;
      event.preventDefault(); // Space would scroll the page
      activate(event);
    })
    .on("pointermove", (/** @type {PointerEvent} */ event) => {
      if (data === null) return;
      const at = cellAt(event);
      if (at) show(at[0], at[1], event);
      else hide();
    })
    .on("pointerleave", hide);

  return {
    /** @param {HeatmapData} next */
    update(next) {
      if (destroyed) return null;
      data = next;
      return draw();
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      root
        .on("pointermove", null)
        .on("pointerleave", null)
        .on("click", null)
        .on("keydown", null);
      root.remove();
      data = null;
    },
  };
}
