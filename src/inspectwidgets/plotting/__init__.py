"""Static matplotlib figures of inspection results, one Display per chart."""

from ._comparison import ImportanceComparisonDisplay
from ._partial_dependence import PartialDependenceDisplay
from ._permutation import PermutationImportanceDisplay

__all__ = [
    "ImportanceComparisonDisplay",
    "PartialDependenceDisplay",
    "PermutationImportanceDisplay",
]
