"""Argument checks particular to partial dependence.

scikit-learn's rules (custom grids, integer features, which method), checked
before any prediction, with errors that name the argument and the value
received. The checks the effects engine shares (estimator, X, features,
classes, response method) are in ``_core/effect_params.py``.
"""

import numbers
import warnings

from sklearn.ensemble import RandomForestRegressor
from sklearn.tree import DecisionTreeRegressor

from .._core.compat import (
    PD_INTEGER_FEATURE,
    BaseGradientBoosting,
    BaseHistGradientBoosting,
    _safe_indexing,
)
from .._core.effect_params import hashable
from .._core.validation import quoted
from .grid import custom_axis

RECURSION_ESTIMATORS = (
    BaseGradientBoosting,
    BaseHistGradientBoosting,
    DecisionTreeRegressor,
    RandomForestRegressor,
)
RECURSION_NAMES = (
    "GradientBoostingClassifier, GradientBoostingRegressor, "
    "HistGradientBoostingClassifier, HistGradientBoostingRegressor, "
    "DecisionTreeRegressor, RandomForestRegressor"
)


def resolve_custom_values(custom_values, specs):
    """`custom_values` keyed by position in `features`. As in scikit-learn, a
    key applies when it is a feature exactly as given in `features` (a name
    where names were given, an index where indices were); other keys are
    ignored."""
    if custom_values is None:
        return {}
    if not isinstance(custom_values, dict):
        raise TypeError(
            "custom_values must be a dict {feature: grid values} or None; got "
            f"{type(custom_values).__name__}."
        )
    return {
        i: custom_axis(custom_values[spec], spec, i)
        for i, spec in enumerate(specs)
        if hashable(spec) and spec in custom_values
    }


def check_not_integer(X, positions, specs, is_categorical):
    """A numeric feature holding integers, as the installed scikit-learn
    treats it (compat.PD_INTEGER_FEATURE): refused (1.9), computed with a
    FutureWarning for the first one (1.7, 1.8), or computed (1.6)."""
    if PD_INTEGER_FEATURE == "allow":
        return
    for position, spec, categorical in zip(
        positions, specs, is_categorical, strict=True
    ):
        data = _safe_indexing(X, position, axis=1)
        if categorical or data.dtype.kind not in "iu":
            continue
        message = (
            f"The column {quoted(spec)} contains integer data. Partial dependence "
            "plots are not supported for integer data: this can lead to "
            "implicit rounding with NumPy arrays or even errors with newer "
            "pandas versions. Please convert numerical features to floating "
            f"point dtypes ahead of time (this one is {data.dtype}: e.g. "
            ".astype(float)), or list it in categorical_features."
        )
        if PD_INTEGER_FEATURE == "raise":
            raise ValueError(message)
        # The caller of partial_dependence (through the run's constructor).
        warnings.warn(
            f"{message} This will raise ValueError in scikit-learn 1.9.",
            FutureWarning,
            stacklevel=5,
        )
        return  # one warning, as scikit-learn gives


def resolve_method(estimator, method, kind, sample_weight, response_method):
    """scikit-learn's choice between "brute" and "recursion", and its errors."""
    if kind != "average":
        if method == "recursion":
            raise ValueError(
                "The 'recursion' method only applies when 'kind' is set to "
                f"'average'; got kind={kind!r}. Use kind='average' or "
                "method='brute'."
            )
        method = "brute"
    if method == "recursion" and sample_weight is not None:
        raise ValueError(
            "The 'recursion' method can only be applied when sample_weight is "
            "None (it averages over the training data); use method='brute'."
        )
    if method == "auto":
        # GradientBoosting* with an `init` estimator: the recursion would
        # ignore its (sample-dependent) offset.
        supported = (
            isinstance(estimator, BaseGradientBoosting) and estimator.init is None
        ) or isinstance(
            estimator,
            (BaseHistGradientBoosting, DecisionTreeRegressor, RandomForestRegressor),
        )
        method = "recursion" if supported and sample_weight is None else "brute"
    if method == "recursion":
        if not isinstance(estimator, RECURSION_ESTIMATORS):
            raise ValueError(
                "Only the following estimators support the 'recursion' method: "
                f"{RECURSION_NAMES}; got {type(estimator).__name__}. Try using "
                "method='brute'."
            )
        if response_method not in ("auto", "decision_function"):
            raise ValueError(
                "With the 'recursion' method, the response_method must be "
                f"'decision_function'. Got {response_method}."
            )
    return method


def check_n_ice(n_ice):
    if n_ice is None:
        return None
    if not isinstance(n_ice, numbers.Integral) or isinstance(n_ice, bool):
        raise TypeError(f"n_ice must be None or an int >= 1; got {n_ice!r}.")
    if n_ice < 1:
        raise ValueError(f"n_ice must be None or an int >= 1; got {n_ice}.")
    return int(n_ice)


def check_correlation_threshold(threshold):
    if threshold is None:
        return None
    if (
        isinstance(threshold, bool)
        or not isinstance(threshold, numbers.Real)
        or not 0 < threshold <= 1
    ):
        raise ValueError(
            f"correlation_threshold must be None or a number in (0, 1]; got "
            f"{threshold!r}."
        )
    return float(threshold)
