"""inspectwidgets: live, interactive model inspection for Jupyter."""

from .inspection import (
    PermutationImportanceResult,
    cluster_features,
    compare_importances,
    cross_val_permutation_importance,
    impurity_importance,
    iter_permutation_importance,
    oob_permutation_importance,
    permutation_importance,
    relative_importance,
)
from .plotting import ImportanceComparisonDisplay, PermutationImportanceDisplay
from .widgets import ImportanceComparisonWidget, PermutationImportanceWidget

__version__ = "0.1.0"

__all__ = [
    "ImportanceComparisonDisplay",
    "ImportanceComparisonWidget",
    "PermutationImportanceDisplay",
    "PermutationImportanceResult",
    "PermutationImportanceWidget",
    "__version__",
    "cluster_features",
    "compare_importances",
    "cross_val_permutation_importance",
    "impurity_importance",
    "iter_permutation_importance",
    "oob_permutation_importance",
    "permutation_importance",
    "relative_importance",
]
