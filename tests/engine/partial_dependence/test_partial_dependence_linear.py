"""Partial dependence and ICE through the linear shortcut: every row's
decision function moved by the feature's contribution at each grid value,
then the model's link; scikit-learn's numbers to BLAS rounding, without
predicting a copy."""

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.inspection import partial_dependence as sklearn_partial_dependence
from sklearn.linear_model import (
    ElasticNet,
    Lasso,
    LinearRegression,
    LogisticRegression,
    PoissonRegressor,
    Ridge,
    SGDClassifier,
    SGDRegressor,
)
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, SplineTransformer, StandardScaler
from sklearn.svm import LinearSVC, LinearSVR

from inspectwidgets import iter_partial_dependence, partial_dependence
from inspectwidgets.inspection._partial_dependence import linear_grid

from numerics import assert_blas_close


def numeric_data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = X @ np.array([1.0, -2.0, 0.5, 0.0]) + rng.normal(0, 0.5, n)
    return X, y


def assert_matches_sklearn(model, X, features, **kwargs):
    result = partial_dependence(
        model, X, features, kind="both", return_result=True, **kwargs
    )
    assert result.algorithm == "linear"
    expected = sklearn_partial_dependence(model, X, features, kind="both", **kwargs)
    assert_blas_close(result.average, expected.average)
    assert_blas_close(result.individual, expected.individual)
    for ours, theirs in zip(result.grid_values, expected.grid_values, strict=True):
        np.testing.assert_array_equal(ours, theirs)


def test_ice_lines_are_the_decision_function_moved_along_the_weight():
    """ICE_i(v) = f(x_i) + (v - x_ij) w_j for a linear regression: the
    formula written out, against the engine."""
    X, y = numeric_data()
    model = LinearRegression().fit(X, y)
    result = partial_dependence(model, X, [1], kind="both", return_result=True)
    grid = result.grid_values[0]
    f = X @ model.coef_ + model.intercept_
    expected = f[:, None] + (grid[None, :] - X[:, [1]]) * model.coef_[1]
    assert_blas_close(result.individual[0], expected)
    assert_blas_close(result.average[0], expected.mean(axis=0))


@pytest.mark.parametrize(
    "model, target, response_method",
    [
        (Ridge(), "regression", "auto"),
        (PoissonRegressor(), "counts", "auto"),
        (LogisticRegression(), "binary", "predict_proba"),
        (LogisticRegression(), "binary", "decision_function"),
        (LogisticRegression(), "three", "predict_proba"),
        (SGDClassifier(loss="log_loss", random_state=0), "three", "auto"),
        (LinearSVC(random_state=0), "three", "decision_function"),
    ],
    ids=lambda v: v if isinstance(v, str) else type(v).__name__,
)
@pytest.mark.parametrize("features", [[0], [1, 2]], ids=["one", "pair"])
def test_models_match_sklearn(model, target, response_method, features):
    X, y = numeric_data()
    if target == "counts":
        y = np.random.default_rng(1).poisson(np.exp(y / 4))
    elif target == "binary":
        y = (y > 0).astype(int)
    elif target == "three":
        y = np.digitize(y, [-1, 1])
    model.fit(X, y)
    assert_matches_sklearn(
        model, X, features, response_method=response_method, grid_resolution=15
    )


def messy_frame(n=400, seed=0):
    """NaN, pandas nullable dtypes, strings, a categorical, integers."""
    rng = np.random.default_rng(seed)
    age = rng.normal(40, 10, n)
    age[::9] = np.nan
    frame = pd.DataFrame(
        {
            "age": age,
            "income": pd.array(rng.normal(3, 1, n), dtype="Float64"),
            "children": pd.array(rng.integers(0, 4, n), dtype="Int64"),
            "city": rng.choice(
                ["paris", "lyon", "nice", "brest"], n, p=[0.45, 0.3, 0.2, 0.05]
            ),  # fmt: skip
            "plan": pd.Categorical(rng.choice(["free", "pro", "team"], n)),
            "score": rng.normal(0, 1, n),
        }
    )
    logit = np.nan_to_num((age - 40) / 10) + (frame.city == "paris") - frame.score
    y = (logit + rng.normal(0, 1, n) > 0.3).astype(int).to_numpy()
    return frame, y


def messy_pipeline(model, encoder):
    return make_pipeline(
        ColumnTransformer(
            [
                (
                    "num",
                    make_pipeline(SimpleImputer(), StandardScaler()),
                    ["age", "income", "score"],
                ),  # fmt: skip
                ("int", StandardScaler(), ["children"]),
                ("cat", encoder, ["city", "plan"]),
            ]
        ),
        model,
    )


@pytest.mark.parametrize(
    "encoder",
    [
        OneHotEncoder(handle_unknown="ignore"),
        OneHotEncoder(drop="first", sparse_output=False),
        OneHotEncoder(min_frequency=40, handle_unknown="infrequent_if_exist"),
    ],
    ids=["ignore-sparse", "drop-first", "infrequent"],
)
@pytest.mark.parametrize(
    "features, categorical",
    [(["score"], None), (["city"], ["city"]), (["score", "plan"], ["plan"])],
    ids=["numeric", "category", "pair"],
)
def test_messy_pipeline_matches_sklearn(encoder, features, categorical):
    X, y = messy_frame()
    pipe = messy_pipeline(LogisticRegression(), encoder).fit(X, y)
    X_before = X.copy()
    assert_matches_sklearn(
        pipe, X, features, categorical_features=categorical, grid_resolution=20
    )
    pd.testing.assert_frame_equal(X, X_before)


def test_no_copy_is_predicted(monkeypatch):
    X, y = messy_frame(200)
    pipe = messy_pipeline(LogisticRegression(), OneHotEncoder()).fit(X, y)
    expected = sklearn_partial_dependence(pipe, X, ["score"], kind="both")
    rows = []
    original = LogisticRegression.decision_function

    def counted(self, X, *args, **kwargs):
        rows.append(X.shape[0])
        return original(self, X, *args, **kwargs)

    monkeypatch.setattr(LogisticRegression, "decision_function", counted)
    result = partial_dependence(pipe, X, ["score"], kind="both", return_result=True)
    assert result.algorithm == "linear"
    assert rows == []  # X · W is ours: the model computed no decision at all
    assert_blas_close(result.individual, expected.individual)


@pytest.mark.parametrize(
    "model, reason",
    [
        (make_pipeline(SplineTransformer(), Ridge()), "column-wise"),
        (KNeighborsRegressor(), "KNeighborsRegressor"),
    ],
    ids=["spline", "neighbors"],
)
def test_unsupported_falls_back_and_linear_refuses(model, reason):
    X, y = numeric_data(150)
    model.fit(X, y)
    result = partial_dependence(model, X, [0], kind="both", return_result=True)
    assert result.algorithm == "generic"
    expected = sklearn_partial_dependence(model, X, [0], kind="both")
    assert_blas_close(result.individual, expected.individual)
    with pytest.raises(ValueError, match=f"algorithm='linear'.*{reason}"):
        partial_dependence(model, X, [0], algorithm="linear")


def test_generic_is_still_chosen_on_request():
    X, y = numeric_data(150)
    model = Ridge().fit(X, y)
    result = partial_dependence(model, X, [0], algorithm="generic", return_result=True)
    assert result.algorithm == "generic"
    linear = partial_dependence(model, X, [0], algorithm="linear", return_result=True)
    assert linear.algorithm == "linear"
    assert_blas_close(linear.average, result.average)


# A row's decisions, link values and responses at 100 grid points: 2,400
# bytes; this budget makes blocks of 64 rows on one thread (the one-shot
# run's minimum: five blocks, the last one short), of 32 on two.
FIVE_BLOCKS = 64 * 2_400


@pytest.mark.parametrize("max_memory", [FIVE_BLOCKS, 64 * 2**20], ids=["blocks", "one"])
@pytest.mark.parametrize(
    "model, target",
    [(Ridge(), "regression"), (LogisticRegression(), "three")],
    ids=["ridge", "multinomial"],
)
def test_one_pass_matches_sklearn_with_weights_subsets_and_centering(
    model, target, max_memory
):
    """The one-shot run writes every row block's values straight into the
    result: sample weights in the averages, a subset of ICE rows that spans
    blocks, centered lines, each against scikit-learn's numbers."""
    X, y = numeric_data()
    if target == "three":
        y = np.digitize(y, [-1, 1])
    model.fit(X, y)
    weights = np.random.default_rng(3).uniform(0, 2, len(X))
    expected = sklearn_partial_dependence(
        model, X, [1], kind="both", sample_weight=weights
    )
    common = dict(kind="both", max_memory=max_memory, return_result=True)
    weighted = partial_dependence(model, X, [1], sample_weight=weights, **common)
    assert weighted.algorithm == "linear" and weighted.complete
    assert_blas_close(weighted.average, expected.average)
    assert_blas_close(weighted.individual, expected.individual)

    sub = partial_dependence(model, X, [1], n_ice=70, random_state=0, **common)
    assert len(sub.ice_rows) == 70 and sub.ice_rows.max() > 64
    plain = sklearn_partial_dependence(model, X, [1], kind="both")
    assert_blas_close(sub.average, plain.average)
    assert_blas_close(sub.individual, plain.individual[:, sub.ice_rows])

    centered = partial_dependence(model, X, [1], centered=True, **common)
    lines = plain.individual - plain.individual[..., :1]
    assert_blas_close(centered.individual, lines)
    assert_blas_close(centered.average, plain.average - plain.average[..., :1])


@pytest.mark.parametrize(
    "model, target, response_method",
    [
        (Ridge(), "two targets", "auto"),
        (LinearRegression(), "regression", "auto"),
        (Lasso(alpha=0.01), "regression", "auto"),
        (ElasticNet(alpha=0.01), "regression", "auto"),
        (SGDRegressor(random_state=0), "regression", "auto"),
        (LinearSVR(random_state=0), "regression", "auto"),
        (LinearSVC(random_state=0), "three", "decision_function"),
        (LogisticRegression(), "binary", "decision_function"),
    ],
    ids=lambda v: v if isinstance(v, str) else type(v).__name__,
)
@pytest.mark.parametrize("kind", ["average", "both"])
def test_decisions_averaged_without_summing_the_ice_array(
    monkeypatch, model, target, response_method, kind
):
    """Where the values are the decisions (no link), a grid point's average
    is the rows' average decision less the feature's plus the point's: the
    row blocks, which sum the ICE array, never run. scikit-learn's numbers
    with weights, a subset of ICE rows and centering."""
    X, y = numeric_data()
    y = {
        "regression": y,
        "two targets": np.column_stack([y, X[:, 2] - y]),
        "three": np.digitize(y, [-1, 1]),
        "binary": (y > 0).astype(int),
    }[target]
    model.fit(X, y)

    def refused(*args):
        raise AssertionError("the ICE array was summed block by block")

    monkeypatch.setattr(linear_grid._GridBlocks, "sums", refused)
    weights = np.random.default_rng(3).uniform(0, 2, len(X))
    common = dict(kind=kind, response_method=response_method)
    expected = sklearn_partial_dependence(
        model, X, [1], sample_weight=weights, **common
    )
    ours = partial_dependence(
        model, X, [1], sample_weight=weights, return_result=True, **common
    )
    assert ours.algorithm == "linear"
    assert_blas_close(ours.average, expected.average)
    if kind == "average":
        return
    assert_blas_close(ours.individual, expected.individual)
    plain = sklearn_partial_dependence(model, X, [1], **common)
    sub = partial_dependence(
        model, X, [1], n_ice=70, random_state=0, centered=True, return_result=True,
        **common,
    )  # fmt: skip
    lines = plain.individual - plain.individual[..., :1]
    assert_blas_close(sub.individual, lines[:, sub.ice_rows])
    assert_blas_close(sub.average, plain.average - plain.average[..., :1])


@pytest.mark.parametrize("max_memory", [FIVE_BLOCKS, 64 * 2**20], ids=["blocks", "one"])
@pytest.mark.parametrize("kind", ["average", "both"])
@pytest.mark.filterwarnings("error::RuntimeWarning")  # the ValueError says it all
def test_decisions_that_overflow_are_refused(kind, max_memory):
    """Finite decisions whose sums with a grid point's contribution overflow
    (row 10 near the largest float, the grid reaching row 20's value): the
    run says which values are not finite, as for a link's overflow."""
    X, y = numeric_data()
    model = Ridge().fit(X, y)
    X[10, 0] = 1e308 / model.coef_[0]
    X[20, 1] = 1e308 / model.coef_[1]
    assert np.isfinite(model.predict(X)).all()
    common = dict(kind=kind, max_memory=max_memory, percentiles=(0, 1))
    with pytest.raises(ValueError, match="returned NaN or infinite values"):
        partial_dependence(model, X, [1], **common)


@pytest.mark.parametrize("max_memory", [FIVE_BLOCKS, 64 * 2**20], ids=["blocks", "one"])
@pytest.mark.parametrize("kind", ["average", "both"])
@pytest.mark.filterwarnings("ignore:overflow encountered in exp:RuntimeWarning")
def test_a_row_predicted_infinite_is_refused_in_any_block(kind, max_memory):
    """One row's prediction overflows (a Poisson model's exp): its block's
    sums are not finite, and the run says where that comes from, as the
    streamed run does, whichever block holds the row."""
    X, y = numeric_data()
    model = PoissonRegressor().fit(X, np.exp(y / 4))
    X[200, 0] = 1e4 / model.coef_[0]  # exp(1e4): inf at every grid point
    assert not np.isfinite(model.predict(X[200:201]))
    common = dict(kind=kind, max_memory=max_memory, return_result=True)
    with pytest.raises(ValueError, match="returned NaN or infinite values"):
        partial_dependence(model, X, [1], **common)
    with pytest.raises(ValueError, match="returned NaN or infinite values"):
        list(iter_partial_dependence(model, X, [1], kind=kind))


@pytest.mark.parametrize("kind", ["average", "individual"])
def test_one_pass_and_streamed_runs_agree(kind):
    """The streamed run goes chunk by chunk, the one-shot run in row
    blocks: the same numbers up to BLAS rounding, the same arrays."""
    X, y = numeric_data()
    model = LogisticRegression().fit(X, (y > 0).astype(int))
    one_shot = partial_dependence(
        model, X, [0, 2], kind=kind, grid_resolution=12, max_memory=FIVE_BLOCKS,
        return_result=True,
    )  # fmt: skip
    *_, streamed = iter_partial_dependence(
        model, X, [0, 2], kind=kind, grid_resolution=12
    )
    assert one_shot.algorithm == streamed.algorithm == "linear"
    assert_blas_close(one_shot.average, streamed.average)
    if kind == "average":
        assert one_shot.individual is None is streamed.individual
    else:
        shape = (1, 300, 12, 12)
        assert one_shot.individual.shape == streamed.individual.shape == shape
        assert_blas_close(one_shot.individual, streamed.individual)
