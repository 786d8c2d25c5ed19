"""Sphinx configuration of the documentation site: `make docs` builds it into
build/docs/html (README.md, "Documentation")."""

import shutil
from pathlib import Path

import inspectwidgets

DOCS = Path(__file__).resolve().parent

# The gallery is notebooks/, copied into docs/gallery/ (git-ignored) because
# Sphinx reads only what is under docs/. Every notebook is executed at build
# time (nb_execution_mode below).
_GALLERY = DOCS / "gallery"
shutil.rmtree(_GALLERY, ignore_errors=True)
shutil.copytree(
    DOCS.parent / "notebooks",
    _GALLERY,
    ignore=lambda d, names: [n for n in names if not n.endswith(".ipynb")],
)

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
# Every notebook runs at build time, from a clean kernel, in its own folder;
# a cell that raises fails the build.
nb_execution_mode = "force"
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_execution_show_tb = True
nb_merge_streams = True
# No widget manager from a CDN: widget outputs are drawn by the site's own
# script (see the gallery section of README.md).
nb_ipywidgets_js = {}

# --- API reference ----------------------------------------------------------
autosummary_generate = True
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks = set()

# --- HTML --------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"inspectwidgets {release}"
html_static_path = ["_static"]
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


def setup(app):
    app.connect("builder-inited", _check_api_reference)
    app.connect("source-read", _gallery_links)
