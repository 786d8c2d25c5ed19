"""The exact tree H² (partial dependence at the data points through the
trees' structure) against the generic path's n x n predictions.

The exact path adds each tree's leaf values weighted by the background
rows' shares where the generic path averages the copies' predictions: the
same terms in another order, so the statistics agree to rounding
(``assert_blas_close``), not bit for bit. The data are adversarial: values
exactly on the trees' thresholds, missing values, categories, bootstrap
forests, classifiers, weights, pipelines and pandas' nullable dtypes.
"""

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import (
    ExtraTreesRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from inspectwidgets import interaction_strength

from numerics import assert_blas_close


def _both(model, X, algorithm="auto", **kwargs):
    """The statistics by the exact path and by the generic one, checked
    equal; returns the exact path's frame."""
    kwargs = dict(pairs="all", n_samples=None, **kwargs)
    exact = interaction_strength(model, X, algorithm=algorithm, **kwargs)
    generic = interaction_strength(model, X, algorithm="generic", **kwargs)
    assert exact.attrs["algorithm"] == "exact_tree"
    assert exact.attrs["n_predictions"] == 0
    assert generic.attrs["algorithm"] == "generic"
    keys = ["kind", "feature", "partner", "output"]
    exact = exact.sort_values(keys[:2] + ["partner", "output"], kind="stable")
    generic = generic.sort_values(keys[:2] + ["partner", "output"], kind="stable")
    pd.testing.assert_frame_equal(
        exact[keys].reset_index(drop=True), generic[keys].reset_index(drop=True)
    )
    a, b = exact["h_squared"].to_numpy(), generic["h_squared"].to_numpy()
    np.testing.assert_array_equal(np.isnan(a), np.isnan(b))
    assert_blas_close(a[~np.isnan(a)], b[~np.isnan(b)])
    assert np.isfinite(b).any()
    return exact


def _on_thresholds(model, X, rng):
    """X with a third of its values replaced by thresholds the trees split
    their column at, as the float32 the trees compare (``<=``) and its two
    float32 neighbours: both sides of every such comparison."""
    trees = getattr(model, "estimators_", [model])
    trees = np.ravel(trees)
    X = X.copy()
    for column in range(X.shape[1]):
        cuts = np.concatenate(
            [t.tree_.threshold[t.tree_.feature == column] for t in trees]
        )
        if cuts.size:
            cuts = cuts.astype(np.float32)
            cuts = np.concatenate(
                [cuts, np.nextafter(cuts, np.float32(np.inf)),
                 np.nextafter(cuts, np.float32(-np.inf))]
            )  # fmt: skip
            at = rng.rand(len(X)) < 1 / 3
            X[at, column] = rng.choice(cuts, at.sum())
    return X


def _data(n=90, p=4, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, p))
    X[:, 1] = np.round(X[:, 1] * 2) / 2  # ties
    y = X[:, 0] * X[:, 1] + np.sin(X[:, 2]) + 0.5 * X[:, 2] * X[:, 3]
    return rng, X, y


@pytest.mark.parametrize(
    "model",
    [
        DecisionTreeRegressor(max_depth=7, random_state=0),
        RandomForestRegressor(15, max_depth=6, random_state=0),  # bootstrap
        ExtraTreesRegressor(10, max_depth=6, random_state=0),
        GradientBoostingRegressor(n_estimators=25, max_depth=3, random_state=0),
        GradientBoostingRegressor(loss="huber", n_estimators=15, random_state=0),
    ],
    ids=lambda m: type(m).__name__,
)
def test_regressors_on_their_thresholds(model):
    rng, X, y = _data()
    model.fit(X, y)
    _both(model, _on_thresholds(model, X, rng), algorithm="tree")


@pytest.mark.parametrize("loss", ["squared_error", "absolute_error"])
def test_hist_gradient_boosting_with_missing_values_and_categories(loss):
    rng, X, y = _data(120)
    X[:, 3] = rng.randint(0, 6, len(X))  # a categorical column
    X[rng.rand(len(X)) < 0.15, 0] = np.nan
    X[rng.rand(len(X)) < 0.1, 3] = np.nan
    model = HistGradientBoostingRegressor(
        loss=loss, max_iter=30, categorical_features=[3], random_state=0
    ).fit(X, y)
    _both(model, X)


def test_scikit_learn_trees_with_missing_values():
    """Trees and forests that learned where missing values go (scikit-learn
    >= 1.3): the walks send NaN where the fitted nodes do."""
    rng, X, y = _data(120)
    X[rng.rand(len(X)) < 0.2, 1] = np.nan
    X[rng.rand(len(X)) < 0.1, 2] = np.nan
    for model in (
        DecisionTreeRegressor(max_depth=6, random_state=0),
        RandomForestRegressor(10, max_depth=5, random_state=0),
    ):
        _both(model.fit(X, y), X)


def test_forest_classifiers_probabilities_binary_and_multiclass():
    rng, X, y = _data(100)
    binary = (y > 0).astype(int)
    multi = np.digitize(y, [-0.5, 0.5])
    for target in (binary, multi):
        model = RandomForestClassifier(12, max_depth=5, random_state=0)
        frame = _both(model.fit(X, target), _on_thresholds(model, X, rng))
        assert frame["output"].nunique() == (1 if target is binary else 3)
    tree = DecisionTreeClassifier(max_depth=5, random_state=0).fit(X, multi)
    _both(tree, X, classes=[0, 2])


def test_boosting_classifiers_decision_function():
    rng, X, y = _data(100)
    multi = np.digitize(y, [-0.5, 0.5])
    for model in (
        GradientBoostingClassifier(n_estimators=10, random_state=0),
        HistGradientBoostingClassifier(max_iter=15, random_state=0),
    ):
        for target in ((y > 0).astype(int), multi):
            model.fit(X, target)
            _both(model, X, response_method="decision_function")


def test_boosting_probabilities_and_log_odds_take_the_copies():
    """Where the link bends each copy's leaf sum, the exact decomposition
    does not hold: the n x n copies walk the trees, as before."""
    rng, X, y = _data(60)
    model = HistGradientBoostingClassifier(max_iter=10, random_state=0)
    model.fit(X, (y > 0).astype(int))
    h = interaction_strength(model, X, n_samples=None, algorithm="tree")
    assert h.attrs["algorithm"] == "tree"
    forest = RandomForestClassifier(5, random_state=0).fit(X, (y > 0).astype(int))
    h = interaction_strength(forest, X, n_samples=None, scale="log_odds")
    assert h.attrs["algorithm"] == "tree"
    poisson = HistGradientBoostingRegressor(loss="poisson", max_iter=10)
    h = interaction_strength(poisson.fit(X, np.exp(y / 3)), X, n_samples=None)
    assert h.attrs["algorithm"] == "tree"


def test_weights_on_the_exact_path():
    rng, X, y = _data(80)
    w = rng.uniform(0, 3, len(X))
    w[:5] = 0
    model = RandomForestRegressor(10, max_depth=6, random_state=0).fit(X, y)
    _both(model, _on_thresholds(model, X, rng), sample_weight=w)
    hist = HistGradientBoostingRegressor(max_iter=20, random_state=0).fit(X, y)
    _both(hist, X, sample_weight=w, n_top=3)


def test_pipeline_and_nullable_frame():
    """A column-wise pipeline (scaled numbers, one-hot strings) before a
    forest, on pandas' nullable and categorical dtypes; histogram boosting's
    own categories from the dtype."""
    rng = np.random.RandomState(3)
    n = 90
    frame = pd.DataFrame(
        {
            "count": pd.array(rng.randint(0, 5, n), dtype="Int64"),
            "size": pd.array(rng.normal(size=n), dtype="Float64"),
            "flag": pd.array(rng.rand(n) < 0.4, dtype="boolean"),
            "city": pd.Categorical(rng.choice(["lyon", "nice", "paris"], n)),
        }
    )
    y = frame["count"].to_numpy(float) * frame["size"].to_numpy(float) + (
        frame["city"] == "nice"
    ) * frame["flag"].to_numpy(float)
    pre = ColumnTransformer(
        [
            ("num", StandardScaler(), ["count", "size", "flag"]),
            ("cat", OneHotEncoder(), ["city"]),
        ]
    )
    forest = make_pipeline(pre, RandomForestRegressor(10, max_depth=5, random_state=0))
    before = frame.copy()
    _both(forest.fit(frame, y), frame)
    pd.testing.assert_frame_equal(frame, before)
    hist = HistGradientBoostingRegressor(max_iter=20, categorical_features="from_dtype")
    numeric = frame.assign(
        count=frame["count"].astype(float), size=frame["size"].astype(float),
        flag=frame["flag"].astype(float),
    )  # fmt: skip
    numeric.loc[::7, "size"] = np.nan
    _both(hist.fit(numeric, y), numeric)


def test_multi_output_forest_and_a_single_leaf():
    rng, X, y = _data(50)
    both = np.column_stack([y, X[:, 0] - X[:, 2]])
    forest = RandomForestRegressor(6, max_depth=4, random_state=0).fit(X, both)
    assert set(_both(forest, X)["output"]) == {0, 1}
    stump = DecisionTreeRegressor().fit(X, np.ones(len(X)))  # the root a leaf
    h = interaction_strength(stump, X, pairs="all", n_samples=None)
    assert h.attrs["algorithm"] == "exact_tree"
    assert h["h_squared"].isna().all()  # no effect anywhere: 0/0
