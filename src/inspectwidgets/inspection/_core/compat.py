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
"""

import inspect

import sklearn
from sklearn._loss.link import IdentityLink
from sklearn.ensemble._bagging import BaseBagging
from sklearn.ensemble._forest import BaseForest, ForestClassifier
from sklearn.ensemble._gb import BaseGradientBoosting
from sklearn.ensemble._hist_gradient_boosting.gradient_boosting import (
    BaseHistGradientBoosting,
)
from sklearn.inspection import _partial_dependence, _permutation_importance

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

__all__ = [
    "SKLEARN_PARAMETER_CONSTRAINTS",
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
    "trapezoid",
    "validate_parameter_constraints",
]
