"""Argument checks the effect engines share: partial dependence, accumulated
local effects and interaction strength take the estimator, X, the features,
the categorical features, the response method and the classes by the same
(scikit-learn's partial dependence) rules, with errors that name the argument
and the value received.
"""

import numbers

import numpy as np
from scipy import sparse
from sklearn.base import is_classifier, is_regressor
from sklearn.utils import check_array

from .columns import column_position
from .compat import (
    PD_EMPTY_CATEGORICAL_NAMED,
    UNKNOWN_COLUMN_WORDS,
    _check_response_method,
)
from .pipeline import final_estimator
from .validation import check_fitted, check_not_empty, check_X, quoted, quoted_names


def check_pd_estimator(estimator):
    """A fitted regressor or classifier, not multiclass-multioutput."""
    check_fitted(estimator)
    if not (is_classifier(estimator) or is_regressor(estimator)):
        raise ValueError(
            "'estimator' must be a fitted regressor or classifier; got "
            f"{type(estimator).__name__}."
        )
    if is_classifier(estimator) and isinstance(estimator.classes_[0], np.ndarray):
        raise ValueError(
            "Multiclass-multioutput estimators are not supported "
            f"(estimator: {type(estimator).__name__})."
        )


def check_response_method(estimator, response_method):
    check_choice(
        response_method,
        "response_method",
        ("auto", "predict_proba", "decision_function"),
    )
    if is_regressor(estimator) and response_method != "auto":
        raise ValueError(
            "The response_method parameter is ignored for regressors and must "
            f"be 'auto'; got {response_method!r}."
        )


def check_choice(value, name, choices):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}; got {value!r}.")
    return value


def check_pd_X(X):
    """X as scikit-learn's partial_dependence takes it: DataFrames and arrays
    unchanged, lists as object arrays; sparse matrices as a CSR copy with
    sorted indices (the layout the batcher stacks)."""
    if sparse.issparse(X):
        X = sparse.csr_matrix(X, copy=True)
        X.sort_indices()
        return check_not_empty(X)
    if not hasattr(X, "__array__"):
        X = check_array(
            X, ensure_all_finite="allow-nan", dtype=object, ensure_min_samples=0
        )
    if getattr(X, "ndim", None) == 2:
        check_not_empty(X)  # before check_array, whose message is vaguer
    return check_X(X)


def column_labels(X, feature_names):
    """scikit-learn's ``_check_feature_names``: the frame's labels, the given
    names or x0, x1, ...; duplicates are refused."""
    if feature_names is None:
        if hasattr(X, "columns"):
            return list(X.columns)
        return [f"x{i}" for i in range(X.shape[1])]
    names = list(feature_names)
    if len(names) != X.shape[1]:
        raise ValueError(
            f"feature_names must name the {X.shape[1]} columns of X; got "
            f"{len(names)} names."
        )
    if len(set(names)) != len(names):
        repeated = sorted({str(n) for n in names if names.count(n) > 1})
        raise ValueError(f"feature_names contains duplicates: {repeated}.")
    return names


def resolve_pd_features(X, features, names):
    """Positions in X of the features of the partial dependence, and the spec
    each came from (for `custom_values` keys)."""
    if isinstance(features, (str, numbers.Integral)) and not isinstance(features, bool):
        specs = [features]
    else:
        try:
            specs = list(features)
        except TypeError:
            raise TypeError(
                "features must be a column name or index, or a list of one or "
                f"two of them; got {type(features).__name__}."
            ) from None
        # scikit-learn's docstring spells a pair of indices [(0, 1)]; a tuple
        # of names is one column label to it, and to us.
        if (
            len(specs) == 1
            and isinstance(specs[0], (tuple, list))
            and all(_is_index(s) for s in specs[0])
        ):
            specs = list(specs[0])
    if not specs:
        raise ValueError("features is empty; pass one feature, or a pair of them.")
    if all(isinstance(s, (bool, np.bool_)) for s in specs):
        if len(specs) != X.shape[1]:
            raise ValueError(
                f"features as a boolean mask must have {X.shape[1]} entries, one "
                f"per column of X; got {len(specs)}."
            )
        specs = [int(i) for i in np.flatnonzero(specs)]
        if not specs:
            raise ValueError("features: the boolean mask selects no column.")
    positions = [_feature_position(X, s, i, names) for i, s in enumerate(specs)]
    if len(set(positions)) != len(positions):
        repeated = sorted({str(names[p]) for p in positions if positions.count(p) > 1})
        raise ValueError(
            f"features names the same column more than once ({repeated}) in "
            f"{quoted(features)}; a 2-way partial dependence needs two different "
            "features."
        )
    return positions, specs


def _is_index(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _feature_position(X, spec, i, names):
    """Position in X of ``features[i]``, refused in scikit-learn's words:
    indices in [0, n_features - 1] (no negative ones), a DataFrame's labels.
    Arrays also take the names in `feature_names`."""
    n_columns = X.shape[1]
    if _is_index(spec) and not 0 <= spec < n_columns:
        raise ValueError(
            f"all features must be in [0, {n_columns - 1}]; got {spec} (features[{i}])."
        )
    if hasattr(X, "columns"):
        if not _is_index(spec) and not (hashable(spec) and spec in X.columns):
            # The installed scikit-learn's words first.
            raise ValueError(
                f"{UNKNOWN_COLUMN_WORDS}: {{{quoted(spec)}}} (features[{i}]). X's "
                f"columns are {quoted_names(list(X.columns))}."
            )
        return column_position(X, spec, f"features[{i}]")
    return column_position(X, spec, f"features[{i}]", names)


def resolve_categorical(X, categorical_features, positions, names):
    """Which features are categorical, from scikit-learn's `categorical_features`
    (None, a boolean mask over X's columns, or column indices or names)."""
    if categorical_features is None:
        return [False] * len(positions)
    given = np.asarray(categorical_features)
    # Before 1.7 an empty one goes through the checks below as scikit-learn
    # sends it: `[]` is float64, refused by its dtype.
    if given.size == 0 and PD_EMPTY_CATEGORICAL_NAMED:
        raise ValueError(
            "Passing an empty list (`[]`) to `categorical_features` is not "
            "supported. Use `None` instead to indicate that there are no "
            "categorical features."
        )
    if given.dtype.kind == "b":
        if given.size != X.shape[1]:
            raise ValueError(
                "When `categorical_features` is a boolean array-like, the array "
                f"should be of shape (n_features,). Got {given.size} elements "
                f"while `X` contains {X.shape[1]} features."
            )
        return [bool(given[p]) for p in positions]
    if given.dtype.kind not in "iOU":
        raise ValueError(
            "Expected `categorical_features` to be an array-like of boolean, "
            f"integer, or string. Got {given.dtype} instead."
        )
    feature_names = None if hasattr(X, "columns") else names
    categorical = {
        column_position(X, c, "categorical_features", feature_names)
        for c in given.ravel().tolist()
    }
    return [p in categorical for p in positions]


def resolve_response_method(estimator, response_method, method):
    """The name of the estimator's method behind the values."""
    if method == "recursion":
        return "decision_function" if is_classifier(estimator) else "predict"
    if is_regressor(estimator):
        return "predict"
    wanted = (
        ["predict_proba", "decision_function"]
        if response_method == "auto"
        else response_method
    )
    try:
        return _check_response_method(estimator, wanted).__name__
    except AttributeError as exc:
        # scikit-learn's error and words, and the argument behind them.
        raise AttributeError(f"{exc} (response_method={response_method!r})") from None


def resolve_classes(estimator, classes, response_method):
    """The classes whose values are kept, and their columns in the full
    response (predict_proba's K columns, or the decision function's: one, the
    positive class, for a binary classifier, as the recursion gives).

    Without `classes`, scikit-learn's outputs (the positive class of a binary
    classifier, every class otherwise) and None for the columns: the response
    is then taken exactly as scikit-learn takes it. Regressors: None, None.
    """
    if not is_classifier(estimator):
        if classes is not None:
            raise ValueError(
                "classes applies to classifiers only; "
                f"{type(estimator).__name__} is a regressor. Pass classes=None."
            )
        return None, None
    labels = estimator.classes_
    if classes is None:
        return tuple(labels[-1:] if len(labels) == 2 else labels), None
    wanted = (
        list(classes)
        if np.iterable(classes) and not isinstance(classes, str)
        else [classes]
    )
    if not wanted:
        raise ValueError(
            "classes is empty; pass None for scikit-learn's outputs, or a list "
            "of class labels."
        )
    known = labels.tolist()
    missing = [c for c in wanted if c not in known]
    if missing:
        raise ValueError(
            f"classes: {quoted(missing)} not among the classes of "
            f"{type(estimator).__name__}: {quoted_names(known)}."
        )
    columns = [known.index(c) for c in wanted]
    if len(set(columns)) != len(columns):
        raise ValueError(f"classes names a class more than once: {quoted(wanted)}.")
    if len(labels) == 2 and response_method != "predict_proba":
        if columns != [1]:
            raise ValueError(
                f"classes: the {response_method} of a binary classifier only "
                f"gives values for the positive class {quoted(known[1])}; ask for it "
                "alone, or use response_method='predict_proba' with "
                "method='brute'."
            )
        columns = [0]
    return tuple(labels[columns]), columns


def hashable(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True


def n_targets(regressor):
    """How many targets a fitted regressor predicts, as far as its attributes
    tell before any prediction (an empty result still needs the shape)."""
    final = final_estimator(regressor)
    n_outputs = getattr(final, "n_outputs_", None)
    if n_outputs is None:  # linear models: coef_ is (n_targets, n_features)
        coef = np.asarray(getattr(final, "coef_", np.zeros(0)))
        n_outputs = coef.shape[0] if coef.ndim == 2 else 1
    return int(n_outputs)
