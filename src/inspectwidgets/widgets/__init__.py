"""Jupyter widgets (anywidget): live views of the inspection engine."""

from ._permutation import PermutationImportanceWidget

__all__ = ["PermutationImportanceWidget"]
