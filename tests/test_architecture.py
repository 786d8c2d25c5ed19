"""docs/architecture.md's floor plan ("Rooms") matches the source tree: every
package and module under src/inspectwidgets/ is listed in its folder, and
nothing listed is gone. A new module fails here until the page says what it
is for."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "src" / "inspectwidgets"
# A line's names: what precedes the first gap of two spaces (its description).
NAMES = re.compile(r"^( *)(\S.*?)(?: {2,}|$)")
MODULES = re.compile(r"^[\w.]+\.py(?:, [\w.]+\.py)*$")


def floor_plan(text):
    """The folders and modules the Rooms block lists, as paths relative to
    src/ ("inspectwidgets/inspection/_core/"), from its indentation."""
    block = text.split("## Rooms", 1)[1].split("```", 2)[1]
    listed, folders = set(), []  # folders: (indent, name) of the open ones
    for line in block.splitlines():
        match = NAMES.match(line)
        if not match:
            continue
        indent, names = len(match[1]), match[2]
        if names.endswith("/") or MODULES.match(names):
            folders = [(i, n) for i, n in folders if i < indent]
            where = "".join(n for _, n in folders)
            if names.endswith("/"):
                folders.append((indent, names))
                listed.add(where + names)
            else:
                listed.update(where + name for name in names.split(", "))
    return {p.removeprefix("src/") for p in listed if p.startswith("src/")}


def source_tree():
    paths = set()
    for path in PACKAGE.rglob("*.py"):
        relative = path.relative_to(PACKAGE.parent)
        if path.name != "__init__.py" or path.parent == PACKAGE:
            paths.add(relative.as_posix())
        if path.name == "__init__.py" and path.parent != PACKAGE:
            paths.add(relative.parent.as_posix() + "/")
    return paths


def test_every_package_and_module_is_on_the_floor_plan():
    missing = sorted(source_tree() - floor_plan(PAGE.read_text()))
    assert missing == [], f"add to docs/architecture.md's Rooms: {missing}"


def test_the_floor_plan_lists_nothing_that_is_gone():
    listed = {p for p in floor_plan(PAGE.read_text()) if p.endswith((".py", "/"))}
    gone = sorted(p for p in listed if not (PACKAGE.parent / p).exists())
    assert gone == [], f"docs/architecture.md lists what is gone: {gone}"


def test_the_parser_reads_folders_modules_and_lists():
    page = (
        "## Rooms\n```\nsrc/pkg/\n  a.py   the a\n  sub/   a sub\n"
        "    b.py, c.py  both\n      continued text\n  d.py\n```\n"
    )
    assert floor_plan(page) == {"pkg/", "pkg/a.py", "pkg/sub/", "pkg/sub/b.py",
                                "pkg/sub/c.py", "pkg/d.py"}  # fmt: skip


MAX_MODULE_LINES = 450
MAX_FUNCTION_LINES = 60


def _body_lines(node):
    """Lines of a function's body, its docstring not counted."""
    first = node.body[0]
    docstring = isinstance(first, ast.Expr) and isinstance(
        getattr(first, "value", None), ast.Constant
    )
    start = first.end_lineno + 1 if docstring and len(node.body) > 1 else first.lineno
    return node.end_lineno - start + 1


def long_functions_without_a_reason(source):
    """Functions over MAX_FUNCTION_LINES whose `def` (or first decorator) has
    no comment right above it saying why."""
    lines = source.splitlines()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if _body_lines(node) <= MAX_FUNCTION_LINES:
            continue
        top = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        if not lines[top - 2].strip().startswith("#"):
            yield f"{node.name} (line {node.lineno}, {_body_lines(node)} lines)"


def test_modules_stay_readable_in_one_sitting():
    long = {
        str(path.relative_to(PACKAGE)): n
        for path in PACKAGE.rglob("*.py")
        if (n := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}, f"split these modules by concern: {long}"


def test_a_long_function_says_why_beside_it():
    offenders = {
        str(path.relative_to(PACKAGE)): found
        for path in PACKAGE.rglob("*.py")
        if (found := list(long_functions_without_a_reason(path.read_text())))
    }
    assert offenders == {}, f"split these, or say why not above them: {offenders}"


def test_the_length_check_reads_docstrings_and_comments():
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES + 1))
    long = 'def f():\n    """Doc."""\n' + body
    assert list(long_functions_without_a_reason(long)) == ["f (line 1, 61 lines)"]
    assert list(long_functions_without_a_reason("# Why.\n" + long)) == []
    body = body.removesuffix(f"    x{MAX_FUNCTION_LINES} = {MAX_FUNCTION_LINES}\n")
    short = 'def f():\n    """Doc\n    on two lines."""\n' + body
    assert list(long_functions_without_a_reason(short)) == []
