"""Permuting after column-wise preprocessing: same numbers, one transform."""

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from scipy import sparse
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import RandomForestClassifier
from sklearn.inspection import permutation_importance as sklearn_permutation_importance
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import (
    FunctionTransformer,
    OneHotEncoder,
    OrdinalEncoder,
    StandardScaler,
)

from inspectwidgets import permutation_importance
from inspectwidgets.inspection._core.batching import ArrayBatcher, SparseRowBatcher

from numerics import assert_blas_close


def count_transformed_rows(pipe):
    """Wrap the pipeline's first step so it counts the rows it transforms."""
    preprocessing = pipe.steps[0][1]
    original = preprocessing.transform
    seen = []

    def transform(X, **params):
        seen.append(len(X))
        return original(X, **params)

    preprocessing.transform = transform
    return seen


def sparse_pipeline(model):
    """One-hot blocks wide enough that the ColumnTransformer outputs CSR."""
    return make_pipeline(
        ColumnTransformer(
            [
                ("onehot", OneHotEncoder(handle_unknown="ignore"), ["city", "plan"]),
                ("ordinal", OrdinalEncoder(), ["city"]),
                ("scale", StandardScaler(), ["age"]),
            ],
            remainder="passthrough",
            sparse_threshold=0.9,
        ),
        model,
    )


@pytest.mark.parametrize(
    "model",
    [LogisticRegression(), RandomForestClassifier(n_estimators=5, random_state=0)],
)
def test_sparse_output_matches_sklearn_with_one_transform(model, mixed_frame):
    X, y = mixed_frame(300, seed=3)
    pipe = sparse_pipeline(model).fit(X, y)
    assert sparse.issparse(pipe[:-1].transform(X))
    scoring = ["accuracy", "roc_auc", "neg_log_loss"]
    kwargs = dict(n_repeats=4, random_state=0, scoring=scoring, max_samples=0.7)
    weight = np.linspace(1, 2, len(y))
    expected = sklearn_permutation_importance(
        pipe, X, y, sample_weight=weight, **kwargs
    )
    seen = count_transformed_rows(pipe)
    got = permutation_importance(pipe, X, y, sample_weight=weight, **kwargs)
    # The baseline on all rows (through the pipeline, once per prediction
    # method, as scikit-learn does), then the subsampled rows once.
    assert seen[-1] == 210 and set(seen[:-1]) == {300}
    for name in scoring:
        assert_blas_close(got[name].importances, expected[name].importances)


def test_dense_output_and_groups_match_a_full_transform(mixed_pipeline):
    pipe, X, y = mixed_pipeline
    groups = {"where": ["city", "visits"], "plan": "plan"}
    expected = permutation_importance(
        pipe,
        X,
        y,
        n_repeats=3,
        random_state=0,
        features=groups,
        scoring=lambda est, X, y: est.score(X, y),  # a custom scorer: no shortcut
    )
    seen = count_transformed_rows(pipe)
    got = permutation_importance(
        pipe, X, y, n_repeats=3, random_state=0, features=groups
    )
    assert seen == [len(X), len(X)]
    assert_blas_close(got.importances, expected.importances)


def test_non_columnwise_preprocessing_transforms_every_copy(mixed_frame):
    X, y = mixed_frame(200)
    pipe = make_pipeline(
        ColumnTransformer(
            [
                ("onehot", OneHotEncoder(), ["city"]),
                ("log", FunctionTransformer(np.log1p), ["visits"]),
            ]
        ),
        LogisticRegression(),
    ).fit(X, y)
    expected = sklearn_permutation_importance(pipe, X, y, n_repeats=2, random_state=0)
    seen = count_transformed_rows(pipe)
    got = permutation_importance(pipe, X, y, n_repeats=2, random_state=0)
    assert sum(seen) == len(X) * (1 + 2 * X.shape[1])
    assert_blas_close(got.importances, expected.importances)


def test_sparse_rows_equal_dense_permutation_in_storage_order():
    rng = np.random.default_rng(0)
    dense = rng.normal(size=(40, 9)) * (rng.uniform(size=(40, 9)) < 0.4)
    matrix = sparse.csr_matrix(dense)
    copies = [
        (rng.permutation(40), (2, 3, 4)),
        (rng.permutation(40), (0, 8)),
        (rng.permutation(40), ()),
        (rng.permutation(40), (1, 3, 5, 7)),
    ]
    stacked = SparseRowBatcher(matrix).build(copies)
    assert_array_equal(stacked.toarray(), ArrayBatcher(dense).build(copies))
    assert stacked.has_sorted_indices
    # Same stored entries as converting the permuted dense copies.
    assert stacked.nnz == sparse.csr_matrix(ArrayBatcher(dense).build(copies)).nnz


def test_sparse_copies_from_donor_rows_of_different_layouts():
    # Partial dependence: every row of a copy takes the columns from one donor
    # row. Donor rows differ in which of those columns they store (a zero not
    # stored, an explicit zero stored), so copies have different layouts.
    rng = np.random.default_rng(1)
    dense = rng.normal(size=(30, 7)) * (rng.uniform(size=(30, 7)) < 0.5)
    matrix = sparse.csr_matrix(dense)
    donor_dense = rng.normal(size=(5, 7))
    donor_dense[1, [2, 3]] = 0.0
    donor_dense[3, 2] = 0.0
    donor = sparse.csr_matrix(donor_dense)
    donor.data[donor.indptr[4]] = 0.0  # an explicit zero, kept in storage
    columns = (2, 3, 5)
    copies = [(row, columns) for row in (0, 1, 2, 3, 4, 1, 0)]
    stacked = SparseRowBatcher(matrix).build(copies, donor=donor)
    expected = ArrayBatcher(dense).build(copies, donor=donor.toarray())
    assert_array_equal(stacked.toarray(), expected)
    assert stacked.has_sorted_indices
    # Row by row, the entries are X's outside the columns and the donor row's
    # inside them, explicit zeros included, in column order.
    for b, (row, _) in enumerate(copies):
        donor_row = donor[row]
        inside = np.isin(donor_row.indices, columns)
        for i in range(matrix.shape[0]):
            got = stacked[b * matrix.shape[0] + i]
            own = matrix[i]
            keep = ~np.isin(own.indices, columns)
            want = sorted(
                zip(
                    np.r_[own.indices[keep], donor_row.indices[inside]],
                    np.r_[own.data[keep], donor_row.data[inside]],
                    strict=True,
                )
            )
            assert list(zip(got.indices, got.data, strict=True)) == want


@pytest.mark.parametrize("algorithm", ["auto", "tree"])
def test_a_column_the_pipeline_drops_has_zero_importance(mixed_frame, algorithm):
    """A column the ColumnTransformer drops maps to no column of the model:
    the tree walk's cost model took an empty group (it raised on max() of
    nothing); its importance is scikit-learn's, zero."""
    X, y = mixed_frame(300)
    pipe = make_pipeline(
        ColumnTransformer([("num", "passthrough", ["age", "visits"])]),
        RandomForestClassifier(n_estimators=5, random_state=0),
    ).fit(X, y)
    got = permutation_importance(
        pipe, X, y, n_repeats=3, random_state=0, algorithm=algorithm
    )
    expected = sklearn_permutation_importance(pipe, X, y, n_repeats=3, random_state=0)
    assert_array_equal(got.importances, expected.importances)
    assert (got.importances[[0, 1]] == 0).all()  # city and plan, dropped
