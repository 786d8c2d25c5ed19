// @ts-check
// The correlation banner of PartialDependenceWidget: which features are
// strongly correlated (Python found them; this only words them) and the
// buttons that switch to the views that stay on the data: accumulated local
// effects, or partial dependence and ALE on one axis.

import { h } from "../ui/dom.js";
import { isolate, visibleName } from "../charts/format.js";

/**
 * The banner's content for the correlation warnings: one lead line, then one
 * list item per correlated pair (its full message as the item's title).
 *
 * @param {{feature: string, partner: string, rho: number,
 *   message: string}[]} correlated
 * @returns {HTMLElement[]} [] when there is none.
 */
export function warningContent(correlated) {
  // A 2-way surface can report a pair from both sides: keep it once.
  const seen = new Set();
  const pairs = correlated.filter(({ feature, partner }) => {
    const key = JSON.stringify([feature, partner].sort());
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (pairs.length === 0) return [];
  const features = [...new Set(pairs.map((c) => c.feature))];
  const rarely =
    "so the plot averages over value combinations that rarely occur:";
  const others =
    pairs.length === 1 ? "another feature" : `${pairs.length} other features`;
  const lead =
    features.length === 1
      ? `'${isolate(features[0])}' is strongly correlated with ${others}, ${rarely}`
      : `Strongly correlated features, ${rarely}`;
  /** @param {{rho: number}} pair */
  const rho = ({ rho }) =>
    `(Spearman ρ = ${rho >= 0 ? "+" : ""}${rho.toFixed(2)})`;
  /** @param {{feature: string, partner: string, rho: number}} c */
  const label = (c) =>
    features.length === 1
      ? `${visibleName(c.partner)} ${rho(c)}`
      : `${visibleName(c.feature)} with ${visibleName(c.partner)} ${rho(c)}`;
  return [
    h("p", { className: "pdw-warning-lead", text: lead }),
    h(
      "ul",
      { className: "pdw-warning-list" },
      pairs.map((c) =>
        h("li", {
          testid: "pdw-warning-item",
          text: label(c),
          attrs: { title: c.message },
        }),
      ),
    ),
  ];
}

/**
 * The banner's buttons for `curve`: the kinds that stay on the data and are
 * not drawn yet (a 2-way surface: its second-order ALE only).
 *
 * @param {{mode: string, effect: string} | null} curve
 * @returns {{kind: string, text: string, testid: string}[]}
 */
export function warningActions(curve) {
  if (!curve) return [];
  const actions = [
    { kind: "ale", text: "Show ALE", testid: "pdw-show-ale", effect: "ale" },
  ];
  if (curve.mode === "1d")
    actions.push({
      kind: "average_and_ale",
      text: "Compare PD and ALE",
      testid: "pdw-show-overlay",
      effect: "overlay",
    });
  return actions
    .filter((a) => a.effect !== curve.effect)
    .map(({ kind, text, testid }) => ({ kind, text, testid }));
}
