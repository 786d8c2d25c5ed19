"""Imports point one way: engine <- plotting, engine <- widgets (see
docs/architecture.md). Read from the source, so a stray import fails here
rather than in a user's environment without anywidget."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "inspectwidgets"
ENGINE = PACKAGE / "inspection"
ENGINES = ("_permutation", "_partial_dependence", "_comparison")
UI_LIBRARIES = {"anywidget", "ipywidgets", "traitlets", "matplotlib", "IPython"}


def imports(path):
    """Absolute names of the modules `path` imports (relative ones resolved)."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = module.split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                yield ".".join(base + ([node.module] if node.module else []))
            else:
                yield node.module


ENGINE_FILES = sorted(ENGINE.rglob("*.py"))


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_imports_no_widget_plotting_or_ui_code(path):
    for name in imports(path):
        assert not name.startswith(
            ("inspectwidgets.widgets", "inspectwidgets.plotting")
        )
        assert name.split(".")[0] not in UI_LIBRARIES, name


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_an_engine_uses_another_only_through_its_public_names(path):
    own = path.relative_to(ENGINE).parts[0]
    for name in imports(path):
        for engine in ENGINES:
            prefix = f"inspectwidgets.inspection.{engine}"
            if engine != own and name.startswith(prefix):
                assert name == prefix, f"{name}: import the engine's public names"


def test_plotting_never_imports_widgets():
    for path in (PACKAGE / "plotting").rglob("*.py"):
        for name in imports(path):
            assert not name.startswith("inspectwidgets.widgets"), (path, name)
