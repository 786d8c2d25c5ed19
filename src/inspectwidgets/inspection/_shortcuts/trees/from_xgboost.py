"""XGBoost's tree boosters read into the walk: ``XGBClassifier`` and
``XGBRegressor`` (exact types), read from the booster's documented JSON model
(``save_raw("json")``, XGBoost's ``doc/model.schema``), predicted as its CPU
predictor predicts them.

What XGBoost does, and how the walk does the same (XGBoost 3.x,
``src/predictor/predict_fn.h``, ``cpu_predictor.cc``, ``common/categorical.h``):

- Input. Every value is a float32 (a float64 rounded to nearest, as its
  data adapters cast), NaN missing (the model's ``missing`` must be NaN).
- Numeric split: ``x < t`` goes left, both float32. For float32 x that is
  ``x <= nextafter(t, -inf)``, so the node keeps that float32 threshold,
  widened exactly to float64 for the walk's ``<=``.
- Missing values go to ``default_left``'s side, before any test.
- Categorical split (``enable_categorical``): the categories a node lists
  go right, every other code left. The node's bitsets say so for codes below
  256 (left set: the complement of the list; known set: the list); features
  with more categories are refused. Since 3.1 the Python package re-codes a
  DataFrame's categories to the training ones (stored in the model's
  ``cats``) by value, and refuses a frame whose dtype holds a category the
  model never saw: :meth:`XGBoostTrees.as_model_input` re-codes the same way
  and leaves such a frame to XGBoost's own error.
- Sums: per row and output group, the margin starts from the model's base
  margin and adds each tree's float32 leaf value in float32, trees in order
  (``tree_info`` gives each tree's group). The walk sums in float32 for these
  models (``TreeModel.start`` float32): the margins are XGBoost's bit for bit.
- Base margin and link. ``base_score``'s meaning moved between releases (a
  probability, per-class margins since 3.1), and XGBoost turns it into a
  margin with its own float32 arithmetic. Neither is re-derived here: the
  start is XGBoost's own margin after zero trees, and probabilities are
  XGBoost's own transform of the walked margins (a prediction through zero
  trees with the margins as ``base_margin``): the same bits by construction.
- Trees: those the scikit-learn wrapper's predict uses: all, or up to
  ``best_iteration`` after early stopping (``iteration_indptr`` says where an
  iteration's trees end).

Anything else (gblinear, dart, vector-leaf trees, other objectives, GPU
devices) is refused by :func:`unsupported`, with the reason.
"""

import json
import os
import weakref
from fractions import Fraction

import numpy as np
from scipy import sparse

from ..._core.responses import PROBABILITIES_NOT_AFFINE
from .models import TreeModel
from .nodes import TreeShape, _Nodes

# objective -> what the wrapper's predict_proba/predict make of the margins.
_OBJECTIVES = {
    "binary:logistic": "binary",
    "multi:softprob": "multiclass",
    "reg:squarederror": "regression",
}
_CLASSIFIERS = {"binary", "multiclass"}
# The categorical test reads codes below 256 (nodes.py's bitsets).
_MAX_CATEGORIES = 256


def methods_of(model):
    """The prediction methods the walk gives for an XGBoost model."""
    if type(model).__name__ == "XGBClassifier":
        return {"predict", "predict_proba"}
    return {"predict"}


def unsupported(model, X, methods):
    """Why the walk cannot predict the XGBoost `model` on `X` (None if it
    can); X may be None when not known yet."""
    booster = getattr(model, "_Booster", None)
    if booster is None:
        return "the XGBoost model is not fitted"
    params = model.get_params()
    if callable(params.get("objective")):
        return "a custom objective's link is its own"
    device = params.get("device")
    if device not in (None, "cpu"):
        return f"device={device!r}: the walk reproduces XGBoost's CPU predictor"
    missing = params.get("missing")
    if not (isinstance(missing, float) and np.isnan(missing)):
        return f"missing={missing!r}: the walk takes NaN as XGBoost's missing value"
    reading = _reading(model)
    name = reading["booster"]
    if name != "gbtree":
        return {
            "gblinear": "booster='gblinear' is a linear model, not trees",
            "dart": (
                "booster='dart' weighs its trees by dropout at prediction; "
                "the walk adds them unweighted"
            ),
        }.get(name, f"booster={name!r} is not a tree booster the walk reads")
    objective = reading["objective"]
    if objective not in _OBJECTIVES:
        return (
            f"objective={objective!r}: the walk replays binary:logistic, "
            "multi:softprob and reg:squarederror"
        )
    if reading["vector_leaf"]:
        return "multi-output trees (vector leaves) are not read by the walk"
    needed = set(methods) - methods_of(model)
    if needed:
        return f"the scorers need {', '.join(sorted(needed))}"
    if reading["wide_categories"]:
        return (
            f"a categorical feature has more than {_MAX_CATEGORIES} categories, "
            "more than the walk's category test holds"
        )
    if X is not None and sparse.issparse(X):
        return "the data reaching the trees is sparse"
    return None


class XGBoostTrees(TreeModel):
    """An XGBoost booster flattened for the walks: float32 input, leaf values
    and sums, XGBoost's own start and link (see the module doc)."""

    unreadable = (
        "X holds values XGBoost's own checks must decide on (infinity, "
        "values that are not numbers, a category the model was not fitted "
        "on, a categorical feature given as numbers)"
    )

    def __init__(self, model, nodes, reading, start):
        super().__init__(model, nodes, start.shape[1], dtype=np.float32,
                         start=start, finite=False)  # fmt: skip
        # Float32 leaves into float32 sums: numba adds them in float32, as
        # XGBoost's predictor does.
        self.leaf_value = self.leaf_value.astype(np.float32)
        self.task = _OBJECTIVES[reading["objective"]]
        self.classifier = self.task in _CLASSIFIERS
        self.n_features = reading["n_features"]
        self.categorical = reading["categorical"]
        self.categories = reading["categories"]
        if self.classifier:
            self.bent_link = PROBABILITIES_NOT_AFFINE

    @classmethod
    def of(cls, model, X, methods):
        """The flattened XGBoost `model`, or None where the walk does not
        take it (:func:`unsupported` says why)."""
        if unsupported(model, X, methods) is not None:
            return None
        reading = _reading(model)
        nodes = _Nodes()
        for tree, group in zip(reading["trees"], reading["groups"], strict=True):
            depth, left, right, feature, threshold, nan_left, leaf, categories = tree
            nodes.add(depth, left, right, feature, threshold, nan_left, leaf,
                      output=int(group), categories=categories)  # fmt: skip
        return cls(model, nodes, reading, _base_margin(model, reading))

    def as_model_input(self, X):
        """X as XGBoost's predictor reads it: float32, NaN missing, a
        categorical column as the codes of its categories among the model's
        own; None where XGBoost's own checks must decide (infinity, a
        category the model never saw, a categorical feature given as numbers,
        values that are not numbers)."""
        if sparse.issparse(X) or X.shape[1] != self.n_features:
            return None
        rows = np.empty(X.shape, dtype=np.float32)
        frame = hasattr(X, "dtypes")
        for j in range(X.shape[1]):
            column = X.iloc[:, j] if frame else X[:, j]
            dtype = getattr(column, "dtype", None)
            if str(dtype) == "category":
                codes = self._recoded(j, column)
                if codes is None:
                    return None
                rows[:, j] = codes
                continue
            if self.categorical[j]:
                return None
            try:
                if frame:
                    rows[:, j] = column.to_numpy(dtype=np.float64, na_value=np.nan)
                else:
                    rows[:, j] = np.asarray(column, dtype=np.float64)
            except (TypeError, ValueError):
                return None
        if np.isinf(rows).any():
            return None
        return rows

    def _recoded(self, j, column):
        """The codes of a categorical column among the model's categories of
        feature `j` (NaN where missing), or None: a feature the model reads
        as a number, or a category it never saw (XGBoost refuses the frame)."""
        known = self.categories[j]
        if not self.categorical[j] or known is None:
            return None
        import pandas as pd

        where = pd.Index(known).get_indexer(column.cat.categories)
        if (where < 0).any():
            return None
        codes = column.cat.codes.to_numpy()
        return np.where(codes < 0, np.nan, where[codes].astype(np.float64))

    def predicts_walk_rows(self):
        """Never: XGBoost reads a DataFrame's categories and names, not the
        walk's float32 codes."""
        return False

    def predict_threads(self, n_workers=1):
        """XGBoost's own threads (``n_jobs``; all cores when unset), shared
        among the workers."""
        n_jobs = self.model.get_params().get("n_jobs")
        own = os.cpu_count() or 1
        if n_jobs is not None and n_jobs > 0:
            own = n_jobs
        return max(1, own // n_workers)

    def responses(self, raw, methods):
        """What the wrapper's `methods` return, from margins `raw` of shape
        (n_rows, n_outputs) (float32 from the walk; float64 means from the
        exact H², for a regressor)."""
        if not self.classifier:
            return {"predict": raw[:, 0]}
        probabilities = self._transformed(raw)
        responses = {}
        if self.task == "binary":
            # XGBClassifier's own steps on its positive-class probabilities.
            proba = np.vstack((1.0 - probabilities, probabilities)).transpose()
            labels = np.repeat(0, probabilities.shape[0])
            labels[probabilities > 0.5] = 1
        else:
            proba = probabilities
            labels = np.argmax(probabilities, axis=1)
        for method in methods:
            responses[method] = proba if method == "predict_proba" else labels
        return responses

    def _transformed(self, raw):
        """XGBoost's own link of the margins: a prediction through zero trees
        from the margins as ``base_margin``."""
        import xgboost

        margins = np.ascontiguousarray(raw, dtype=np.float32)
        if margins.shape[1] == 1:
            margins = margins[:, 0]
        empty = sparse.csr_matrix((len(raw), self.n_features), dtype=np.float32)
        data = xgboost.DMatrix(empty, base_margin=margins)
        return self.model.get_booster().predict(
            data, iteration_range=(1, 1), validate_features=False
        )


# The walk's reading of these models (``kinds.other_library``).
TREES = XGBoostTrees
SUMS_DTYPE = "float32"  # its predictor's sums


def tree_shapes(model):
    """The XGBoost `model`'s trees as ``nodes.TreeShape`` (XGBoost's cover,
    its hessian sums, stands for the rows reaching a node), or None where
    the walk does not read them."""
    if unsupported(model, None, ()) is not None:
        return None
    return _reading(model)["shapes"]


def _base_margin(model, reading):
    """XGBoost's margin before any tree, per output group: float32 of shape
    (1, n_outputs)."""
    import xgboost

    empty = sparse.csr_matrix((1, reading["n_features"]), dtype=np.float32)
    margin = model.get_booster().predict(
        xgboost.DMatrix(empty),
        output_margin=True,
        iteration_range=(1, 1),
        validate_features=False,
    )
    return np.asarray(margin, dtype=np.float32).reshape(1, -1)


# Readings by booster: a fit makes a new one, and a run asks several times
# (check, take, the flattening). Weak keys: the model's owner decides its life.
_READINGS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _reading(model):
    """The booster's JSON model read into what the walk needs (see
    :func:`_read`), once per booster and iteration range."""
    booster = model.get_booster()
    key = getattr(model, "best_iteration", None) if _early_stopped(model) else None
    cached = _READINGS.get(booster)
    if cached is None or cached[0] != key:
        document = json.loads(booster.save_raw("json"), parse_float=str)
        cached = (key, _read(document, key))
        _READINGS[booster] = cached
    return cached[1]


def _read(document, best):
    """What the walk needs of the JSON model `document` (floats as text)."""
    learner = document["learner"]
    booster = learner["gradient_booster"]
    parameters = learner["learner_model_param"]
    n_features = int(parameters["num_feature"])
    reading = {
        "booster": booster["name"],
        "objective": learner["objective"]["name"],
        "n_features": n_features,
        "vector_leaf": int(parameters.get("num_target", "1")) > 1,
        "wide_categories": False,
    }
    types = learner.get("feature_types") or ["float"] * n_features
    reading["categorical"] = [t == "c" for t in types]
    if booster["name"] != "gbtree":
        return reading
    forest = booster["model"]
    reading["categories"] = _training_categories(forest.get("cats"), n_features)
    end = len(forest["trees"])
    if best is not None:
        end = int(forest["iteration_indptr"][best + 1])
    reading["groups"] = np.asarray(forest["tree_info"][:end], dtype=np.int64)
    trees, shapes = [], []
    for tree in forest["trees"][:end]:
        if int(tree["tree_param"].get("size_leaf_vector", "1")) > 1:
            reading["vector_leaf"] = True
            return reading
        flattened = _tree(tree)
        if flattened is None:
            reading["wide_categories"] = True
            return reading
        trees.append(flattened)
        left, right, feature = flattened[1], flattened[2], flattened[3]
        cover = np.asarray(tree["sum_hessian"], dtype=np.float64)
        shapes.append(TreeShape(len(left), left, right, feature, cover))
    reading["trees"], reading["shapes"] = trees, shapes
    return reading


def _early_stopped(model):
    """Whether the wrapper's predict stops at ``best_iteration`` (its
    ``_get_iteration_range``: where the booster holds one)."""
    try:
        model.best_iteration  # noqa: B018 - raises where there is none
    except AttributeError:
        return False
    return True


def _tree(tree):
    """One tree as ``_Nodes.add``'s arguments (depth, children, features,
    thresholds, missing values' side, leaf values, categories), or None where
    a categorical split lists a code the walk's test cannot hold."""
    left = np.asarray(tree["left_children"], dtype=np.int64)
    right = np.asarray(tree["right_children"], dtype=np.int64)
    feature = np.asarray(tree["split_indices"], dtype=np.int64)
    condition = _float32(tree["split_conditions"])
    leaf = left == -1
    # x < t (float32) <=> x <= the float32 below t, compared widened.
    below = np.nextafter(condition, np.float32(-np.inf))
    threshold = np.where(leaf, 0.0, below.astype(np.float64))
    leaf_value = np.where(leaf, condition, np.float32(0.0))
    feature = np.where(leaf, 0, feature)
    categories = None
    is_categorical = np.asarray(tree["split_type"], dtype=np.int64) == 1
    if is_categorical.any():
        categories = _category_sets(tree, is_categorical)
        if categories is None:
            return None
    nan_left = np.asarray(tree["default_left"], dtype=np.int64)
    return (_depth(left, right), left, right, feature, threshold, nan_left,
            leaf_value[:, None], categories)  # fmt: skip


def _category_sets(tree, is_categorical):
    """``(is_categorical, left_sets, known_sets)`` for ``_Nodes.add``: the
    listed categories go right (known set), every other code below 256 left
    (left set). None where a node lists a code of 256 or more."""
    nodes = np.asarray(tree["categories_nodes"], dtype=np.int64)
    segments = np.asarray(tree["categories_segments"], dtype=np.int64)
    sizes = np.asarray(tree["categories_sizes"], dtype=np.int64)
    listed = np.asarray(tree["categories"], dtype=np.int64)
    if listed.size and (listed.max() >= _MAX_CATEGORIES or listed.min() < 0):
        return None
    at = np.flatnonzero(is_categorical)
    bits = np.zeros((len(at), _MAX_CATEGORIES), dtype=bool)
    row_of = {int(n): r for r, n in enumerate(at)}
    for node, start, size in zip(nodes, segments, sizes, strict=True):
        bits[row_of[int(node)], listed[start : start + size]] = True
    right = np.packbits(bits, axis=1, bitorder="little").view(np.uint32)
    left = np.packbits(~bits, axis=1, bitorder="little").view(np.uint32)
    return is_categorical, left, right


def _depth(left, right):
    """The depth of a tree's deepest node (the root at 0)."""
    depth = np.zeros(len(left), dtype=np.int64)
    # XGBoost numbers a node's children after it.
    for node in range(len(left)):
        if left[node] != -1:
            depth[left[node]] = depth[right[node]] = depth[node] + 1
    return int(depth.max())


def _float32(texts):
    """Float32 values from their JSON text (XGBoost writes a float32's
    shortest decimal), rounded once: text -> float64 -> float32 rounds twice,
    and differs from one rounding only where the float64 lands exactly
    halfway between two float32; those are decided from the text."""
    wide = np.asarray(texts, dtype=np.float64)
    narrow = wide.astype(np.float32)
    toward = np.where(wide > narrow, np.inf, -np.inf).astype(np.float32)
    other = np.nextafter(narrow, toward)
    halfway = (wide != narrow) & (
        wide == (narrow.astype(np.float64) + other.astype(np.float64)) / 2
    )
    for i in np.flatnonzero(halfway):
        exact = Fraction(texts[i])
        distance = [abs(Fraction(float(v[i])) - exact) for v in (narrow, other)]
        if distance[1] < distance[0]:
            narrow[i] = other[i]
    return narrow


def _training_categories(cats, n_features):
    """Per feature, the categories the model was fitted on, in code order
    (the model's ``cats``: strings as UTF-8 bytes and offsets, or numbers),
    None for a feature without them."""
    if not cats or not cats.get("enc"):
        return [None] * n_features
    found = []
    for encoding in cats["enc"]:
        values = encoding.get("values") or []
        if not values:
            found.append(None)
        elif "offsets" in encoding:
            text = bytes(int(v) for v in values)
            offsets = encoding["offsets"]
            bounds = zip(offsets[:-1], offsets[1:], strict=True)
            found.append([text[a:b].decode() for a, b in bounds])
        else:
            found.append([int(v) if float(v).is_integer() else float(v)
                          for v in values])  # fmt: skip
    found += [None] * (n_features - len(found))
    return found
