"""CatBoost's oblivious trees read into the walk: ``CatBoostClassifier`` and
``CatBoostRegressor`` (exact types), read from CatBoost's documented JSON
model (``save_model(..., format="json")``), predicted as its CPU evaluator
predicts them.

What CatBoost does, and how the walk does the same (CatBoost 1.2,
``libs/model/cpu/evaluator_impl.cpp``, ``quantization.h``,
``scale_and_bias.cpp``, ``eval_processing.h``):

- Input. Every numeric value is a float32 (a float64 rounded to nearest, as
  its ``Pool`` stores float features).
- Splits. A tree of depth d tests d splits, the same on every path (an
  oblivious tree); split i sets bit i of the leaf's index where ``x >
  border``, both float32. The oblivious walk (``oblivious``, through
  ``catboost.CatBoostTrees``) makes each row's leaf indices so, then sets
  again only the bits of a copy's changed columns. For the exact H²'s walks
  (``dependence``), the tree is also laid out as a full binary tree whose
  root tests the last split, so that the leaf reached is the leaf index
  itself, going left where ``x <= border`` (widened exactly to float64: the
  same comparison).
- Missing values, by the feature's ``nan_value_treatment``: "AsFalse"
  (``nan_mode="Min"``) and "AsIs" (no NaN at fit) leave the bit unset (NaN
  compares false: left), "AsTrue" (``nan_mode="Max"``) sets it (right).
- Sums. Per row and dimension, from +0.0, each tree's double leaf value in
  tree order (the leaf values of a multiclass tree lie leaf-major:
  ``leaf * K + k``); then the model's ``scale_and_bias`` as
  ``ApplyScaleAndBias`` applies it (``scale * sum + bias``, skipping the
  product or the sum where scale is 1 or the bias 0). So the raw formula
  values (``prediction_type="RawFormulaVal"``) are CatBoost's bit for bit.
- Links. Binary (Logloss, CrossEntropy): ``1 / (1 + exp(-raw))`` with the C
  library's exp (``links.sigmoid``), then the columns ``(1 - p, p)``: bit
  for bit on glibc; the label is ``classes_[raw > 0]``. MultiClass: the
  label is the class of the largest raw value (exact); the probabilities
  are a softmax whose exp is CatBoost's own ``FastExpInplace`` (a vectorised
  approximation, chosen by the CPU's instruction set), which no public
  function exposes: the walk's softmax uses the C library's exp, and its
  probabilities differ from CatBoost's by a few ulps
  (``tests/numerics.py``, ``CATBOOST_SOFTMAX_RTOL``). Regressors whose
  predict is the raw formula value (RMSE, MAE, Quantile, ...): identity.

Refused, with the reason (:func:`unsupported`): native categorical, text and
embedding features (their one-hot hashes and target statistics are
CatBoost's own encodings, not replayed), non-symmetric trees
(``grow_policy`` Depthwise or Lossguide), other objectives (Poisson and
Tweedie predict through the fast exp; multi-target, ranking, uncertainty), a
non-default probability threshold, ``predict_log_proba``.
"""

import json
import os
import tempfile
import threading
from collections import namedtuple

import numpy as np
from scipy import sparse

from .nodes import TreeShape

# Objectives whose predict is the raw formula value (the regressor's default
# prediction type); name before any ":" of its parameters.
_IDENTITY = {"RMSE", "MAE", "Quantile", "MAPE", "Huber", "Expectile", "Lq",
             "LogCosh"}  # fmt: skip
_BINARY = {"Logloss", "CrossEntropy"}
_MULTICLASS = {"MultiClass"}
# The JSON's features besides float ones, and what their presence means.
_ENCODED = {
    "categorical_features": "native categorical features (cat_features)",
    "ctrs": "native categorical features (cat_features)",
    "text_features": "text features",
    "embedding_features": "embedding features",
}


def methods_of(model):
    """The prediction methods the walk gives for a CatBoost model."""
    if type(model).__name__ == "CatBoostClassifier":
        return {"predict", "predict_proba"}
    return {"predict"}


def unsupported(model, X, methods):
    """Why the walk cannot predict the CatBoost `model` on `X` (None if it
    can); X may be None when not known yet."""
    if not model.is_fitted():
        return "the CatBoost model is not fitted"
    reading = reading_of(model)
    if isinstance(reading, str):
        return reading
    if reading.reason is not None:
        return reading.reason
    needed = set(methods) - methods_of(model)
    if needed:
        return f"the scorers need {', '.join(sorted(needed))}"
    if reading.task == "binary" and model.get_probability_threshold() != 0.5:
        return (
            "a probability threshold other than 0.5: CatBoost's own log "
            "turns it into a raw border the walk does not replay"
        )
    if X is not None and sparse.issparse(X):
        return "the data reaching the trees is sparse"
    return None


def tree_shapes(model):
    """The CatBoost `model`'s trees as ``nodes.TreeShape`` (the leaves'
    weights, summed up the tree, stand for the rows reaching a node), or
    None where the walk does not read them."""
    if unsupported(model, None, ()) is not None:
        return None
    return reading_of(model).shapes


def split_thresholds(model):
    """``({column: sorted borders}, np.float32)``: the borders the model's
    trees compare each column with (``x > border`` in float32, so values
    between the same two borders go alike in every tree), for partial
    dependence's grid groups; None where the walk does not read the model."""
    if unsupported(model, None, ()) is not None:
        return None
    trees = reading_of(model).oblivious
    return {
        int(column): np.unique(trees.border[trees.feature == column])
        for column in np.unique(trees.feature)
    }, np.float32


# What the walk takes of a model's JSON: its trees as ``_Nodes.add``'s
# arguments, their shapes, the task, the number of outputs and features, the
# fitted names (None: fitted on an array), the scale and bias, and why the
# walk cannot replay it (None where it can).
Reading = namedtuple(
    "Reading",
    ["trees", "shapes", "oblivious", "task", "n_outputs", "n_features", "names",
     "scale", "bias", "reason"],
)  # fmt: skip

# The trees as the oblivious walk (``oblivious``) reads them: split q of tree
# t, for q in ``start[t]:start[t + 1]`` in CatBoost's order (split i sets bit
# i of the leaf index), tests column ``feature[q]`` against ``border[q]`` (a
# float32 widened), NaN setting the bit where ``nan_right[q]``; tree t's
# leaf j adds ``leaf_value[leaf_start[t] + j]`` (one value an output).
Oblivious = namedtuple(
    "Oblivious", ["start", "feature", "border", "nan_right", "leaf_start",
                  "leaf_value"],
)  # fmt: skip


# Readings by the model's guid (CatBoost's id of a fitted model: a fit makes
# a new one; a copy or a reload keeps it, with the same trees) and what may
# change without a new guid (set_scale_and_bias, shrink, set_feature_names):
# a run asks several times (check, take, the flattening). CatBoost's
# estimators are not hashable, so not weakly keyed: the last few are kept.
_READINGS: dict = {}
_READINGS_KEPT = 8
_READINGS_LOCK = threading.Lock()


def reading_of(model):
    """The model's :data:`Reading`, or why its JSON cannot be read (a str),
    once per fitted model."""
    key = (
        model.get_metadata()["model_guid"],
        type(model).__name__,
        model.tree_count_,
        repr(model.get_scale_and_bias()),
        tuple(model.feature_names_ or ()),
    )
    with _READINGS_LOCK:
        cached = _READINGS.get(key)
    if cached is not None:
        return cached
    reading = _encoded_features(model)
    if reading is None:
        reading = _saved_and_read(model)
    with _READINGS_LOCK:
        _READINGS[key] = reading
        while len(_READINGS) > _READINGS_KEPT:
            del _READINGS[next(iter(_READINGS))]
    return reading


def _encoded_features(model):
    """Why the walk cannot read the model's features (CatBoost's own
    accessors: a model with text features has no JSON form), or None."""
    for what, indices in (
        ("native categorical features (cat_features)", model.get_cat_feature_indices),
        ("text features", model.get_text_feature_indices),
        ("embedding features", model.get_embedding_feature_indices),
    ):
        if len(indices()):
            return f"{what}: CatBoost's own encodings of them are not replayed"
    return None


def _saved_and_read(model):
    """The model saved as CatBoost's JSON and read (:func:`_read`), or why
    not (a str)."""
    from catboost import CatBoostError

    handle, path = tempfile.mkstemp(suffix=".json")
    os.close(handle)
    try:
        model.save_model(path, format="json")
        with open(path, encoding="utf-8") as file:
            document = json.load(file)
        return _read(document, model)
    except (CatBoostError, KeyError, ValueError, TypeError) as error:
        return f"its JSON model is not what the walk reads ({error})"
    finally:
        os.remove(path)


def _read(document, model):
    """:data:`Reading` of the JSON model `document`."""
    features = document.get("features_info", {})
    floats = features.get("float_features", [])
    n_features = max((f["flat_feature_index"] for f in floats), default=-1) + 1
    names = _fitted_names(model, n_features)
    loss = document["model_info"]["params"]["loss_function"]["type"]
    scale, bias = document.get("scale_and_bias", [1.0, [0.0]])
    base = Reading((), (), None, _task(loss), 1, n_features, names, float(scale),
                   np.asarray(bias, dtype=np.float64), None)  # fmt: skip
    reason = _reason(document, model, loss, features, n_features)
    if reason is not None:
        return base._replace(reason=reason)
    # nan_value_treatment: "AsTrue" sends NaN right; "AsFalse" and "AsIs" left.
    nan_left = {f["flat_feature_index"]: f["nan_value_treatment"] != "AsTrue"
                for f in floats}  # fmt: skip
    column = {f["feature_index"]: f["flat_feature_index"] for f in floats}
    width = len(bias)
    trees, shapes = [], []
    for tree in document["oblivious_trees"]:
        flattened = _tree(tree, column, nan_left, width)
        trees.append(flattened)
        shapes.append(_shape(flattened, tree))
    return base._replace(
        trees=tuple(trees), shapes=tuple(shapes), n_outputs=width,
        oblivious=_oblivious(document["oblivious_trees"], column, nan_left, width),
    )  # fmt: skip


def _oblivious(trees, column, nan_left, width):
    """The trees' :data:`Oblivious` arrays."""
    splits = [split for tree in trees for split in tree["splits"]]
    depths = [len(tree["splits"]) for tree in trees]
    feature = np.array([column[s["float_feature_index"]] for s in splits], np.int64)
    border = np.array([s["border"] for s in splits], np.float64)
    leaf_value = np.concatenate(
        [np.asarray(t["leaf_values"], np.float64) for t in trees] or [np.zeros(0)]
    ).reshape(-1, width)
    return Oblivious(
        start=np.cumsum([0, *depths]).astype(np.int64),
        feature=feature,
        border=border.astype(np.float32).astype(np.float64),
        nan_right=np.array([not nan_left[f] for f in feature], dtype=np.bool_),
        leaf_start=np.cumsum([0, *(1 << d for d in depths)])[:-1].astype(np.int64),
        leaf_value=np.ascontiguousarray(leaf_value),
    )


def _task(loss):
    if loss in _BINARY:
        return "binary"
    if loss in _MULTICLASS:
        return "multiclass"
    return "regression"


def _reason(document, model, loss, features, n_features):
    """Why the walk cannot replay the model (None if it can)."""
    for key, what in _ENCODED.items():
        if features.get(key):
            return f"{what}: CatBoost's own encodings of them are not replayed"
    if "oblivious_trees" not in document:
        return (
            "non-symmetric trees (grow_policy Depthwise or Lossguide) are not "
            "read by the walk"
        )
    classifier = type(model).__name__ == "CatBoostClassifier"
    if classifier and loss not in _BINARY | _MULTICLASS:
        return (
            f"loss_function={loss!r}: the walk replays Logloss, CrossEntropy "
            "and MultiClass"
        )
    if not classifier and loss not in _IDENTITY:
        return (
            f"loss_function={loss!r}: the walk replays objectives whose "
            f"predict is the raw formula value ({', '.join(sorted(_IDENTITY))})"
        )
    for tree in document["oblivious_trees"]:
        for split in tree["splits"]:
            if split["split_type"] != "FloatFeature":
                return f"a split of type {split['split_type']!r}"
    return None


def _fitted_names(model, n_features):
    """The names the model was fitted on (None: fitted on an array, where
    CatBoost names them by position)."""
    names = [str(n) for n in (model.feature_names_ or [])]
    if names == [str(i) for i in range(n_features)]:
        return None
    return names or None


def _tree(tree, column, nan_left, width):
    """One oblivious tree as ``_Nodes.add``'s arguments: a full binary tree
    whose level L tests split ``depth - 1 - L``, nodes numbered level by
    level, so that the leaf a row reaches, counted from the first leaf, is
    CatBoost's leaf index (split i's bit at place i)."""
    splits = tree["splits"]
    depth = len(splits)
    n_inner = (1 << depth) - 1
    n = 2 * n_inner + 1
    left = np.full(n, -1, dtype=np.int64)
    right = np.full(n, -1, dtype=np.int64)
    feature = np.zeros(n, dtype=np.int64)
    threshold = np.zeros(n)
    nan_side = np.zeros(n, dtype=np.int64)
    for level in range(depth):
        split = splits[depth - 1 - level]
        j = column[split["float_feature_index"]]
        nodes = np.arange((1 << level) - 1, (1 << (level + 1)) - 1)
        left[nodes] = 2 * nodes + 1
        right[nodes] = 2 * nodes + 2
        feature[nodes] = j
        # x > border (float32) goes right: x <= border, widened, goes left.
        threshold[nodes] = float(np.float32(split["border"]))
        nan_side[nodes] = nan_left[j]
    leaf_value = np.zeros((n, width))
    leaf_value[n_inner:] = np.asarray(tree["leaf_values"], np.float64).reshape(
        -1, width
    )
    return depth, left, right, feature, threshold, nan_side, leaf_value


def _shape(flattened, tree):
    """A flattened tree's ``TreeShape``: each node's weight the sum of
    the leaves' below it (all alike where the JSON holds none)."""
    _, left, right, feature, _, _, leaf_value = flattened
    n = len(left)
    weight = np.zeros(n)
    leaves = np.asarray(tree.get("leaf_weights") or [], dtype=np.float64)
    n_leaves = (n + 1) // 2
    if len(leaves) != n_leaves or leaves.sum() <= 0:
        leaves = np.ones(n_leaves)
    weight[n - n_leaves :] = leaves
    for node in range(n - n_leaves - 1, -1, -1):  # children come after
        weight[node] = weight[left[node]] + weight[right[node]]
    return TreeShape(n, left, right, feature, weight)
