// @ts-check
// A scrollable list of checkboxes, one per label, with an optional text
// filter. Used for the feature and scorer multi-selects.

import { h, listenerBag } from "./dom.js";
import { visibleName } from "../charts/format.js";

/**
 * Create a checklist inside `container`.
 *
 * @param {HTMLElement} container
 * @param {{testid: string, dataAttribute: string, label: string,
 *   onToggle: (label: string, checked: boolean) => void}} options
 *   `testid` goes on every checkbox, `dataAttribute` (e.g. "data-feature")
 *   carries its label; `label` names the list for screen readers.
 */
export function createChecklist(
  container,
  { testid, dataAttribute, label, onToggle },
) {
  const list = h("div", {
    className: "piw-checklist",
    attrs: { role: "group", "aria-label": label },
  });
  const empty = h("div", { className: "piw-checklist-empty", text: "" });
  empty.hidden = true;
  container.append(list, empty);

  /** @type {Map<string, {item: HTMLElement, box: HTMLInputElement}>} */
  let items = new Map();
  let filterText = "";
  const listeners = listenerBag();

  listeners.on(list, "change", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLInputElement)) return;
    const name = box.getAttribute(dataAttribute);
    if (name !== null) onToggle(name, box.checked);
  });

  function applyFilter() {
    const needle = filterText.trim().toLowerCase();
    let shown = 0;
    for (const [name, { item }] of items) {
      const visible = needle === "" || name.toLowerCase().includes(needle);
      item.hidden = !visible;
      if (visible) shown += 1;
    }
    empty.hidden = shown > 0 || items.size === 0;
    empty.textContent =
      shown > 0 ? "" : `Nothing matches "${filterText.trim()}".`;
  }

  return {
    /**
     * Rebuild the list for `options` (labels, in display order).
     *
     * @param {string[]} options
     */
    setOptions(options) {
      /** @type {typeof items} */
      const next = new Map();
      const checked = new Set(
        [...items].filter(([, v]) => v.box.checked).map(([k]) => k),
      );
      for (const name of options) {
        if (next.has(name)) continue;
        const box = h("input", { testid, attrs: { type: "checkbox" } });
        box.setAttribute(dataAttribute, name);
        box.checked = checked.has(name);
        const item = h(
          "label",
          { className: "piw-option", attrs: { title: name } },
          [box, h("span", { className: "piw-option-label", text: visibleName(name) })],
        );
        next.set(name, { item, box });
      }
      items = next;
      list.replaceChildren(...[...items.values()].map((v) => v.item));
      applyFilter();
    },
    /**
     * Check exactly the labels in `selected`.
     *
     * @param {Set<string>} selected
     */
    setSelected(selected) {
      for (const [name, { box }] of items) box.checked = selected.has(name);
    },
    /**
     * Show only labels containing `text` (case-insensitive).
     *
     * @param {string} text
     */
    setFilter(text) {
      filterText = text;
      applyFilter();
    },
    /** Every label, in display order. */
    options() {
      return [...items.keys()];
    },
    /** Labels currently shown (after the filter). */
    visibleOptions() {
      return [...items].filter(([, v]) => !v.item.hidden).map(([k]) => k);
    },
    /**
     * Enable or disable every checkbox.
     *
     * @param {boolean} disabled
     */
    setDisabled(disabled) {
      for (const { box } of items.values()) box.disabled = disabled;
    },
    destroy() {
      listeners.removeAll();
      list.remove();
      empty.remove();
    },
  };
}
