"""The types the public signatures share, one name each (``make lint`` runs
mypy; tests/test_typing.py requires every public parameter annotated).

scikit-learn is untyped, so an estimator is ``Any`` (and its ``Bunch``, to mypy);
data is what scikit-learn accepts: numpy's ``ArrayLike`` or a DataFrame.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Protocol, TypeAlias

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

#: A scikit-learn estimator or Pipeline (fitted where the docstring says so).
Estimator: TypeAlias = Any
#: Several fitted models: names to estimators, or estimators (named by class).
Models: TypeAlias = Mapping[str, Any] | Sequence[Any]
#: The features, rows by columns.
Data: TypeAlias = ArrayLike | pd.DataFrame
#: A scipy.sparse matrix (scipy is untyped).
SparseMatrix: TypeAlias = Any
#: One column of X: its position, or its name in a DataFrame.
Column: TypeAlias = int | str
#: `subgroups`: a label per row of X, or the column of X holding them.
Subgroups: TypeAlias = ArrayLike | pd.Series | Column
#: A scikit-learn cross-validation splitter (KFold, ...; untyped).
CrossValidator: TypeAlias = Any
#: scikit-learn's `random_state`.
RandomState: TypeAlias = int | np.random.RandomState | None
#: One scorer or several, as scikit-learn's `scoring`.
Scoring: TypeAlias = (
    str
    | Callable[..., Any]
    | list[str]
    | tuple[str, ...]
    | set[str]
    | dict[str, Callable[..., Any]]
    | None
)
#: Permutation importance's `features`: columns or groups of them, or
#: labelled groups.
FeatureGroups: TypeAlias = (
    Sequence[Column | Sequence[Column]] | dict[str, Column | Sequence[Column]] | None
)
ResponseMethod: TypeAlias = Literal["auto", "predict_proba", "decision_function"]
Scale: TypeAlias = Literal["probability", "log_odds"]
Algorithm: TypeAlias = Literal["auto", "tree", "linear", "generic"]
#: Out-of-bag importance: bagging ensembles only, no linear shortcut.
TreeAlgorithm: TypeAlias = Literal["auto", "tree", "generic"]


class Cancel(Protocol):
    """What `cancel` needs: a ``threading.Event`` or any object with
    ``is_set()``."""

    def is_set(self) -> bool: ...
