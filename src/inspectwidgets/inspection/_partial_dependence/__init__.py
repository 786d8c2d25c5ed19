"""Partial dependence and ICE: scikit-learn's numbers, batched and streamed."""

from .._core.correlation import DEFAULT_CORRELATION_THRESHOLD
from .functions import iter_partial_dependence, partial_dependence
from .grid import grid_rows
from .params import (
    check_choice,
    check_pd_estimator,
    check_pd_X,
    check_response_method,
    column_labels,
    resolve_categorical,
    resolve_classes,
    resolve_pd_features,
    resolve_response_method,
)
from .responses import Responses
from .result import CorrelatedFeature, FeatureDistribution, PartialDependenceResult
from .tree_splits import split_grid

__all__ = [
    "DEFAULT_CORRELATION_THRESHOLD",
    "CorrelatedFeature",
    "FeatureDistribution",
    "PartialDependenceResult",
    "iter_partial_dependence",
    "partial_dependence",
    "split_grid",
]

# Not public, but the effects engine (ALE, interaction strength) checks its
# arguments by the same rules and builds its modified rows the same way; the
# architecture lets one engine use another only through its __init__.
SHARED_WITH_EFFECTS = (
    Responses,
    check_choice,
    check_pd_X,
    check_pd_estimator,
    check_response_method,
    column_labels,
    grid_rows,
    resolve_categorical,
    resolve_classes,
    resolve_pd_features,
    resolve_response_method,
)
