"""What each importance measure says about the same model, side by side."""

import numpy as np
from sklearn.pipeline import Pipeline

from .._core.pipeline import columnwise_view
from .._core.validation import check_fitted, check_X
from .._permutation import permutation_importance
from .impurity import (
    impurity_importance,
    is_tree_model,
    relative_importance,
    scale_to_100,
)

# Flags are joined with "; " in the table's notes, so none contains one.
NEGATIVE = (
    "negative test importance: permuting it improved the held-out score, so the "
    "model does not rely on it there (the value is noise)"
)
OVERFIT = (
    "train importance far above test: the model relies on it much more on its "
    "training data than on new data (overfitting)"
)
INFLATED_MDI = (
    "high MDI but test permutation importance near zero: impurity importance "
    "favours features with many distinct values and is computed on training "
    "data, where the model may have overfitted"
)


def _tree_model_and_columns(estimator, n_columns):
    """The tree model behind `estimator` and, per raw column of X, the model's
    input features it becomes (None where that is not known exactly)."""
    model, output_columns = estimator, None
    if isinstance(estimator, Pipeline):
        view = columnwise_view(estimator, n_columns)
        if view is None:
            return None, None
        model, output_columns = view.model, view.output_columns
    elif getattr(model, "n_features_in_", None) == n_columns:
        output_columns = [[c] for c in range(n_columns)]
    if not is_tree_model(model):
        return None, None
    return model, output_columns


def _per_raw_column(values, output_columns, combine):
    return np.array(
        [combine(values[list(cols)]) if cols else 0.0 for cols in output_columns]
    )


def compare_importances(
    estimator,
    X_train,
    y_train,
    X_test,
    y_test,
    *,
    scoring=None,
    n_repeats=10,
    random_state=None,
    n_jobs=None,
    sample_weight_train=None,
    sample_weight_test=None,
):
    """MDI, relative importance and permutation importance (train and test) of
    one fitted model, with plain-language flags where they disagree.

    Impurity-based measures (MDI, ESL's relative importance) are read from the
    trees and reflect the training data; permutation importance on the test
    data measures what the model needs to generalize. Their disagreements are
    flagged: high MDI with no test importance (MDI's bias towards
    high-cardinality features, or overfitting), train importance far above
    test importance (overfitting), negative test importance (noise).

    Parameters
    ----------
    estimator : fitted estimator
        For the impurity columns, a tree model (DecisionTree*, RandomForest*,
        ExtraTrees*, GradientBoosting*, HistGradientBoosting*) or a Pipeline
        of a column-wise ColumnTransformer and such a model (MDI of one-hot
        columns is summed per raw column). Otherwise those columns are NaN.
    X_train, y_train, X_test, y_test : data the model was fitted on, and
        held-out data.
    scoring : str, callable or None, default=None
        One scorer, as in :func:`permutation_importance`.
    n_repeats, random_state, n_jobs
        As in :func:`permutation_importance` (both sets use the same seed).
    sample_weight_train, sample_weight_test : array-like, default=None
        Weights for scoring each set.

    Returns
    -------
    DataFrame
        One row per feature of X, sorted by test permutation importance:
        ``mdi``, ``relative_importance`` (0-100), ``permutation_train_mean``,
        ``permutation_train_std``, ``permutation_test_mean``,
        ``permutation_test_std``, ``rank_mdi``, ``rank_permutation_test``
        (1 = most important) and ``notes`` (flags, "; "-separated).
    """
    X_train, X_test = check_comparison_inputs(estimator, X_train, X_test, scoring)
    kwargs = dict(
        scoring=scoring, n_repeats=n_repeats, random_state=random_state, n_jobs=n_jobs
    )
    train = permutation_importance(
        estimator, X_train, y_train, sample_weight=sample_weight_train, **kwargs
    )
    test = permutation_importance(
        estimator, X_test, y_test, sample_weight=sample_weight_test, **kwargs
    )
    mdi, relative = impurity_columns(estimator, X_train.shape[1])
    return comparison_frame(test.feature_names, mdi, relative, train, test)


def check_comparison_inputs(estimator, X_train, X_test, scoring):
    """Validate what a comparison needs; return X_train and X_test checked."""
    check_fitted(estimator)
    if isinstance(scoring, (list, tuple, set, dict)):
        raise ValueError(
            "scoring: a comparison uses one scorer; got several. "
            "Compare once per scorer."
        )
    X_train, X_test = check_X(X_train), check_X(X_test)
    if X_train.shape[1] != X_test.shape[1]:
        raise ValueError(
            f"X_train has {X_train.shape[1]} columns but X_test has "
            f"{X_test.shape[1]}; pass the same features."
        )
    return X_train, X_test


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


def comparison_frame(feature_names, mdi, relative, train, test):
    """The comparison table from impurity columns and two permutation Bunches
    (train and test, possibly partial), with ranks and flags."""
    import pandas as pd

    frame = pd.DataFrame(
        {
            "feature": list(feature_names),
            "mdi": mdi,
            "relative_importance": relative,
            "permutation_train_mean": train.importances_mean,
            "permutation_train_std": train.importances_std,
            "permutation_test_mean": test.importances_mean,
            "permutation_test_std": test.importances_std,
        }
    )
    frame["rank_mdi"] = frame["mdi"].rank(ascending=False, method="min")
    frame["rank_permutation_test"] = frame["permutation_test_mean"].rank(
        ascending=False, method="min"
    )
    frame["notes"] = [_notes(row, len(frame)) for row in frame.itertuples()]
    return frame.sort_values(
        "permutation_test_mean", ascending=False, kind="stable"
    ).set_index("feature")


def _notes(row, n_features):
    notes = []
    test_significant = row.permutation_test_mean - 2 * row.permutation_test_std > 0
    if (
        not np.isnan(row.mdi)
        and row.mdi >= 1 / n_features
        and row.rank_mdi <= max(1, n_features // 2)
        and not test_significant
    ):
        notes.append(INFLATED_MDI)
    spread = np.hypot(row.permutation_train_std, row.permutation_test_std)
    if (
        row.permutation_train_mean > 2 * max(row.permutation_test_mean, 0)
        and row.permutation_train_mean - row.permutation_test_mean > 2 * spread
    ):
        notes.append(OVERFIT)
    if row.permutation_test_mean < 0:
        notes.append(NEGATIVE)
    return "; ".join(notes)


MEASURES = (
    ("mdi", "MDI (train, impurity)", None),
    ("relative_importance", "ESL relative importance", None),
    ("permutation_train_mean", "Permutation (train)", "permutation_train_std"),
    ("permutation_test_mean", "Permutation (test)", "permutation_test_std"),
)


def normalized_measures(frame):
    """Each available measure of a comparison table scaled by its largest
    absolute value, so all fit on [-1, 1]: ``[(column, label, values, std)]``
    with `std` None for the impurity measures."""
    measures = []
    for column, label, std_column in MEASURES:
        values = frame[column].to_numpy(dtype=float)
        if np.isnan(values).all():
            continue
        scale = np.nanmax(np.abs(values)) or 1.0
        std = (
            None
            if std_column is None
            else frame[std_column].to_numpy(dtype=float) / scale
        )
        measures.append((column, label, values / scale, std))
    return measures
