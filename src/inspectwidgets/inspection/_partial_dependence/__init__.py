"""Partial dependence and ICE: scikit-learn's numbers, batched and streamed."""

from .._core.correlation import DEFAULT_CORRELATION_THRESHOLD
from .functions import iter_partial_dependence, partial_dependence
from .ice_clusters import ClusterRule, IceClusters, ice_clusters
from .ice_summary import (
    IcePercentiles,
    SubgroupPartialDependence,
    ice_percentiles,
    subgroup_partial_dependence,
)
from .overview import iter_partial_dependence_overview, partial_dependence_overview
from .overview_result import OverviewPanel, PartialDependenceOverview
from .result import (
    MISSING_LABEL,
    CorrelatedFeature,
    FeatureDistribution,
    PartialDependenceResult,
    value_label,
)
from .tree_splits import split_grid

__all__ = [
    "DEFAULT_CORRELATION_THRESHOLD",
    "CorrelatedFeature",
    "FeatureDistribution",
    "IcePercentiles",
    "OverviewPanel",
    "PartialDependenceOverview",
    "PartialDependenceResult",
    "SubgroupPartialDependence",
    "ice_percentiles",
    "iter_partial_dependence",
    "iter_partial_dependence_overview",
    "partial_dependence",
    "partial_dependence_overview",
    "split_grid",
    "subgroup_partial_dependence",
    "IceClusters",
    "ClusterRule",
    "ice_clusters",
]

# Internal API for widgets and plotting: how both label a grid value.
# The effects engine shares partial dependence's argument checks, grid rows
# and responses through _core (effect_params.py, grid_rows.py, responses.py).
INTERNAL_API = ["MISSING_LABEL", "value_label"]
