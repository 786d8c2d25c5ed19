"""The linear shortcut's summed squared errors: r2, MSE and RMSE of a
linear regressor's permuted copies from each copy's sum of squared errors,
never predicting the copies. The sums are numpy's (its pairwise order), so
the scores are those of the copies' predictions bit for bit, and
scikit-learn's to BLAS rounding."""

import pickle
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.inspection import permutation_importance as sklearn_permutation_importance
from sklearn.linear_model import (
    ElasticNet,
    Lasso,
    LinearRegression,
    PoissonRegressor,
    Ridge,
    SGDRegressor,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVR

from inspectwidgets import (
    conditional_permutation_importance,
    permutation_importance,
)
from inspectwidgets.inspection._permutation import plan as permutation_plan
from inspectwidgets.inspection._permutation.scoring import ScoringPlan
from inspectwidgets.inspection._shortcuts.linear import LinearModel
from inspectwidgets.inspection._shortcuts.linear import models as linear_models
from inspectwidgets.inspection._shortcuts.linear import sums as linear_sums

from numerics import assert_blas_close

SIZES = [0, 1, 2, 7, 8, 9, 15, 16, 127, 128, 129, 136, 255, 256, 257, 1000, 4097]


def spread(rng, n):
    """Values over 16 orders of magnitude, both signs: sums whose order
    shows in their last bits."""
    return rng.normal(size=n) * 10.0 ** rng.integers(-8, 8, size=n)


def numpys_sum(y, base, own, weight, perm):
    """The copy's prediction as the linear shortcut makes it (X's decisions
    less the column's contribution, plus the donor rows'), its squared
    errors as scikit-learn's r2 takes them, summed by numpy."""
    prediction = (base - own) + own[perm]
    errors = (y - prediction) ** 2
    if weight is not None:
        errors = weight * errors
    return np.sum(errors)


LONG = [8_193, 9_000, 16_385, 20_000, 100_003]


@pytest.mark.parametrize("n", SIZES + LONG)
@pytest.mark.parametrize("weighted", [False, True])
def test_each_sum_is_numpys_to_the_bit(n, weighted):
    """In the order of the installed numpy (2.4 sums a row pairwise, 2.0 a
    buffer at a time: CI runs both)."""
    rng = np.random.default_rng(n)
    y, base, own = spread(rng, n), spread(rng, n), spread(rng, n)
    weight = rng.random(n) * 10.0 ** rng.integers(-3, 3, size=n) if weighted else None
    perm = rng.permutation(n)
    expected = numpys_sum(y, base, own, weight, perm)
    block = linear_sums.numpys_block()
    assert linear_sums.error_sum(y, base, own, weight, perm, block) == expected


@pytest.mark.parametrize("n", LONG)
def test_a_buffer_at_a_time(n):
    """numpy 2.0's order whatever numpy is installed: each buffer's terms
    summed by numpy (pairwise, at most 8,192 of them), the buffers added in
    turn."""
    rng = np.random.default_rng(n)
    y, base, own = spread(rng, n), spread(rng, n), spread(rng, n)
    perm = rng.permutation(n)
    terms = (y - ((base - own) + own[perm])) ** 2
    expected = 0.0
    for low in range(0, n, 8192):
        expected += np.sum(terms[low : low + 8192])
    assert linear_sums.error_sum(y, base, own, None, perm, 8192) == expected


def test_the_orders_differ_where_numpys_is_read():
    """numpy's order is read on values where the two orders give other
    bits, so the reading cannot mistake one for the other."""
    assert linear_sums.numpys_block() is not None
    n = 3 * np.getbufsize() + 1000
    values = 1.0 + np.random.default_rng(1).random(n)
    zeros, rows = np.zeros(n), np.arange(n)
    whole = linear_sums.error_sum(values, zeros, zeros, None, rows, 2**62)
    buffered = linear_sums.error_sum(values, zeros, zeros, None, rows, 8192)
    assert whole != buffered


def test_the_order_shows_in_the_bits():
    """The values above make other orders give other bits: a sum in row
    order differs from numpy's, so the tests above can fail."""
    differing = 0
    for n in SIZES[8:]:
        rng = np.random.default_rng(n)
        y, base, own = spread(rng, n), spread(rng, n), spread(rng, n)
        terms = (y - ((base - own) + own[rng.permutation(n)])) ** 2
        in_row_order = 0.0
        for term in terms:
            in_row_order += term
        differing += in_row_order != np.sum(terms)
    assert differing >= 3


def test_non_finite_values_reach_the_sum():
    y = np.array([1.0, 2.0, np.inf, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0])
    zeros, perm, block = np.zeros(9), np.arange(9), linear_sums.numpys_block()
    assert linear_sums.error_sum(y, zeros, zeros, None, perm, block) == np.inf
    y[3] = np.nan
    assert np.isnan(linear_sums.error_sum(y, zeros, zeros, None, perm, block))


@pytest.mark.parametrize("order", ["C", "F"])
def test_contributions_are_each_columns_products(order):
    rng = np.random.default_rng(0)
    X = np.asarray(spread(rng, 300 * 7).reshape(300, 7), order=order)
    coef = spread(rng, 7)
    out = np.empty((7, 300))
    linear_sums.contributions(X, coef, out)
    for j in range(7):
        assert_array_equal(out[j], X[:, j] * coef[j])


def regression_data(n=3000, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 6))
    X[:, 2] = rng.integers(0, 5, n)  # an integer-valued column
    X[:, 4] *= 1e6  # another scale
    y = X @ np.array([1.0, -2.0, 0.5, 0.0, 3e-6, 1.5]) + rng.normal(0, 0.5, n)
    return X, y, rng


@pytest.fixture
def summed(monkeypatch):
    """Counts the copies whose errors are summed (however few the rows),
    and fails any prediction of a permuted copy by the linear shortcut."""
    monkeypatch.setattr(linear_models, "_SUMMED_FROM", 0)
    counted = []
    error_sums = LinearModel.error_sums

    def counting(self, X, copies, *args):
        counted.append(len(copies))
        return error_sums(self, X, copies, *args)

    def refused(*args, **kwargs):
        raise AssertionError("a copy was predicted")

    monkeypatch.setattr(LinearModel, "error_sums", counting)
    monkeypatch.setattr(LinearModel, "decisions", refused)
    return counted


PREDICTING = LinearModel.decisions


def predicted(run, monkeypatch):
    """`run()` with the copies predicted and scored as before the sums."""
    with monkeypatch.context() as patch:
        patch.setattr(permutation_plan, "_error_sum_scoring", lambda *a: None)
        patch.setattr(LinearModel, "decisions", PREDICTING)
        return run()


SCORINGS = [
    "r2",
    "neg_mean_squared_error",
    "neg_root_mean_squared_error",
    ["r2", "neg_mean_squared_error", "neg_root_mean_squared_error"],
    None,  # the model's score: r2
]
REGRESSORS = [
    LinearRegression(),
    Ridge(alpha=3.0),
    Lasso(alpha=0.01),
    ElasticNet(alpha=0.01),
    SGDRegressor(random_state=0),
    LinearSVR(random_state=0, max_iter=5000),
]


def importances(result):
    """Each scorer's importances, by name (one scorer: "score")."""
    if "importances" in result:
        return {"score": result.importances}
    return {name: bunch.importances for name, bunch in result.items()}


@pytest.mark.parametrize("scoring", SCORINGS, ids=str)
@pytest.mark.parametrize("weights", [None, "float", "int"])
def test_summed_scores_are_the_predicted_ones(scoring, weights, summed, monkeypatch):
    X, y, rng = regression_data()
    weight = {
        None: None,
        "float": rng.random(len(y)) * 3,
        "int": rng.integers(1, 4, len(y)),
    }[weights]
    model = Ridge().fit(X, y)
    kwargs = dict(n_repeats=4, random_state=0, scoring=scoring, sample_weight=weight)
    got = importances(permutation_importance(model, X, y, **kwargs))
    assert sum(summed) == 4 * 6
    runs = len(summed)
    expected = importances(
        predicted(lambda: permutation_importance(model, X, y, **kwargs), monkeypatch)
    )
    assert len(summed) == runs  # nothing summed the second time
    theirs = importances(sklearn_permutation_importance(model, X, y, **kwargs))
    for name in expected:
        assert_array_equal(got[name], expected[name], err_msg=name)
        assert_blas_close(got[name], theirs[name], err_msg=name)


@pytest.mark.parametrize("model", REGRESSORS, ids=lambda m: type(m).__name__)
def test_every_regressor_predicting_its_decisions(model, summed, monkeypatch):
    X, y, _ = regression_data()
    X = StandardScaler().fit_transform(X)  # SGD and LinearSVR converge
    model.fit(X, y)
    kwargs = dict(n_repeats=3, random_state=1, scoring=["r2", "neg_mean_squared_error"])
    got = importances(permutation_importance(model, X, y, **kwargs))
    assert sum(summed) == 3 * 6
    expected = importances(
        predicted(lambda: permutation_importance(model, X, y, **kwargs), monkeypatch)
    )
    theirs = importances(sklearn_permutation_importance(model, X, y, **kwargs))
    for name in expected:
        assert_array_equal(got[name], expected[name])
        assert_blas_close(got[name], theirs[name])


def test_a_frame_through_a_scaling_pipeline(summed, monkeypatch):
    """A pipeline of column-wise steps permutes its transformed columns, one
    a feature: summed too. Integer targets and a nullable column."""
    X, y, _ = regression_data()
    frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(6)])
    frame["x2"] = frame["x2"].astype("Int64")
    target = np.round(y).astype(int)
    pipe = make_pipeline(StandardScaler(), Ridge()).fit(frame, target)
    kwargs = dict(n_repeats=3, random_state=2)
    got = permutation_importance(pipe, frame, target, **kwargs).importances
    assert sum(summed) == 3 * 6
    expected = predicted(
        lambda: permutation_importance(pipe, frame, target, **kwargs), monkeypatch
    ).importances
    assert_array_equal(got, expected)
    theirs = sklearn_permutation_importance(pipe, frame, target, **kwargs)
    assert_blas_close(got, theirs.importances)


@pytest.mark.parametrize(
    "case",
    [
        "threads",
        "two workers",
        "max_samples",
        "small chunks",
        "conditional",
        "rows beyond numpy's buffer",
    ],
)
def test_the_same_bits_whatever_the_chunks_and_threads(case, summed, monkeypatch):
    X, y, _ = regression_data(20_011 if case == "rows beyond numpy's buffer" else 3000)
    model = LinearRegression().fit(X, y)
    kwargs = dict(n_repeats=5, random_state=3, scoring=["r2", "neg_mean_squared_error"])
    run = permutation_importance
    if case == "threads":
        monkeypatch.setattr(LinearModel, "predict_threads", lambda self, n=1: 3)
    elif case == "two workers":
        kwargs["n_jobs"] = 2
    elif case == "max_samples":
        kwargs["max_samples"] = 0.6
    elif case == "small chunks":  # a copy a chunk
        monkeypatch.setattr(permutation_plan, "_SUMMED_ROWS", 1)
    else:
        run = conditional_permutation_importance
    got = importances(run(model, X, y, **kwargs))
    assert sum(summed) == 5 * 6
    expected = importances(predicted(lambda: run(model, X, y, **kwargs), monkeypatch))
    for name in expected:
        assert_array_equal(got[name], expected[name])


@pytest.mark.parametrize("weighted", [False, True])
def test_the_scoring_pickles_for_remote_workers(weighted):
    """A remote backend's workers get what every chunk reads pickled: the
    scoring from summed errors scores as it did."""
    X, y, rng = regression_data()
    weight = rng.random(len(y)) if weighted else None
    scorers = ["r2", "neg_mean_squared_error", "neg_root_mean_squared_error"]
    scoring = ScoringPlan(Ridge().fit(X, y), scorers).error_sum_scoring(y, weight)
    sums = rng.random(5) * len(y)
    travelled = pickle.loads(pickle.dumps(scoring))
    got, expected = travelled.scores(lambda w: sums), scoring.scores(lambda w: sums)
    assert list(got) == scorers
    for name in scorers:
        assert_array_equal(got[name], expected[name])


def test_numba_loads_only_for_a_run_large_enough_to_gain():
    """Loading numba takes about a second in a new process: a small run
    predicts its copies and never loads it; a run of _SUMMED_FROM rows of
    copies sums them (loading it), and then so does any run."""
    script = """
import sys
import numpy as np
from sklearn.linear_model import Ridge
from inspectwidgets import permutation_importance
from inspectwidgets.inspection._shortcuts.linear import models as linear_models

rng = np.random.default_rng(0)
X = rng.normal(size=(2000, 4))
y = X @ np.arange(4.0)
model = Ridge().fit(X, y)
permutation_importance(model, X, y, n_repeats=3, random_state=0)
print("numba" in sys.modules)
linear_models._SUMMED_FROM = 2000 * 4 * 3
permutation_importance(model, X, y, n_repeats=3, random_state=0)
print("numba" in sys.modules)
"""
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert run.stdout.split() == ["False", "True"]


@pytest.mark.parametrize(
    "case",
    [
        "absolute error",
        "r2 and absolute error",
        "bootstrap",
        "grouped columns",
        "two targets",
        "a link",
        "custom scorer",
    ],
)
def test_predicted_where_the_sums_do_not_say_it_all(case, monkeypatch):
    """Other scorers, a held-out bootstrap (it reads each row), groups of
    columns, two outputs and a GLM's link: the copies are predicted."""
    X, y, _ = regression_data()
    calls = []
    error_sums = LinearModel.error_sums
    monkeypatch.setattr(
        LinearModel,
        "error_sums",
        lambda self, *a: calls.append(1) or error_sums(self, *a),
    )
    model = Ridge().fit(X, y)
    kwargs = dict(n_repeats=2, random_state=0)
    if case == "absolute error":
        kwargs["scoring"] = "neg_mean_absolute_error"
    elif case == "r2 and absolute error":
        kwargs["scoring"] = ["r2", "neg_mean_absolute_error"]
    elif case == "bootstrap":
        kwargs["n_bootstrap"] = 20
    elif case == "grouped columns":
        kwargs["features"] = {"first two": [0, 1], "rest": [2, 3, 4, 5]}
    elif case == "two targets":
        y = np.column_stack([y, -y])
        model = Ridge().fit(X, y)
    elif case == "a link":
        y = np.exp(y / np.abs(y).max())
        model = PoissonRegressor().fit(X, y)
        kwargs["scoring"] = "r2"  # its own score is D², a custom scorer here
    else:
        kwargs["scoring"] = lambda est, X_, y_: -np.mean((est.predict(X_) - y_) ** 2)
    if case != "custom scorer":  # which the linear shortcut refuses
        kwargs["algorithm"] = "linear"
    permutation_importance(model, X, y, **kwargs)
    assert calls == []
