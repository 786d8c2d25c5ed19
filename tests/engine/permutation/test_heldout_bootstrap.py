"""The held-out interval (``n_bootstrap``): checked against scikit-learn's
own scorers called by hand on permuted copies, against a known process's
importance, and for what it must not change or cost."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.inspection import permutation_importance as sklearn_permutation_importance
from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
from sklearn.metrics import get_scorer

from inspectwidgets import iter_permutation_importance, permutation_importance
from inspectwidgets.inspection._permutation import permutation_run

from numerics import assert_blas_close


def _sklearn_copies(X, columns, n_repeats, random_state):
    """scikit-learn's permuted copies of `columns` (its `_calculate_permutation_scores`:
    one RandomState seeded with the drawn seed, one in-place shuffle per
    repeat applied to the already permuted column) and each copy's
    permutation of the rows."""
    seed = np.random.RandomState(random_state).randint(np.iinfo(np.int32).max + 1)
    rng = np.random.RandomState(seed)
    shuffling = np.arange(len(X))
    permuted, composed = X.copy(), np.arange(len(X))
    copies = []
    for _ in range(n_repeats):
        rng.shuffle(shuffling)
        permuted[:, columns] = permuted[shuffling][:, columns]
        composed = composed[shuffling]
        copies.append((permuted.copy(), composed.copy()))
    return copies


def _change_weights(counts, donors, sw):
    """A permuted row's change of loss weighs c_i + c_j - 1 (j its donor),
    times the user's weight (bootstrap.py's module doc)."""
    return (counts + counts[donors] - 1) * (1.0 if sw is None else sw)


def _drop_by_hand(scorer, model, X, copy, y, counts, donors, sw, squares=None):
    """A copy's drop of score under one resample, from scikit-learn's scorer
    called on X and on the copy with the rows' change weights w: for a mean
    of row losses, the w-weighted mean change times sum(w) over the
    resample's weight sum(c * sw); for r2, the w-weighted change of the
    squared errors over the resample's sum of squares (`squares`: y's
    weighted sum of squares under w, then under c)."""
    user = 1.0 if sw is None else sw
    w = _change_weights(counts, donors, sw)
    drop = scorer(model, X, y, sample_weight=w) - scorer(
        model, copy, y, sample_weight=w
    )
    if squares is None:
        return drop * np.sum(w) / np.sum(counts * user)
    return drop * squares(w) / squares(counts * user)


def _sum_of_squares(y):
    y = np.asarray(y, dtype=float)

    def squares(w):
        return np.sum(w * (y - np.sum(w * y) / np.sum(w)) ** 2)

    return squares


def _by_hand(model, X, y, scoring, columns, n_repeats, random_state, counts, sw):
    """Importance under resample b, from scikit-learn's scorer called by hand
    on each permuted copy: mean over repeats of the copy's drop."""
    scorer = get_scorer(scoring)
    drops = [
        _drop_by_hand(scorer, model, X, copy, y, counts, donors, sw)
        for copy, donors in _sklearn_copies(X, columns, n_repeats, random_state)
    ]
    return np.mean(drops)


@pytest.fixture(scope="module")
def classification():
    X, y = make_classification(
        n_samples=240, n_features=5, n_informative=3, random_state=0
    )
    model = LogisticRegression().fit(X[:120], y[:120])
    return model, X[120:], y[120:]


@pytest.mark.parametrize("with_weights", [False, True])
def test_resampled_importances_equal_sklearn_scorers_by_hand(
    classification, with_weights
):
    model, X, y = classification
    sw = np.random.default_rng(3).uniform(0.5, 2, len(y)) if with_weights else None
    scoring = ["neg_log_loss", "accuracy"]
    groups = {"x0": [0], "x1+x3": [1, 3]}
    run = permutation_run(
        model,
        X,
        y,
        scoring=scoring,
        n_repeats=3,
        random_state=5,
        sample_weight=sw,
        features=groups,
        n_bootstrap=20,
    )
    # The draws (inputs, not outputs), one column per resample.
    counts = run.bootstrap.counts.T.astype(float)
    result = permutation_importance(
        model,
        X,
        y,
        scoring=scoring,
        n_repeats=3,
        random_state=5,
        sample_weight=sw,
        features=groups,
        n_bootstrap=20,
    )
    for name in scoring:
        got = result[name].importances_bootstrap
        assert got.shape == (2, 20)
        for f, columns in enumerate(groups.values()):
            for b in (0, 7, 19):
                expected = _by_hand(model, X, y, name, columns, 3, 5, counts[b], sw)
                assert_blas_close(got[f, b], expected, scale=1.0, err_msg=name)


def test_r2_resamples_equal_sklearn_by_hand_on_a_frame_with_nan_and_a_category():
    rng = np.random.default_rng(0)
    n = 150
    X = pd.DataFrame(
        {
            "size": rng.normal(size=n),
            "rooms": rng.integers(1, 6, n),
            "city": pd.Categorical(rng.choice(["a", "b", "c"], n)),
        }
    )
    X.loc[::9, "size"] = np.nan
    y = 2 * X["size"].fillna(0) + X["rooms"] + rng.normal(size=n)
    from sklearn.ensemble import HistGradientBoostingRegressor

    model = HistGradientBoostingRegressor(
        max_iter=15, categorical_features="from_dtype", random_state=0
    ).fit(X, y)
    kwargs = dict(n_repeats=2, random_state=1, n_bootstrap=10)
    counts = permutation_run(model, X, y, **kwargs).bootstrap.counts.T.astype(float)
    # The tree walk predicts the copies; the resamples reuse its outputs.
    walked = permutation_importance(model, X, y, algorithm="tree", **kwargs)
    stacked = permutation_importance(model, X, y, algorithm="generic", **kwargs)
    assert_allclose(walked.importances_bootstrap, stacked.importances_bootstrap)
    scorer = get_scorer("r2")
    for f in range(3):
        for b in (0, 9):
            seed = np.random.RandomState(1).randint(np.iinfo(np.int32).max + 1)
            rng_b = np.random.RandomState(seed)
            shuffling, composed = np.arange(n), np.arange(n)
            permuted = X.copy()
            values = []
            for _ in range(2):
                rng_b.shuffle(shuffling)
                column = permuted.iloc[shuffling, f]
                column.index = permuted.index
                permuted[permuted.columns[f]] = column
                composed = composed[shuffling]
                values.append(
                    _drop_by_hand(
                        scorer, model, X, permuted, y, counts[b], composed, None,
                        _sum_of_squares(y),
                    )
                )  # fmt: skip
            assert_blas_close(walked.importances_bootstrap[f, b], np.mean(values))


def _process(rng, n):
    """y = 2 x0 + x1 + noise, x0 exponential (skewed, as real data often
    is), x1 normal."""
    X = np.column_stack([rng.exponential(1, n), rng.normal(size=n)])
    return X, 2 * X[:, 0] + X[:, 1] + rng.normal(scale=0.5, size=n)


def test_interval_covers_the_known_importance_the_repeats_spread_does_not():
    """Many held-out sets from one process, the model fixed: the 95 %
    held-out interval holds the population importance (estimated on 400,000
    rows) near 95 % of the time; mean +- 2 std over the repeats far less."""
    model = LinearRegression().fit(*_process(np.random.default_rng(0), 5000))
    big_X, big_y = _process(np.random.default_rng(1), 400_000)
    scoring = "neg_mean_squared_error"
    truth = permutation_importance(
        model, big_X, big_y, scoring=scoring, n_repeats=2, random_state=0
    ).importances_mean[0]
    held, spread, n_draws = 0, 0, 40
    for draw in range(n_draws):
        X, y = _process(np.random.default_rng(100 + draw), 300)
        r = permutation_importance(
            model,
            X,
            y,
            scoring=scoring,
            n_repeats=5,
            random_state=draw,
            n_bootstrap=200,
        )
        low, high = r.interval[0]
        held += low <= truth <= high
        mean, std = r.importances_mean[0], r.importances_std[0]
        spread += mean - 2 * std <= truth <= mean + 2 * std
    assert held / n_draws >= 0.8, held
    assert spread / n_draws <= 0.6, spread
    assert held - spread >= 12


# Rows predicted, not calls: the chunks' sizes adapt to how long a chunk took.
class CountingRidge(Ridge):
    rows = 0

    def predict(self, X):
        CountingRidge.rows += len(X)
        return super().predict(X)


class CountingClassifier(LogisticRegression):
    rows = 0

    def predict_proba(self, X):
        CountingClassifier.rows += len(X)
        return super().predict_proba(X)

    def predict(self, X):
        CountingClassifier.rows += len(X)
        return super().predict(X)


@pytest.mark.parametrize(
    "model_class, scoring, n_methods",
    [
        (CountingRidge, ["r2", "neg_mean_absolute_error"], 1),
        # predict_proba for log loss, predict for accuracy
        (CountingClassifier, ["neg_log_loss", "accuracy"], 2),
    ],
)
def test_resamples_predict_nothing_more(
    classification, model_class, scoring, n_methods
):
    _, X, y = classification
    model = model_class().fit(X, y)
    counts = []
    for n_bootstrap in (None, 20):
        model_class.rows = 0
        permutation_importance(
            model,
            X,
            y,
            scoring=scoring,
            n_repeats=4,
            random_state=0,
            n_bootstrap=n_bootstrap,
        )
        counts.append(model_class.rows)
    # X once for the baseline, then each feature's 4 copies, by each method.
    assert counts[0] == counts[1] == n_methods * len(X) * (1 + 4 * X.shape[1])


def test_importances_stay_sklearns_with_or_without_resamples(diabetes):
    model, X, y = diabetes
    kwargs = dict(n_repeats=6, random_state=2, scoring=["r2", "neg_mean_squared_error"])
    expected = sklearn_permutation_importance(model, X, y, **kwargs)
    off = permutation_importance(model, X, y, **kwargs)
    on = permutation_importance(model, X, y, n_bootstrap=30, **kwargs)
    for name in expected:
        assert set(off[name]) == set(expected[name]) | {
            "baseline_score",
            "feature_names",
        }
        assert_blas_close(off[name].importances, expected[name].importances)
        assert_array_equal(on[name].importances, off[name].importances)
        assert on[name].interval.shape == (X.shape[1], 2)
        assert "interval" not in off[name]


def test_sequential_and_parallel_resamples_agree(classification):
    model, X, y = classification
    kwargs = dict(scoring="neg_log_loss", n_repeats=5, random_state=0, n_bootstrap=40)
    one = permutation_importance(model, X, y, n_jobs=1, max_memory=2**14, **kwargs)
    two = permutation_importance(model, X, y, n_jobs=2, max_memory=2**14, **kwargs)
    assert_blas_close(one.importances_bootstrap, two.importances_bootstrap)
    assert_blas_close(one.interval, two.interval)


def test_streamed_intervals_follow_the_repeats(diabetes):
    model, X, y = diabetes
    kwargs = dict(n_repeats=4, random_state=0, n_bootstrap=25, confidence_level=0.8)
    rounds = list(iter_permutation_importance(model, X, y, **kwargs))
    assert [r.n_repeats_done for r in rounds] == [1, 2, 3, 4]
    for r in rounds:
        values = r.bootstrap_importances()
        # Each snapshot's resampled importances average only its repeats.
        expected = (
            r.bootstrap_baseline_scores["score"] - r.bootstrap_permuted_scores["score"]
        ).mean(axis=1)
        assert_array_equal(values, expected)
        assert_allclose(r.interval(), np.percentile(values, [10, 90], axis=1).T)
    full = permutation_importance(model, X, y, return_result=True, **kwargs)
    assert_array_equal(rounds[-1].interval(), full.interval())


def test_max_samples_resamples_the_subsample(diabetes):
    model, X, y = diabetes
    r = permutation_importance(
        model, X, y, n_repeats=3, random_state=0, max_samples=50, n_bootstrap=30
    )
    run = permutation_run(
        model, X, y, n_repeats=3, random_state=0, max_samples=50, n_bootstrap=30
    )
    assert run.bootstrap.counts.shape == (50, 30)
    assert np.isfinite(r.interval).all()


def test_sample_weight_and_data_are_not_mutated(classification):
    model, X, y = classification
    sw = np.linspace(0.5, 2, len(y))
    before = X.copy(), y.copy(), sw.copy()
    permutation_importance(
        model, X, y, sample_weight=sw, n_repeats=2, random_state=0, n_bootstrap=10
    )
    for after, original in zip((X, y, sw), before, strict=True):
        assert_array_equal(after, original)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(n_bootstrap=1), ValueError, r"n_bootstrap must be >= 2 .*got 1\."),
        (dict(n_bootstrap=0), ValueError, r"got 0\."),
        (dict(n_bootstrap=True), TypeError, r"n_bootstrap must be an int"),
        (dict(n_bootstrap=2.5), TypeError, r"got 2\.5\."),
        (dict(n_bootstrap=10, confidence_level=1), ValueError, r"got 1\."),
        (dict(n_bootstrap=10, confidence_level="0.9"), ValueError, r"confidence_level"),
        (
            dict(n_bootstrap=10, scoring=lambda est, X, y: est.score(X, y)),
            ValueError,
            r"n_bootstrap: the scorer .* is not a mean over rows",
        ),
        (
            dict(n_bootstrap=10, scoring=["accuracy", "roc_auc"]),
            ValueError,
            r"n_bootstrap: the scorer roc_auc is not a mean over rows; the held-out",
        ),
    ],
)
def test_bad_resample_arguments(classification, kwargs, error, match):
    model, X, y = classification
    with pytest.raises(error, match=match):
        permutation_importance(model, X, y, **kwargs)


def test_several_outputs_are_refused_by_name():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 3))
    Y = np.c_[X @ [1.0, 2.0, 3.0], X @ [3.0, 2.0, 1.0]]
    model = Ridge().fit(X, Y)
    with pytest.raises(ValueError, match=r"n_bootstrap: y has 2 outputs"):
        permutation_importance(model, X, Y, n_bootstrap=10)
    # Without resamples, scikit-learn's multi-output importance as before.
    assert permutation_importance(model, X, Y, n_repeats=2).importances.shape == (3, 2)


def test_interval_needs_resamples(classification):
    model, X, y = classification
    result = permutation_importance(model, X, y, n_repeats=2, return_result=True)
    with pytest.raises(ValueError, match="n_bootstrap: this result has no resamples"):
        result.interval()


def test_tree_walk_baseline_rides_with_its_resamples():
    X, y = make_classification(n_samples=300, n_features=4, random_state=0)
    model = HistGradientBoostingClassifier(max_iter=10, random_state=0).fit(X, y)
    kwargs = dict(scoring=["neg_log_loss", "accuracy"], n_repeats=3, random_state=0)
    walked = permutation_importance(
        model, X, y, algorithm="tree", n_bootstrap=15, **kwargs
    )
    stacked = permutation_importance(
        clone(model).fit(X, y), X, y, algorithm="generic", n_bootstrap=15, **kwargs
    )
    for name in kwargs["scoring"]:
        assert_allclose(
            walked[name].importances_bootstrap, stacked[name].importances_bootstrap
        )


def test_a_given_baseline_is_rescored_under_the_resamples(diabetes):
    """A caller's baseline (the inspector's header scores) is scored under
    the run's resamples from its kept predictions, as if predicted again."""
    from inspectwidgets.inspection._permutation import ScoringPlan

    model, X, y = diabetes
    kwargs = dict(n_repeats=3, random_state=4, n_bootstrap=40, scoring=["r2"])
    fresh = list(permutation_run(model, X, y, **kwargs))[-1]
    run = permutation_run(model, X, y, **kwargs)
    run.reuse_baseline(ScoringPlan(model, ["r2"]).baseline(X, y, None))
    reused = list(run)[-1]
    assert_array_equal(
        reused.bootstrap_baseline_scores["r2"], fresh.bootstrap_baseline_scores["r2"]
    )
    assert_array_equal(reused.interval("r2"), fresh.interval("r2"))


def test_streamed_walk_shows_its_first_bars_before_the_resamples(monkeypatch):
    """Streamed on a tree model for a widget (the first round feature by
    feature), X rides the first chunk's walk, and that chunk's scores under
    the resamples (their draw too) come once its first bars are yielded:
    those have no interval, every later result has, with the numbers of
    the same chunks scored at once (the same calls on the same
    predictions)."""
    from inspectwidgets.inspection._permutation import bootstrap, plan
    from inspectwidgets.inspection._permutation.chunks import PermutedChunks

    X, y = make_classification(n_samples=300, n_features=4, random_state=0)
    model = HistGradientBoostingClassifier(max_iter=10, random_state=0).fit(X, y)
    kwargs = dict(
        scoring=["neg_log_loss", "accuracy"], n_repeats=3, random_state=0,
        n_bootstrap=15, algorithm="tree",
    )  # fmt: skip

    def streamed():
        run = permutation_run(model, X, y, **kwargs)
        run.stream_first_round = True  # as the widget streams it
        return run

    draws = []
    draw_counts = bootstrap._draw_counts
    monkeypatch.setattr(
        bootstrap, "_draw_counts", lambda draw: draws.append(draw) or draw_counts(draw)
    )
    seen = [(result, len(draws)) for result in streamed()]
    (first, drawn_before), *later = seen
    assert first.pending_features and drawn_before == 0
    assert first.n_bootstrap is None
    assert {r.n_bootstrap for r, _ in later} == {15} and len(draws) == 1

    def at_once(**fields):
        return PermutedChunks(**{**fields, "resample_first_later": False})

    monkeypatch.setattr(plan, "PermutedChunks", at_once)
    scored_at_once = list(streamed())
    assert scored_at_once[0].pending_features and scored_at_once[0].n_bootstrap == 15
    last, expected = later[-1][0], scored_at_once[-1]
    assert last.complete
    for name in kwargs["scoring"]:
        assert_array_equal(
            last.bootstrap_baseline_scores[name],
            expected.bootstrap_baseline_scores[name],
        )
        assert_array_equal(
            last.bootstrap_permuted_scores[name],
            expected.bootstrap_permuted_scores[name],
        )
        assert_array_equal(last.importances(name), expected.importances(name))
