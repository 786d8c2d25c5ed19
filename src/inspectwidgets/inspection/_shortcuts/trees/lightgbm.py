"""LightGBM's trees for the walks: a fitted ``LGBMClassifier`` or
``LGBMRegressor`` read from its own model text (``Booster.model_to_string``,
the format LightGBM saves and loads), with LightGBM's arithmetic before and
after its trees.

What LightGBM's predict does (its ``tree.h``, ``gbdt_prediction.cpp``,
``c_api.cpp``, its objectives' ``ConvertOutput`` and its Python package's
``predict``), and how the walk does the same:

- Input. A DataFrame's categorical columns become the codes of the
  categories the booster stored at fit (``pandas_categorical``; an unseen
  category or NaN becomes NaN) and every column a float; an array that is
  neither float32 nor float64 becomes float32. LightGBM reads each value as
  a double, and a value within ``kZeroThreshold`` (1e-35f) of zero as 0.0 (its
  rows skip such values as zeros). :meth:`LightGBMTrees.as_model_input` makes
  the same doubles.
- Numeric splits: ``x <= threshold`` in double, the threshold as saved (17
  significant digits: the double itself). Missing values by the node's
  missing type: "NaN": NaN goes the default side (the walk's NAN_LEFT flag is
  ``default_left``); "None": NaN is read as 0.0, so it goes left exactly when
  ``0.0 <= threshold`` (the flag says just that); "Zero" (zero_as_missing):
  NaN and 0.0 go the default side: the walk reads such a column's zeros as
  NaN, and the flag is ``default_left``.
- Categorical splits: NaN and a negative value go right; otherwise the
  value's integer part (C's cast) goes left where its bit is set in the
  node's bitset. The walk's bitsets hold 256 categories: such a column's
  values become their integer parts, those of 256 and above -1 (right, as
  LightGBM sends a code beyond the bitset), and a model whose left sets name a
  category above 255 is refused.
- Sums: per row, every output starts at +0.0 and tree ``i`` adds its leaf
  value to output ``i % K`` (K trees an iteration: the classes of a
  multiclass model, else one), in tree order, in double; the walk adds the
  same values in the same order, so the raw scores are LightGBM's
  (``raw_score=True``) bit for bit. The saved leaf values hold the learning
  rate and boost_from_average's start (folded into the first tree). Like
  predict, the model text stops at ``best_iteration`` where early stopping
  set one.
- Links, by objective: identity (regression, regression_l1, huber, fair,
  quantile, mape), ``exp`` (poisson, gamma, tweedie), the sigmoid (binary;
  multiclassova class by class) and the softmax (multiclass), each as
  LightGBM writes it (``links``); then the Python package's own steps: a
  binary model's probabilities are ``vstack((1 - p, p)).T``, and predict is
  the class of the highest probability.

Refused, with the reason (:func:`unsupported`): linear trees, random forest
mode (``boosting_type="rf"`` averages its trees), custom objectives and those
with another link, ``reg_sqrt``, a categorical split on a category above 255.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.utils import check_array

from ..._core.compat import _openmp_effective_n_threads
from ..._core.responses import PROBABILITIES_NOT_AFFINE
from ..kernels import load
from .from_lightgbm import (
    _CATEGORICAL_BIT,
    _DEFAULT_LEFT_BIT,
    _EXPONENTIAL,
    _IDENTITY,
    _MISSING_NONE,
    _MISSING_ZERO,
    N_CATEGORIES,
    _missing_type,
    model_text,
)
from .nodes import LEFT, RIGHT, _Nodes

# LightGBM's kZeroThreshold (meta.h: a float literal, widened to double).
ZERO_THRESHOLD = float(np.float32(1e-35))
_CLASSES = {"LGBMClassifier", "LGBMRegressor"}


def is_lightgbm(model):
    """Whether `model` is LightGBM's LGBMClassifier or LGBMRegressor itself
    (a subclass may predict otherwise), without importing LightGBM."""
    kind = type(model)
    return kind.__name__ in _CLASSES and kind.__module__.split(".")[0] == "lightgbm"


def unsupported(model, X, methods):
    """Why the walk cannot replay `model` on `X` (None if it can). X may be
    None when not known yet."""
    if not model.__sklearn_is_fitted__():
        return "the model is not fitted"
    classifier = type(model).__name__ == "LGBMClassifier"
    # decision_function: LightGBM >= 4.7's raw scores.
    given = {"predict", "predict_proba", "decision_function"} if classifier else set()
    needed = set(methods) - {m for m in given if hasattr(model, m)} - {"predict"}
    if needed:
        return f"the scorers need {', '.join(sorted(needed))}"
    if X is not None and sparse.issparse(X):
        return "the data reaching the trees is sparse"
    if callable(model.objective):
        return "a custom objective: LightGBM's predict returns its raw scores"
    text = model_text(model)
    if isinstance(text, str):
        return text
    return text.reason


class LightGBMTrees:
    """What the walk does before and after LightGBM's trees, for a
    ``TreeModel`` (its ``flavour``): LightGBM's input, its links, its Python
    package's responses. Build with :meth:`of`."""

    def __init__(self, model, text):
        self.model, self.text = model, text
        self.classifier = type(model).__name__ == "LGBMClassifier"
        self.n_outputs = text.per_iteration
        self.pandas_categorical = model.booster_.pandas_categorical
        self.categorical_columns, self.zero_columns = set(), set()
        for tree in text.trees:
            categorical = tree.decision_type & _CATEGORICAL_BIT != 0
            zero = ~categorical & (_missing_type(tree.decision_type) == _MISSING_ZERO)
            self.categorical_columns.update(tree.feature[categorical].tolist())
            self.zero_columns.update(tree.feature[zero].tolist())
        self.sigmoid = float(
            model.booster_.params.get(
                "sigmoid", text.objective_options.get("sigmoid", 1)
            )
        )

    @classmethod
    def of(cls, model):
        """The flavour of `model` (one :func:`unsupported` takes)."""
        return cls(model, model_text(model))

    def nodes(self):
        """The trees as ``nodes._Nodes``: tree ``i`` adds to output ``i % K``."""
        nodes = _Nodes()
        for i, tree in enumerate(self.text.trees):
            _add_tree(nodes, tree, i % self.n_outputs)
        return nodes

    @staticmethod
    def detour_trees(trees):
        """`trees` (of the model text) as ``choice.detour_share`` reads
        scikit-learn's: children, features and the training rows reaching
        each node."""
        return [_DetourTree.of(tree) for tree in trees]

    def as_model_input(self, X):
        """X as LightGBM's predict reads it (float64, C order; see the
        module doc), or None where its own checks must decide (another
        number of columns, category columns it was not fitted with, a column
        that is not numeric)."""
        if isinstance(X, pd.DataFrame):
            X = self._frame_values(X)
            if X is None:
                return None
        else:
            X = check_array(X, dtype="numeric", ensure_all_finite=False)
            if X.dtype not in (np.float32, np.float64):
                X = X.astype(np.float32)
        if X.ndim != 2 or X.shape[1] != self.text.n_features:
            return None
        X = np.array(X, dtype=np.float64, order="C")
        X[np.abs(X) <= ZERO_THRESHOLD] = 0.0
        for column in self.categorical_columns:
            values = np.trunc(X[:, column])
            values[values >= N_CATEGORIES] = -1.0
            X[:, column] = values
        for column in self.zero_columns:
            values = X[:, column]
            values[values == 0.0] = np.nan
        return X

    def _frame_values(self, X):
        """A DataFrame's values as LightGBM's ``_data_from_pandas`` makes
        them (float64: LightGBM's own float32 or float64 holds the same
        values), or None where it would refuse the frame."""
        categorical = [
            c for c, d in X.dtypes.items() if isinstance(d, pd.CategoricalDtype)
        ]
        stored = self.pandas_categorical
        if categorical and (stored is None or len(stored) != len(categorical)):
            return None
        columns = {}
        for position, (label, column) in enumerate(X.items()):
            if label in categorical:
                categories = stored[categorical.index(label)]
                if list(column.cat.categories) != list(categories):
                    column = column.cat.set_categories(categories)
                codes = column.cat.codes.to_numpy().astype(np.float64)
                codes[codes == -1] = np.nan
                columns[position] = codes
            elif not (
                pd.api.types.is_numeric_dtype(column)
                or pd.api.types.is_bool_dtype(column)
            ):
                return None  # LightGBM refuses it
            else:
                columns[position] = column.to_numpy(dtype=np.float64, na_value=np.nan)
        if not columns:
            return np.empty((len(X), 0))
        return np.column_stack([columns[p] for p in range(len(columns))])

    def responses(self, raw, methods):
        """What each of `methods` returns (LightGBM's predict, predict_proba
        and decision_function; "raw_score": its predict with
        ``raw_score=True``), from
        the leaf sums `raw` of shape (n_rows, K)."""
        links = load("trees.links")
        responses = {}
        for method in {"raw_score", "decision_function"} & set(methods):
            responses[method] = raw.ravel() if self.n_outputs == 1 else raw
        name = self.text.objective
        if name in _IDENTITY:
            linked = raw.ravel()
        elif name in _EXPONENTIAL:
            linked = links.exponential(np.ascontiguousarray(raw.ravel()))
        elif name == "multiclass":
            linked = links.softmax(np.ascontiguousarray(raw))
        else:  # binary, multiclassova
            linked = links.sigmoid(np.ascontiguousarray(raw), self.sigmoid)
            if self.n_outputs == 1:
                linked = linked.ravel()
        if not self.classifier:
            responses["predict"] = linked
            return responses
        # LGBMClassifier.predict_proba and predict, step by step.
        proba = linked
        if linked.ndim == 1:
            proba = np.vstack((1.0 - linked, linked)).transpose()
        if "predict_proba" in methods:
            responses["predict_proba"] = proba
        if "predict" in methods:
            responses["predict"] = self.model.classes_[np.argmax(proba, axis=1)]
        return responses

    def nonlinear_reason(self, responses):
        """Why the responses are not an affine function of the leaf sums
        (None if they are: a classifier's decision_function, a regressor's
        identity link), for the exact H²."""
        if responses.scale == "log_odds":
            return "log-odds are not linear in the trees' leaf values"
        if self.classifier:
            if responses.response_method == "decision_function":
                return None
            return PROBABILITIES_NOT_AFFINE
        if self.text.objective not in _IDENTITY:
            return "its objective's inverse link is not the identity"
        return None

    def predict_threads(self, n_workers=1):
        """The threads LightGBM's own predict takes (its ``n_jobs``; None or
        -1: OpenMP's), shared among `n_workers`, at least one each."""
        n_jobs = self.model.n_jobs
        if n_jobs is None or n_jobs == 0:
            own = _openmp_effective_n_threads()
        elif n_jobs < 0:
            own = max(1, _openmp_effective_n_threads() + 1 + n_jobs)
        else:
            own = n_jobs
        return max(1, own // n_workers)


def _add_tree(nodes, tree, output):
    """One LightGBM tree into `nodes`: internal node i at i, leaf j at
    L - 1 + j; NaN's direction and the categorical sets as the module doc
    says."""
    n_leaves = len(tree.leaf_value)
    n_internal = n_leaves - 1
    n = n_internal + n_leaves
    left = np.full(n, -1, dtype=np.int64)
    right = np.full(n, -1, dtype=np.int64)
    left[:n_internal] = np.where(tree.left >= 0, tree.left, n_internal + ~tree.left)
    right[:n_internal] = np.where(tree.right >= 0, tree.right, n_internal + ~tree.right)
    feature = np.zeros(n, dtype=np.int64)
    feature[:n_internal] = tree.feature
    threshold = np.zeros(n)
    threshold[:n_internal] = tree.threshold
    decision = tree.decision_type
    categorical = np.zeros(n, dtype=bool)
    categorical[:n_internal] = decision & _CATEGORICAL_BIT != 0
    missing = _missing_type(decision)
    default_left = decision & _DEFAULT_LEFT_BIT != 0
    nan_left = np.zeros(n, dtype=bool)
    # "None": NaN read as 0.0; "Zero" and "NaN": the default side.
    nan_left[:n_internal] = np.where(
        missing == _MISSING_NONE, tree.threshold >= 0.0, default_left
    )
    nan_left[categorical] = False
    leaf_value = np.zeros(n)
    leaf_value[n_internal:] = tree.leaf_value
    categories = None
    if categorical.any():
        at = np.flatnonzero(categorical)
        words = N_CATEGORIES // 32
        left_sets = np.zeros((len(at), words), dtype=np.uint32)
        for row, node in enumerate(at):
            b = int(tree.threshold[node])
            bits = tree.cat_threshold[
                tree.cat_boundaries[b] : tree.cat_boundaries[b + 1]
            ]
            left_sets[row, : min(words, len(bits))] = bits[:words]
        # No known set: whatever is not in the left set goes right (NAN_LEFT
        # is off at these nodes).
        categories = (categorical, left_sets, np.zeros_like(left_sets))
    nodes.add(_depth(left, right), left, right, feature, threshold, nan_left,
              leaf_value, output=output, categories=categories)  # fmt: skip


def _depth(left, right):
    """The deepest node's depth (the root, node 0, at 0)."""
    depth = np.zeros(len(left), dtype=np.int64)
    stack = [0]
    while stack:
        node = stack.pop()
        if left[node] != -1:
            for child in (left[node], right[node]):
                depth[child] = depth[node] + 1
                stack.append(child)
    return int(depth.max())


@dataclass(frozen=True)
class _DetourTree:
    """A LightGBM tree as ``choice.detour_share`` reads a scikit-learn
    ``tree_``."""

    node_count: int
    children_left: np.ndarray
    children_right: np.ndarray
    feature: np.ndarray
    weighted_n_node_samples: np.ndarray

    @classmethod
    def of(cls, tree):
        nodes = _Nodes()
        _add_tree(nodes, tree, 0)
        _, block, _, _ = nodes.blocks[0]
        left, right = block[:, LEFT], block[:, RIGHT]
        n_internal = len(tree.leaf_value) - 1
        feature = np.zeros(len(left), dtype=np.int64)
        feature[:n_internal] = tree.feature
        counts = np.concatenate([tree.internal_count, tree.leaf_count]).astype(float)
        if len(counts) != len(left) or counts[0] <= 0:
            counts = np.ones(len(left))
        return cls(len(left), left, right, feature, counts)
