"""Tree ensembles: grid points predicted alike are predicted once, and the
numbers stay scikit-learn's, bit for bit."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from scipy import sparse
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import (
    BaggingRegressor,
    ExtraTreesRegressor,
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
)
from sklearn.ensemble._hist_gradient_boosting.predictor import TreePredictor
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import FunctionTransformer, OneHotEncoder
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from inspectwidgets import iter_partial_dependence, partial_dependence
from inspectwidgets.inspection._partial_dependence.tree_splits import grid_point_groups

from sklearn_reference import sklearn_partial_dependence

pytestmark = pytest.mark.usefixtures("quiet_single_threaded")


def assert_identical(estimator, X, features, **kwargs):
    """Our Bunch equals scikit-learn's exactly (method="brute", kind="both"),
    by the walk where it applies ("auto") and without it ("generic": boosting
    tree by tree, grid points grouped)."""
    kwargs = {"method": "brute", "kind": "both", **kwargs}
    expected = sklearn_partial_dependence(estimator, X, features, **kwargs)
    for algorithm in ("auto", "generic"):
        got = partial_dependence(estimator, X, features, algorithm=algorithm, **kwargs)
        for ours, theirs in zip(got.grid_values, expected.grid_values, strict=True):
            assert_array_equal(ours, theirs)
        for key in ("average", "individual"):
            assert got[key].shape == expected[key].shape
            assert_array_equal(got[key], expected[key], err_msg=f"{algorithm} {key}")


class CountingTree(DecisionTreeRegressor):
    """Counts the rows it is asked to predict."""

    rows_predicted = 0

    def predict(self, X, check_input=True):
        type(self).rows_predicted += X.shape[0]
        return super().predict(X, check_input=check_input)


REGRESSORS = {
    "decision tree": DecisionTreeRegressor(max_depth=4, random_state=0),
    "extra trees": ExtraTreesRegressor(n_estimators=10, random_state=0),
    "gradient boosting": GradientBoostingRegressor(n_estimators=20, random_state=0),
    "gradient boosting, zero init": GradientBoostingRegressor(
        n_estimators=20, init="zero", random_state=0
    ),
    "gradient boosting, linear init": GradientBoostingRegressor(
        n_estimators=20, init=LinearRegression(), random_state=0
    ),
    "histogram boosting": HistGradientBoostingRegressor(max_iter=20, random_state=0),
    "bagged trees": BaggingRegressor(
        DecisionTreeRegressor(max_depth=3),
        n_estimators=5,
        max_features=2,
        random_state=0,
    ),  # fmt: skip
}


@pytest.mark.parametrize("name", list(REGRESSORS))
@pytest.mark.parametrize("features", [[0], [1, 2]])
def test_regressors_match_sklearn(regression_data, name, features):
    X, y = regression_data
    model = REGRESSORS[name].fit(X, y)
    # A surface on 12 x 12 points: a sixth of 30 x 30's predictions.
    assert_identical(
        model, X, features, grid_resolution=30 if len(features) == 1 else 12
    )


CLASSIFIERS = [
    (DecisionTreeClassifier(max_depth=3, random_state=0), "predict_proba"),
    (RandomForestClassifier(n_estimators=10, max_depth=4, random_state=0),
     "predict_proba"),
    (GradientBoostingClassifier(n_estimators=10, random_state=0), "predict_proba"),
    (GradientBoostingClassifier(n_estimators=10, random_state=0),
     "decision_function"),
    (HistGradientBoostingClassifier(max_iter=10, random_state=0), "predict_proba"),
    (HistGradientBoostingClassifier(max_iter=10, random_state=0),
     "decision_function"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("model", "response_method"),
    CLASSIFIERS,
    ids=[f"{type(m).__name__}-{r}" for m, r in CLASSIFIERS],
)
def test_classifiers_match_sklearn(three_class_data, model, response_method):
    X, y = three_class_data
    model = model.fit(X, y)
    assert_identical(
        model, X, [0, 3], grid_resolution=15, response_method=response_method
    )


def test_values_on_and_next_to_thresholds_match_sklearn(regression_data):
    # Grid values equal to a split threshold go left; the next float32 above
    # it goes right; float64 values that round to the same float32 must be
    # grouped as the tree (which compares float32) groups them.
    X, y = regression_data
    tree = DecisionTreeRegressor(max_depth=5, random_state=0).fit(X, y)
    thresholds = np.unique(tree.tree_.threshold[tree.tree_.feature == 0])
    as_float32 = thresholds.astype(np.float32).astype(np.float64)
    custom = np.unique(
        np.concatenate(
            [
                thresholds,
                np.nextafter(thresholds, np.inf),
                np.nextafter(thresholds.astype(np.float32), np.float32(np.inf)),
                as_float32,
            ]
        )
    )
    assert_identical(tree, X, [0], custom_values={0: custom})
    boosting = HistGradientBoostingRegressor(max_iter=10, random_state=0).fit(X, y)
    nodes = boosting._predictors[0][0].nodes
    edges = nodes["num_threshold"][nodes["is_leaf"] == 0]
    custom = np.unique(np.concatenate([edges, np.nextafter(edges, np.inf)]))
    assert_identical(boosting, X, [int(nodes["feature_idx"][0])], custom_values={
        int(nodes["feature_idx"][0]): custom
    })  # fmt: skip


def test_missing_grid_values_are_not_grouped_with_numbers():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 3))
    X[rng.random(300) < 0.2, 0] = np.nan
    # Missing values behave like small ones, so they go left.
    y = np.where(np.isnan(X[:, 0]), -5.0, X[:, 0]) + X[:, 1]
    for model in (
        HistGradientBoostingRegressor(max_iter=10, random_state=0),
        DecisionTreeRegressor(max_depth=4, random_state=0),
    ):
        model.fit(X, y)
        grid = np.array([np.nan, -3.0, 0.0, 10.0])
        assert_identical(model, X, [0], custom_values={0: grid})


def test_missing_grid_values_unseen_in_training_are_not_grouped():
    # Trained without missing values, histogram boosting sends them to the
    # child with more samples: left of the split at 0.9, unlike large values,
    # which an unbounded last interval would otherwise group them with.
    rng = np.random.default_rng(0)
    X = rng.random((300, 2))
    y = (X[:, 0] > 0.9) * 10.0 + X[:, 1]
    model = HistGradientBoostingRegressor(max_iter=5, random_state=0).fit(X, y)
    grid = np.array([np.nan, 0.1, 5.0])
    expected = sklearn_partial_dependence(
        model, X, [0], method="brute", custom_values={0: grid}
    )["average"][0]
    assert abs(expected[0] - expected[1]) < 0.1 < abs(expected[0] - expected[2])
    assert_identical(model, X, [0], custom_values={0: grid})


def test_histogram_boosting_categories_match_sklearn():
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.integers(0, 6, 400), rng.normal(size=400)]).astype(float)
    y = np.array([3, -1, 0, 2, -2, 1])[X[:, 0].astype(int)] + X[:, 1]
    model = HistGradientBoostingRegressor(
        max_iter=15, categorical_features=[0], random_state=0
    ).fit(X, y)
    assert_identical(model, X, [0], categorical_features=[0])
    assert_identical(model, X, [0, 1], categorical_features=[0], grid_resolution=10)
    frame = pd.DataFrame({"c": pd.Categorical(X[:, 0].astype(int)), "x": X[:, 1]})
    on_frame = HistGradientBoostingRegressor(max_iter=15, random_state=0).fit(frame, y)
    assert_identical(on_frame, frame, ["c"], categorical_features=["c"])


def test_pipeline_of_one_hot_and_trees_matches_sklearn():
    rng = np.random.default_rng(1)
    X = pd.DataFrame(
        {
            "plan": rng.choice(["basic", "plus", "pro"], 300),
            "age": rng.normal(40, 10, 300),
            "income": rng.lognormal(10, 0.5, 300),
        }
    )
    y = (X["plan"] == "pro") * 3 + X["age"] / 10 + np.log(X["income"])
    encode = ColumnTransformer(
        [("plan", OneHotEncoder(), ["plan"])], remainder="passthrough"
    )
    for final in (
        GradientBoostingRegressor(n_estimators=10, random_state=0),
        HistGradientBoostingRegressor(max_iter=10, random_state=0),
    ):
        model = make_pipeline(encode, final).fit(X, y)
        assert_identical(model, X, ["age"], grid_resolution=40)
        assert_identical(
            model, X, ["plan", "income"], categorical_features=["plan"],
            grid_resolution=10,
        )  # fmt: skip


def test_groups_follow_the_splits(regression_data):
    X, y = regression_data
    stump = DecisionTreeRegressor(max_depth=1, random_state=0).fit(X, y)
    (feature,) = stump.tree_.feature[stump.tree_.feature >= 0]
    (threshold,) = stump.tree_.threshold[stump.tree_.feature >= 0]
    # The tree compares float32 values: the largest float32 not above the
    # threshold goes left, the next float32 goes right.
    on = np.float32(threshold)
    if on > threshold:
        on = np.nextafter(on, np.float32(-np.inf))
    above = np.nextafter(on, np.float32(np.inf))
    rows = np.tile(X[:1], (6, 1))
    rows[:, feature] = [threshold - 1, on, above, threshold + 1, np.nan, threshold - 2]
    # Left, on the threshold, right (twice), missing; numbered by first row.
    groups = grid_point_groups(stump, rows, [feature])
    assert_array_equal(groups, [0, 0, 1, 1, 2, 0])
    assert_array_equal(
        stump.predict(rows[~np.isnan(rows[:, feature])]),
        stump.predict(rows[[0, 0, 2, 2, 0]]),
    )  # the same groups as the tree's own predictions
    unused = (feature + 1) % X.shape[1]
    assert_array_equal(grid_point_groups(stump, rows, [unused]), [0] * 6)
    assert grid_point_groups(LinearRegression().fit(X, y), rows, [feature]) is None


def test_a_feature_the_trees_ignore_is_predicted_once(regression_data):
    X, y = regression_data
    X = X.copy()
    X[:, 3] = np.linspace(-1, 1, len(X))  # not in y: a deep tree may still split
    tree = CountingTree(max_depth=2, random_state=0).fit(X, y)
    unused = [f for f in range(4) if f not in tree.tree_.feature]
    CountingTree.rows_predicted = 0
    result = partial_dependence(tree, X, [unused[0]], method="brute", kind="both")
    assert CountingTree.rows_predicted == len(X)
    assert result["individual"].shape == (1, len(X), 100)
    expected = sklearn_partial_dependence(
        tree, X, [unused[0]], method="brute", kind="both"
    )
    assert_array_equal(result["individual"], expected["individual"])


def test_streaming_and_centering_with_groups(three_class_data):
    X, y = three_class_data
    model = GradientBoostingClassifier(n_estimators=10, random_state=0).fit(X, y)
    kwargs = dict(kind="both", method="brute", grid_resolution=40, n_ice=50,
                  random_state=0, centered=True)  # fmt: skip
    snapshots = list(iter_partial_dependence(model, X, [2], **kwargs))
    assert len(snapshots) > 1
    done = [s.n_points_done for s in snapshots]
    assert done == sorted(done) and done[-1] == 40
    final = partial_dependence(model, X, [2], return_result=True, **kwargs)
    assert_array_equal(snapshots[-1].average, final.average)
    assert_array_equal(snapshots[-1].individual, final.individual)
    assert_array_equal(final.average[:, 0], 0)
    uncentered = sklearn_partial_dependence(
        model, X, [2], kind="both", method="brute", grid_resolution=40
    )
    expected = uncentered["average"] - uncentered["average"][:, :1]
    assert_array_equal(final.average, expected)
    # Every snapshot shows the points done, NaN elsewhere, values final.
    for snapshot in snapshots:
        shown = snapshot.done
        assert_array_equal(snapshot.average[:, shown], final.average[:, shown])
        assert np.isnan(snapshot.average[:, ~shown]).all()


def opaque(model):
    """`model` behind a preprocessing step we cannot see through: predicted
    copy by copy, with no grouping and no tree-by-tree evaluation."""
    return make_pipeline(FunctionTransformer(lambda X: X), model)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(kind="both", centered=True, n_ice=20, random_state=0),
        dict(kind="average", scale="log_odds"),
        dict(kind="both", classes=[2, 0]),
        dict(kind="average", response_method="decision_function", classes=[1]),
    ],
)
@pytest.mark.parametrize(
    "model",
    [
        HistGradientBoostingClassifier(max_iter=15, random_state=0),
        GradientBoostingClassifier(n_estimators=15, random_state=0),
    ],
    ids=lambda m: type(m).__name__,
)
def test_tree_by_tree_equals_predicting_every_copy(three_class_data, model, kwargs):
    X, y = three_class_data
    model = model.fit(X, y)
    kwargs = {"method": "brute", "grid_resolution": 12, **kwargs}
    fast = partial_dependence(
        model, X, [0, 2], return_result=True, algorithm="generic", **kwargs
    )
    plain = partial_dependence(opaque(model), X, [0, 2], return_result=True, **kwargs)
    assert_array_equal(fast.average, plain.average)
    if fast.individual is not None:
        assert_array_equal(fast.individual, plain.individual)


def test_binary_and_other_losses_tree_by_tree(regression_data):
    X, y = regression_data
    above = y > np.median(y)
    binary = HistGradientBoostingClassifier(max_iter=10, random_state=0)
    binary_gb = GradientBoostingClassifier(n_estimators=10, random_state=0)
    poisson = HistGradientBoostingRegressor(
        loss="poisson", max_iter=10, random_state=0
    ).fit(X, np.exp(y / y.std()))
    huber = GradientBoostingRegressor(loss="huber", n_estimators=10, random_state=0)
    for model in (
        binary.fit(X, above),
        binary_gb.fit(X, above),
        poisson,
        huber.fit(X, y),
    ):
        assert_identical(model, X, [1, 3], grid_resolution=10)


def test_gradient_boosting_on_sparse_one_hot_columns():
    rng = np.random.default_rng(2)
    X = pd.DataFrame(
        {"plan": rng.choice(list("abcdefgh"), 300), "age": rng.normal(40, 10, 300)}
    )
    y = (X["plan"] < "d") * 2.0 + X["age"] / 10
    encode = ColumnTransformer(
        [("plan", OneHotEncoder(), ["plan"])],
        remainder="passthrough",
        sparse_threshold=1.0,  # CSR output, whatever the density
    )
    model = make_pipeline(
        encode, GradientBoostingRegressor(n_estimators=10, random_state=0)
    ).fit(X, y)
    assert sparse.issparse(model[:-1].transform(X))
    assert_identical(model, X, ["age"], grid_resolution=15)
    assert_identical(model, X, ["plan", "age"], categorical_features=["plan"],
                     grid_resolution=5)  # fmt: skip


def test_each_tree_is_evaluated_on_its_own_cells_only(regression_data, monkeypatch):
    X, y = regression_data
    model = HistGradientBoostingRegressor(max_iter=20, random_state=0).fit(X, y)
    evaluated = []
    predict = TreePredictor.predict

    def counting(self, X, *args, **kwargs):
        evaluated.append(X.shape[0])
        return predict(self, X, *args, **kwargs)

    monkeypatch.setattr(TreePredictor, "predict", counting)
    result = partial_dependence(
        model, X, [0, 1], method="brute", grid_resolution=20, algorithm="generic"
    )
    monkeypatch.undo()
    # Every tree once per cell it has on the grid: far fewer than 400 copies.
    assert len(evaluated) == 20 and sum(evaluated) < 20 * 400 * len(X) / 10
    expected = sklearn_partial_dependence(
        model, X, [0, 1], method="brute", grid_resolution=20
    )
    assert_array_equal(result["average"], expected["average"])
