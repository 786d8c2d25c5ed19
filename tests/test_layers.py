"""Imports point one way: engine <- plotting, engine <- widgets, and each
engine's modules are its own (see docs/architecture.md). Read from the
source, so a stray import fails here rather than in a user's environment
without anywidget.

The rules, each a function returning what breaks it:

- the engine imports no widget, plotting or UI code;
- ``_core`` imports no engine and no shortcut (the engines share it, not the
  other way); ``_shortcuts`` imports no engine (engines <- shortcuts <- core);
- an engine uses another engine only through its package (``__init__``),
  never its modules; every engine may use ``_core``'s modules;
- the engines use ``_shortcuts`` only through its faces (``_shortcuts``,
  ``_shortcuts.trees``, ``_shortcuts.linear``), never their modules; and
  within ``_shortcuts`` one shortcut uses another only through its face;
- widgets and plotting use the engine only through packages: ``inspection``
  or one sub-package (``inspection._core``, ``inspection._permutation``,
  ...), and only the names it lists in ``__all__`` or ``INTERNAL_API``;
- an engine package's ``__init__`` (and each face of ``_shortcuts``)
  imports nothing it does not list there.
"""

import ast
import importlib
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "inspectwidgets"
ENGINE = PACKAGE / "inspection"
ENGINE_PACKAGE = "inspectwidgets.inspection"
CORE = "_core"
SHORTCUTS = "_shortcuts"
ENGINES = ("_permutation", "_partial_dependence", "_comparison", "_effects")
SUB_PACKAGES = (CORE, SHORTCUTS, *ENGINES)
# The faces of _shortcuts: the package and each shortcut's sub-package.
SHORTCUT_FACES = (SHORTCUTS, f"{SHORTCUTS}.trees", f"{SHORTCUTS}.linear")
UI_LIBRARIES = {"anywidget", "ipywidgets", "traitlets", "matplotlib", "IPython"}


def imports(path, source=None):
    """``(module, names)`` for each import in `path` (its text, or `source`
    read as if it were `path`): the absolute module name (relative ones
    resolved) and the names taken from it (empty for ``import module``)."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = module.split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    tree = ast.parse(path.read_text() if source is None else source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names = tuple(alias.name for alias in node.names)
            if node.level:
                base = package[: len(package) - node.level + 1]
                yield ".".join(base + ([node.module] if node.module else [])), names
            else:
                yield node.module, names


def sub_package(name):
    """The engine sub-package `name` is in ("_core", "_permutation", ...),
    with whether `name` is the package itself; (None, False) outside them."""
    parts = name.split(".")
    if parts[:2] != ENGINE_PACKAGE.split(".") or len(parts) < 3:
        return None, False
    return parts[2], len(parts) == 3


def exposed(package):
    """The names an engine sub-package (or a face of _shortcuts) lists:
    ``__all__`` and its ``INTERNAL_API``."""
    module = importlib.import_module(f"{ENGINE_PACKAGE}.{package}")
    return set(module.__all__) | set(module.INTERNAL_API)


def shortcut_of(name):
    """The shortcut sub-package ("trees", "linear") module `name` is in,
    None for the rest of _shortcuts (and outside it)."""
    parts = name.split(".")
    if parts[:3] != [*ENGINE_PACKAGE.split("."), SHORTCUTS] or len(parts) < 5:
        return None
    return parts[3]


def is_shortcut_face(name):
    return name.removeprefix(f"{ENGINE_PACKAGE}.") in SHORTCUT_FACES


def engine_violations(path, source=None):
    """What breaks the engine's rules in the engine module `path`."""
    own = path.relative_to(ENGINE).parts[0] if path.parent != ENGINE else None
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    found = []
    for name, _ in imports(path, source):
        if name.startswith(("inspectwidgets.widgets", "inspectwidgets.plotting")):
            found.append(f"{name}: the engine imports no widget or plotting code")
        if name.split(".")[0] in UI_LIBRARIES:
            found.append(f"{name}: the engine imports no UI library")
        other, is_package = sub_package(name)
        if own == CORE and (other in ENGINES or name == ENGINE_PACKAGE):
            found.append(f"{name}: _core imports no engine")
        elif own == CORE and other == SHORTCUTS:
            found.append(f"{name}: _core imports no shortcut")
        elif own == SHORTCUTS and (other in ENGINES or name == ENGINE_PACKAGE):
            found.append(f"{name}: _shortcuts imports no engine")
        elif other in ENGINES and other != own and not is_package:
            found.append(f"{name}: import {other}'s package, not its modules")
        elif other == SHORTCUTS and own != SHORTCUTS and not is_shortcut_face(name):
            found.append(f"{name}: import from a face of _shortcuts, not its modules")
        elif (
            shortcut_of(name) not in (None, shortcut_of(module))
            and shortcut_of(module) is not None
            and not is_shortcut_face(name)
        ):
            found.append(f"{name}: a shortcut uses another only through its face")
    return found


def client_violations(path, source=None):
    """What breaks the rules of widgets and plotting in `path`."""
    found = []
    for name, names in imports(path, source):
        if path.is_relative_to(PACKAGE / "plotting") and name.startswith(
            "inspectwidgets.widgets"
        ):
            found.append(f"{name}: plotting never imports widgets")
        package, is_package = sub_package(name)
        if package is None:
            continue
        if not is_package:
            found.append(
                f"{name}: import from {ENGINE_PACKAGE}.{package}, not its modules"
            )
        elif package in SUB_PACKAGES:
            unlisted = sorted(set(names) - exposed(package))
            if unlisted:
                found.append(f"{name}: {unlisted} not in its __all__ or INTERNAL_API")
    return found


ENGINE_FILES = sorted(ENGINE.rglob("*.py"))
CLIENT_FILES = sorted(
    [*(PACKAGE / "widgets").rglob("*.py"), *(PACKAGE / "plotting").rglob("*.py")]
)


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_modules_keep_the_engines_rules(path):
    assert engine_violations(path) == []


@pytest.mark.parametrize(
    "path", CLIENT_FILES, ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_widgets_and_plotting_use_the_engine_through_its_packages(path):
    assert client_violations(path) == []


@pytest.mark.parametrize("package", sorted({*SUB_PACKAGES, *SHORTCUT_FACES}))
def test_an_engine_package_lists_everything_it_imports(package):
    """The F401 ruff leaves to this test (pyproject.toml): a name imported
    into the package is public (__all__) or internal API, and every listed
    name exists."""
    path = ENGINE.joinpath(*package.split(".")) / "__init__.py"
    imported = {
        name
        for module, names in imports(path)
        if module.startswith(f"{ENGINE_PACKAGE}.{package}.")
        for name in names
    }
    listed = exposed(package)
    assert imported - listed == set(), "imported but not listed"
    module = importlib.import_module(f"{ENGINE_PACKAGE}.{package}")
    assert [n for n in sorted(listed) if not hasattr(module, n)] == []


def test_every_engine_sub_package_is_checked():
    on_disk = {p.name for p in ENGINE.iterdir() if (p / "__init__.py").exists()}
    assert on_disk == set(SUB_PACKAGES)
    shortcuts = ENGINE / SHORTCUTS
    faces = {
        ".".join(p.parent.relative_to(ENGINE).parts)
        for p in shortcuts.rglob("__init__.py")
    }
    assert faces == set(SHORTCUT_FACES)


# The checkers fail on a violation: each runs here on source written to
# break one rule, read as if it were a module of the package.

VIOLATIONS = [
    (
        client_violations,
        PACKAGE / "widgets" / "_new_widget.py",
        "from ..inspection._permutation.scoring import ScoringPlan\n",
        "import from inspectwidgets.inspection._permutation, not its modules",
    ),
    (
        client_violations,
        PACKAGE / "plotting" / "_new_display.py",
        "def f():\n"
        "    from inspectwidgets.inspection._core.columns import column_names\n",
        "import from inspectwidgets.inspection._core, not its modules",
    ),
    (
        client_violations,
        PACKAGE / "widgets" / "_new_widget.py",
        "from ..inspection._comparison import comparison_frame\n",
        "['comparison_frame'] not in its __all__ or INTERNAL_API",
    ),
    (
        client_violations,
        PACKAGE / "plotting" / "_new_display.py",
        "from ..widgets import PartialDependenceWidget\n",
        "plotting never imports widgets",
    ),
    (
        engine_violations,
        ENGINE / "_effects" / "new.py",
        "from .._partial_dependence.params import check_n_ice\n",
        "import _partial_dependence's package, not its modules",
    ),
    (
        engine_violations,
        ENGINE / "_core" / "new.py",
        "from .._permutation import permutation_importance\n",
        "_core imports no engine",
    ),
    (
        engine_violations,
        ENGINE / "_comparison" / "new.py",
        "import matplotlib.pyplot as plt\n",
        "the engine imports no UI library",
    ),
    (
        engine_violations,
        ENGINE / "_core" / "new.py",
        "from .._shortcuts import choose_shortcut\n",
        "_core imports no shortcut",
    ),
    (
        engine_violations,
        ENGINE / "_shortcuts" / "trees" / "new.py",
        "from ..._permutation import permutation_importance\n",
        "_shortcuts imports no engine",
    ),
    (
        engine_violations,
        ENGINE / "_partial_dependence" / "new.py",
        "from .._shortcuts.trees.replay import row_blocks\n",
        "import from a face of _shortcuts, not its modules",
    ),
    (
        engine_violations,
        ENGINE / "_shortcuts" / "linear" / "new.py",
        "from ..trees.kinds import unsupported\n",
        "a shortcut uses another only through its face",
    ),
]


@pytest.mark.parametrize(
    ("check", "path", "source", "expected"),
    VIOLATIONS,
    ids=[expected for *_, expected in VIOLATIONS],
)
def test_the_checkers_report_a_violating_import(check, path, source, expected):
    found = check(path, source)
    assert len(found) == 1 and found[0].endswith(expected), found
    # The same module without the import passes.
    assert check(path, "import numpy as np\n") == []
