"""Which models the tree shortcut reproduces, and why not others.

scikit-learn's: exact types only (a subclass may predict otherwise),
single-output classifiers and any regressor, on dense input. LightGBM's
LGBMClassifier and LGBMRegressor (``lightgbm`` says which) and XGBoost's
XGBClassifier and XGBRegressor (``from_xgboost`` says which). Anything else
takes the generic path.
"""

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


def other_library(model):
    """Whether `model` is another library's tree model the shortcut reads
    (XGBoost's), told without importing that library."""
    kind = type(model)
    return kind.__module__.split(".")[0] == "xgboost" and kind.__name__ in (
        "XGBClassifier",
        "XGBRegressor",
    )


def unsupported(model, X, methods):
    """Why the tree shortcut cannot predict `model` on `X` (None if it can).
    X may be None when not known yet."""
    kind = type(model)
    if lightgbm.is_lightgbm(model):
        return lightgbm.unsupported(model, X, methods)
    if other_library(model):
        # Imported here: from_xgboost builds on models, which imports this.
        from .from_xgboost import unsupported as xgboost_unsupported

        return xgboost_unsupported(model, X, methods)
    if kind not in SUPPORTED:
        return (
            f"{kind.__name__} is not one of the tree models the walk reads "
            "(scikit-learn's DecisionTree*, ExtraTree*, RandomForest*, "
            "ExtraTrees*, GradientBoosting*, HistGradientBoosting*; LightGBM's "
            "LGBMClassifier, LGBMRegressor; XGBoost's XGBClassifier, "
            "XGBRegressor)"
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
