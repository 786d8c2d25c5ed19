"""Cross-validated permutation importance equals the hand-written procedure."""

import numpy as np
from numpy.testing import assert_allclose
from sklearn.base import clone
from sklearn.inspection import permutation_importance as sklearn_permutation_importance
from sklearn.model_selection import GroupKFold, StratifiedKFold

from inspectwidgets import cross_val_permutation_importance

from numerics import assert_blas_close


def test_matches_refitting_and_sklearn_on_each_fold(mixed_pipeline):
    pipe, X, y = mixed_pipeline
    result = cross_val_permutation_importance(
        pipe,
        X,
        y,
        cv=3,
        n_repeats=4,
        random_state=0,
        scoring=["accuracy", "roc_auc"],
        return_estimator=True,
    )
    seeds = np.random.RandomState(0).randint(np.iinfo(np.int32).max + 1, size=3)
    for k, (train, test) in enumerate(StratifiedKFold(3).split(X, y)):
        fitted = clone(pipe).fit(X.iloc[train], y[train])
        expected = sklearn_permutation_importance(
            fitted,
            X.iloc[test],
            y[test],
            n_repeats=4,
            random_state=seeds[k],
            scoring=["accuracy", "roc_auc"],
        )
        for name in ("accuracy", "roc_auc"):
            assert_blas_close(
                result[name].fold_importances[k], expected[name].importances
            )
            assert (
                result[name].baseline_scores[k] == fitted.score(X.iloc[test], y[test])
                or name != "accuracy"
            )
    accuracy = result["accuracy"]
    assert accuracy.importances.shape == (4, 3)
    assert_allclose(accuracy.importances_mean, accuracy.importances.mean(axis=1))
    assert_allclose(
        accuracy.ci_high - accuracy.ci_low, 2 * 1.96 * accuracy.importances_std
    )
    assert len(accuracy.estimators) == 3


def test_parallel_folds_and_groups(mixed_pipeline):
    pipe, X, y = mixed_pipeline
    groups = np.arange(len(y)) % 7
    kwargs = dict(cv=GroupKFold(3), groups=groups, n_repeats=2, random_state=1)
    sequential = cross_val_permutation_importance(pipe, X, y, **kwargs)
    parallel = cross_val_permutation_importance(pipe, X, y, n_jobs=2, **kwargs)
    # Folds in parallel run their chunks at other speeds, so other chunk
    # sizes: a logistic regression's rounding may differ.
    assert_blas_close(sequential.fold_importances, parallel.fold_importances)
    assert list(sequential.feature_names) == list(X.columns)


def test_iris_folds_agree_on_petals_not_on_which_petal():
    # The example in docs/permutation_importance.md: every refit relies on the
    # petal measurements and neither sepal one; which petal leads changes
    # between refits (the two are correlated, Spearman rho 0.94).
    from sklearn.datasets import load_iris
    from sklearn.ensemble import RandomForestClassifier

    X, y = load_iris(return_X_y=True, as_frame=True)
    forest = RandomForestClassifier(n_estimators=50, random_state=0)
    r = cross_val_permutation_importance(
        forest, X, y, cv=5, n_repeats=10, random_state=0
    )
    sepal, petal = r.importances[:2], r.importances[2:]
    assert (petal.min(axis=0) > sepal.max(axis=0)).all()
    assert (sepal.max(axis=1) <= 0.02).all()
    length_first = petal[0] > petal[1]
    assert length_first.any() and not length_first.all()
