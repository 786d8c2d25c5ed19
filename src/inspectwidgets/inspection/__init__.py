"""The inspection engine: pure numpy, pandas and scikit-learn, no widget code."""

from ._cross_validation import cross_val_permutation_importance
from ._oob import oob_permutation_importance
from ._permutation import iter_permutation_importance, permutation_importance
from ._result import PermutationImportanceResult

__all__ = [
    "PermutationImportanceResult",
    "cross_val_permutation_importance",
    "iter_permutation_importance",
    "oob_permutation_importance",
    "permutation_importance",
]
