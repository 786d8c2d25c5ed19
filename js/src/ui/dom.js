// @ts-nocheck
// Tiny DOM helpers. Text always goes in through textContent, never innerHTML.

/**
 * Create an element.
 *
 * @param {string} tag
 * @param {{className?: string, testid?: string, text?: string,
 *   attrs?: Record<string, string | number | boolean>}} [props]
 *   `attrs` are set with setAttribute (`true` sets an empty attribute, `false`
 *   and `null` skip it).
 * @param {(Node | string)[]} [children] strings become text nodes.
 * @returns {HTMLElement}
 */
export function h(tag, { className, testid, text, attrs } = {}, children = []) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (testid) node.setAttribute("data-testid", testid);
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    node.append(
      typeof child === "string" ? document.createTextNode(child) : child,
    );
  }
  return node;
}

/**
 * Collects DOM listeners so they can all be removed at once.
 *
 * @returns {{on: (target: EventTarget, type: string, fn: EventListener) => void,
 *   removeAll: () => void}}
 */
export function listenerBag() {
  const removers = [];
  return {
    on(target, type, fn) {
      target.addEventListener(type, fn);
      removers.push(() => target.removeEventListener(type, fn));
    },
    removeAll() {
      while (removers.length > 0) removers.pop()();
    },
  };
}
