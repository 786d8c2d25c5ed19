"""Loading the compiled walks (and the linear shortcut's sums): numba comes
with the first shortcut, not with the package."""

import sys
import threading

import numpy as np

from .pipeline import final_estimator
from .tree_kinds import _SUPPORTED
from .tree_nodes import N_NODE_COLUMNS, CopyLayout, WalkTrees


def walks_needed(estimator):
    """Whether `estimator` (or a pipeline's final step) would take the tree
    shortcut while its compiled walks are not loaded in this process yet: the
    first shortcut call then compiles them (a few seconds, once per
    environment: numba caches them) or loads them from the cache."""
    model = final_estimator(estimator)
    if type(model) not in _SUPPORTED:
        return False
    # The module may be half imported by another thread: then the walks are
    # needed, and load_walks waits for that import.
    routing = sys.modules.get(f"{__package__}.tree_routing")
    walks = [getattr(routing, name, None) for name in _WALKS]
    return not all(walk is not None and walk.signatures for walk in walks)


_ROUTING_LOCK = threading.Lock()
_WALKS = ("route_copies", "route_queries", "route_grid")


def routing():
    """The walks' module. numba loads on first use, not with the package
    (importing it is slow), and under a lock: two runs starting together (the
    views of a ModelInspector) could otherwise see it half imported."""
    with _ROUTING_LOCK:
        from . import tree_routing
    return tree_routing


def dependence_walks():
    """The exact tree H²'s walks (``tree_dependence``), loaded as
    :func:`routing` loads its own: they use its tests."""
    with _ROUTING_LOCK:
        from . import tree_dependence
    return tree_dependence


def linear_sums():
    """The linear shortcut's squared errors' sums (``linear_sums``), loaded
    as :func:`routing` loads the walks."""
    with _ROUTING_LOCK:
        from . import linear_sums
    return linear_sums


def sums_loaded():
    """Whether :func:`linear_sums` is loaded in this process, its sums
    compiled (or read from numba's cache) for some arrays."""
    module = sys.modules.get(f"{__package__}.linear_sums")
    return bool(getattr(getattr(module, "error_sum", None), "signatures", None))


def load_walks():
    """Compile (or load from numba's cache) the walks, on arrays of the very
    types the shortcut passes (float32 and float64 input), so that its first
    real call starts at once."""
    walks = routing()
    route_copies, route_queries = walks.route_copies, walks.route_queries

    nodes = np.full((1, N_NODE_COLUMNS), -1, dtype=np.int64)  # one leaf
    bitsets = np.zeros((0, 2, 8), dtype=np.uint32)
    one = np.zeros(1, dtype=np.int64)
    trees = WalkTrees(one, one, nodes, bitsets, np.zeros((1, 1)), 0)
    for dtype in (np.float32, np.float64):
        X = np.zeros((2, 1), dtype=dtype)
        route_queries(X, one, X[:1].T.copy(), trees, np.zeros((2, 1, 1)))
        walks.route_grid(
            np.ascontiguousarray(X.T), X[:1, 0].copy(), 0, trees, np.zeros((2, 1, 1))
        )
        position = np.zeros((1, 1), dtype=np.int64)
        groups = np.array([0, 1])
        copies = CopyLayout(X.copy(), one, groups, position, one, groups)
        route_copies(X, copies, trees, np.array([0, 1]), 0, 2, np.zeros((2, 1, 1)))
