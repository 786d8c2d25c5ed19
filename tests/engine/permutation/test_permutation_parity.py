"""Our permutation importance gives scikit-learn's numbers, computed side by side."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.base import clone
from sklearn.datasets import make_classification, make_regression
from sklearn.ensemble import (
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.inspection import permutation_importance as sklearn_permutation_importance
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import (
    average_precision_score,
    fbeta_score,
    make_scorer,
    mean_squared_error,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC

from inspectwidgets import permutation_importance

from numerics import assert_blas_close


def assert_same_as_sklearn(estimator, X, y, **kwargs):
    expected = sklearn_permutation_importance(estimator, X, y, **kwargs)
    got = permutation_importance(estimator, X, y, **kwargs)
    multimetric = "importances" not in expected
    assert ("importances" not in got) is multimetric
    if not multimetric:
        expected, got = {"score": expected}, {"score": got}
    assert list(got) == list(expected)
    for name in expected:
        for key in ("importances", "importances_mean", "importances_std"):
            assert got[name][key].shape == expected[name][key].shape
            assert_blas_close(got[name][key], expected[name][key])
    return got


def test_user_guide_diabetes_single_scorer(diabetes):
    model, X_val, y_val = diabetes
    got = assert_same_as_sklearn(model, X_val, y_val, n_repeats=30, random_state=0)
    # The user guide's table: s5, bmi, bp, sex are the features whose
    # importance stands two standard deviations above zero.
    order = got["score"].importances_mean.argsort()[::-1]
    significant = [
        X_val.columns[i]
        for i in order
        if got["score"].importances_mean[i] - 2 * got["score"].importances_std[i] > 0
    ]
    assert significant == ["s5", "bmi", "bp", "sex"]


def test_user_guide_diabetes_three_scorers(diabetes):
    model, X_val, y_val = diabetes
    scoring = ["r2", "neg_mean_absolute_percentage_error", "neg_mean_squared_error"]
    assert_same_as_sklearn(
        model, X_val, y_val, n_repeats=30, random_state=0, scoring=scoring
    )


def test_numpy_input_regressor_with_sample_weight(diabetes):
    _, X_val, y_val = diabetes
    X_val, y_val = X_val.to_numpy(), y_val.to_numpy()
    model = Ridge(alpha=0.1).fit(X_val, y_val)
    weight = np.random.default_rng(0).uniform(0.1, 2, len(y_val))
    assert_same_as_sklearn(
        model,
        X_val,
        y_val,
        n_repeats=4,
        random_state=3,
        sample_weight=weight,
        scoring=["r2", "neg_mean_absolute_error", "neg_root_mean_squared_error"],
    )


def test_random_forest_probability_scorers(binary):
    X, y = binary
    forest = RandomForestClassifier(n_estimators=15, random_state=0).fit(
        X[:300], y[:300]
    )
    assert_same_as_sklearn(
        forest,
        X[300:],
        y[300:],
        n_repeats=5,
        random_state=0,
        scoring=["accuracy", "roc_auc", "neg_log_loss"],
    )


def test_dataframe_pipeline_with_string_and_categorical_columns(mixed_pipeline):
    pipe, X, y = mixed_pipeline
    assert_same_as_sklearn(pipe, X, y, n_repeats=5, random_state=0)
    assert_same_as_sklearn(
        pipe,
        X,
        y,
        n_repeats=3,
        random_state=1,
        scoring=["accuracy", "roc_auc", "neg_brier_score"],
    )


def test_multiclass_probabilities_sample_weight_and_max_samples():
    X, y = make_classification(
        n_samples=300,
        n_features=5,
        n_informative=4,
        n_redundant=0,
        n_classes=3,
        random_state=1,
    )
    model = LogisticRegression(max_iter=500).fit(X, y)
    weight = np.random.default_rng(1).uniform(0.5, 1.5, len(y))
    for max_samples in (0.5, 120, 1.0):
        assert_same_as_sklearn(
            model,
            X,
            y,
            n_repeats=4,
            random_state=2,
            sample_weight=weight,
            max_samples=max_samples,
            scoring=["accuracy", "neg_log_loss", "roc_auc_ovr", "balanced_accuracy"],
        )


def test_histgradientboosting_max_samples_and_n_jobs():
    X, y = make_regression(n_samples=400, n_features=5, n_informative=3, random_state=0)
    model = HistGradientBoostingRegressor(max_iter=30, random_state=0).fit(X, y)
    assert_same_as_sklearn(
        model,
        X,
        y,
        n_repeats=3,
        random_state=0,
        max_samples=0.6,
        n_jobs=2,
        scoring="neg_mean_absolute_error",
    )


def test_decision_function_with_string_labels_and_pos_label(binary):
    X, y = binary
    labels = np.where(y == 1, "yes", "no")
    model = SVC(random_state=0).fit(X, labels)
    assert_same_as_sklearn(
        model,
        X,
        labels,
        n_repeats=3,
        random_state=0,
        scoring={
            "ap_no": make_scorer(
                average_precision_score,
                response_method="decision_function",
                pos_label="no",
            ),
            "f2_no": make_scorer(fbeta_score, beta=2, pos_label="no"),
        },
    )


@pytest.mark.parametrize("with_weight", [False, True])
def test_probability_metrics_with_string_labels_and_decision_function(
    binary, with_weight
):
    X, y = binary
    labels = np.where(y == 1, "yes", "no")
    weight = np.linspace(0.2, 3, len(y)) if with_weight else None
    scoring = ["roc_auc", "neg_log_loss", "accuracy"]
    for model in (
        LogisticRegression(),
        RandomForestClassifier(n_estimators=5, random_state=0),
    ):
        model.fit(X, labels)
        assert_same_as_sklearn(
            model,
            X,
            labels,
            n_repeats=3,
            random_state=0,
            scoring=scoring,
            sample_weight=weight,
        )


def test_one_class_rows_fail_as_in_sklearn(binary):
    # Rows holding one class only are outside the vectorized log loss; the
    # error comes from scikit-learn's own function, as it would without us.
    X, y = binary
    model = LogisticRegression().fit(X, y)
    rows = y == 1
    kwargs = dict(n_repeats=2, random_state=0, scoring="neg_log_loss")
    with pytest.raises(ValueError, match="contains only one label") as expected:
        sklearn_permutation_importance(model, X[rows], y[rows], **kwargs)
    with pytest.raises(ValueError) as got:
        permutation_importance(model, X[rows], y[rows], **kwargs)
    assert str(got.value) == str(expected.value)


def test_custom_callables_and_dict_returning_scorer(binary):
    X, y = binary
    model = KNeighborsClassifier().fit(X, y)

    def agreement(estimator, X, y):
        return float(np.mean(estimator.predict(X) == y))

    def two_scores(estimator, X, y):
        predicted = estimator.predict(X)
        return {
            "hits": float(np.sum(predicted == y)),
            "misses": float(np.sum(predicted != y)),
        }

    assert_same_as_sklearn(model, X, y, n_repeats=3, random_state=0, scoring=agreement)
    assert_same_as_sklearn(model, X, y, n_repeats=3, random_state=0, scoring=two_scores)
    assert_same_as_sklearn(
        model,
        X,
        y,
        n_repeats=3,
        random_state=0,
        scoring={"custom": agreement, "acc": "accuracy"},
    )


def test_multioutput_regression():
    X, y = make_regression(n_samples=200, n_features=4, n_targets=2, random_state=0)
    model = RandomForestRegressor(n_estimators=10, random_state=0).fit(X, y)
    assert_same_as_sklearn(model, X, y, n_repeats=3, random_state=0)
    assert_same_as_sklearn(
        model,
        X,
        y,
        n_repeats=3,
        random_state=0,
        scoring=make_scorer(mean_squared_error, greater_is_better=False),
    )


def test_random_state_instance_is_consumed_like_sklearn(diabetes):
    model, X_val, y_val = diabetes
    ours, theirs = np.random.RandomState(7), np.random.RandomState(7)
    got = permutation_importance(model, X_val, y_val, n_repeats=3, random_state=ours)
    expected = sklearn_permutation_importance(
        model, X_val, y_val, n_repeats=3, random_state=theirs
    )
    assert_blas_close(got.importances, expected.importances)
    assert ours.randint(1000) == theirs.randint(1000)


@pytest.mark.parametrize(
    "final_step, assert_same",
    [
        # Trees compare and sum in a fixed order: exact whatever the chunks.
        (RandomForestClassifier(n_estimators=10, random_state=0), assert_array_equal),
        # A matrix product rounds by the rows in the call: BLAS tolerance.
        (LogisticRegression(), assert_blas_close),
    ],
    ids=["forest", "logistic"],
)
@pytest.mark.parametrize("n_jobs", [1, 2])
@pytest.mark.parametrize("max_memory", [1, 20_000, 256 * 2**20])
def test_same_for_any_n_jobs_and_chunk_size(
    mixed_pipeline, final_step, assert_same, n_jobs, max_memory
):
    pipe, X, y = mixed_pipeline
    pipe = clone(pipe).set_params(logisticregression=final_step).fit(X, y)
    kwargs = dict(n_repeats=3, random_state=0, scoring=["accuracy", "roc_auc"])
    reference = permutation_importance(pipe, X, y, **kwargs)
    got = permutation_importance(
        pipe, X, y, n_jobs=n_jobs, max_memory=max_memory, **kwargs
    )
    for name in reference:
        assert_same(got[name].importances, reference[name].importances)


def test_selected_features_match_sklearn_rows(mixed_pipeline):
    pipe, X, y = mixed_pipeline
    expected = sklearn_permutation_importance(pipe, X, y, n_repeats=4, random_state=0)
    got = permutation_importance(
        pipe, X, y, n_repeats=4, random_state=0, features=["age", 0]
    )
    assert list(got.feature_names) == ["age", "city"]
    assert_blas_close(got.importances, expected.importances[[2, 0]])


def test_baseline_score_is_sklearns(diabetes):
    model, X_val, y_val = diabetes
    got = permutation_importance(model, X_val, y_val, n_repeats=2, random_state=0)
    assert got.baseline_score == model.score(X_val, y_val)


def test_regressor_on_frame_with_categorical_dtype_numpy_object():
    rng = np.random.default_rng(0)
    X = np.empty((150, 2), dtype=object)
    X[:, 0] = rng.normal(size=150)
    X[:, 1] = rng.normal(size=150)
    y = X[:, 0].astype(float) * 2 + rng.normal(size=150)
    model = Ridge().fit(X.astype(float), y)
    # An object array goes through as scikit-learn passes it.
    assert_same_as_sklearn(model, X, y, n_repeats=2, random_state=0)
    frame = pd.DataFrame(X.astype(float), columns=["a", "b"])
    assert_same_as_sklearn(Ridge().fit(frame, y), frame, y, n_repeats=2, random_state=0)


def test_roc_auc_with_tied_scores_is_sklearns_to_the_bit():
    """Boosting's raw scores tie a lot; the Mann-Whitney form of the AUC we once
    vectorized differed from scikit-learn's trapezoids by 1.1e-16 here."""
    from sklearn.ensemble import GradientBoostingClassifier

    X, y = make_classification(n_samples=800, n_features=6, random_state=1)
    model = GradientBoostingClassifier(n_estimators=20, random_state=0).fit(X, y)
    kwargs = dict(n_repeats=3, random_state=0, scoring=["roc_auc", "accuracy"])
    expected = sklearn_permutation_importance(model, X, y, **kwargs)
    for algorithm in ("generic", "tree"):
        got = permutation_importance(model, X, y, algorithm=algorithm, **kwargs)
        for name in kwargs["scoring"]:
            assert_array_equal(got[name].importances, expected[name].importances)


def test_max_samples_rows_keep_no_pool():
    """The subsample's row indices are their own array: a view would keep
    sample_without_replacement's pool of every row alive for the whole run."""
    from inspectwidgets.inspection._permutation.schedule import permutation_schedule

    rows, _ = permutation_schedule(np.random.RandomState(0), 100_000, 1_000, 2)
    assert rows.base is None and rows.shape == (1_000,)
