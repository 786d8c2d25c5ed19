"""Partial dependence and ICE: scikit-learn's numbers, batched and streamed."""

from .result import CorrelatedFeature, FeatureDistribution, PartialDependenceResult
from .run import iter_partial_dependence, partial_dependence

__all__ = [
    "CorrelatedFeature",
    "FeatureDistribution",
    "PartialDependenceResult",
    "iter_partial_dependence",
    "partial_dependence",
]
