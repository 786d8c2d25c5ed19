"""Feature clusters on Spearman correlation, as in scikit-learn's example."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from scipy.cluster import hierarchy
from scipy.spatial.distance import squareform
from scipy.stats import spearmanr
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier

from inspectwidgets import cluster_features, permutation_importance
from inspectwidgets.inspection._comparison.clustering import groups_at, numeric_clusters


def _spearman(X):
    """The |Spearman rho| matrix as scikit-learn's multicollinear example
    computes it (scipy's spearmanr, symmetrized, unit diagonal)."""
    corr = spearmanr(X).correlation
    corr = (corr + corr.T) / 2
    np.fill_diagonal(corr, 1)
    return np.abs(corr)


@pytest.mark.parametrize("correlation_threshold", [0.5, 0.8, 0.95])
def test_every_pair_in_a_group_reaches_the_threshold(correlation_threshold):
    X, _ = load_breast_cancer(return_X_y=True, as_frame=True)
    result = cluster_features(X, correlation_threshold=correlation_threshold)
    rho = _spearman(X)
    assert_allclose(
        result.linkage, hierarchy.complete(squareform(1 - rho, checks=False))
    )
    position = {name: i for i, name in enumerate(X.columns)}
    grouped = []
    for members in result.groups.values():
        index = [position[m] for m in members]
        assert rho[np.ix_(index, index)].min() >= correlation_threshold - 1e-12
        grouped += members
    assert sorted(grouped) == sorted(X.columns)
    # Some groups form at each of these thresholds, and they differ.
    assert len(result.groups) < X.shape[1]
    assert len(result.groups) == len(set(result.labels))


def test_uncorrelated_features_are_never_grouped():
    # The default grouped features with rho near 0: Ward linkage cut at 1.
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(4000, 5)), columns=list("abcde"))
    X["a_twin"] = X["a"] + rng.normal(scale=0.1, size=4000)
    assert _spearman(X)[np.triu_indices(5, 1)].max() < 0.05
    ward = hierarchy.fcluster(
        hierarchy.ward(squareform(1 - _spearman(X), checks=False)),
        1,
        criterion="distance",
    )
    assert len(set(ward[:5])) < 5  # what the old default did
    result = cluster_features(X)
    assert [m for m in result.groups.values() if len(m) > 1] == [["a", "a_twin"]]


def test_missing_values_leave_out_only_their_own_pairs_rows():
    # Every row misses one of the four features: dropping incomplete rows
    # would leave none, and no correlation to group on.
    rng = np.random.default_rng(0)
    n = 400
    a = rng.normal(size=n)
    X = pd.DataFrame(
        {
            "a": a,
            "b": a + rng.normal(scale=0.2, size=n),
            "c": rng.normal(size=n),
            "d": pd.array(rng.integers(0, 50, size=n), dtype="Int64"),
        }
    )
    for j, column in enumerate(X.columns):
        X.loc[np.arange(n) % 4 == j, column] = None
    assert X.dropna().empty
    before = X.copy()
    result = cluster_features(X, correlation_threshold=0.8)
    # Each pair's rho by scipy on the rows where both are present.
    values = X.astype(float).to_numpy()
    for i in range(4):
        for j in range(4):
            both = ~np.isnan(values[:, i]) & ~np.isnan(values[:, j])
            expected = 1.0 if i == j else spearmanr(values[both, i], values[both, j])[0]
            assert_allclose(result.correlation[i, j], expected, rtol=1e-12)
    assert result.groups == {"a + b": ["a", "b"], "c": ["c"], "d": ["d"]}
    pd.testing.assert_frame_equal(X, before)


def test_groups_plug_into_permutation_importance():
    rng = np.random.default_rng(0)
    a = rng.normal(size=400)
    X = pd.DataFrame(
        {
            "a": a,
            "a_copy": a + rng.normal(scale=0.01, size=400),
            "noise": rng.normal(size=400),
        }
    )
    y = (a > 0).astype(int)
    result = cluster_features(X, n_clusters=2)
    assert sorted(map(sorted, result.groups.values())) == [["a", "a_copy"], ["noise"]]
    model = RandomForestClassifier(n_estimators=20, random_state=0).fit(X, y)
    grouped = permutation_importance(
        model, X, y, features=result.groups, random_state=0
    )
    single = permutation_importance(model, X, y, random_state=0)
    pair = list(result.groups).index("a + a_copy")
    # Permuting the pair together removes what either alone cannot.
    assert grouped.importances_mean[pair] > single.importances_mean[:2].max()


def test_errors():
    X = np.random.default_rng(0).normal(size=(20, 3))
    with pytest.raises(ValueError, match="not both"):
        cluster_features(X, correlation_threshold=0.8, n_clusters=2)
    for bad in (1.5, -0.1, "0.8", np.nan):
        with pytest.raises(ValueError, match="between 0 and 1; got"):
            cluster_features(X, correlation_threshold=bad)
    with pytest.raises(ValueError, match="n_clusters must be between 1 and the 3"):
        cluster_features(X, n_clusters=5)
    with pytest.raises(ValueError, match="at least 2 features"):
        cluster_features(X[:, :1])


def test_fewer_than_two_numeric_columns_leave_each_column_alone():
    X = pd.DataFrame({"size": [1.0, 2.0, 3.0], "colour": ["red", "blue", "red"]})
    clusters = numeric_clusters(X)
    assert clusters is None
    assert groups_at(clusters, X, correlation_threshold=0.5) == {
        "size": ["size"],
        "colour": ["colour"],
    }
    array = np.arange(6.0).reshape(3, 2)
    assert groups_at(numeric_clusters(array[:, :1]), array[:, :1], 1.0) == {"0": [0]}


def test_groups_at_clusters_the_numeric_columns_and_keeps_the_others():
    X, _ = load_breast_cancer(return_X_y=True, as_frame=True)
    X = X.iloc[:, :6].assign(colour="red")
    clusters = numeric_clusters(X)
    expected = cluster_features(
        X.drop(columns="colour"), correlation_threshold=0.5
    ).groups
    assert groups_at(clusters, X, 0.5) == {**expected, "colour": ["colour"]}
