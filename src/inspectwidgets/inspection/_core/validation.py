"""Input validation shared by the inspection engine.

Every check runs at the public boundary, before any prediction work, and raises
an error that names the argument and the value received. The parameters we
share with scikit-learn are checked first by scikit-learn's own constraints
(`check_sklearn_params`), so they raise its `InvalidParameterError` with its
message; where scikit-learn words an error itself, ours starts with its words.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from sklearn import get_config
from sklearn.base import is_regressor
from sklearn.exceptions import NotFittedError
from sklearn.utils import check_array
from sklearn.utils.validation import check_is_fitted

from .compat import (
    SKLEARN_PARAMETER_CONSTRAINTS,
    InvalidParameterError,
    validate_parameter_constraints,
)
from .dataframes import as_pandas, is_foreign_frame
from .model_columns import column_reader

if TYPE_CHECKING:
    import pandas as pd

# Characters of a name (a column, a class, a scorer) an error message quotes:
# a 10,000-character column name is not echoed whole.
NAME_SHOWN = 80


def quoted(value, limit=NAME_SHOWN):
    """``repr(value)`` for an error message, cut to `limit` characters with an
    ellipsis (and, for a string, its length). repr escapes the characters a
    terminal would act on (NUL, bidi controls such as U+202E)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    size = f" ({len(value):,} characters)" if isinstance(value, str) else ""
    return f"{text[:limit]}\u2026{size}"


def quoted_names(names, limit=12):
    shown = ", ".join(quoted(n) for n in names[:limit])
    return (
        f"[{shown}, ...] ({len(names)} in all)" if len(names) > limit else f"[{shown}]"
    )


def check_sklearn_params(function, arguments):
    """Check `arguments` against the installed scikit-learn's constraints for
    its `function` ("permutation_importance" or "partial_dependence"), as its
    `validate_params` does: an `InvalidParameterError` (a ValueError and a
    TypeError) naming the parameter, what it must be and the value received.
    Our own parameters are left to their own checks; like scikit-learn, this
    is skipped under ``sklearn.set_config(skip_parameter_validation=True)``."""
    if get_config().get("skip_parameter_validation", False):
        return
    try:
        validate_parameter_constraints(
            SKLEARN_PARAMETER_CONSTRAINTS[function], arguments, caller_name=function
        )
    except InvalidParameterError as exc:
        # scikit-learn's words, with a long string value shortened.
        message = str(exc)
        for value in arguments.values():
            if isinstance(value, str) and len(value) > NAME_SHOWN:
                message = message.replace(repr(value), quoted(value))
        if message == str(exc):
            raise
        raise InvalidParameterError(message) from None


def check_random_state_argument(random_state, caller):
    """Check `random_state` as scikit-learn's constraints check it (None, an
    int in [0, 2**32 - 1] or a RandomState): an `InvalidParameterError` naming
    it and `caller`, where ``check_random_state`` would name neither."""
    if get_config().get("skip_parameter_validation", False):
        return random_state
    validate_parameter_constraints(
        {"random_state": ["random_state"]},
        {"random_state": random_state},
        caller_name=caller,
    )
    return random_state


def check_fitted(estimator):
    """Raise a ValueError naming `estimator` if it has not been fitted."""
    if not hasattr(estimator, "fit"):
        raise TypeError(
            "estimator must be a fitted scikit-learn estimator; "
            f"got {type(estimator).__name__}, which has no 'fit' method."
        )
    try:
        check_is_fitted(estimator)
    except NotFittedError as exc:
        raise NotFittedError(
            f"estimator: {type(estimator).__name__} is not fitted yet. "
            "Call its 'fit' method with training data before inspecting it."
        ) from exc


def check_X(X: Any) -> npt.NDArray[Any] | pd.DataFrame:
    """Return X as a DataFrame (unchanged) or a 2-D ndarray, as scikit-learn does.

    scikit-learn's `permutation_importance` keeps DataFrames and passes anything
    else through `check_array(..., dtype=None)`; following it keeps object and
    string columns intact for pipelines. A DataFrame of another library
    (polars, or any eager frame narwhals reads) becomes a pandas DataFrame
    with its names (where scikit-learn makes it an array and loses them).
    """
    if is_foreign_frame(X):
        X = as_pandas(X)
    if hasattr(X, "iloc"):
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D; got a pandas object with ndim={X.ndim}.")
        return X
    try:
        return check_array(X, ensure_all_finite="allow-nan", dtype=None)
    except TypeError as exc:
        raise TypeError(
            f"X must be a 2-D array-like or a pandas DataFrame; {exc}"
        ) from exc
    except ValueError as exc:
        if "minimum of" not in str(exc):
            raise
        # scikit-learn's words first (drop-in), then the argument they concern.
        raise ValueError(f"{exc} X must hold at least one row and one column.") from exc


def check_not_empty(X):
    """Raise a ValueError if X has no rows or no columns."""
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(
            f"X is empty: got shape {tuple(X.shape)}; pass at least one row and "
            "one column."
        )
    return X


def check_max_memory(max_memory):
    if isinstance(max_memory, bool) or not (
        isinstance(max_memory, numbers.Real) and max_memory > 0
    ):
        raise ValueError(
            f"max_memory must be a positive number of bytes; got {max_memory!r}."
        )
    return max_memory


TREE_ALGORITHMS = ("auto", "tree", "generic")
ALGORITHMS = ("auto", "tree", "linear", "generic")


def check_algorithm(algorithm, choices=TREE_ALGORITHMS):
    """`algorithm`, one of `choices` (ALGORITHMS where the engine has the
    linear shortcut: permutation importance and partial dependence)."""
    if algorithm not in choices:
        raise ValueError(
            f"algorithm must be one of {', '.join(map(repr, choices))}; "
            f"got {algorithm!r}."
        )
    return algorithm


def check_cancel(cancel):
    if cancel is not None and not callable(getattr(cancel, "is_set", None)):
        raise TypeError(
            "cancel must be an object with an is_set() method, such as "
            f"threading.Event; got {type(cancel).__name__}."
        )
    return cancel


def n_rows(data):
    return data.shape[0] if hasattr(data, "shape") else len(data)


def check_y(y, n_samples, name="y"):
    """Check the length of `y` and that it holds no NaN; return it unchanged,
    or as an ndarray if it is only array-like through ``__array__`` (as
    scikit-learn's metrics take it)."""
    if y is None:
        return None
    if not hasattr(y, "shape") and not hasattr(y, "__len__"):
        y = np.asarray(y)
    if n_rows(y) != n_samples:
        raise ValueError(
            f"X and {name} have inconsistent numbers of samples: X has "
            f"{n_samples} rows but {name} has {n_rows(y)}. Pass the targets "
            "that belong to the rows of X."
        )
    values = np.asarray(y)
    if values.dtype.kind == "f" and np.isinf(values).any():
        raise ValueError(
            f"{name} contains {int(np.isinf(values).sum())} infinite value(s); "
            f"scores cannot be computed against them. Drop those rows from X "
            f"and {name} first."
        )
    if values.dtype.kind == "f" and np.isnan(values).any():
        n_nan = int(np.isnan(values).sum())
        raise ValueError(
            f"{name} contains {n_nan} NaN value(s); scores cannot be computed "
            f"against missing targets. Drop those rows from X and {name} first."
        )
    if values.dtype == object:
        missing = [v for v in values.ravel() if v is None or v != v]
        if missing:
            raise ValueError(
                f"{name} contains {len(missing)} missing value(s) (None/NaN). "
                f"Drop those rows from X and {name} first."
            )
    return y


def check_columns(estimator, X, name="X"):
    """Refuse an `X` whose columns the estimator would not read as the ones it
    was fitted on, naming them, before a model call fails on them deep inside
    a pipeline, or the tree shortcut, which reads columns by position without
    predicting, walks the wrong ones (or past X's last).

    The model's own library decides (`model_columns.column_reader`): a
    DataFrame must hold every column the model stores, under the names the
    library gives X's labels (LightGBM's underscores for spaces, XGBoost's
    and CatBoost's strings for integer labels), in the same order unless the
    model selects them by name (a ColumnTransformer, CatBoost fitted on named
    columns). LightGBM reads a frame by position whatever its labels; only
    its own columns in another order, which it would mix up silently, are
    refused. Otherwise X must have ``n_features_in_`` columns (or more, for
    CatBoost fitted on an array, which ignores those after them).
    """
    reader = column_reader(estimator, getattr(X, "columns", None))
    model = type(estimator).__name__
    if reader.names is not None and hasattr(X, "columns"):
        return _check_named_columns(reader, X, name, model)
    n_fitted = getattr(estimator, "n_features_in_", None)
    if not isinstance(n_fitted, numbers.Integral):
        return X
    if X.shape[1] < n_fitted or (X.shape[1] > n_fitted and not reader.allows_extra):
        raise ValueError(
            f"{name} has {X.shape[1]} features, but {model} is expecting "
            f"{n_fitted} features as input; pass {name} with the columns of the "
            "training set, in their order."
        )
    return X


def _check_named_columns(reader, X, name, model):
    fitted = list(reader.names)
    stored = reader.stored(X.columns)
    # scikit-learn's words first where the model would say them itself.
    words = (
        SKLEARN_NAMES_MISMATCH
        if reader.library == "scikit-learn" and not reader.by_name
        else ""
    )
    if not reader.checks_names:
        # LightGBM: position and count decide, as in its predict.
        if len(stored) != len(fitted):
            raise ValueError(
                f"{name} has {len(stored)} columns, but {model} was fitted on "
                f"{len(fitted)} and {reader.library} reads them by position; "
                f"pass {name} with the columns of the training set, in their order."
            )
        if stored != fitted and sorted(map(str, stored)) == sorted(fitted):
            raise ValueError(
                f"{name} holds the columns {model} was fitted on in another "
                f"order; {reader.library} reads them by position and would mix "
                f"them up. Pass {name} with its columns in the training order: "
                f"{quoted_names(_labels_in_order(X.columns, stored, fitted))}."
            )
        return X
    present = set(stored)
    absent = [n for n in fitted if n not in present]
    if absent:
        raise ValueError(
            f"{words}{name} lacks the column(s) {quoted_names(absent)} that "
            f"{model} was fitted on; pass {name} with every column of the "
            "training set."
        )
    if not reader.by_name and stored != fitted:
        fix = (
            f"{name}[list(estimator.feature_names_in_)]"
            if reader.library == "scikit-learn"
            else f"{name} with the columns "
            f"{quoted_names(_labels_in_order(X.columns, stored, fitted))}"
        )
        raise ValueError(
            f"{words}{name}'s columns {quoted_names(list(X.columns))} are not "
            f"those {model} was fitted on, in their order "
            f"({quoted_names(fitted)}); pass {fix}."
        )
    return X


def _labels_in_order(labels, stored, fitted):
    """X's own labels of the model's columns, in the model's order."""
    label_of = dict(zip(stored, labels, strict=True))
    return [label_of[n] for n in fitted if n in label_of]


SKLEARN_NAMES_MISMATCH = (
    "The feature names should match those that were passed during fit: "
)


def check_target(estimator, y, name="y"):
    """Refuse targets a regressor cannot score against (strings, categories),
    naming their dtype and some of their values, before a scorer fails on
    them with "could not convert string to float"."""
    if y is None or not is_regressor(estimator):
        return y
    dtype = getattr(y, "dtype", None)
    values = np.asarray(y)
    if dtype is None:
        dtype = values.dtype
    if values.dtype.kind in "biuf":
        return y
    try:
        np.asarray(values, dtype=float)
        return y
    except (TypeError, ValueError):
        pass
    examples = list(dict.fromkeys(values.ravel().tolist()))[:3]
    raise ValueError(
        f"{name} holds {dtype} values such as {', '.join(map(repr, examples))}, "
        f"but {type(estimator).__name__} is a regressor, which is scored against "
        f"numbers; use a classifier, or encode {name} as numbers."
    )


def check_sample_weight(sample_weight, n_samples):
    if sample_weight is None:
        return None
    sample_weight = np.asarray(sample_weight)
    if sample_weight.ndim != 1 or sample_weight.shape[0] != n_samples:
        raise ValueError(
            f"sample_weight.shape == {sample_weight.shape}, expected "
            f"({n_samples},)! Pass one weight per row of X."
        )
    return sample_weight


def check_n_repeats(n_repeats):
    if not isinstance(n_repeats, numbers.Integral) or isinstance(n_repeats, bool):
        raise TypeError(
            f"n_repeats must be an int >= 1; got {n_repeats!r} "
            f"of type {type(n_repeats).__name__}."
        )
    if n_repeats < 1:
        raise ValueError(f"n_repeats must be an int >= 1; got {n_repeats}.")
    return int(n_repeats)


def check_max_samples(max_samples, n_samples):
    """Resolve `max_samples` to a number of rows, as scikit-learn does."""
    if isinstance(max_samples, bool) or not isinstance(max_samples, numbers.Real):
        raise TypeError(
            "max_samples must be an int in [1, n_samples] or a float in (0, 1]; "
            f"got {max_samples!r}."
        )
    if isinstance(max_samples, numbers.Integral):
        if not 1 <= max_samples <= n_samples:
            raise ValueError(
                f"max_samples must be <= n_samples ({n_samples}) and >= 1; "
                f"got {max_samples}."
            )
        return int(max_samples)
    if not 0 < max_samples <= 1:
        raise ValueError(
            f"max_samples as a float must be in (0, 1]; got {max_samples}."
        )
    resolved = int(max_samples * n_samples)
    if resolved < 1:
        raise ValueError(
            f"max_samples={max_samples} selects no rows of the {n_samples} in X; "
            "use a larger fraction."
        )
    return resolved


def check_effect_weights(sample_weight, n_samples):
    """Weights of rows in averages (ALE's bins, H²'s partial dependences), as
    float64: one per row, finite, non-negative and not all zero. A negative
    weight has no meaning in a weighted mean (it would let a row pull the
    average away from itself), and all-zero weights leave nothing to average.
    """
    check_sample_weight(sample_weight, n_samples)
    try:
        weights = np.asarray(sample_weight, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"sample_weight must hold numbers; got {quoted(sample_weight)}."
        ) from None
    bad = ~np.isfinite(weights) | (weights < 0)
    if bad.any():
        at = int(np.flatnonzero(bad)[0])
        raise ValueError(
            "sample_weight must be finite and non-negative; got "
            f"sample_weight[{at}] = {float(weights[at])!r}."
        )
    if not weights.any():
        raise ValueError("sample_weight is 0 for every row: nothing to average.")
    return weights
