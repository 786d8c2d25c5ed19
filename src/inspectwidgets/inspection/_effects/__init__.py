"""Accumulated local effects and interaction strength: what partial
dependence cannot show."""

from .ale import accumulated_local_effects, iter_accumulated_local_effects
from .interaction import interaction_strength, pair_matrix, select_output
from .result import AccumulatedLocalEffectsResult

__all__ = [
    "AccumulatedLocalEffectsResult",
    "accumulated_local_effects",
    "interaction_strength",
    "iter_accumulated_local_effects",
    "pair_matrix",
    "select_output",
]
