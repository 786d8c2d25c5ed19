"""ALE against Apley & Zhu's estimator written out, against effector, and the
engine's promises: the tree shortcut's bits, streaming, cancel, bad input."""

import inspect
import threading

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import (
    HistGradientBoostingClassifier,
    RandomForestRegressor,
)
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from inspectwidgets import accumulated_local_effects, iter_accumulated_local_effects


def apley_zhu(predict, X, feature, n_bins, weights=None):
    """Apley & Zhu (2020) eq. 15-16 by a loop over the bins: each bin's rows
    predicted at its two edges, their mean difference accumulated, centred
    by the rows per bin at the bins' midpoints."""
    x = X[:, feature]
    weights = np.ones(len(x)) if weights is None else weights
    z = np.unique(np.quantile(x, np.linspace(0, 1, n_bins + 1)))
    local, counts = [], []
    for k in range(1, len(z)):
        inside = (x > z[k - 1]) & (x <= z[k]) if k > 1 else (x <= z[1])
        low, high = X[inside].copy(), X[inside].copy()
        low[:, feature], high[:, feature] = z[k - 1], z[k]
        w = weights[inside]
        change = predict(high) - predict(low)
        local.append(np.average(change, axis=0, weights=w))
        counts.append(w.sum())
    local, counts = np.array(local).T.reshape(-1, len(counts)), np.array(counts)
    g = np.concatenate([np.zeros((len(local), 1)), np.cumsum(local, axis=1)], axis=1)
    offset = ((g[:, :-1] + g[:, 1:]) / 2) @ counts / counts.sum()
    return z, g, g - offset[:, None], local


@pytest.fixture(scope="module")
def forest():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(500, 4))
    X = X.astype(np.float32).astype(np.float64)  # exact under the shortcut
    y = X[:, 0] ** 2 + X[:, 1] * X[:, 2] + rng.normal(scale=0.1, size=500)
    return RandomForestRegressor(30, max_depth=6, random_state=0).fit(X, y), X


@pytest.mark.parametrize("algorithm", ["tree", "generic"])
def test_forest_equals_apley_zhu_written_out(forest, algorithm):
    model, X = forest
    weights = np.random.RandomState(2).uniform(0.5, 2, len(X))
    ale = accumulated_local_effects(
        model, X, 0, grid_resolution=12, sample_weight=weights, algorithm=algorithm
    )
    z, g, centred, local = apley_zhu(model.predict, X, 0, 12, weights)
    assert_array_equal(ale.edges[0], z)
    # Trees predict exactly; the means add in another order: rounding only.
    assert_allclose(ale.uncentered, g, rtol=1e-12, atol=1e-12)
    assert_allclose(ale.centered, centred, rtol=1e-12, atol=1e-12)
    assert_allclose(ale.local_effects, local, rtol=1e-12, atol=1e-12)


def test_tree_shortcut_gives_the_generic_paths_bits(forest):
    model, X = forest
    for features in (1, [1, 2]):
        generic = accumulated_local_effects(model, X, features, algorithm="generic")
        for n_jobs in (None, 2):
            tree = accumulated_local_effects(
                model, X, features, algorithm="tree", n_jobs=n_jobs
            )
            assert_array_equal(tree.centered, generic.centered)
            assert_array_equal(tree.local_effects_std, generic.local_effects_std)


def test_classifier_classes_and_log_odds_equal_the_written_out_estimator():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(400, 3))
    y = (X[:, 0] + X[:, 1] * X[:, 2] > 0).astype(int) + (X[:, 0] > 1)
    model = HistGradientBoostingClassifier(max_iter=30, random_state=0).fit(X, y)

    def log_odds(data):
        log_p = np.log(np.clip(model.predict_proba(data), np.finfo(float).eps, 1))
        return (log_p - log_p.mean(axis=1, keepdims=True))[:, [2, 0]]

    ale = accumulated_local_effects(
        model, X, 0, grid_resolution=8, scale="log_odds", classes=[2, 0]
    )
    assert ale.output_names == (2, 0)
    _, _, centred, _ = apley_zhu(log_odds, X, 0, 8)
    assert_allclose(ale.centered, centred, rtol=1e-10, atol=1e-12)
    frame = ale.to_frame()
    assert list(frame["output"].unique()) == [2, 0]
    assert len(frame) == 2 * len(ale.edges[0])


def test_pipeline_on_a_frame_equals_the_pipeline_predicting_each_copy():
    rng = np.random.RandomState(0)
    frame = pd.DataFrame(
        {
            "age": rng.uniform(20, 70, 300),
            "city": rng.choice(["lyon", "nice", "paris"], 300),
            "income": rng.lognormal(size=300),
        }
    )
    y = (frame["age"] / 50 + (frame["city"] == "nice") > 1.3).astype(int)
    pre = ColumnTransformer(
        [
            ("num", StandardScaler(), ["age", "income"]),
            ("cat", OneHotEncoder(), ["city"]),
        ]
    )
    model = make_pipeline(pre, LogisticRegression()).fit(frame, y)
    before = frame.copy()
    ale = accumulated_local_effects(model, frame, "age", grid_resolution=6)
    pd.testing.assert_frame_equal(frame, before)
    x = frame["age"].to_numpy()
    z = ale.edges[0]
    index = np.clip(np.searchsorted(z, x, side="left"), 1, len(z) - 1)
    low, high = frame.copy(), frame.copy()
    low["age"], high["age"] = z[index - 1], z[index]
    change = model.predict_proba(high)[:, 1] - model.predict_proba(low)[:, 1]
    expected = [change[index == k].mean() for k in range(1, len(z))]
    assert_allclose(ale.local_effects[0], expected, rtol=1e-12, atol=1e-14)


def test_effector_on_the_same_bins():
    """effector 0.6 (published ALE): fixed equal-width bins over the data's
    range, the secant per bin, centred to a zero integral over the axis. On
    evenly spread values its bins are our quantile bins, every bin holds as
    many rows, and no row sits on an interior edge: the two definitions
    coincide, uncentred and centred."""
    effector = pytest.importorskip("effector")
    n, n_bins = 1000, 10
    rng = np.random.RandomState(0)
    x0 = (np.arange(n) + 0.5) / n
    X = np.column_stack([rng.permutation(x0), rng.normal(size=n), rng.normal(size=n)])
    y = np.sin(4 * X[:, 0]) * X[:, 1] + X[:, 0] * X[:, 2] + X[:, 1]
    model = RandomForestRegressor(20, max_depth=6, random_state=0).fit(X, y)
    ours = accumulated_local_effects(model, X, 0, grid_resolution=n_bins)
    z = ours.edges[0]
    assert_allclose(np.diff(z), np.diff(z)[0], rtol=1e-9)  # evenly spaced
    assert_array_equal(ours.bin_counts, n / n_bins)
    theirs = effector.ALE(X, model.predict, nof_instances="all")
    binning = effector.axis_partitioning.Fixed(nof_bins=n_bins, min_points_per_bin=0)
    theirs.fit([0], centering=False, binning_method=binning)
    # effector widens its last edge by its EPS (1e-8 here) to hold the
    # maximum: at the last edge the two differ by that much times a slope.
    uncentred = theirs.eval(0, z, centering=False)
    assert_allclose(uncentred, ours.uncentered[0], atol=1e-6)
    # effector's centring integrates over the axis by the midpoint rule
    # (exact on each bin but the few points straddling an edge): the curves
    # then differ by a constant of that quadrature's error.
    shift = theirs.eval(0, z, centering=True) - ours.centered[0]
    assert_allclose(shift[:-1], shift[0], atol=1e-12)
    assert abs(shift[0]) < 1e-4
    assert np.abs(ours.uncentered[0]).max() > 0.1  # a real curve was compared


def test_streamed_equals_one_shot_and_cancel_keeps_a_valid_estimate(forest):
    model, X = forest
    full = accumulated_local_effects(model, X, 2, algorithm="generic")
    snapshots = list(iter_accumulated_local_effects(model, X, 2, algorithm="generic"))
    assert len(snapshots) > 1
    assert [s.n_rows_done for s in snapshots] == sorted(
        s.n_rows_done for s in snapshots
    )
    assert snapshots[-1].done and not snapshots[0].done
    assert_array_equal(snapshots[-1].centered, full.centered)
    # A snapshot is the estimate from its rows: the same as ALE on them
    # with the full data's bins.
    first = snapshots[0]
    rows = first.n_rows_done
    z = first.edges[0]
    index = np.clip(np.searchsorted(z, X[:rows, 2], side="left"), 1, len(z) - 1)
    assert_array_equal(first.bin_counts, np.bincount(index - 1, minlength=len(z) - 1))
    cancel = threading.Event()
    seen = []

    def stop_after_first(result):
        seen.append(result)
        cancel.set()

    partial = accumulated_local_effects(
        model, X, 2, cancel=cancel, callback=stop_after_first, algorithm="generic"
    )
    assert len(seen) == 1 and partial.n_rows_done == first.n_rows_done
    assert_array_equal(partial.centered, first.centered)
    cancel.set()
    empty = accumulated_local_effects(model, X, 2, cancel=cancel)
    assert empty.n_rows_done == 0 and empty.centered.shape == full.centered.shape


def test_bad_input_names_the_argument_and_leaves_x_alone(forest):
    model, X = forest
    before = X.copy()
    cases = [
        (dict(grid_resolution=1), "grid_resolution must be an int >= 2"),
        (dict(scale="logit"), "scale must be one of"),
        (dict(algorithm="fast"), "algorithm must be one of"),
        (dict(n_jobs=0), "n_jobs must be None or a non-zero int"),
        (
            dict(sample_weight=np.ones(3)),
            r"sample_weight.shape == \(3,\), expected \(500,\)! Pass one weight",
        ),
        (
            dict(response_method="predict_proba"),
            "The response_method parameter is ignored for regressors and must be "
            "'auto'; got 'predict_proba'",
        ),
        (dict(classes=[1]), "classes applies to classifiers only"),
    ]
    for kwargs, message in cases:
        with pytest.raises(ValueError, match=message):
            accumulated_local_effects(model, X, 0, **kwargs)
    with pytest.raises(ValueError, match="ALE takes one feature or a pair; got 3"):
        accumulated_local_effects(model, X, [0, 1, 2])
    with pytest.raises(ValueError, match="pair takes numeric features only"):
        accumulated_local_effects(model, X, [0, 1], categorical_features=[1])
    constant = X.copy()
    constant[:, 3] = 1.0
    with pytest.raises(ValueError, match="column 'x3' takes a single value"):
        accumulated_local_effects(model, constant, 3)
    missing = X.copy()
    missing[:, 0] = np.nan
    with pytest.raises(ValueError, match="column 'x0' holds only missing values"):
        accumulated_local_effects(model, missing, 0)
    assert_array_equal(X, before)


def test_streamed_function_takes_the_one_shot_parameters_but_callback():
    full = inspect.signature(accumulated_local_effects).parameters
    stream = inspect.signature(iter_accumulated_local_effects).parameters
    assert list(stream) == [name for name in full if name != "callback"]
    with pytest.raises(TypeError, match="callback"):
        iter_accumulated_local_effects(None, None, None, callback=print)


def aleplot_2d(predict, X, j, k, n_bins):
    """ALEPlot's ALE.2D (Apley & Zhu's R package) translated line by line:
    cell means of the second differences, nearest-cell filling, cumulative
    sums, main effects removed by the count-weighted row and column steps,
    centred by the cells' corner means."""
    z1 = np.unique(np.quantile(X[:, j], np.linspace(0, 1, n_bins + 1)))
    z2 = np.unique(np.quantile(X[:, k], np.linspace(0, 1, n_bins + 1)))
    a1 = np.clip(np.searchsorted(z1, X[:, j], side="left"), 1, len(z1) - 1)
    a2 = np.clip(np.searchsorted(z2, X[:, k], side="left"), 1, len(z2) - 1)
    k1, k2 = len(z1) - 1, len(z2) - 1

    def at(u, v):
        copy = X.copy()
        copy[:, j], copy[:, k] = u, v
        return predict(copy)

    delta = (
        at(z1[a1], z2[a2]) - at(z1[a1 - 1], z2[a2])
        - at(z1[a1], z2[a2 - 1]) + at(z1[a1 - 1], z2[a2 - 1])
    )  # fmt: skip
    means, counts = np.full((k1, k2), np.nan), np.zeros((k1, k2))
    for a in range(k1):
        for b in range(k2):
            inside = (a1 == a + 1) & (a2 == b + 1)
            counts[a, b] = inside.sum()
            if inside.any():
                means[a, b] = delta[inside].mean()
    mid1 = (z1[:-1] + z1[1:]) / 2 / (z1[-1] - z1[0])
    mid2 = (z2[:-1] + z2[1:]) / 2 / (z2[-1] - z2[0])
    empty = np.isnan(means)
    for a, b in zip(*np.nonzero(empty), strict=True):
        distance = (mid1[:, None] - mid1[a]) ** 2 + (mid2[None, :] - mid2[b]) ** 2
        distance[empty] = np.inf  # from observed cells only
        means[a, b] = means.flat[np.argmin(distance)]
    f = np.zeros((k1 + 1, k2 + 1))
    f[1:, 1:] = np.cumsum(np.cumsum(means, axis=0), axis=1)
    step = f[1:, :] - f[:-1, :]
    along_1 = (counts * (step[:, :-1] + step[:, 1:]) / 2).sum(1) / counts.sum(1)
    step = f[:, 1:] - f[:, :-1]
    along_2 = (counts * (step[:-1, :] + step[1:, :]) / 2).sum(0) / counts.sum(0)
    f1 = np.concatenate([[0], np.cumsum(along_1)])
    f2 = np.concatenate([[0], np.cumsum(along_2)])
    f = f - f1[:, None] - f2[None, :]
    corners = (f[:-1, :-1] + f[:-1, 1:] + f[1:, :-1] + f[1:, 1:]) / 4
    return f - (counts * corners).sum() / counts.sum(), counts


def test_pair_equals_aleplot_written_out(forest):
    model, X = forest
    # Correlated columns leave some cells of a 8 x 8 grid empty: the filling
    # is compared too.
    X = X.copy()
    X[:, 2] = (X[:, 1] + 0.3 * X[:, 2]).astype(np.float32)
    ale = accumulated_local_effects(model, X, [1, 2], grid_resolution=8)
    expected, counts = aleplot_2d(model.predict, X, 1, 2, 8)
    assert (counts == 0).any()
    assert_array_equal(ale.bin_counts, counts)
    assert_allclose(ale.centered[0], expected, rtol=1e-12, atol=1e-12)


def test_to_frame_of_a_pair_is_tidy(forest):
    model, X = forest
    ale = accumulated_local_effects(model, X, [0, 1], grid_resolution=3)
    frame = ale.to_frame()
    assert list(frame.columns) == ["output", "x0", "x1", "effect", "uncentered"]
    z0, z1 = ale.edges
    assert len(frame) == len(z0) * len(z1)
    row = frame.iloc[len(z1) + 2]  # edge (1, 2)
    assert (row["x0"], row["x1"]) == (z0[1], z1[2])
    assert row["effect"] == ale.centered[0, 1, 2]


def test_histogram_boosting_takes_the_shortcut_with_the_same_bits():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(600, 3))
    y = (X[:, 0] * X[:, 1] + X[:, 2] > 0).astype(int) + (X[:, 2] > 1)
    model = HistGradientBoostingClassifier(max_iter=20, random_state=0).fit(X, y)
    for features in (0, [0, 1]):
        auto = accumulated_local_effects(model, X, features, scale="log_odds")
        generic = accumulated_local_effects(
            model, X, features, scale="log_odds", algorithm="generic"
        )
        assert_array_equal(auto.centered, generic.centered)
