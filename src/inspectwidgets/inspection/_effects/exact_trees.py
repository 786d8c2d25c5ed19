"""H²'s partial dependences at the data points, exactly through the trees.

For scikit-learn's trees, forests and (histogram) gradient boosting,
``PD_S``, ``PD_-S`` and ``f`` at the n data points come from each tree's
structure (``_shortcuts/trees/dependence``: a few walks per tree and subset)
instead of the n² predictions of the n x n batch. That is exact where the
response is an affine function of the leaf values, because the mean of the
copies' responses is then the response of the mean of their leaf sums:

- regressors (DecisionTree*, ExtraTree*, RandomForest*, ExtraTrees*,
  GradientBoosting*; HistGradientBoosting* with an identity link: the
  squared, absolute and quantile losses);
- the class probabilities of single trees and forests (averaged leaf
  fractions);
- boosting classifiers' ``decision_function`` (raw scores);
- LightGBM's regressors with an identity link (regression, regression_l1,
  huber, fair, quantile, mape).

Elsewhere (boosting's probabilities, histogram boosting's Poisson or Gamma
predictions, any ``scale="log_odds"``) the model's link bends every copy's
sum before the average, and the copies are predicted as before.
"""

import numpy as np
from sklearn.utils import check_array

from .._core.compat import IdentityLink
from .._core.predictions import call_model
from .._core.responses import PROBABILITIES_NOT_AFFINE
from .._shortcuts.trees import (
    GRADIENT_BOOSTING,
    HIST_GRADIENT_BOOSTING,
    TreeModel,
    dependence_walks,
)


class ExactTreeDependence:
    """``PD_S``, ``PD_-S`` and ``f`` at the rows of the model's input, from
    the trees. Build with :meth:`of`."""

    def __init__(self, trees, X_in, responses, model_columns):
        self.trees, self.X_in, self.responses = trees, X_in, responses
        self.model_columns = model_columns
        self._f = None  # the predictions' leaf sums: walked once

    @classmethod
    def of(cls, predictor, responses):
        """The exact path for the model and rows of `predictor` (a
        ``CopyPredictor`` on the generic path: its pipeline view, its
        rows), or the reason it does not apply (a str)."""
        model, source, methods = predictor.model, predictor.source, responses.methods
        trees = TreeModel.of(model, source, methods)
        if trees is None:
            return "the tree shortcut does not take this model or input"
        reason = nonlinear_response(trees, responses)
        if reason is not None:
            return reason
        X_in = trees.as_model_input(source)
        if X_in is None and trees.flavour is not None:
            return "X is not what LightGBM's predict reads as it is"
        # Only scikit-learn's float32 trees refuse NaN there and may take it
        # here; others' None leaves the rows to the model's own checks.
        if X_in is None and trees.finite:
            X_in = _with_missing_values(trees, source, methods)
        if X_in is None:
            return "X holds values the model's own checks must decide on"
        return cls(trees, X_in, responses, predictor.model_columns)

    def __call__(self, subset, weights):
        """Uncentred ``PD_S``, ``PD_-S`` and ``f`` for the columns `subset`
        of X, each of shape (n_rows, n_outputs), the background rows
        weighted by `weights` (None: alike)."""
        trees, X_in = self.trees, self.X_in
        n = X_in.shape[0]
        columns = list(self.model_columns(subset))
        if trees.column_of is not None:
            columns = list(trees.column_of[columns])
        in_set = np.zeros(X_in.shape[1], dtype=np.bool_)
        in_set[columns] = True
        w = np.full(n, 1.0 / n) if weights is None else weights / weights.sum()
        sums = [np.zeros((n, trees.n_outputs)) for _ in range(3)]
        with_f = self._f is None
        dependence_walks().tree_dependences(
            X_in, w, in_set, trees.walk_trees, *sums, with_f
        )
        if with_f:
            self._f = sums[2]
        sums[2] = self._f
        values = []
        for raw in sums:
            # Every copy starts from the model's start; the weights sum to 1.
            raw = trees._averaged(raw + trees.start)
            values.append(
                self.responses(
                    lambda method, raw=raw: trees.responses(raw, [method])[method]
                )
            )
        return tuple(values)


def nonlinear_response(trees, responses):
    """Why the responses are not an affine function of the leaf sums (None
    if they are)."""
    if trees.flavour is not None:  # LightGBM's
        return trees.flavour.nonlinear_reason(responses)
    if responses.scale == "log_odds":
        return "log-odds are not linear in the trees' leaf values"
    if trees.bent_link is not None:
        return trees.bent_link
    kind = type(trees.model)
    if trees.classifier:
        if kind in GRADIENT_BOOSTING + HIST_GRADIENT_BOOSTING and (
            responses.response_method != "decision_function"
        ):
            return PROBABILITIES_NOT_AFFINE
        return None
    if kind in HIST_GRADIENT_BOOSTING:
        link = getattr(getattr(trees.model, "_loss", None), "link", None)
        if not isinstance(link, IdentityLink):
            return "its loss's inverse link is not the identity"
    return None


def _with_missing_values(trees, source, methods):
    """`source` in float32 holding NaN, for scikit-learn's trees, forests and
    gradient boosting where the model's own predict takes them (missing
    value support, scikit-learn >= 1.3): the walks send them where the
    fitted nodes do. None where the model refuses them (its own error then
    comes from the generic path) or where infinity is held."""
    X = check_array(source, dtype=trees.dtype, ensure_all_finite=False, order="C")
    if np.isinf(X).any():
        return None
    missing = np.isnan(X).any(axis=1)
    row = np.flatnonzero(missing)[:1]
    try:
        call_model(
            trees.model,
            methods[0],
            source.iloc[row] if hasattr(source, "iloc") else source[row],
        )
    except ValueError:
        return None
    return X
