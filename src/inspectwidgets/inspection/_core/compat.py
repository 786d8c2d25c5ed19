"""Every private name of scikit-learn the engine imports, in one place.

scikit-learn does not promise these across releases; when one moves, this
module is the only import to mend. The tests pin the behaviour that depends on
them (bit-parity of tree shortcuts, scorer replay), so a silent change fails
there. Private *attributes* of fitted models (``_predictors``, ``_loss``,
``_baseline_prediction``, ``_raw_predict_init``, a scorer's
``_response_method``) are read where they are replayed, next to the code that
mirrors them, and every such reader falls back to plain prediction on
AttributeError, TypeError or ValueError.

Nothing here falls back to a default when a name is missing: a scikit-learn
outside the range pyproject.toml declares fails at import, naming what moved.

The behaviours that differ between the versions in that range (1.6 to 1.9)
are decided here too, once, each from the installed version: our functions
give that version's numbers and errors (docs/differences.md, "Versions").
"""

import inspect

import numpy as np
import scipy.special
import sklearn
from sklearn._loss.link import IdentityLink
from sklearn.ensemble._bagging import BaseBagging
from sklearn.ensemble._forest import BaseForest, ForestClassifier
from sklearn.ensemble._gb import BaseGradientBoosting
from sklearn.ensemble._hist_gradient_boosting.gradient_boosting import (
    BaseHistGradientBoosting,
)
from sklearn.inspection import _partial_dependence, _permutation_importance
from sklearn.metrics import _classification

# The trapezoid rule roc_auc_score's `auc` sums with (scipy's, or numpy's in
# other releases): the vectorized ROC AUC sums the same terms with it.
from sklearn.metrics._ranking import trapezoid
from sklearn.metrics._scorer import (
    _BaseScorer,
    _cached_call,
    _check_multimetric_scoring,
    _PassthroughScorer,
    _Scorer,
)
from sklearn.utils import _safe_indexing
from sklearn.utils._openmp_helpers import _openmp_effective_n_threads
from sklearn.utils._param_validation import (
    InvalidParameterError,
    validate_parameter_constraints,
)
from sklearn.utils.validation import _check_response_method, _check_sample_weight


def _parameter_constraints(function):
    """The constraints scikit-learn's `validate_params` checks `function`'s
    arguments against (it keeps them on the function for introspection)."""
    constraints = getattr(function, "_skl_parameter_constraints", None)
    if not isinstance(constraints, dict):
        raise ImportError(
            f"scikit-learn {sklearn.__version__}: {function.__module__}."
            f"{function.__name__} carries no _skl_parameter_constraints; "
            "inspectwidgets validates arguments with them. Install a "
            "scikit-learn in the range inspectwidgets declares."
        )
    return dict(constraints)


def _scorer_accepts_sample_weight(scorer):
    """Whether a multimetric scoring routes `sample_weight` to `scorer`.

    scikit-learn 1.7 routes it only to scorers whose metric takes it
    (``_BaseScorer._accept_sample_weight``); 1.6 hands it to every scorer. A
    plain callable in a scoring dict (scikit-learn >= 1.7 fails on it) gets
    the weights when its signature takes them.
    """
    if not hasattr(_BaseScorer, "_accept_sample_weight"):
        return True
    if isinstance(scorer, _BaseScorer):
        return scorer._accept_sample_weight()
    parameters = inspect.signature(scorer).parameters.values()
    return any(p.name == "sample_weight" or p.kind is p.VAR_KEYWORD for p in parameters)


def _minor(version):
    """(major, minor) of a version string: "1.9.1" and "1.10.dev0" alike."""
    return tuple(int(part) for part in version.split(".")[:2])


SKLEARN_MINOR = _minor(sklearn.__version__)

# Checked against the installed scikit-learn's own constraints, so that bad
# arguments raise its InvalidParameterError with its message.
SKLEARN_PARAMETER_CONSTRAINTS = {
    "permutation_importance": _parameter_constraints(
        _permutation_importance.permutation_importance
    ),
    "partial_dependence": _parameter_constraints(
        _partial_dependence.partial_dependence
    ),
}
# `custom_values` is scikit-learn's from 1.7 and ours on every version: before
# 1.7 it is checked with the constraint 1.7 declares, in the same words.
SKLEARN_PARAMETER_CONSTRAINTS["partial_dependence"].setdefault(
    "custom_values", [dict, None]
)

# A numeric (not categorical) feature whose column holds integers: 1.9 refuses
# it; 1.7 and 1.8 compute it with a FutureWarning naming the first such
# feature; 1.6 computes it silently. Computed, a grid value is set into the
# integer column as scikit-learn sets it (an array truncates it).
if SKLEARN_MINOR >= (1, 9):
    PD_INTEGER_FEATURE = "raise"
elif SKLEARN_MINOR >= (1, 7):
    PD_INTEGER_FEATURE = "warn"
else:
    PD_INTEGER_FEATURE = "allow"

# `categorical_features=[]`: 1.7 refuses it by name; 1.6 refuses its dtype
# (an empty list is float64), as neither boolean, integer nor string.
PD_EMPTY_CATEGORICAL_NAMED = SKLEARN_MINOR >= (1, 7)

# The start of the error for a feature name that is not a DataFrame's column:
# 1.9 names the missing columns after these words, 1.6 to 1.8 do not.
if SKLEARN_MINOR >= (1, 9):
    UNKNOWN_COLUMN_WORDS = "Some column names are not columns of the dataframe"
else:
    UNKNOWN_COLUMN_WORDS = "A given column is not a column of the dataframe"

# log_loss's logarithm: the module imports scipy's xlogy up to 1.8.
_LOG_LOSS_USES_SCIPY_XLOGY = (
    getattr(_classification, "xlogy", None) is scipy.special.xlogy
)


def log_loss_logs(probability, out=None):
    """The logarithm `log_loss` takes of each clipped probability of the true
    class, as the installed scikit-learn takes it: scipy.special.xlogy up to
    1.8, numpy's log from 1.9 (its own `_xlogy`). They differ in the last bit
    for some probabilities, 1 - eps among them. xlogy took integer labels, so
    float32 probabilities had their logarithm in float64. `out`: where
    numpy's log may write (`probability` itself, say); scipy's makes a new
    float64 array."""
    if _LOG_LOSS_USES_SCIPY_XLOGY:
        return scipy.special.xlogy(1.0, np.asarray(probability, dtype=np.float64))
    return np.log(probability, out=out)


__all__ = [
    "PD_EMPTY_CATEGORICAL_NAMED",
    "PD_INTEGER_FEATURE",
    "SKLEARN_MINOR",
    "SKLEARN_PARAMETER_CONSTRAINTS",
    "UNKNOWN_COLUMN_WORDS",
    "BaseBagging",
    "BaseForest",
    "BaseGradientBoosting",
    "BaseHistGradientBoosting",
    "ForestClassifier",
    "IdentityLink",
    "InvalidParameterError",
    "_BaseScorer",
    "_PassthroughScorer",
    "_Scorer",
    "_cached_call",
    "_check_multimetric_scoring",
    "_check_response_method",
    "_check_sample_weight",
    "_openmp_effective_n_threads",
    "_safe_indexing",
    "_scorer_accepts_sample_weight",
    "log_loss_logs",
    "trapezoid",
    "validate_parameter_constraints",
]
