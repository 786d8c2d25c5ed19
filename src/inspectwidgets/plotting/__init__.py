"""Static matplotlib figures of inspection results, one Display per chart."""

from ._comparison import ImportanceComparisonDisplay
from ._effects import AccumulatedLocalEffectsDisplay, InteractionStrengthDisplay
from ._model_comparison import PermutationComparisonDisplay
from ._partial_dependence import PartialDependenceDisplay
from ._permutation import PermutationImportanceDisplay

__all__ = [
    "AccumulatedLocalEffectsDisplay",
    "ImportanceComparisonDisplay",
    "InteractionStrengthDisplay",
    "PartialDependenceDisplay",
    "PermutationComparisonDisplay",
    "PermutationImportanceDisplay",
]
