"""Conditional permutation importance as a run: messy data, groups,
subsamples, streaming, cancel, the tree shortcut, threads, bad arguments."""

import threading

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.compose import make_column_transformer
from sklearn.ensemble import HistGradientBoostingRegressor, RandomForestRegressor
from sklearn.inspection import permutation_importance as sklearn_permutation_importance
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, OrdinalEncoder

from inspectwidgets import (
    Subgroup,
    conditional_permutation_importance,
    iter_conditional_permutation_importance,
    permutation_importance,
)


def correlated_frame(n=900, seed=0):
    rng = np.random.default_rng(seed)
    x1 = rng.normal(size=n)
    X = pd.DataFrame(
        {
            "x1": x1,
            "x2": x1 + 0.1 * rng.normal(size=n),
            "x3": rng.normal(size=n),
        }
    )
    return X, 2 * x1 + X["x3"] + 0.2 * rng.normal(size=n)


@pytest.fixture(scope="module")
def forest_run():
    X, y = correlated_frame()
    model = RandomForestRegressor(n_estimators=8, random_state=0).fit(X, y)
    return model, X, y


def messy_frame(n=1200, seed=0):
    """NaN, nullable Int64/Float64/boolean, strings and categories, each
    column predicted by another (so each has subgroups to find)."""
    rng = np.random.default_rng(seed)
    age = rng.normal(40, 10, n)
    member = rng.random(n) < 0.5
    city = np.where(
        member,
        rng.choice(["paris", "lyon"], n, p=[0.9, 0.1]),
        rng.choice(["paris", "lyon"], n, p=[0.1, 0.9]),
    ).astype(object)
    income = age * 1000 + rng.normal(0, 2000, n)
    X = pd.DataFrame(
        {
            "age": np.where(rng.random(n) < 0.1, np.nan, age),
            "income": pd.array(income, dtype="Float64"),
            "children": pd.array(np.round(age / 10), dtype="Int64"),
            "member": pd.array(member, dtype="boolean"),
            "city": city,
            "plan": pd.Categorical(np.where(income > 45_000, "pro", "free")),
        }
    )
    X.loc[rng.random(n) < 0.05, "income"] = pd.NA
    X.loc[rng.random(n) < 0.05, "children"] = pd.NA
    X.loc[rng.random(n) < 0.05, "member"] = pd.NA
    X.loc[rng.random(n) < 0.05, "city"] = None
    y = age / 10 + (city == "paris") + (income > 45_000) + rng.normal(0, 0.3, n)
    return X, y


def as_floats(frame):
    return frame.astype("float64")


def messy_model(X, y):
    encode = make_column_transformer(
        (
            OrdinalEncoder(
                handle_unknown="use_encoded_value",
                unknown_value=-1,
                encoded_missing_value=-2,
            ),
            ["city", "plan"],
        ),
        (FunctionTransformer(as_floats), ["age", "income", "children", "member"]),
    )
    return make_pipeline(encode, HistGradientBoostingRegressor(max_iter=30)).fit(X, y)


def test_messy_data_gives_finite_importances_and_readable_subgroups():
    X, y = messy_frame()
    model = messy_model(X, y)
    before = X.copy()
    result = conditional_permutation_importance(
        model, X, y, n_repeats=3, random_state=0, return_result=True
    )
    pd.testing.assert_frame_equal(X, before)
    assert np.isfinite(result.importances()).all()
    groups = result.subgroups
    # Every row of X is in one subgroup of each feature.
    assert all(sum(s.size for s in g) == len(X) for g in groups.values())
    # Numeric from numeric (a regression tree through NaN in age).
    assert len(groups["income"]) > 1
    assert all("age" in s.rule for s in groups["income"])
    assert any("age is missing" in s.rule for s in groups["income"])
    # Nullable integers, from numbers.
    assert len(groups["children"]) > 1
    # A boolean and a string, as classes, from each other's categories.
    assert len(groups["member"]) > 1
    assert any("city = 'paris'" in s.rule for s in groups["member"])
    assert len(groups["city"]) > 1
    assert any("member" in s.rule for s in groups["city"])
    # A category from the numbers it is cut from.
    assert len(groups["plan"]) > 1


def test_x_fit_fits_the_trees_and_x_is_permuted(forest_run):
    model, X, y = forest_run
    X_fit, _ = correlated_frame(seed=1)
    got = conditional_permutation_importance(
        model, X, y, n_repeats=2, random_state=0, X_fit=X_fit
    )
    assert [sum(s.size for s in g) for g in got.subgroups.values()] == [len(X)] * 3
    same_rows = conditional_permutation_importance(
        model, X, y, n_repeats=2, random_state=0
    )
    assert got.subgroups["x1"] != same_rows.subgroups["x1"]


def test_groups_are_predicted_together(forest_run):
    model, X, y = forest_run
    features = {"pair": ["x1", "x2"], "x3": ["x3"], "x1 and x3": ["x1", "x3"]}
    got = conditional_permutation_importance(
        model, X, y, n_repeats=3, random_state=0, features=features
    )
    marginal = permutation_importance(
        model, X, y, n_repeats=3, random_state=0, features=features
    )
    # Nothing predicts the pair from x3: one subgroup, the marginal numbers
    # (the same code, chunks and bits).
    assert got.subgroups["pair"] == (Subgroup("all rows", len(X)),)
    assert_array_equal(got.importances[0], marginal.importances[0])
    # x2 predicts x1 (a multi-output tree for x1 and x3).
    assert len(got.subgroups["x1 and x3"]) > 1
    assert got.importances_mean[2] < marginal.importances_mean[2]


def test_subsampled_rows_are_permuted_within_their_subgroups(forest_run):
    model, X, y = forest_run
    got = conditional_permutation_importance(
        model, X, y, n_repeats=3, random_state=0, max_samples=300
    )
    assert [sum(s.size for s in g) for g in got.subgroups.values()] == [300] * 3
    expected = sklearn_permutation_importance(
        model, X, y, n_repeats=3, random_state=0, max_samples=300
    )
    assert_array_equal(got.importances[2], expected.importances[2])


def test_same_random_state_same_everything(forest_run):
    model, X, y = forest_run
    kwargs = dict(n_repeats=3, random_state=4, return_result=True)
    a = conditional_permutation_importance(model, X, y, **kwargs)
    b = conditional_permutation_importance(model, X, y, **kwargs)
    assert a.subgroups == b.subgroups
    assert_array_equal(a.importances(), b.importances())


@pytest.mark.parametrize(
    "kwargs", [dict(algorithm="generic"), dict(n_jobs=2), dict(max_memory=1)]
)
def test_tree_walk_threads_and_chunks_give_the_same_bits(forest_run, kwargs):
    model, X, y = forest_run
    base = dict(n_repeats=3, random_state=0)
    reference = conditional_permutation_importance(
        model, X, y, algorithm="tree", **base
    )
    got = conditional_permutation_importance(model, X, y, **base, **kwargs)
    assert_array_equal(got.importances, reference.importances)
    assert got.subgroups == reference.subgroups


def test_stream_ends_in_the_one_shot_result_and_cancel_keeps_rounds(forest_run):
    model, X, y = forest_run
    rounds = list(
        iter_conditional_permutation_importance(
            model, X, y, n_repeats=3, random_state=0
        )
    )
    assert [r.n_repeats_done for r in rounds] == [1, 2, 3]
    assert all(r.subgroups == rounds[-1].subgroups for r in rounds)
    final = conditional_permutation_importance(
        model, X, y, n_repeats=3, random_state=0, return_result=True
    )
    assert_array_equal(rounds[-1].importances(), final.importances())
    cancel = threading.Event()

    def stop(result):
        if result.n_repeats_done == 1:
            cancel.set()

    partial = conditional_permutation_importance(
        model,
        X,
        y,
        n_repeats=20,
        random_state=0,
        callback=stop,
        cancel=cancel,
        return_result=True,
    )
    assert 1 <= partial.n_repeats_done < 20
    assert partial.subgroups == final.subgroups
    assert_array_equal(partial.importances()[:, :1], final.importances()[:, :1])


def test_held_out_resamples_and_selection_keep_the_subgroups(forest_run):
    model, X, y = forest_run
    got = conditional_permutation_importance(
        model, X, y, n_repeats=3, random_state=0, n_bootstrap=20
    )
    assert got.interval.shape == (3, 2)
    result = conditional_permutation_importance(
        model, X, y, n_repeats=3, random_state=0, return_result=True
    )
    picked = result.select([(2,)], ["score"], ["third"])
    assert picked.subgroups == {"third": result.subgroups["x3"]}


def test_rules_are_intervals_on_the_predicting_feature(forest_run):
    model, X, y = forest_run
    got = conditional_permutation_importance(model, X, y, n_repeats=1, random_state=0)
    rules = [s.rule for s in got.subgroups["x2"]]
    assert rules[0].startswith("x1 <= ") and rules[-1].startswith("x1 > ")
    # Within a subgroup, x1 stays in its interval: check it on the rows.
    for subgroup in got.subgroups["x2"]:
        inside = X.eval(subgroup.rule.replace(" < x1 <= ", " < x1 and x1 <= ")).sum()
        assert inside == subgroup.size


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(max_depth=0), "max_depth must be an int >= 1 or None; got 0"),
        (dict(max_depth=2.5), "max_depth"),
        (dict(min_samples_leaf=0), "min_samples_leaf must be an int >= 1"),
        (dict(min_samples_leaf=1.5), "min_samples_leaf"),
        (dict(alpha=1.5), r"alpha must be a float in \[0, 1\]; got 1.5"),
        (dict(alpha="0.05"), "alpha"),
        (dict(max_fit_samples=1), "max_fit_samples must be an int >= 2 or None"),
        (dict(max_fit_samples=0.5), "max_fit_samples"),
        (dict(X_fit=np.zeros((5, 2))), "X_fit has 2 columns; it needs X's 3"),
        (dict(X_fit=np.zeros((5, 3))), "X_fit must be a DataFrame with X's columns"),
    ],
)
def test_bad_settings_are_refused_by_name(forest_run, kwargs, message):
    model, X, y = forest_run
    with pytest.raises(ValueError, match=message):
        conditional_permutation_importance(model, X, y, **kwargs)


def test_x_fit_is_not_modified(forest_run):
    model, X, y = forest_run
    X_fit, _ = messy_frame(300)
    X_fit = X_fit[["age", "income", "children"]].set_axis(["x1", "x2", "x3"], axis=1)
    before = X_fit.copy()
    conditional_permutation_importance(model, X, y, n_repeats=1, X_fit=X_fit)
    pd.testing.assert_frame_equal(X_fit, before)


def test_trees_fit_on_a_reproducible_subsample_of_x_fit(forest_run):
    model, X, y = forest_run
    kwargs = dict(n_repeats=2, random_state=0, return_result=True)
    whole = conditional_permutation_importance(model, X, y, **kwargs)
    assert (
        whole.subgroups
        == conditional_permutation_importance(
            model, X, y, max_fit_samples=None, **kwargs
        ).subgroups
    )
    sampled = conditional_permutation_importance(
        model, X, y, max_fit_samples=300, **kwargs
    )
    again = conditional_permutation_importance(
        model, X, y, max_fit_samples=300, **kwargs
    )
    assert sampled.subgroups == again.subgroups
    assert sampled.subgroups["x2"] != whole.subgroups["x2"]
    # Fitted on 300 rows, the subgroups still cover X's rows, with fewer
    # splits kept (min_samples_leaf=30 of 300 rows).
    assert sum(s.size for s in sampled.subgroups["x2"]) == len(X)
    assert 1 < len(sampled.subgroups["x2"]) <= len(whole.subgroups["x2"])
    # The permutations do not depend on the subsample: x3, alone, is marginal.
    assert_array_equal(sampled.importances()[2], whole.importances()[2])


def test_features_with_nothing_to_learn_from_keep_one_subgroup():
    """A group of an all-missing category and a constant column, a column
    missing in every row: nothing to fit, one subgroup each."""
    X, y = correlated_frame(200)
    X["empty"] = pd.Series([None] * 200, dtype=object)
    X["constant"] = 1.0
    X["nan"] = np.nan
    model = make_pipeline(
        make_column_transformer(("passthrough", ["x1", "x2", "x3"])),
        RandomForestRegressor(n_estimators=3, random_state=0),
    ).fit(X, y)
    features = {"group": ["empty", "constant"], "nan": ["nan"], "x2": ["x2"]}
    got = conditional_permutation_importance(
        model, X, y, n_repeats=2, random_state=0, features=features
    )
    assert got.subgroups["group"] == (Subgroup("all rows", 200),)
    assert got.subgroups["nan"] == (Subgroup("all rows", 200),)
    assert len(got.subgroups["x2"]) > 1
    assert np.isfinite(got.importances).all()
