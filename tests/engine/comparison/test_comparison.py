"""compare_importances tells the MDI-vs-permutation story of scikit-learn's example."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.compose import ColumnTransformer
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.impute import SimpleImputer
from sklearn.inspection import permutation_importance as sklearn_permutation_importance
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OrdinalEncoder
from sklearn.utils import Bunch

from inspectwidgets import compare_importances
from inspectwidgets.inspection._comparison.comparison import (
    INFLATED_MDI,
    MIN_INTERVAL_REPEATS,
    NEGATIVE,
    SORT_COLUMNS,
    comparison_frame,
)


def titanic_like(n=1200, seed=0):
    """Passengers whose survival depends on sex, class and age, plus a random
    number and a random category unrelated to it."""
    rng = np.random.default_rng(seed)
    sex = rng.choice(["female", "male"], n)
    pclass = rng.choice(["1", "2", "3"], n, p=[0.25, 0.25, 0.5])
    age = rng.normal(30, 12, n).clip(1, 80)
    age[rng.uniform(size=n) < 0.1] = np.nan
    logit = (
        2.2 * (sex == "female")
        - 0.9 * (pclass == "3")
        - 0.02 * np.nan_to_num(age, nan=30)
    )
    survived = (rng.uniform(size=n) < 1 / (1 + np.exp(-logit))).astype(int)
    X = pd.DataFrame(
        {
            "sex": sex,
            "pclass": pclass,
            "age": age,
            "random_cat": rng.integers(0, 3, n).astype(str),
            "random_num": rng.normal(size=n),
        }
    )
    return X, survived


@pytest.fixture(scope="module")
def fitted():
    X, y = titanic_like()
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, stratify=y, random_state=0
    )
    categorical = ["sex", "pclass", "random_cat"]
    numerical = ["age", "random_num"]
    model = Pipeline(
        [
            (
                "preprocess",
                ColumnTransformer(
                    [
                        ("cat", OrdinalEncoder(), categorical),
                        ("num", SimpleImputer(strategy="mean"), numerical),
                    ]
                ),
            ),
            ("forest", RandomForestClassifier(n_estimators=60, random_state=0)),
        ]
    ).fit(X_train, y_train)
    return model, X_train, X_test, y_train, y_test


def test_mdi_inflates_the_random_number_permutation_does_not(fitted):
    model, X_train, X_test, y_train, y_test = fitted
    table = compare_importances(model, X_train, y_train, X_test, y_test, random_state=0)
    # MDI of the forest's inputs, mapped back through the ColumnTransformer.
    forest_mdi = model[-1].feature_importances_
    order = ["sex", "pclass", "random_cat", "age", "random_num"]
    assert_allclose(table.loc[order, "mdi"], forest_mdi)
    expected_test = sklearn_permutation_importance(
        model, X_test, y_test, n_repeats=30, random_state=0
    )
    # A forest predicts each row alike in any batch: the very same numbers.
    assert_array_equal(
        table.loc[list(X_test.columns), "permutation_test_mean"].to_numpy(),
        expected_test.importances_mean,
    )
    assert table.loc["random_num", "rank_mdi"] <= 3  # high-cardinality bias
    for random_feature in ("random_num", "random_cat"):
        row = table.loc[random_feature]
        # Not distinguishable from zero on held-out data.
        assert row.permutation_test_low <= 0 <= row.permutation_test_high
    assert INFLATED_MDI in table.loc["random_num", "notes"]
    assert table.index[0] == "sex"
    assert table.loc["sex", "relative_importance"] <= 100


def test_models_without_trees_get_no_impurity_columns(fitted):
    _, X_train, X_test, y_train, y_test = fitted
    numeric = ["age", "random_num"]
    model = Pipeline(
        [("impute", SimpleImputer()), ("logistic", LogisticRegression())]
    ).fit(X_train[numeric], y_train)
    table = compare_importances(
        model, X_train[numeric], y_train, X_test[numeric], y_test, n_repeats=2
    )
    assert table["mdi"].isna().all() and table["relative_importance"].isna().all()


def test_one_scorer_only(fitted):
    model, X_train, X_test, y_train, y_test = fitted
    with pytest.raises(ValueError, match="a comparison uses one scorer"):
        compare_importances(
            model, X_train, y_train, X_test, y_test, scoring=["accuracy", "roc_auc"]
        )


def permutation_bunch(importances):
    importances = np.asarray(importances, dtype=float)
    return Bunch(
        importances=importances,
        importances_mean=importances.mean(axis=1),
        importances_std=importances.std(axis=1),
    )


def test_flags_need_their_interval_as_evidence():
    rng = np.random.default_rng(0)
    noise = rng.normal(size=10)
    noise = (noise - noise.mean()) / noise.std()  # mean 0, std 1 exactly
    # Test importances: mean -0.5 (interval -2.5..1.5 includes 0), mean -3
    # (interval -5..-1, below 0), and a clear 5 (3..7).
    test = permutation_bunch([noise - 0.5, noise - 3, noise + 5])
    train = permutation_bunch([noise + 1, noise - 3, noise + 5])
    mdi = np.array([0.6, 0.1, 0.3])  # the first: high MDI
    frame = comparison_frame(
        ["noisy", "harmful", "useful"], mdi, mdi, train, test, "permutation_test"
    )
    assert_allclose(frame.loc["noisy", "permutation_test_low"], -2.5)
    assert_allclose(frame.loc["harmful", "permutation_test_high"], -1.0)
    assert_allclose(
        frame["permutation_train_high"] - frame["permutation_train_low"],
        4 * frame["permutation_train_std"],
    )
    assert frame.loc["noisy", "notes"] == INFLATED_MDI  # negative mean, no NEGATIVE
    assert frame.loc["harmful", "notes"] == NEGATIVE
    assert frame.loc["useful", "notes"] == ""
    # Fewer repeats than an interval needs: no interval, so no flag at all.
    few = comparison_frame(
        ["noisy", "harmful", "useful"],
        mdi,
        mdi,
        permutation_bunch(train.importances[:, : MIN_INTERVAL_REPEATS - 1]),
        permutation_bunch(test.importances[:, : MIN_INTERVAL_REPEATS - 1]),
        "permutation_test",
    )
    assert few["permutation_test_low"].isna().all()
    assert (few["notes"] == "").all()


def test_breast_cancer_flags_negative_only_below_zero():
    # With 3 repeats, 12 of 30 features used to be flagged negative, most with
    # an interval reaching 0 (or of no width: three equal accuracy drops).
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    model = RandomForestClassifier(n_estimators=30, random_state=0).fit(
        X_train, y_train
    )
    data = X_train, y_train, X_test, y_test
    few = compare_importances(model, *data, n_repeats=3, random_state=0)
    assert (few["permutation_test_mean"] < 0).sum() > 5
    assert not few["notes"].str.contains(NEGATIVE, regex=False).any()
    table = compare_importances(model, *data, random_state=0)
    negative = table["notes"].str.contains(NEGATIVE, regex=False)
    assert (negative == (table["permutation_test_high"] < 0)).all()
    assert negative.sum() < (table["permutation_test_mean"] < 0).sum()


@pytest.mark.parametrize("sort_by", list(SORT_COLUMNS))
def test_sort_by_orders_the_rows_largest_first(fitted, sort_by):
    model, X_train, X_test, y_train, y_test = fitted
    table = compare_importances(
        model, X_train, y_train, X_test, y_test, n_repeats=2, sort_by=sort_by
    )
    values = table[SORT_COLUMNS[sort_by]].to_numpy()
    known = ~np.isnan(values)
    # Features without the measure (a forest has no split gain) come last,
    # in X's order.
    assert not (known[1:] & ~known[:-1]).any()
    assert (np.diff(values[known]) <= 0).all()
    unknown = list(table.index[~known])
    assert unknown == [c for c in X_train.columns if c in unknown]


def test_sort_by_must_be_a_measure(fitted):
    model, X_train, X_test, y_train, y_test = fitted
    X_before = X_train.copy()
    with pytest.raises(ValueError, match="sort_by must be one of 'permutation_test'"):
        compare_importances(
            model, X_train, y_train, X_test, y_test, n_repeats=2, sort_by="test"
        )
    pd.testing.assert_frame_equal(X_train, X_before)
