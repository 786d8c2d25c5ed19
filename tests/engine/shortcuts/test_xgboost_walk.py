"""The tree walk on XGBoost's models against XGBoost's own predict.

The walk's margins, probabilities and labels are XGBoost's bit for bit
(``assert_array_equal``): float32 input, the same comparisons (``x < t``,
NaN by ``default_left``, listed categories right), float32 sums in tree order
from XGBoost's own base margin, its own link. Checked on seeded random models
(binary, multiclass, regression; depths 1 to 10, early stopping, forests of
parallel trees), with rows exactly on the float32 thresholds and next to
them, NaN, and a categorical column; then permutation importance and partial
dependence against scikit-learn's own functions on the same model, and the
exact H² against the generic path.
"""

import json

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.inspection import permutation_importance as sklearn_importance

from inspectwidgets import (
    interaction_strength,
    partial_dependence,
    permutation_importance,
)
from inspectwidgets.inspection._core.batching import make_batcher
from inspectwidgets.inspection._shortcuts.trees import TreeModel, take, unsupported

from numerics import assert_float32_sums_close
from sklearn_reference import sklearn_partial_dependence

xgboost = pytest.importorskip("xgboost")

pytestmark = pytest.mark.usefixtures("quiet_single_threaded")

TASKS = ("binary", "multiclass", "regression")


def _data(seed, n=240, p=5):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, p))
    X[:, 3] = rng.randint(0, 6, n)  # an integer column: many ties
    X[rng.rand(n) < 0.15, 1] = np.nan
    signal = X[:, 0] + np.nan_to_num(X[:, 1]) * X[:, 2] + 0.3 * X[:, 3]
    return X, signal + rng.normal(scale=0.5, size=n)


def _target(task, signal):
    if task == "binary":
        return (signal > np.median(signal)).astype(int)
    if task == "multiclass":
        return np.digitize(signal, np.quantile(signal, [1 / 3, 2 / 3]))
    return signal


def _fitted(task, X, signal, **params):
    kind = xgboost.XGBRegressor if task == "regression" else xgboost.XGBClassifier
    return kind(n_jobs=1, **params).fit(X, _target(task, signal))


def _methods(model):
    return ["predict"] if type(model).__name__ == "XGBRegressor" else [
        "predict", "predict_proba"]  # fmt: skip


def _thresholds(model, column):
    """The float32 thresholds XGBoost compares `column` with (``x < t``)."""
    trees = json.loads(model.get_booster().save_raw("json"))["learner"][
        "gradient_booster"]["model"]["trees"]  # fmt: skip
    found = [
        np.float32(t["split_conditions"][i])
        for t in trees
        for i, f in enumerate(t["split_indices"])
        if f == column and t["left_children"][i] != -1
    ]
    return np.array(found, dtype=np.float32)


def _on_thresholds(model, X, rng):
    """X with a third of each column's values replaced by the thresholds the
    trees compare it with and their float32 neighbours: both sides of every
    ``x < t``."""
    X = X.copy()
    for column in range(X.shape[1]):
        cuts = _thresholds(model, column)
        if cuts.size:
            up, down = np.float32(np.inf), np.float32(-np.inf)
            cuts = np.concatenate(
                [cuts, np.nextafter(cuts, up), np.nextafter(cuts, down)]
            )
            at = rng.rand(len(X)) < 1 / 3
            X[at, column] = rng.choice(cuts, at.sum())
    return X


def assert_same_as_xgboost(model, X, copies, donor=None):
    """The walk's responses to the copies equal XGBoost's own predict (and
    output margins) on the stacked copies, bit for bit."""
    methods = _methods(model)
    trees = TreeModel.of(model, X, methods)
    assert trees is not None, unsupported(model, X, methods)
    rows = trees.as_model_input(X)
    donor_rows = None if donor is None else trees.as_model_input(donor)
    got = trees.predict(rows, copies, methods, donor=donor_rows)
    stacked = make_batcher(X).build(copies, donor=donor)
    for method in methods:
        expected = getattr(model, method)(stacked)
        assert got[method].dtype == expected.dtype, method
        assert_array_equal(got[method], expected, method)
    # The margins themselves, before XGBoost's link.
    walked = _walked_margins(trees, rows, copies, donor_rows)
    assert_array_equal(walked, model.predict(stacked, output_margin=True))


def _walked_margins(trees, rows, copies, donor_rows):
    """The walk's float32 margins, by a responses step that keeps them."""
    keep = trees.responses
    trees.responses = lambda raw, methods: {"margin": raw.copy()}
    try:
        raw = trees.predict(rows, copies, ["margin"], donor=donor_rows)["margin"]
    finally:
        trees.responses = keep
    return raw[:, 0] if raw.shape[1] == 1 else raw


def _copies(X, rng):
    n = len(X)
    return [
        (np.arange(n), ()),
        (rng.permutation(n), (0,)),
        (rng.permutation(n), (1,)),
        (rng.permutation(n), (2, 3)),
        (rng.permutation(n), (0,)),
    ]


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("seed", range(4))
def test_random_models_are_xgboosts_bit_for_bit(task, seed):
    rng = np.random.RandomState(seed)
    X, signal = _data(seed)
    params = dict(
        n_estimators=int(rng.randint(5, 40)),
        max_depth=int([1, 3, 6, 10][seed]),
        learning_rate=float(rng.uniform(0.05, 0.8)),
        subsample=0.8,
        colsample_bynode=0.8,
        random_state=seed,
        base_score=None if seed % 2 else float(rng.uniform(0.2, 0.8)),
    )
    if task == "regression" and params["base_score"] is not None:
        params["base_score"] = float(rng.normal())
    model = _fitted(task, X, signal, **params)
    X_test = _on_thresholds(model, _data(seed + 100)[0], rng)
    assert_same_as_xgboost(model, X_test, _copies(X_test, rng))
    # Donor rows: every row takes a row's values of the columns (PD's grid).
    donor = X_test[:9]
    copies = [(i, (c,)) for c in (0, 1) for i in range(9)] + [(3, (0, 1))]
    assert_same_as_xgboost(model, X_test, copies, donor=donor)


@pytest.mark.parametrize("task", TASKS)
def test_early_stopping_and_parallel_trees(task):
    X, signal = _data(7, n=400)
    y = _target(task, signal)
    kind = xgboost.XGBRegressor if task == "regression" else xgboost.XGBClassifier
    model = kind(n_estimators=200, learning_rate=0.3, early_stopping_rounds=3,
                 num_parallel_tree=2, max_depth=4, n_jobs=1)  # fmt: skip
    model.fit(X[:300], y[:300], eval_set=[(X[300:], y[300:])], verbose=False)
    assert model.best_iteration + 1 < model.get_booster().num_boosted_rounds()
    rng = np.random.RandomState(0)
    assert_same_as_xgboost(model, X, _copies(X, rng))


def _table(seed, n=300):
    rng = np.random.RandomState(seed)
    frame = pd.DataFrame(
        {
            "mean radius": np.where(rng.rand(n) < 0.1, np.nan, rng.normal(size=n)),
            "age": rng.randint(18, 80, n),
            "plan type": pd.Categorical(
                np.where(rng.rand(n) < 0.05, None, rng.choice(list("abcdefg"), n)),
                categories=list("abcdefg"),
            ),
            "score": rng.normal(size=n),
        }
    )
    signal = (
        np.nan_to_num(frame["mean radius"].to_numpy())
        + 1.5 * frame["plan type"].isin(["b", "e", "f"]).to_numpy()
        + frame["score"].to_numpy()
    )
    return frame, signal


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("max_cat_to_onehot", [1, 8])  # partitions, one-hot
def test_categorical_splits_and_recoding(task, max_cat_to_onehot):
    X, signal = _table(0)
    model = _fitted(
        task, X, signal, n_estimators=12, max_depth=4, enable_categorical=True,
        max_cat_to_onehot=max_cat_to_onehot,
    )  # fmt: skip
    rng = np.random.RandomState(1)
    assert_same_as_xgboost(model, X, _copies(X, rng))
    # XGBoost re-codes a frame's categories to its training ones by value.
    shuffled = X.assign(**{"plan type": X["plan type"].cat.reorder_categories(
        list("gfedcba"))})  # fmt: skip
    assert_same_as_xgboost(model, shuffled, _copies(shuffled, rng))
    donor = shuffled.iloc[:6]
    copies = [(i, (2,)) for i in range(6)]
    assert_same_as_xgboost(model, shuffled, copies, donor=donor)


def test_a_category_the_model_never_saw_is_left_to_xgboost():
    X, signal = _table(0)
    model = _fitted("binary", X, signal, n_estimators=5, enable_categorical=True)
    unseen = X.assign(**{"plan type": X["plan type"].cat.add_categories(["new"])})
    unseen.loc[0, "plan type"] = "new"
    trees = TreeModel.of(model, unseen, ["predict"])
    assert trees.as_model_input(unseen) is None
    # XGBoost refuses it (its own error comes first, predicting X itself).
    with pytest.raises(ValueError, match="not in the training set"):
        model.predict(unseen)
    for algorithm in ("tree", "auto"):
        with pytest.raises(ValueError, match="not in the training set"):
            permutation_importance(model, unseen, signal > 0, algorithm=algorithm)
    assert "XGBoost's own checks" in take(model, unseen, ["predict"])


REFUSED = {
    "gblinear": (dict(booster="gblinear"), "linear model"),
    "dart": (dict(booster="dart"), "dropout"),
    "multi:softmax": (dict(objective="multi:softmax"), "multi:softmax"),
    "reg:pseudohubererror": (dict(objective="reg:pseudohubererror"), "objective"),
    "missing=0": (dict(missing=0.0), "missing=0.0"),
    "vector leaves": (
        dict(multi_strategy="multi_output_tree", tree_method="hist"),
        "vector leaves",
    ),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_what_the_walk_cannot_replay_is_refused_with_a_reason(name):
    params, reason = REFUSED[name]
    X, signal = _data(0)
    if name == "vector leaves":
        y = np.column_stack([signal, -signal])
        model = xgboost.XGBRegressor(n_estimators=3, n_jobs=1, **params).fit(X, y)
    elif "softmax" in name:
        model = _fitted("multiclass", X, signal, n_estimators=3, **params)
    elif name.startswith("reg"):
        model = _fitted("regression", X, signal, n_estimators=3, **params)
    else:
        model = _fitted("binary", X, signal, n_estimators=3, **params)
    assert reason in unsupported(model, X, ["predict"])
    y = model.predict(X)
    with pytest.raises(ValueError, match="algorithm='tree'"):
        permutation_importance(model, X, y, algorithm="tree", n_repeats=2)
    if y.ndim == 1:
        got = permutation_importance(
            model, X, y, n_repeats=2, random_state=0, return_result=True
        )
        assert got.algorithm == "generic"


SCORING = {"binary": "neg_log_loss", "multiclass": "accuracy", "regression": "r2"}


@pytest.mark.parametrize("task", TASKS)
def test_permutation_importance_is_scikit_learns(task):
    X, signal = _data(3, n=300)
    model = _fitted(task, X, signal, n_estimators=30, max_depth=5)
    X_test, signal_test = _data(4, n=200)
    y = _target(task, signal_test)
    kwargs = dict(n_repeats=4, random_state=0, scoring=SCORING[task])
    theirs = sklearn_importance(model, X_test, y, **kwargs)
    for algorithm in ("tree", "auto"):
        ours = permutation_importance(
            model, X_test, y, algorithm=algorithm, return_result=True, **kwargs
        )
        assert ours.algorithm == "tree"
        assert_array_equal(ours.to_bunch().importances, theirs.importances)


@pytest.mark.parametrize("task", TASKS)
def test_permutation_importance_on_a_categorical_table(task):
    X, signal = _table(2)
    model = _fitted(task, X, signal, n_estimators=15, enable_categorical=True)
    y = _target(task, signal)
    theirs = sklearn_importance(model, X, y, n_repeats=3, random_state=0)
    ours = permutation_importance(
        model, X, y, n_repeats=3, random_state=0, return_result=True
    )
    assert ours.algorithm == "tree"
    assert_array_equal(ours.to_bunch().importances, theirs.importances)


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("features", [[0], [3], [0, 2]])
def test_partial_dependence_is_scikit_learns(task, features):
    X, signal = _data(5, n=150)
    model = _fitted(task, X, signal, n_estimators=20, max_depth=4)
    kwargs = dict(method="brute", kind="both", grid_resolution=12)
    theirs = sklearn_partial_dependence(model, X, features, **kwargs)
    ours = partial_dependence(model, X, features, algorithm="tree", **kwargs)
    result = partial_dependence(
        model, X, features, algorithm="auto", return_result=True, **kwargs
    )
    assert result.algorithm == "tree"
    for key in ("average", "individual"):
        assert_array_equal(ours[key], theirs[key], err_msg=key)


def test_partial_dependence_on_thresholds_and_categories():
    X, signal = _table(3)
    # scikit-learn's grid cannot hold a missing category.
    X["plan type"] = X["plan type"].fillna("a")
    model = _fitted("multiclass", X, signal, n_estimators=10, enable_categorical=True)
    cuts = _thresholds(model, 0).astype(np.float64)
    below = np.nextafter(cuts.astype(np.float32), np.float32(-np.inf))
    custom = np.unique(np.concatenate([cuts, below]))
    for features, options in [
        (["mean radius"], {"custom_values": {"mean radius": custom}}),
        (["plan type"], {"categorical_features": ["plan type"]}),
    ]:
        kwargs = dict(method="brute", kind="both", **options)
        theirs = sklearn_partial_dependence(model, X, features, **kwargs)
        ours = partial_dependence(model, X, features, algorithm="tree", **kwargs)
        for key in ("average", "individual"):
            assert_array_equal(ours[key], theirs[key], err_msg=key)


def test_exact_h_squared_of_a_regressor_within_float32_sums():
    X, signal = _data(6, n=80, p=4)
    model = _fitted("regression", X, signal, n_estimators=40, max_depth=4)
    kwargs = dict(pairs="all", n_samples=None)
    exact = interaction_strength(model, X, **kwargs)
    generic = interaction_strength(model, X, algorithm="generic", **kwargs)
    assert exact.attrs["algorithm"] == "exact_tree"
    assert exact.attrs["n_predictions"] == 0
    assert_float32_sums_close(exact["h_squared"], generic["h_squared"])
    # A classifier's probabilities bend the sums: the walk predicts the copies.
    classifier = _fitted("binary", X, signal, n_estimators=10)
    walked = interaction_strength(classifier, X, algorithm="tree", **kwargs)
    generic = interaction_strength(classifier, X, algorithm="generic", **kwargs)
    assert walked.attrs["algorithm"] == "tree"
    assert_array_equal(walked["h_squared"], generic["h_squared"])
