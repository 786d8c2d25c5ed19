"""Jupyter widgets (anywidget): live views of the inspection engine."""

from ._comparison import ImportanceComparisonWidget
from ._inspector import ModelInspector
from ._interaction import InteractionWidget
from ._partial_dependence import PartialDependenceWidget
from ._permutation import PermutationImportanceWidget

__all__ = [
    "ImportanceComparisonWidget",
    "InteractionWidget",
    "ModelInspector",
    "PartialDependenceWidget",
    "PermutationImportanceWidget",
]
