"""Every private name of scikit-learn the engine imports, in one place.

scikit-learn does not promise these across releases; when one moves, this
module is the only import to mend. The tests pin the behaviour that depends on
them (bit-parity of tree shortcuts, scorer replay), so a silent change fails
there. Private *attributes* of fitted models (``_predictors``, ``_loss``,
``_baseline_prediction``, ``_raw_predict_init``, a scorer's
``_response_method``) are read where they are replayed, next to the code that
mirrors them, and every such reader falls back to plain prediction on
AttributeError, TypeError or ValueError.
"""

from sklearn.ensemble._bagging import BaseBagging
from sklearn.ensemble._forest import BaseForest, ForestClassifier
from sklearn.ensemble._gb import BaseGradientBoosting
from sklearn.ensemble._hist_gradient_boosting.gradient_boosting import (
    BaseHistGradientBoosting,
)
from sklearn.metrics._scorer import (
    _BaseScorer,
    _cached_call,
    _check_multimetric_scoring,
    _PassthroughScorer,
    _Scorer,
)
from sklearn.utils import _safe_indexing
from sklearn.utils._openmp_helpers import _openmp_effective_n_threads
from sklearn.utils.validation import _check_response_method, _check_sample_weight

__all__ = [
    "BaseBagging",
    "BaseForest",
    "BaseGradientBoosting",
    "BaseHistGradientBoosting",
    "ForestClassifier",
    "_BaseScorer",
    "_PassthroughScorer",
    "_Scorer",
    "_cached_call",
    "_check_multimetric_scoring",
    "_check_response_method",
    "_check_sample_weight",
    "_openmp_effective_n_threads",
    "_safe_indexing",
]
