"""The tree walk replays LightGBM's LGBMClassifier and LGBMRegressor as
LightGBM's own predict does, read from its model text.

Every comparison is against LightGBM itself (``predict(raw_score=True)``,
``predict``, ``predict_proba`` on the stacked copies) or scikit-learn's
functions on the same model: raw scores bit for bit (``assert_array_equal``),
probabilities and exp-link predictions by ``numerics.assert_link_equal``
(bit for bit on glibc: the walk calls the C library's exp, as LightGBM does).
The models are seeded and random; the rows hold NaN, values on and one ulp
either side of every threshold, zeros and values within LightGBM's zero
threshold, a pandas category column with an unseen category, and codes
LightGBM's categorical splits cast (negative, fractional, beyond the walk's
256 categories).
"""

import lightgbm
import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.inspection import permutation_importance as sklearn_importance

from inspectwidgets import (
    accumulated_local_effects,
    interaction_strength,
    partial_dependence,
    permutation_importance,
)
from inspectwidgets.inspection._core.batching import make_batcher
from inspectwidgets.inspection._shortcuts.trees import TreeModel, unsupported

from numerics import assert_blas_close, assert_link_equal
from sklearn_reference import sklearn_partial_dependence

N = 400
# LightGBM's kZeroThreshold: values this close to zero are read as 0.0.
ZERO = float(np.float32(1e-35))


def _table(seed=0):
    """NaN, an integer column, a category (six levels, two of them rare),
    a column of many exact zeros and a plain one."""
    rng = np.random.default_rng(seed)
    colours = rng.choice(["red", "green", "blue", "grey", "pink", "teal"], N,
                         p=[0.3, 0.25, 0.2, 0.15, 0.05, 0.05])  # fmt: skip
    return pd.DataFrame(
        {
            "size": np.where(rng.random(N) < 0.15, np.nan, rng.normal(size=N)),
            "count": rng.integers(0, 9, N),
            "colour": pd.Categorical(colours),
            "spend": np.where(rng.random(N) < 0.4, 0.0, rng.normal(size=N)),
            "score": rng.normal(size=N),
        }
    )


TABLE = _table()
SIGNAL = (
    np.nan_to_num(TABLE["size"].to_numpy())
    + 1.5 * TABLE["colour"].isin(["green", "pink"]).to_numpy()
    + TABLE["spend"].to_numpy() * (TABLE["count"].to_numpy() > 4)
    + 0.5 * TABLE["score"].to_numpy()
)
NOISE = np.random.default_rng(1).normal(scale=0.3, size=N)
TARGETS = {
    "binary": (SIGNAL + NOISE > 0.7).astype(int),
    "multiclass": pd.cut(SIGNAL + NOISE, 3, labels=False).astype(int),
    "nine classes": pd.qcut(SIGNAL + NOISE, 9, labels=False).astype(int),
    "regression": SIGNAL + NOISE,
    "positive": np.exp(SIGNAL / 2 + NOISE),
}
# Small leaves and groups, so that the categories are split on.
SMALL = dict(min_child_samples=5, min_data_per_group=5, cat_smooth=1.0,
             verbose=-1, n_jobs=1)  # fmt: skip
MODELS = {
    "binary": (lightgbm.LGBMClassifier, dict(n_estimators=25, num_leaves=7), "binary"),
    "binary, 31 leaves, sigmoid 0.7": (
        lightgbm.LGBMClassifier,
        dict(n_estimators=10, num_leaves=31, sigmoid=0.7),
        "binary",
    ),
    "multiclass": (
        lightgbm.LGBMClassifier,
        dict(n_estimators=15, num_leaves=5),
        "multiclass",
    ),  # fmt: skip
    # Nine classes: the softmax's sum is class by class, not numpy's pairwise.
    "nine classes": (
        lightgbm.LGBMClassifier,
        dict(n_estimators=4, num_leaves=4),
        "nine classes",
    ),  # fmt: skip
    "multiclassova": (
        lightgbm.LGBMClassifier,
        dict(n_estimators=8, num_leaves=6, objective="multiclassova"),
        "multiclass",
    ),
    "regression, stumps": (
        lightgbm.LGBMRegressor,
        dict(n_estimators=30, num_leaves=2),
        "regression",
    ),  # fmt: skip
    "regression, 63 leaves": (
        lightgbm.LGBMRegressor,
        dict(n_estimators=12, num_leaves=63),
        "regression",
    ),
    "huber": (
        lightgbm.LGBMRegressor,
        dict(n_estimators=10, objective="huber"),
        "regression",
    ),  # fmt: skip
    "poisson": (
        lightgbm.LGBMRegressor,
        dict(n_estimators=10, objective="poisson"),
        "positive",
    ),  # fmt: skip
    "gamma": (
        lightgbm.LGBMRegressor,
        dict(n_estimators=10, objective="gamma"),
        "positive",
    ),  # fmt: skip
    "tweedie": (
        lightgbm.LGBMRegressor,
        dict(n_estimators=10, objective="tweedie"),
        "positive",
    ),  # fmt: skip
    "zero_as_missing": (
        lightgbm.LGBMRegressor,
        dict(n_estimators=15, num_leaves=9, zero_as_missing=True),
        "regression",
    ),
    "use_missing=False": (
        lightgbm.LGBMRegressor,
        dict(n_estimators=15, num_leaves=9, use_missing=False),
        "regression",
    ),
    "dart": (
        lightgbm.LGBMClassifier,
        dict(n_estimators=15, num_leaves=7, boosting_type="dart", random_state=0),
        "multiclass",
    ),
}


def fitted(name, X=TABLE):
    kind, params, target = MODELS[name]
    return kind(**SMALL, **params).fit(X, TARGETS[target])


def methods_of(model):
    if isinstance(model, lightgbm.LGBMClassifier):
        return ["predict", "predict_proba", "decision_function"]
    return ["predict"]


def assert_same_as_lightgbm(model, X, copies, donor=None):
    """The walk's raw scores, predictions and probabilities of the stacked
    copies against LightGBM's own."""
    methods = methods_of(model)
    trees = TreeModel.of(model, X, methods)
    assert trees is not None, unsupported(model, X, methods)
    rows = trees.as_model_input(X)
    donor_rows = None if donor is None else trees.as_model_input(donor)
    got = trees.predict(rows, copies, [*methods, "raw_score"], donor=donor_rows)
    stacked = make_batcher(X).build(copies, donor=donor)
    assert_array_equal(got["raw_score"], model.predict(stacked, raw_score=True))
    for method in methods:
        expected = getattr(model, method)(stacked)
        if method == "predict" and not isinstance(model, lightgbm.LGBMClassifier):
            assert_link_equal(got[method], expected, err_msg=method)
        else:
            assert_array_equal(got[method], expected, method)


def thresholds_of(model, column):
    """The model's numeric thresholds on `column`, from LightGBM's own
    ``trees_to_dataframe``."""
    nodes = model.booster_.trees_to_dataframe()
    name = model.booster_.feature_name()[column]
    at = (nodes["split_feature"] == name) & (nodes["decision_type"] == "<=")
    return nodes.loc[at, "threshold"].to_numpy(dtype=np.float64)


def test_the_models_split_on_what_the_tests_need():
    """Categories, missing values and zero_as_missing are split on."""
    nodes = fitted("multiclass").booster_.trees_to_dataframe()
    assert (nodes["decision_type"] == "==").any()
    assert set(nodes["missing_type"].dropna()) >= {"None", "NaN"}
    zeros = fitted("zero_as_missing").booster_.trees_to_dataframe()
    assert (zeros["missing_type"] == "Zero").any()
    assert fitted("dart").booster_.params["boosting_type"] == "dart"


@pytest.mark.parametrize("name", MODELS)
def test_permuted_copies_and_groups(name):
    model = fitted(name)
    rng = np.random.default_rng(0)
    copies = [(rng.permutation(N), (c,)) for c in range(TABLE.shape[1])]
    copies.append((rng.permutation(N), (2, 3)))  # a group moves together
    copies.append((np.arange(N), (0,)))  # X itself
    assert_same_as_lightgbm(model, TABLE, copies)


def _edges(values):
    """Values and their float64 neighbours, with zero, LightGBM's zero
    threshold and what lies within it, NaN and values beyond the data."""
    values = np.concatenate(
        [values, np.nextafter(values, np.inf), np.nextafter(values, -np.inf)]
    )
    near_zero = [0.0, -0.0, ZERO, -ZERO, 5e-36, -5e-36, 1e-300,
                 np.nextafter(ZERO, 1), np.nextafter(-ZERO, -1)]  # fmt: skip
    return np.concatenate([values, near_zero, [-50.0, 50.0, np.nan]])


@pytest.mark.parametrize("shuffled", [False, True], ids=["increasing", "shuffled"])
@pytest.mark.parametrize(
    "name", ["binary", "multiclass", "regression, 63 leaves", "zero_as_missing",
             "use_missing=False", "poisson"],
)  # fmt: skip
def test_grid_values_on_and_around_every_threshold(name, shuffled):
    """Increasing grid values without NaN are bisected at each split
    (``route_grid``), others partitioned one by one (``route_queries``)."""
    model = fitted(name)
    for column in (0, 3, 4):
        grid = np.unique(_edges(thresholds_of(model, column)))  # NaN last
        if shuffled:
            grid = np.random.default_rng(column).permutation(grid)
        for points in (grid[~np.isnan(grid)], grid):
            donor = pd.concat([TABLE.iloc[:1]] * len(points), ignore_index=True)
            donor[TABLE.columns[column]] = points
            copies = [(p, (column,)) for p in range(len(points))]
            assert_same_as_lightgbm(model, TABLE, copies, donor=donor)


def test_a_pandas_category_column_with_unseen_categories_and_nan():
    """The codes of the categories LightGBM stored at fit: an unseen category
    and NaN go right at every categorical split, as LightGBM sends them."""
    model = fitted("multiclass")
    colours = list(TABLE["colour"].cat.categories)
    donor = pd.concat([TABLE.iloc[:1]] * (len(colours) + 2), ignore_index=True)
    donor["colour"] = pd.Categorical(
        [*colours, "purple", np.nan], categories=[*colours, "purple"]
    )
    copies = [(p, (2,)) for p in range(len(donor))]
    assert_same_as_lightgbm(model, TABLE, copies, donor=donor)
    # X's own column in another category order (LightGBM recodes it).
    shuffled = TABLE.assign(
        colour=TABLE["colour"].cat.reorder_categories(colours[::-1])
    )
    rng = np.random.default_rng(0)
    assert_same_as_lightgbm(model, shuffled, [(rng.permutation(N), (2, 0))])


def test_categorical_codes_in_an_array_as_lightgbm_casts_them():
    """A numeric column declared categorical: C's cast of each value, NaN and
    negatives right, codes beyond the walk's 256 categories right."""
    X = TABLE.assign(colour=TABLE["colour"].cat.codes).to_numpy(dtype=np.float64)
    model = lightgbm.LGBMRegressor(n_estimators=15, num_leaves=7, **SMALL)
    model.fit(X, TARGETS["regression"], categorical_feature=[2])
    nodes = model.booster_.trees_to_dataframe()
    assert (nodes["decision_type"] == "==").any()
    odd = [0, 1, 2, 3, 4, 5, 1.7, 0.999, -0.5, -0.0, -1, -3, 255, 256, 300.5,
           2.0**31, 2.0**40, 1e300, np.inf, -np.inf, np.nan, ZERO]  # fmt: skip
    donor = np.repeat(X[:1], len(odd), axis=0)
    donor[:, 2] = odd
    assert_same_as_lightgbm(model, X, [(p, (2,)) for p in range(len(odd))], donor)
    # An integer array: LightGBM reads it as float32.
    integers = np.round(np.nan_to_num(X) * 1000).astype(np.int64)
    integers[:, 2] = X[:, 2]
    rng = np.random.default_rng(0)
    copies = [(rng.permutation(N), (c,)) for c in range(5)]
    assert_same_as_lightgbm(model, integers, copies)


def test_early_stopping_predicts_with_the_best_iteration():
    X, y = TABLE, TARGETS["regression"]
    model = lightgbm.LGBMRegressor(n_estimators=300, learning_rate=0.3, **SMALL)
    model.fit(X.iloc[:300], y[:300], eval_X=X.iloc[300:], eval_y=y[300:],
              callbacks=[lightgbm.early_stopping(5, verbose=False)])  # fmt: skip
    assert 0 < model.best_iteration_ < 300
    rng = np.random.default_rng(0)
    assert_same_as_lightgbm(model, X, [(rng.permutation(N), (c,)) for c in range(5)])


def _refused():
    X, y = TABLE, TARGETS["regression"]
    positive = (TARGETS["binary"] + 0.5) / 2  # in (0, 1): cross entropy's
    return {
        "linear_tree=True": lightgbm.LGBMRegressor(
            n_estimators=5, linear_tree=True, **SMALL
        ).fit(X, y),
        "boosting_type='rf'": lightgbm.LGBMRegressor(
            n_estimators=5,
            boosting_type="rf",
            subsample=0.8,
            subsample_freq=1,
            **SMALL,
        ).fit(X, y),  # fmt: skip
        "objective 'cross_entropy'": lightgbm.LGBMRegressor(
            n_estimators=5, objective="cross_entropy", **SMALL
        ).fit(X, positive),
        "reg_sqrt=True": lightgbm.LGBMRegressor(
            n_estimators=5, reg_sqrt=True, **SMALL
        ).fit(X, np.abs(y)),
        "custom objective": lightgbm.LGBMRegressor(
            n_estimators=5, objective=lambda y, p: (p - y, np.ones_like(p)), **SMALL
        ).fit(X, y),
    }


def test_what_stays_on_the_predicted_path():
    """Each refusal says why (the reason reaches algorithm="tree"'s error);
    "auto" predicts with the model and gives scikit-learn's numbers."""
    X, y = TABLE, TARGETS["regression"]
    for reason, model in _refused().items():
        assert reason in unsupported(model, X, ["predict"]), reason
        with pytest.raises(ValueError, match="algorithm='tree'"):
            permutation_importance(model, X, y, n_repeats=2, algorithm="tree")
        ours = permutation_importance(
            model, X, y, n_repeats=2, random_state=0, return_result=True
        )
        theirs = sklearn_importance(model, X, y, n_repeats=2, random_state=0)
        assert ours.algorithm == "generic"
        assert_array_equal(ours.importances(), theirs.importances)
    binary = fitted("binary")
    assert "predict_log_proba" in unsupported(binary, X, ["predict_log_proba"])
    assert "not fitted" in unsupported(lightgbm.LGBMRegressor(), X, ["predict"])


@pytest.mark.parametrize(
    "name, scoring",
    [("binary", None), ("binary", "neg_log_loss"), ("binary", "roc_auc"),
     ("multiclass", "neg_log_loss"), ("regression, 63 leaves", None),
     ("poisson", "neg_mean_poisson_deviance")],
)  # fmt: skip
def test_permutation_importance_is_scikit_learns(name, scoring):
    model = fitted(name)
    y = TARGETS[MODELS[name][2]]
    ours = permutation_importance(
        model, TABLE, y, scoring=scoring, n_repeats=3, random_state=0,
        return_result=True,
    )  # fmt: skip
    theirs = sklearn_importance(
        model, TABLE, y, scoring=scoring, n_repeats=3, random_state=0
    )
    assert ours.algorithm == "tree"
    assert_array_equal(ours.importances(), theirs.importances)


@pytest.mark.parametrize("name", ["binary", "multiclass", "regression, 63 leaves"])
@pytest.mark.parametrize(
    "features, options",
    [(["score"], {"grid_resolution": 9}),
     (["spend"], {"grid_resolution": 7}),
     (["colour"], {"categorical_features": ["colour"]}),
     (["spend", "score"], {"grid_resolution": 5})],
)  # fmt: skip
def test_partial_dependence_is_scikit_learns(name, features, options):
    model = fitted(name)
    ours = partial_dependence(
        model, TABLE, features, kind="both", return_result=True, **options
    )
    theirs = sklearn_partial_dependence(model, TABLE, features, kind="both", **options)
    assert ours.algorithm == "tree"
    assert_array_equal(ours.average, theirs["average"])
    assert_array_equal(ours.individual, theirs["individual"])


def test_exact_interaction_strength_of_a_regressor():
    """H² through the trees' structure against the generic path's n x n
    predictions by LightGBM: the same terms in another order (see
    tests/engine/effects/test_interaction_trees.py)."""
    model = fitted("regression, 63 leaves")
    X = TABLE.iloc[:80]
    kwargs = dict(pairs="all", n_samples=None)
    exact = interaction_strength(model, X, **kwargs)
    generic = interaction_strength(model, X, algorithm="generic", **kwargs)
    assert exact.attrs["algorithm"] == "exact_tree"
    assert generic.attrs["algorithm"] == "generic"
    a, b = exact["h_squared"].to_numpy(), generic["h_squared"].to_numpy()
    assert_array_equal(np.isnan(a), np.isnan(b))
    assert np.isfinite(b).any()
    assert_blas_close(a[~np.isnan(a)], b[~np.isnan(b)])
    # A classifier's probabilities bend each copy's sum: walked, not exact.
    walked = interaction_strength(fitted("binary"), X.iloc[:40], pairs="all")
    assert walked.attrs["algorithm"] == "tree"
    # Its decision_function is the raw sums: exact.
    raw = interaction_strength(
        fitted("multiclass"), X, response_method="decision_function", **kwargs
    )
    assert raw.attrs["algorithm"] == "exact_tree"


def test_accumulated_local_effects_walk_lightgbm():
    """ALE's copies walked ("tree", as "auto" takes for LightGBM) give what
    LightGBM's predict gives them (the generic path)."""
    model = fitted("multiclass")
    predicted = accumulated_local_effects(
        model, TABLE, ["score"], grid_resolution=6, algorithm="generic"
    )
    for algorithm in ("tree", "auto"):
        walked = accumulated_local_effects(
            model, TABLE, ["score"], grid_resolution=6, algorithm=algorithm
        )
        assert_array_equal(walked.local_effects[0], predicted.local_effects[0])


def test_a_pipeline_ending_in_lightgbm():
    """One-hot columns from a ColumnTransformer into LightGBM: walked, with
    scikit-learn's numbers."""
    from sklearn.compose import make_column_transformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    encode = make_column_transformer(
        (OneHotEncoder(sparse_output=False), ["colour"]), remainder="passthrough"
    )
    model = make_pipeline(
        encode, lightgbm.LGBMClassifier(n_estimators=10, num_leaves=7, **SMALL)
    ).fit(TABLE, TARGETS["multiclass"])
    y = TARGETS["multiclass"]
    ours = permutation_importance(
        model, TABLE, y, n_repeats=2, random_state=0, return_result=True
    )
    theirs = sklearn_importance(model, TABLE, y, n_repeats=2, random_state=0)
    assert ours.algorithm == "tree"
    assert_array_equal(ours.importances(), theirs.importances)
    ours = partial_dependence(
        model, TABLE, ["colour"], categorical_features=["colour"], kind="both",
        return_result=True,
    )  # fmt: skip
    theirs = sklearn_partial_dependence(
        model, TABLE, ["colour"], categorical_features=["colour"], kind="both"
    )
    assert ours.algorithm == "tree"
    assert_array_equal(ours.individual, theirs["individual"])


def test_the_cost_model_reads_lightgbm_trees():
    """Under "auto", permutation importance predicts where most copies would
    leave their rows' paths at once (two features, split on at every level),
    and walks where few would (many features); the same numbers either way."""
    from inspectwidgets.inspection._shortcuts.trees import predicts_faster

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 12))
    y = X[:, 0] * X[:, 1] + X[:, 2:].sum(axis=1) / 5
    two = lightgbm.LGBMRegressor(n_estimators=10, **SMALL).fit(X[:, :2], y)
    assert predicts_faster(two, "auto", [(0,), (1,)], 5)
    assert not predicts_faster(two, "tree", [(0,), (1,)], 5)
    many = lightgbm.LGBMRegressor(n_estimators=10, num_leaves=4, **SMALL).fit(X, y)
    assert not predicts_faster(many, "auto", [(j,) for j in range(12)], 5)
    for model, columns in ((two, X[:, :2]), (many, X)):
        ours = permutation_importance(
            model, columns, y, n_repeats=2, random_state=0, return_result=True
        )
        theirs = sklearn_importance(model, columns, y, n_repeats=2, random_state=0)
        assert ours.algorithm == ("generic" if model is two else "tree")
        assert_array_equal(ours.importances(), theirs.importances)
