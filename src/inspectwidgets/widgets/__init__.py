"""Jupyter widgets (anywidget): live views of the inspection engine."""

from ._comparison import ImportanceComparisonWidget
from ._permutation import PermutationImportanceWidget

__all__ = ["ImportanceComparisonWidget", "PermutationImportanceWidget"]
