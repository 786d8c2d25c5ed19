// @ts-check
// Number and name formatting shared by the charts, tables and tooltips.
import { format } from "d3-format";

/** Smallest magnitude written in decimal notation; below it, scientific. */
export const DECIMAL_FLOOR = 1e-4;

const thousands = format(",.0f");
const tiny = format(".2~e");
const significant = format(".3~r");
// Values far below the rest of their column: decimal notation still, rounded
// to the decimals that 3 significant digits of DECIMAL_FLOOR need.
const sixDecimals = format(".6~f");

/**
 * A short, readable number: 3 significant digits ("0.452", "12.3",
 * "0.000874"), thousands grouped without decimals ("1,235"), scientific
 * below 1e-4 ("1.23e-5"), "n/a" for NaN or infinities. Negative numbers use
 * d3-format's minus sign (−).
 *
 * @param {number} value
 * @returns {string}
 */
export function formatNumber(value) {
  if (!Number.isFinite(value)) return "n/a";
  if (value === 0) return "0";
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return thousands(value);
  if (magnitude < DECIMAL_FLOOR) return tiny(value);
  return significant(value);
}

/**
 * A formatter for one column of numbers (a table column, and the same
 * quantity in the tooltip), so that one notation holds for the whole column
 * and "8.74e-4" never sits next to "0.0035".
 *
 * When the column's largest magnitude is at least 1e-4, every value is
 * written in decimal notation like `formatNumber` ("0.0122", "0.000874",
 * "1,235"), values below 1e-4 included: they are rounded to 6 decimals
 * ("0.000012", or "0") instead of switching to scientific notation. When the
 * whole column is below 1e-4, every value is scientific ("8.7e-5"). Zero is
 * "0", NaN and infinities "n/a".
 *
 * @param {Iterable<number> | null | undefined} values the column.
 * @returns {(value: number) => string}
 */
export function columnFormat(values) {
  let largest = 0;
  for (const value of values ?? []) {
    if (Number.isFinite(value)) largest = Math.max(largest, Math.abs(value));
  }
  const scientific = largest > 0 && largest < DECIMAL_FLOOR;
  return (value) => {
    if (!Number.isFinite(value)) return "n/a";
    if (value === 0) return "0";
    if (scientific) return tiny(value);
    const magnitude = Math.abs(value);
    if (magnitude >= 1000) return thousands(value);
    if (magnitude >= DECIMAL_FLOOR) return significant(value);
    return sixDecimals(value);
  };
}

/**
 * A duration for humans: "<0.1 s" for what would read "0.0 s", "3.2 s"
 * under 10 s, "42 s" under a minute, then "2 min 5 s".
 *
 * @param {number} seconds non-negative
 * @returns {string}
 */
export function formatSeconds(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) return "?";
  if (seconds < 0.05) return "<0.1 s";
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const rounded = Math.round(seconds);
  const minutes = Math.floor(rounded / 60);
  const rest = rounded % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

// What a reader cannot see, as Python's str.isprintable() has it: controls,
// format characters (U+200D ZERO WIDTH JOINER), surrogates, private use,
// unassigned, line and paragraph separators, and every space but U+0020.
// Not the bidi embeddings, overrides and isolates (U+202A-U+202E,
// U+2066-U+2069): the browser applies them, and isolate() bounds them.
const HIDDEN = /(?![\u202a-\u202e\u2066-\u2069])(?:[\p{C}\p{Zl}\p{Zp}]|(?! )\p{Zs})/gu;
const CYRILLIC = /\p{Script=Cyrillic}/gu;
const LATIN = /\p{Script=Latin}/u;
const EDGE_SPACES = /^ +| +$/g;

/**
 * A character as Python's repr escapes it: "\\x00", "\\u200d", "\\U0001d400".
 *
 * @param {string} char
 * @returns {string}
 */
function escapeChar(char) {
  const code = /** @type {number} */ (char.codePointAt(0));
  const hex = code.toString(16);
  if (code < 0x100) return `\\x${hex.padStart(2, "0")}`;
  if (code < 0x10000) return `\\u${hex.padStart(4, "0")}`;
  return `\\U${hex.padStart(8, "0")}`;
}

/**
 * A name longer than this is cut, ending with "…", wherever it is drawn
 * (`visibleName`, and so `isolate`, `truncate` and the ticks): 1 MB names
 * made a saved page millions of pixels wide. The figures cut at the same
 * length (MAX_NAME_CHARS in src/inspectwidgets/_text.py). The whole name is
 * in the label's title, shown on hover.
 */
export const MAX_NAME_CHARS = 40;

/**
 * `text`, or its first `limit - 1` characters and "…" when longer; counted
 * in code points, so a character outside the BMP is never cut in half.
 *
 * @param {string} text
 * @param {number} [limit]
 * @returns {string}
 */
export function cutName(text, limit = MAX_NAME_CHARS) {
  if (text.length <= limit) return text; // UTF-16 units ≥ code points
  const chars = Array.from(text.slice(0, 2 * limit));
  if (chars.length <= limit && text.length <= 2 * limit) return text;
  return `${chars.slice(0, Math.max(1, limit - 1)).join("")}…`;
}

/**
 * `name` (a column, category, class or model name) as a label draws it, so
 * that names differing invisibly are drawn apart, as the figures draw them
 * (`visible` in src/inspectwidgets/_text.py): a character a reader cannot
 * see (U+200D, U+00A0, NUL) written as Python's repr writes it ("\\u200d"),
 * a space at either end as "␣", and in a name holding Latin letters each
 * Cyrillic letter escaped ("\\u0430ge" for "аge"). Anything else is
 * unchanged; a name longer than MAX_NAME_CHARS is cut (`cutName`). The full
 * name goes in the label's title, shown on hover (`isolateWhole`).
 *
 * @param {unknown} name
 * @returns {string}
 */
export function visibleName(name) {
  return shownName(name, MAX_NAME_CHARS);
}

/**
 * @param {unknown} name
 * @param {number} limit
 * @returns {string}
 */
function shownName(name, limit) {
  let text = String(name);
  // Cut before escaping: a 1 MB name is not scanned whole (escapes only
  // lengthen it, so what is cut here would be cut below anyway).
  if (text.length > 4 * limit) text = text.slice(0, 4 * limit);
  text = text.replace(HIDDEN, escapeChar);
  if (LATIN.test(text)) text = text.replace(CYRILLIC, escapeChar);
  return cutName(
    text.replace(EDGE_SPACES, (spaces) => "\u2423".repeat(spaces.length)),
    limit,
  );
}

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Show `name` in `node` (an HTML or SVG element) as a label draws it:
 * `text` (by default `visibleName(name)`, cut to MAX_NAME_CHARS) as its
 * text, and the whole name on hover when the two differ: an HTML element's
 * title attribute, or an SVG element's `<title>` child (SVG has no title
 * attribute). Every label, legend entry, axis title and table cell holding
 * a name alone goes through here, so a 1 MB name never widens the page.
 *
 * @template {Element | null | undefined} N
 * @param {N} node
 * @param {unknown} name
 * @param {string} [text] the label as drawn, when composed of the name and
 *   more (a legend's "name (n = 40)" built with `isolate`).
 * @returns {N} `node`, so that a cell can be made and named at once.
 */
export function showName(node, name, text = visibleName(name)) {
  if (!node) return node;
  const full = String(name);
  node.textContent = text; // also removes an SVG label's earlier <title>
  if (node.namespaceURI === SVG_NS) {
    if (text === full) return node;
    const title = node.ownerDocument.createElementNS(SVG_NS, "title");
    title.textContent = full;
    node.append(title);
  } else if (text === full) node.removeAttribute("title");
  else node.setAttribute("title", full);
  return node;
}

/**
 * A menu's `<option>` for `name` (a model, scorer, column or class): its
 * value the whole name, its text cut (`showName`), the whole name on hover.
 * A menu is as wide as its widest option: a 1 MB model name made the
 * reviewed-model menu millions of pixels wide.
 *
 * @param {unknown} name
 * @param {string} [value] the option's value, when not the name itself.
 * @returns {HTMLOptionElement}
 */
export function nameOption(name, value = String(name)) {
  const option = document.createElement("option");
  option.value = value;
  showName(option, name);
  return option;
}

/**
 * `name` (a column, category, class or model name) set apart for the
 * bidirectional algorithm, to be put inside a longer text: between U+2068
 * FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, as `<bdi>` does,
 * and drawn as `visibleName` draws it. A right-to-left override (U+202E) or
 * isolate it holds then ends with it, and cannot reverse what follows
 * ("= 0.5", "× other"); nor can a right-to-left script's name pull the
 * numbers after it into its run. Every text composed of a name and more
 * (tooltips, titles, notes, flags, aria labels) puts the name through here.
 * Text nodes holding a name alone are isolated by CSS instead
 * (ui/theme.css).
 *
 * @param {unknown} name
 * @returns {string}
 */
export function isolate(name) {
  return `\u2068${visibleName(name)}\u2069`;
}

/**
 * A rule (a cohort's, a subgroup's, an ICE cluster's) is names and
 * conditions: cut at this many characters, not at a name's length, which
 * drew two subgroups whose rules share their first 40 characters alike.
 */
export const MAX_RULE_CHARS = 240;

/**
 * `rule` as a label draws it: `visibleName`'s escapes, cut at
 * MAX_RULE_CHARS.
 *
 * @param {unknown} rule
 * @returns {string}
 */
export function visibleRule(rule) {
  return shownName(rule, MAX_RULE_CHARS);
}

/**
 * `rule` set apart inside a longer text, as `isolate` sets a name apart.
 *
 * @param {unknown} rule
 * @returns {string}
 */
export function isolateRule(rule) {
  return `\u2068${visibleRule(rule)}\u2069`;
}

/**
 * `isolate` without the cut: for a label's title, shown on hover, which
 * holds the whole name (a title takes no room in the page).
 *
 * @param {unknown} name
 * @returns {string}
 */
export function isolateWhole(name) {
  return `\u2068${shownName(name, Infinity)}\u2069`;
}
