// Number formatting shared by the charts, tables and tooltips.
import { format } from "d3-format";

const thousands = format(",.0f");
const tiny = format(".2~e");
const significant = format(".3~r");

/**
 * A short, readable number: 3 significant digits ("0.452", "12.3"),
 * thousands grouped without decimals ("1,235"), scientific for tiny values
 * ("1.2e-5"), "n/a" for NaN or infinities. Negative numbers use d3-format's
 * minus sign (−).
 *
 * @param {number} value
 * @returns {string}
 */
export function formatNumber(value) {
  if (!Number.isFinite(value)) return "n/a";
  if (value === 0) return "0";
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return thousands(value);
  if (magnitude < 1e-3) return tiny(value);
  return significant(value);
}

/**
 * A duration for humans: "3.2 s" under 10 s, "42 s" under a minute, then
 * "2 min 5 s".
 *
 * @param {number} seconds non-negative
 * @returns {string}
 */
export function formatSeconds(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) return "?";
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const rounded = Math.round(seconds);
  const minutes = Math.floor(rounded / 60);
  const rest = rounded % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}
