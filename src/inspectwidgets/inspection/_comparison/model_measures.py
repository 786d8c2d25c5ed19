"""Each importance measure read from a fitted model, per raw column of X.

A model's measures are per input of its last step; a pipeline's column-wise
view (``_core/pipeline.py``) says which inputs each raw column of X became,
and a raw column's measure adds up its inputs' (squared, for ESL's relative
importance, whose squares add). Where that mapping is unknown, the measures
are NaN, and `missing_measures_note` says why in a sentence.
"""

import numpy as np
from sklearn.pipeline import Pipeline

from .._core.pipeline import columnwise_view
from .impurity import (
    impurity_importance,
    is_tree_model,
    relative_importance,
    scale_to_100,
)
from .own_importances import OWN_MEASURES, library_of, own_importances


def _model_and_columns(estimator, n_columns):
    """The model behind `estimator` (a pipeline's last step) and, per raw
    column of X, the model's input features it becomes (None where that is
    not known exactly)."""
    model, output_columns = estimator, None
    if isinstance(estimator, Pipeline):
        view = columnwise_view(estimator, n_columns)
        if view is None:
            return estimator.steps[-1][1], None
        model, output_columns = view.model, view.output_columns
    elif getattr(model, "n_features_in_", None) == n_columns:
        output_columns = [[c] for c in range(n_columns)]
    return model, output_columns


def _tree_model_and_columns(estimator, n_columns):
    """`_model_and_columns` where the model is one of scikit-learn's tree
    models and its columns are known; (None, None) otherwise."""
    model, output_columns = _model_and_columns(estimator, n_columns)
    if output_columns is None or not is_tree_model(model):
        return None, None
    return model, output_columns


def _per_raw_column(values, output_columns, combine):
    return np.array(
        [combine(values[list(cols)]) if cols else 0.0 for cols in output_columns]
    )


def impurity_columns(estimator, n_columns):
    """MDI and ESL relative importance per raw column of X (NaN where the
    model behind `estimator` is not a tree model or the mapping is unknown)."""
    model, output_columns = _tree_model_and_columns(estimator, n_columns)
    if model is None:
        return np.full(n_columns, np.nan), np.full(n_columns, np.nan)
    mdi = _per_raw_column(
        impurity_importance(model).importances_mean, output_columns, np.sum
    )
    # Squared relative importances add up over a raw column's outputs.
    squared = relative_importance(model).importances ** 2
    relative = scale_to_100(np.sqrt(_per_raw_column(squared, output_columns, np.sum)))
    return mdi, relative


def own_columns(estimator, n_columns):
    """The boosting library's own measures per raw column of X (shares added
    up over a column's inputs); empty where the model has none or its
    columns are not known exactly."""
    model, output_columns = _model_and_columns(estimator, n_columns)
    if output_columns is None:
        return {}
    return {
        key: _per_raw_column(values, output_columns, np.sum)
        for key, values in own_importances(model).items()
    }


def missing_measures_note(estimator, n_columns, own):
    """A sentence saying why MDI and ESL relative importance are missing from
    a comparison, and what the model shows instead ("" where they are
    there)."""
    model, output_columns = _model_and_columns(estimator, n_columns)
    name = type(model).__name__
    if is_tree_model(model) and output_columns is not None:
        return ""
    if is_tree_model(model):
        return (
            "MDI and ESL relative importance are left out: the pipeline's "
            f"steps before {name} do not map X's columns to its inputs exactly."
        )
    library = library_of(model)
    if library is None:
        return (
            "MDI and ESL relative importance are read from scikit-learn's tree "
            f"models; {name} has permutation importance alone."
        )
    if not own:
        return (
            f"MDI and ESL relative importance are read from scikit-learn's "
            f"trees; this {library} model's own measures are left out: "
            "its pipeline's steps do not map X's columns to its inputs exactly."
        )
    labels = [label for key, label, _ in OWN_MEASURES if key in own]
    return (
        "MDI and ESL relative importance are read from scikit-learn's trees; "
        f"this {library} model shows its own instead: {', '.join(labels)}."
    )


def per_class_relative_importance(estimator, n_columns):
    """ESL per-class relative importance per raw column, or None where the
    model is not a K-class gradient boosting model."""
    model, output_columns = _tree_model_and_columns(estimator, n_columns)
    if model is None:
        return None
    try:
        result = relative_importance(model, per_class=True)
    except ValueError:
        return None
    rows = [
        scale_to_100(np.sqrt(_per_raw_column(row**2, output_columns, np.sum)))
        for row in result.per_class
    ]
    return result.classes, np.array(rows)
