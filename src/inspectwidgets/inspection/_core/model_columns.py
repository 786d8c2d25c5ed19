"""How a fitted model reads X's columns, by each library's own rule.

scikit-learn compares a DataFrame's labels with ``feature_names_in_``, in
order (a ColumnTransformer selects them by name). The other libraries store
and compare names their own way, and the engine checks X as the model's own
``predict`` would, so that an X the model accepts is accepted here too:

- LightGBM stores ``str(label)`` with spaces replaced by underscores (its
  C++ ``Dataset::set_feature_names``) and reads a DataFrame by position,
  whatever its labels (``predict(validate_features=False)``, its default).
- XGBoost stores ``str(label)`` (``booster.feature_names``) and refuses a
  DataFrame whose labels, as strings, differ from them or from their order.
- CatBoost stores ``str(label)`` (``feature_names_``); a model fitted on
  named columns selects them by name (extra columns ignored, any order), one
  fitted on an array (names "0", "1", ...) reads them by position.

`ColumnReader` holds what the check needs: the names as the model stores
them, how X's labels become such names, and whether the model selects by
name or reads by position.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


def _as_string(label) -> str:
    return str(label)


def _lightgbm_name(label) -> str:
    return str(label).replace(" ", "_")


@dataclass(frozen=True)
class ColumnReader:
    """What a fitted model expects of X's columns.

    Attributes
    ----------
    library : str
        The library whose rule applies ("scikit-learn", "LightGBM", ...).
    names : tuple of str or None
        The names the model stores, in its order; None where it was fitted
        on an array (nothing to compare labels with).
    stored_name : callable
        How one of X's labels becomes a stored name (identity for
        scikit-learn, which compares the labels themselves).
    by_name : bool
        The model selects columns by name: X may hold them in any order,
        with others beside them.
    checks_names : bool
        The model refuses a DataFrame whose labels (as stored) are not
        `names` in their order; False where it reads by position whatever
        the labels (LightGBM), so only a reordering of its own columns, which
        it would silently mix up, is refused.
    allows_extra : bool
        The model reads its columns by position and ignores any after them
        (CatBoost fitted on an array).
    """

    library: str
    names: tuple | None
    stored_name: Callable[[object], object] = lambda label: label
    by_name: bool = False
    checks_names: bool = True
    allows_extra: bool = False

    def stored(self, labels) -> list:
        return [self.stored_name(label) for label in labels]


def _first_step(estimator):
    """The estimator that receives X: a pipeline's first step, recursively."""
    from sklearn.pipeline import Pipeline

    while isinstance(estimator, Pipeline):
        estimator = estimator.steps[0][1]
    return estimator


def _library(estimator) -> str:
    return type(estimator).__module__.partition(".")[0]


def column_reader(estimator, labels=None) -> ColumnReader:
    """How `estimator` (or its pipeline's first step) reads X's columns;
    `labels` are X's column labels (None for an array)."""
    from sklearn.compose import ColumnTransformer

    first = _first_step(estimator)
    library = _library(first)
    if library == "lightgbm":
        fitted = getattr(first, "_fitted_with_feature_names", False)
        names = tuple(first.feature_name_) if fitted else None
        return ColumnReader(
            "LightGBM", names, stored_name=_lightgbm_name, checks_names=False
        )
    if library == "xgboost":
        stored = first.get_booster().feature_names
        names = tuple(stored) if stored else None
        return ColumnReader("XGBoost", names, stored_name=_as_string)
    if library == "catboost":
        return _catboost_reader(first, labels)
    fitted = getattr(estimator, "feature_names_in_", None)
    names = None if fitted is None else tuple(np.asarray(fitted).tolist())
    return ColumnReader(
        "scikit-learn", names, by_name=isinstance(first, ColumnTransformer)
    )


def _catboost_reader(model, labels):
    """CatBoost selects named columns by name and reads an array's by
    position, extra columns after them ignored. ``feature_names_`` makes up
    "0", "1", ... for an array's columns, the names a frame with integer
    labels gives too; only where X's labels are not those does it matter
    which, and then the model's documented JSON format tells (an array's
    columns have an empty ``feature_id``)."""
    stored = tuple(str(n) for n in (model.feature_names_ or []))
    by_position = ColumnReader(
        "CatBoost", None, stored_name=_as_string, allows_extra=True
    )
    by_name = ColumnReader("CatBoost", stored, stored_name=_as_string, by_name=True)
    made_up = stored == tuple(str(i) for i in range(len(stored)))
    if not made_up:
        return by_name
    if labels is None or [str(label) for label in labels] == list(stored):
        return by_position
    return by_name if _catboost_names_given(model) else by_position


def _catboost_names_given(model) -> bool:
    import json
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "model.json")
        model.save_model(path, format="json")
        with open(path, encoding="utf-8") as file:
            info = json.load(file)["features_info"]
    features = [f for kind in info.values() if isinstance(kind, list) for f in kind]
    return any(feature.get("feature_id") for feature in features)
