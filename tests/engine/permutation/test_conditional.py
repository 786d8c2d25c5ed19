"""Conditional permutation importance (cs-PFI) against the mathematics:
scikit-learn's marginal numbers where a feature keeps one subgroup, the
conditional importance of a redundant feature near zero, agreement with the
marginal one under independence, and within-subgroup permutations that are
uniform permutations of each subgroup."""

import itertools
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.ensemble import RandomForestRegressor
from sklearn.inspection import permutation_importance as sklearn_permutation_importance
from sklearn.linear_model import Ridge

from inspectwidgets import (
    Subgroup,
    conditional_permutation_importance,
    permutation_importance,
)
from inspectwidgets.inspection._permutation.schedule import within_subgroups

from numerics import assert_blas_close


def independent_data(n=600, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n, 4)), columns=["a", "b", "c", "d"])
    y = 2 * X["a"] + X["b"] - X["c"] + 0.3 * rng.normal(size=n)
    return X, y


def redundant_data(n=2000, seed=0):
    """x2 = x1 + small noise; y depends on x1 only; x3 is independent."""
    rng = np.random.default_rng(seed)
    x1 = rng.normal(size=n)
    X = pd.DataFrame(
        {
            "x1": x1,
            "x2": x1 + 0.1 * rng.normal(size=n),
            "x3": rng.normal(size=n),
        }
    )
    y = 2 * x1 + 0.5 * X["x3"] + 0.2 * rng.normal(size=n)
    return X, y


# (4): a feature nothing predicts keeps one subgroup, and then exactly the
# marginal numbers of scikit-learn itself, from the same random_state.


@pytest.mark.parametrize("random_state", [0, 7])
def test_unpredicted_features_get_sklearns_numbers(random_state):
    X, y = independent_data()
    model = Ridge(alpha=1.0).fit(X, y)
    got = conditional_permutation_importance(
        model, X, y, n_repeats=6, random_state=random_state
    )
    assert got.subgroups == {c: (Subgroup("all rows", len(X)),) for c in X.columns}
    expected = sklearn_permutation_importance(
        model, X, y, n_repeats=6, random_state=random_state
    )
    # A linear model: BLAS on the path (tests/numerics.py).
    assert_blas_close(got.importances, expected.importances)


def test_a_random_state_instance_draws_as_sklearn_draws():
    X, y = independent_data(seed=1)
    model = RandomForestRegressor(n_estimators=10, random_state=0).fit(X, y)
    got = conditional_permutation_importance(
        model, X, y, n_repeats=4, random_state=np.random.RandomState(3)
    )
    expected = sklearn_permutation_importance(
        model, X, y, n_repeats=4, random_state=np.random.RandomState(3)
    )
    # A forest: comparisons and sums in a fixed order, exact.
    assert_array_equal(got.importances, expected.importances)


def test_the_unpredicted_feature_beside_conditional_ones_is_sklearns():
    X, y = redundant_data(n=800)
    model = RandomForestRegressor(n_estimators=10, random_state=0).fit(X, y)
    got = conditional_permutation_importance(
        model, X, y, n_repeats=5, random_state=0, return_result=True
    )
    assert len(got.subgroups["x1"]) > 1 and len(got.subgroups["x2"]) > 1
    assert got.subgroups["x3"] == (Subgroup("all rows", len(X)),)
    expected = sklearn_permutation_importance(model, X, y, n_repeats=5, random_state=0)
    assert_array_equal(got.importances()[2], expected.importances[2])
    assert not np.array_equal(got.importances()[:2], expected.importances[:2])


# (2): x2 = x1 + noise and y depends on x1 only, a model using both.


def test_redundant_feature_has_no_conditional_importance():
    X, y = redundant_data()
    # max_features=1: every split picks x1, x2 or x3 at random, so the
    # forest uses x2 as much as x1.
    model = RandomForestRegressor(
        n_estimators=50, max_features=1, min_samples_leaf=5, random_state=0
    ).fit(X, y)
    kwargs = dict(n_repeats=10, random_state=0)
    marginal = permutation_importance(model, X, y, **kwargs)
    conditional = conditional_permutation_importance(model, X, y, **kwargs)
    m, c = marginal.importances_mean, conditional.importances_mean
    se = marginal.importances_std / np.sqrt(10)
    # Marginally, permuting x2 breaks the rows (x2 far from x1) and the
    # forest's x2 splits: clearly above zero.
    assert m[1] > 0.1 and m[1] > 20 * se[1]
    # Within x1's subgroups x2 moves by the subgroup's width (about a tenth
    # of x1's spread): the forest's x2 splits barely notice. The exact
    # conditional importance (x2 drawn from P(x2 | x1, x3)) would be of the
    # order of the noise's 0.1 against x2's 1 of spread.
    assert c[1] < 0.1 * m[1]
    # x1 given x2 keeps x1's information that x2 does not carry: smaller
    # than its marginal importance, still clearly there.
    assert c[0] < 0.5 * m[0]
    assert c[0] > c[1]
    # x3 is predicted by nothing: its marginal numbers.
    assert c[2] == m[2]


# (1): independent features: conditional equals marginal within the
# repeats' noise.


def test_independent_features_conditional_is_marginal_within_noise():
    X, y = independent_data(n=2000)
    X_fit, _ = independent_data(n=2000, seed=1)
    model = Ridge(alpha=1.0).fit(X, y)
    n_repeats = 40
    kwargs = dict(n_repeats=n_repeats, random_state=0)
    marginal = permutation_importance(model, X, y, **kwargs)
    # alpha=1 keeps every split CART makes, so the features are permuted
    # within subgroups indeed; trees fitted on other rows (X_fit) make
    # subgroups independent of X's values, so under independence each
    # subgroup's values are a random sample of the feature's: the same
    # expected importance. A subgroup of m rows has an expected spread
    # (m - 1) / m of the whole's, a bias under 1% for m >= 100 here.
    conditional = conditional_permutation_importance(
        model, X, y, alpha=1.0, X_fit=X_fit, min_samples_leaf=100, **kwargs
    )
    assert all(len(s) >= 8 for s in conditional.subgroups.values())
    difference = conditional.importances_mean - marginal.importances_mean
    # Four standard errors of a difference of two means of n_repeats draws,
    # and the subgroups' 1% bias.
    bound = 4 * np.sqrt(
        (conditional.importances_std**2 + marginal.importances_std**2) / n_repeats
    ) + 0.01 * np.abs(marginal.importances_mean)
    assert (np.abs(difference) <= bound).all(), (difference, bound)


# The within-subgroup permutation itself.


def test_within_subgroups_permutes_each_subgroup_uniformly():
    codes = np.array([1, 0, 1, 0, 1, 2])
    order = (codes, np.argsort(codes, kind="stable"))
    rng = np.random.RandomState(0)
    n_draws = 12_000
    seen = Counter()
    for _ in range(n_draws):
        within = within_subgroups(rng.permutation(6), order)
        # A permutation that keeps every row in its subgroup.
        assert sorted(within) == list(range(6))
        assert_array_equal(codes[within], codes)
        seen[tuple(within)] += 1
    # Subgroups of 2, 3 and 1 rows: 2! * 3! = 12 permutations, equally
    # likely. Counts are binomial(n_draws, 1/12): 1000 +- 29 (one sd).
    assert len(seen) == 12
    assert all(abs(count - 1000) < 5 * 29 for count in seen.values()), seen


def test_within_one_subgroup_is_the_permutation_itself():
    permutation = np.random.RandomState(1).permutation(50)
    order = (np.zeros(50, dtype=np.intp), np.arange(50))
    assert_array_equal(within_subgroups(permutation, order), permutation)


def test_within_subgroups_are_independent_of_each_other():
    """Each pair of arrangements of two subgroups is equally likely (the
    rank of a subgroup's rows in a uniform permutation says nothing of the
    other subgroup's)."""
    codes = np.array([0, 0, 0, 1, 1, 1])
    order = (codes, np.argsort(codes, kind="stable"))
    rng = np.random.RandomState(2)
    pairs = Counter()
    for _ in range(7_200):
        within = within_subgroups(rng.permutation(6), order)
        pairs[(tuple(within[:3]), tuple(within[3:]))] += 1
    arrangements = list(itertools.permutations(range(3)))
    assert len(pairs) == len(arrangements) ** 2  # 36, each 200 +- 14 (sd)
    assert all(abs(c - 200) < 5 * 14 for c in pairs.values())
