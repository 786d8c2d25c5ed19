// @ts-check
// The inspector header's cohorts: each cohort's colour, name, rule, rows
// and held-out scores (from `_header.cohorts`, Python's), a button to remove
// it, and a form to add one: a column, a comparison and a value make a
// condition ("+ and" joins another), a name, then "Add cohort". The whole
// list goes to Python (`set_cohorts`), which checks the rule; a refused one
// comes back as `_cohorts_error`, shown here, the cohorts in force kept.

import { columnFormat, isolate, nameOption, showName, visibleRule } from "../charts/format.js";
import { commitOnEnter } from "../ui/controls.js";
import { h } from "../ui/dom.js";
import { cohortColor, conditionText, operatorsFor } from "./cohort_data.js";

/**
 * @typedef {{name: string, rule: string, size: number, small?: boolean,
 *   scores: Record<string, number> | null}} CohortEntry
 * @typedef {{name: string, kind: string, values: string[], note?: string}} Field
 *   `note`: why a text column's suggestions are few (an ID's or an e-mail's
 *   values in fewer than 5 rows are never suggested: Python's level_summary).
 */

/**
 * One line per cohort of the header (pure, for tests): its name, rule, rows
 * and each scorer's score ("…" while its run computes, "n/a" where it has
 * none).
 *
 * @param {CohortEntry[]} entries `_header.cohorts`.
 * @param {string[]} scorers
 * @returns {{name: string, rule: string, rows: string, scores: string[],
 *   small: boolean, removable: boolean}[]}
 */
export function cohortLines(entries, scorers) {
  const format = columnFormat(
    entries.flatMap((e) => scorers.map((s) => Number(e.scores?.[s] ?? NaN))),
  );
  return entries.map((entry) => ({
    name: entry.name,
    rule: entry.rule || "rows in no cohort",
    rows: `${Number(entry.size).toLocaleString("en-US")} rows`,
    // No scores yet: "…"; scores without this one (a cohort of no rows, a
    // score undefined on its rows): "n/a".
    scores: scorers.map((s) => {
      if (entry.scores === undefined || entry.scores === null) return "…";
      const value = entry.scores[s];
      return value === undefined || value === null ? "n/a" : format(Number(value));
    }),
    small: Boolean(entry.small),
    removable: entry.rule !== "",
  }));
}

/**
 * @param {{model: import("../ui/model.js").WidgetModel,
 *   dom: import("../ui/dom.js").ListenerBag}} context
 * @returns {{node: HTMLElement, update: () => void}}
 */
export function createCohortEditor({ model, dom }) {
  const table = h("table", { className: "mi-scores mi-cohorts", testid: "mi-cohorts" });
  const name = h("input", {
    testid: "mi-cohort-name",
    attrs: { type: "text", placeholder: "name", "aria-label": "Cohort name", size: 12 },
  });
  const field = h("select", { testid: "mi-cohort-field", attrs: { "aria-label": "Column" } });
  const op = h("select", { testid: "mi-cohort-op", attrs: { "aria-label": "Comparison" } });
  const values = h("datalist", { attrs: { id: `mi-cohort-values-${Math.random().toString(36).slice(2)}` } });
  const value = h("input", {
    testid: "mi-cohort-value",
    attrs: { type: "text", placeholder: "value", "aria-label": "Value", size: 8, list: values.id },
  });
  const and = h("button", {
    testid: "mi-cohort-and",
    text: "+ and",
    attrs: { type: "button", title: "Add this condition to the rule with “and”" },
  });
  const rule = h("input", {
    testid: "mi-cohort-rule",
    attrs: {
      type: "text",
      placeholder: "rule, e.g. age < 30 and plan == 'pro'",
      "aria-label": "Cohort rule",
      size: 34,
    },
  });
  const add = h("button", { testid: "mi-cohort-add", text: "Add cohort", attrs: { type: "button" } });
  const error = h("div", {
    className: "mi-warning",
    testid: "mi-cohort-error",
    attrs: { role: "alert" },
  });
  // Under the form: why the chosen column suggests few values, or none.
  const fieldNote = h("div", { className: "mi-line mi-small", testid: "mi-cohort-note" });
  fieldNote.hidden = true;
  const form = h("div", { className: "mi-line mi-cohort-form", testid: "mi-cohort-form" }, [
    h("span", { className: "mi-small", text: "Cohort:" }),
    field,
    op,
    value,
    values,
    and,
    rule,
    name,
    add,
  ]);
  const node = h("div", { className: "mi-cohort-editor", testid: "mi-cohort-editor" }, [
    table,
    form,
    fieldNote,
    error,
  ]);

  /** @returns {Field[]} */
  const fields = () => {
    const list = model.get("_cohort_fields");
    return Array.isArray(list) ? list : [];
  };
  /** @returns {{name: string, rule: string}[]} */
  const cohorts = () => {
    const list = model.get("cohorts");
    return Array.isArray(list) ? list.map((c) => ({ name: String(c.name), rule: String(c.rule) })) : [];
  };
  const chosen = () => fields().find((f) => f.name === field.value) ?? fields()[0];

  function fillOperators() {
    const current = chosen();
    const ops = operatorsFor(current?.kind ?? "number");
    const previous = op.value;
    op.replaceChildren(...ops.map((o) => h("option", { text: o, attrs: { value: o } })));
    op.value = ops.includes(previous) ? previous : ops[0];
    const choices = current?.kind === "bool" ? ["True", "False"] : (current?.values ?? []);
    values.replaceChildren(...choices.map((v) => h("option", { attrs: { value: v } })));
    value.hidden = op.value.startsWith("is ");
    fieldNote.textContent = current?.note ? `${isolate(current.name)}: ${current.note}` : "";
    fieldNote.hidden = fieldNote.textContent === "" || form.hidden;
  }

  /** The condition the selects and value make. */
  const condition = () => {
    const current = chosen();
    const names = fields().map((f) => f.name);
    return current ? conditionText(current, op.value, value.value, names) : "";
  };

  /** @param {{name: string, rule: string}[]} list */
  const send = (list) => model.send({ set_cohorts: list });

  dom.on(field, "change", fillOperators);
  dom.on(op, "change", () => {
    value.hidden = op.value.startsWith("is ");
  });
  dom.on(and, "click", () => {
    const text = condition();
    if (!text) return;
    rule.value = rule.value.trim() ? `${rule.value.trim()} and ${text}` : text;
    value.value = "";
  });
  function addCohort() {
    // The rule typed, else the condition the selects make.
    const text = rule.value.trim() || condition();
    if (!text) return;
    const label = name.value.trim() || `cohort ${cohorts().length + 1}`;
    send([...cohorts().filter((c) => c.name !== label), { name: label, rule: text }]);
  }
  dom.on(add, "click", addCohort);
  // One listener for every row's remove button (rows are redrawn).
  dom.on(table, "click", (event) => {
    const target = /** @type {Element | null} */ (event.target);
    const button = target?.closest?.("[data-remove]");
    const removed = button?.getAttribute("data-remove");
    if (removed) send(cohorts().filter((c) => c.name !== removed));
  });
  commitOnEnter(rule, addCohort, dom);
  commitOnEnter(name, addCohort, dom);

  let shownFields = "";
  let added = "";
  return {
    node,
    update() {
      const list = fields();
      const key = JSON.stringify(list.map((f) => f.name));
      if (key !== shownFields) {
        shownFields = key;
        field.replaceChildren(
          ...list.map((f) => nameOption(f.name)),
        );
        fillOperators();
      }
      const header = /** @type {Record<string, any>} */ (model.get("_header") ?? {});
      const scorers = (header.scores ?? []).map((/** @type {{scorer: string}} */ s) => s.scorer);
      const entries = /** @type {CohortEntry[]} */ (header.cohorts ?? []);
      const lines = cohortLines(entries, scorers);
      table.hidden = lines.length === 0;
      table.replaceChildren(
        h("tr", {}, [
          h("th", { text: "cohort" }),
          h("th", { text: "rule" }),
          h("th", { text: "rows" }),
          ...scorers.map((/** @type {string} */ s) => showName(h("th", {}), s)),
          h("th", {}),
        ]),
        ...lines.map((line, i) => {
          const swatch = h("span", { className: "icw-swatch" });
          swatch.style.background = cohortColor(i, line.small);
          const remove = h("button", {
            testid: "mi-cohort-remove",
            text: "×",
            attrs: { type: "button", "aria-label": `Remove cohort ${isolate(line.name)}`, title: "Remove" },
          });
          remove.hidden = !line.removable;
          remove.setAttribute("data-remove", line.name);
          return h(
            "tr",
            {
              testid: "mi-cohort",
              className: line.small ? "mi-cohort-small" : "",
              attrs: { "data-cohort": line.name },
            },
            [
              h("td", { attrs: { title: line.name } }, [swatch, ` ${isolate(line.name)}`]),
              showName(h("td", { className: "mi-cohort-rule" }), line.rule, visibleRule(line.rule)),
              h("td", { text: line.rows }),
              ...line.scores.map((text) => h("td", { text })),
              h("td", {}, [remove]),
            ],
          );
        }),
      );
      // A saved page has no kernel to check a rule: the list, no form.
      form.hidden = Boolean(model.get("_standalone"));
      fieldNote.hidden = form.hidden || fieldNote.textContent === "";
      const refused = String(model.get("_cohorts_error") ?? "");
      error.textContent = refused;
      error.hidden = refused === "";
      // A cohort in force: the form is cleared for the next.
      const current = JSON.stringify(cohorts());
      if (current !== added && refused === "") {
        if (added !== "") {
          rule.value = "";
          name.value = "";
          value.value = "";
        }
        added = current;
      }
    },
  };
}
