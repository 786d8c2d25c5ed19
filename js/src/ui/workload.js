// @ts-check
// What a run on a big input computes, beside the progress in the status line:
// the `_workload` trait's words ("10,000 of 1,000,000 rows (seeded subsample)
// × 50 features × 50 grid points") and, for widgets with a `max_rows` trait,
// a field to change the subsample. Hidden for inputs small enough to need
// neither (Python leaves `_workload` empty).

import { integerInput } from "./controls.js";
import { h } from "./dom.js";

/**
 * @param {string} prefix test-id prefix: `<prefix>-workload`,
 *   `<prefix>-max-rows`.
 * @param {Parameters<typeof integerInput>[2]} context
 * @returns {{node: HTMLElement, rows: HTMLInputElement | null}} `node` goes
 *   into the status bar; `rows` is the subsample's field, if any.
 */
export function createWorkload(prefix, context) {
  const { model, binding } = context;
  const text = h("span", {
    className: "iw-workload-text",
    testid: `${prefix}-workload`,
  });
  const node = h("span", { className: "iw-workload" }, [text]);
  let rows = null;
  if (model.get("max_rows") !== undefined) {
    rows = integerInput(
      `${prefix}-max-rows`,
      { trait: "max_rows", label: "rows at most", min: 1 },
      context,
    );
    node.append(rows.field);
  }
  const sync = () => {
    const words = String(model.get("_workload") ?? "");
    text.textContent = words;
    node.hidden = words === "";
    const total = Number(model.get("_n_rows") ?? 0);
    if (rows && total > 0) rows.input.max = String(total);
  };
  binding.on(["_workload", "_n_rows"], sync);
  sync();
  return { node, rows: rows?.input ?? null };
}
