"""Out-of-bag permutation importance against a straightforward per-tree loop."""

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.datasets import make_classification, make_regression
from sklearn.ensemble import (
    BaggingRegressor,
    ExtraTreesClassifier,
    GradientBoostingClassifier,
    RandomForestClassifier,
)
from sklearn.linear_model import Ridge
from sklearn.metrics import accuracy_score, r2_score

from inspectwidgets import oob_permutation_importance

from numerics import assert_blas_close


def naive_oob(ensemble, X, y, n_repeats, random_state, metric, predict):
    """Breiman's procedure written out: each member, its OOB rows, each feature
    permuted among them; the documented seeding (member t uses the t-th int
    drawn from random_state, then scikit-learn's per-column scheme)."""
    n = X.shape[0]
    seeds = np.random.RandomState(random_state).randint(
        np.iinfo(np.int32).max + 1, size=len(ensemble.estimators_)
    )
    drops = []
    for t, in_bag in enumerate(ensemble.estimators_samples_):
        oob = np.setdiff1d(np.arange(n), in_bag)
        X_oob, y_oob = X[oob], y[oob]
        columns = getattr(ensemble, "estimators_features_", [None] * (t + 1))[t]
        member = ensemble.estimators_[t]
        baseline = metric(y_oob, predict(member, X_oob, columns))
        rng = np.random.RandomState(
            np.random.RandomState(seeds[t]).randint(np.iinfo(np.int32).max + 1)
        )
        per_feature = np.empty((X.shape[1], n_repeats))
        order = np.arange(len(oob))
        state = rng.get_state()
        for f in range(X.shape[1]):
            rng.set_state(state)  # every column sees the same permutations
            permuted = X_oob.copy()
            order = np.arange(len(oob))
            for r in range(n_repeats):
                rng.shuffle(order)
                permuted[:, f] = permuted[order, f]
                per_feature[f, r] = baseline - metric(
                    y_oob, predict(member, permuted, columns)
                )
        drops.append(per_feature)
    return np.mean(drops, axis=0)


def tree_label(forest):
    def predict(member, X, columns):
        return forest.classes_.take(np.argmax(member.predict_proba(X), axis=1))

    return predict


def test_random_forest_classifier_matches_the_naive_loop():
    X, y = make_classification(
        n_samples=200, n_features=4, n_informative=2, n_redundant=0, random_state=0
    )
    X = X.astype(np.float32)
    forest = RandomForestClassifier(n_estimators=8, random_state=0).fit(X, y)
    result = oob_permutation_importance(forest, X, y, n_repeats=3, random_state=5)
    expected = naive_oob(forest, X, y, 3, 5, accuracy_score, tree_label(forest))
    assert_array_equal(result.importances, expected)
    assert result.member_importances.shape == (8, 4)
    parallel = oob_permutation_importance(
        forest, X, y, n_repeats=3, random_state=5, n_jobs=2
    )
    assert_array_equal(parallel.importances, result.importances)


def test_bagging_with_feature_subsets_matches_the_naive_loop():
    X, y = make_regression(n_samples=150, n_features=5, n_informative=3, random_state=0)
    bagging = BaggingRegressor(
        Ridge(), n_estimators=6, max_features=3, random_state=0
    ).fit(X, y)

    def predict(member, X, columns):
        return member.predict(X[:, columns])

    result = oob_permutation_importance(bagging, X, y, n_repeats=2, random_state=1)
    assert_blas_close(
        result.importances, naive_oob(bagging, X, y, 2, 1, r2_score, predict)
    )


def test_informative_features_rank_first():
    X, y = make_classification(
        n_samples=400,
        n_features=6,
        n_informative=2,
        n_redundant=0,
        shuffle=False,
        random_state=0,
    )
    forest = ExtraTreesClassifier(n_estimators=30, bootstrap=True, random_state=0).fit(
        X, y
    )
    result = oob_permutation_importance(
        forest, X, y, n_repeats=3, random_state=0, scoring=["accuracy", "neg_log_loss"]
    )
    assert set(np.argsort(result["accuracy"].importances_mean)[-2:]) == {0, 1}


def test_ensembles_without_bootstrap_are_refused():
    X, y = make_classification(n_samples=60, random_state=0)
    with pytest.raises(ValueError, match="bootstrap=False"):
        oob_permutation_importance(ExtraTreesClassifier(n_estimators=3).fit(X, y), X, y)
    with pytest.raises(TypeError, match="bagged ensemble"):
        oob_permutation_importance(
            GradientBoostingClassifier(n_estimators=3).fit(X, y), X, y
        )
    forest = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, y)
    with pytest.raises(
        ValueError, match="X has 59 rows but the forest was fitted on 60"
    ):
        oob_permutation_importance(forest, X[:-1], y[:-1])
