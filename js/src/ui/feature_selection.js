// @ts-check
// Selecting features in a chart: a click on (or Enter / Space on a focused)
// row, bar, dot or heatmap cell writes the `selected_features` trait, and
// every element of a selected feature is marked `iw-selected`. The charts
// already carry each element's feature in an attribute (`data-feature` on
// rows, bars and dots; `data-row` / `data-col` on correlation cells), so
// this works on the DOM they draw and the charts need no change.

import "./feature_selection.css";

/**
 * The features an element stands for: its row's feature, or a correlation
 * cell's two features (one when it is on the diagonal).
 *
 * @param {EventTarget | null} target
 * @param {Node} root where the search stops.
 * @returns {string[] | null} null when `target` is no feature's element.
 */
export function clickedFeatures(target, root) {
  for (
    let node = target instanceof Node ? target : null;
    node && node !== root;
    node = node.parentNode
  ) {
    if (!(node instanceof Element)) continue;
    const feature = node.getAttribute("data-feature");
    if (feature !== null) return [feature];
    const row = node.getAttribute("data-row");
    if (row !== null) {
      const col = node.getAttribute("data-col");
      return col !== null && col !== row ? [row, col] : [row];
    }
  }
  return null;
}

/**
 * Mark the elements of the selected features under `root` (class
 * `iw-selected`, `aria-current="true"`): rows, bars and dots of a selected
 * feature; correlation cells whose row and column are both selected.
 *
 * @param {ParentNode} root
 * @param {string[]} selected
 * @returns {number} how many elements are marked.
 */
export function markSelected(root, selected) {
  const chosen = new Set(selected);
  let marked = 0;
  for (const node of root.querySelectorAll("[data-feature], [data-row]")) {
    const feature = node.getAttribute("data-feature");
    const on =
      feature !== null
        ? chosen.has(feature)
        : chosen.has(node.getAttribute("data-row") ?? "") &&
          chosen.has(node.getAttribute("data-col") ?? "");
    node.classList.toggle("iw-selected", on);
    if (on) node.setAttribute("aria-current", "true");
    else node.removeAttribute("aria-current");
    marked += on ? 1 : 0;
  }
  return marked;
}

/**
 * Wire selection into a widget whose model has a `selected_features` trait
 * (nothing happens on a model without it).
 *
 * @param {HTMLElement} root the widget's root.
 * @param {{model: import("./model.js").WidgetModel, binding: ReturnType<typeof import("./model.js").bindModel>,
 *   dom: ReturnType<typeof import("./dom.js").listenerBag>}} context
 * @returns {{mark: () => void}} `mark` re-marks after a redraw.
 */
export function bindFeatureSelection(root, { model, binding, dom }) {
  const enabled = () => Array.isArray(model.get("selected_features"));
  const mark = () => {
    if (enabled()) markSelected(root, binding.list("selected_features"));
  };
  /** @param {Event} event */
  const select = (event) => {
    if (!enabled()) return false;
    const features = clickedFeatures(event.target, root);
    if (features === null) return false;
    binding.save({ selected_features: features });
    return true;
  };
  dom.on(root, "click", select);
  dom.on(root, "keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && select(event))
      event.preventDefault(); // Space would scroll the page
  });
  binding.on("selected_features", mark);
  return { mark };
}
