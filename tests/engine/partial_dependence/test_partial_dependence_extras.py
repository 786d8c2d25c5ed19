"""Beyond scikit-learn: centered ICE, log-odds, ICE subsampling, the feature's
distribution and the correlation check, each checked against a plain numpy
computation on scikit-learn's own output."""

import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.stats import spearmanr
from scipy.stats.mstats import mquantiles
from sklearn.datasets import make_classification
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.inspection import partial_dependence as sklearn_partial_dependence
from sklearn.linear_model import LogisticRegression, Ridge

from inspectwidgets import PartialDependenceResult, partial_dependence

from numerics import assert_blas_close


@pytest.fixture(scope="module")
def three_classes():
    X, y = make_classification(
        n_samples=150, n_features=4, n_informative=3, n_redundant=0, n_classes=3,
        random_state=0,
    )  # fmt: skip
    return LogisticRegression().fit(X, y), X


@pytest.fixture(scope="module")
def independent():
    """Independent columns, so that no correlation warning fires."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = X @ [1.0, -2.0, 0.5] + rng.normal(size=200)
    return Ridge().fit(X, y), X


@pytest.mark.parametrize("features", [[0], [1, 2]])
def test_centered_ice_and_average(three_classes, features):
    model, X = three_classes
    kwargs = dict(kind="both", grid_resolution=7, sample_weight=np.arange(150.0))
    expected = sklearn_partial_dependence(model, X, features, **kwargs)
    got = partial_dependence(model, X, features, centered=True, **kwargs)
    first = (slice(None), slice(None)) + (slice(0, 1),) * len(features)
    ice = expected.individual - expected.individual[first]
    average = expected.average - expected.average[first[:1] + first[2:]]
    assert_blas_close(got.individual, ice)
    assert_blas_close(got.average, average)
    assert_array_equal(got.average.reshape(3, -1)[:, 0], 0)


def test_centered_recursion_average():
    from sklearn.ensemble import HistGradientBoostingRegressor
    from threadpoolctl import threadpool_limits

    rng = np.random.default_rng(1)
    X = rng.normal(size=(150, 3))
    with threadpool_limits(limits=1):  # OpenMP crawls on a busy machine
        model = HistGradientBoostingRegressor(max_iter=10).fit(X, X[:, 0] ** 2)
        expected = sklearn_partial_dependence(model, X, [0], grid_resolution=9)
        got = partial_dependence(
            model, X, [0], grid_resolution=9, centered=True, correlation_threshold=None
        )
    assert_allclose(got.average, expected.average - expected.average[:, :1])


def centered_log_odds(proba, axis):
    log_p = np.log(np.clip(proba, np.finfo(float).eps, 1))
    return log_p - log_p.mean(axis=axis, keepdims=True)


def test_log_odds_multiclass_is_esl_10_52(three_classes):
    model, X = three_classes
    weight = np.linspace(1, 2, len(X))
    expected = sklearn_partial_dependence(
        model, X, [1, 2], kind="individual", grid_resolution=6
    )
    got = partial_dependence(
        model,
        X,
        [1, 2],
        kind="both",
        grid_resolution=6,
        scale="log_odds",
        sample_weight=weight,
    )
    # Classes are the first axis of scikit-learn's ICE values.
    ice = centered_log_odds(expected.individual, axis=0)
    assert_blas_close(got.individual, ice)
    average = np.average(ice, axis=1, weights=weight)
    assert_blas_close(got.average, average)
    assert_allclose(got.average.sum(axis=0), 0, atol=1e-12)


def test_log_odds_binary_is_half_the_logit():
    X, y = make_classification(
        n_samples=100, n_features=3, n_redundant=0, random_state=2
    )
    model = LogisticRegression().fit(X, y)
    expected = sklearn_partial_dependence(model, X, [0], kind="both", grid_resolution=5)
    got = partial_dependence(
        model, X, [0], kind="both", grid_resolution=5, scale="log_odds"
    )
    p = expected.individual
    ice = 0.5 * (np.log(p) - np.log1p(-p))
    assert_blas_close(got.individual, ice)
    assert_blas_close(got.average, ice.mean(axis=1))


def test_log_odds_clips_zero_probabilities():
    class Certain(LogisticRegression):
        def predict_proba(self, X):
            proba = np.zeros((len(X), 3))
            proba[:, 0] = 1
            return proba

    X, y = make_classification(
        n_samples=60, n_features=3, n_informative=3, n_redundant=0, n_classes=3,
        random_state=0,
    )  # fmt: skip
    got = partial_dependence(
        Certain().fit(X, y), X, [0], grid_resolution=4, scale="log_odds"
    )
    log_eps = np.log(np.finfo(float).eps)
    assert_allclose(got.average[:, 0], [-2 / 3 * log_eps, log_eps / 3, log_eps / 3])


def test_classes_select_and_order_the_outputs(three_classes):
    model, X = three_classes
    kwargs = dict(kind="both", grid_resolution=6)
    every = sklearn_partial_dependence(model, X, [0, 1], **kwargs)
    got = partial_dependence(
        model, X, [0, 1], classes=[2, 0], return_result=True, **kwargs
    )
    assert got.output_names == (2, 0)
    assert_blas_close(got.average, every["average"][[2, 0]])
    assert_blas_close(got.individual, every["individual"][[2, 0]])
    log_odds = partial_dependence(model, X, [0], scale="log_odds", **kwargs)
    one = partial_dependence(model, X, [0], scale="log_odds", classes=[1], **kwargs)
    assert_blas_close(one["average"], log_odds["average"][[1]])


def test_classes_with_the_recursion(three_classes):
    model, X = three_classes
    y = model.predict(X)  # three classes
    boosting = GradientBoostingClassifier(n_estimators=5, random_state=0).fit(X, y)
    kwargs = dict(method="recursion", grid_resolution=5)
    every = sklearn_partial_dependence(boosting, X, [0], **kwargs)
    got = partial_dependence(boosting, X, [0], classes=[1], **kwargs)
    assert_array_equal(got["average"], every["average"][[1]])


def test_classes_of_a_binary_classifier():
    X, y = make_classification(
        n_samples=100, n_features=3, n_informative=2, n_redundant=0, random_state=1
    )
    labels = np.array(["no", "yes"])[y]
    model = LogisticRegression().fit(X, labels)
    positive = sklearn_partial_dependence(model, X, [0], grid_resolution=5)
    both = partial_dependence(
        model, X, [0], grid_resolution=5, classes=["no", "yes"], return_result=True
    )
    assert both.output_names == ("no", "yes")
    assert_blas_close(both.average[1], positive["average"][0])
    assert_blas_close(both.average[0], 1 - positive["average"][0])
    # The decision function has the positive class only, as scikit-learn's.
    decision = partial_dependence(
        model,
        X,
        [0],
        grid_resolution=5,
        classes=["yes"],
        response_method="decision_function",
    )
    expected = sklearn_partial_dependence(
        model, X, [0], grid_resolution=5, response_method="decision_function"
    )
    assert_blas_close(decision["average"], expected["average"])


def test_ice_subsampling_keeps_the_average_over_every_row(three_classes):
    model, X = three_classes
    expected = sklearn_partial_dependence(model, X, [0], kind="both", grid_resolution=5)
    result = partial_dependence(
        model,
        X,
        [0],
        kind="both",
        grid_resolution=5,
        n_ice=20,
        random_state=0,
        return_result=True,
    )
    rows = result.ice_rows
    assert len(rows) == 20 and len(set(rows)) == 20
    assert_blas_close(result.individual, expected.individual[:, rows])
    assert_blas_close(result.average, expected.average)
    again = partial_dependence(
        model, X, [0], kind="both", n_ice=20, random_state=0, return_result=True
    )
    assert_array_equal(again.ice_rows, rows)
    everyone = partial_dependence(
        model, X, [0], kind="both", n_ice=1000, return_result=True
    )
    assert everyone.ice_rows is None and everyone.individual.shape[1] == len(X)


def test_numeric_distribution(independent):
    model, X = independent
    X = X.copy()
    X[:5, 0] = np.nan  # missing values are counted apart
    result = partial_dependence(model, X, [0, 1], return_result=True, grid_resolution=5)
    first, second = result.distributions
    assert first.feature == "x0" and not first.categorical and first.n_missing == 5
    finite = X[5:, 0]
    assert_allclose(first.deciles, mquantiles(finite, prob=np.arange(0.1, 1, 0.1)))
    assert first.counts.sum() == len(finite)
    assert first.bin_edges[0] == finite.min() and first.bin_edges[-1] == finite.max()
    assert_array_equal(first.counts, np.histogram(finite, bins=first.bin_edges)[0])
    assert second.n_missing == 0 and second.counts.sum() == len(X)


@pytest.mark.parametrize(
    "outliers",
    [[-5e307], [1e300], [1e308, -1e308], [np.finfo(float).max, np.finfo(float).min]],
    ids=["far-below", "far-above", "both-sides", "widest"],
)
@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_distribution_of_a_column_with_far_outliers(outliers):
    """A far outlier: numpy before 2.1 built every "auto" bin first (more
    than memory holds), and a range wider than the largest float has no
    equal bins. The histogram then takes at most 50 equal bins over the
    column's ends, each row counted once, and the grid stays scikit-learn's."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 2))
    X[: len(outliers), 0] = outliers
    model = Ridge().fit(np.column_stack([rng.normal(size=300), X[:, 1]]), X[:, 1])
    result = partial_dependence(model, X, [0], grid_resolution=20, return_result=True)
    (summary,) = result.distributions
    assert summary.n_missing == 0 and summary.counts.sum() == len(X)
    assert 1 <= len(summary.counts) <= 50
    edges = summary.bin_edges
    assert edges[0] == X[:, 0].min() and edges[-1] == X[:, 0].max()
    assert np.all(np.diff(edges) > 0)
    widths = np.diff(edges / 2)  # halved: the widest range overflows a float
    assert_allclose(widths, widths[0], rtol=1e-9)
    column = X[:, 0]
    within = [
        np.sum((column >= lo) & (column < hi))
        for lo, hi in zip(edges[:-1], edges[1:], strict=True)
    ]
    within[-1] += np.sum(column == edges[-1])  # the last bin is closed
    assert_array_equal(summary.counts, within)
    expected = sklearn_partial_dependence(model, X, [0], grid_resolution=20)
    assert_array_equal(result.grid_values[0], expected.grid_values[0])


def test_categorical_distribution_counts_rows_per_grid_value():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {"color": rng.choice(["red", "green", "blue"], 90, p=[0.5, 0.3, 0.2])}
    )
    X["size"] = rng.normal(size=90)
    from sklearn.compose import make_column_transformer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    model = make_pipeline(
        make_column_transformer((OneHotEncoder(), ["color"]), remainder="passthrough"),
        Ridge(),
    ).fit(X, X["size"])
    result = partial_dependence(
        model, X, ["color"], categorical_features=["color"], return_result=True
    )
    (distribution,) = result.distributions
    assert distribution.categorical
    assert_array_equal(distribution.categories, result.grid_values[0])
    counts = X["color"].value_counts()
    assert_array_equal(distribution.counts, counts[distribution.categories].to_numpy())


def test_correlated_partner_is_named_with_its_rho():
    rng = np.random.default_rng(0)
    x0 = rng.normal(size=300)
    X = np.c_[x0, x0 + rng.normal(scale=0.3, size=300), rng.normal(size=300)]
    model = Ridge().fit(X, x0)
    with pytest.warns(UserWarning, match=r"'x0' is strongly correlated with 'x1'"):
        result = partial_dependence(
            model, X, [0], return_result=True, correlation_threshold=0.8
        )
    (correlated,) = result.correlated
    assert (correlated.feature, correlated.partner) == ("x0", "x1")
    assert_allclose(correlated.spearman_rho, spearmanr(X[:, 0], X[:, 1])[0])
    assert "Spearman rho = +0." in result.warnings[0]
    # No partner above the threshold: no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = partial_dependence(
            model, X, [2], return_result=True, correlation_threshold=0.8
        )
        partial_dependence(model, X, [0], correlation_threshold=0.99)
        # As scikit-learn, by default: no check, no warning.
        quiet = partial_dependence(model, X, [0], return_result=True)
    assert result.correlated == () and result.warnings == ()
    assert quiet.correlated == () and quiet.warnings == ()


def test_result_to_sklearn_and_to_frame(three_classes):
    model, X = three_classes
    result = partial_dependence(
        model, X, [0, 1], kind="both", grid_resolution=4, return_result=True
    )
    assert isinstance(result, PartialDependenceResult)
    assert (
        result.output_names == (0, 1, 2) and result.response_method == "predict_proba"
    )
    bunch = result.to_sklearn()
    assert set(bunch) == {"grid_values", "average", "individual"}
    frame = result.to_frame()
    assert list(frame.columns) == ["x0", "x1", "output", "average", "done"]
    assert len(frame) == 3 * 16
    assert_allclose(frame["average"].to_numpy(), result.average.ravel())
    row = frame.iloc[3 * 16 - 1]
    assert (row["x0"], row["x1"]) == (
        result.grid_values[0][-1],
        result.grid_values[1][-1],
    )
    assert row["output"] == 2
