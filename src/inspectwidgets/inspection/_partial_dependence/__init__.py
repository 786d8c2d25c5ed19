"""Partial dependence and ICE: scikit-learn's numbers, batched and streamed."""

from .functions import iter_partial_dependence, partial_dependence
from .result import CorrelatedFeature, FeatureDistribution, PartialDependenceResult

__all__ = [
    "CorrelatedFeature",
    "FeatureDistribution",
    "PartialDependenceResult",
    "iter_partial_dependence",
    "partial_dependence",
]
