"""What each importance measure says about the same model, side by side."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.utils import Bunch

from .._core.hints import Data, Estimator, RandomState
from .._core.validation import check_columns, check_fitted, check_X
from .._permutation import PermutationImportanceResult, permutation_importance
from .model_measures import (
    impurity_columns,
    missing_measures_note,
    own_columns,
)
from .own_importances import OWN_MEASURES

# Flags are joined with "; " in the table's notes, so none contains one.
NEGATIVE = (
    "negative test importance: permuting it improved the held-out score in "
    "every plausible repeat (its whole interval is below 0). The repeats vary "
    "the shuffles, not the held-out rows: check other rows (cross-validated "
    "importance) before concluding that the model's use of it hurts on new data"
)
OVERFIT = (
    "train importance far above test: the model relies on it much more on its "
    "training data than on new data (overfitting)"
)
INFLATED_MDI = (
    "high MDI but test permutation importance indistinguishable from zero: "
    "impurity importance favours features with many distinct values and is "
    "computed on training data, where the model may have overfitted"
)

#: Half-width of a permutation measure's interval, in standard deviations over
#: the repeats: an interval of mean ± 2 std holds about 95% of repeats (for
#: roughly normal spreads).
INTERVAL_STDS = 2

#: Repeats an interval needs. The std's relative error is about
#: 1/sqrt(2(n - 1)): above 25% below 10 repeats, and with discrete scores a few
#: repeats often agree exactly (breast cancer, 3 repeats of accuracy: 2 or 3
#: features with a std of 0), an interval of no width that proves nothing.
MIN_INTERVAL_REPEATS = 10

#: The measures a comparison table can be sorted by, and their columns.
SortBy: TypeAlias = Literal[
    "permutation_test",
    "permutation_train",
    "mdi",
    "relative_importance",
    "gain",
    "split_count",
    "prediction_values_change",
]
SORT_COLUMNS = {
    "permutation_test": "permutation_test_mean",
    "permutation_train": "permutation_train_mean",
    "mdi": "mdi",
    "relative_importance": "relative_importance",
    # The boosting libraries' own measures, where the model has them.
    **{key: key for key, _, _ in OWN_MEASURES},
}

#: Which intervals each flag rests on (measure keys), shown beside it.
FLAG_EVIDENCE = {
    NEGATIVE: ("permutation_test",),
    OVERFIT: ("permutation_train", "permutation_test"),
    INFLATED_MDI: ("permutation_test",),
}


def compare_importances(
    estimator: Estimator,
    X_train: Data,
    y_train: ArrayLike,
    X_test: Data,
    y_test: ArrayLike,
    *,
    scoring: str | Callable[..., Any] | None = None,
    n_repeats: int = 30,
    random_state: RandomState = None,
    n_jobs: int | None = None,
    sample_weight_train: ArrayLike | None = None,
    sample_weight_test: ArrayLike | None = None,
    sort_by: SortBy = "permutation_test",
) -> pd.DataFrame:
    """MDI, relative importance and permutation importance (train and test) of
    one fitted model, with plain-language flags where the evidence shows they
    disagree.

    Impurity-based measures (MDI, ESL's relative importance) are read from the
    trees and reflect the training data; permutation importance on the test
    data measures what the model needs to generalize. Each permutation measure
    gets an interval, mean ± 2 std over the repeats (``INTERVAL_STDS``), and a
    flag is raised only where its interval is the evidence:

    - high MDI while the test interval includes 0 (MDI's bias towards
      high-cardinality features, or overfitting);
    - train importance above twice the test importance and above it by more
      than twice their combined std (overfitting);
    - negative test importance only when the whole test interval lies below 0
      (a negative mean whose interval reaches 0 is no evidence either way).

    Intervals need ``MIN_INTERVAL_REPEATS`` (10) repeats: with fewer, the std
    is too unreliable to rest a flag on, and none is raised.

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
    n_repeats : int, default=30
        Permutations per feature on each set. The intervals rest on the std
        over repeats, whose relative error is about 1/sqrt(2(n_repeats - 1)):
        50% with 3 repeats, 24% with 10 and 13% with 30. With discrete
        scores such as accuracy, a few repeats also often agree exactly,
        giving a std of 0 and an interval of no width. Hence 30 rather than
        scikit-learn's 5 for :func:`permutation_importance`.
    random_state, n_jobs
        As in :func:`permutation_importance` (both sets use the same seed).
    sample_weight_train, sample_weight_test : array-like, default=None
        Weights for scoring each set.
    sort_by : {"permutation_test", "permutation_train", "mdi", \
            "relative_importance", "gain", "split_count", \
            "prediction_values_change"}, default="permutation_test"
        The measure whose values order the rows, largest first (features
        without that measure last, in X's order).

    Returns
    -------
    DataFrame
        One row per feature of X, sorted by `sort_by`: ``mdi``,
        ``relative_importance`` (0-100), ``permutation_train_mean``,
        ``permutation_train_std``, ``permutation_train_low``,
        ``permutation_train_high`` (the interval), the same four for
        ``permutation_test``, ``rank_mdi``, ``rank_permutation_test``
        (1 = most important) and ``notes`` (flags, "; "-separated; the
        intervals they rest on are the ``_low`` and ``_high`` columns).
        The boosting libraries' own measures follow ``relative_importance``
        (NaN for other models): for a LightGBM or XGBoost model (alone or
        ending a pipeline), whose MDI and relative importance are NaN,
        ``gain`` (share of the total split gain) and ``split_count`` (share
        of the splits); for CatBoost, ``prediction_values_change`` (share of
        its total). The table's
        ``attrs["note"]`` says in a sentence why MDI and relative importance
        are missing, where they are.
        Intervals (and so flags) need ``MIN_INTERVAL_REPEATS`` (10) repeats;
        with fewer they are NaN.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.ensemble import RandomForestRegressor
    >>> from sklearn.model_selection import train_test_split
    >>> from inspectwidgets import compare_importances
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    >>> forest = RandomForestRegressor(n_estimators=20, max_depth=4, random_state=0)
    >>> forest = forest.fit(X_train, y_train)
    >>> table = compare_importances(
    ...     forest, X_train, y_train, X_test, y_test, n_repeats=10, random_state=0
    ... )
    >>> table[["rank_mdi", "rank_permutation_test"]].head(3)
             rank_mdi  rank_permutation_test
    feature
    bmi           1.0                    1.0
    s5            2.0                    2.0
    bp            3.0                    3.0
    """
    plan = plan_comparison(estimator, X_train, X_test, scoring=scoring, sort_by=sort_by)
    kwargs: dict[str, Any] = dict(
        scoring=scoring, n_repeats=n_repeats, random_state=random_state, n_jobs=n_jobs
    )
    train = permutation_importance(
        estimator, plan.X_train, y_train, sample_weight=sample_weight_train, **kwargs
    )
    test = permutation_importance(
        estimator, plan.X_test, y_test, sample_weight=sample_weight_test, **kwargs
    )
    return plan.frame(test, train, sort_by)


@dataclass(frozen=True, eq=False)
class ComparisonPlan:
    """A comparison checked, its impurity columns read once: what stays the
    same while the permutation measures are computed (the widget streams
    them, and rebuilds the table from `frame` at every snapshot)."""

    X_train: object
    X_test: object
    mdi: np.ndarray
    """MDI per raw column of X (NaN without a tree model)."""
    relative: np.ndarray
    """ESL relative importance per raw column of X, 0-100 (NaN likewise)."""
    own: dict[str, np.ndarray]
    """The boosting library's own measures per raw column of X (shares), by
    key of ``OWN_MEASURES``; empty for other models."""
    note: str
    """Why MDI and relative importance are missing, and what stands in
    their place, in a sentence ("" where they are there)."""

    def frame(self, test, train, sort_by, conditional=None):
        """The comparison table from the test and train permutation results
        so far: PermutationImportanceResult (possibly partial) or
        permutation_importance's Bunch; `train` None before it starts (its
        columns NaN). `conditional`, a conditional permutation result on the
        test rows, adds its ``permutation_conditional_*`` columns."""
        test = _as_bunch(test)
        train = _missing(test) if train is None else _as_bunch(train)
        frame = comparison_frame(
            test.feature_names,
            self.mdi,
            self.relative,
            train,
            test,
            own=self.own,
            # The marginal order until there is a conditional measure.
            sort_by="permutation_test" if sort_by == CONDITIONAL else sort_by,
        )
        if conditional is not None:
            frame = with_conditional(frame, _as_bunch(conditional), sort_by)
        frame.attrs["note"] = self.note
        return frame


def plan_comparison(estimator, X_train, X_test, *, scoring, sort_by):
    """Check a comparison's arguments and read its impurity columns, before
    any permutation."""
    X_train, X_test = check_comparison_inputs(estimator, X_train, X_test, scoring)
    check_sort_by(sort_by)
    n_columns = X_train.shape[1]
    mdi, relative = impurity_columns(estimator, n_columns)
    own = own_columns(estimator, n_columns)
    note = missing_measures_note(estimator, n_columns, own)
    return ComparisonPlan(X_train, X_test, mdi, relative, own, note)


def _as_bunch(result):
    if isinstance(result, PermutationImportanceResult):
        return result.to_bunch()
    return result


def _missing(result):
    """NaN importances shaped like `result`'s, for a measure not computed
    yet."""
    nan = np.full(len(result.feature_names), np.nan)
    return Bunch(importances_mean=nan, importances_std=nan)


def check_sort_by(sort_by):
    if sort_by not in SORT_COLUMNS:
        raise ValueError(
            f"sort_by must be one of {', '.join(map(repr, SORT_COLUMNS))}; "
            f"got {sort_by!r}."
        )
    return sort_by


def check_comparison_inputs(estimator, X_train, X_test, scoring):
    """Validate what a comparison needs; return X_train and X_test checked."""
    check_fitted(estimator)
    if isinstance(scoring, (list, tuple, set, dict)):
        raise ValueError(
            "scoring: a comparison uses one scorer; got several. "
            "Compare once per scorer."
        )
    X_train = check_columns(estimator, check_X(X_train), "X_train")
    X_test = check_columns(estimator, check_X(X_test), "X_test")
    if X_train.shape[1] != X_test.shape[1]:
        raise ValueError(
            f"X_train has {X_train.shape[1]} columns but X_test has "
            f"{X_test.shape[1]}; pass the same features."
        )
    return X_train, X_test


def comparison_frame(feature_names, mdi, relative, train, test, sort_by, own=None):
    """The comparison table from impurity columns, the library's `own`
    measures (NaN columns where the model has none) and two permutation
    results (train and test, possibly partial), with intervals, ranks and
    flags, sorted by `sort_by` (a key of ``SORT_COLUMNS``)."""
    import pandas as pd

    own = own or {}
    nan = np.full(len(mdi), np.nan)
    frame = pd.DataFrame(
        {
            "feature": list(feature_names),
            "mdi": mdi,
            "relative_importance": relative,
            **{key: own.get(key, nan) for key, _, _ in OWN_MEASURES},
        }
    )
    for name, result in (("permutation_train", train), ("permutation_test", test)):
        low, high = permutation_interval(result)
        frame[f"{name}_mean"] = result.importances_mean
        frame[f"{name}_std"] = result.importances_std
        frame[f"{name}_low"] = low
        frame[f"{name}_high"] = high
    frame["rank_mdi"] = frame["mdi"].rank(ascending=False, method="min")
    frame["rank_permutation_test"] = frame["permutation_test_mean"].rank(
        ascending=False, method="min"
    )
    frame["notes"] = [_notes(row, len(frame)) for row in frame.itertuples()]
    return frame.sort_values(
        SORT_COLUMNS[sort_by], ascending=False, kind="stable", na_position="last"
    ).set_index("feature")


CONDITIONAL = "permutation_conditional"
"""The key of a conditional permutation measure on the test rows, which the
comparison widget adds beside the marginal one (and may sort by)."""


def with_conditional(frame, conditional, sort_by):
    """`frame` with the conditional result's mean, std and interval columns
    (its features named as the frame's), sorted again by `sort_by`."""
    low, high = permutation_interval(conditional)
    names = [str(name) for name in conditional.feature_names]
    columns = pd.DataFrame(
        {
            f"{CONDITIONAL}_mean": conditional.importances_mean,
            f"{CONDITIONAL}_std": conditional.importances_std,
            f"{CONDITIONAL}_low": low,
            f"{CONDITIONAL}_high": high,
        },
        index=pd.Index(names, name=frame.index.name),
    )
    frame = frame.join(columns)
    if sort_by != CONDITIONAL:
        return frame
    return frame.sort_values(
        f"{CONDITIONAL}_mean", ascending=False, kind="stable", na_position="last"
    )


def permutation_interval(result):
    """``(low, high)``: mean ± ``INTERVAL_STDS`` std over the repeats of a
    permutation result (its ``importances`` of shape (n_features, n_done)),
    NaN with fewer than ``MIN_INTERVAL_REPEATS`` repeats done."""
    mean, std = result.importances_mean, result.importances_std
    importances = getattr(result, "importances", None)
    if importances is None or np.shape(importances)[1] < MIN_INTERVAL_REPEATS:
        nan = np.full(np.shape(mean), np.nan)
        return nan, nan
    return mean - INTERVAL_STDS * std, mean + INTERVAL_STDS * std


def _notes(row, n_features):
    notes = []
    test_includes_zero = row.permutation_test_low <= 0 <= row.permutation_test_high
    if (
        not np.isnan(row.mdi)
        and row.mdi >= 1 / n_features
        and row.rank_mdi <= max(1, n_features // 2)
        and test_includes_zero
    ):
        notes.append(INFLATED_MDI)
    spread = np.hypot(row.permutation_train_std, row.permutation_test_std)
    intervals_known = not (
        np.isnan(row.permutation_train_low) or np.isnan(row.permutation_test_low)
    )
    if (
        intervals_known
        and row.permutation_train_mean > 2 * max(row.permutation_test_mean, 0)
        and row.permutation_train_mean - row.permutation_test_mean
        > INTERVAL_STDS * spread
    ):
        notes.append(OVERFIT)
    if row.permutation_test_high < 0:
        notes.append(NEGATIVE)
    return "; ".join(notes)
