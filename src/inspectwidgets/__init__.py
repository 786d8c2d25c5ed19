"""inspectwidgets: live, interactive model inspection for Jupyter.

The engine and the Displays load with the package; the widgets load on first
use, so engine-only code (scripts, workers, tests) never imports anywidget.
"""

import importlib

from .inspection import (
    AccumulatedLocalEffectsResult,
    ClusterRule,
    Cohort,
    CorrelatedFeature,
    FeatureDistribution,
    IceClusters,
    IcePercentiles,
    OverviewPanel,
    PairedDifference,
    PartialDependenceOverview,
    PartialDependenceResult,
    PermutationComparisonResult,
    PermutationImportanceResult,
    Subgroup,
    SubgroupAccumulatedLocalEffects,
    SubgroupImportanceResult,
    SubgroupPartialDependence,
    accumulated_local_effects,
    cluster_features,
    cohort_labels,
    compare_importances,
    compare_permutation_importance,
    conditional_permutation_importance,
    cross_val_permutation_importance,
    ice_clusters,
    ice_percentiles,
    impurity_importance,
    interaction_strength,
    iter_accumulated_local_effects,
    iter_compare_permutation_importance,
    iter_conditional_permutation_importance,
    iter_partial_dependence,
    iter_partial_dependence_overview,
    iter_permutation_importance,
    iter_subgroup_permutation_importance,
    oob_permutation_importance,
    partial_dependence,
    partial_dependence_overview,
    permutation_importance,
    relative_importance,
    split_grid,
    subgroup_accumulated_local_effects,
    subgroup_partial_dependence,
    subgroup_permutation_importance,
)
from .plotting import (
    AccumulatedLocalEffectsDisplay,
    ImportanceComparisonDisplay,
    InteractionStrengthDisplay,
    PartialDependenceDisplay,
    PermutationComparisonDisplay,
    PermutationImportanceDisplay,
)

# The one place the version is written; pyproject.toml reads it from here.
__version__ = "0.1.0"

_WIDGETS = (
    "ImportanceComparisonWidget",
    "InteractionWidget",
    "ModelInspector",
    "PartialDependenceWidget",
    "PermutationImportanceWidget",
)


def __getattr__(name):
    if name in _WIDGETS:
        return getattr(importlib.import_module(".widgets", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_WIDGETS))


__all__ = [
    "AccumulatedLocalEffectsDisplay",
    "AccumulatedLocalEffectsResult",
    "CorrelatedFeature",
    "FeatureDistribution",
    "IcePercentiles",
    "ImportanceComparisonDisplay",
    "ImportanceComparisonWidget",
    "InteractionStrengthDisplay",
    "InteractionWidget",
    "ModelInspector",
    "OverviewPanel",
    "PartialDependenceDisplay",
    "PartialDependenceOverview",
    "PartialDependenceResult",
    "PartialDependenceWidget",
    "PermutationImportanceDisplay",
    "PairedDifference",
    "PermutationComparisonDisplay",
    "PermutationComparisonResult",
    "PermutationImportanceResult",
    "PermutationImportanceWidget",
    "SubgroupPartialDependence",
    "Subgroup",
    "__version__",
    "accumulated_local_effects",
    "cluster_features",
    "compare_importances",
    "compare_permutation_importance",
    "conditional_permutation_importance",
    "cross_val_permutation_importance",
    "ice_percentiles",
    "impurity_importance",
    "interaction_strength",
    "iter_accumulated_local_effects",
    "iter_compare_permutation_importance",
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
    "subgroup_partial_dependence",
    "SubgroupImportanceResult",
    "subgroup_permutation_importance",
    "Cohort",
    "cohort_labels",
    "iter_subgroup_permutation_importance",
    "IceClusters",
    "ClusterRule",
    "ice_clusters",
    "SubgroupAccumulatedLocalEffects",
    "subgroup_accumulated_local_effects",
]
