"""Impurity (MDI) and ESL relative importance, their comparison with
permutation importance, and clusters of correlated features."""

from .clustering import cluster_features
from .comparison import compare_importances
from .impurity import impurity_importance, relative_importance

__all__ = [
    "cluster_features",
    "compare_importances",
    "impurity_importance",
    "relative_importance",
]
