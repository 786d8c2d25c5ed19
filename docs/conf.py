"""Sphinx configuration of the documentation site: `make docs` builds it into
build/docs/html (README.md, "Documentation")."""

import json
import os
import shutil
from pathlib import Path

import mathjax

import inspectwidgets

DOCS = Path(__file__).resolve().parent

# The gallery is notebooks/, copied into docs/gallery/ (git-ignored) because
# Sphinx reads only what is under docs/. Every notebook is executed at build
# time (nb_execution_mode below), except under `make test`: it runs the
# notebooks once, in tests/test_notebooks.py, which writes their executed
# copies to the folder INSPECTWIDGETS_EXECUTED_NOTEBOOKS names; a copy is
# used only while its cells are the notebook's own.
_GALLERY = DOCS / "gallery"
_EXECUTED = os.environ.get("INSPECTWIDGETS_EXECUTED_NOTEBOOKS")
shutil.rmtree(_GALLERY, ignore_errors=True)
shutil.copytree(
    DOCS.parent / "notebooks",
    _GALLERY,
    ignore=lambda d, names: [n for n in names if not n.endswith(".ipynb")],
)


def _sources(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [(c["cell_type"], "".join(c["source"])) for c in cells]


_ALREADY_EXECUTED = []
for _notebook in sorted(_GALLERY.glob("*.ipynb")) if _EXECUTED else []:
    _copy = Path(_EXECUTED) / _notebook.name
    if _copy.exists() and _sources(_copy) == _sources(_notebook):
        shutil.copyfile(_copy, _notebook)
        _ALREADY_EXECUTED.append(f"gallery/{_notebook.name}")

project = "inspectwidgets"
author = "inspectwidgets contributors"
copyright = "inspectwidgets contributors, BSD-3-Clause"
release = version = inspectwidgets.__version__

extensions = [
    "myst_nb",  # Markdown pages (myst-parser) and the gallery's notebooks
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
]

exclude_patterns = []

# --- Markdown and notebooks -------------------------------------------------
myst_enable_extensions = ["dollarmath", "colon_fence"]
# Headings get anchors, so [text](page.md#heading) links resolve and are checked.
myst_heading_anchors = 3
# Every notebook runs at build time (but those tests/test_notebooks.py ran,
# above), from a clean kernel, in its own folder; a cell that raises fails the
# build.
nb_execution_mode = "force"
nb_execution_excludepatterns = _ALREADY_EXECUTED
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True
# No widget manager, nothing from a CDN: on pages with widget state (the
# gallery's), the site's own _static/iw_embed.js draws each widget output with
# the widget's bundle, served from _static/ too (_embed_widgets below).
nb_ipywidgets_js = {"iw_embed.js": {"type": "module"}}

# --- API reference ----------------------------------------------------------
autosummary_generate = True
autodoc_default_options = {"members": False}
# The signatures without their type hints (for mypy and editors): expanded,
# numpy's ArrayLike alone is a line of _NestedSequence[...], and each
# parameter's type is already in the numpydoc Parameters section.
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks = set()

# --- HTML --------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"inspectwidgets {release}"
# The widgets' built bundles (src/inspectwidgets/static/, made by `make venv`)
# go into _static/ beside iw_embed.js.
BUNDLES = Path(inspectwidgets.__file__).parent / "static"
html_static_path = ["_static", str(BUNDLES)]
html_css_files = ["iw_embed.css"]
# Formulas: MathJax 3 served from the site, not a CDN. Its script and fonts
# (from the django-static-mathjax package, which holds only MathJax's files)
# are copied into _static/mathjax/ by _copy_mathjax below.
MATHJAX = Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"
mathjax_path = "mathjax/tex-chtml.js"
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    # Nothing fetched from elsewhere at build or view time.
    "icon_links": [],
}
html_show_sourcelink = False


def _check_api_reference(app):
    """Fail the build unless docs/api/index.md lists every public name once."""
    import re
    from pathlib import Path

    text = (Path(app.srcdir) / "api" / "index.md").read_text()
    listed = re.findall(r"^   (\w+)$", text, re.MULTILINE)
    public = set(inspectwidgets.__all__) - {"__version__"}
    missing, extra = public - set(listed), set(listed) - public
    duplicated = {name for name in listed if listed.count(name) > 1}
    if missing or extra or duplicated:
        raise RuntimeError(
            f"docs/api/index.md: missing {sorted(missing)}, not public "
            f"{sorted(extra)}, listed twice {sorted(duplicated)}"
        )


def _gallery_links(app, docname, source):
    """Pages link notebooks as ../notebooks/NAME.ipynb, which works on GitHub;
    on the site they are the gallery's pages, gallery/NAME.ipynb."""
    if not docname.startswith(("gallery/", "api/")):
        source[0] = source[0].replace("](../notebooks/", "](gallery/")


def _resolves(node, path):
    """Whether `path` leads to a dict or list inside `node`."""
    for key in path:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return False
    return isinstance(node, (dict, list))


def _embed_widgets(app, pagename, templatename, context, doctree):
    """In a page's embedded widget state, replace each model's `_esm` and
    `_css` (the bundle's whole text) by `_module`, the name of the bundle in
    _static/ that iw_embed.js imports: the page stays small and the browser
    loads each bundle once for the site."""
    from myst_nb.sphinx_ import NbMetadataCollector

    from inspectwidgets.widgets._standalone import script_json, shareable_state

    entry = NbMetadataCollector.get_js_files(app.env, pagename).get("ipywidgets_state")
    if entry is None:
        return
    kwargs = entry[1]
    state = json.loads(kwargs["body"])
    bundles = {path.read_text(): path.stem for path in BUNDLES.glob("*.js")}
    for model in state["state"].values():
        # The bundle's text is code, not data: kept out of the scrubbing of
        # paths (a minified regex such as d3-format's `/[%p]/` reads as one).
        module = model["state"].pop("_esm", None)
        model["state"].pop("_css", None)
        # What save_html keeps from a widget's state is what the site shows.
        widget = model["state"] = shareable_state(model["state"])
        # nbclient keeps every buffer it was sent, by path; one whose parent
        # a later update removed is stale (and would break put_buffers).
        model["buffers"] = [
            buffer
            for buffer in model.get("buffers", [])
            if _resolves(widget, buffer["path"][:-1])
        ]
        if module is None:
            continue
        if module not in bundles:
            raise RuntimeError(
                f"{pagename}: a widget's module is none of the bundles in "
                f"{BUNDLES} (rebuild them: make js)"
            )
        widget["_module"] = bundles[module]
        # As in save_html's pages: the front end runs without a kernel.
        widget["_standalone"] = True
    # The one escaping of state put into a page, save_html's.
    kwargs["body"] = script_json(state)


def _copy_mathjax(app, exception):
    if exception is None and app.builder.format == "html":
        target = Path(app.outdir) / "_static" / "mathjax"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy2(MATHJAX / "tex-chtml.js", target / "tex-chtml.js")
        fonts = Path("output") / "chtml" / "fonts" / "woff-v2"
        shutil.copytree(MATHJAX / fonts, target / fonts, dirs_exist_ok=True)


def _write_model_shim(app, exception):
    """_static/iw_model.js: save_html's model shim as a module, for iw_embed.js."""
    from inspectwidgets.widgets._standalone import MODEL_JS

    if exception is None and app.builder.format == "html":
        (Path(app.outdir) / "_static" / "iw_model.js").write_text(
            MODEL_JS.strip() + "\nexport { createModel, putBuffers };\n"
        )


def _widget_signature(app, what, name, obj, options, signature, return_annotation):
    """A widget's parameters, from its ``__init__``: autodoc reads traitlets'
    ``HasDescriptors.__new__(*args, **kwargs)`` first and shows only that."""
    if what != "class" or not signature or not signature.startswith("(*args"):
        return None
    import inspect

    parameters = list(inspect.signature(obj.__init__).parameters.values())[1:]
    shown = inspect.Signature(
        [p.replace(annotation=inspect.Parameter.empty) for p in parameters]
    )
    return str(shown), return_annotation


def setup(app):
    app.connect("builder-inited", _check_api_reference)
    app.connect("autodoc-process-signature", _widget_signature)
    app.connect("source-read", _gallery_links)
    # Before myst-nb's handler (priority 500) puts the state into the page.
    app.connect("html-page-context", _embed_widgets, priority=400)
    app.connect("build-finished", _copy_mathjax)
    app.connect("build-finished", _write_model_shim)
