// @ts-check
// Ids for svg references (gradients, clip paths) that are unique in the page.
//
// A counter in a module is not enough: each widget's bundle (static/<name>.js)
// is an ES module of its own, and the front end may load a bundle once per
// widget, so two widgets in one notebook each counted from 1 and both made
// "iw-legend-gradient-1"; `url(#…)` then resolved to the first in the
// document, and a legend went blank or showed another widget's colours. The
// counter lives on globalThis under a registered symbol, which every copy of
// every bundle in the page shares.

const COUNTER = Symbol.for("inspectwidgets.lastId");

/**
 * A new id, unique among the ids this function made in the page.
 *
 * @param {string} prefix e.g. "iw-legend-gradient".
 * @returns {string} `<prefix>-<n>`.
 */
export function uniqueId(prefix) {
  // globalThis's type knows nothing of our counter: the cast adds it.
  const shared = /** @type {{[COUNTER]?: number}} */ (globalThis);
  const n = (shared[COUNTER] ?? 0) + 1;
  shared[COUNTER] = n;
  return `${prefix}-${n}`;
}
