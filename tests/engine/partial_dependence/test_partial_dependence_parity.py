"""partial_dependence gives scikit-learn's numbers, grids and shapes."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.compose import ColumnTransformer
from sklearn.datasets import make_classification
from sklearn.ensemble import (
    GradientBoostingClassifier,
    GradientBoostingRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import (
    OneHotEncoder,
    OrdinalEncoder,
    PolynomialFeatures,
    StandardScaler,
)
from sklearn.tree import DecisionTreeRegressor

from inspectwidgets import partial_dependence

from numerics import assert_blas_close
from sklearn_reference import sklearn_partial_dependence

pytestmark = pytest.mark.usefixtures("quiet_single_threaded")


def assert_same(expected, got):
    """Same keys, grids (values and dtypes), shapes and numbers up to BLAS rounding."""
    assert set(got) == set(expected)
    assert len(got.grid_values) == len(expected.grid_values)
    for ours, theirs in zip(got.grid_values, expected.grid_values, strict=True):
        assert ours.dtype == theirs.dtype
        assert_array_equal(ours, theirs)
    for key in ("average", "individual"):
        if key in expected:
            assert got[key].shape == expected[key].shape, key
            assert_blas_close(got[key], expected[key])


def both_ways(estimator, X, features, **kwargs):
    expected = sklearn_partial_dependence(estimator, X, features, **kwargs)
    got = partial_dependence(estimator, X, features, **kwargs)
    assert_same(expected, got)
    return got


@pytest.mark.parametrize("features", [[0], [1, 2], 3, [(0, 2)]])
@pytest.mark.parametrize("kind", ["average", "individual", "both"])
def test_regressor_1_and_2_way(regression_data, features, kind):
    X, y = regression_data
    model = Ridge(alpha=1.0).fit(X, y)
    both_ways(model, X, features, kind=kind, grid_resolution=12)


@pytest.mark.parametrize("features", [[0], [1, 2]])
def test_forest_regressor_brute_with_sample_weight(regression_data, features):
    X, y = regression_data
    model = RandomForestRegressor(n_estimators=8, random_state=0).fit(X, y)
    weight = np.linspace(0.2, 3, len(X))
    both_ways(
        model,
        X,
        features,
        kind="both",
        method="brute",
        grid_resolution=10,
        sample_weight=weight,
    )


def test_multioutput_regressor(regression_data):
    X, y = regression_data
    model = LinearRegression().fit(X, np.c_[y, -2 * y + X[:, 0]])
    got = both_ways(model, X, [0, 3], kind="both", grid_resolution=6)
    assert got.average.shape == (2, 6, 6)


@pytest.mark.parametrize("response_method", ["auto", "decision_function"])
@pytest.mark.parametrize("features", [[1], [0, 3]])
def test_binary_classifier_positive_class(features, response_method):
    X, y = make_classification(n_samples=120, n_features=4, random_state=1)
    model = LogisticRegression().fit(X, np.where(y == 1, "yes", "no"))
    got = both_ways(
        model,
        X,
        features,
        kind="both",
        grid_resolution=8,
        response_method=response_method,
        sample_weight=np.arange(1, len(X) + 1),
    )
    assert got.average.shape[0] == 1


@pytest.mark.parametrize(
    "model",
    [
        LogisticRegression(),
        GradientBoostingClassifier(n_estimators=10, random_state=0),
        RandomForestClassifier(n_estimators=5, random_state=0),
    ],
)
@pytest.mark.parametrize("features", [[0], [1, 2]])
def test_three_classes_every_class(three_class_data, model, features):
    X, y = three_class_data
    model.fit(X, y)
    got = both_ways(model, X, features, kind="both", method="brute", grid_resolution=8)
    assert got.average.shape[0] == 3


@pytest.mark.parametrize(
    "model, target",
    [
        (GradientBoostingRegressor(n_estimators=10, random_state=0), "regression"),
        (HistGradientBoostingRegressor(max_iter=10), "regression"),
        (DecisionTreeRegressor(max_depth=4, random_state=0), "regression"),
        (RandomForestRegressor(n_estimators=5, random_state=0), "regression"),
        (GradientBoostingClassifier(n_estimators=10, random_state=0), "classes"),
        (HistGradientBoostingClassifier(max_iter=10), "classes"),
    ],
)
@pytest.mark.parametrize("method", ["auto", "recursion"])
@pytest.mark.parametrize("features", [[0], [1, 3]])
def test_recursion_is_the_estimators_own(
    regression_data, three_class_data, model, target, method, features
):
    X, y = regression_data if target == "regression" else three_class_data
    model.fit(X, y)
    kwargs = dict(method=method, grid_resolution=9)
    expected = sklearn_partial_dependence(model, X, features, **kwargs)
    result = partial_dependence(model, X, features, return_result=True, **kwargs)
    assert result.method == "recursion" and result.complete
    assert_same(expected, result.to_sklearn())
    # Bit for bit: the same grid goes to the same method.
    assert_array_equal(result.average, expected.average)


def test_gradient_boosting_with_init_uses_brute_under_auto(regression_data):
    X, y = regression_data
    model = GradientBoostingRegressor(
        n_estimators=5, init=LinearRegression(), random_state=0
    ).fit(X, y)
    result = partial_dependence(model, X, [0], grid_resolution=5, return_result=True)
    assert result.method == "brute"
    assert_same(
        sklearn_partial_dependence(model, X, [0], grid_resolution=5),
        result.to_sklearn(),
    )


def test_grid_percentiles_unique_values_and_custom_values(regression_data):
    X, y = regression_data
    X = X.copy()
    X[:, 1] = np.round(X[:, 1])  # few unique values: the grid uses them
    model = Ridge().fit(X, y)
    both_ways(model, X, [1], grid_resolution=50, percentiles=(0.1, 0.8))
    both_ways(model, X, [0], percentiles=(0, 1), grid_resolution=7)
    both_ways(
        model,
        X,
        [0, 2],
        custom_values={0: [-1.0, 0.0, 2.5], 2: np.linspace(-1, 1, 4)},
        kind="both",
    )


def test_integer_coded_categorical_feature_on_an_array(regression_data):
    X, y = regression_data
    X = np.c_[X, np.arange(len(X)) % 4]
    model = Ridge().fit(X, y)
    both_ways(model, X, [4], categorical_features=[4], kind="both")
    both_ways(
        model,
        X,
        [4, 0],
        categorical_features=[False, False, False, False, True],
        grid_resolution=5,
    )


def test_list_input_and_float32_array(regression_data):
    X, y = regression_data
    model = Ridge().fit(X, y)
    both_ways(model, X[:40].tolist(), [0], grid_resolution=5, kind="both")
    both_ways(model, X.astype(np.float32), [1, 2], grid_resolution=5, kind="both")


def test_feature_names_resolve_categorical_features_by_name(regression_data):
    X, y = regression_data
    X = np.c_[X, np.arange(len(X)) % 3]
    model = Ridge().fit(X, y)
    names = ["a", "b", "c", "d", "group"]
    both_ways(
        model, X, [4], feature_names=names, categorical_features=["group"], kind="both"
    )


# --- DataFrames and pipelines ---


def mixed_frame(n=240, seed=0):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(
        {
            "city": rng.choice(["paris", "lyon", "nice", "lille"], n),
            "plan": pd.Categorical(rng.choice(["free", "pro", "team"], n)),
            "age": rng.normal(40, 10, n),
            "visits": rng.poisson(3, n).astype(float),
        }
    )
    logit = (frame.city == "paris") * 1.5 + (frame.age - 40) / 10
    return frame, (logit + rng.normal(0, 1, n) > 0.3).astype(int).to_numpy()


def onehot_scaler(**kwargs):
    return ColumnTransformer(
        [
            ("cat", OneHotEncoder(handle_unknown="ignore"), ["city", "plan"]),
            ("num", StandardScaler(), ["age", "visits"]),
        ],
        **kwargs,
    )


def sparse_preprocessing():
    return ColumnTransformer(
        [
            ("onehot", OneHotEncoder(handle_unknown="ignore"), ["city", "plan"]),
            ("ordinal", OrdinalEncoder(), ["city"]),
            ("scale", StandardScaler(), ["age"]),
        ],
        remainder="passthrough",
        sparse_threshold=0.9,
    )


PIPELINES = {
    # Column-wise preprocessing: X transformed once (dense, then CSR output).
    "onehot+scaler": lambda: make_pipeline(onehot_scaler(), LogisticRegression()),
    "sparse": lambda: make_pipeline(
        sparse_preprocessing(), RandomForestClassifier(n_estimators=5, random_state=0)
    ),
    # Not column-wise: every copy goes through the whole pipeline.
    "polynomial": lambda: make_pipeline(
        onehot_scaler(), PolynomialFeatures(2), LogisticRegression(max_iter=500)
    ),
}


def count_transformed_rows(pipe):
    """Wrap the pipeline's first step so it records the rows it transforms."""
    preprocessing = pipe.steps[0][1]
    original = preprocessing.transform
    seen = []

    def transform(X, **params):
        seen.append(len(X))
        return original(X, **params)

    preprocessing.transform = transform
    return seen


@pytest.mark.parametrize("name", list(PIPELINES))
@pytest.mark.parametrize(
    "features, categorical",
    [
        (["age"], None),
        (["city"], ["city"]),
        (["plan", "age"], ["plan"]),
        (["city", "plan"], ["city", "plan"]),
    ],
)
def test_dataframe_pipelines(name, features, categorical):
    X, y = mixed_frame()
    pipe = PIPELINES[name]().fit(X, y)
    kwargs = dict(kind="both", grid_resolution=9, categorical_features=categorical)
    expected = sklearn_partial_dependence(pipe, X, features, **kwargs)
    seen = count_transformed_rows(pipe)
    result = partial_dependence(pipe, X, features, return_result=True, **kwargs)
    assert_same(expected, result.to_sklearn())
    if name == "polynomial":
        assert sum(seen) == len(X) * result.n_points
    else:
        # X once, and one row per grid point.
        assert sorted(seen) == sorted([len(X), result.n_points])


def test_sparse_shortcut_really_is_sparse():
    X, y = mixed_frame()
    pipe = PIPELINES["sparse"]().fit(X, y)
    from scipy import sparse

    assert sparse.issparse(pipe[:-1].transform(X))


def test_native_categorical_support_on_a_frame():
    X, y = mixed_frame()
    X["city"] = X["city"].astype("category")
    model = HistGradientBoostingClassifier(
        max_iter=10, categorical_features="from_dtype"
    ).fit(X, y)
    # scikit-learn's recursion cannot take string categories in its grid.
    cases = [
        (["age"], None, "recursion"),
        (["city"], ["city"], "brute"),
        (["age", "plan"], ["plan"], "brute"),
    ]
    for features, categorical, method in cases:
        both_ways(
            model,
            X,
            features,
            method=method,
            categorical_features=categorical,
            grid_resolution=7,
        )


def test_string_dtype_column_in_a_frame():
    X, y = mixed_frame()
    X["city"] = X["city"].astype("string")
    pipe = PIPELINES["onehot+scaler"]().fit(X, y)
    both_ways(
        pipe,
        X,
        ["city", "age"],
        categorical_features=["city"],
        kind="both",
        grid_resolution=5,
    )


def test_sparse_copies_from_donor_rows_match_dense_ones():
    """Copies taking columns from donor rows (grid points), as CSR: the same
    matrix as the dense copies, explicit zeros and storage order included."""
    from scipy import sparse

    from inspectwidgets.inspection._core.batching import ArrayBatcher, SparseRowBatcher

    rng = np.random.default_rng(0)
    dense = rng.normal(size=(30, 6)) * (rng.random((30, 6)) < 0.5)
    donor = rng.normal(size=(5, 6)) * (rng.random((5, 6)) < 0.5)
    donor[1, [1, 4]] = 0  # donor rows of different layouts
    matrix, donor_matrix = sparse.csr_matrix(dense), sparse.csr_matrix(donor)
    matrix.data[::7] = 0.0  # explicit zeros are kept
    dense = matrix.toarray()
    copies = [(b, columns) for b in range(5) for columns in [(1,), (1, 4), (0, 5)]]
    copies += [(np.full(30, 2), (2, 3))]  # one donor row per row
    stacked = SparseRowBatcher(matrix).build(copies, donor=donor_matrix)
    expected = ArrayBatcher(dense).build(copies, donor=donor)
    assert_array_equal(stacked.toarray(), expected)
    # Entry by entry: row i's entries outside the columns and the donor row's
    # inside them, in column order.
    data, indices = [], []
    for rows, columns in copies:
        for i in range(30):
            donor_row = int(np.broadcast_to(rows, 30)[i])
            entries = [
                (c, v)
                for source, row, keep in (
                    (matrix, i, False),
                    (donor_matrix, donor_row, True),
                )
                for c, v in zip(
                    source.indices[source.indptr[row] : source.indptr[row + 1]],
                    source.data[source.indptr[row] : source.indptr[row + 1]],
                    strict=True,
                )
                if (c in columns) == keep
            ]
            entries.sort(key=lambda e: e[0])
            indices += [c for c, _ in entries]
            data += [v for _, v in entries]
    assert_array_equal(stacked.indices, indices)
    assert_array_equal(stacked.data, data)
