// @ts-check
// The inspector's cohorts: the colour the header gives each (the one the
// Importance and Effects views' "(cohorts)" split gives it: Python lists the
// cohorts in the same order, "rest" last, in each) and the rule text the
// header's form writes. Nothing is computed here.

import { groupColor } from "../charts/grouped_importance.js";

/**
 * A cohort's colour: the grouped importance chart's for the same position
 * (Tableau 10, the PD widget's split too), grey when small.
 *
 * @param {number} index
 * @param {boolean} small
 */
export function cohortColor(index, small) {
  return groupColor({ label: "", size: 0, small }, index);
}

/**
 * A column's name as a rule writes it: as is when it is a plain word that no
 * other column continues, else in backticks with each backtick doubled, so
 * that it reads back as exactly this column (`rule_name` in
 * inspection/_core/cohort_rules.py, the same rule). A name holding
 * "` > 0 or `" wrote a condition of its own before (#49 item 7).
 *
 * @param {string} name
 * @param {string[]} [names] every column's name.
 */
export function ruleName(name, names = []) {
  const continued = names.some(
    (other) =>
      other !== name && other.startsWith(name) && !/^[A-Za-z0-9_.]/.test(other.slice(name.length)),
  );
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) && !continued
    ? name
    : `\`${name.replaceAll("`", "``")}\``;
}

/**
 * A value as a rule writes it: numbers and True/False as they are for
 * number and bool columns, anything else quoted, a quote, a backslash and a
 * control character escaped.
 *
 * @param {string} value as typed or chosen.
 * @param {string} kind the column's kind: "number", "bool" or "text".
 */
export function ruleValue(value, kind) {
  const text = value.trim();
  if (kind === "number" && text !== "" && Number.isFinite(Number(text))) return text;
  if (kind === "bool" && /^(true|false)$/i.test(text))
    return text.toLowerCase() === "true" ? "True" : "False";
  // Python's escapes (the rule's texts are read as Python literals): a line
  // end or NUL as is ended the text, or was refused.
  const escaped = text
    .replaceAll("\\", "\\\\")
    .replaceAll("'", "\\'")
    // eslint-disable-next-line no-control-regex -- the control characters are the point
    .replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return `'${escaped}'`;
}

/**
 * One condition's text: `name op value`, or `name is missing`.
 *
 * @param {{name: string, kind: string}} field
 * @param {string} op
 * @param {string} value
 * @param {string[]} [names] every column's name (see `ruleName`).
 */
export function conditionText(field, op, value, names = []) {
  const name = ruleName(field.name, names);
  if (op === "is missing" || op === "is not missing") return `${name} ${op}`;
  return `${name} ${op} ${ruleValue(value, field.kind)}`;
}

/**
 * The comparisons the form offers for a kind of column.
 *
 * @param {string} kind
 * @returns {string[]}
 */
export function operatorsFor(kind) {
  const always = ["==", "!=", "is missing", "is not missing"];
  return kind === "number" ? ["<", "<=", ">", ">=", ...always] : always;
}
