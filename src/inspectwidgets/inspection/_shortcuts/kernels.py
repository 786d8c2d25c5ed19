"""The shortcuts' compiled kernels (numba): loaded with the first shortcut,
and cached on everything they compile in.

numba loads on first use, not with the package (importing it is slow), and
under one lock: two runs starting together (the views of a ModelInspector)
could otherwise see a kernel module half imported (:func:`load`).

numba's ``cache=True`` keys a compiled kernel on its own file's text and its
bytecode. A constant or an inlined helper it imports from another module
(the node layout of ``trees/nodes.py``, ``trees/routing.py``'s tests in
``trees/dependence.py``) is frozen into the compiled code, but is no part of
that key: changing it would leave the old code served from the cache, the
walks reading the new arrays with the old layout. :func:`compiled` adds the
text of every module of this package the kernel's module imports, followed
import by import, to the key: such a change compiles the kernel again.
``tests/engine/shortcuts/test_kernel_cache.py`` changes the layout in a copy of
the package and checks just that.
"""

import ast
import functools
import hashlib
import importlib
import sys
import threading
from pathlib import Path

_LOCK = threading.Lock()


def load(name):
    """The kernel module `name` of this package ("trees.routing"), imported
    under the lock: numba with it, on first use."""
    with _LOCK:
        return importlib.import_module(f"{__package__}.{name}")


def loaded(name):
    """The kernel module `name` if some thread has imported it (perhaps only
    partly: then :func:`load` waits for it), else None."""
    return sys.modules.get(f"{__package__}.{name}")


def compiled(**options):
    """``numba.njit(**options)`` with numba's on-disk cache, keyed also on
    :func:`sources_digest` of the kernel's module (see the module doc)."""
    from numba import njit

    def compile_cached(py_func):
        kernel = njit(**options)(py_func)
        # The dispatcher's cache, as njit(cache=True) makes it, with the key
        # below. numba's private names, read here alone; the test of the
        # cache key fails if numba moves them.
        kernel._cache = _keyed_cache()(py_func, sources_digest(py_func.__module__))
        return kernel

    return compile_cached


@functools.cache
def _keyed_cache():
    """numba's FunctionCache, with `digest` in each compiled version's key."""
    from numba.core.caching import FunctionCache

    class KeyedCache(FunctionCache):
        def __init__(self, py_func, digest):
            super().__init__(py_func)
            self._digest = digest

        def _index_key(self, sig, codegen):
            return (*super()._index_key(sig, codegen), self._digest)

    return KeyedCache


@functools.cache
def sources_digest(module):
    """SHA-256 of the text of `module` and of every module of this project
    it imports (relative imports, or absolute ones of the top package),
    followed import by import."""
    digest = hashlib.sha256()
    for name, source in sorted(imported_sources(module).items()):
        digest.update(name.encode() + b"\0" + source + b"\0")
    return digest.hexdigest()


def imported_sources(module):
    """``{name: source bytes}`` of `module` and of the project's modules it
    imports, directly or through others."""
    top = module.split(".")[0]
    root = Path(sys.modules[top].__file__).parent.parent
    found, pending = {}, [module]
    while pending:
        name = pending.pop()
        path = None if name in found else _source_path(root, name)
        if path is None:
            continue
        found[name] = path.read_bytes()
        is_package = path.name == "__init__.py"
        pending.extend(_imports(name, is_package, found[name], top))
    return found


def _source_path(root, name):
    """The file of module `name` under `root`, or None (not a module of ours)."""
    base = root.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _imports(name, is_package, source, top):
    """The modules `source` (module `name`'s) imports from the package `top`:
    for ``from .x import y``, both ``x`` and ``x.y`` (y may be a module)."""
    package = name.split(".") if is_package else name.split(".")[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.split(".")[0] == top:
                yield module
                yield from (f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.split(".")[0] == top)
