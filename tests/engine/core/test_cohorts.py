"""The cohort rule language: masks against pandas written independently,
round trips of the rules tree_rules writes, and its errors."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.tree import DecisionTreeClassifier

from inspectwidgets import Cohort, cohort_labels
from inspectwidgets.inspection._core.cohort_rules import parse_rule
from inspectwidgets.inspection._core.rule_inputs import ColumnCoding
from inspectwidgets.inspection._core.tree_rules import RuleValues, leaf_rule


def messy_frame(n=200, seed=0):
    rng = np.random.default_rng(seed)
    age = rng.integers(18, 80, n).astype(float)
    age[rng.random(n) < 0.1] = np.nan
    plan = rng.choice(["free", "pro", "team"], n).astype(object)
    plan[rng.random(n) < 0.1] = None
    visits = pd.array(rng.integers(0, 9, n), dtype="Int64")
    visits[rng.random(n) < 0.1] = pd.NA
    churned = pd.array(rng.random(n) < 0.3, dtype="boolean")
    churned[rng.random(n) < 0.1] = pd.NA
    return pd.DataFrame(
        {
            "age": age,
            "plan": plan,
            "visits": visits,
            "churned": churned,
            "region": pd.Categorical(rng.choice(["north", "south"], n)),
            "tenure months": rng.integers(0, 60, n),
            "score": pd.array(rng.normal(size=n), dtype="Float64"),
        }
    )


# Rules, and the pandas query selecting the same rows: a missing value meets
# no comparison, so `!=` and `not in` add `.notna()` where pandas keeps them.
QUERIES = [
    ("age < 30 and plan == 'pro'", "age < 30 and plan == 'pro'"),
    ("age >= 50", "age >= 50"),
    ("age != 40", "age != 40 and age.notna()"),
    ("plan != 'free'", "plan != 'free' and plan.notna()"),
    ("plan in ['pro', 'team']", "plan in ['pro', 'team']"),
    ("plan not in ['pro']", "plan not in ['pro'] and plan.notna()"),
    ("age is missing", "age.isna()"),
    ("plan is not missing and age > 60", "plan.notna() and age > 60"),
    ("region = 'north'", "region == 'north'"),
    ("tenure months <= 12", "`tenure months` <= 12"),
    ("`tenure months` > 12 or age < 20", "`tenure months` > 12 or age < 20"),
    ("20 < age <= 40", "20 < age <= 40"),
    (
        "(age < 25 or age > 70) and plan = 'pro'",
        "(age < 25 or age > 70) and plan == 'pro'",
    ),
]


@pytest.mark.parametrize(("rule", "query"), QUERIES)
def test_masks_equal_pandas_query(rule, query):
    X = messy_frame()
    before = X.copy()
    expected = X.index.isin(X.query(query).index)
    assert_array_equal(Cohort("c", rule).mask(X), expected)
    pd.testing.assert_frame_equal(X, before)


def test_nullable_columns_never_match_where_missing():
    X = messy_frame()
    visits = X["visits"].astype(float)  # pd.NA as NaN, numbers as they are
    assert_array_equal(Cohort("c", "visits >= 3").mask(X), (visits >= 3).to_numpy())
    assert_array_equal(
        Cohort("c", "visits != 3").mask(X),
        ((visits != 3) & visits.notna()).to_numpy(),
    )
    churned = X["churned"].astype(object)
    assert_array_equal(
        Cohort("c", "churned == True").mask(X),
        (churned == True).to_numpy(),  # noqa: E712
    )
    assert_array_equal(
        Cohort("c", "churned = False").mask(X),
        (churned == False).to_numpy(),  # noqa: E712
    )
    score = X["score"].astype(float)
    assert_array_equal(Cohort("c", "score > 0.5").mask(X), (score > 0.5).to_numpy())


def test_numpy_with_feature_names_and_integers():
    X = messy_frame()
    array = X[["age", "tenure months"]].to_numpy()
    mask = Cohort("c", "age < 30 and tenure months > 10").mask(
        array, feature_names=["age", "tenure months"]
    )
    expected = (array[:, 0] < 30) & (array[:, 1] > 10)
    assert_array_equal(mask, expected)
    text = np.array([["a", 1], ["b", 2], [None, 3]], dtype=object)
    mask = Cohort("c", "x0 != 'a' and x1 >= 2").mask(text)
    assert_array_equal(mask, [False, True, False])  # None meets no "!="


def test_category_of_numbers_compares_by_text():
    X = pd.DataFrame({"code": pd.Categorical([3, 4, 3, None])})
    assert_array_equal(Cohort("c", "code == 3").mask(X), [True, False, True, False])
    assert_array_equal(
        Cohort("c", "code in ['4']").mask(X), [False, True, False, False]
    )


def test_labels_first_cohort_wins_and_the_rest():
    X = messy_frame()
    labels = cohort_labels(X, {"young": "age < 30", "pro": "plan == 'pro'"})
    young = (X["age"] < 30).to_numpy()
    pro = (X["plan"] == "pro").to_numpy()
    expected = np.where(young, "young", np.where(pro, "pro", "rest"))
    assert_array_equal(labels.astype(str), expected)
    same = cohort_labels(
        X, [Cohort("young", "age < 30"), {"name": "pro", "rule": "plan == 'pro'"}]
    )
    assert_array_equal(same, labels)


def tree_rules_of(X, seed):
    """Every leaf's rule as tree_rules writes it, and its rows."""
    names = list(map(str, X.columns))
    coding = ColumnCoding(X, names)
    inputs = coding.inputs(X)
    target = np.random.default_rng(seed).integers(0, 3, len(X))
    target[X["age"].fillna(0).to_numpy() > 50] = 1  # some structure to split
    tree = DecisionTreeClassifier(max_depth=4, random_state=seed).fit(inputs, target)
    values = RuleValues(coding, (X,))
    every_input = range(len(coding.columns))
    leaf_of_row = tree.apply(inputs)
    for leaf in np.unique(leaf_of_row):
        yield (
            leaf_rule(tree.tree_, leaf, every_input, values),
            leaf_of_row == leaf,
        )


@pytest.mark.parametrize("seed", range(6))
def test_the_rules_tree_rules_writes_select_their_leaf(seed):
    # Integers and categories: thresholds between integers print as integers.
    X = messy_frame(seed=seed).drop(columns="score")
    rules = list(tree_rules_of(X, seed))
    assert len(rules) > 2
    for rule, rows in rules:
        assert_array_equal(Cohort("leaf", rule).mask(X), rows, err_msg=rule)


def test_all_rows():
    X = messy_frame()
    assert Cohort("c", "all rows").mask(X).all()


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ("agee < 30", r"'agee' is not a column of X; columns are \['age', 'plan'"),
        ("age << 30", r"expected a number, True, False or a quoted text.*'<'"),
        ("age < pro", r"quoted text \('pro'\).*'pro' at position 6"),
        ("age < 30 and", "found the end"),
        ("age < 30 plan", r"expected \"and\", \"or\" or the end.*'plan'"),
        ("age ~ 3", r"expected a comparison.*'~'"),
        ("age < 'x'", r"'age' is numeric; compare it with a number, not the text 'x'"),
        ("plan < 'pro'", r"'plan' holds text or categories; '<' orders numbers only"),
        ("age == nan", r"is missing"),
        ("(age < 3", r"\"\)\" closing"),
        ("age in []", "at least one value"),
        ("", "an empty rule"),
        ("`age", "a closing backtick"),
        ("30 < age > 50", "the same direction"),
    ],
)
def test_bad_rules_name_the_token(rule, message):
    X = messy_frame()
    with pytest.raises(ValueError, match=message):
        Cohort("c", rule).mask(X)


def test_bad_cohorts():
    with pytest.raises(ValueError, match="'rest' names the rows in no cohort"):
        Cohort("rest", "age < 3")
    with pytest.raises(TypeError, match="rule must be a str; got 3"):
        Cohort("a", 3)
    with pytest.raises(ValueError, match=r"names must be unique; \['a'\] repeat"):
        cohort_labels(messy_frame(), [Cohort("a", "age < 3"), Cohort("a", "age > 3")])
    with pytest.raises(TypeError, match="a dict {name: rule} or a list"):
        cohort_labels(messy_frame(), "age < 3")
    with pytest.raises(ValueError, match="feature_names: 1 names for X's 2 columns"):
        Cohort("a", "x < 3").mask(np.zeros((2, 2)), feature_names=["x"])


def test_parse_accepts_keywords_in_any_case_and_longest_names():
    tree = parse_rule("a b < 3 AND a IS MISSING", ["a", "a b"])
    assert [c.name for c in tree.parts] == ["a b", "a"]


def test_an_infinite_number_is_a_number_and_missing_is_only_missing():
    X = pd.DataFrame({"x": [np.inf, -np.inf, 1.0, np.nan]})
    assert_array_equal(Cohort("c", "x > 5").mask(X), [True, False, False, False])
    assert_array_equal(Cohort("c", "x is missing").mask(X), [False, False, False, True])
    assert_array_equal(Cohort("c", "x == inf").mask(X), [True, False, False, False])


def test_every_ice_cluster_rule_selects_its_rows():
    from sklearn.ensemble import HistGradientBoostingRegressor

    from inspectwidgets import ice_clusters, partial_dependence

    rng = np.random.default_rng(0)
    n = 400
    X = pd.DataFrame(
        {
            "x": rng.uniform(-1, 1, n),
            "age": rng.integers(18, 80, n).astype(float),
            "plan": pd.Categorical(rng.choice(["basic", "pro", "team"], n)),
            "seats": pd.array(rng.integers(0, 5, n), dtype="Int64"),
        }
    )
    X.loc[::13, "age"] = np.nan
    y = np.where((X["age"].fillna(50) < 40) | (X["plan"] == "pro"), X["x"], -X["x"])
    model = HistGradientBoostingRegressor(
        categorical_features="from_dtype", random_state=0
    ).fit(X, y)
    result = partial_dependence(
        model,
        X,
        ["x"],
        kind="both",
        n_ice=None,
        grid_resolution=10,
        return_result=True,
    )
    clusters = ice_clusters(result, X, random_state=0)
    pairs = [
        (rule.rule, rows)
        for rules, members in zip(clusters.rules, clusters.rule_rows, strict=True)
        for rule, rows in zip(rules, members, strict=True)
    ]
    assert len(pairs) >= 2
    for rule, rows in pairs:
        expected = np.zeros(n, dtype=bool)
        expected[rows] = True
        assert_array_equal(Cohort("leaf", rule).mask(X), expected, err_msg=rule)


def test_a_column_of_only_missing_values_meets_nothing():
    X = pd.DataFrame({"plan": pd.Series([None, None], dtype=object), "x": [1.0, 2.0]})
    assert not Cohort("c", "plan != 'pro'").mask(X).any()
    assert Cohort("c", "plan is missing").mask(X).all()
