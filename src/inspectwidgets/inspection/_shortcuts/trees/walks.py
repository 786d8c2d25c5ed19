"""The tree walks' compiled kernels, loaded on first use
(``kernels.load``): numba comes with the first shortcut, not with the
package."""

import numpy as np

from ..._core.pipeline import final_estimator
from ..kernels import load, loaded
from .kinds import SUPPORTED, is_catboost, other_library
from .lightgbm import is_lightgbm
from .nodes import N_NODE_COLUMNS, CopyLayout, WalkTrees


def walks_needed(estimator):
    """Whether `estimator` (or a pipeline's final step) would take the tree
    shortcut while its compiled walks are not loaded in this process yet: the
    first shortcut call then compiles them (a few seconds, once per
    environment: numba caches them) or loads them from the cache."""
    model = final_estimator(estimator)
    if (
        type(model) not in SUPPORTED
        and other_library(model) is None
        and not is_lightgbm(model)
    ):
        return False
    # The module may be half imported by another thread: then the walks are
    # needed, and load_walks waits for that import.
    if is_catboost(model):  # its own walk (``oblivious``)
        module = loaded("trees.oblivious")
        return not all(
            getattr(module, name, None) is not None and getattr(module, name).signatures
            for name in ("leaf_indices", "add_copy", "add_grid")
        )
    module = loaded("trees.routing")
    walks = [getattr(module, name, None) for name in _WALKS]
    sums = _sums_dtype(model)
    return not all(
        walk is not None
        and any(str(signature[-1].dtype) == sums for signature in walk.signatures)
        for walk in walks
    )


_WALKS = ("route_copies", "route_queries", "route_grid")


def _sums_dtype(model):
    """The dtype the walks sum `model`'s leaves in: float32 for XGBoost's
    trees (its predictor's), float64 for scikit-learn's, LightGBM's and
    CatBoost's."""
    reader = other_library(model)
    return "float64" if reader is None else reader.SUMS_DTYPE


def routing():
    """The walks' module (``routing``)."""
    return load("trees.routing")


def dependence_walks():
    """The exact tree H²'s walks (``dependence``): they use the tests of
    ``routing``."""
    return load("trees.dependence")


def load_walks(estimator=None):
    """Compile (or load from numba's cache) the walks, on arrays of the very
    types the shortcut passes (float32 and float64 input, float64 sums; for
    an XGBoost `estimator`, float32 input, leaves and sums), so that its
    first real call starts at once."""
    if is_catboost(final_estimator(estimator)):
        _load_oblivious()
    walks = routing()
    route_copies, route_queries = walks.route_copies, walks.route_queries

    nodes = np.full((1, N_NODE_COLUMNS), -1, dtype=np.int64)  # one leaf
    bitsets = np.zeros((0, 2, 8), dtype=np.uint32)
    one = np.zeros(1, dtype=np.int64)
    if _sums_dtype(final_estimator(estimator)) == "float32":
        kinds = [(np.float32, np.float32)]
    else:
        kinds = [(np.float32, np.float64), (np.float64, np.float64)]
    for dtype, sums in kinds:
        trees = WalkTrees(one, one, nodes, bitsets, np.zeros((1, 1), sums), 0)
        X = np.zeros((2, 1), dtype=dtype)
        route_queries(X, one, X[:1].T.copy(), trees, np.zeros((2, 1, 1), sums))
        walks.route_grid(
            np.ascontiguousarray(X.T), X[:1, 0].copy(), 0, trees,
            np.zeros((2, 1, 1), sums),
        )  # fmt: skip
        position = np.zeros((1, 1), dtype=np.int64)
        groups = np.array([0, 1])
        copies = CopyLayout(X.copy(), one, groups, position, one, groups)
        route_copies(
            X, copies, trees, np.array([0, 1]), 0, 2, np.zeros((2, 1, 1), sums)
        )
    model = final_estimator(estimator)
    if estimator is None or is_lightgbm(model) or is_catboost(model):
        # LightGBM's links (its probabilities and exp-link predictions;
        # CatBoost's sigmoid and softmax).
        links = load("trees.links")
        raw = np.zeros((2, 2))
        links.sigmoid(raw, 1.0)
        links.softmax(raw)
        links.exponential(raw[0])


def _load_oblivious():
    """Compile (or load) CatBoost's oblivious walk on arrays of the types
    ``catboost.CatBoostTrees.predict`` passes (one tree of depth 1)."""
    kernels = load("trees.oblivious")
    start, feature = np.array([0, 1]), np.zeros(1, dtype=np.int64)
    border, nan_right = np.zeros(1), np.zeros(1, dtype=np.bool_)
    leaf_start, leaf_value = np.zeros(1, dtype=np.int64), np.zeros((1, 2))
    Xt = np.zeros((1, 2), dtype=np.float32)
    base = np.zeros((1, 2), dtype=np.int32)
    kernels.leaf_indices(Xt, start, feature, border, nan_right, base)
    changed = (np.zeros(2, dtype=np.int64), feature, feature, border, nan_right)
    raw = np.zeros((1, 1, 2))
    kernels.add_copy(base, Xt, changed, start, leaf_start, leaf_value,
                     np.zeros(2, dtype=np.int32), raw[0, :, 0:2])  # fmt: skip
    keep, bits = np.full(1, -1, dtype=np.int32), np.zeros((1, 1), dtype=np.int32)
    kernels.add_grid(base, keep, bits, start, leaf_start, leaf_value, raw)
