// Draws the widgets of an executed notebook in a static page: no kernel, no
// widget manager, no network. myst-nb writes the notebook's widget state into
// a <script type="application/vnd.jupyter.widget-state+json"> and each widget
// output as a <script type="application/vnd.jupyter.widget-view+json">
// holding its model id. docs/conf.py replaced each model's inlined `_esm` and
// `_css` by `_module`, the name of the bundle served beside this file
// (src/inspectwidgets/static/, copied into _static/). Each view is rendered by
// that bundle's `render({model, el})` with save_html's model, fed from the
// state; changes made in the page (scorer, view, sort order) stay in the page.
// The model shim is save_html's (MODEL_JS in
// src/inspectwidgets/widgets/_standalone.py), written beside this file; the
// bundles' URLs come from iw_bundles.js, which accepts only this site's names.
import { bundleUrl } from "./iw_bundles.js";
import { createModel, putBuffers } from "./iw_model.js";

const STATE = "application/vnd.jupyter.widget-state+json";
const VIEW = "application/vnd.jupyter.widget-view+json";

const modules = new Map();
function load(name) {
  if (!modules.has(name)) {
    // Throws (the view then says it could not be drawn) before any request.
    const script = bundleUrl(name, ".js", import.meta.url);
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = bundleUrl(name, ".css", import.meta.url);
    document.head.append(css);
    modules.set(name, import(script));
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
        const buffers = entry.buffers ?? [];
        const model = createModel(
          putBuffers(
            entry.state,
            buffers.map((b) => b.path),
            buffers.map((b) => b.data),
          ),
        );
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
