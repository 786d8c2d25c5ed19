// @ts-check
// A child widget's model inside the inspector. The inspector mirrors each
// child's synced traits into one of its own traits, `{state, versions}`
// (a version per trait, bumped on every change); this proxy gives the
// child's ESM module the anywidget model interface over that mirror, firing
// `change:<name>` for the traits whose version changed. Writes are applied
// locally at once (so controls that live in JS, like the displayed scorer,
// work without a kernel) and sent to Python by `save_changes` through
// `send`. Traits in `shared` are the inspector's own (the selection, the
// cohorts), and so is a custom message (a cluster rule made a cohort).

/** @typedef {import("../ui/model.js").WidgetModel} WidgetModel */

/**
 * @param {WidgetModel} model the inspector's model (anywidget, or the page
 *   shim).
 * @param {string} trait e.g. "_importance".
 * @param {{shared?: string[], send: (changes: Record<string, unknown>) => void}}
 *   options
 * @returns {WidgetModel & {destroy: () => void}}
 */
export function subModel(model, trait, { shared = [], send }) {
  /** @typedef {(...args: any[]) => void} Handler anywidget's EventHandler */
  /** @type {Map<string, Set<Handler>>} */
  const listeners = new Map();
  /** @returns {import("../ui/model.js").TraitPayload} */
  const mirror = () => model.get(trait) ?? {};
  /** @type {Record<string, unknown>} */
  let state = { ...(mirror().state ?? {}) };
  /** @type {Record<string, unknown>} */
  let versions = { ...(mirror().versions ?? {}) };
  /** @type {Record<string, unknown>} */
  let pending = {};
  let sharedPending = false;
  /** @param {string} name */
  const isShared = (name) => shared.includes(name);

  /**
   * @param {string} name
   * @param {unknown} value
   */
  function emit(name, value) {
    for (const fn of [...(listeners.get(`change:${name}`) ?? [])])
      fn(proxy, value);
  }

  function onMirror() {
    const next = mirror();
    /** @type {Record<string, unknown>} */
    const nextVersions = next.versions ?? {};
    const changed = Object.keys(nextVersions).filter(
      (name) => nextVersions[name] !== versions[name],
    );
    state = { ...state };
    for (const name of changed) state[name] = next.state?.[name];
    versions = { ...nextVersions };
    for (const name of changed) emit(name, state[name]);
  }
  const onShared = shared.map((name) => {
    const fn = () => emit(name, model.get(name));
    model.on(`change:${name}`, fn);
    return /** @type {const} */ ([name, fn]);
  });
  model.on(`change:${trait}`, onMirror);

  /** @type {WidgetModel & {destroy: () => void}} */
  const proxy = {
    /** @param {string} name */
    get: (name) => (isShared(name) ? model.get(name) : state[name]),
    /**
     * @param {string} name
     * @param {unknown} value
     */
    set(name, value) {
      if (isShared(name)) {
        model.set(name, value);
        sharedPending = true;
        return;
      }
      const before = JSON.stringify(state[name]);
      state = { ...state, [name]: value };
      pending[name] = value;
      if (JSON.stringify(value) !== before) emit(name, value);
    },
    /**
     * @param {string} event
     * @param {Handler} fn
     */
    on(event, fn) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(fn);
    },
    /**
     * Backbone's off: no event (undefined or null) removes every listener,
     * no `fn` every listener of `event`.
     *
     * @param {string | null} [event]
     * @param {Handler | null} [fn]
     */
    off(event, fn) {
      if (event == null) listeners.clear();
      else if (fn == null) listeners.delete(event);
      else listeners.get(event)?.delete(fn);
    },
    save_changes() {
      if (sharedPending) {
        sharedPending = false;
        model.save_changes();
      }
      if (Object.keys(pending).length === 0) return;
      const changes = pending;
      pending = {};
      send(changes);
    },
    // A custom message (a cluster rule made a cohort) is the inspector's.
    send(content) {
      model.send(content);
    },
    destroy() {
      model.off(`change:${trait}`, onMirror);
      for (const [name, fn] of onShared) model.off(`change:${name}`, fn);
      listeners.clear();
    },
  };
  return proxy;
}
