"""One widget as one standalone HTML file: no kernel, no widget manager, no
network.

An anywidget front end is a plain ES module with ``render({model, el})``. The
page inlines the widget's bundled module and CSS and renders it with a tiny
model (``get``, ``set``, ``on``, ``off``, ``save_changes``, ``send``) fed from
the widget's synced state, embedded as JSON (with ``_standalone: true``).
Binary buffers (the numeric arrays of ``_serialization.py``) are embedded as
base64 at their paths in the state and decoded into ``DataView`` objects,
exactly as the comm delivers them, so the front end decodes them with the
same code. Changes made in the
page (the displayed scorer, the tab, sort order, selection) stay in the page;
what needs Python (a rerun) does nothing.
"""

import base64
import html
import json
from pathlib import Path

from ipywidgets.widgets.widget import _remove_buffers

# Traits the page carries otherwise (the module and CSS inlined once) or that
# mean nothing without a kernel.
_NOT_EMBEDDED = ("_esm", "_css", "_anywidget_id", "layout")

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ margin: 16px; background: #fff; }}
/* No kernel: nothing can be computed again. */
.iw-static .iw-run, .iw-static .iw-stop {{ display: none !important; }}
{css}
</style>
</head>
<body class="iw-static">
<div id="widget"></div>
<script type="application/json" id="widget-state">{state}</script>
<script type="application/json" id="widget-module">{module}</script>
<script type="module">
{loader}
</script>
</body>
</html>
"""

# The model shim, the one place it is written: `putBuffers` mirrors ipywidgets'
# put_buffers, `createModel` is the model a front end's `render` receives.
# Inlined in save_html's page below; the documentation site serves it as a
# module (docs/conf.py writes it to _static/iw_model.js for iw_embed.js).
MODEL_JS = r"""
const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
function putBuffers(state, paths, buffers) {
  paths.forEach((path, i) => {
    let node = state;
    for (const key of path.slice(0, -1)) node = node[key];
    node[path[path.length - 1]] = new DataView(bytes(buffers[i]).buffer);
  });
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
"""

# The page's loader, after the shim.
_LOADER = r"""
const read = (id) => JSON.parse(document.getElementById(id).textContent);
const { state, buffer_paths: paths, buffers } = read("widget-state");
const model = createModel(putBuffers(state, paths, buffers));
const source = read("widget-module");
const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
const widget = (await import(url)).default;
URL.revokeObjectURL(url);
widget.initialize?.({ model });
widget.render({ model, el: document.getElementById("widget") });
document.body.dataset.rendered = "true";
"""


def _script_json(value):
    """JSON safe inside a <script> element: no "</" can close it."""
    return json.dumps(value).replace("</", "<\\/")


def _source(value):
    """An anywidget `_esm`/`_css` value: file contents, or a path to read."""
    text = str(value)
    path = Path(text)
    if len(text) < 4096 and "\n" not in text and path.is_file():
        return path.read_text(encoding="utf-8")
    return text


def standalone_html(widget, *, title="Widget"):
    """The HTML page of `widget` (an anywidget) with its current state."""
    state = {
        name: value
        for name, value in widget.get_state().items()
        if name not in _NOT_EMBEDDED
    }
    # Tells the front end it runs without a kernel (what needs one can say so).
    state["_standalone"] = True
    state, paths, buffers = _remove_buffers(state)
    payload = {
        "state": state,
        "buffer_paths": paths,
        "buffers": [base64.b64encode(bytes(b)).decode("ascii") for b in buffers],
    }
    css = _source(widget._css).replace("</style", "<\\/style")
    return _PAGE.format(
        title=html.escape(title),
        css=css,
        state=_script_json(payload),
        module=_script_json(_source(widget._esm)),
        loader=MODEL_JS.strip() + "\n" + _LOADER.strip(),
    )


def save_html(widget, path, *, title="Widget"):
    """Write `widget` as one standalone HTML file at `path`; return the path.

    The page needs no kernel and no network: its charts draw from the
    embedded state and the controls that live in the front end work.
    """
    path = Path(path)
    path.write_text(standalone_html(widget, title=title), encoding="utf-8")
    return path
