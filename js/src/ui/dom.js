// @ts-check
// Tiny DOM helpers. Text always goes in through textContent, never innerHTML.

/**
 * Create an element.
 *
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {{className?: string, testid?: string, text?: string,
 *   attrs?: Record<string, string | number | boolean>}} [props]
 *   `attrs` are set with setAttribute (`true` sets an empty attribute, `false`
 *   and `null` skip it).
 * @param {(Node | string)[]} [children] strings become text nodes.
 * @returns {HTMLElementTagNameMap[K]} the element of that tag's type
 *   (`h("input")` is an HTMLInputElement).
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
 * @typedef {object} ListenerBag
 * @property {<K extends keyof HTMLElementEventMap>(target: EventTarget,
 *   type: K, fn: (event: HTMLElementEventMap[K]) => void) => void} on
 *   add a listener that `removeAll` removes.
 * @property {() => void} removeAll
 */

/**
 * Collects DOM listeners so they can all be removed at once.
 *
 * @returns {ListenerBag}
 */
export function listenerBag() {
  /** @type {(() => void)[]} */
  const removers = [];
  return {
    on(target, type, fn) {
      // The bag's type gives `fn` the event class of `type` (a KeyboardEvent
      // for "keydown"), as addEventListener does on an HTMLElement; the
      // cast drops that for the EventTarget the bag also accepts.
      const listener = /** @type {EventListener} */ (fn);
      target.addEventListener(type, listener);
      removers.push(() => target.removeEventListener(type, listener));
    },
    removeAll() {
      for (let remove = removers.pop(); remove; remove = removers.pop())
        remove();
    },
  };
}
