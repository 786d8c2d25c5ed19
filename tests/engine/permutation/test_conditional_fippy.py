"""Conditional permutation importance beside fippy's conditional feature
importance (CFI) on Gaussian data, where both estimate the same quantity.

fippy (https://pypi.org/project/fippy/) draws the feature from its Gaussian
conditional distribution given the others, fitted on the training rows;
cs-PFI permutes it within subgroups of rows alike in the others. For a
linear model f = b'x and squared error, both estimate
E[(b_j (x_j' - x_j))^2] = 2 b_j^2 Var(x_j | x_-j) plus a cross term with the
residuals of mean zero. What differs: cs-PFI's subgroups add the spread of
E[x_j | x_-j] within a subgroup (0.6 x2 over a subgroup of x2 about 0.3
wide: 0.36 * 0.3^2 / 12, under 1% of Var(x1 | x2) = 0.64); fippy's
Gaussian is estimated (2000 rows); and each has its own Monte Carlo noise.
"""

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LinearRegression

from inspectwidgets import conditional_permutation_importance

fippy = pytest.importorskip("fippy")
from fippy.samplers import GaussianSampler  # noqa: E402

RHO = 0.6


def gaussian_frame(rng, n):
    cov = np.array([[1, RHO, 0], [RHO, 1, 0], [0, 0, 1]])
    X = pd.DataFrame(
        rng.multivariate_normal(np.zeros(3), cov, size=n), columns=["x1", "x2", "x3"]
    )
    return X, X.sum(axis=1) + 0.5 * rng.normal(size=n)


@pytest.mark.slow  # fippy predicts one copy at a time: about 20 s here
def test_agrees_with_fippys_gaussian_cfi():
    rng = np.random.default_rng(0)
    X_train, y_train = gaussian_frame(rng, 2000)
    X_test, y_test = gaussian_frame(rng, 2000)
    model = LinearRegression().fit(X_train, y_train)
    n_repeats = 10
    ours = conditional_permutation_importance(
        model,
        X_test,
        y_test,
        X_fit=X_train,
        scoring="neg_mean_squared_error",
        n_repeats=n_repeats,
        random_state=0,
    )
    explainer = fippy.Explainer(
        model.predict,
        X_train,
        loss=lambda y, p: (y - p) ** 2,
        sampler=GaussianSampler(X_train),
    )
    # fippy's sampler draws from numpy's global generator: seeded for this
    # test, then given back as it was.
    state = np.random.get_state()  # noqa: NPY002
    np.random.seed(0)  # noqa: NPY002
    try:
        theirs = explainer.cfi(X_test, y_test, n_repeats=n_repeats)
    finally:
        np.random.set_state(state)  # noqa: NPY002
    # fippy's scores: (1, repeat, row, feature); a repeat's importance is
    # the mean over rows.
    per_repeat = theirs.scores[0].mean(axis=1)
    their_mean, their_std = per_repeat.mean(axis=0), per_repeat.std(axis=0)
    noise = np.sqrt((ours.importances_std**2 + their_std**2) / n_repeats)
    bound = 4 * noise + 0.02 * their_mean
    assert (np.abs(ours.importances_mean - their_mean) <= bound).all(), (
        ours.importances_mean,
        their_mean,
        bound,
    )
    # And both near the formula, 2 b_j^2 Var(x_j | x_-j), within the test
    # rows' own sampling noise (10%).
    expected = 2 * model.coef_**2 * np.array([1 - RHO**2, 1 - RHO**2, 1])
    assert np.allclose(ours.importances_mean, expected, rtol=0.1)
    assert np.allclose(their_mean, expected, rtol=0.1)
