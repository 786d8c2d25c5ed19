"""inspectwidgets: live, interactive model inspection for Jupyter."""

from .inspection import (
    CorrelatedFeature,
    FeatureDistribution,
    PartialDependenceResult,
    PermutationImportanceResult,
    cluster_features,
    compare_importances,
    cross_val_permutation_importance,
    impurity_importance,
    iter_partial_dependence,
    iter_permutation_importance,
    oob_permutation_importance,
    partial_dependence,
    permutation_importance,
    relative_importance,
)
from .plotting import (
    ImportanceComparisonDisplay,
    PartialDependenceDisplay,
    PermutationImportanceDisplay,
)
from .widgets import (
    ImportanceComparisonWidget,
    PartialDependenceWidget,
    PermutationImportanceWidget,
)

__version__ = "0.1.0"

__all__ = [
    "CorrelatedFeature",
    "FeatureDistribution",
    "ImportanceComparisonDisplay",
    "ImportanceComparisonWidget",
    "PartialDependenceDisplay",
    "PartialDependenceResult",
    "PartialDependenceWidget",
    "PermutationImportanceDisplay",
    "PermutationImportanceResult",
    "PermutationImportanceWidget",
    "__version__",
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
