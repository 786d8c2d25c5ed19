"""Static matplotlib figures of inspection results, one Display per chart."""

from ._comparison import ImportanceComparisonDisplay
from ._permutation import PermutationImportanceDisplay

__all__ = ["ImportanceComparisonDisplay", "PermutationImportanceDisplay"]
