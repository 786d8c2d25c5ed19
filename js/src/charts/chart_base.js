// What the row charts share (one row per feature, joined by name): label
// column layout, transitions that honour reduced motion, the `data-settled`
// flag, the keyed row join, hover and focus handling, width tracking.

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
 * Shorten `name` to at most `maxChars` characters, ending with an ellipsis.
 *
 * @param {string} name
 * @param {number} maxChars
 * @returns {string}
 */
export function truncate(name, maxChars) {
  if (name.length <= maxChars) return name;
  return `${name.slice(0, Math.max(1, maxChars - 1))}…`;
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

/** The container's width, or `DEFAULT_WIDTH` before it has a layout. */
export function measureWidth(container, fallback = DEFAULT_WIDTH) {
  return container.clientWidth > 0 ? container.clientWidth : fallback;
}

/**
 * The transition of one draw of `svg`, and `data-settled` kept up to date:
 * "false" while it runs, "true" once the last draw's transition ended (at
 * once for a draw without one).
 *
 * @param {import("d3-selection").Selection} svg
 * @param {() => boolean} destroyed
 * @returns {(animate: boolean, duration: number, exiting: string) =>
 *   {t: object | null, tr: (selection: object) => object}}
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
    return { t, tr: (selection) => (t ? selection.transition(t) : selection) };
  };
}

/**
 * Join `rows` to `g.<rowClass>` children of `parent`, keyed by `d.key`.
 * Entering rows are built by `build` and fade in from their place; leaving
 * rows lose their `data-testid`s and key attribute at once (tests and screen
 * readers see only the latest data) and fade out.
 *
 * @returns {import("d3-selection").Selection} the entered and updated rows.
 */
export function joinRows(
  parent,
  rows,
  { rowClass, exitingClass, keyAttribute, build, transform, tr },
) {
  const joined = parent
    .selectAll(`g.${rowClass}`)
    .data(rows, (d) => d.key)
    .join(
      (enter) =>
        enter
          .append("g")
          .attr("class", rowClass)
          .call(build)
          .attr("transform", transform)
          .style("opacity", 0),
      (update) => update.interrupt().classed(exitingClass, false),
      (exit) => {
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
  joined.attr(keyAttribute, (d) => d.key);
  tr(joined).attr("transform", transform).style("opacity", 1);
  return joined;
}

/**
 * Call `show(rowNode, event)` while the pointer is over (or focus is in) a
 * live row of `svg`, `hide()` when it leaves.
 *
 * @returns {() => void} removes the listeners.
 */
export function hoverRows(svg, { rowSelector, exitingClass, show, hide }) {
  const liveRow = (target) => {
    const node = target?.closest?.(rowSelector);
    return node && !node.classList.contains(exitingClass) ? node : null;
  };
  svg
    .on("pointermove", (event) => {
      const node = liveRow(event.target);
      if (node) show(node, event);
      else hide();
    })
    .on("pointerleave", hide)
    .on("focusin", (event) => {
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
 * @returns {() => void} stops observing.
 */
export function observeResize(container, onResize) {
  if (typeof ResizeObserver === "undefined") return () => {};
  const observer = new ResizeObserver(() => onResize());
  observer.observe(container);
  return () => observer.disconnect();
}

/**
 * d3-axis pins font-size="10" and a font family on its group: drop them so
 * tick labels take the widget's theme font and size.
 */
export function themeAxis(axisG) {
  axisG.attr("font-size", null).attr("font-family", null);
}
