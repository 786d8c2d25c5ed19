// @ts-check
// The Effects overview's layout, from the `_overview` trait: panels in the
// order Python sent them (most important first), a grid of columns that fits
// the width, and one y-domain shared by every panel. Python computes every
// number; this only places them.
//
// One y-scale for all panels, not one each: the overview is read by
// comparing features, and a per-panel scale would stretch a feature that
// barely moves the prediction into a curve as steep as the strongest one's.
import { isolate } from "../charts/format.js";


/**
 * @typedef {{feature: string, categorical: boolean, importance: number | null,
 *   note: string, x: (number | string)[], y: number[],
 *   missing_y: number | null, state: "done" | "pending" | "failed"}} Panel
 * @typedef {{status: string, progress: number, error: string,
 *   order_by: string, order_label: string, target: string,
 *   panels: Panel[]}} Overview
 */

/** A panel's width at least (px), and its plot's height. */
export const PANEL_MIN_WIDTH = 150;
export const PANEL_HEIGHT = 96;
/** Characters of a feature's name shown in a panel's title. */
export const TITLE_CHARS = 22;

/**
 * Read the trait, checking its shape; null when there is nothing to draw.
 *
 * @param {unknown} value the `_overview` trait.
 * @returns {Overview | null}
 */
export function overviewResult(value) {
  if (!value || typeof value !== "object") return null;
  const v = /** @type {Record<string, unknown>} */ (value);
  if (!Array.isArray(v.panels)) return null;
  const panels = v.panels.map((p, i) => {
    if (!p || typeof p !== "object" || typeof p.feature !== "string")
      throw new Error(`overview panel ${i} has no feature name`);
    if (p.state === "done" && p.x.length !== p.y.length)
      throw new Error(
        `overview panel "${p.feature}": ${p.x.length} x values, ${p.y.length} y values`,
      );
    return /** @type {Panel} */ (p);
  });
  return {
    status: String(v.status ?? "idle"),
    progress: Number(v.progress ?? 0),
    error: String(v.error ?? ""),
    order_by: String(v.order_by ?? "pd_spread"),
    order_label: String(v.order_label ?? ""),
    target: String(v.target ?? ""),
    panels,
  };
}

/**
 * The shared y-domain: every drawn value (the missing points' too), padded
 * by 5 % each side; [0, 1] when nothing is drawn, and a band around a
 * constant.
 *
 * @param {Panel[]} panels
 * @returns {[number, number]}
 */
export function sharedDomain(panels) {
  let low = Infinity;
  let high = -Infinity;
  for (const p of panels) {
    if (p.state !== "done") continue;
    for (const y of [...p.y, ...(p.missing_y === null ? [] : [p.missing_y])]) {
      if (!Number.isFinite(y)) continue;
      low = Math.min(low, y);
      high = Math.max(high, y);
    }
  }
  if (low === Infinity) return [0, 1];
  if (high === low) {
    const pad = Math.abs(low) * 0.05 || 0.5;
    return [low - pad, high + pad];
  }
  const pad = (high - low) * 0.05;
  return [low - pad, high + pad];
}

/**
 * Columns of the grid and each panel's width for a container `width` px wide.
 *
 * @param {number} n panels.
 * @param {number} width
 * @param {number} [gap] px between panels.
 */
export function gridLayout(n, width, gap = 8) {
  const fit = Math.max(1, Math.floor((width + gap) / (PANEL_MIN_WIDTH + gap)));
  const columns = Math.max(1, Math.min(n, fit));
  const panelWidth = Math.floor((width - gap * (columns - 1)) / columns);
  return { columns, panelWidth: Math.max(PANEL_MIN_WIDTH, panelWidth) };
}

/**
 * What the header says the order is based on, and the shared y-scale's
 * range (the panels have no axes of their own).
 *
 * @param {Overview} overview
 * @param {(value: number) => string} [format]
 */
export function orderText(overview, format = String) {
  const by = overview.order_label || overview.order_by;
  const cls = overview.target ? ` · class ${isolate(overview.target)}` : "";
  const drawn = overview.panels.filter((p) => p.state === "done");
  let scale = "one y-scale";
  if (drawn.length > 0) {
    const values = drawn.flatMap((p) => [
      ...p.y,
      ...(p.missing_y === null ? [] : [p.missing_y]),
    ]);
    scale = `one y-scale, ${format(Math.min(...values))} to ${format(Math.max(...values))}`;
  }
  const done = overview.panels.filter((p) => p.state !== "pending").length;
  const progress =
    overview.status === "running"
      ? ` · ${done} of ${overview.panels.length} features computed`
      : "";
  return `Every feature's partial dependence, most important first (by ${by})${cls} · ${scale}${progress}`;
}

/**
 * Why a panel has no curve (shown in it, never a blank panel).
 *
 * @param {Panel} panel
 * @param {string} status the overview's status.
 */
export function panelMessage(panel, status) {
  if (panel.state === "failed") return panel.note || "Could not be computed.";
  if (panel.state === "pending")
    return status === "running" ? "Computing…" : "Not computed (stopped).";
  if (panel.x.length === 0) return "No grid values.";
  return "";
}
