"""What every engine shares: validation, batching, chunks, the pipeline view,
cohorts and the one place that imports scikit-learn's private names. (The
prediction shortcuts are ``_shortcuts``.)

The engines import this package's modules (it is their shared room, module by
module in docs/architecture.md); widgets and plotting import only the names
below, from this package (tests/test_layers.py).
"""

from .cohort_rules import rule_name
from .cohorts import REST, Cohort, check_cohorts, cohort_labels
from .columns import column_names, column_position, resolve_features
from .dtypes import float_features
from .hints import (
    Column,
    Data,
    Estimator,
    FeatureGroups,
    Models,
    RandomState,
    Scoring,
)
from .levels import (
    MIN_ROWS,
    LevelSummary,
    level_summary,
    replace_text_values,
    rule_naming_only,
)
from .parallel import (
    WithCallersConfig,
    chunk_progress,
    remote_config,
    step_progress,
)
from .responses import output_quantity
from .signature import bind_arguments
from .validation import (
    check_columns,
    check_fitted,
    check_n_repeats,
    check_not_empty,
    check_random_state_argument,
    check_target,
    check_X,
    check_y,
    quoted,
    quoted_names,
)

# The cohorts are public (the package's one shared rule language); nothing
# else here is.
__all__ = ["Cohort", "cohort_labels"]

# Internal API for widgets and plotting: not public, changed together with
# its callers. tests/test_layers.py checks that every name imported above is
# listed here, and that widgets and plotting import nothing else from _core.
INTERNAL_API = [
    # arguments checked as the engines check them, before a widget's thread
    "check_X",
    "check_columns",
    "check_fitted",
    "check_n_repeats",
    "check_not_empty",
    "check_random_state_argument",
    "check_target",
    "check_y",
    "column_names",
    "column_position",
    "resolve_features",
    # names in error messages, quoted as the engines quote them
    "quoted",
    "quoted_names",
    # what an effect's values are (a class's probability...), for a label
    "output_quantity",
    # integer features as floats, as the effect engines draw them
    "float_features",
    # a widget's progress, the remote joblib backend it runs under, and the
    # user's scikit-learn configuration on its threads
    "chunk_progress",
    "remote_config",
    "step_progress",
    "WithCallersConfig",
    # the engines' parameter lists, for the widgets that call a Run
    "bind_arguments",
    # a text column summarised, never enumerated (an ID, an e-mail): the
    # values a chart or the cohort form may name
    "level_summary",
    "LevelSummary",
    "MIN_ROWS",
    # rules as a page may show them: no such value named (rule_naming_only),
    # their text values rewritten (a saved page's category stand-ins)
    "rule_naming_only",
    "replace_text_values",
    # the inspector's cohorts checked, and its rows in no cohort
    "check_cohorts",
    "REST",
    # a column's name as a rule writes it (the page's escaped names read back)
    "rule_name",
    # the types of the public signatures (hints.py)
    "Column",
    "Data",
    "Models",
    "Estimator",
    "FeatureGroups",
    "RandomState",
    "Scoring",
]
