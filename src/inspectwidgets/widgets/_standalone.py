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

A saved page is meant to be mailed, so it holds whatever strings the data
holds without breaking (`script_json`), carries no traceback, local path,
user or host name, nor what its charts do not draw (`shareable_state`, in
widgets/_page_state.py), and is written whole or not at all, over nothing
but a regular file (`_file_writing.py`).
"""

import base64
import hashlib
import html
import json
import re
from pathlib import Path

from ipywidgets.widgets.widget import _remove_buffers

from .. import __version__
from ._file_writing import check_target, write_whole
from ._page_state import shareable_state, without_local_paths

# Traits the page carries otherwise (the module and CSS inlined once) or that
# mean nothing without a kernel.
_NOT_EMBEDDED = ("_esm", "_css", "_anywidget_id", "layout")

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="inspectwidgets {version}">
<title>{title}</title>
<style>{style}</style>
</head>
<body class="iw-static">
<div id="widget"></div>
<script type="application/json" id="widget-state">{state}</script>
<script type="application/json" id="widget-module">{module}</script>
<script type="module">{loader}</script>
</body>
</html>
"""

# The page's own style, before the widget's CSS.
_PAGE_STYLE = """
body { margin: 16px; background: #fff; }
/* No kernel: nothing can be computed again. */
.iw-static .iw-run, .iw-static .iw-stop { display: none !important; }
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


# What HTML or JavaScript would read in a JSON text, and its JSON escape. JSON
# has "<", ">" and "&" only inside strings, where the escape means the same.
_SCRIPT_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}
_SCRIPT_UNSAFE = re.compile("[<>&\u2028\u2029]")


def script_json(value):
    """`value` as JSON text that can sit inside any ``<script>`` element.

    Escaping only ``</`` is not enough: in a script element, ``<!--<script>``
    switches the HTML parser into a state where the rest of the page is
    swallowed. Here no ``<``, ``>`` or ``&`` is left (each becomes its JSON
    escape, ``\\u003c`` and so on), nor U+2028/U+2029 (line ends to older
    JavaScript), so nothing in the data can end the element or change how it
    is parsed, and ``JSON.parse`` of the element's text gives `value` back.
    The text is ASCII: every other non-ASCII character is escaped too, so a
    lone surrogate (which no UTF-8 file can hold, e.g. a column name decoded
    with ``surrogateescape``) survives as its escape, ``\\udcff``, and comes
    back unchanged through ``json.loads``; a browser shows it as U+FFFD.

    The one escaping of state put into a page: used by `standalone_html` and
    by the documentation site's gallery (docs/conf.py).
    """
    text = json.dumps(value, ensure_ascii=True)
    return _SCRIPT_UNSAFE.sub(lambda match: _SCRIPT_ESCAPES[match.group()], text)


def _plain_text(text):
    """`text` for an HTML text node of a UTF-8 file: escaped, with lone
    surrogates and NUL (which UTF-8 cannot hold, or HTML drops) as U+FFFD."""
    return html.escape(re.sub("[\ud800-\udfff\x00]", "\ufffd", str(text)))


def _source(value):
    """An anywidget `_esm`/`_css` value: file contents, or a path to read."""
    text = str(value)
    path = Path(text)
    if len(text) < 4096 and "\n" not in text and path.is_file():
        return path.read_text(encoding="utf-8")
    return text


def standalone_html(widget, *, title="Widget", category_labels=True):
    """The HTML page of `widget` (an anywidget) with its current state, as
    `shareable_state` keeps it."""
    state = shareable_state(
        {
            name: value
            for name, value in widget.get_state().items()
            if name not in _NOT_EMBEDDED
        },
        category_labels=category_labels,
    )
    # Tells the front end it runs without a kernel (what needs one can say so).
    state["_standalone"] = True
    state, paths, buffers = _remove_buffers(state)
    payload = {
        "state": state,
        "buffer_paths": paths,
        "buffers": [base64.b64encode(bytes(b)).decode("ascii") for b in buffers],
    }
    css = _source(widget._css).replace("</style", "<\\/style")
    # As the HTML parser reads it (its line ends), so that its hash holds.
    css = css.replace("\r\n", "\n").replace("\r", "\n")
    style = f"{_PAGE_STYLE}{css}\n"
    loader = f"\n{MODEL_JS.strip()}\n{_LOADER.strip()}\n"
    return _PAGE.format(
        policy=content_security_policy(loader, style),
        version=__version__,
        title=_plain_text(without_local_paths(str(title))),
        style=style,
        state=script_json(payload),
        module=script_json(_source(widget._esm)),
        loader=loader,
    )


def content_security_policy(loader, style):
    """The page's Content-Security-Policy (a ``<meta>`` before anything it
    governs, #49 item 13): nothing from anywhere, no request at all, only
    what the page itself runs. Its one inline script (`loader`) and its one
    inline style (`style`) are allowed by their SHA-256, so an injected
    ``<script>``, ``<style>``, event handler or ``style`` attribute does not
    apply; the widget's module is the loader's ``import()`` of a ``blob:``
    URL, allowed as ``blob:`` (only a running script can make one). The
    widget's own styling goes through the CSSOM (``el.style``), which a
    policy does not govern. No image, font, fetch, frame or form target."""
    return "; ".join(
        (
            "default-src 'none'",
            f"script-src {_source_hash(loader)} blob:",
            f"style-src {_source_hash(style)}",
            "base-uri 'none'",
            "form-action 'none'",
        )
    )


def _source_hash(text):
    """A CSP hash source of an inline element's text, as the browser hashes
    it (its UTF-8 bytes)."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def save_html(
    widget,
    path,
    *,
    title="Widget",
    overwrite=True,
    category_labels=True,
    overwrite_read_only=False,
):
    """Write `widget` as one standalone HTML file at `path`; return the path.

    The page needs no kernel and no network: its charts draw from the
    embedded state and the controls that live in the front end work. It
    carries each error's message but not its traceback, names no folder,
    user or host of this machine, and lists no value of a text column with
    nearly one value per row (an ID, an e-mail). What a page holds, exactly:
    "What a saved page contains" in docs/reliability.md.

    Parameters
    ----------
    widget : anywidget.AnyWidget
    path : str or os.PathLike
        The file to write: a regular file, or nothing yet. Its folder must
        exist.
    title : str, default="Widget"
        The page's title.
    overwrite : bool, default=True
        Replace a file already at `path`, as ``DataFrame.to_csv`` and
        ``Figure.savefig`` do: a notebook run again saves its review again.
        With False, a file at `path` raises FileExistsError.
    category_labels : bool, default=True
        With False, no category of the data is in the page: each label (a
        grid's, a distribution's, a subgroup's) is written ``category 1``,
        ``category 2``..., the same label the same number across the page.
    overwrite_read_only : bool, default=False
        Replace a read-only file at `path` (one this user may not write, or
        with no write permission for anyone) too; its mode is kept. Without
        it, such a file raises PermissionError.

    Returns
    -------
    path : pathlib.Path

    Raises
    ------
    IsADirectoryError
        If `path` is a folder, or ends in a separator (``"newdir/"``).
    FileExistsError
        If `path` is a symbolic link (its target is never written through,
        nor the link replaced: pass the target's path, or remove the link),
        anything but a regular file (a FIFO, a device node, a socket), or a
        file while `overwrite` is False.
    PermissionError
        If `path` is a read-only file and `overwrite_read_only` is False.
    OSError
        If the page cannot be written (no space, no permission); the file
        at `path`, if any, is then unchanged and no temporary file is left.

    Notes
    -----
    The page is written to a temporary file in the same folder (its name
    no longer than `path`'s), then renamed over `path` (``os.replace``,
    atomic): a reader, or a failure mid-write, never sees half a page, and a
    failure keeps the earlier file. The new file keeps the earlier one's
    mode, owner and group. A file with other hard links, or whose owner a
    new file cannot be given, is written in place instead (its links and
    owner kept, not atomically): see ``widgets/_file_writing.py``.
    """
    path = check_target(
        path, overwrite=overwrite, overwrite_read_only=overwrite_read_only
    )
    # Encoded first: nothing is touched if the page cannot be.
    data = standalone_html(widget, title=title, category_labels=category_labels).encode(
        "utf-8"
    )
    write_whole(path, data, overwrite=overwrite)
    return path
