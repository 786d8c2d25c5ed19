// @ts-check
// What the row charts share (one row per feature, joined by name): label
// column layout, transitions that honour reduced motion, the `data-settled`
// flag, the keyed row join, hover and focus handling, width tracking, and
// the layout, labels and axis of a row chart.

import { axisBottom } from "d3-axis";
import { scaleBand } from "d3-scale";
import { select } from "d3-selection";

import { visibleName } from "./format.js";

/**
 * A d3 selection of any elements and data. The helpers here serve every
 * row chart (g, rect, text, line elements; rows of each chart's own datum):
 * d3's four type parameters would not say more here.
 *
 * `tr(selection)` hands back the selection's transition in an animated draw,
 * the selection itself otherwise. It is typed as returning a selection: the
 * transition has the same attr, style, text, call and remove, which are all
 * the charts call on it.
 *
 * @typedef {import("d3-selection").Selection<any, any, any, any>} AnySelection
 * @typedef {(selection: AnySelection) => AnySelection} Tr
 */

/** Height of one feature row, in px. */
export const ROW_HEIGHT = 22;
/** Duration of the update transitions, in ms. */
export const TRANSITION_MS = 250;
/** Width used when the container has no layout yet (or in jsdom). */
export const DEFAULT_WIDTH = 640;

// Label column: estimated width of one character at the label font size
// (text is not measured, which also keeps jsdom and browsers in agreement).
export const CHAR_WIDTH = 6.6;
export const LABEL_GAP = 8;
const MIN_LABEL_WIDTH = 48;
const MAX_LABEL_FRACTION = 0.4;

/**
 * `name` as a label draws it (`visibleName`: names that differ invisibly drawn
 * apart), shortened to at most `maxChars` characters, ending with an ellipsis.
 *
 * @param {string} name
 * @param {number} maxChars
 * @returns {string}
 */
export function truncate(name, maxChars) {
  const shown = visibleName(name);
  if (shown.length <= maxChars) return shown;
  return `${shown.slice(0, Math.max(1, maxChars - 1))}…`;
}

/**
 * Shorten the tick labels of an axis just drawn to `maxChars` characters
 * ("month-to…"); a shortened label keeps its full text in an svg `<title>`,
 * shown on hover. Call it after the axis: d3-axis rewrites the labels.
 *
 * @param {AnySelection} axisG the axis's group.
 * @param {number} maxChars
 */
export function truncateTicks(axisG, maxChars) {
  axisG.selectAll(".tick text").each(function (label) {
    const full = String(label);
    const shown = truncate(full, maxChars);
    const text = select(this).text(shown);
    if (shown !== full) text.append("title").text(full);
  });
}

/**
 * Words of `text`, each cut into pieces of at most `maxChars` characters.
 *
 * @param {string} text
 * @param {number} maxChars
 */
function wrapWords(text, maxChars) {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((word) =>
      Array.from({ length: Math.ceil(word.length / maxChars) }, (_, k) =>
        word.slice(k * maxChars, (k + 1) * maxChars),
      ),
    );
}

/**
 * Greedy fill of `words` into lines of at most `width` characters.
 *
 * @param {string[]} words
 * @param {number} width
 */
function fillLines(words, width) {
  /** @type {string[]} */
  const lines = [];
  for (const word of words) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= width)
      lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines;
}

/**
 * Break `text` into at most `maxLines` lines of at most `maxChars`
 * characters each (estimated widths, like `truncate`).
 *
 * Text that fits stays one line. Otherwise, when its clauses (split after
 * ", ") each fit on a line, one clause per line; else the words are wrapped
 * into as few lines as possible, balanced in length. Words longer than a
 * line are cut; text that still needs more than `maxLines` lines ends with
 * an ellipsis (the last line holds as much of the rest as fits).
 *
 * @param {string} text
 * @param {number} maxChars
 * @param {number} maxLines
 * @returns {string[]} no empty lines ([] for blank text).
 */
export function wrapLabel(text, maxChars, maxLines) {
  const clean = text.trim().replace(/\s+/g, " ");
  const chars = Math.max(1, Math.floor(maxChars));
  if (clean === "") return [];
  if (clean.length <= chars) return [clean];
  const clauses = clean.split(/(?<=,) /);
  if (
    clauses.length <= maxLines &&
    clauses.every((clause) => clause.length <= chars)
  )
    return clauses;
  const words = wrapWords(clean, chars);
  const lines = fillLines(words, chars);
  if (lines.length > maxLines) {
    const last = Math.max(1, maxLines) - 1;
    return [
      ...lines.slice(0, last),
      truncate(lines.slice(last).join(" "), chars),
    ];
  }
  // Narrow the lines while their number stays the same: balanced lengths.
  const longest = Math.max(...words.map((word) => word.length));
  let width = chars;
  while (width > longest && fillLines(words, width - 1).length === lines.length)
    width -= 1;
  return fillLines(words, width);
}

/**
 * Width of the label column for `names` in a chart `width` px wide, and how
 * many characters fit in it.
 *
 * @param {string[]} names
 * @param {number} width
 * @param {number} [extra=0] px the column needs besides the text (markers).
 * @returns {{labelWidth: number, maxChars: number}}
 */
export function labelLayout(names, width, extra = 0) {
  const longest = names.reduce((n, name) => Math.max(n, name.length), 0);
  const labelWidth = Math.max(
    MIN_LABEL_WIDTH + extra,
    Math.min(
      longest * CHAR_WIDTH + LABEL_GAP + extra,
      width * MAX_LABEL_FRACTION,
    ),
  );
  // The epsilon keeps 7 * 6.6 / 6.6 from flooring to 6.
  const maxChars = Math.max(
    2,
    Math.floor((labelWidth - LABEL_GAP - extra) / CHAR_WIDTH + 1e-9),
  );
  return { labelWidth, maxChars };
}

/** No animation for users who asked for reduced motion. */
export function defaultDuration() {
  const reduce =
    typeof matchMedia === "function" &&
    matchMedia("(prefers-reduced-motion: reduce)").matches;
  return reduce ? 0 : TRANSITION_MS;
}

/**
 * Each container's last width with a layout (see measureWidth).
 *
 * @type {WeakMap<Element, number>}
 */
const lastWidths = new WeakMap();

/**
 * The container's width; while it has no layout (width 0: hidden, detached,
 * or JupyterLab relaying out the page, as when the theme changes), the width
 * it had last, and `fallback` before it ever had one. A redraw at that moment
 * used to draw at `fallback` (640 px) and keep it in a narrower output: no
 * resize followed, so the chart's right side and axis title stayed cut off.
 *
 * @param {Element} container
 * @param {number} [fallback]
 * @returns {number}
 */
export function measureWidth(container, fallback = DEFAULT_WIDTH) {
  const width = container.clientWidth;
  if (width > 0) lastWidths.set(container, width);
  return width > 0 ? width : (lastWidths.get(container) ?? fallback);
}

/**
 * The transition of one draw of `svg`, and `data-settled` kept up to date:
 * "false" while it runs, "true" once the last draw's transition ended (at
 * once for a draw without one).
 *
 * @param {AnySelection} svg
 * @param {() => boolean} destroyed
 * @returns {(animate: boolean, duration: number, exiting: string) =>
 *   {t: import("d3-transition").Transition<any, any, any, any> | null,
 *   tr: Tr}}
 *   Called once per draw; `exiting` selects rows fading out, which a draw
 *   without animation removes at once. `tr(selection)` is the selection's
 *   transition (or the selection itself without animation).
 */
export function drawTransitions(svg, destroyed) {
  // Incremented by every draw: only the latest one may mark the svg settled.
  let drawCount = 0;
  return (animate, duration, exiting) => {
    const t =
      animate && duration > 0 ? svg.transition().duration(duration) : null;
    if (t === null) {
      // Finish the picture at once: stop running transitions, drop rows that
      // were fading out.
      svg.interrupt();
      svg.selectAll("*").interrupt();
      svg.selectAll(exiting).remove();
    }
    drawCount += 1;
    const current = drawCount;
    if (t === null) {
      svg.attr("data-settled", "true");
    } else {
      svg.attr("data-settled", "false");
      // Every element's transition shares the timing of `t` (the svg's), so
      // they all end in the timer tick in which `t` ends; the promise settles
      // after that tick, once departed rows are removed too.
      t.end().then(
        () => {
          if (!destroyed() && current === drawCount)
            svg.attr("data-settled", "true");
        },
        () => {
          // Interrupted by a newer draw (which sets the attribute) or destroy.
        },
      );
    }
    // The transition typed as a selection: see `Tr`.
    const tr = /** @type {Tr} */ (
      (selection) => (t ? selection.transition(t) : selection)
    );
    return { t, tr };
  };
}

/**
 * Join `rows` to `g.<rowClass>` children of `parent`, keyed by `d.key`.
 * Entering rows are built by `build` and fade in from their place; leaving
 * rows lose their `data-testid`s and key attribute at once (tests and screen
 * readers see only the latest data) and fade out.
 *
 * @param {AnySelection} parent
 * @param {{key: string}[]} rows
 * @param {{rowClass: string, exitingClass: string, keyAttribute: string,
 *   build: (enter: AnySelection) => void,
 *   transform: (d: any) => string, tr: Tr}} options `transform` places a
 *   row (its datum is the chart's own row type).
 * @returns {AnySelection} the entered and updated rows.
 */
export function joinRows(
  parent,
  rows,
  { rowClass, exitingClass, keyAttribute, build, transform, tr },
) {
  const joined = parent
    .selectAll(`g.${rowClass}`)
    .data(rows, (/** @type {{key: string}} */ d) => d.key)
    .join(
      (/** @type {AnySelection} */ enter) =>
        enter
          .append("g")
          .attr("class", rowClass)
          .call(build)
          .attr("transform", transform)
          .style("opacity", 0),
      (/** @type {AnySelection} */ update) => update.interrupt().classed(exitingClass, false),
      (/** @type {AnySelection} */ exit) => {
        exit
          .classed(exitingClass, true)
          .attr(keyAttribute, null)
          .attr("tabindex", null)
          .attr("data-testid", null);
        exit.selectAll("[data-testid]").attr("data-testid", null);
        tr(exit).style("opacity", 0).remove();
        return exit;
      },
    );
  joined.attr(keyAttribute, (/** @type {{key: string}} */ d) => d.key);
  tr(joined).attr("transform", transform).style("opacity", 1);
  return joined;
}

/**
 * Call `show(rowNode, event)` while the pointer is over (or focus is in) a
 * live row of `svg`, `hide()` when it leaves.
 *
 * @param {AnySelection} svg
 * @param {{rowSelector: string, exitingClass: string,
 *   show: (row: Element, event: PointerEvent | null) => void,
 *   hide: () => void}} options
 * @returns {() => void} removes the listeners.
 */
export function hoverRows(svg, { rowSelector, exitingClass, show, hide }) {
  /** @param {EventTarget | null} target */
  const liveRow = (target) => {
    if (!(target instanceof Element)) return null;
    const node = target.closest(rowSelector);
    return node && !node.classList.contains(exitingClass) ? node : null;
  };
  svg
    .on("pointermove", (/** @type {PointerEvent} */ event) => {
      const node = liveRow(event.target);
      if (node) show(node, event);
      else hide();
    })
    .on("pointerleave", hide)
    .on("focusin", (/** @type {FocusEvent} */ event) => {
      const node = liveRow(event.target);
      if (node) show(node, null);
    })
    .on("focusout", hide);
  return () => {
    svg
      .on("pointermove", null)
      .on("pointerleave", null)
      .on("focusin", null)
      .on("focusout", null);
  };
}

/**
 * Call `onResize()` when `container` changes size (where ResizeObserver
 * exists).
 *
 * @param {Element} container
 * @param {() => void} onResize
 * @returns {() => void} stops observing.
 */
export function observeResize(container, onResize) {
  if (typeof ResizeObserver === "undefined") return () => {};
  const observer = new ResizeObserver(() => onResize());
  observer.observe(container);
  return () => observer.disconnect();
}

/**
 * Call `onChange()` when the page's theme changes: JupyterLab's theme
 * attributes on <body>, or the system's colour scheme (VS Code, a saved
 * page). Svg follows css by itself; a canvas keeps the colours it was painted
 * with, so its painter repaints on this.
 *
 * @param {() => void} onChange
 * @returns {() => void} stops observing.
 */
export function observeTheme(onChange) {
  /** @type {(() => void)[]} */
  const stops = [];
  if (typeof MutationObserver !== "undefined" && typeof document !== "undefined") {
    const observer = new MutationObserver(() => onChange());
    observer.observe(document.body, {
      attributes: true,
      attributeFilter: ["data-jp-theme-name", "data-jp-theme-light"],
    });
    stops.push(() => observer.disconnect());
  }
  if (typeof matchMedia === "function") {
    const scheme = matchMedia("(prefers-color-scheme: dark)");
    scheme.addEventListener?.("change", onChange);
    stops.push(() => scheme.removeEventListener?.("change", onChange));
  }
  return () => stops.forEach((stop) => stop());
}

/**
 * d3-axis pins font-size="10" and a font family on its group: drop them so
 * tick labels take the widget's theme font and size.
 *
 * @param {AnySelection} axisG
 */
export function themeAxis(axisG) {
  axisG.attr("font-size", null).attr("font-family", null);
}

/**
 * The x domain of a row chart: 0 and every finite value of `values`, padded
 * by `padFraction` of the span away from zero ([0, 1] when all are 0).
 *
 * @param {Iterable<number>} values
 * @param {number} padFraction
 * @returns {[number, number]}
 */
export function zeroBasedDomain(values, padFraction) {
  let lo = 0;
  let hi = 0;
  for (const v of values) {
    if (Number.isFinite(v)) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  }
  if (hi - lo === 0) return [0, 1];
  const pad = (hi - lo) * padFraction;
  return [lo < 0 ? lo - pad : 0, hi > 0 ? hi + pad : 0];
}

/**
 * Layout of a row chart `width` px wide: label column, plot size and the
 * band scale of the rows (by `feature`).
 *
 * @param {{feature: string}[]} rows
 * @param {number} width
 * @param {{margin: {right: number}, rowHeight: number, extra?: number}} options
 *   `extra` as in `labelLayout`.
 * @returns {{labelWidth: number, maxChars: number, innerWidth: number,
 *   innerHeight: number, y: import("d3-scale").ScaleBand<string>,
 *   band: number, mid: number}}
 */
export function rowLayout(rows, width, { margin, rowHeight, extra = 0 }) {
  const features = rows.map((r) => r.feature);
  const { labelWidth, maxChars } = labelLayout(features, width, extra);
  const innerWidth = Math.max(40, width - labelWidth - margin.right);
  const innerHeight = rows.length * rowHeight;
  const y = scaleBand()
    .domain(features)
    .range([0, innerHeight])
    .paddingInner(0.28)
    .paddingOuter(0.14);
  const band = y.bandwidth();
  return {
    labelWidth,
    maxChars,
    innerWidth,
    innerHeight,
    y,
    band,
    mid: band / 2,
  };
}

/**
 * Size `svg` for `layout` (hidden without rows) and place `plot` in it.
 *
 * @param {AnySelection} svg
 * @param {AnySelection} plot
 * @param {Tr} tr
 * @param {{width: number, layout: ReturnType<typeof rowLayout>,
 *   margin: {top: number, bottom: number}, empty: boolean}} options
 */
export function sizeRowChart(svg, plot, tr, { width, layout, margin, empty }) {
  svg
    .attr("width", width)
    .attr("height", layout.innerHeight + margin.top + margin.bottom);
  setShown(svg, !empty);
  tr(plot).attr("transform", `translate(${layout.labelWidth},${margin.top})`);
}

/**
 * Show `selection` (its stylesheet's display) or hide it (display: none).
 * Two calls: d3's types have one overload for a value, one for null.
 *
 * @param {AnySelection} selection
 * @param {boolean} shown
 */
export function setShown(selection, shown) {
  if (shown) selection.style("display", null);
  else selection.style("display", "none");
}

/**
 * Place each row's hover/focus rect (over the whole row) and its label,
 * truncated, with the full name as its title.
 *
 * @param {AnySelection} joined the rows.
 * @param {{hit: string, label: string, text: string, labelX: number,
 *   layout: ReturnType<typeof rowLayout>}} options selectors of the rect, the
 *   label and its text tspan; `labelX` the label's right end.
 */
export function drawRowLabels(joined, { hit, label, text, labelX, layout }) {
  const { labelWidth, innerWidth, mid, maxChars, y } = layout;
  const step = y.step();
  joined
    .select(hit)
    .attr("x", -labelWidth)
    .attr("y", mid - step / 2)
    .attr("width", labelWidth + innerWidth)
    .attr("height", step);
  const labels = joined
    .select(label)
    .attr("x", labelX)
    .attr("y", mid)
    .attr("dy", "0.32em");
  labels
    .select(text)
    .text((/** @type {{feature: string}} */ d) => truncate(d.feature, maxChars));
  labels.select("title").text((/** @type {{feature: string}} */ d) => d.feature);
}

/**
 * Draw the zero line, the bottom axis of `x` and the axis title.
 *
 * @param {{zeroLine: AnySelection, axisG: AnySelection,
 *   axisTitle: AnySelection}} parts
 * @param {{x: import("d3-scale").ScaleLinear<number, number>,
 *   layout: ReturnType<typeof rowLayout>, margin: {bottom: number},
 *   title: string, tr: Tr}} options
 */
export function drawRowAxis(
  { zeroLine, axisG, axisTitle },
  { x, layout, margin, title, tr },
) {
  const { innerWidth, innerHeight } = layout;
  tr(zeroLine)
    .attr("x1", x(0))
    .attr("x2", x(0))
    .attr("y1", 0)
    .attr("y2", innerHeight);
  tr(axisG)
    .attr("transform", `translate(0,${innerHeight})`)
    .call(
      axisBottom(x)
        .ticks(Math.max(2, Math.floor(innerWidth / 80)))
        .tickSizeOuter(0),
    );
  themeAxis(axisG);
  axisTitle
    .attr("x", innerWidth / 2)
    .attr("y", innerHeight + margin.bottom - 6)
    .text(title);
}
