"""The tree walk: copies of X through scikit-learn's trees, forests and
(histogram) gradient boosting, the model's own predictions bit for bit
without predicting each copy (``models``, ``routing``, ``replay``); and
through LightGBM's trees, read from its model text (``lightgbm``).

What the rest of the engine may import from here is listed below; the
engines choose a shortcut through ``_shortcuts`` (``choice``).
"""

from .choice import check, detour_share, predicts_faster, take
from .kinds import (
    GRADIENT_BOOSTING,
    HIST_GRADIENT_BOOSTING,
    split_thresholds,
    unsupported,
)
from .lightgbm import is_lightgbm
from .models import TreeModel
from .replay import row_blocks, walk_block_bytes
from .walks import dependence_walks, load_walks, walks_needed

__all__: list[str] = []

INTERNAL_API = [
    # its row of _shortcuts.SHORTCUTS: whether it takes a model, and pays
    "take",
    "check",
    "predicts_faster",
    "detour_share",
    # why the walk cannot take a model (None if it can); whether it is
    # LightGBM's (ALE walks it under "auto")
    "unsupported",
    "is_lightgbm",
    # the thresholds another library's trees compare each column with
    # (CatBoost's borders): partial dependence's grid groups
    "split_thresholds",
    # a walk's block of rows under max_memory, and the blocks
    "walk_block_bytes",
    "row_blocks",
    # the exact tree H² (_effects.exact_trees): the flattened trees (their
    # responses from leaf sums: TreeModel.responses), its compiled walks, and
    # the boosting kinds whose link it checks
    "TreeModel",
    "dependence_walks",
    "GRADIENT_BOOSTING",
    "HIST_GRADIENT_BOOSTING",
    # the compiled walks, loaded before a widget's first run
    "load_walks",
    "walks_needed",
]
