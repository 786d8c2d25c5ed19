"""ICE clusters against their definitions written out here: scikit-learn's
KMeans on the centered curves, the k of the largest silhouette by
scikit-learn's silhouette_score, the k-means fixed point, and rules that
hold for the rows they name."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.cluster import KMeans
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import LinearRegression
from sklearn.metrics import adjusted_rand_score, silhouette_score
from threadpoolctl import threadpool_limits

from inspectwidgets import Cohort, ice_clusters, partial_dependence
from inspectwidgets.inspection._partial_dependence.ice_clusters import (
    SILHOUETTE_ROWS,
)


@pytest.fixture(autouse=True)
def one_thread():
    with threadpool_limits(limits=1):
        yield


@pytest.fixture(scope="module")
def churn():
    """Three slopes of `tenure` set by the plan and by `age`; NaN, a nullable
    integer and a category among the columns."""
    rng = np.random.RandomState(0)
    n = 2600  # more curves than the silhouette's sample
    X = pd.DataFrame(
        {
            "tenure": rng.uniform(0, 1, n),
            "age": rng.uniform(20, 70, n),
            "visits": pd.array(rng.randint(0, 6, n), dtype="Int64"),
            "plan": pd.Categorical(rng.choice(["basic", "pro"], n)),
        }
    )
    X.loc[rng.rand(n) < 0.05, "age"] = np.nan
    slope = np.where(X["plan"] == "pro", 3.0, np.where(X["age"] > 45, -2.0, 0.0))
    y = slope * X["tenure"] + 0.05 * X["visits"].astype(float)
    model = HistGradientBoostingRegressor(
        max_iter=60, categorical_features="from_dtype", random_state=0
    ).fit(X, y)
    result = partial_dependence(
        model, X, ["tenure"], kind="both", grid_resolution=12, return_result=True
    )
    return model, X, result


def _centered(result):
    curves = result.individual[0]
    return curves - curves[:, :1]


def test_the_partition_is_sklearns_kmeans_on_the_centered_curves(churn):
    _, X, result = churn
    for k in (2, 3, 5):
        clusters = ice_clusters(result, X, n_clusters=k, random_state=4)
        expected = KMeans(n_clusters=k, n_init=1, random_state=4).fit(_centered(result))
        assert adjusted_rand_score(expected.labels_, clusters.labels) == 1.0
        assert clusters.n_clusters == k
        assert sorted(clusters.sizes, reverse=True) == clusters.sizes.tolist()


def test_k_of_the_largest_silhouette(churn):
    _, X, result = churn
    centered = _centered(result)
    clusters = ice_clusters(result, X, random_state=1)
    expected = {}
    for k in range(2, 7):
        labels = KMeans(n_clusters=k, n_init=1, random_state=1).fit(centered).labels_
        expected[k] = silhouette_score(
            centered, labels, sample_size=SILHOUETTE_ROWS, random_state=1
        )
    assert sorted(clusters.silhouette) == list(range(2, 7))
    assert_allclose(
        [clusters.silhouette[k] for k in range(2, 7)],
        [expected[k] for k in range(2, 7)],
        rtol=1e-9,
    )
    assert clusters.n_clusters == max(expected, key=expected.get) == 3


def test_clusters_are_a_kmeans_fixed_point_with_their_means(churn):
    """k-means by definition: each cluster's centre is its curves' mean and
    each curve is nearest its own cluster's centre."""
    _, X, result = churn
    clusters = ice_clusters(result, X, n_clusters=3)
    centered = _centered(result)
    for c in range(3):
        members = clusters.labels == c
        assert members.sum() == clusters.sizes[c]
        assert_allclose(clusters.centered_average[c, 0], centered[members].mean(0))
        assert_allclose(clusters.average[c, 0], result.individual[0][members].mean(0))
    centres = clusters.centered_average[:, 0]
    distances = ((centered[:, None, :] - centres[None]) ** 2).sum(axis=2)
    assert_array_equal(distances.argmin(axis=1), clusters.labels)


def test_rules_describe_the_rows_they_name(churn):
    _, X, result = churn
    clusters = ice_clusters(result, X, random_state=1)
    frame = clusters.rules_to_frame()
    assert list(frame.columns) == ["cluster", "rule", "size", "precision", "coverage"]
    assert clusters.tree_accuracy > 0.95
    text = " ".join(frame["rule"])
    assert "plan" in text and "age" in text
    assert "tenure" not in text  # the feature's own column is left out
    for c, rules in enumerate(clusters.rules):
        assert rules, f"cluster {c} has no rule"
        best = rules[0]
        # The rule evaluated on X by pandas: its rows, and their clusters.
        mask = _evaluate(best.rule, X)
        assert mask.sum() == best.size
        assert_allclose((clusters.labels[mask] == c).mean(), best.precision)
        assert_allclose(
            (clusters.labels[mask] == c).sum() / clusters.sizes[c], best.coverage
        )


def _evaluate(rule, X):
    """The rows meeting a rule, read by pandas (the forms the rule writer
    uses here: `a < col <= b`, `col <= b`, `col > a`, `col = 'v'`,
    `col != 'v'`, each maybe `(... or col is missing)`)."""
    mask = np.ones(len(X), dtype=bool)
    for part in rule.split(" and "):
        part = part.strip()
        missing_ok = part.endswith("is missing)")
        if missing_ok:
            part = part[1:].split(" or ")[0]
        tokens = part.split()
        if len(tokens) == 5:  # low < col <= high
            column = X[tokens[2]].astype(float)
            ok = (column > float(tokens[0])) & (column <= float(tokens[4]))
        else:
            name, op, value = tokens
            column = X[name]
            if value.startswith("'"):
                equal = column.astype(str) == value.strip("'")
                ok = equal if op == "=" else ~equal & column.notna()
            else:
                column = column.astype(float)
                ok = column <= float(value) if op == "<=" else column > float(value)
        ok = ok.fillna(False).to_numpy(dtype=bool, copy=True)
        if missing_ok:
            ok |= X[tokens[0] if len(tokens) == 3 else tokens[2]].isna().to_numpy()
        mask &= ok
    return mask


def test_reproducible_and_seeded(churn):
    _, X, result = churn
    first, again = (ice_clusters(result, X, random_state=7) for _ in range(2))
    assert_array_equal(first.labels, again.labels)
    assert first.rules == again.rules
    state = ice_clusters(result, X, random_state=np.random.RandomState(7))
    assert state.n_clusters >= 2


def test_drawn_rows_multiclass_outputs_and_no_x():
    rng = np.random.RandomState(0)
    X = rng.uniform(-1, 1, size=(300, 3))
    y = np.digitize(X[:, 0] * np.sign(X[:, 1]), [-0.3, 0.3])
    from sklearn.ensemble import RandomForestClassifier

    model = RandomForestClassifier(n_estimators=10, random_state=0).fit(X, y)
    result = partial_dependence(
        model, X, [0], kind="both", grid_resolution=6, n_ice=120, random_state=0,
        return_result=True,
    )  # fmt: skip
    clusters = ice_clusters(result, X, n_clusters=2)
    assert clusters.average.shape == (2, 3, 6)
    assert_array_equal(clusters.ice_rows, result.ice_rows)
    # The curves are the classes' curves end to end.
    flat = np.moveaxis(result.individual - result.individual[..., :1], 0, 1)
    expected = KMeans(n_clusters=2, n_init=1, random_state=0).fit(flat.reshape(120, -1))
    assert adjusted_rand_score(expected.labels_, clusters.labels) == 1.0
    rows = X[result.ice_rows]
    assert "x1" in clusters.rules[0][0].rule
    same = ice_clusters(result, rows, n_clusters=2)
    # The same leaves; their texts exact on the X given (all rows, or only
    # the curves').
    assert [[(r.size, r.precision, r.coverage) for r in c] for c in same.rules] == [
        [(r.size, r.precision, r.coverage) for r in c] for c in clusters.rules
    ]
    for given, run in ((X, clusters), (rows, same)):
        for rules, members in zip(run.rules, run.rule_rows, strict=True):
            for rule, positions in zip(rules, members, strict=True):
                mask = Cohort("c", rule.rule).mask(given)
                if given is X:
                    mask = mask[result.ice_rows]
                assert_array_equal(np.flatnonzero(mask), positions, rule.rule)
    assert ice_clusters(result, n_clusters=2).rules is None


def test_one_shape_is_one_cluster():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(100, 2))
    model = LinearRegression().fit(X, X @ [1.0, 2.0])
    result = partial_dependence(
        model, X, [0], kind="both", grid_resolution=5, return_result=True
    )
    # Parallel lines: one shape, to rounding; made exact here (integer
    # levels plus quarters).
    levels = np.round(result.individual[..., :1])
    flat = levels + 0.25 * np.arange(5)
    from dataclasses import replace

    clusters = ice_clusters(replace(result, individual=flat), X)
    assert clusters.n_clusters == 1 and clusters.silhouette == {}
    assert clusters.rules == ((clusters.rules[0][0],),)
    assert clusters.rules[0][0].rule == "all rows"


def test_bad_inputs_name_the_argument(churn):
    _, X, result = churn
    before = X.copy()
    for bad in (0, 2.5, "3", True, len(X) + 1):
        with pytest.raises(ValueError, match="n_clusters must be an int"):
            ice_clusters(result, X, n_clusters=bad)
    with pytest.raises(ValueError, match="max_depth must be an int >= 1; got 0"):
        ice_clusters(result, X, max_depth=0)
    with pytest.raises(ValueError, match="X has 10 rows; the result holds 2600"):
        ice_clusters(result, X.iloc[:10])
    with pytest.raises(ValueError, match="random_state"):
        ice_clusters(result, X, random_state="seed")
    from dataclasses import replace

    nan = result.individual.copy()
    nan[0, 0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN or infinity"):
        ice_clusters(replace(result, individual=nan), X)
    average_only = replace(result, individual=None, kind="average")
    with pytest.raises(ValueError, match='kind="both"'):
        ice_clusters(average_only, X)
    pd.testing.assert_frame_equal(X, before)
