"""Impurity (MDI) and ESL relative importance, their comparison with
permutation importance, and clusters of correlated features."""

from .clustering import (
    check_correlation_threshold,
    cluster_features,
    groups_at,
    numeric_clusters,
)
from .comparison import (
    CONDITIONAL,
    FLAG_EVIDENCE,
    SORT_COLUMNS,
    ComparisonPlan,
    compare_importances,
    plan_comparison,
)
from .impurity import impurity_importance, relative_importance
from .measures import WITHIN_NOISE, normalized_measures
from .model_measures import per_class_relative_importance

__all__ = [
    "cluster_features",
    "compare_importances",
    "impurity_importance",
    "relative_importance",
]

# Internal API for widgets, plotting and the other engines: not public,
# changed together with its callers (tests/test_layers.py holds them to this
# list and to __all__).
INTERNAL_API = [
    # the comparison checked and its impurity columns read, then its table
    # rebuilt from the permutation results as they stream (ComparisonPlan.frame)
    "ComparisonPlan",
    "plan_comparison",
    "SORT_COLUMNS",
    # the key of the conditional measure the widget adds on demand
    "CONDITIONAL",
    "per_class_relative_importance",
    # the measures on one scale, the flags' evidence and the legend's words
    "normalized_measures",
    "FLAG_EVIDENCE",
    "WITHIN_NOISE",
    # clusters of correlated features, cut at the widget's threshold
    "check_correlation_threshold",
    "groups_at",
    "numeric_clusters",
]
