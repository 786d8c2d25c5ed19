"""Static matplotlib figures of inspection results, one Display per chart."""

from ._permutation import PermutationImportanceDisplay

__all__ = ["PermutationImportanceDisplay"]
