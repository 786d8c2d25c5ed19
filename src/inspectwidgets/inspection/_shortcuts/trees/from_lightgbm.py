"""LightGBM's saved model text (``Booster.model_to_string``, the format
LightGBM saves and loads) read into what the walk takes: each tree's arrays
as LightGBM numbers them, the objective and its options, and why the walk
cannot replay a model (None where it can). ``lightgbm`` replays LightGBM's
arithmetic before and after these trees.
"""

import threading
import weakref
from dataclasses import dataclass

import numpy as np

# The categories a walk's bitset holds (nodes.py: 8 words of 32 bits).
N_CATEGORIES = 256
_IDENTITY = {"regression", "regression_l1", "huber", "fair", "quantile", "mape"}
_EXPONENTIAL = {"poisson", "gamma", "tweedie"}
# decision_type's bits (tree.h: kCategoricalMask, kDefaultLeftMask, then
# the missing type in bits 2-3: None 0, Zero 1, NaN 2).
_CATEGORICAL_BIT, _DEFAULT_LEFT_BIT = 1, 2
_MISSING_NONE, _MISSING_ZERO = 0, 1


def _missing_type(decision_type):
    return (decision_type >> 2) & 3


@dataclass(frozen=True)
class _Tree:
    """One tree of the model text, as LightGBM numbers it: internal nodes
    0..L-2, leaf j as child ``~j``."""

    feature: np.ndarray
    threshold: np.ndarray
    decision_type: np.ndarray
    left: np.ndarray
    right: np.ndarray
    leaf_value: np.ndarray
    internal_count: np.ndarray
    leaf_count: np.ndarray
    cat_boundaries: np.ndarray
    cat_threshold: np.ndarray
    linear: bool  # its leaves are linear models (refused)


@dataclass(frozen=True)
class ModelText:
    """What the walk takes from a booster's model text."""

    objective: str  # its name
    objective_options: dict  # "sigmoid:1" -> {"sigmoid": "1"}
    per_iteration: int  # K: trees an iteration
    n_features: int
    trees: tuple  # of _Tree
    parameters: dict  # the text's [name: value] lines
    average_output: bool
    reason: str | None  # why the walk cannot replay it, or None


def _numbers(line, dtype):
    """A line of the model text as an array; float() parses each value (the
    nearest double to its 17 digits: the value LightGBM saved)."""
    if dtype is np.float64:
        return np.array([float(v) for v in line.split()], dtype=np.float64)
    return np.array([int(v) for v in line.split()], dtype=dtype)


def _read_text(text):
    """:class:`ModelText` of a model text (without its reason)."""
    header, parameters, trees = {}, {}, []
    current = header
    for line in text.splitlines():
        if line.startswith("Tree="):
            current = {}
            trees.append(current)
        elif line == "end of trees":
            current = None
        elif line.startswith("[") and line.endswith("]") and ": " in line:
            key, _, value = line[1:-1].partition(": ")
            parameters[key] = value
        elif current is not None and "=" in line:
            key, _, value = line.partition("=")
            current[key] = value
        elif current is header and line:
            header[line] = ""  # a flag line ("average_output")
    objective, *options = header.get("objective", "custom").split()
    return ModelText(
        objective=objective,
        objective_options=dict(o.partition(":")[::2] for o in options),
        per_iteration=int(header["num_tree_per_iteration"]),
        n_features=int(header["max_feature_idx"]) + 1,
        trees=tuple(_tree(t) for t in trees),
        parameters=parameters,
        average_output="average_output" in header,
        reason=None,
    )


def _tree(fields):
    """One tree's lines as a :class:`_Tree` (a linear tree's leaf models
    are not read: :func:`_reason` refuses it)."""
    n_leaves = int(fields["num_leaves"])
    ints = {
        name: _numbers(fields.get(name, ""), np.int64)
        for name in ("split_feature", "decision_type", "left_child", "right_child",
                     "internal_count", "leaf_count", "cat_boundaries")
    }  # fmt: skip
    cat_threshold = _numbers(fields.get("cat_threshold", ""), np.uint64)
    tree = _Tree(
        feature=ints["split_feature"],
        threshold=_numbers(fields.get("threshold", ""), np.float64),
        decision_type=ints["decision_type"],
        left=ints["left_child"],
        right=ints["right_child"],
        leaf_value=_numbers(fields["leaf_value"], np.float64),
        internal_count=ints["internal_count"],
        leaf_count=ints["leaf_count"],
        cat_boundaries=ints["cat_boundaries"],
        cat_threshold=cat_threshold.astype(np.uint32),
        linear=fields.get("is_linear", "0") != "0",
    )
    if len(tree.leaf_value) != n_leaves or len(tree.left) != n_leaves - 1:
        raise ValueError(f"a tree of {n_leaves} leaves holds other arrays")
    return tree


def _reason(text, model):
    """Why the walk cannot replay the model text (None if it can)."""
    if text.parameters.get("linear_tree", "0") not in ("0", "false") or any(
        t.linear for t in text.trees
    ):
        return "linear_tree=True: its leaves are linear models, not constants"
    if text.average_output:
        return "boosting_type='rf' averages its trees (the walk replays sums)"
    name = text.objective
    if name not in _IDENTITY | _EXPONENTIAL | {"binary", "multiclass", "multiclassova"}:
        return f"its objective {name!r} has a link the walk does not replay"
    if "sqrt" in text.objective_options:
        return "reg_sqrt=True: its predictions are the square of the sums"
    classifier = type(model).__name__ == "LGBMClassifier"
    if classifier != (name in ("binary", "multiclass", "multiclassova")):
        return f"a {type(model).__name__} with objective {name!r}"
    if classifier:
        n_classes = int(model.n_classes_)
        if text.per_iteration != (1 if n_classes == 2 else n_classes):
            return "its trees per iteration are not one per class"
    elif text.per_iteration != 1:
        return "a regressor with several trees an iteration"
    zero, other = set(), set()
    for tree in text.trees:
        categorical = tree.decision_type & _CATEGORICAL_BIT != 0
        missing = _missing_type(tree.decision_type)
        zero.update(tree.feature[~categorical & (missing == _MISSING_ZERO)].tolist())
        other.update(tree.feature[~categorical & (missing != _MISSING_ZERO)].tolist())
        for b in range(len(tree.cat_boundaries) - 1):
            words = tree.cat_threshold[
                tree.cat_boundaries[b] : tree.cat_boundaries[b + 1]
            ]
            if words[N_CATEGORIES // 32 :].any():
                return (
                    "a categorical split sends a category above "
                    f"{N_CATEGORIES - 1} left (the walk's sets hold {N_CATEGORIES})"
                )
    if zero & other:
        return "a column split with zero_as_missing at some nodes and not others"
    return None


# Each booster's model text, read once: the choice, the checks and the walk
# all ask for it. Keyed weakly on the booster (a refit makes a new one).
_TEXTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_TEXTS_LOCK = threading.Lock()


def model_text(model):
    """The :class:`ModelText` of `model`'s booster (with its reason), or
    why it cannot be read (a str)."""
    booster = getattr(model, "booster_", None)
    if booster is None:
        return "the model has no booster"
    with _TEXTS_LOCK:
        found = _TEXTS.get(booster)
    if found is not None:
        return found
    try:
        text = _read_text(booster.model_to_string())
    except (KeyError, ValueError) as error:
        return f"its model text is not what the walk reads ({error})"
    text = ModelText(**{**vars(text), "reason": _reason(text, model)})
    with _TEXTS_LOCK:
        _TEXTS[booster] = text
    return text
