"""The rules tree_rules writes select exactly their leaf's rows, read back by
the cohort rule language, on columns where 4 significant digits are not
enough: values apart in their 6th to 9th digit, 1e6 to 1e12 and 1e-6
magnitudes, negatives, ties, nullable Int64 / Float64 with NA, and float64
values that the trees' float32 reads as one. The rows a rule must select
are each caller's own: the subgroup codes of conditional importance, the
leaf rows of ICE clusters (and scikit-learn's tree.apply on all of X)."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.tree import DecisionTreeClassifier

from inspectwidgets import Cohort, ice_clusters, partial_dependence
from inspectwidgets.inspection._core.rule_inputs import ColumnCoding
from inspectwidgets.inspection._permutation.subgroups import (
    SubgroupSettings,
    fit_subgroups,
)


def adversarial_frame(n=600, seed=0):
    rng = np.random.default_rng(seed)
    # Pairs of float64 values one float32 apart or less: the trees read
    # each pair as one value, a cohort as two.
    base = rng.uniform(1, 2, 12).astype(np.float32).astype(np.float64)
    collapsing = np.concatenate([base, base + 1e-9, base - 1e-9])
    count = pd.array(100_000_000 + rng.integers(0, 40, n), dtype="Int64")
    count[rng.random(n) < 0.1] = pd.NA  # above 2**24: float32 merges neighbours
    amount = pd.array(rng.normal(0, 1, n) * 1e-3 + 5.0, dtype="Float64")
    amount[rng.random(n) < 0.1] = pd.NA
    close = 10_001 + rng.integers(0, 9, n) + rng.integers(0, 5, n) * 1e-4
    close[rng.random(n) < 0.05] = np.nan
    return pd.DataFrame(
        {
            "x": rng.uniform(-1, 1, n),
            "close": close,  # 10001.0001 vs 10001.0002: the 9th digit
            "ratio": 0.123456 + rng.integers(0, 8, n) * 1e-6,  # the 6th-7th
            "big": np.round(10 ** rng.uniform(6, 12, n)),
            "tiny": rng.uniform(1e-6, 2e-6, n),
            "debt": -1e7 - rng.integers(0, 20, n) * 0.5,
            "ties": rng.choice([-2.5, 0.0, 3.25], n),
            "collapsing": rng.choice(collapsing, n),
            "count": count,
            "amount": amount,
            "plan": pd.Categorical(rng.choice(["free", "pro", "team"], n)),
        }
    )


def assert_rules_select(X, rules, codes):
    """Each rule's cohort is exactly the rows whose code is its position."""
    for position, rule in enumerate(rules):
        assert_array_equal(Cohort("c", rule).mask(X), codes == position, err_msg=rule)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("separate_fit_rows", [False, True])
def test_every_subgroup_rule_selects_its_subgroup(seed, separate_fit_rows):
    X = adversarial_frame(seed=seed)
    # Trees fitted on other rows are applied to X: X's values fall where
    # no training value was.
    X_fit = adversarial_frame(seed=seed + 10) if separate_fit_rows else X
    before = X.copy()
    names = list(X.columns)
    settings = SubgroupSettings(max_depth=4, min_samples_leaf=5, alpha=1.0)
    features = [[p] for p in range(X.shape[1])]
    fitted = fit_subgroups(X, X_fit, names, features, settings, seed)
    assert sum(len(f.rules) for f in fitted) > 5 * len(features)
    for feature in fitted:
        assert_rules_select(X, feature.rules, feature.codes)
    pd.testing.assert_frame_equal(X, before)


class SignsModel(RegressorMixin, BaseEstimator):
    """x's slope set by the signs of the other columns against their
    medians (fitted): curves of many shapes, told apart by X."""

    def fit(self, X, y=None):
        self.medians_ = X.drop(columns=["x", "plan"]).astype(float).median()
        return self

    def predict(self, X):
        others = X.drop(columns=["x", "plan"]).astype(float)
        above = (others > self.medians_).to_numpy()
        slope = above[:, :4].sum(axis=1) - above[:, 4:].sum(axis=1)
        return slope * X["x"].to_numpy(dtype=float)


@pytest.mark.parametrize("seed", range(3))
def test_every_ice_cluster_rule_selects_its_leaf_on_all_of_X(seed):
    X = adversarial_frame(seed=seed)
    model = SignsModel().fit(X)
    result = partial_dependence(
        model, X, ["x"], kind="both", grid_resolution=5, n_ice=300,
        random_state=seed, return_result=True,
    )  # fmt: skip
    clusters = ice_clusters(result, X, max_depth=4, random_state=seed)
    pairs = [
        (rule.rule, positions)
        for rules, members in zip(clusters.rules, clusters.rule_rows, strict=True)
        for rule, positions in zip(rules, members, strict=True)
    ]
    assert len(pairs) >= 4
    # The tree ice_clusters fits on the curves' rows, applied to every row of
    # X: a cohort made of a rule is drawn from all of them.
    rows = X.iloc[result.ice_rows]
    coding = ColumnCoding(rows, list(X.columns))
    kept = coding.other_columns({0})
    tree = DecisionTreeClassifier(max_depth=4, random_state=seed)
    tree.fit(coding.inputs(rows)[:, kept], clusters.labels)
    leaf_of_row = tree.apply(coding.inputs(X)[:, kept])
    for rule, positions in pairs:
        mask = Cohort("c", rule).mask(X)
        assert_array_equal(np.flatnonzero(mask[result.ice_rows]), positions, rule)
        leaf = leaf_of_row[result.ice_rows[positions[0]]]
        assert_array_equal(mask, leaf_of_row == leaf, err_msg=rule)


def test_a_value_float32_rounds_onto_the_threshold_goes_where_the_tree_sends_it():
    from inspectwidgets.inspection._core.tree_rules import threshold_text

    # A tree fitted on 1 and 2 splits at 1.5; 1.5 + 1e-9 is 1.5 in float32,
    # so it goes left, though it is above 1.5.
    distinct = np.array([1.0, 1.5 + 1e-9, 2.0])
    compared = distinct.astype(np.float32).astype(np.float64)
    text = threshold_text(1.5, distinct, compared)
    assert (distinct <= float(text)).tolist() == (compared <= 1.5).tolist()
    assert text == "1.6"


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([3, 7, 14, 15, 20], "14"),  # integers: an integer
        ([0.5, 37.2, 37.3], "37.2"),
        ([-15.0, -14.0], "-15"),
        ([10_001.0, 10_002.0], "10001"),
        ([0.123456, 0.123459], "0.123457"),
        ([3.0, 100.0], "50"),  # far apart: the coarsest near the split
        ([1e12, 1e12 + 2**17], "1e+12"),
    ],
)
def test_thresholds_are_the_shortest_decimal_between_the_sides(values, expected):
    from inspectwidgets.inspection._core.tree_rules import threshold_text

    distinct = np.array(values, dtype=np.float64)
    compared = distinct.astype(np.float32).astype(np.float64)
    # The tree's split between the two middle values, as scikit-learn
    # computes it from the float32 values.
    middle = len(values) // 2 - (len(values) % 2 == 0)
    threshold = compared[middle] / 2 + compared[middle + 1] / 2
    assert threshold_text(threshold, distinct, compared) == expected


def test_nice_data_read_nicely():
    rng = np.random.default_rng(0)
    n = 400
    X = pd.DataFrame(
        {
            "tenure": rng.integers(0, 60, n),
            "age": rng.integers(18, 80, n).astype(float),
            "plan": rng.choice(["free", "pro"], n),
        }
    )
    X.loc[::17, "age"] = np.nan
    y_like = X.assign(income=(X["tenure"] > 14) * 10.0 + rng.normal(0, 1, n))
    settings = SubgroupSettings(max_depth=2, min_samples_leaf=20, alpha=0.05)
    fitted = fit_subgroups(y_like, y_like, list(y_like.columns), [[3]], settings, 0)
    rules = fitted[0].rules
    assert rules[0].startswith("tenure <= 14"), rules
    assert rules[-1].startswith("tenure > 14"), rules
    # Every number written is an integer: the columns hold integers.
    for rule in rules:
        numbers = [w for w in rule.replace("(", " ").split() if w[0].isdigit()]
        assert all(w.isdigit() for w in numbers), rule
