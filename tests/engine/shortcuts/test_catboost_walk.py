"""The tree walk on CatBoost's models against CatBoost's own predict.

The walk's raw formula values (``prediction_type="RawFormulaVal"``),
regressors' predictions, labels and binary probabilities are CatBoost's bit
for bit (``assert_array_equal``; binary probabilities by
``numerics.assert_link_equal``, bit for bit on glibc): float32 input, the same
comparisons (``x > border`` sets a leaf index's bit, NaN by the feature's
``nan_value_treatment``), double sums from +0.0 in tree order, the model's
scale and bias. Multiclass probabilities are CatBoost's up to its fast exp
(``numerics.assert_catboost_softmax_close``). Checked on seeded random models
(binary, multiclass, regression; depths 1 to 8, 4 to 254 borders, nan_mode Min
and Max), with rows exactly on the float32 borders and one ulp either side,
and NaN; then permutation importance and partial dependence against
scikit-learn's own functions on the same model, ALE and the exact H² against
the generic path, and what the walk refuses.
"""

import json

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.inspection import permutation_importance as sklearn_importance

from inspectwidgets import (
    accumulated_local_effects,
    interaction_strength,
    partial_dependence,
    permutation_importance,
)
from inspectwidgets.inspection._core.batching import make_batcher
from inspectwidgets.inspection._shortcuts.trees import (
    TreeModel,
    predicts_faster,
    unsupported,
)

from numerics import (
    assert_blas_close,
    assert_catboost_softmax_close,
    assert_link_equal,
)
from sklearn_reference import sklearn_partial_dependence

catboost = pytest.importorskip("catboost")

pytestmark = pytest.mark.usefixtures("quiet_single_threaded")

TASKS = ("binary", "multiclass", "regression")
QUIET = dict(verbose=0, thread_count=1, allow_writing_files=False)
# CatBoost's estimators have a score method of their own: scikit-learn's
# default scoring calls it on each permuted copy, so the tests name one.
R2, ACCURACY = dict(scoring="r2"), dict(scoring="accuracy")


def _data(seed, n=400, p=5):
    """NaN in column 1, an integer column (many ties) in column 3."""
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, p))
    X[:, 3] = rng.randint(0, 6, n)
    X[rng.rand(n) < 0.15, 1] = np.nan
    signal = X[:, 0] + np.nan_to_num(X[:, 1], nan=1.5) * X[:, 2] + 0.3 * X[:, 3]
    return X, signal + rng.normal(scale=0.5, size=n)


def _target(task, signal):
    if task == "binary":
        return (signal > np.median(signal)).astype(int)
    if task == "multiclass":
        return np.digitize(signal, np.quantile(signal, [1 / 3, 2 / 3]))
    return signal


def _fitted(task, X, signal, **params):
    if task == "regression":
        return catboost.CatBoostRegressor(**QUIET, **params).fit(X, signal)
    if task == "multiclass":
        params.setdefault("loss_function", "MultiClass")
    return catboost.CatBoostClassifier(**QUIET, **params).fit(X, _target(task, signal))


def _methods(model):
    if isinstance(model, catboost.CatBoostClassifier):
        return ["predict", "predict_proba"]
    return ["predict"]


def _multiclass(model):
    return isinstance(model, catboost.CatBoostClassifier) and len(model.classes_) > 2


def _borders(model, column):
    """The float32 borders CatBoost compares `column` with (``x > border``),
    from its JSON model."""
    path = f"/tmp/catboost-borders-{id(model)}.json"
    model.save_model(path, format="json")
    with open(path) as file:
        features = json.load(file)["features_info"]["float_features"]
    for feature in features:
        if feature["flat_feature_index"] == column:
            return np.array(feature["borders"], dtype=np.float32)
    return np.array([], dtype=np.float32)


def _on_borders(model, X, rng):
    """X with half of each column's values replaced by the borders the trees
    compare it with and their float32 neighbours: both sides of every
    ``x > border``."""
    X = X.copy()
    for column in range(X.shape[1]):
        cuts = _borders(model, column)
        cuts = cuts[np.isfinite(cuts) & (np.abs(cuts) < np.finfo(np.float32).max)]
        if cuts.size:
            up, down = np.float32(np.inf), np.float32(-np.inf)
            cuts = np.concatenate(
                [cuts, np.nextafter(cuts, up), np.nextafter(cuts, down)]
            )
            at = rng.rand(len(X)) < 1 / 2
            X[at, column] = rng.choice(cuts, at.sum())
    return X


def assert_same_as_catboost(model, X, copies, donor=None):
    """The walk's responses to the copies against CatBoost's own predict,
    predict_proba and raw formula values on the stacked copies."""
    methods = _methods(model)
    trees = TreeModel.of(model, X, methods)
    assert trees is not None, unsupported(model, X, methods)
    rows = trees.as_model_input(X)
    donor_rows = None if donor is None else trees.as_model_input(donor)
    got = trees.predict(rows, copies, [*methods, "raw_score"], donor=donor_rows)
    stacked = make_batcher(X).build(copies, donor=donor)
    raw = model.predict(stacked, prediction_type="RawFormulaVal")
    assert_array_equal(got["raw_score"], raw)
    for method in methods:
        expected = getattr(model, method)(stacked)
        assert got[method].dtype == expected.dtype, method
        assert got[method].shape == expected.shape, method
        if method == "predict_proba" and _multiclass(model):
            assert_catboost_softmax_close(got[method], expected, err_msg=method)
        elif method == "predict_proba":
            assert_link_equal(got[method], expected, err_msg=method)
        else:
            assert_array_equal(got[method], expected, method)


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
def test_random_models_are_catboosts(task, seed):
    rng = np.random.RandomState(seed)
    X, signal = _data(seed)
    params = dict(
        iterations=int(rng.randint(5, 60)),
        depth=int([1, 3, 6, 8][seed]),
        border_count=int([4, 32, 254, 16][seed]),
        learning_rate=float(rng.uniform(0.05, 0.8)),
        nan_mode=["Min", "Max"][seed % 2],
        random_seed=seed,
    )
    model = _fitted(task, X, signal, **params)
    X_test = _on_borders(model, _data(seed + 100)[0], rng)
    X_test[rng.rand(len(X_test)) < 0.1, 0] = np.nan
    X_test[:3, 2] = [np.inf, -np.inf, np.nan]
    assert_same_as_catboost(model, X_test, _copies(X_test, rng))
    # Donor rows: every row takes a row's values of the columns (PD's grid).
    donor = X_test[:9]
    copies = [(i, (c,)) for c in (0, 1) for i in range(9)] + [(3, (0, 1))]
    assert_same_as_catboost(model, X_test, copies, donor=donor)


@pytest.mark.parametrize("task", TASKS)
def test_scale_and_bias(task):
    """A model's own scale and bias (``set_scale_and_bias``), each branch of
    CatBoost's ``ApplyScaleAndBias``."""
    X, signal = _data(5)
    rng = np.random.RandomState(0)
    model = _fitted(task, X, signal, iterations=20, depth=4)
    width = 3 if task == "multiclass" else 1
    for scale, bias in [(1.0, 0.37), (0.61, 0.0), (1.7, -0.23)]:
        model.set_scale_and_bias(scale, [bias * (k + 1) for k in range(width)])
        assert_same_as_catboost(model, X, _copies(X, rng))


def test_a_refitted_model_is_read_again():
    """The reading of a model is kept per fitted model: a refit of the same
    estimator is read anew."""
    X, signal = _data(6)
    model = _fitted("regression", X, signal, iterations=10, depth=3)
    rng = np.random.RandomState(0)
    assert_same_as_catboost(model, X, _copies(X, rng))
    model.fit(X, -signal)
    assert_same_as_catboost(model, X, _copies(X, rng))


def _table(seed, n=300):
    rng = np.random.RandomState(seed)
    frame = pd.DataFrame(
        {
            "mean radius": np.where(rng.rand(n) < 0.1, np.nan, rng.normal(size=n)),
            "age": rng.randint(18, 80, n),
            "plan type": rng.choice(list("abcdefg"), n),
            "score": rng.normal(size=n),
        }
    )
    signal = (
        np.nan_to_num(frame["mean radius"].to_numpy())
        + 1.5 * frame["plan type"].isin(["b", "e", "f"]).to_numpy()
        + frame["score"].to_numpy()
    )
    return frame, signal


def _refused(name):
    X, signal = _data(0)
    small = dict(iterations=4, depth=2)
    if name == "cat_features":
        frame, signal = _table(0)
        model = _fitted("binary", frame, signal, cat_features=["plan type"], **small)
        return model, frame
    if name == "one-hot cat_features":
        frame, signal = _table(0)
        model = _fitted("regression", frame, signal, cat_features=["plan type"],
                        one_hot_max_size=10, **small)  # fmt: skip
        return model, frame
    if name == "text_features":
        frame, signal = _table(0)
        frame["note"] = np.where(signal > 0, "good plan", "bad plan here")
        model = _fitted("binary", frame.drop(columns="plan type"), signal,
                        text_features=["note"], **small)  # fmt: skip
        return model, frame.drop(columns="plan type")
    params = {
        "Depthwise": ("regression", dict(grow_policy="Depthwise")),
        "Poisson": ("regression", dict(loss_function="Poisson")),
        "MultiClassOneVsAll": (
            "multiclass",
            dict(loss_function="MultiClassOneVsAll"),
        ),
    }[name]
    task, extra = params
    if name == "Poisson":
        signal = np.exp(signal / 3)
    return _fitted(task, X, signal, **small, **extra), X


REFUSED = {
    "cat_features": "native categorical features",
    "one-hot cat_features": "native categorical features",
    "text_features": "text features",
    "Depthwise": "non-symmetric trees",
    "Poisson": "loss_function='Poisson'",
    "MultiClassOneVsAll": "loss_function='MultiClassOneVsAll'",
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_what_the_walk_cannot_replay_stays_on_the_predicted_path(name):
    model, X = _refused(name)
    assert REFUSED[name] in unsupported(model, X, ["predict"])
    y = model.predict(X)
    y = y.ravel() if y.ndim == 2 else y
    kwargs = dict(
        n_repeats=2,
        random_state=0,
        **(
            R2
            if name == "Poisson" or isinstance(model, catboost.CatBoostRegressor)
            else ACCURACY
        ),
    )
    with pytest.raises(ValueError, match=f"algorithm='tree': .*{REFUSED[name]}"):
        permutation_importance(model, X, y, algorithm="tree", **kwargs)
    got = permutation_importance(model, X, y, return_result=True, **kwargs)
    assert got.algorithm == "generic"
    theirs = sklearn_importance(model, X, y, **kwargs)
    assert_array_equal(got.importances(), theirs.importances)


def test_methods_and_thresholds_it_does_not_replay():
    X, signal = _data(1)
    model = _fitted("binary", X, signal, iterations=5, depth=3)
    assert "predict_log_proba" in unsupported(model, X, ["predict_log_proba"])
    model.set_probability_threshold(0.3)
    assert "probability threshold" in unsupported(model, X, ["predict"])


SCORING = {"binary": "neg_log_loss", "multiclass": "accuracy", "regression": "r2"}


@pytest.mark.parametrize("task", TASKS)
def test_permutation_importance_is_scikit_learns(task):
    X, signal = _data(3)
    model = _fitted(task, X, signal, iterations=40, depth=5)
    X_test, signal_test = _data(4, n=250)
    y = _target(task, signal_test)
    kwargs = dict(n_repeats=4, random_state=0, scoring=SCORING[task])
    theirs = sklearn_importance(model, X_test, y, **kwargs)
    for algorithm in ("tree", "auto"):
        ours = permutation_importance(
            model, X_test, y, algorithm=algorithm, return_result=True, **kwargs
        )
        assert ours.algorithm == "tree"
        assert_array_equal(ours.importances(), theirs.importances)


def test_multiclass_log_loss_importance_within_the_fast_exp():
    X, signal = _data(3)
    model = _fitted("multiclass", X, signal, iterations=30, depth=4)
    y = _target("multiclass", signal)
    kwargs = dict(n_repeats=3, random_state=0, scoring="neg_log_loss")
    theirs = sklearn_importance(model, X, y, **kwargs)
    ours = permutation_importance(model, X, y, return_result=True, **kwargs)
    assert ours.algorithm == "tree"
    assert_catboost_softmax_close(ours.importances(), theirs.importances)


@pytest.mark.parametrize("task", TASKS)
@pytest.mark.parametrize("features", [[0], [3], [0, 2]])
def test_partial_dependence_is_scikit_learns(task, features):
    X, signal = _data(5, n=200)
    model = _fitted(task, X, signal, iterations=25, depth=4)
    kwargs = dict(method="brute", kind="both", grid_resolution=12)
    theirs = sklearn_partial_dependence(model, X, features, **kwargs)
    ours = partial_dependence(model, X, features, algorithm="tree", **kwargs)
    result = partial_dependence(
        model, X, features, algorithm="auto", return_result=True, **kwargs
    )
    assert result.algorithm == "tree"
    for key in ("average", "individual"):
        if task == "multiclass":
            assert_catboost_softmax_close(ours[key], theirs[key], err_msg=key)
        else:
            assert_array_equal(ours[key], theirs[key], err_msg=key)


def test_partial_dependence_on_the_borders():
    X, signal = _data(7)
    model = _fitted("regression", X, signal, iterations=30, depth=5)
    cuts = _borders(model, 0).astype(np.float64)
    above = np.nextafter(cuts.astype(np.float32), np.float32(np.inf))
    custom = np.unique(np.concatenate([cuts, above]))
    kwargs = dict(method="brute", kind="both", custom_values={0: custom})
    theirs = sklearn_partial_dependence(model, X, [0], **kwargs)
    ours = partial_dependence(model, X, [0], algorithm="tree", **kwargs)
    for key in ("average", "individual"):
        assert_array_equal(ours[key], theirs[key], err_msg=key)


def test_named_columns_and_a_one_hot_pipeline():
    """A DataFrame's names (given in another order: CatBoost selects them by
    name, and the walk leaves that to it) and one-hot columns from a
    ColumnTransformer into CatBoost: walked, with scikit-learn's numbers."""
    from sklearn.compose import make_column_transformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    frame, signal = _table(1)
    y = _target("multiclass", signal)
    numeric = frame.drop(columns="plan type")
    model = _fitted("regression", numeric, signal, iterations=15, depth=4)
    kwargs = dict(n_repeats=2, random_state=0, **R2)
    for X in (numeric, numeric[numeric.columns[::-1]]):
        ours = permutation_importance(model, X, signal, return_result=True, **kwargs)
        theirs = sklearn_importance(model, X, signal, **kwargs)
        assert_array_equal(ours.importances(), theirs.importances)
    assert ours.algorithm == "generic"  # the reordered names: CatBoost's to read
    encode = make_column_transformer(
        (OneHotEncoder(sparse_output=False), ["plan type"]), remainder="passthrough"
    )
    pipeline = make_pipeline(
        encode, catboost.CatBoostClassifier(iterations=15, depth=4, **QUIET)
    ).fit(frame, y)
    kwargs = dict(n_repeats=2, random_state=0, **ACCURACY)
    ours = permutation_importance(pipeline, frame, y, return_result=True, **kwargs)
    theirs = sklearn_importance(pipeline, frame, y, **kwargs)
    assert ours.algorithm == "tree"
    assert_array_equal(ours.importances(), theirs.importances)
    ours = partial_dependence(
        pipeline, frame, ["plan type"], categorical_features=["plan type"],
        kind="both", return_result=True,
    )  # fmt: skip
    theirs = sklearn_partial_dependence(
        pipeline, frame, ["plan type"], categorical_features=["plan type"],
        kind="both",
    )  # fmt: skip
    assert ours.algorithm == "tree"
    assert_catboost_softmax_close(ours.individual, theirs["individual"])


def test_exact_interaction_strength_of_a_regressor():
    """H² through the trees' structure against the generic path's n x n
    predictions by CatBoost: the same terms in another order."""
    X, signal = _data(8, n=80, p=4)
    model = _fitted("regression", X, signal, iterations=30, depth=4)
    model.set_scale_and_bias(0.8, [0.2])
    kwargs = dict(pairs="all", n_samples=None)
    exact = interaction_strength(model, X, **kwargs)
    generic = interaction_strength(model, X, algorithm="generic", **kwargs)
    assert exact.attrs["algorithm"] == "exact_tree"
    a, b = exact["h_squared"].to_numpy(), generic["h_squared"].to_numpy()
    assert_array_equal(np.isnan(a), np.isnan(b))
    assert np.isfinite(b).any()
    assert_blas_close(a[~np.isnan(a)], b[~np.isnan(b)])
    # A classifier's probabilities bend each copy's sum: walked, not exact.
    classifier = _fitted("binary", X, signal, iterations=10, depth=3)
    walked = interaction_strength(classifier, X, algorithm="tree", **kwargs)
    generic = interaction_strength(classifier, X, algorithm="generic", **kwargs)
    assert walked.attrs["algorithm"] == "tree"
    assert_link_equal(walked["h_squared"], generic["h_squared"])


@pytest.mark.parametrize("task", ["binary", "regression"])
def test_accumulated_local_effects_walk_catboost(task):
    """ALE's copies walked ("tree") give what CatBoost's predict gives them
    (the generic path, which "auto" takes for CatBoost: its predict of ALE's
    two copies a row is faster than the walk)."""
    X, signal = _data(9)
    model = _fitted(task, X, signal, iterations=20, depth=4)
    predicted = accumulated_local_effects(
        model, X, [0], grid_resolution=6, algorithm="generic"
    )
    for algorithm in ("tree", "auto"):
        walked = accumulated_local_effects(
            model, X, [0], grid_resolution=6, algorithm=algorithm
        )
        assert_link_equal(walked.local_effects[0], predicted.local_effects[0])


def test_the_cost_model_reads_catboost_trees():
    """Under "auto", permutation importance predicts where most copies would
    leave their rows' paths at once (two features, split on at every level),
    and walks where few would (many features); the same numbers either way."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 12))
    y = X[:, 0] * X[:, 1] + X[:, 2:].sum(axis=1) / 5
    two = _fitted("regression", X[:, :2], y, iterations=10, depth=6)
    assert predicts_faster(two, "auto", [(0,), (1,)], 5)
    assert not predicts_faster(two, "tree", [(0,), (1,)], 5)
    many = _fitted("regression", X, y, iterations=10, depth=2)
    assert not predicts_faster(many, "auto", [(j,) for j in range(12)], 5)
    kwargs = dict(n_repeats=2, random_state=0, **R2)
    for model, columns in ((two, X[:, :2]), (many, X)):
        ours = permutation_importance(model, columns, y, return_result=True, **kwargs)
        theirs = sklearn_importance(model, columns, y, **kwargs)
        assert ours.algorithm == ("generic" if model is two else "tree")
        assert_array_equal(ours.importances(), theirs.importances)


@pytest.mark.parametrize("labels", ["regression", "bool", "strings"])
def test_the_default_scoring_is_catboosts_own_score_replayed(labels):
    """scikit-learn's default scoring calls CatBoost's own ``score`` on each
    permuted copy; ours replays it from the (walked) predictions: the same
    numbers, bit for bit, and the walk."""
    X, signal = _data(10)
    if labels == "regression":
        model, y = _fitted("regression", X, signal, iterations=20), signal
    elif labels == "bool":
        y = signal > np.median(signal)
        model = catboost.CatBoostClassifier(iterations=20, **QUIET).fit(X, y)
    else:
        y = np.array(["low", "mid", "high"])[_target("multiclass", signal)]
        model = catboost.CatBoostClassifier(
            iterations=20, loss_function="MultiClass", **QUIET
        ).fit(X, y)
    theirs = sklearn_importance(model, X, y, n_repeats=3, random_state=0)
    ours = permutation_importance(
        model, X, y, n_repeats=3, random_state=0, return_result=True
    )
    assert ours.algorithm == "tree"
    assert_array_equal(ours.importances(), theirs.importances)
    if labels == "strings":
        # CatBoost's own score refuses numbers for string classes; so do we.
        codes = _target("multiclass", signal)
        with pytest.raises(catboost.CatBoostError, match="string type"):
            sklearn_importance(model, X, codes, n_repeats=1)
        with pytest.raises(catboost.CatBoostError, match="type"):
            permutation_importance(model, X, codes, n_repeats=1)


@pytest.mark.parametrize("labels", ["regression", "bool"])
def test_the_held_out_interval_takes_catboosts_own_score(labels):
    """CatBoost's own score is accuracy (a classifier) or R² (a regressor) by
    other names: the held-out interval takes it as it takes those (it
    refused it, and the inspector drew a CatBoost model without interval),
    with the interval of the scikit-learn scorer it equals."""
    X, signal = _data(12)
    if labels == "regression":
        model, y, same = _fitted("regression", X, signal, iterations=20), signal, "r2"
    else:
        y = signal > np.median(signal)
        model = catboost.CatBoostClassifier(iterations=20, **QUIET).fit(X, y)
        same = "accuracy"
    kwargs = dict(n_repeats=3, random_state=0, n_bootstrap=40)
    default = permutation_importance(model, X, y, **kwargs)
    named = permutation_importance(model, X, y, scoring=same, **kwargs)
    assert_allclose(default.interval, named.interval, rtol=0, atol=1e-12)
    assert_allclose(default.importances, named.importances, rtol=0, atol=1e-12)


@pytest.mark.parametrize("task", ["multiclass", "regression"])
def test_blocks_of_rows_give_the_same_bits(task, monkeypatch):
    """The walk takes its rows a block at a time (their leaf indices within
    LEAF_INDEX_BYTES): blocks of a few rows give CatBoost's predictions
    too, permuted copies and grid points alike."""
    from inspectwidgets.inspection._shortcuts.trees import catboost as walk

    X, signal = _data(11)
    model = _fitted(task, X, signal, iterations=12, depth=5)
    monkeypatch.setattr(walk, "LEAF_INDEX_BYTES", 4 * 12 * 7)  # 7 rows a block
    rng = np.random.RandomState(0)
    assert_same_as_catboost(model, X, _copies(X, rng))
    copies = [(i, (c,)) for c in (0, 1) for i in range(5)]
    assert_same_as_catboost(model, X, copies, donor=X[:5])


def test_load_walks_compiles_the_oblivious_walk_a_widget_will_call():
    """A widget loads the walks before its first run (``load_walks``): for
    CatBoost, the oblivious walk, on the very types its predictions pass, so
    that a run compiles nothing more."""
    from inspectwidgets.inspection._shortcuts import load_walks, walks_needed
    from inspectwidgets.inspection._shortcuts.kernels import loaded

    X, signal = _data(12)
    model = _fitted("multiclass", X, signal, iterations=5, depth=3)
    load_walks(model)
    assert not walks_needed(model)
    kernels = loaded("trees.oblivious")
    names = ("leaf_indices", "add_copy", "add_grid")
    before = [len(getattr(kernels, name).signatures) for name in names]
    rng = np.random.RandomState(0)
    assert_same_as_catboost(model, X, _copies(X, rng))
    assert_same_as_catboost(model, X, [(0, (1,)), (1, (1,))], donor=X[:2])
    assert [len(getattr(kernels, name).signatures) for name in names] == before
