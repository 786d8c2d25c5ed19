"""Several models' permutation importances in one run: each model's numbers
are scikit-learn's and its own run's, the work is done once, the paired
differences are Student's t over repeats."""

import threading

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from scipy import stats
from sklearn.compose import make_column_transformer
from sklearn.datasets import make_regression
from sklearn.ensemble import (
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.impute import SimpleImputer
from sklearn.inspection import permutation_importance as sklearn_permutation_importance
from sklearn.linear_model import Ridge
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, OrdinalEncoder
from sklearn.svm import SVR

from inspectwidgets import (
    compare_permutation_importance,
    iter_compare_permutation_importance,
    iter_permutation_importance,
    permutation_importance,
)
from inspectwidgets.inspection._core import batching
from inspectwidgets.inspection._core.parallel import chunk_progress
from inspectwidgets.inspection._permutation import chunks, models_run, validated

from numerics import assert_blas_close

SCORERS = ["r2", "neg_mean_absolute_error"]
KWARGS = dict(n_repeats=4, random_state=3, scoring=SCORERS)


class CountingKNN(KNeighborsRegressor):
    """A KNN counting the rows it is asked to predict (generic path)."""

    def predict(self, X):
        self.rows_predicted = getattr(self, "rows_predicted", 0) + len(X)
        return super().predict(X)


class CountingSVR(SVR):
    def predict(self, X):
        self.rows_predicted = getattr(self, "rows_predicted", 0) + len(X)
        return super().predict(X)


@pytest.fixture(scope="module")
def regression():
    X, y = make_regression(n_samples=240, n_features=5, noise=5.0, random_state=0)
    X = pd.DataFrame(X, columns=[f"f{i}" for i in range(5)])
    models = {
        "hgb": HistGradientBoostingRegressor(max_iter=20, random_state=0).fit(X, y),
        "forest": RandomForestRegressor(10, random_state=0).fit(X, y),
        "ridge": Ridge().fit(X, y),
        "knn": KNeighborsRegressor().fit(X, y),
        "svr": SVR(C=10.0).fit(X, y),
    }
    return models, X, y


TREES = ("hgb", "forest")


def _assert_same(name, got, expected):
    """Bit for bit through the tree walk, to BLAS rounding elsewhere."""
    if name in TREES:
        assert_array_equal(got, expected)
    else:
        assert_blas_close(got, expected)


def test_each_model_equals_its_own_run_and_scikit_learns(regression):
    models, X, y = regression
    result = compare_permutation_importance(models, X, y, **KWARGS)
    assert result.model_names == tuple(models)
    assert result.results["hgb"].algorithm == "tree"
    assert result.results["ridge"].algorithm == "linear"
    assert result.results["knn"].algorithm == "generic"
    for name, model in models.items():
        own = permutation_importance(model, X, y, **KWARGS)
        theirs = sklearn_permutation_importance(model, X, y, **KWARGS)
        for scorer in SCORERS:
            got = result.importances(name, scorer)
            _assert_same(name, got, own[scorer].importances)
            _assert_same(name, got, theirs[scorer].importances)


def test_stream_round_by_round_equals_each_models_own_stream(regression):
    models, X, y = regression
    kwargs = dict(KWARGS, n_jobs=2)
    rounds = list(iter_compare_permutation_importance(models, X, y, **kwargs))
    assert [r.n_repeats_done for r in rounds] == [1, 2, 3, 4]
    for name, model in models.items():
        own = list(iter_permutation_importance(model, X, y, **kwargs))
        for mine, single in zip(rounds, own, strict=True):
            _assert_same(name, mine.importances(name, "r2"), single.importances("r2"))
    final = compare_permutation_importance(models, X, y, **KWARGS)
    for name in models:
        _assert_same(
            name, rounds[-1].importances(name, "r2"), final.importances(name, "r2")
        )


@pytest.mark.parametrize("watched", [False, True])
def test_no_computation_runs_twice(regression, monkeypatch, watched):
    _, X, y = regression
    n_rows, n_features, n_repeats = len(X), X.shape[1], 3
    models = {
        "knn": CountingKNN().fit(X, y),
        "svr": CountingSVR().fit(X, y),
        "forest": RandomForestRegressor(5, random_state=0).fit(X, y),
        "hgb": HistGradientBoostingRegressor(max_iter=5).fit(X, y),
    }
    calls = {"check_X": 0, "schedule": 0, "built": 0, "walked": {}}

    def counted(name, function):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return function(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(validated, "check_X", counted("check_X", validated.check_X))
    monkeypatch.setattr(
        validated, "schedule_of_seed", counted("schedule", validated.schedule_of_seed)
    )
    build = batching.FrameBatcher.build

    def counted_build(self, copies, donor=None):
        calls["built"] += len(copies)
        return build(self, copies, donor)

    monkeypatch.setattr(batching.FrameBatcher, "build", counted_build)
    walk = chunks._walk

    def counted_walk(c, copies, rides):
        kind = type(c.model).__name__
        calls["walked"][kind] = calls["walked"].get(kind, 0) + len(copies)
        return walk(c, copies, rides)

    monkeypatch.setattr(chunks, "_walk", counted_walk)
    seen = []
    compare_permutation_importance(
        models,
        X,
        y,
        n_repeats=n_repeats,
        random_state=0,
        algorithm="auto",
        callback=seen.append if watched else None,
    )
    n_copies = n_features * n_repeats
    assert calls["check_X"] == 1 and calls["schedule"] == 1
    # The two generic models share the stacks: each copy built once...
    assert calls["built"] == n_copies
    # ... and each model predicts X once and each copy once.
    for name in ("knn", "svr"):
        assert models[name].rows_predicted == n_rows * (1 + n_copies)
    # The walks take each copy once, and X itself riding the first chunk.
    assert calls["walked"] == {
        "RandomForestRegressor": 1 + n_copies,
        "HistGradientBoostingRegressor": 1 + n_copies,
    }
    if watched:
        assert [r.n_repeats_done for r in seen] == [1, 2, 3]


def test_paired_difference_is_the_paired_t_interval(regression):
    """Against scipy's paired t-test interval of scikit-learn's importances."""
    models, X, y = regression
    kwargs = dict(n_repeats=6, random_state=1)
    result = compare_permutation_importance(models, X, y, **kwargs)
    theirs = {
        name: sklearn_permutation_importance(models[name], X, y, **kwargs).importances
        for name in ("hgb", "knn")
    }
    for level in (0.9, 0.95):
        paired = result.paired_difference("hgb", "knn", confidence_level=level)
        for f in range(X.shape[1]):
            test = stats.ttest_rel(theirs["hgb"][f], theirs["knn"][f])
            low, high = test.confidence_interval(confidence_level=level)
            assert_blas_close(paired.interval[f], [low, high], scale=1.0)
            diff = theirs["hgb"][f] - theirs["knn"][f]
            assert_blas_close(paired.mean[f], diff.mean(), scale=1.0)
            assert paired.differs[f] == (low > 0 or high < 0)
    frame = paired.to_frame()
    assert list(frame["feature"]) == list(X.columns)
    assert frame["differs"].dtype == bool
    assert result.paired_difference("hgb", "hgb").differs.sum() == 0


def test_paired_difference_needs_two_repeats_and_known_models(regression):
    models, X, y = regression
    result = compare_permutation_importance(
        {"a": models["hgb"], "b": models["ridge"]}, X, y, n_repeats=1, random_state=0
    )
    paired = result.paired_difference("a", "b")
    assert np.isnan(paired.interval).all() and not paired.differs.any()
    with pytest.raises(ValueError, match="model: 'c' is not in this result"):
        result.paired_difference("a", "c")
    with pytest.raises(ValueError, match="confidence_level must be a float"):
        result.paired_difference("a", "b", confidence_level=1.5)


def test_to_frame_holds_every_model_feature_and_repeat(regression):
    models, X, y = regression
    result = compare_permutation_importance(models, X, y, **KWARGS)
    frame = result.to_frame()
    assert len(frame) == len(models) * X.shape[1] * len(SCORERS) * 4
    one = frame[(frame.model == "svr") & (frame.scorer == "r2")]
    assert_array_equal(one["importance"], result.importances("svr", "r2").ravel())


def test_a_list_is_named_by_class_repeats_numbered(regression):
    _, X, y = regression
    pipe = make_pipeline(SimpleImputer(), Ridge()).fit(X, y)
    result = compare_permutation_importance(
        [Ridge().fit(X, y), Ridge(alpha=10).fit(X, y), pipe], X, y, n_repeats=2
    )
    assert result.model_names == ("Ridge_1", "Ridge_2", "Ridge_3")
    forest = RandomForestRegressor(3, random_state=0).fit(X, y)
    result = compare_permutation_importance([forest, pipe], X, y, n_repeats=2)
    assert result.model_names == ("RandomForestRegressor", "Ridge")


def _messy_table(n=160, seed=0):
    """NaN, nullable Int64/Float64, bool, strings and a category with NaN."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "charges": rng.gamma(2.0, 30.0, n),
            "tenure": rng.integers(0, 72, n),
            "calls": pd.array(rng.integers(0, 6, n), dtype="Int64"),
            "score": pd.array(rng.normal(size=n), dtype="Float64"),
            "plan": rng.choice(["basic", "plus", "pro"], n).astype(object),
            "region": pd.Categorical(rng.choice(["n", "s", "e"], n)),
            "paperless": rng.random(n) < 0.5,
        }
    )
    X.loc[rng.random(n) < 0.1, "charges"] = np.nan
    X.loc[rng.random(n) < 0.1, "calls"] = pd.NA
    X.loc[rng.random(n) < 0.1, "plan"] = np.nan
    X.loc[rng.random(n) < 0.1, "region"] = np.nan
    y = X["tenure"] / 24 + (X["plan"] == "pro") + rng.normal(scale=0.1, size=n)
    return X, y


STRINGS = ["plan", "region"]


def test_messy_data_through_pipelines():
    """Each model's numbers are scikit-learn's on the same messy frame,
    which is left unchanged."""
    X, y = _messy_table()
    before = X.copy()
    numeric = [c for c in X.columns if c not in STRINGS]
    encode = OrdinalEncoder(
        handle_unknown="use_encoded_value",
        unknown_value=-1,
        encoded_missing_value=np.nan,
    )
    # Frames throughout: the nullable columns pass through as they are.
    boosting = make_pipeline(
        make_column_transformer(
            (encode, STRINGS), remainder="passthrough", verbose_feature_names_out=False
        ).set_output(transform="pandas"),
        HistGradientBoostingRegressor(max_iter=15, random_state=0),
    ).fit(X, y)
    one_hot = OneHotEncoder(handle_unknown="ignore")
    linear = make_pipeline(
        make_column_transformer(
            (make_pipeline(SimpleImputer(strategy="most_frequent"), one_hot), STRINGS),
            (SimpleImputer(), numeric),
        ),
        Ridge(),
    ).fit(X, y)
    models = {"boosting": boosting, "linear": linear}
    result = compare_permutation_importance(models, X, y, n_repeats=3, random_state=0)
    for name, model in models.items():
        theirs = sklearn_permutation_importance(
            model, X, y, n_repeats=3, random_state=0
        )
        assert_blas_close(result.importances(name), theirs.importances)
    pd.testing.assert_frame_equal(X, before)
    paired = result.paired_difference("boosting", "linear")
    assert np.isfinite(paired.interval).all()


def test_cancel_keeps_the_rounds_every_model_finished(regression):
    models, X, y = regression
    cancel = threading.Event()
    seen = []

    def stop_after_first(result):
        seen.append(result)
        cancel.set()

    result = compare_permutation_importance(
        models,
        X,
        y,
        n_repeats=5,
        random_state=0,
        callback=stop_after_first,
        cancel=cancel,
    )
    assert 1 <= result.n_repeats_done < 5
    assert {r.n_repeats_done for r in result.results.values()} == {
        result.n_repeats_done
    }
    cancel_first = threading.Event()
    cancel_first.set()
    empty = compare_permutation_importance(
        models, X, y, n_repeats=5, random_state=0, cancel=cancel_first
    )
    assert empty.n_repeats_done == 0 and empty.model_names == tuple(models)


def test_progress_counts_every_models_jobs_once(regression):
    models, X, y = regression
    heard = []
    with chunk_progress(lambda done, total: heard.append((done, total))):
        list(iter_compare_permutation_importance(models, X, y, n_repeats=3))
    # hgb, forest, ridge on their own; knn and svr sharing one stream.
    total = 4 * 3 * X.shape[1]
    assert {t for _, t in heard} == {total}
    assert heard[-1][0] == total
    assert all(a <= b for (a, _), (b, _) in zip(heard, heard[1:], strict=False))


def test_bad_models_are_refused_by_name(regression):
    models, X, y = regression
    with pytest.raises(ValueError, match="models: got an empty dict"):
        compare_permutation_importance({}, X, y)
    with pytest.raises(ValueError, match="models: got an empty list"):
        compare_permutation_importance([], X, y)
    with pytest.raises(TypeError, match="use permutation_importance"):
        compare_permutation_importance(models["ridge"], X, y)
    with pytest.raises(TypeError, match="names must be strings; got 1"):
        compare_permutation_importance({1: models["ridge"]}, X, y)
    with pytest.raises(ValueError, match=r"models\['new'\]: Ridge is not fitted"):
        compare_permutation_importance({"a": models["ridge"], "new": Ridge()}, X, y)
    narrow = Ridge().fit(X[["f0", "f1"]], y)
    with pytest.raises(ValueError, match=r"models\['narrow'\]: .*f0"):
        compare_permutation_importance({"a": models["ridge"], "narrow": narrow}, X, y)
    classifier = RandomForestClassifier(3).fit(X, y > 0)
    with pytest.raises(ValueError, match=r"\['c'\] are classifiers but"):
        compare_permutation_importance({"r": models["ridge"], "c": classifier}, X, y)
    with pytest.raises(ValueError, match="confidence_level must be a float"):
        compare_permutation_importance(models, X, y, confidence_level=0)
    with pytest.raises(ValueError, match="n_repeats"):
        compare_permutation_importance(models, X, y, n_repeats=0)
    with pytest.raises(TypeError, match="unexpected keyword argument 'n_repeat'"):
        iter_compare_permutation_importance(models, X, y, n_repeat=3)


def test_classifiers_with_probability_scorers_rows_weights_and_groups():
    """scikit-learn's numbers per model under max_samples, sample_weight,
    feature groups and scorers of probabilities and labels."""
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LogisticRegression
    from sklearn.neighbors import KNeighborsClassifier

    X, y = make_classification(n_samples=300, n_features=6, random_state=0)
    models = {
        "forest": RandomForestClassifier(10, random_state=0).fit(X, y),
        "logistic": LogisticRegression().fit(X, y),
        "knn": KNeighborsClassifier().fit(X, y),
    }
    weight = np.linspace(0.5, 2, len(y))
    scoring = ["accuracy", "roc_auc", "neg_log_loss"]
    kwargs = dict(n_repeats=3, random_state=7, scoring=scoring, max_samples=0.7)
    groups = {"pair": [0, 1], "third": 2}
    result = compare_permutation_importance(
        models, X, y, sample_weight=weight, features=groups, **kwargs
    )
    assert result.feature_names == ("pair", "third")
    for name, model in models.items():
        theirs = sklearn_permutation_importance(
            model, X, y, sample_weight=weight, **kwargs
        )
        # scikit-learn's columns 0 and 2 alone; our "pair" is checked against
        # our own single run (groups are ours, not scikit-learn's).
        own = permutation_importance(
            model, X, y, sample_weight=weight, features=groups, **kwargs
        )
        for scorer in scoring:
            got = result.importances(name, scorer)
            _assert_same(name, got, own[scorer].importances)
            _assert_same(name, got[1], theirs[scorer].importances[2])


def test_the_same_model_twice_gives_the_same_numbers_and_no_difference(regression):
    models, X, y = regression
    result = compare_permutation_importance(
        {"a": models["svr"], "b": models["svr"]}, X, y, n_repeats=3, random_state=0
    )
    assert_array_equal(result.importances("a"), result.importances("b"))
    paired = result.paired_difference("a", "b")
    assert_array_equal(paired.differences, 0.0)
    assert not paired.differs.any()


def test_shared_stacks_hold_every_models_outputs_within_max_memory(
    regression, monkeypatch
):
    """A shared chunk holds one stack and each model's outputs of it (three
    times: the scores' temporaries): together within max_memory."""
    _, X, y = regression
    models = {"knn": CountingKNN().fit(X, y), "svr": CountingSVR().fit(X, y)}
    sizes = []
    build = batching.FrameBatcher.build

    def recorded_build(self, copies, donor=None):
        sizes.append(len(copies))
        return build(self, copies, donor)

    monkeypatch.setattr(batching.FrameBatcher, "build", recorded_build)
    max_memory = 200_000
    result = compare_permutation_importance(
        models, X, y, n_repeats=8, random_state=0, max_memory=max_memory
    )
    per_copy = X.to_numpy().nbytes + len(models) * 3 * len(X) * 8
    assert max(sizes) > 1 and max(sizes) * per_copy <= max_memory, sizes
    assert sum(sizes) == 8 * X.shape[1]
    for name, model in models.items():
        theirs = sklearn_permutation_importance(
            model, X, y, n_repeats=8, random_state=0
        )
        assert_blas_close(result.importances(name), theirs.importances)


def _split_run(models, X, y, **kwargs):
    run = models_run(models, X, y, **kwargs)
    run.stream_first_round = True
    return run


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_a_split_first_round_shows_what_every_model_has_done(regression, n_jobs):
    """The first marks: every model's first-round features, as far as all
    have them, before the round is done; then every round, each model's
    numbers those of its own run (bit for bit through the walk)."""
    models, X, y = regression
    features = tuple(X.columns)
    kwargs = dict(KWARGS, n_jobs=n_jobs)
    rounds = list(_split_run(models, X, y, **kwargs))
    partial = [r for r in rounds if r.pending_features]
    assert partial, "no snapshot before the first round was done"
    complete = [r for r in rounds if not r.pending_features]
    assert [r.n_repeats_done for r in complete] == [1, 2, 3, 4]
    # The first round's come first.
    assert all(r.pending_features for r in rounds[: len(partial)])
    shown = [len(r.feature_names) for r in partial]
    assert shown == sorted(set(shown)) and shown[0] > 0
    for snap in partial:
        assert snap.rounds_done == len(snap.feature_names) / len(features)
        assert not snap.complete and snap.n_repeats_done == 1
        assert set(snap.feature_names) | set(snap.pending_features) == set(features)
        for result in snap.results.values():
            assert result.feature_names == snap.feature_names
            assert result.pending_features == snap.pending_features
    final = compare_permutation_importance(models, X, y, **KWARGS)
    assert rounds[-1].complete
    for name, model in models.items():
        own = permutation_importance(model, X, y, **KWARGS)
        theirs = sklearn_permutation_importance(model, X, y, **KWARGS)
        for scorer in SCORERS:
            got = rounds[-1].importances(name, scorer)
            _assert_same(name, got, final.importances(name, scorer))
            _assert_same(name, got, own[scorer].importances)
            _assert_same(name, got, theirs[scorer].importances)
            # A partial snapshot holds the same scores as the first round.
            first = own[scorer].importances[:, :1]
            for snap in partial:
                rows = [features.index(f) for f in snap.feature_names]
                _assert_same(name, snap.importances(name, scorer), first[rows])


def test_split_two_tree_models_show_marks_after_one_chunk_each(regression):
    """Two walked models: the first marks come after each model's probe
    (one feature), before either has done its round; nothing walked twice."""
    models, X, y = regression
    trees = {name: models[name] for name in TREES}
    walked = []
    walk = chunks._walk

    def counted_walk(c, copies, rides):
        walked.append(len(copies))
        return walk(c, copies, rides)

    seen_at = []
    run = _split_run(trees, X, y, n_repeats=3, random_state=0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(chunks, "_walk", counted_walk)
        for snap in run:
            seen_at.append((sum(walked), snap.pending_features))
    n_features = X.shape[1]
    first_walked, first_pending = seen_at[0]
    assert len(first_pending) == n_features - 1
    # Each model's probe: X riding and one copy.
    assert first_walked == 2 * 2
    assert sum(walked) == 2 * (1 + 3 * n_features)


def test_a_cancelled_split_run_keeps_a_consistent_snapshot(regression):
    models, X, y = regression
    cancel = threading.Event()
    run = _split_run(models, X, y, n_repeats=3, random_state=0, cancel=cancel)
    seen = []
    for snapshot in run:
        seen.append(snapshot)
        cancel.set()
    last = seen[-1]
    assert not last.complete
    names = {r.feature_names for r in last.results.values()}
    assert names == {last.feature_names}
