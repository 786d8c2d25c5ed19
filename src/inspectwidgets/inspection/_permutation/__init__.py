"""Permutation importance: scikit-learn's numbers, batched and streamed, and
its cross-validated and out-of-bag variants."""

from .cross_validation import cross_val_permutation_importance
from .importance import iter_permutation_importance, permutation_importance
from .out_of_bag import oob_permutation_importance
from .result import PermutationImportanceResult

__all__ = [
    "PermutationImportanceResult",
    "cross_val_permutation_importance",
    "iter_permutation_importance",
    "oob_permutation_importance",
    "permutation_importance",
]
