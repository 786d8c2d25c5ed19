"""Bad input: a clear error naming the argument, raised before any prediction;
inputs never modified."""

import hashlib
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.cluster import KMeans
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.svm import SVC

from inspectwidgets import iter_partial_dependence, partial_dependence
from inspectwidgets.inspection._core.compat import UNKNOWN_COLUMN_WORDS

from numerics import assert_blas_close
from sklearn_reference import sklearn_partial_dependence as sk_partial_dependence


class NoPredictionAllowed(RegressorMixin, BaseEstimator):
    """A fitted regressor that fails the test if it is ever asked to predict."""

    def fit(self, X, y):
        self.coef_ = np.zeros(np.shape(X)[1])
        return self

    def predict(self, X):
        pytest.fail("validation must happen before any prediction")


class NoProbaAllowed(ClassifierMixin, BaseEstimator):
    """A fitted 3-class classifier that fails the test if asked to predict."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        pytest.fail("validation must happen before any prediction")

    def decision_function(self, X):
        pytest.fail("validation must happen before any prediction")


@pytest.fixture
def frame():
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {
            "a": rng.normal(size=40),
            "b": rng.normal(size=40),
            "n": np.arange(40),  # integer column
            "c": rng.choice(["x", "y"], 40),
        }
    )


@pytest.fixture
def guarded(frame):
    return NoPredictionAllowed().fit(frame, np.zeros(40))


@pytest.fixture
def guarded_classifier(frame):
    return NoProbaAllowed().fit(frame, np.arange(40) % 3)


@pytest.mark.parametrize(
    "features, kwargs, error, message",
    [
        (
            ["nope"],
            {},
            ValueError,
            # The installed scikit-learn's words (1.9 changed them), then ours.
            rf"{UNKNOWN_COLUMN_WORDS}: \{{'nope'\}} "
            r"\(features\[0\]\)\. X's columns are \['a', 'b', 'n', 'c'\]",
        ),
        ([7], {}, ValueError, r"all features must be in \[0, 3\]; got 7 \(features"),
        ([-1], {}, ValueError, r"all features must be in \[0, 3\]; got -1"),
        (["a", "a"], {}, ValueError, r"features names the same column more than"),
        ([], {}, ValueError, "features is empty"),
        (
            ["a"],
            dict(grid_resolution=1),
            ValueError,
            "'grid_resolution' must be strictly greater than 1; got 1",
        ),
        (
            ["a"],
            dict(grid_resolution=2.5),
            TypeError,
            r"The 'grid_resolution' parameter of partial_dependence must be an int "
            r"in the range \[1, inf\)\. Got 2\.5 instead\.",
        ),
        (
            ["a"],
            dict(percentiles=(0.9, 0.1)),
            ValueError,
            r"strictly less .* got \(0.9, 0.1\)",
        ),
        (
            ["a"],
            dict(percentiles=(-0.1, 0.5)),
            ValueError,
            r"in \[0, 1\]; got \(-0.1, 0.5\)",
        ),
        (
            ["a"],
            dict(percentiles=(0.5, 1.5)),
            ValueError,
            r"in \[0, 1\]; got \(0.5, 1.5\)",
        ),
        (
            ["a"],
            dict(percentiles=(0.5,)),
            ValueError,
            r"'percentiles' must be a sequence of 2 elements.* got \(0.5,\)",
        ),
        (
            ["a"],
            dict(percentiles=(0.5, 0.5 + 1e-12), grid_resolution=5),
            ValueError,
            r"percentiles are too close to each other, unable to build the grid: "
            r"percentiles=\(0.5, 0.5\d*\) give the same value \(-0.129074\) for",
        ),
        (
            ["a"],
            dict(method="recursion"),
            ValueError,
            r"Only the following estimators support the 'recursion' method: "
            r"GradientBoostingClassifier, .*; got NoPredictionAllowed\. Try using "
            "method='brute'",
        ),
        (
            ["a"],
            dict(method="fast"),
            ValueError,
            r"The 'method' parameter of partial_dependence must be a str among "
            r"\{.*'brute'.*\}\. Got 'fast' instead\.",
        ),
        (
            ["a"],
            dict(kind="all"),
            ValueError,
            r"The 'kind' parameter of partial_dependence must be a str among "
            r"\{.*'average'.*\}\. Got 'all' instead\.",
        ),
        (
            ["a"],
            dict(response_method="predict_proba"),
            ValueError,
            "The response_method parameter is ignored for regressors and must be "
            "'auto'; got 'predict_proba'",
        ),
        (
            ["a"],
            dict(response_method="proba"),
            ValueError,
            r"The 'response_method' parameter of partial_dependence must be a str "
            r"among \{.*\}\. Got 'proba' instead\.",
        ),
        (
            ["a"],
            dict(scale="log_odds"),
            ValueError,
            "scale='log_odds' transforms predicted probabilities",
        ),
        (
            ["a"],
            dict(scale="logit"),
            ValueError,
            r"scale must be one of .* got 'logit'",
        ),
        (
            ["a"],
            dict(sample_weight=np.ones(3)),
            ValueError,
            r"sample_weight\.shape == \(3,\), expected \(40,\)! Pass one weight",
        ),
        (
            ["a"],
            dict(categorical_features=[True, False]),
            ValueError,
            r"boolean array-like, the array should be of shape \(n_features,\)\. "
            r"Got 2 elements while `X` contains 4 features\.",
        ),
        (
            ["a"],
            dict(categorical_features=["zzz"]),
            ValueError,
            "categorical_features: unknown feature 'zzz'",
        ),
        (
            ["a"],
            dict(custom_values={"a": [[1, 2], [3, 4]]}),
            ValueError,
            r"The custom grid for some features is not a one-dimensional array\. "
            r"Feature 0: 2 dimensions \(custom_values\['a'\] has shape \(2, 2\)\)",
        ),
        (
            ["a"],
            dict(custom_values={"a": []}),
            ValueError,
            r"custom_values\['a'\] is empty; give grid values\.",
        ),
        (
            ["a"],
            dict(custom_values=[1.0, 2.0]),
            TypeError,
            r"The 'custom_values' parameter of partial_dependence must be an "
            r"instance of 'dict' or None\. Got \[1\.0, 2\.0\] instead\.",
        ),
        (
            ["a"],
            dict(kind="both", n_ice=0),
            ValueError,
            "n_ice must be None or an int >= 1; got 0",
        ),
        (
            ["a"],
            dict(correlation_threshold=1.5),
            ValueError,
            "correlation_threshold must be None or a number in",
        ),
        (
            ["a"],
            dict(max_memory=0),
            ValueError,
            "max_memory must be a positive number of bytes; got 0",
        ),
        (
            ["a"],
            dict(cancel=True),
            TypeError,
            "cancel must be an object with an is_set",
        ),
        (
            ["a"],
            dict(centered="yes"),
            TypeError,
            "centered must be True or False; got 'yes'",
        ),
        (
            ["a"],
            dict(feature_names=["a", "a", "b", "c"]),
            ValueError,
            "feature_names contains duplicates",
        ),
        ([True, False], {}, ValueError, "boolean mask must have 4 entries"),
    ],
)
@pytest.mark.parametrize("streamed", [False, True])
def test_bad_input_names_the_argument(
    guarded, frame, features, kwargs, error, message, streamed
):
    compute = iter_partial_dependence if streamed else partial_dependence
    with pytest.raises(error, match=message):
        compute(guarded, frame, features, **kwargs)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            dict(method="recursion"),
            "Only the following estimators support the 'recursion' method",
        ),
        (
            dict(kind="individual", method="recursion"),
            "The 'recursion' method only applies when 'kind' is set to 'average'; "
            "got kind='individual'",
        ),
        (
            dict(kind="both", method="recursion"),
            "The 'recursion' method only applies when 'kind' is set to 'average'; "
            "got kind='both'",
        ),
        (
            dict(scale="log_odds", response_method="decision_function"),
            "scale='log_odds'",
        ),
        (dict(classes=[7]), r"classes: \[7\] not among the classes .*\[0, 1, 2\]"),
        (dict(classes=["1"]), r"classes: \['1'\] not among the classes"),
        (dict(classes=[]), "classes is empty"),
        (dict(classes=[1, 1]), "classes names a class more than once"),
    ],
)
def test_bad_input_for_classifiers(guarded_classifier, frame, kwargs, message):
    with pytest.raises(ValueError, match=message):
        partial_dependence(guarded_classifier, frame, ["a"], **kwargs)


def test_classes_of_a_regressor_or_a_binary_decision_function(guarded, frame):
    with pytest.raises(ValueError, match="classes applies to classifiers only"):
        partial_dependence(guarded, frame, ["a"], classes=[0])
    binary = NoProbaAllowed().fit(frame, np.arange(40) % 2)
    with pytest.raises(ValueError, match="only gives values for the positive class 1"):
        partial_dependence(
            binary, frame, ["a"], classes=[0], response_method="decision_function"
        )


def test_recursion_errors_on_supported_estimators(frame):
    from sklearn.ensemble import GradientBoostingRegressor

    X = frame[["a", "b"]]
    model = GradientBoostingRegressor(n_estimators=2).fit(X, frame["a"])
    with pytest.raises(
        ValueError,
        match="The 'recursion' method can only be applied when sample_weight is None",
    ):
        partial_dependence(
            model, X, ["a"], method="recursion", sample_weight=np.ones(40)
        )
    with pytest.raises(ValueError, match="only applies when 'kind' is set to"):
        partial_dependence(model, X, ["a"], method="recursion", kind="both")
    with pytest.raises(
        ValueError,
        match="With the 'recursion' method, the response_method must be "
        "'decision_function'. Got predict_proba.",
    ):
        from sklearn.ensemble import GradientBoostingClassifier

        classifier = GradientBoostingClassifier(n_estimators=2).fit(X, frame["c"])
        partial_dependence(
            classifier, X, ["a"], method="recursion", response_method="predict_proba"
        )


def test_missing_response_method(frame):
    X = frame[["a", "b"]]
    model = SVC().fit(X, frame["c"])
    with pytest.raises(
        AttributeError,
        match=r"SVC has none of the following attributes: predict_proba\. "
        r"\(response_method='predict_proba'\)",
    ):
        partial_dependence(model, X, ["a"], response_method="predict_proba")
    with pytest.raises(ValueError, match="scale='log_odds'"):
        partial_dependence(model, X, ["a"], scale="log_odds")


def test_unfitted_empty_and_unsupported(frame):
    X = frame[["a", "b"]]
    with pytest.raises(NotFittedError, match="Ridge is not fitted yet"):
        partial_dependence(Ridge(), X, ["a"])
    model = Ridge().fit(X, frame["a"])
    with pytest.raises(ValueError, match=r"X is empty: got shape \(0, 2\)"):
        partial_dependence(model, X.iloc[:0], ["a"])
    with pytest.raises(ValueError, match=r"X is empty: got shape \(0, 2\)"):
        partial_dependence(model, np.empty((0, 2)), [0])
    with pytest.raises(ValueError, match=r"X is empty: got shape \(0, 2\)"):
        partial_dependence(model, sparse.csr_matrix((0, 2)), [0])
    clusters = KMeans(n_clusters=2, n_init=1, random_state=0).fit(X)
    with pytest.raises(
        ValueError,
        match="'estimator' must be a fitted regressor or classifier; got KMeans",
    ):
        partial_dependence(clusters, X, ["a"])


def test_grid_value_a_column_cannot_hold(frame):
    X = frame[["a", "b"]].astype(np.float32)
    model = Ridge().fit(X, frame["a"])
    if int(pd.__version__.split(".")[0]) < 3:
        # pandas 2 upcasts the column instead (with a FutureWarning), in
        # scikit-learn's loop as in ours: the same values (up to BLAS: the
        # linear shortcut adds the grid value's part to X's decisions).
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            theirs = sk_partial_dependence(model, X, ["a"], custom_values={"a": [0.1]})
            ours = partial_dependence(model, X, ["a"], custom_values={"a": [0.1]})
        assert_blas_close(ours.average, theirs.average)
        return
    # pandas refuses float64 grid values that float32 cannot hold exactly, as
    # it does inside scikit-learn's loop; we say which feature and value.
    with pytest.raises(TypeError, match="features: column 'a' of dtype float32"):
        partial_dependence(model, X, ["a"], custom_values={"a": [0.1]})


def digest(obj):
    return hashlib.sha256(pickle.dumps(obj)).hexdigest()


def test_inputs_are_not_modified(frame):
    from sklearn.compose import make_column_transformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    X = frame.drop(columns="n")
    weight = np.linspace(1, 2, 40)
    custom = {"a": [0.0, 1.0]}
    pipe = make_pipeline(
        make_column_transformer((OneHotEncoder(), ["c"]), remainder="passthrough"),
        LogisticRegression(),
    ).fit(X, np.arange(40) % 2)
    array = X[["a", "b"]].to_numpy()
    model = Ridge().fit(array, frame["a"])
    before = [digest(o) for o in (X, weight, custom, array, pipe, model)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for features in (["a"], ["c", "b"], ["c"]):
            partial_dependence(
                pipe,
                X,
                features,
                kind="both",
                sample_weight=weight,
                custom_values=custom,
                categorical_features=["c"],
                centered=True,
                scale="log_odds",
            )
        partial_dependence(model, array, [0, 1], kind="both", sample_weight=weight)
    after = [digest(o) for o in (X, weight, custom, array, pipe, model)]
    assert after == before
