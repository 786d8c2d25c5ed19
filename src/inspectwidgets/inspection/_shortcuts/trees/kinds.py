"""Which models the tree shortcut reproduces, and why not others.

scikit-learn's: exact types only (a subclass may predict otherwise),
single-output classifiers and any regressor, on dense input. LightGBM's
LGBMClassifier and LGBMRegressor (``lightgbm`` says which), XGBoost's
XGBClassifier and XGBRegressor (``from_xgboost`` says which) and CatBoost's
CatBoostClassifier and CatBoostRegressor (``from_catboost`` says which).
Anything else takes the generic path.
"""

import importlib

from scipy import sparse
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.ensemble import (
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.tree import (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    ExtraTreeClassifier,
    ExtraTreeRegressor,
)

from . import lightgbm

SINGLE_TREES = (
    DecisionTreeClassifier,
    DecisionTreeRegressor,
    ExtraTreeClassifier,
    ExtraTreeRegressor,
)
FORESTS = (
    RandomForestClassifier,
    RandomForestRegressor,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
)
GRADIENT_BOOSTING = (GradientBoostingClassifier, GradientBoostingRegressor)
HIST_GRADIENT_BOOSTING = (
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
)
SUPPORTED = SINGLE_TREES + FORESTS + GRADIENT_BOOSTING + HIST_GRADIENT_BOOSTING
CLASSIFIERS = (
    DecisionTreeClassifier,
    ExtraTreeClassifier,
    RandomForestClassifier,
    ExtraTreesClassifier,
    GradientBoostingClassifier,
    HistGradientBoostingClassifier,
)
# Whatever a model has beyond these (apply, staged_*, ...) is the generic
# path's.
_METHODS = {"predict", "predict_proba", "predict_log_proba", "decision_function"}
# Dummy strategies whose prediction is the same for every row: a gradient
# boosting model started from one starts every copy alike.
_CONSTANT_DUMMIES = {
    DummyClassifier: {"prior", "most_frequent", "constant"},
    DummyRegressor: {"mean", "median", "quantile", "constant"},
}


def _methods_of(model):
    """The prediction methods the shortcut gives for `model`."""
    if type(model) not in CLASSIFIERS:
        return {"predict"}
    return {m for m in _METHODS if hasattr(model, m)}


# Other libraries' estimators read through a module of their own, by
# (package, class): each module gives ``unsupported``, ``tree_shapes``,
# ``TREES`` (its TreeModel subclass) and ``SUMS_DTYPE`` (the walks' sums);
# ``split_thresholds`` where it can say so.
_OTHER_LIBRARIES = {
    ("xgboost", "XGBClassifier"): "from_xgboost",
    ("xgboost", "XGBRegressor"): "from_xgboost",
    ("catboost", "CatBoostClassifier"): "catboost",
    ("catboost", "CatBoostRegressor"): "catboost",
}


def other_library(model):
    """The module reading `model` where it is another library's tree model
    the shortcut reads (XGBoost's, CatBoost's), else None; told without
    importing that library."""
    kind = type(model)
    name = _OTHER_LIBRARIES.get((kind.__module__.split(".")[0], kind.__name__))
    if name is None:
        return None
    # Imported here: these modules build on models, which imports this one.
    return importlib.import_module(f".{name}", __package__)


def split_thresholds(model):
    """``({column: sorted thresholds}, dtype compared)`` of another
    library's model whose reading module gives them (CatBoost's borders), or
    None: partial dependence groups the grid points they send alike."""
    reader = other_library(model)
    found = getattr(reader, "split_thresholds", None)
    return None if found is None else found(model)


def is_catboost(model):
    """Whether `model` is CatBoost's CatBoostClassifier or CatBoostRegressor
    itself (a subclass may predict otherwise), without importing CatBoost."""
    kind = type(model)
    return _OTHER_LIBRARIES.get((kind.__module__.split(".")[0], kind.__name__)) == (
        "catboost"
    )


def unsupported(model, X, methods):
    """Why the tree shortcut cannot predict `model` on `X` (None if it can).
    X may be None when not known yet."""
    kind = type(model)
    if lightgbm.is_lightgbm(model):
        return lightgbm.unsupported(model, X, methods)
    reader = other_library(model)
    if reader is not None:
        return reader.unsupported(model, X, methods)
    if kind not in SUPPORTED:
        return (
            f"{kind.__name__} is not one of the tree models the walk reads "
            "(scikit-learn's DecisionTree*, ExtraTree*, RandomForest*, "
            "ExtraTrees*, GradientBoosting*, HistGradientBoosting*; LightGBM's "
            "LGBMClassifier, LGBMRegressor; XGBoost's XGBClassifier, "
            "XGBRegressor; CatBoost's CatBoostClassifier, CatBoostRegressor)"
        )
    if kind in CLASSIFIERS and getattr(model, "n_outputs_", 1) != 1:
        return "a multi-output classifier takes the generic path"
    if kind in GRADIENT_BOOSTING:
        init = model.init_
        if not (
            (isinstance(init, str) and init == "zero")
            or init.get_params().get("strategy")
            in _CONSTANT_DUMMIES.get(type(init), ())
        ):
            return (
                f"its initial model ({type(init).__name__}) may predict each "
                "row differently"
            )
    needed = set(methods) - _methods_of(model)
    if needed:
        return f"the scorers need {', '.join(sorted(needed))}"
    if X is not None and sparse.issparse(X):
        return "the data reaching the trees is sparse"
    return None
