"""The inspection engine: pure numpy, pandas and scikit-learn, no widget code."""

from ._comparison import (
    cluster_features,
    compare_importances,
    impurity_importance,
    relative_importance,
)
from ._effects import (
    AccumulatedLocalEffectsResult,
    accumulated_local_effects,
    interaction_strength,
    iter_accumulated_local_effects,
)
from ._partial_dependence import (
    DEFAULT_CORRELATION_THRESHOLD,
    CorrelatedFeature,
    FeatureDistribution,
    OverviewPanel,
    PartialDependenceOverview,
    PartialDependenceResult,
    iter_partial_dependence,
    iter_partial_dependence_overview,
    partial_dependence,
    partial_dependence_overview,
    split_grid,
)
from ._permutation import (
    PermutationImportanceResult,
    Subgroup,
    conditional_permutation_importance,
    cross_val_permutation_importance,
    iter_conditional_permutation_importance,
    iter_permutation_importance,
    oob_permutation_importance,
    permutation_importance,
)

__all__ = [
    "DEFAULT_CORRELATION_THRESHOLD",
    "AccumulatedLocalEffectsResult",
    "CorrelatedFeature",
    "FeatureDistribution",
    "OverviewPanel",
    "PartialDependenceOverview",
    "PartialDependenceResult",
    "PermutationImportanceResult",
    "Subgroup",
    "cluster_features",
    "compare_importances",
    "conditional_permutation_importance",
    "cross_val_permutation_importance",
    "accumulated_local_effects",
    "impurity_importance",
    "interaction_strength",
    "iter_accumulated_local_effects",
    "iter_conditional_permutation_importance",
    "iter_partial_dependence",
    "iter_partial_dependence_overview",
    "iter_permutation_importance",
    "oob_permutation_importance",
    "partial_dependence",
    "partial_dependence_overview",
    "permutation_importance",
    "relative_importance",
    "split_grid",
]
