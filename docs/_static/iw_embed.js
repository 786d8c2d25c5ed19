// Draws the widgets of an executed notebook in a static page: no kernel, no
// widget manager, no network. myst-nb writes the notebook's widget state into
// a <script type="application/vnd.jupyter.widget-state+json"> and each widget
// output as a <script type="application/vnd.jupyter.widget-view+json">
// holding its model id. docs/conf.py replaced each model's inlined `_esm` and
// `_css` by `_module`, the name of the bundle served beside this file
// (src/inspectwidgets/static/, copied into _static/). Each view is rendered by
// that bundle's `render({model, el})` with a small model fed from the state;
// changes made in the page (scorer, view, sort order) stay in the page.
const STATE = "application/vnd.jupyter.widget-state+json";
const VIEW = "application/vnd.jupyter.widget-view+json";

const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

// The comm delivers binary buffers as DataViews at their paths in the state
// (ipywidgets' put_buffers); the front end decodes them with the same code.
function putBuffers(state, buffers = []) {
  for (const { path, data } of buffers) {
    let node = state;
    for (const key of path.slice(0, -1)) node = node[key];
    node[path[path.length - 1]] = new DataView(bytes(data).buffer);
  }
  return state;
}

function createModel(state) {
  const listeners = new Map();
  const same = (a, b) => a === b || JSON.stringify(a) === JSON.stringify(b);
  const model = {
    get: (name) => state[name],
    set(name, value) {
      const before = state[name];
      state[name] = value;
      if (!same(before, value))
        for (const fn of [...(listeners.get(`change:${name}`) ?? [])])
          fn(model, value);
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
    save_changes() {},
    send() {},
  };
  return model;
}

const modules = new Map();
function load(name) {
  if (!modules.has(name)) {
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = new URL(`${name}.css`, import.meta.url).href;
    document.head.append(css);
    modules.set(name, import(new URL(`${name}.js`, import.meta.url).href));
  }
  return modules.get(name);
}

async function renderAll() {
  const stateScript = document.querySelector(`script[type="${STATE}"]`);
  if (!stateScript) return;
  const entries = JSON.parse(stateScript.textContent).state;
  const models = new Map();
  let drawn = 0;
  for (const view of document.querySelectorAll(`script[type="${VIEW}"]`)) {
    const el = document.createElement("div");
    el.className = "iw-embed iw-static";
    view.after(el);
    try {
      const { model_id: id } = JSON.parse(view.textContent);
      const entry = entries[id];
      if (!entry?.state?._module) throw new Error(`no widget state for ${id}`);
      const widget = (await load(entry.state._module)).default;
      if (!models.has(id)) {
        const model = createModel(putBuffers(entry.state, entry.buffers));
        await widget.initialize?.({ model });
        models.set(id, model);
      }
      await widget.render({ model: models.get(id), el });
      drawn += 1;
    } catch (error) {
      el.classList.add("iw-embed-error");
      el.textContent = `This widget could not be drawn here: ${error}`;
    }
  }
  document.documentElement.dataset.iwWidgetsDrawn = String(drawn);
}

renderAll();
