"""numba's cache never serves a kernel compiled with what it no longer
imports (_shortcuts/kernels.py): a kernel's key covers the modules it
compiles in, so changing the node layout compiles the walks again.

numba keys its on-disk cache on the kernel's own file and bytecode only; the
constants of ``trees/nodes.py`` are frozen into the compiled walks. The test
changes them in a copy of the installed package (the source tree, or
site-packages under `make test-wheel`) with a cache of its own, and runs the
walk in a fresh process before and after.
"""

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import inspectwidgets
from inspectwidgets.inspection._shortcuts import kernels

SHORTCUTS = Path(kernels.__file__).parent
PREFIX = "inspectwidgets.inspection._shortcuts"

# One tree walked with two permuted copies; the model's own predict of the
# stacked copies; whether numba compiled the walk or read it from its cache.
PROBE = """
import json
import numpy as np
from sklearn.tree import DecisionTreeRegressor
import inspectwidgets
from inspectwidgets.inspection._shortcuts import choose_shortcut
from inspectwidgets.inspection._shortcuts.trees import walks

rng = np.random.default_rng(0)
X = rng.normal(size=(200, 3))
y = 2 * X[:, 0] + np.sin(3 * X[:, 1]) + rng.normal(scale=0.1, size=200)
model = DecisionTreeRegressor(max_depth=6, random_state=0).fit(X, y)
chosen = choose_shortcut("tree", model, X, ["predict"])
perm = rng.permutation(200)
walked = chosen.model.predict(
    chosen.X, [(perm, (0,)), (perm, (1,))], ["predict"]
)["predict"]
stacked = np.concatenate([X, X])
stacked[:200, 0], stacked[200:, 1] = X[perm, 0], X[perm, 1]
stats = walks.routing().route_copies.stats
print(json.dumps({
    "package": inspectwidgets.__file__,
    "equal": bool(np.array_equal(walked, model.predict(stacked))),
    "compiled": sum(stats.cache_misses.values()),
    "from_cache": sum(stats.cache_hits.values()),
}))
"""

LAYOUT = "LEFT, RIGHT, FEATURE, THRESHOLD = 0, 1, 2, 3\n"
# Left and right children swap columns: walks compiled for the old layout
# read a right child where the new arrays hold the left one.
SWAPPED = "LEFT, RIGHT, FEATURE, THRESHOLD = 1, 0, 2, 3\n"


def walk(root, cache):
    """What PROBE prints, run on the package copied under `root`."""
    env = dict(
        os.environ,
        PYTHONPATH=str(root),
        NUMBA_CACHE_DIR=str(cache),
        OMP_NUM_THREADS="1",
    )
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    assert Path(found["package"]).is_relative_to(root), found["package"]
    return found


@pytest.mark.slow  # fresh processes, each compiling the walk or loading it
def test_a_changed_node_layout_compiles_the_walks_again(tmp_path):
    root, cache = tmp_path / "site", tmp_path / "numba-cache"
    package = Path(inspectwidgets.__file__).parent
    shutil.copytree(
        package,
        root / "inspectwidgets",
        ignore=shutil.ignore_patterns("__pycache__", "static"),
    )
    nodes = root / "inspectwidgets" / SHORTCUTS.relative_to(package) / "trees"
    nodes = nodes / "nodes.py"
    text = nodes.read_text()
    assert LAYOUT in text

    first = walk(root, cache)
    assert first["equal"] and first["compiled"] >= 1
    # The cache serves an unchanged kernel: what the test below relies on.
    again = walk(root, cache)
    assert again["equal"] and (again["compiled"], again["from_cache"]) == (0, 1)

    nodes.write_text(text.replace(LAYOUT, SWAPPED))
    changed = walk(root, cache)
    # Compiled again, for the new layout: a walk read from the cache would
    # follow the old one to the wrong leaves.
    assert changed["compiled"] >= 1 and changed["from_cache"] == 0
    assert changed["equal"]
    assert walk(root, cache)["from_cache"] == 1


def test_every_kernel_is_compiled_through_kernels():
    """No module of _shortcuts calls numba's jit itself: each kernel's cache
    is keyed by kernels.compiled."""
    direct = []
    for path in SHORTCUTS.rglob("*.py"):
        if path.name == "kernels.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "numba"
            ):
                direct.append(f"{path.relative_to(SHORTCUTS)}: from {node.module}")
            elif isinstance(node, ast.Import) and any(
                a.name.startswith("numba") for a in node.names
            ):
                direct.append(f"{path.relative_to(SHORTCUTS)}: import numba")
    assert direct == []


@pytest.mark.parametrize(
    ("kernel", "compiled_in"),
    [
        ("trees.routing", {"trees.nodes", "kernels"}),
        ("trees.dependence", {"trees.routing", "trees.nodes", "kernels"}),
        ("linear.sums", {"kernels"}),
    ],
)
def test_a_kernels_key_covers_the_modules_it_imports(kernel, compiled_in):
    sources = kernels.imported_sources(f"{PREFIX}.{kernel}")
    assert set(sources) == {f"{PREFIX}.{name}" for name in {kernel, *compiled_in}}
