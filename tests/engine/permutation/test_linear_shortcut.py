"""The linear shortcut: permuted copies' decision functions from X's own
plus the permuted columns' contribution, then the model's link; scikit-learn's
numbers to BLAS rounding, without predicting a copy."""

import pickle
import re

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import RandomForestRegressor
from sklearn.impute import SimpleImputer
from sklearn.inspection import permutation_importance as sklearn_permutation_importance
from sklearn.linear_model import (
    ElasticNet,
    GammaRegressor,
    Lasso,
    LinearRegression,
    LogisticRegression,
    PoissonRegressor,
    Ridge,
    SGDClassifier,
    SGDRegressor,
    TweedieRegressor,
)
from sklearn.metrics import brier_score_loss
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import (
    MaxAbsScaler,
    MinMaxScaler,
    OneHotEncoder,
    PolynomialFeatures,
    RobustScaler,
    StandardScaler,
)
from sklearn.svm import LinearSVC, LinearSVR

from inspectwidgets import permutation_importance
from inspectwidgets.inspection._shortcuts.linear import LinearModel

from numerics import assert_blas_close

REGRESSION_SCORING = ["r2", "neg_mean_squared_error", "neg_mean_absolute_error"]
CLASSIFICATION_SCORING = ["accuracy", "balanced_accuracy"]
PROBA_SCORING = ["neg_log_loss", "roc_auc_ovr", "neg_brier_score"]


def _brier_takes_classes():
    """Whether the installed scikit-learn's Brier score takes three classes
    (from 1.7)."""
    try:
        brier_score_loss([0, 1, 2], np.eye(3))
    except ValueError:
        return False
    return True


BRIER_TAKES_CLASSES = _brier_takes_classes()


def numeric_data(n=400, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 5))
    X[:, 3] = rng.integers(0, 4, n)  # an integer column
    signal = X @ np.array([1.0, -2.0, 0.5, 0.3, 0.0])
    return X, signal + rng.normal(0, 0.5, n), rng


def assert_matches_sklearn(model, X, y, scoring, **kwargs):
    """Every scorer's importances equal scikit-learn's, by the linear path."""
    result = permutation_importance(
        model, X, y, scoring=scoring, n_repeats=2, random_state=7,
        return_result=True, **kwargs,
    )  # fmt: skip
    assert result.algorithm == "linear"
    expected = sklearn_permutation_importance(
        model, X, y, scoring=scoring, n_repeats=2, random_state=7
    )
    for name in scoring:
        assert_blas_close(
            result.importances(name), expected[name].importances, err_msg=name
        )


@pytest.mark.parametrize(
    "model",
    [
        LinearRegression(),
        Ridge(alpha=3.0),
        Lasso(alpha=0.05),
        ElasticNet(alpha=0.05),
        SGDRegressor(random_state=0),
        LinearSVR(random_state=0),
    ],
    ids=lambda m: type(m).__name__,
)
def test_regressors_match_sklearn(model):
    X, y, _ = numeric_data()
    assert_matches_sklearn(model.fit(X, y), X, y, REGRESSION_SCORING)


def test_multi_target_ridge_matches_sklearn():
    X, y, _ = numeric_data()
    Y = np.c_[y, 2 * y - X[:, 0]]
    assert_matches_sklearn(Ridge().fit(X, Y), X, Y, ["r2", "neg_mean_squared_error"])


@pytest.mark.parametrize(
    "model",
    [PoissonRegressor(), GammaRegressor(), TweedieRegressor(power=1.5)],
    ids=lambda m: type(m).__name__,
)
def test_glms_through_their_link_match_sklearn(model):
    X, y, _ = numeric_data()
    y = np.exp(y / 4)
    scoring = REGRESSION_SCORING + ["neg_mean_poisson_deviance"]
    assert_matches_sklearn(model.fit(X, y), X, y, scoring)


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize(
    "model",
    [
        LogisticRegression(),
        SGDClassifier(loss="log_loss", random_state=0),
        SGDClassifier(loss="modified_huber", random_state=0),
        LinearSVC(random_state=0),
    ],
    ids=lambda m: f"{type(m).__name__}-{m.get_params().get('loss', '')}",
)
def test_classifiers_match_sklearn(model, n_classes):
    X, y, _ = numeric_data()
    # Binary: 0/1 (roc_auc needs them); three classes: strings.
    labels = np.array(["low", "mid", "high"]) if n_classes == 3 else np.arange(2)
    y = labels[np.digitize(y, np.quantile(y, np.linspace(0, 1, n_classes + 1)[1:-1]))]
    scoring = list(CLASSIFICATION_SCORING)
    if (
        hasattr(model, "predict_proba")
        and getattr(model, "loss", "") != "modified_huber"
    ):
        scoring += PROBA_SCORING
    if n_classes == 2:
        scoring += ["roc_auc", "average_precision"]  # from decision_function
    model.fit(X, y)
    if n_classes == 3 and "neg_brier_score" in scoring and not BRIER_TAKES_CLASSES:
        # scikit-learn 1.6's Brier score takes two classes: its error, not ours.
        scoring.remove("neg_brier_score")
        kwargs = dict(scoring="neg_brier_score", n_repeats=2, random_state=7)
        with pytest.raises(ValueError) as theirs:
            sklearn_permutation_importance(model, X, y, **kwargs)
        with pytest.raises(type(theirs.value), match=re.escape(str(theirs.value))):
            permutation_importance(model, X, y, **kwargs)
    assert_matches_sklearn(model, X, y, scoring)


def messy_frame(n=500, seed=0):
    """NaN, pandas nullable dtypes, strings, a categorical, integers."""
    rng = np.random.default_rng(seed)
    age = rng.normal(40, 10, n)
    age[::9] = np.nan
    income = pd.array(rng.normal(3, 1, n), dtype="Float64")
    frame = pd.DataFrame(
        {
            "age": age,
            "income": income,
            "children": pd.array(rng.integers(0, 4, n), dtype="Int64"),
            "member": pd.array(rng.random(n) < 0.4, dtype="boolean"),
            "city": rng.choice(
                ["paris", "lyon", "nice", "lille", "brest"],
                n,
                p=[0.4, 0.3, 0.2, 0.08, 0.02],
            ),  # fmt: skip
            "plan": pd.Categorical(rng.choice(["free", "pro", "team"], n)),
            "visits": rng.poisson(3, n),
        }
    )
    logit = (
        np.nan_to_num((age - 40) / 10)
        + (frame.city == "paris") * 1.5
        - (frame.plan == "free")
        + frame.member.astype(float)
    )
    y = (logit + rng.normal(0, 1, n) > 0.3).astype(int).to_numpy()
    return frame, y, logit.to_numpy() + rng.normal(0, 1, n)


def messy_pipeline(model, encoder=None):
    encoder = encoder or OneHotEncoder(handle_unknown="ignore")
    return make_pipeline(
        ColumnTransformer(
            [
                (
                    "num",
                    make_pipeline(SimpleImputer(), StandardScaler()),
                    ["age", "income"],
                ),  # fmt: skip
                ("int", MinMaxScaler(), ["children", "visits"]),
                ("bool", "passthrough", ["member"]),
                ("cat", encoder, ["city", "plan"]),
            ]
        ),
        MaxAbsScaler(),
        model,
    )


@pytest.mark.parametrize(
    "encoder",
    [
        OneHotEncoder(handle_unknown="ignore"),
        OneHotEncoder(drop="first", sparse_output=False),
        OneHotEncoder(min_frequency=30, handle_unknown="infrequent_if_exist"),
    ],
    ids=["ignore-sparse", "drop-first", "infrequent"],
)
def test_messy_pipeline_classifier_matches_sklearn(encoder):
    X, y, _ = messy_frame()
    pipe = messy_pipeline(LogisticRegression(), encoder).fit(X, y)
    scoring = ["accuracy", "roc_auc", "neg_log_loss", "balanced_accuracy"]
    X_before = X.copy()
    assert_matches_sklearn(pipe, X, y, scoring)
    pd.testing.assert_frame_equal(X, X_before)


def test_messy_pipeline_regressor_and_bare_scaler_match_sklearn():
    X, _, target = messy_frame()
    pipe = messy_pipeline(Ridge()).fit(X, target)
    assert_matches_sklearn(pipe, X, target, REGRESSION_SCORING)
    numeric, y, _ = numeric_data()
    for scaler in (StandardScaler(), RobustScaler()):
        bare = make_pipeline(scaler, LinearRegression()).fit(numeric, y)
        assert_matches_sklearn(bare, numeric, y, REGRESSION_SCORING)


def count_products(monkeypatch, kind):
    """Rows on which `kind` (a class) computes its decision function X · W
    + b: its prediction methods all go through it (the hook the linear
    shortcut replaces by its own decisions)."""
    hook = (
        "decision_function"
        if hasattr(kind, "decision_function")
        else ("_decision_function")
    )
    original = getattr(kind, hook)
    rows = []

    def counted(self, X, *args, **kwargs):
        rows.append(X.shape[0])
        return original(self, X, *args, **kwargs)

    monkeypatch.setattr(kind, hook, counted)
    return rows


@pytest.mark.parametrize("scoring", ["r2", ["accuracy", "neg_log_loss", "roc_auc"]])
def test_no_copy_is_predicted(scoring, monkeypatch):
    X, y, target = messy_frame(300)
    if scoring == "r2":
        model, y = Ridge(), target
    else:
        model = LogisticRegression()
    pipe = messy_pipeline(model).fit(X, y)
    expected = sklearn_permutation_importance(
        pipe, X, y, scoring=scoring, n_repeats=2, random_state=0
    )
    rows = count_products(monkeypatch, type(model))
    result = permutation_importance(
        pipe, X, y, scoring=scoring, n_repeats=2, random_state=0, return_result=True
    )
    assert result.algorithm == "linear"
    # X itself, once per prediction method the scorers call (predict,
    # predict_proba, decision_function): no permuted copy.
    assert rows == [len(X)] * (1 if scoring == "r2" else 3)
    if isinstance(scoring, str):
        expected, scoring = {"r2": expected}, ["r2"]
    for name in scoring:
        assert_blas_close(result.importances(name), expected[name].importances)


@pytest.mark.parametrize(
    "pipe, reason",
    [
        (make_pipeline(PolynomialFeatures(2), LinearRegression()), "column-wise"),
        (make_pipeline(SimpleImputer(add_indicator=True), Ridge()), "column-wise"),
        (RandomForestRegressor(n_estimators=3, random_state=0), "RandomForest"),
    ],
    ids=["polynomial", "imputer-indicator", "forest"],
)
def test_unsupported_falls_back_and_linear_refuses(pipe, reason):
    X, y, _ = numeric_data(200)
    if "SimpleImputer" in repr(pipe):  # its indicator needs a NaN to fit
        X[::11, 0] = np.nan
    pipe.fit(X, y)
    result = permutation_importance(
        pipe, X, y, n_repeats=3, random_state=0, return_result=True
    )
    assert result.algorithm in ("generic", "tree")
    expected = sklearn_permutation_importance(pipe, X, y, n_repeats=3, random_state=0)
    assert_blas_close(result.importances("score"), expected.importances)
    with pytest.raises(ValueError, match=f"algorithm='linear'.*{reason}"):
        permutation_importance(pipe, X, y, algorithm="linear")


def test_custom_scorer_and_generic_take_the_generic_path():
    X, y, _ = numeric_data(200)
    model = Ridge().fit(X, y)

    def scorer(estimator, X, y):
        return -np.mean((estimator.predict(X) - y) ** 2)

    result = permutation_importance(
        model, X, y, scoring=scorer, n_repeats=3, random_state=0, return_result=True
    )
    assert result.algorithm == "generic"
    expected = sklearn_permutation_importance(
        model, X, y, scoring=scorer, n_repeats=3, random_state=0
    )
    assert_blas_close(result.importances("score"), expected.importances)
    with pytest.raises(ValueError, match="algorithm='linear': a custom scorer"):
        permutation_importance(model, X, y, scoring=scorer, algorithm="linear")
    generic = permutation_importance(
        model, X, y, algorithm="generic", n_repeats=3, random_state=0,
        return_result=True,
    )  # fmt: skip
    assert generic.algorithm == "generic"


def test_nan_reaching_the_model_refuses_linear():
    X, y, _ = numeric_data(200)
    model = Ridge().fit(X, y)
    X[3, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        permutation_importance(model, X, y, algorithm="linear")


def test_shipped_to_a_worker_predicts_the_same():
    """A remote joblib backend pickles the chunks' shortcut."""
    X, y, _ = numeric_data(100)
    linear = LinearModel.of(LogisticRegression().fit(X, y > 0), X)
    copies = [(np.random.default_rng(0).permutation(100), (1, 3))]
    methods = ["predict", "predict_proba"]
    expected = linear.predict(linear.X, copies, methods)
    shipped = pickle.loads(pickle.dumps(linear))
    for method in methods:
        np.testing.assert_array_equal(
            shipped.predict(shipped.X, copies, [method])[method], expected[method]
        )


def test_plain_model_on_nullable_and_integer_columns():
    """No pipeline: the model reads pandas' nullable columns as floats."""
    X, y, target = messy_frame(300)
    frame = X[["income", "children", "member", "visits"]]
    model = LogisticRegression().fit(frame, y)
    assert_matches_sklearn(model, frame, y, ["accuracy", "neg_log_loss"])
    with_missing = frame.copy()
    with_missing.loc[3, "income"] = pd.NA
    # The model refuses a missing value in either path, with its own message.
    for algorithm in ("auto", "generic"):
        with pytest.raises(ValueError, match="NaN"):
            permutation_importance(model, with_missing, y, algorithm=algorithm)


def test_same_bits_for_any_chunking_and_threads():
    """A copy's decisions are X's less a column's contribution plus its
    permuted rows' (computed once per column): the same whichever chunk or
    thread the copy lands in."""
    X, y, _ = messy_frame(300)
    pipe = messy_pipeline(LogisticRegression()).fit(X, y)
    kwargs = dict(scoring=["accuracy", "neg_log_loss"], n_repeats=4, random_state=3)
    reference = permutation_importance(pipe, X, y, return_result=True, **kwargs)
    for options in ({"n_jobs": 2}, {"max_memory": 2**16}):
        other = permutation_importance(
            pipe, X, y, return_result=True, **kwargs, **options
        )
        assert other.algorithm == "linear"
        for name in kwargs["scoring"]:
            np.testing.assert_array_equal(
                other.importances(name), reference.importances(name)
            )


def test_float32_data_takes_the_generic_path():
    """On float32 the model sums in float32, whose rounding another order of
    the sums would not reproduce: the shortcut leaves such data to the model,
    and the numbers are scikit-learn's bit for bit."""
    X, y, _ = numeric_data()
    X = X.astype(np.float32)
    model = Ridge().fit(X, y)
    result = permutation_importance(
        model, X, y, n_repeats=2, random_state=0, return_result=True
    )
    assert result.algorithm == "generic"
    expected = sklearn_permutation_importance(model, X, y, n_repeats=2, random_state=0)
    np.testing.assert_array_equal(result.importances("score"), expected.importances)
    with pytest.raises(ValueError, match="not a finite float64 matrix"):
        permutation_importance(model, X, y, n_repeats=2, algorithm="linear")
