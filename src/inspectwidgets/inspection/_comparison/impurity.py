"""Importances read from fitted trees: MDI and ESL's relative importance."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from sklearn.base import is_classifier
from sklearn.ensemble import (
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
)
from sklearn.tree import BaseDecisionTree
from sklearn.utils import Bunch

from .._core.compat import BaseForest
from .._core.hints import Estimator
from .._core.validation import check_fitted

_BOOSTING = (GradientBoostingClassifier, GradientBoostingRegressor)
_HIST_BOOSTING = (HistGradientBoostingClassifier, HistGradientBoostingRegressor)


def _feature_names(estimator, feature_names):
    n_features = estimator.n_features_in_
    if feature_names is None:
        names = getattr(estimator, "feature_names_in_", None)
        if names is None:
            return [f"x{i}" for i in range(n_features)]
        return [str(n) for n in names]
    feature_names = [str(n) for n in feature_names]
    if len(feature_names) != n_features:
        raise ValueError(
            f"feature_names has {len(feature_names)} names but the estimator was "
            f"fitted on {n_features} features."
        )
    return feature_names


def is_tree_model(estimator):
    """Whether impurity and relative importance can be read from `estimator`."""
    return isinstance(
        estimator, (BaseDecisionTree, BaseForest, *_BOOSTING, *_HIST_BOOSTING)
    )


def _check_tree_model(estimator, what):
    check_fitted(estimator)
    if not is_tree_model(estimator):
        raise TypeError(
            f"estimator: {what} is defined for scikit-learn's tree models "
            "(DecisionTree*, RandomForest*, ExtraTrees*, GradientBoosting*, "
            f"HistGradientBoosting*); got {type(estimator).__name__}. Use "
            "permutation_importance for other models."
        )


def tree_improvements(tree, n_features):
    """Total impurity decrease of a fitted ``sklearn.tree`` per feature.

    For each internal node t, ``w_t i_t - w_left i_left - w_right i_right``
    (weighted samples times impurity), summed over the nodes splitting on each
    feature. With squared-error criteria this is the improvement in squared
    error ι²_t of ESL eq. 10.42; Gini is the squared error of one-hot targets.
    """
    t = tree.tree_
    internal = t.children_left != -1
    left, right = t.children_left[internal], t.children_right[internal]
    w, impurity = t.weighted_n_node_samples, t.impurity
    decrease = (
        w[internal] * impurity[internal]
        - w[left] * impurity[left]
        - w[right] * impurity[right]
    )
    return np.bincount(t.feature[internal], weights=decrease, minlength=n_features)


def predictor_gains(predictor, n_features):
    """Split gains of a HistGradientBoosting tree per feature."""
    nodes = predictor.nodes[predictor.nodes["is_leaf"] == 0]
    return np.bincount(
        nodes["feature_idx"], weights=nodes["gain"], minlength=n_features
    )


def _trees_by_class(estimator):
    """The fitted trees, one list per boosted class (a single list otherwise),
    and the function giving a tree's improvements per feature."""
    if isinstance(estimator, BaseDecisionTree):
        return [[estimator]], tree_improvements
    if isinstance(estimator, BaseForest):
        return [list(estimator.estimators_)], tree_improvements
    if isinstance(estimator, _BOOSTING):
        stages = estimator.estimators_
        return [list(stages[:, k]) for k in range(stages.shape[1])], tree_improvements
    predictors = estimator._predictors
    n_trees_per_iteration = len(predictors[0])
    return (
        [
            [iteration[k] for iteration in predictors]
            for k in range(n_trees_per_iteration)
        ],
        predictor_gains,
    )


def impurity_importance(
    estimator: Estimator, *, feature_names: Sequence[str] | None = None
) -> Bunch:
    """Mean decrease in impurity (MDI), with its spread over the trees.

    For scikit-learn's trees and forests and for GradientBoosting* this equals
    the estimator's ``feature_importances_``; for HistGradientBoosting*, which
    has none, it is the split gains summed per feature (the same idea, with
    the boosting loss's gain instead of the impurity decrease).

    MDI is computed on the training data: it favours features with many
    distinct values and says nothing about generalization. Compare it with
    permutation importance on held-out data (:func:`compare_importances`).

    Parameters
    ----------
    estimator : fitted tree-based estimator
    feature_names : list of str, default=None
        Names of the features the estimator was fitted on; its
        ``feature_names_in_`` (or x0, x1, ...) when None.

    Returns
    -------
    result : Bunch
        importances_mean : ndarray of shape (n_features,)
            MDI, summing to 1 (0 everywhere if no tree has a split).
        importances_std : ndarray of shape (n_features,)
            Standard deviation of the trees' contributions.
        importances : ndarray of shape (n_trees, n_features)
            Each tree's contribution; their mean is `importances_mean`.
        feature_names : ndarray of str
            The features' names, in the order of the columns.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.ensemble import RandomForestRegressor
    >>> from inspectwidgets import impurity_importance
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> forest = RandomForestRegressor(n_estimators=10, max_depth=3, random_state=0)
    >>> mdi = impurity_importance(forest.fit(X, y))
    >>> np.allclose(mdi.importances_mean, forest.feature_importances_)
    True
    >>> mdi.importances.shape  # one row per tree
    (10, 10)
    """
    _check_tree_model(estimator, "impurity importance")
    names = _feature_names(estimator, feature_names)
    n_features = len(names)
    groups, improvements = _trees_by_class(estimator)
    trees = [tree for group in groups for tree in group]
    # Each tree's row, then them all as one (n_trees, n_features) array.
    rows: Any
    if isinstance(estimator, (BaseDecisionTree, BaseForest)):
        # As scikit-learn: each tree normalized, then their mean normalized.
        rows = [
            tree.feature_importances_ for tree in trees if tree.tree_.node_count > 1
        ]
    elif isinstance(estimator, _BOOSTING):
        rows = [
            tree.tree_.compute_feature_importances(normalize=False)
            for tree in trees
            if tree.tree_.node_count > 1
        ]
    else:
        rows = [improvements(tree, n_features) for tree in trees]
    rows = np.array(rows, dtype=np.float64).reshape(-1, n_features)
    mean = (
        np.mean(rows, axis=0, dtype=np.float64) if len(rows) else np.zeros(n_features)
    )
    total = mean.sum()
    if total > 0:
        rows = rows / total
        mean = mean / total
    return Bunch(
        importances_mean=mean,
        importances_std=rows.std(axis=0) if len(rows) else np.zeros(n_features),
        importances=rows,
        feature_names=np.asarray(names, dtype=object),
    )


def relative_importance(
    estimator: Estimator,
    *,
    per_class: bool = False,
    feature_names: Sequence[str] | None = None,
) -> Bunch:
    """Relative importance of *The Elements of Statistical Learning* (10.13.1).

    For each tree, the squared-error improvements ι²_t of the internal nodes
    splitting on a feature are summed (eq. 10.42); these sums are averaged over
    the trees (10.43), the square root is taken, and the result is scaled so
    that the most relevant feature is 100. For a K-class gradient boosting
    model, class k's importance uses only class k's trees (10.45) and the
    overall importance is the square root of the mean over classes of the
    squared class importances (10.46: I²_l = (1/K) Σ_k I²_lk).

    Parameters
    ----------
    estimator : fitted DecisionTree*, RandomForest*, ExtraTrees*,
        GradientBoosting* or HistGradientBoosting*
    per_class : bool, default=False
        Also return each class's importances (K-class boosting only).
    feature_names : list of str, default=None

    Returns
    -------
    result : Bunch
        importances : ndarray of shape (n_features,)
            Scaled so the largest is 100.
        per_class : ndarray of shape (n_classes, n_features)
            With ``per_class=True``: each class's importances I_lk, each row
            scaled so its largest is 100. Rows scaled alike would give
            `importances` as the root mean square of their columns; scaled
            each to 100 they compare features within a class, not classes.
        classes : ndarray
            With ``per_class=True``: the class of each row of `per_class`.
        feature_names : ndarray of str
            The features' names, in the order of the columns.

    Raises
    ------
    ValueError
        When the trees' impurities are not finite: the result would be NaN,
        and scaling it to 100 would hide that as zeros.

    Notes
    -----
    A mean improvement below 0 can only be rounding (a feature whose splits
    all isolate pure nodes sums to about -1e-16) and counts as 0.

    Trees grown with ``criterion="squared_error"``, ``"friedman_mse"`` or
    ``"gini"`` give exactly ESL's squared-error improvement (Gini impurity is
    the squared error of one-hot targets); other criteria give their own
    impurity decrease. HistGradientBoosting uses its split gains.

    Examples
    --------
    >>> from sklearn.datasets import load_diabetes
    >>> from sklearn.ensemble import GradientBoostingRegressor
    >>> from inspectwidgets import relative_importance
    >>> X, y = load_diabetes(return_X_y=True, as_frame=True)
    >>> model = GradientBoostingRegressor(n_estimators=20, max_depth=2, random_state=0)
    >>> r = relative_importance(model.fit(X, y))
    >>> dict(zip(r.feature_names, r.importances.round(1).tolist()))
    {'age': 0.0, 'sex': 0.0, 'bmi': 82.7, 'bp': 39.4, 's1': 0.0, 's2': 11.9,
     's3': 19.9, 's4': 22.3, 's5': 100.0, 's6': 22.6}
    """
    _check_tree_model(estimator, "relative importance")
    names = _feature_names(estimator, feature_names)
    n_features = len(names)
    groups, improvements = _trees_by_class(estimator)
    if per_class and len(groups) < 2:
        raise ValueError(
            "per_class=True needs a gradient boosting classifier with 3 or more "
            f"classes (one tree per class and stage); {type(estimator).__name__} "
            "grows one tree per stage."
        )
    squared = np.array(
        [
            np.mean([improvements(tree, n_features) for tree in trees], axis=0)
            for trees in groups
        ]
    )
    if not np.isfinite(squared).all():
        raise ValueError(
            "estimator: its trees hold non-finite impurities (NaN or inf), so "
            "relative importance is undefined; check the training targets and "
            "sample weights for NaN, inf or overflowing values."
        )
    # Improvements are >= 0; a feature whose splits all leave pure nodes sums
    # to a rounding error (about -1e-16), whose square root would be NaN.
    squared = np.maximum(squared, 0.0)
    result = Bunch(
        # ESL (10.46): the classes' squared importances are averaged, then the
        # root taken (not the mean of the roots).
        importances=scale_to_100(np.sqrt(squared.mean(axis=0))),
        feature_names=np.asarray(names, dtype=object),
    )
    if per_class:
        result.per_class = np.array([scale_to_100(np.sqrt(row)) for row in squared])
        result.classes = estimator.classes_ if is_classifier(estimator) else None
    return result


def scale_to_100(values):
    """`values` scaled so the largest is exactly 100 (zeros when none is > 0)."""
    top = values.max() if values.size else 0.0
    # values / top first: the largest becomes exactly 1, then exactly 100.
    return 100.0 * (values / top) if top > 0 else np.zeros_like(values)
