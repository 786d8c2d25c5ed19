// @ts-nocheck
// A child widget's model inside the inspector. The inspector mirrors each
// child's synced traits into one of its own traits, `{state, versions}`
// (a version per trait, bumped on every change); this proxy gives the
// child's ESM module the anywidget model interface over that mirror, firing
// `change:<name>` for the traits whose version changed. Writes are applied
// locally at once (so controls that live in JS, like the displayed scorer,
// work without a kernel) and sent to Python by `save_changes` through
// `send`. Traits in `shared` are the inspector's own (the selection).

/**
 * @param {object} model the inspector's model (anywidget, or the page shim).
 * @param {string} trait e.g. "_importance".
 * @param {{shared?: string[], send: (changes: object) => void}} options
 * @returns {{get: Function, set: Function, on: Function, off: Function,
 *   save_changes: Function, send: Function, destroy: () => void}}
 */
export function subModel(model, trait, { shared = [], send }) {
  const listeners = new Map();
  const mirror = () => model.get(trait) ?? {};
  let state = { ...(mirror().state ?? {}) };
  let versions = { ...(mirror().versions ?? {}) };
  let pending = {};
  let sharedPending = false;
  const isShared = (name) => shared.includes(name);

  function emit(name, value) {
    for (const fn of [...(listeners.get(`change:${name}`) ?? [])])
      fn(proxy, value);
  }

  function onMirror() {
    const next = mirror();
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
    return [name, fn];
  });
  model.on(`change:${trait}`, onMirror);

  const proxy = {
    get: (name) => (isShared(name) ? model.get(name) : state[name]),
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
    on(event, fn) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(fn);
    },
    off(event, fn) {
      if (event === undefined) listeners.clear();
      else if (fn === undefined) listeners.delete(event);
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
    send() {}, // the widgets send no custom messages
    destroy() {
      model.off(`change:${trait}`, onMirror);
      for (const [name, fn] of onShared) model.off(`change:${name}`, fn);
      listeners.clear();
    },
  };
  return proxy;
}
