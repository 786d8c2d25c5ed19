"""Friedman and Popescu's H² against its mathematics and its definition."""

import numpy as np
import pandas as pd
import pytest
from known_functions import KnownFunction, additive, product
from numpy.testing import assert_allclose
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from inspectwidgets import interaction_strength

ROUNDING = 1e-12


def test_additive_model_has_no_interaction():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(120, 3))
    h = interaction_strength(KnownFunction(additive).fit(X), X, pairs="all")
    assert len(h) == 3 + 3
    assert_allclose(h["h_squared"], 0, atol=ROUNDING)
    assert h.attrs == {
        "n_samples": 120,
        "n_predictions": 120**2 * 6,
        "algorithm": "generic",
    }


def test_product_of_symmetric_independent_features_is_pure_interaction():
    """f = x1 x2 with x1 and x2 independent and each sample exactly symmetric
    (every value with its negative): PD_1(x1) = x1 mean(x2) = 0 and
    PD_2 = 0, so H²_12 = sum F12² / sum F12² = 1, and so are H²_1 and H²_2,
    up to the rounding of the means of +-pairs (1e-16 relative): tolerance
    1e-12. x3 does not enter f: H²_3 = 0, and the pair (x1, x3) has a
    partial dependence of 0 (up to rounding), so its H² is 0/0: NaN."""
    rng = np.random.RandomState(0)
    u, v = rng.uniform(0.1, 1, 100), rng.uniform(0.1, 1, 100)
    x1 = np.concatenate([u, -u])
    x2 = rng.permutation(np.concatenate([v, -v]))
    X = np.column_stack([x1, x2, rng.normal(size=200)])
    h = interaction_strength(KnownFunction(product).fit(X), X, n_samples=None)
    h = h.set_index(["kind", "feature", "partner"])["h_squared"]
    assert_allclose(h[("pair", "x0", "x1")], 1, atol=1e-12)
    assert_allclose(h[("one_vs_rest", "x0", np.nan)], 1, atol=1e-12)
    assert_allclose(h[("one_vs_rest", "x1", np.nan)], 1, atol=1e-12)
    assert_allclose(h[("one_vs_rest", "x2", np.nan)], 0, atol=1e-12)
    assert np.isnan(h[("pair", "x0", "x2")])
    assert np.isnan(h[("pair", "x1", "x2")])


def test_product_on_a_random_sample_follows_the_closed_form():
    """Without exact symmetry, the centred PDs are F_1 = (x1 - m1) m2 and
    F_2 = m1 (x2 - m2), so with u = (x1 - m1)(x2 - m2),
    H²_12 = sum (u - mean u)² / sum (x1 x2 - mean(x1 x2))², below 1 by
    O(1/n): only rounding separates the two."""
    rng = np.random.RandomState(3)
    X = rng.normal(loc=0.3, size=(150, 2))
    h = interaction_strength(KnownFunction(product).fit(X), X, n_samples=None)
    x1, x2 = X.T
    u = (x1 - x1.mean()) * (x2 - x2.mean())
    f = x1 * x2
    expected = ((u - u.mean()) ** 2).sum() / ((f - f.mean()) ** 2).sum()
    pair = h.loc[h["kind"] == "pair", "h_squared"].item()
    assert_allclose(pair, expected, rtol=1e-10)
    assert pair < 1


def _brute_h2(model, X, response):
    """Eq. 44 and 46 written out: every partial dependence at every data point
    by its own loop over the rows."""
    n, p = X.shape

    def pd_at(columns, i):
        copy = X.copy()
        copy[:, columns] = X[i, columns]
        return response(model, copy).mean(axis=0)

    def centred(values):
        values = np.array(values)
        return values - values.mean(axis=0)

    f = centred(response(model, X))
    single = {j: centred([pd_at([j], i) for i in range(n)]) for j in range(p)}
    rest = {
        j: centred([pd_at([c for c in range(p) if c != j], i) for i in range(n)])
        for j in range(p)
    }
    one = {j: ((f - single[j] - rest[j]) ** 2).sum(0) / (f**2).sum(0) for j in range(p)}
    pairs = {}
    for j in range(p):
        for k in range(j + 1, p):
            both = centred([pd_at([j, k], i) for i in range(n)])
            pairs[j, k] = ((both - single[j] - single[k]) ** 2).sum(0) / (both**2).sum(
                0
            )
    return one, pairs


@pytest.mark.parametrize("algorithm", ["tree", "generic"])
def test_classifier_log_odds_equals_the_definition(algorithm):
    rng = np.random.RandomState(0)
    X = rng.normal(size=(300, 3)).astype(np.float32).astype(np.float64)
    y = (X[:, 0] * X[:, 1] + X[:, 2] > 0).astype(int) + (X[:, 2] > 1)
    model = RandomForestClassifier(20, max_depth=5, random_state=0).fit(X, y)
    h = interaction_strength(
        model, X, pairs="all", n_samples=25, random_state=4, scale="log_odds",
        algorithm=algorithm,
    )  # fmt: skip
    rows = np.sort(np.random.RandomState(4).choice(300, 25, replace=False))

    def log_odds(m, data):
        log_p = np.log(np.clip(m.predict_proba(data), np.finfo(float).eps, 1))
        return log_p - log_p.mean(axis=1, keepdims=True)

    one, pairs = _brute_h2(model, X[rows], log_odds)
    for (kind, feature, partner, output), value in h.set_index(
        ["kind", "feature", "partner", "output"]
    )["h_squared"].items():
        j = int(feature[1:])
        if kind == "one_vs_rest":
            expected = one[j][output]
        else:
            expected = pairs[j, int(partner[1:])][output]
        assert_allclose(value, expected, rtol=1e-9)
    assert set(h["output"]) == {0, 1, 2}


def test_default_pairs_are_among_the_top_five_features():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(60, 7))

    def function(X):
        return X[:, 0] * X[:, 1] + X[:, 2] * X[:, 3] + X[:, 4] * X[:, 5] * 0.1 + X[:, 6]

    h = interaction_strength(KnownFunction(function).fit(X), X)
    one = h[h["kind"] == "one_vs_rest"].set_index("feature")["h_squared"]
    top = set(one.sort_values(ascending=False).index[:5])
    pairs = h[h["kind"] == "pair"]
    assert len(pairs) == 10
    assert set(pairs["feature"]) | set(pairs["partner"]) == top
    assert "x6" not in top  # additive: H²_6 = 0


def test_bad_input_is_refused_and_x_is_untouched():
    X = pd.DataFrame(np.random.RandomState(0).normal(size=(30, 3)), columns=list("abc"))
    before = X.copy()
    model = KnownFunction(additive).fit(X)
    with pytest.raises(ValueError, match="n_samples must be None or an int >= 2"):
        interaction_strength(model, X, n_samples=1)
    with pytest.raises(ValueError, match=r"pairs\[0\] names the same column"):
        interaction_strength(model, X, pairs=[("a", "a")])
    with pytest.raises(ValueError, match="pairs must be None, 'all'"):
        interaction_strength(model, X, pairs="some")
    with pytest.raises(ValueError, match=r"features\[0\]: unknown feature 'z'"):
        interaction_strength(model, X, features=["z"])
    with pytest.raises(ValueError, match="algorithm='tree'"):
        interaction_strength(model, X, algorithm="tree")
    interaction_strength(model, X, pairs=[("a", "c")])
    pd.testing.assert_frame_equal(X, before)


def test_pipeline_on_a_frame_equals_the_definition():
    from sklearn.compose import ColumnTransformer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    rng = np.random.RandomState(0)
    frame = pd.DataFrame(
        {
            "age": rng.uniform(20, 70, 200),
            "city": rng.choice(["lyon", "nice", "paris"], 200),
            "income": rng.lognormal(size=200),
        }
    )
    y = frame["age"] / 50 * (frame["city"] == "nice") + frame["income"] > 1.5
    pre = ColumnTransformer(
        [
            ("num", StandardScaler(), ["age", "income"]),
            ("cat", OneHotEncoder(), ["city"]),
        ]
    )
    model = make_pipeline(pre, LogisticRegression()).fit(frame, y.astype(int))
    before = frame.copy()
    h = interaction_strength(model, frame, pairs="all", n_samples=20, random_state=1)
    pd.testing.assert_frame_equal(frame, before)
    rows = np.sort(np.random.RandomState(1).choice(200, 20, replace=False))
    data = frame.iloc[rows].reset_index(drop=True)

    def pd_at(columns):
        values = []
        for i in range(len(data)):
            copy = data.copy()
            for c in columns:
                copy[c] = data[c].iloc[i]
            values.append(model.predict_proba(copy)[:, 1].mean())
        values = np.array(values)
        return values - values.mean()

    f = model.predict_proba(data)[:, 1]
    f = f - f.mean()
    single = {c: pd_at([c]) for c in frame.columns}
    both = pd_at(["age", "city"])
    expected = ((both - single["age"] - single["city"]) ** 2).sum() / (both**2).sum()
    pair = h.set_index(["kind", "feature", "partner"])["h_squared"]
    assert_allclose(pair[("pair", "age", "city")], expected, rtol=1e-9)
    rest = pd_at(["income", "city"])  # PD on all but age, at each row
    expected = ((f - single["age"] - rest) ** 2).sum() / (f**2).sum()
    assert_allclose(pair[("one_vs_rest", "age", np.nan)], expected, rtol=1e-9)


def test_n_top_chooses_how_many_features_pair_up():
    import numpy as np
    import pytest
    from sklearn.base import BaseEstimator, RegressorMixin

    from inspectwidgets import interaction_strength

    class Products(RegressorMixin, BaseEstimator):
        """x0 x1 + x2 x3 (x2 x3 weaker) + x4: two interacting pairs."""

        def fit(self, X, y):
            self.n_features_in_ = 5
            return self

        def predict(self, X):
            X = np.asarray(X, dtype=float)
            return X[:, 0] * X[:, 1] + 0.5 * X[:, 2] * X[:, 3] + X[:, 4]

    X = np.random.default_rng(0).uniform(-1, 1, size=(200, 5))
    model = Products().fit(X, None)
    two = interaction_strength(model, X, n_top=2, n_samples=60, random_state=0)
    pairs = two[two["kind"] == "pair"]
    assert pairs[["feature", "partner"]].values.tolist() == [["x0", "x1"]]
    four = interaction_strength(model, X, n_top=4, n_samples=60, random_state=0)
    pairs = four[four["kind"] == "pair"]
    assert len(pairs) == 6
    assert set(pairs.iloc[0][["feature", "partner"]]) in ({"x0", "x1"}, {"x2", "x3"})
    assert pairs.iloc[-1]["h_squared"] < 1e-6  # x0 with x2: no interaction
    for bad in (1, 2.0, True):
        with pytest.raises(ValueError, match="n_top must be an int >= 2"):
            interaction_strength(model, X, n_top=bad, n_samples=20)


@pytest.mark.parametrize("algorithm", ["auto", "linear"])
def test_linear_shortcut_equals_the_definition(algorithm):
    """A multinomial logistic regression behind a scaler: its softmax makes
    interactions in probability, which the linear shortcut (X's decisions
    plus the donor columns' contribution, then the model's softmax) gives."""
    rng = np.random.RandomState(0)
    X = rng.normal(size=(300, 3))
    y = (X[:, 0] * X[:, 1] + X[:, 2] > 0).astype(int) + (X[:, 2] > 1)
    model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X, y)
    h = interaction_strength(
        model, X, pairs="all", n_samples=25, random_state=4, algorithm=algorithm
    )
    assert h.attrs["algorithm"] == "linear"
    rows = np.sort(np.random.RandomState(4).choice(300, 25, replace=False))
    one, pairs = _brute_h2(model, X[rows], lambda m, data: m.predict_proba(data))
    for (kind, feature, partner, output), value in h.set_index(
        ["kind", "feature", "partner", "output"]
    )["h_squared"].items():
        j = int(feature[1:])
        if kind == "one_vs_rest":
            expected = one[j][output]
        else:
            expected = pairs[j, int(partner[1:])][output]
        assert_allclose(value, expected, rtol=1e-9)


def test_linear_regression_has_no_interaction_through_the_shortcut():
    """Additive in every feature: H² is 0 up to rounding (Friedman and
    Popescu's numerator vanishes)."""
    rng = np.random.RandomState(1)
    X = rng.normal(size=(200, 4))
    model = LinearRegression().fit(X, X @ [1.0, -2.0, 0.5, 3.0])
    h = interaction_strength(model, X, pairs="all", n_samples=40, random_state=0)
    assert h.attrs["algorithm"] == "linear"
    assert (h["h_squared"] < 1e-20).all()
