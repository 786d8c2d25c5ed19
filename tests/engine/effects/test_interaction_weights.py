"""H² with sample weights: hstats' published case, the weighted equations
written out, integer weights as repeated rows, and the weights' checks."""

import numpy as np
import pandas as pd
import pytest
from known_functions import KnownFunction
from numpy.testing import assert_allclose
from sklearn.ensemble import RandomForestClassifier

from inspectwidgets import interaction_strength


def _x1_plus_x2_sqrt_x3(X):
    return X[:, 0] + X[:, 1] * np.sqrt(X[:, 2])


def test_hstats_published_weighted_case():
    """The case scikit-learn's h_statistic tests quote from the R package
    hstats 1.1.2 (and iml 0.11.1 for the unweighted value)::

        X <- data.frame(x1 = c(1, 1, 1, 2), x2 = c(0, 0, 2, 1),
                        x3 = c(2, 2, 1, 4))
        pred_fun <- function(model, newdata)
          newdata[, 1] + newdata[, 2] * sqrt(newdata[, 3])
        h2_pairwise(hstats(X = X, pred_fun = pred_fun))           # 0.078125
        h2_pairwise(hstats(X = X, pred_fun = pred_fun, w = 0:3))  # 0.1010093

    for the pair x2:x3. The value is published to 7 digits."""
    X = np.array([[1, 1, 1, 2], [0, 0, 2, 1], [2, 2, 1, 4]], dtype=float).T
    model = KnownFunction(_x1_plus_x2_sqrt_x3).fit(X)
    pair = ("pair", "x1", "x2")
    plain = interaction_strength(model, X, pairs="all", n_samples=None)
    plain = plain.set_index(["kind", "feature", "partner"])["h_squared"]
    assert_allclose(plain[pair], 0.078125, rtol=1e-12)
    weighted = interaction_strength(
        model, X, pairs="all", n_samples=None, sample_weight=np.arange(4)
    )
    weighted = weighted.set_index(["kind", "feature", "partner"])["h_squared"]
    assert round(weighted[pair], 7) == 0.1010093


def _weighted_h2(f, X, w):
    """Friedman & Popescu's eq. 44 and 46 with case weights, as hstats
    defines them, every partial dependence by its own loop:
    ``PD_S(x_S^i) = sum_l w_l f(x_S^i, x_-S^l) / sum_l w_l``, each centred by
    its weighted mean over i, and the ratios of weighted sums over i."""
    n, p = X.shape
    W = w.sum()

    def centred(values):
        values = np.asarray(values, dtype=float)
        return values - (w * values).sum() / W

    def pd(columns):
        out = []
        for i in range(n):
            copy = X.copy()
            copy[:, columns] = X[i, columns]
            out.append((w * f(copy)).sum() / W)
        return centred(out)

    def ratio(a, b):
        return (w * a**2).sum() / (w * b**2).sum()

    F = centred(f(X))
    single = {j: pd([j]) for j in range(p)}
    one = {
        j: ratio(F - single[j] - pd([c for c in range(p) if c != j]), F)
        for j in range(p)
    }
    pairs = {}
    for j in range(p):
        for k in range(j + 1, p):
            both = pd([j, k])
            pairs[j, k] = ratio(both - single[j] - single[k], both)
    return one, pairs


def _by_key(frame):
    values = {}
    for row in frame.itertuples():
        j = int(row.feature[1:])
        key = j if row.kind == "one_vs_rest" else (j, int(row.partner[1:]))
        values[key] = row.h_squared
    return values


def test_weighted_statistics_equal_the_equations():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(40, 3))
    w = rng.uniform(0, 3, size=40)
    w[[3, 17]] = 0

    def f(X):
        return X[:, 0] * X[:, 1] + np.sin(X[:, 2]) + 0.3 * X[:, 1] * X[:, 2] ** 2

    h = interaction_strength(
        KnownFunction(f).fit(X), X, pairs="all", n_samples=None, sample_weight=w
    )
    one, pairs = _weighted_h2(f, X, w)
    got = _by_key(h)
    for j in range(3):
        assert_allclose(got[j], one[j], rtol=1e-10)
    for key, value in pairs.items():
        assert_allclose(got[key], value, rtol=1e-10)
    unweighted = _by_key(interaction_strength(KnownFunction(f).fit(X), X,
                                              pairs="all", n_samples=None))  # fmt: skip
    assert not np.isclose(unweighted[(0, 1)], got[(0, 1)], rtol=1e-3)


def test_integer_weights_repeat_rows():
    """Weight w_i is row i repeated w_i times (0: left out), on a forest's
    class probabilities through the tree path and through the generic one."""
    rng = np.random.RandomState(1)
    X = rng.normal(size=(50, 3))
    y = (X[:, 0] * X[:, 1] > 0).astype(int) + (X[:, 2] > 0.5)
    model = RandomForestClassifier(10, max_depth=4, random_state=0).fit(X, y)
    w = rng.randint(0, 4, size=50)
    repeated = np.repeat(X, w, axis=0)
    for algorithm in ("generic", "tree"):
        weighted = interaction_strength(
            model, X, pairs="all", n_samples=None, sample_weight=w,
            algorithm=algorithm,
        )  # fmt: skip
        expected = interaction_strength(
            model, repeated, pairs="all", n_samples=None, algorithm=algorithm
        )
        assert_allclose(weighted["h_squared"], expected["h_squared"], rtol=1e-9)
        assert weighted[["kind", "feature", "partner", "output"]].equals(
            expected[["kind", "feature", "partner", "output"]]
        )


def test_subsample_keeps_the_drawn_rows_weights():
    rng = np.random.RandomState(2)
    X = rng.normal(size=(80, 3))
    w = rng.uniform(0.5, 2, size=80)
    model = KnownFunction(lambda X: X[:, 0] * X[:, 1] + X[:, 2]).fit(X)
    drawn = interaction_strength(
        model, X, n_samples=30, random_state=5, sample_weight=w, pairs="all"
    )
    rows = np.sort(np.random.RandomState(5).choice(80, 30, replace=False))
    expected = interaction_strength(
        model, X[rows], n_samples=None, sample_weight=w[rows], pairs="all"
    )
    assert_allclose(drawn["h_squared"], expected["h_squared"], rtol=1e-12)


def test_bad_weights_are_refused_and_inputs_untouched():
    X = pd.DataFrame(np.random.RandomState(0).normal(size=(30, 3)), columns=list("abc"))
    model = KnownFunction(lambda X: X[:, 0] * X[:, 1]).fit(X)
    w = np.ones(30)
    w[4] = -1.0
    before, w_before = X.copy(), w.copy()
    with pytest.raises(ValueError, match=r"sample_weight\[4\] = -1.0"):
        interaction_strength(model, X, sample_weight=w)
    np.testing.assert_array_equal(w, w_before)
    pd.testing.assert_frame_equal(X, before)
    with pytest.raises(ValueError, match=r"sample_weight\[0\] = nan"):
        interaction_strength(model, X, sample_weight=np.full(30, np.nan))
    with pytest.raises(ValueError, match=r"sample_weight.shape == \(29,\)"):
        interaction_strength(model, X, sample_weight=np.ones(29))
    with pytest.raises(ValueError, match="sample_weight is 0 for every row"):
        interaction_strength(model, X, sample_weight=np.zeros(30))
    with pytest.raises(ValueError, match="sample_weight must hold numbers"):
        interaction_strength(model, X, sample_weight=["a"] * 30)
    only_one = np.zeros(30)
    only_one[0] = 1.0
    with pytest.raises(ValueError, match="0 for every row drawn"):
        interaction_strength(model, X, sample_weight=only_one, n_samples=5,
                             random_state=np.random.RandomState(3))  # fmt: skip
    # Nullable and integer weights are numbers.
    h = interaction_strength(
        model, X, sample_weight=pd.array([1, 2, 3] * 10, dtype="Int64"), n_samples=None
    )
    assert np.isfinite(h.loc[h["kind"] == "pair", "h_squared"]).all()
