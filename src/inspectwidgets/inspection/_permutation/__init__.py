"""Permutation importance: scikit-learn's numbers, batched and streamed, and
its cross-validated and out-of-bag variants."""

from .bootstrap import resamples_scorers
from .conditional import (
    conditional_permutation_importance,
    conditional_run,
    iter_conditional_permutation_importance,
)
from .cross_validation import CrossValRun, cross_val_permutation_importance
from .importance import (
    iter_permutation_importance,
    permutation_importance,
    permutation_run,
)
from .model_comparison import PairedDifference, PermutationComparisonResult
from .models import (
    check_models,
    compare_permutation_importance,
    iter_compare_permutation_importance,
    models_run,
)
from .out_of_bag import OobRun, oob_permutation_importance
from .result import PermutationImportanceResult, Subgroup
from .scorers import builtin_score_name
from .scoring import ScoringPlan
from .subgroup_importance import (
    iter_subgroup_permutation_importance,
    subgroup_permutation_importance,
    subgroup_run,
)
from .subgroup_result import SubgroupImportanceResult

__all__ = [
    "PairedDifference",
    "PermutationComparisonResult",
    "PermutationImportanceResult",
    "Subgroup",
    "compare_permutation_importance",
    "conditional_permutation_importance",
    "cross_val_permutation_importance",
    "iter_compare_permutation_importance",
    "iter_conditional_permutation_importance",
    "iter_permutation_importance",
    "oob_permutation_importance",
    "permutation_importance",
    "SubgroupImportanceResult",
    "subgroup_permutation_importance",
    "iter_subgroup_permutation_importance",
]

# Internal API for widgets, plotting and the other engines: not public,
# changed together with its callers (tests/test_layers.py holds them to this
# list and to __all__).
INTERNAL_API = [
    # the Runs a widget streams, cancels and shares between views
    "permutation_run",
    "conditional_run",
    "subgroup_run",
    "CrossValRun",
    "OobRun",
    # scorers: the estimator's own metric, and baselines shared by views
    "ScoringPlan",
    "builtin_score_name",
    # whether a view's scorers allow the held-out interval, and at what cost
    "resamples_scorers",
    # several models as {name: estimator}, named and checked as the engine
    # takes them (ModelInspector's header)
    "check_models",
    # the several-model run the inspector streams, its first round split
    "models_run",
]
