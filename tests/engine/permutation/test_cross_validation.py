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
