// @ts-check
// The inspector's header: task and model, rows and features, the held-out
// score of each scorer beside the dummy baseline's, the warning when the
// model barely beats it, and the rows Effects and Comparison use; of
// several models, a menu choosing the reviewed one (the `reviewed` trait).

import { columnFormat, isolate, nameOption, showName } from "../charts/format.js";
import { integerInput } from "../ui/controls.js";
import { h } from "../ui/dom.js";

/**
 * The `_header` trait (`{}` before the inspector has a model).
 *
 * @typedef {{model?: {type: string, steps?: string[]}, task?: string,
 *   n_rows?: number, n_rows_views?: number, n_features?: number,
 *   random_state?: number | null, dummy?: string, dummy_fitted_on?: string,
 *   warning?: string, model_scores?: "pending" | "done" | "failed",
 *   scores?: {scorer: string, model: number | null,
 *   dummy: number | null, barely?: boolean}[],
 *   model_name?: string | null, models?: string[],
 *   other_models?: {name: string, scores: Record<string, number>}[]}} Header
 */

/**
 * The whole names of the score columns (`scoreColumns` cuts them), for
 * their titles.
 *
 * @param {Header} header
 * @returns {string[]}
 */
export function scoreColumnTitles(header) {
  const others = header.other_models ?? [];
  const names = others.map((other) => String(other.name));
  return [header.model_name || "model", ...names, header.dummy ?? "dummy"];
}

/**
 * The score table's column titles after the scorer's: the reviewed model
 * (by its name when the review has several), each other model, the dummy.
 *
 * @param {Header} header
 * @returns {string[]}
 */
export function scoreColumns(header) {
  const others = header.other_models ?? [];
  const reviewed = header.model_name ? isolate(header.model_name) : "model";
  return [
    reviewed,
    ...others.map((other) => isolate(other.name)),
    header.dummy ?? "dummy",
  ];
}

/**
 * The models to choose the reviewed one from, in the order given: none for
 * a review of one model (no menu then).
 *
 * @param {Header} header
 * @returns {string[]}
 */
export function reviewedChoices(header) {
  const models = Array.isArray(header.models) ? header.models.map(String) : [];
  return models.length > 1 ? models : [];
}

/**
 * A menu bound to the inspector's `reviewed` trait: the model the
 * single-model views review (Python rebuilds them for it).
 *
 * @param {Parameters<typeof integerInput>[2]} context
 * @returns {{field: HTMLElement, update: (header: Header) => void}}
 */
function reviewedMenu({ model, binding, dom }) {
  const select = h("select", {
    testid: "mi-reviewed",
    attrs: { "aria-label": "Reviewed model" },
  });
  const field = h("label", { className: "iw-field mi-reviewed" }, [
    h("span", { text: "reviewed model" }),
    select,
  ]);
  /** @type {string[]} */
  let shown = [];
  dom.on(select, "change", () => {
    if (select.value !== model.get("reviewed")) binding.save({ reviewed: select.value });
  });
  const sync = () => {
    select.value = String(model.get("reviewed") ?? "");
  };
  binding.on("reviewed", sync);
  return {
    field,
    update(header) {
      const choices = reviewedChoices(header);
      if (String(choices) !== String(shown)) {
        shown = choices;
        select.replaceChildren(
          ...choices.map((name) => nameOption(name)),
        );
      }
      field.hidden = choices.length === 0;
      // A saved page has no kernel to make the views again.
      select.disabled = Boolean(model.get("_standalone"));
      sync();
    },
  };
}

/**
 * What the model's column shows before its scores arrive (they come with
 * the Importance view's first results), or when its run failed.
 *
 * @param {Header} header
 * @returns {string}
 */
export function unscoredText(header) {
  return header.model_scores === "failed" ? "n/a" : "…";
}

/** @param {number | undefined} n */
const count = (n) => Number(n ?? 0).toLocaleString("en-US");

/**
 * The header's lines of text (pure, for tests and the page).
 *
 * @param {Header} header the `_header` trait.
 * @returns {{title: string, model: string, data: string, rows: string}}
 */
export function headerLines(header) {
  const model = header.model ?? { type: "?", steps: [] };
  const steps = model.steps?.length
    ? `pipeline: ${model.steps.map(isolate).join(" → ")}`
    : "";
  const total = header.n_rows ?? NaN;
  const shown = header.n_rows_views ?? total;
  return {
    title: `${isolate(model.type)} · ${header.task ?? ""}`,
    model: steps,
    data: `${count(header.n_rows)} rows × ${count(header.n_features)} features (held out) · random_state ${header.random_state}`,
    rows:
      shown < total
        ? `Effects and Comparison use a seeded subsample of ${count(shown)} of ${count(header.n_rows)} rows`
        : `Effects and Comparison use all ${count(header.n_rows)} rows`,
  };
}

/**
 * @param {Parameters<typeof integerInput>[2]} context the inspector's model:
 *   the rows field is bound to its `max_rows` trait.
 * @returns {{node: HTMLElement, update: (header: Header | null) => void}}
 */
export function createHeader(context) {
  const title = h("div", { className: "mi-title", testid: "mi-title" });
  const model = h("div", { className: "mi-line", testid: "mi-model" });
  const data = h("div", { className: "mi-line", testid: "mi-data" });
  const table = h("table", { className: "mi-scores", testid: "mi-scores" });
  const fitted = h("div", { className: "mi-line mi-small", testid: "mi-dummy" });
  const warning = h("div", {
    className: "mi-warning",
    testid: "mi-warning",
    attrs: { role: "note" },
  });
  const rows = h("span", { testid: "mi-rows" });
  const maxRows = integerInput(
    "mi-max-rows",
    { trait: "max_rows", label: "rows at most", min: 1 },
    context,
  );
  const rowsLine = h("div", { className: "mi-line mi-rows" }, [
    rows,
    maxRows.field,
  ]);
  const reviewed = reviewedMenu(context);
  const node = h("div", { className: "mi-header", testid: "mi-header" }, [
    reviewed.field,
    title,
    model,
    data,
    table,
    fitted,
    warning,
    rowsLine,
  ]);

  return {
    node,
    update(header) {
      if (!header || !header.model) return;
      reviewed.update(header);
      const lines = headerLines(header);
      title.textContent = lines.title;
      model.textContent = lines.model;
      model.hidden = lines.model === "";
      data.textContent = lines.data;
      rows.textContent = lines.rows;
      const scores = header.scores ?? [];
      const others = header.other_models ?? [];
      /** @param {string} scorer */
      const othersOf = (scorer) =>
        others.map((other) => other.scores[scorer] ?? NaN);
      const format = columnFormat(
        scores.flatMap((s) => [
          s.model ?? NaN,
          ...othersOf(s.scorer),
          s.dummy ?? NaN,
        ]),
      );
      // A long model name is cut (`isolate`); the whole one on hover.
      const titles = scoreColumnTitles(header);
      table.replaceChildren(
        h("tr", {}, [
          h("th", { text: "held-out score" }),
          ...scoreColumns(header).map((text, i) =>
            h("th", { text, attrs: { title: titles[i] } }),
          ),
        ]),
        ...scores.map((s) =>
          h(
            "tr",
            {
              testid: "mi-score",
              className: s.barely ? "mi-barely" : "",
              attrs: { "data-scorer": s.scorer },
            },
            [
              showName(h("td", {}), s.scorer),
              h("td", {
                text: s.model === null ? unscoredText(header) : format(s.model),
              }),
              ...othersOf(s.scorer).map((value) =>
                h("td", {
                  text: Number.isFinite(value)
                    ? format(value)
                    : header.model_scores === "pending"
                      ? "…" // from the held-out run's first marks
                      : "n/a",
                  testid: "mi-other-score",
                }),
              ),
              h("td", {
                text: s.dummy === null ? "n/a" : format(s.dummy),
              }),
            ],
          ),
        ),
      );
      fitted.textContent = header.dummy
        ? `${isolate(header.dummy)} fitted on ${header.dummy_fitted_on}, scored on the same held-out rows.`
        : "";
      warning.textContent = header.warning ?? "";
      warning.hidden = !header.warning;
    },
  };
}
