"""Accumulated local effects and interaction strength: what partial
dependence cannot show."""

from .ale import accumulated_local_effects, iter_accumulated_local_effects
from .interaction import interaction_strength, pair_matrix, select_output
from .result import AccumulatedLocalEffectsResult
from .subgroups import (
    SubgroupAccumulatedLocalEffects,
    subgroup_accumulated_local_effects,
)

__all__ = [
    "AccumulatedLocalEffectsResult",
    "accumulated_local_effects",
    "interaction_strength",
    "iter_accumulated_local_effects",
    "SubgroupAccumulatedLocalEffects",
    "subgroup_accumulated_local_effects",
]

# Internal API for widgets, plotting and the other engines: not public,
# changed together with its callers (tests/test_layers.py holds them to this
# list and to __all__).
INTERNAL_API = [
    # the interaction strength result as a matrix of pairs, and one output
    "pair_matrix",
    "select_output",
]
