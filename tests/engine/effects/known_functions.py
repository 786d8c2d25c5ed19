"""Fitted models whose function is known exactly, for the mathematical tests."""

import numpy as np
from sklearn.base import BaseEstimator, RegressorMixin


class KnownFunction(RegressorMixin, BaseEstimator):
    """A regressor predicting ``function(X)``; `fit` only records the width."""

    def __init__(self, function=None):
        self.function = function

    def fit(self, X, y=None):
        self.n_features_in_ = np.asarray(X).shape[1]
        return self

    def predict(self, X):
        return self.function(np.asarray(X, dtype=np.float64))


def g1(x):
    return np.sin(3 * x)


def g2(x):
    return x**2


def g3(x):
    return np.exp(x)


def additive(X):
    """f = g1(x1) + g2(x2) + g3(x3)."""
    return g1(X[:, 0]) + g2(X[:, 1]) + g3(X[:, 2])


def product(X):
    """f = x1 * x2 (any further columns are ignored)."""
    return X[:, 0] * X[:, 1]
