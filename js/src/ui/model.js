// @ts-check
// The widgets' side of the anywidget model: listeners that can all be removed
// at once, and writes sent to Python in one message.

/**
 * The part of anywidget's model the widgets use (also what
 * inspector/sub_model.js hands the views it embeds).
 *
 * @typedef {Pick<import("@anywidget/types").AnyModel,
 *   "get" | "set" | "on" | "off" | "save_changes" | "send">} WidgetModel
 */

/**
 * A dict trait as Python sends it: JSON (binary arrays as `{data, dtype,
 * shape}`), whose fields the decoding functions check one by one before
 * use, so they are typed `any` here: nothing is promised before that check.
 *
 * @typedef {Record<string, any>} TraitPayload
 */

/**
 * @param {WidgetModel} model the anywidget model.
 * @param {{guard?: ReturnType<typeof import("./guard.js").createViewGuard>}}
 *   [options] with a guard, every listener runs through it: an error is
 *   shown in the widget instead of stopping the model's other listeners.
 * @returns {{on: (names: string | string[], fn: () => void) => void,
 *   save: (values: Record<string, unknown>) => void,
 *   increment: (name: string) => void, list: (name: string) => string[],
 *   removeAll: () => void}}
 */
export function bindModel(model, { guard } = {}) {
  /** @type {[string, () => void][]} */
  const listeners = [];
  /** @param {Record<string, unknown>} values */
  const save = (values) => {
    for (const [name, value] of Object.entries(values)) model.set(name, value);
    model.save_changes();
  };
  return {
    /** Call `fn` on "change:<name>" for each of `names`. */
    on(names, fn) {
      const list = [names].flat();
      const listener = guard
        ? guard.wrap(`the change of ${list.join(", ")}`, fn)
        : fn;
      for (const name of list) {
        model.on(`change:${name}`, listener);
        listeners.push([`change:${name}`, listener]);
      }
    },
    /** Set every trait of `values`, then send them to Python together. */
    save,
    /** Add one to a request counter (`_run_requests`, `_stop_requests`). */
    increment(name) {
      save({ [name]: (Number(model.get(name)) || 0) + 1 });
    },
    /** A list trait as strings ([] when it is not a list). */
    list(name) {
      const value = model.get(name);
      return Array.isArray(value) ? value.map(String) : [];
    },
    removeAll() {
      for (const [event, fn] of listeners) model.off(event, fn);
      listeners.length = 0;
    },
  };
}
