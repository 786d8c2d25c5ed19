"""What a user of the installed package relies on beyond the numbers."""

import importlib
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

import inspectwidgets

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow  # runs a Python subprocess: left to `make test` (conftest.py)
def test_engine_use_loads_neither_anywidget_nor_matplotlib_nor_numba():
    code = (
        "import sys, inspectwidgets\n"
        "inspectwidgets.permutation_importance, inspectwidgets.partial_dependence\n"
        "print(sorted(m for m in ('anywidget', 'ipywidgets', 'matplotlib', 'numba')"
        " if m in sys.modules))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert loaded == "[]"


def test_every_public_name_resolves_and_widgets_load_on_first_use():
    for name in inspectwidgets.__all__:
        assert getattr(inspectwidgets, name) is not None, name
    assert set(inspectwidgets.__all__) <= set(dir(inspectwidgets))
    assert inspectwidgets.PermutationImportanceWidget.__module__.startswith(
        "inspectwidgets.widgets"
    )


def test_version_is_written_once():
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^dynamic = \["version"\]$', pyproject, re.MULTILINE)
    assert not re.search(r"^version\s*=", pyproject, re.MULTILINE)
    assert version("inspectwidgets") == inspectwidgets.__version__


def test_each_widget_carries_its_built_bundle():
    # Built by js/build.mjs into the package's static/ and shipped in the wheel:
    # a wheel without it would draw nothing.
    from inspectwidgets.widgets import (
        ImportanceComparisonWidget,
        ModelInspector,
        PartialDependenceWidget,
        PermutationImportanceWidget,
    )

    for widget in (
        ImportanceComparisonWidget,
        ModelInspector,
        PartialDependenceWidget,
        PermutationImportanceWidget,
    ):
        esm, css = str(widget._esm), str(widget._css)
        assert "export" in esm and len(esm) > 10_000, widget.__name__
        assert "--jp-" in css, widget.__name__


def test_every_source_module_is_installed_and_imports():
    # Run against the installed sdist (`make test-wheel`), the package is not
    # src/: a module or bundle the build leaves out fails here, by name.
    source = ROOT / "src" / "inspectwidgets"
    installed = Path(inspectwidgets.__file__).parent
    modules = sorted(p.relative_to(source) for p in source.rglob("*.py"))
    assert modules, source
    assert [m for m in modules if not (installed / m).is_file()] == []
    for module in modules:
        name = ".".join(("inspectwidgets", *module.with_suffix("").parts))
        importlib.import_module(name.removesuffix(".__init__"))
    bundles = sorted(p.name for p in (source / "static").glob("*.js"))
    assert bundles and all((installed / "static" / b).is_file() for b in bundles)
    # PEP 561: a user's type checker reads the public API's annotations.
    assert (installed / "py.typed").is_file()
