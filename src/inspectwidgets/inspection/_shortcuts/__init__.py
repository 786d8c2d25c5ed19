"""The prediction shortcuts: a model's own predictions of many modified
copies of X without predicting each copy (the tree walk in ``trees/``, the
linear shortcut in ``linear/``), their compiled kernels (``kernels``), and
the one place the engines choose among them (``choice``).

The engines import from this package's faces only (``_shortcuts``,
``_shortcuts.trees``, ``_shortcuts.linear``), and widgets only the names
below from this one (tests/test_layers.py).
"""

from .choice import SHORTCUTS, Chosen, check_algorithm_fits, choose_shortcut, path_of
from .trees import load_walks, walks_needed

__all__: list[str] = []

INTERNAL_API = [
    # which shortcut predicts a run's copies (choice.py), and the rows it
    # chooses among
    "choose_shortcut",
    "check_algorithm_fits",
    "path_of",
    "Chosen",
    "SHORTCUTS",
    # the tree shortcut's compiled walks, loaded before a widget's first run
    "load_walks",
    "walks_needed",
]
