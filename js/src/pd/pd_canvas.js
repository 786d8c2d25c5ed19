// @ts-check
// Canvas plumbing for the partial dependence charts: a canvas placed over a
// plot area at the device pixel ratio, the theme colour it paints with, and
// the ICE painter (thousands of polylines, one stroke each).

/**
 * Place `canvas` (absolutely positioned in its chart) over the plot area and
 * return its 2d context, cleared, in css px; null where there is no canvas
 * support (jsdom without a stub).
 *
 * @param {HTMLCanvasElement} canvas
 * @param {{left: number, top: number, width: number, height: number}} box
 * @returns {CanvasRenderingContext2D | null}
 */
export function prepareCanvas(canvas, { left, top, width, height }) {
  const ratio = globalThis.devicePixelRatio || 1;
  canvas.style.left = `${left}px`;
  canvas.style.top = `${top}px`;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  const w = Math.max(1, Math.round(width * ratio));
  const h = Math.max(1, Math.round(height * ratio));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  /** @type {CanvasRenderingContext2D | null} */
  let context = null;
  try {
    context = canvas.getContext?.("2d") ?? null;
  } catch {
    // jsdom: "not implemented"; context stays null.
  }
  if (!context) return null;
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.clearRect(0, 0, width, height);
  return context;
}

/** ICE curves' colour where the stylesheet gives none (JupyterLab's blue). */
export const ICE_FALLBACK_COLOR = "#1976d2";

/**
 * The colour a canvas paints with: its computed css `color` (set from the
 * theme variables in the stylesheet), or `fallback` where css is missing.
 *
 * @param {Element} canvas
 * @param {string} fallback
 * @returns {string}
 */
export function canvasColor(canvas, fallback) {
  const color =
    typeof getComputedStyle === "function"
      ? getComputedStyle(canvas).color
      : "";
  return color && color !== "canvastext" ? color : fallback;
}

/**
 * Opacity of one ICE curve among `m`: denser bundles, fainter lines.
 *
 * @param {number} m
 */
export function iceAlpha(m) {
  return Math.min(0.6, Math.max(0.04, 2.5 / Math.sqrt(Math.max(1, m))));
}

/**
 * Paint ICE curves: row i of the row-major `[rows, cols]` `values` is one
 * polyline through (xs[j], y0 + ky * values[i, j]) for j < `done`; NaN
 * values lift the pen (they are not drawn). With `steps`, the value at
 * xs[j] holds from xs[j - 1] on: a vertical rise at xs[j - 1], then flat.
 *
 * @param {CanvasRenderingContext2D} context
 * @param {{values: ArrayLike<number>, rows: number, cols: number,
 *   done: number, xs: ArrayLike<number>, y0: number, ky: number,
 *   color: string, alpha: number, lineWidth?: number,
 *   steps?: boolean}} curves
 * @returns {number} polylines stroked.
 */
export function paintIce(
  context,
  {
    values,
    rows,
    cols,
    done,
    xs,
    y0,
    ky,
    color,
    alpha,
    lineWidth = 1,
    steps = false,
  },
) {
  context.save();
  context.strokeStyle = color;
  context.globalAlpha = alpha;
  context.lineWidth = lineWidth;
  context.lineJoin = "round";
  let stroked = 0;
  const n = Math.min(done, cols);
  for (let i = 0; i < rows; i += 1) {
    const offset = i * cols;
    let penDown = false;
    let segments = 0;
    context.beginPath();
    for (let j = 0; j < n; j += 1) {
      const v = values[offset + j];
      if (Number.isNaN(v)) {
        penDown = false; // NaN: not computed yet
        continue;
      }
      const y = y0 + ky * v;
      if (penDown) {
        if (steps) context.lineTo(xs[j - 1], y);
        context.lineTo(xs[j], y);
      } else {
        context.moveTo(xs[j], y);
        penDown = true;
        segments += 1;
      }
    }
    if (segments > 0) {
      context.stroke();
      stroked += 1;
    }
  }
  context.restore();
  return stroked;
}
