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
 * A column's name as a rule writes it: as is when it is a plain word, else
 * in backticks.
 *
 * @param {string} name
 */
export function ruleName(name) {
  return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : `\`${name}\``;
}

/**
 * A value as a rule writes it: numbers and True/False as they are for
 * number and bool columns, anything else quoted.
 *
 * @param {string} value as typed or chosen.
 * @param {string} kind the column's kind: "number", "bool" or "text".
 */
export function ruleValue(value, kind) {
  const text = value.trim();
  if (kind === "number" && text !== "" && Number.isFinite(Number(text))) return text;
  if (kind === "bool" && /^(true|false)$/i.test(text))
    return text.toLowerCase() === "true" ? "True" : "False";
  return `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

/**
 * One condition's text: `name op value`, or `name is missing`.
 *
 * @param {{name: string, kind: string}} field
 * @param {string} op
 * @param {string} value
 */
export function conditionText(field, op, value) {
  if (op === "is missing" || op === "is not missing") return `${ruleName(field.name)} ${op}`;
  return `${ruleName(field.name)} ${op} ${ruleValue(value, field.kind)}`;
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
