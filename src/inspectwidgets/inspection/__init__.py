"""The inspection engine: pure numpy, pandas and scikit-learn, no widget code."""

from ._clustering import cluster_features
from ._comparison import compare_importances
from ._cross_validation import cross_val_permutation_importance
from ._impurity import impurity_importance, relative_importance
from ._oob import oob_permutation_importance
from ._partial_dependence import iter_partial_dependence, partial_dependence
from ._partial_dependence_result import (
    CorrelatedFeature,
    FeatureDistribution,
    PartialDependenceResult,
)
from ._permutation import iter_permutation_importance, permutation_importance
from ._result import PermutationImportanceResult

__all__ = [
    "CorrelatedFeature",
    "FeatureDistribution",
    "PartialDependenceResult",
    "PermutationImportanceResult",
    "cluster_features",
    "compare_importances",
    "cross_val_permutation_importance",
    "impurity_importance",
    "iter_partial_dependence",
    "iter_permutation_importance",
    "oob_permutation_importance",
    "partial_dependence",
    "permutation_importance",
    "relative_importance",
]
