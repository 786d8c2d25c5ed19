// @ts-check
// The permutation widget's table: one row per feature of the displayed
// scorer's result.

import { columnFormat, visibleName } from "../charts/format.js";
import { h } from "../ui/dom.js";

/**
 * Fill `table` with one row per feature of `result` (text only). Each column
 * keeps one number notation (see `columnFormat`), as the chart's tooltip does.
 *
 * @param {HTMLTableElement} table
 * @param {NonNullable<ReturnType<typeof import("./permutation_data.js").scorerResult>>}
 *   result
 * @param {string} scorer
 */
export function fillTable(table, result, scorer) {
  const mean = columnFormat(result.mean);
  const std = columnFormat(result.std);
  const permuted = columnFormat(result.permutedMean);
  const baseline = columnFormat([result.baseline]);
  const head = h("thead", {}, [
    h("tr", {}, [
      h("th", { text: "Feature", attrs: { scope: "col" } }),
      h("th", { text: "Mean importance", attrs: { scope: "col" } }),
      h("th", { text: "Std", attrs: { scope: "col" } }),
      h("th", { text: `Permuted ${visibleName(scorer)}`, attrs: { scope: "col", title: scorer } }),
      h("th", { text: `Baseline ${visibleName(scorer)}`, attrs: { scope: "col", title: scorer } }),
    ]),
  ]);
  const body = h(
    "tbody",
    {},
    result.features.map((feature, i) =>
      h("tr", { className: result.mean[i] < 0 ? "piw-negative" : "" }, [
        h("th", {
          text: visibleName(feature),
          // A conditional result's subgroups, on hover as in the chart;
          // else the whole name (cut when drawn).
          attrs: result.details[i]?.length
            ? { scope: "row", title: result.details[i].join("\n") }
            : { scope: "row", title: feature },
        }),
        h("td", { text: mean(result.mean[i]) }),
        h("td", { text: std(result.std[i]) }),
        h("td", { text: permuted(result.permutedMean[i]) }),
        h("td", { text: baseline(result.baseline) }),
      ]),
    ),
  );
  table.replaceChildren(head, body);
}
