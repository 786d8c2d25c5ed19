"""The inspection engine: pure numpy, pandas and scikit-learn, no widget code."""

from ._clustering import cluster_features
from ._comparison import compare_importances
from ._cross_validation import cross_val_permutation_importance
from ._impurity import impurity_importance, relative_importance
from ._oob import oob_permutation_importance
from ._permutation import iter_permutation_importance, permutation_importance
from ._result import PermutationImportanceResult

__all__ = [
    "PermutationImportanceResult",
    "cluster_features",
    "compare_importances",
    "cross_val_permutation_importance",
    "impurity_importance",
    "iter_permutation_importance",
    "oob_permutation_importance",
    "permutation_importance",
    "relative_importance",
]
