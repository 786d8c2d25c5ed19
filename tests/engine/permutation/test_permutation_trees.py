"""Permutation importance through the tree shortcut: scikit-learn's numbers,
bit for bit, without predicting the permuted copies."""

import time
import warnings

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.ensemble import ExtraTreesRegressor, RandomForestClassifier
from sklearn.inspection import permutation_importance as sklearn_permutation_importance
from sklearn.linear_model import Ridge
from sklearn.metrics import check_scoring

from inspectwidgets import cross_val_permutation_importance, permutation_importance

SCORERS = ["accuracy", "neg_log_loss", "roc_auc", "balanced_accuracy"]


@pytest.fixture(scope="module")
def forest_data():
    X, y = make_classification(
        n_samples=400, n_features=6, n_informative=3, random_state=0
    )
    forest = RandomForestClassifier(n_estimators=10, random_state=0).fit(X, y)
    return forest, X, y


def test_tree_generic_and_sklearn_agree_bit_for_bit(forest_data):
    forest, X, y = forest_data
    kwargs = dict(n_repeats=4, random_state=0, scoring=SCORERS, max_samples=0.8)
    weight = np.linspace(1, 2, len(y))
    expected = sklearn_permutation_importance(
        forest, X, y, sample_weight=weight, **kwargs
    )
    for algorithm in ("tree", "generic", "auto"):
        got = permutation_importance(
            forest, X, y, sample_weight=weight, algorithm=algorithm, **kwargs
        )
        for name in SCORERS:
            assert_array_equal(got[name].importances, expected[name].importances)


def test_regressor_groups_and_a_pipeline(mixed_pipeline):
    X, y = make_classification(n_samples=300, n_features=5, random_state=1)
    model = ExtraTreesRegressor(n_estimators=5, random_state=0).fit(X, X[:, 0] + y)
    features = {"pair": [0, 1], "third": 2}
    got, generic = (
        permutation_importance(
            model, X, y, n_repeats=3, random_state=0, features=features, algorithm=a
        )
        for a in ("tree", "generic")
    )
    assert_array_equal(got.importances, generic.importances)
    # A one-hot pipeline: a raw column's one-hot block moves as one group.
    pipe, X, y = mixed_pipeline
    forest = clone(pipe).set_params(
        logisticregression=RandomForestClassifier(n_estimators=5, random_state=0)
    )
    forest.fit(X, y)
    expected = sklearn_permutation_importance(forest, X, y, n_repeats=3, random_state=0)
    got = permutation_importance(forest, X, y, n_repeats=3, random_state=0)
    assert_array_equal(got.importances, expected.importances)
    forced = permutation_importance(
        forest, X, y, n_repeats=3, random_state=0, algorithm="tree"
    )
    assert_array_equal(forced.importances, expected.importances)


def test_auto_walks_every_chunk_but_the_smallest(monkeypatch):
    # Many features, shallow trees: copies mostly stay on their row's path,
    # where the walk pays (tests/engine/shortcuts/test_detour_share.py).
    X, y = make_classification(
        n_samples=400, n_features=30, n_informative=5, random_state=0
    )
    forest = RandomForestClassifier(n_estimators=10, max_depth=5, random_state=0)
    forest.fit(X, y)
    seen = []
    original = RandomForestClassifier.predict_proba

    def counting(self, X):
        seen.append(len(X))
        return original(self, X)

    monkeypatch.setattr(RandomForestClassifier, "predict_proba", counting)
    # Nobody watching: the chunks are full-size from the start, all walked,
    # X itself with the first; the model sees X's first row only (its own
    # checks of the columns).
    permutation_importance(forest, X, y, n_repeats=5, random_state=0)
    assert seen == [1]
    seen.clear()
    # Watched: the one-job probe comes first, walked with X itself.
    permutation_importance(
        forest, X, y, n_repeats=5, random_state=0, callback=lambda result: None
    )
    assert seen == [1]
    seen.clear()
    # X predicted elsewhere: the probe alone is cheaper predicted than walked
    # (plan._FEWEST_WALKED).
    permutation_importance(
        forest, X, y, n_repeats=5, random_state=0, max_samples=0.99,
        callback=lambda result: None,
    )  # fmt: skip
    assert seen == [len(X), int(0.99 * len(X))]
    seen.clear()
    permutation_importance(
        forest, X, y, n_repeats=5, random_state=0, algorithm="generic"
    )
    assert sum(seen) == len(X) * (1 + 5 * X.shape[1])


def test_the_smallest_chunks_of_a_subsample_are_predicted_from_the_walks_rows(
    monkeypatch,
):
    """With max_samples the rows permuted are a subsample, not X: the probe
    is stacked from the float32 rows the walk reads, which the forest's own
    predict makes of them too, so the numbers stay scikit-learn's. Not for a
    model fitted on named columns (it would warn of an array without them):
    that probe is walked."""
    import pandas as pd

    X, y = make_classification(n_samples=400, n_features=30, random_state=0)
    frame = pd.DataFrame(X, columns=[f"c{j}" for j in range(30)])
    original = RandomForestClassifier.predict_proba
    for data, predicted in ((X, True), (frame, False)):
        forest = RandomForestClassifier(n_estimators=10, max_depth=5, random_state=0)
        forest.fit(data, y)
        seen = []

        def counting(self, X, seen=seen):
            seen.append((len(X), X.dtype if hasattr(X, "dtype") else None))
            return original(self, X)

        monkeypatch.setattr(RandomForestClassifier, "predict_proba", counting)
        kwargs = dict(n_repeats=3, random_state=0, max_samples=100)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            # Watched: a run without a callback has no probe.
            result = permutation_importance(
                forest, data, y, callback=lambda result: None, **kwargs
            )
        monkeypatch.undo()
        probes = [s for s in seen if s[0] == 100]
        assert probes == ([(100, np.float32)] if predicted else []), seen
        expected = sklearn_permutation_importance(forest, data, y, **kwargs)
        assert_array_equal(result.importances, expected.importances)


def test_streamed_rounds_equal_the_generic_ones(forest_data):
    from inspectwidgets import iter_permutation_importance

    forest, X, y = forest_data
    tree, generic = (
        list(
            iter_permutation_importance(
                forest, X, y, n_repeats=5, random_state=0, algorithm=a
            )
        )
        for a in ("tree", "generic")
    )
    assert [r.n_repeats_done for r in tree] == [1, 2, 3, 4, 5]
    for walked, predicted in zip(tree, generic, strict=True):
        assert_array_equal(walked.importances(), predicted.importances())


def test_repeats_walked_together_give_sklearns_numbers(forest_data):
    # The walk takes a feature's repeats together (in blocks of rounds); a
    # small budget cuts the blocks into chunks that split a feature's repeats.
    forest, X, y = forest_data
    kwargs = dict(n_repeats=11, random_state=3, scoring=SCORERS)
    expected = sklearn_permutation_importance(forest, X, y, **kwargs)
    for memory in ({}, {"max_memory": 50_000}):
        seen = []
        for callback in (None, lambda r, seen=seen: seen.append(r.n_repeats_done)):
            got = permutation_importance(
                forest, X, y, algorithm="tree", callback=callback, **memory, **kwargs
            )
            for name in SCORERS:
                assert_array_equal(
                    got[name].importances, expected[name].importances, err_msg=memory
                )
        assert seen == list(range(1, 12)), memory


def test_the_walk_takes_a_features_repeats_in_blocks_of_rounds():
    from inspectwidgets.inspection._permutation.plan import _job_order

    def blocks(order, n_features):
        # (repeat, feature) of each job, in the order the chunks take them.
        return [(j // n_features, j % n_features) for j in order]

    # Predicted: round by round.
    assert list(_job_order(3, 2, walked=False, watched=True)) == list(range(6))
    # Watched: the first round alone, then a block of 4 rounds, feature by
    # feature; a remainder smaller than a block joins the last one.
    order = blocks(_job_order(6, 2, walked=True, watched=True), 2)
    assert order == [(0, 0), (0, 1)] + [(r, 0) for r in range(1, 6)] + [
        (r, 1) for r in range(1, 6)
    ]
    # 30 rounds: blocks of rounds 0, 1-4, 5-12 and 13-29 (16 + 1 joined).
    order = blocks(_job_order(30, 3, walked=True, watched=True), 3)
    bounds = [(0, 1), (1, 5), (5, 13), (13, 30)]
    assert order == [(r, f) for a, b in bounds for f in range(3) for r in range(a, b)]
    # Unwatched: one block, each feature's repeats together.
    order = blocks(_job_order(4, 2, walked=True, watched=False), 2)
    assert order == [(r, 0) for r in range(4)] + [(r, 1) for r in range(4)]


def test_cross_validated_importance_equals_sklearn_on_each_fold(forest_data):
    from sklearn.model_selection import StratifiedKFold

    forest, X, y = forest_data
    result = cross_val_permutation_importance(
        forest, X, y, cv=3, n_repeats=2, random_state=0
    )
    seeds = np.random.RandomState(0).randint(np.iinfo(np.int32).max + 1, size=3)
    for k, (train, test) in enumerate(StratifiedKFold(3).split(X, y)):
        fold_model = clone(forest).fit(X[train], y[train])
        expected = sklearn_permutation_importance(
            fold_model, X[test], y[test], n_repeats=2, random_state=seeds[k]
        )
        assert_array_equal(result.fold_importances[k], expected.importances)


def test_tree_refuses_what_it_cannot_do_exactly(forest_data):
    forest, X, y = forest_data
    with pytest.raises(ValueError, match="algorithm='tree': Ridge is not one of"):
        permutation_importance(Ridge().fit(X, y), X, y, algorithm="tree")
    with pytest.raises(ValueError, match="custom scorer"):
        permutation_importance(
            forest, X, y, algorithm="tree", scoring=lambda est, X, y: est.score(X, y)
        )
    with_nan = X.copy()
    with_nan[3, 2] = np.nan
    with pytest.raises(ValueError, match="NaN or infinity"):
        permutation_importance(forest, with_nan, y, algorithm="tree")
    with pytest.raises(ValueError, match="algorithm must be one of"):
        permutation_importance(forest, X, y, algorithm="fast")
    # "auto" leaves NaN to the model, as the generic path always did.
    auto = permutation_importance(forest, with_nan, y, n_repeats=2, random_state=0)
    expected = sklearn_permutation_importance(
        forest, with_nan, y, n_repeats=2, random_state=0
    )
    assert_array_equal(auto.importances, expected.importances)


def test_tree_walks_an_imputing_pipeline_and_refuses_other_pipelines(forest_data):
    """As `algorithm`'s docstring says: a two-step pipeline whose
    ColumnTransformer maps each column on its own (imputation included, so X
    may hold NaN) walks its final step; any other pipeline is refused."""
    from sklearn.compose import make_column_transformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import PolynomialFeatures

    forest, X, y = forest_data
    with_nan = X.copy()
    with_nan[::7, 0] = np.nan
    imputing = make_pipeline(
        make_column_transformer((SimpleImputer(), [0]), remainder="passthrough"),
        clone(forest),
    ).fit(with_nan, y)
    kwargs = dict(n_repeats=2, random_state=0)
    got = permutation_importance(imputing, with_nan, y, algorithm="tree", **kwargs)
    expected = sklearn_permutation_importance(imputing, with_nan, y, **kwargs)
    assert_array_equal(got.importances, expected.importances)
    mixing = make_pipeline(PolynomialFeatures(), clone(forest)).fit(X, y)
    with pytest.raises(ValueError, match="Pipeline is not one of"):
        permutation_importance(mixing, X, y, algorithm="tree")


def test_out_of_bag_members_take_the_shortcut(forest_data):
    from sklearn.ensemble import BaggingRegressor

    from inspectwidgets import oob_permutation_importance

    forest, X, y = forest_data
    kwargs = dict(n_repeats=3, random_state=0, scoring=["accuracy", "neg_log_loss"])
    tree = oob_permutation_importance(forest, X, y, algorithm="tree", **kwargs)
    generic = oob_permutation_importance(forest, X, y, algorithm="generic", **kwargs)
    for name in kwargs["scoring"]:
        assert_array_equal(tree[name].importances, generic[name].importances)
        assert_array_equal(
            tree[name].member_importances, generic[name].member_importances
        )
    bagging = BaggingRegressor(n_estimators=3, max_features=3, random_state=0)
    bagging.fit(X, y)
    with pytest.raises(ValueError, match="a member sees some columns"):
        oob_permutation_importance(bagging, X, y, algorithm="tree")


def test_boosting_takes_the_shortcut_bit_for_bit():
    """Gradient boosting (three classes: three trees a stage, softmax) and
    histogram boosting on a frame with native categories and missing values:
    scikit-learn's numbers without a prediction of a permuted copy."""
    import pandas as pd
    from sklearn.ensemble import (
        GradientBoostingClassifier,
        HistGradientBoostingClassifier,
    )

    X, y = make_classification(
        n_samples=300, n_features=5, n_informative=3, n_classes=3, random_state=0
    )
    rng = np.random.default_rng(0)
    # A copy: without copy-on-write (pandas < 3) the frame would share X.
    frame = pd.DataFrame(X.copy(), columns=[f"x{i}" for i in range(5)])
    frame["colour"] = pd.Categorical(rng.choice(["red", "green", "blue"], len(y)))
    frame.loc[rng.random(len(y)) < 0.1, "x0"] = np.nan
    labels = (y + (frame["colour"] == "red")) % 3
    scoring = ["accuracy", "neg_log_loss", "balanced_accuracy"]
    kwargs = dict(n_repeats=3, random_state=0, scoring=scoring)
    for model, data, target in (
        (GradientBoostingClassifier(n_estimators=10, random_state=0), X, y),
        (HistGradientBoostingClassifier(max_iter=10, random_state=0), frame, labels),
    ):
        model.fit(data, target)
        expected = sklearn_permutation_importance(model, data, target, **kwargs)
        got = permutation_importance(model, data, target, algorithm="tree", **kwargs)
        for name in scoring:
            assert_array_equal(got[name].importances, expected[name].importances)


def test_rows_walked_in_blocks_give_sklearns_numbers(monkeypatch, forest_data):
    """A chunk's copies are walked and made responses a few rows at a time
    (here 2 KiB of buffers): the same numbers, including scores of
    probabilities histogram boosting returns in Fortran order."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    from inspectwidgets.inspection._shortcuts.trees import replay as tree_replay

    monkeypatch.setattr(tree_replay, "WALK_BLOCK_BYTES", 2048)
    walked = []
    walk = tree_replay._PermutedWalk.__call__

    def recording(self, low, high):
        walked.append((low, high))
        return walk(self, low, high)

    monkeypatch.setattr(tree_replay._PermutedWalk, "__call__", recording)
    forest, X, y = forest_data
    X3, y3 = make_classification(
        n_samples=300, n_features=5, n_informative=3, n_classes=3, random_state=0
    )
    boosting = HistGradientBoostingClassifier(max_iter=8, random_state=0)
    scoring = ["accuracy", "neg_log_loss", "balanced_accuracy"]
    kwargs = dict(n_repeats=3, random_state=0, scoring=scoring, algorithm="tree")
    for model, data, target in ((forest, X, y), (boosting.fit(X3, y3), X3, y3)):
        walked.clear()
        expected = sklearn_permutation_importance(
            model, data, target, n_repeats=3, random_state=0, scoring=scoring
        )
        got = permutation_importance(model, data, target, **kwargs)
        for name in scoring:
            assert_array_equal(got[name].importances, expected[name].importances)
        # Every walk went in blocks, which together cover the rows.
        assert all(high - low < len(data) for low, high in walked)
        assert sum(high - low for low, high in walked) % len(data) == 0


def test_auto_judges_gradient_boosting_by_its_detours_and_walks_histogram_boosting(
    monkeypatch,
):
    """GradientBoosting is walked where copies mostly stay on their row's
    path (many features) and predicted where they leave it near the root
    (one feature, split on at every node): trees/choice.py's detour_share.
    HistGradientBoosting is walked."""
    import functools

    from sklearn.ensemble import (
        GradientBoostingClassifier,
        HistGradientBoostingClassifier,
    )

    for kind, n_features, walked in (
        (GradientBoostingClassifier, 30, True),
        (GradientBoostingClassifier, 1, False),
        (HistGradientBoostingClassifier, 4, True),
    ):
        X, y = make_classification(
            n_samples=200, n_features=n_features, n_informative=1,
            n_redundant=0, n_clusters_per_class=1, random_state=0,
        )  # fmt: skip
        model = kind(random_state=0).fit(X, y)
        seen = []
        original = kind.predict

        @functools.wraps(original)  # the scorers look methods up by name
        def counting(self, data, original=original, seen=seen):
            seen.append(len(data))
            return original(self, data)

        monkeypatch.setattr(kind, "predict", counting)
        result = permutation_importance(model, X, y, n_repeats=2, random_state=0)
        monkeypatch.undo()
        # Walked: the model sees X's first row only (X rides the walk).
        assert (seen == [1]) is walked, (kind.__name__, n_features)
        expected = sklearn_permutation_importance(
            model, X, y, n_repeats=2, random_state=0
        )
        assert_array_equal(result.importances, expected.importances)


@pytest.mark.parametrize("n_jobs", [None, 2])
@pytest.mark.parametrize("watched", [False, True])
def test_x_rides_the_first_walk_and_scores_as_scikit_learn(
    forest_data, monkeypatch, n_jobs, watched
):
    """X's own predictions come from the first chunk's walk: the baseline
    is scikit-learn's, exactly, even when that chunk comes in last."""
    from inspectwidgets.inspection._permutation import importance

    forest, X, y = forest_data
    weight = np.linspace(1, 2, len(y))
    original = importance.score_chunk

    def first_chunk_last(c, start, stop):
        if start == 0 and n_jobs == 2:
            time.sleep(0.5)  # the other worker's chunks come in first
        return original(c, start, stop)

    monkeypatch.setattr(importance, "score_chunk", first_chunk_last)
    streamed = []
    got = permutation_importance(
        forest, X, y, sample_weight=weight, scoring=SCORERS, n_repeats=6,
        random_state=0, n_jobs=n_jobs, return_result=True,
        callback=streamed.append if watched else None,
    )  # fmt: skip
    for name in SCORERS:
        scorer = check_scoring(forest, scoring=name)
        assert got.baseline_scores[name] == scorer(forest, X, y, sample_weight=weight)
    expected = sklearn_permutation_importance(
        forest, X, y, sample_weight=weight, scoring=SCORERS, n_repeats=6,
        random_state=0,
    )  # fmt: skip
    for name in SCORERS:
        assert_array_equal(
            got.to_sklearn()[name].importances, expected[name].importances
        )
    # Every result shown holds that baseline.
    assert all(r.baseline_scores == got.baseline_scores for r in streamed)
    assert len(streamed) >= 6 if watched else not streamed


def test_the_models_own_checks_still_judge_x(forest_data):
    """Where X rides the walk, the model still checks X's columns (on its
    first row): their number, and their names for a model fitted on a frame."""
    pd = pytest.importorskip("pandas")
    forest, X, y = forest_data
    with pytest.raises(ValueError, match="X has 5 features, but RandomForest"):
        permutation_importance(forest, X[:, :5], y, random_state=0)
    frame = pd.DataFrame(X, columns=[f"x{i}" for i in range(X.shape[1])])
    named = clone(forest).fit(frame, y)
    renamed = frame.rename(columns={"x0": "other"})
    with pytest.raises(ValueError, match="feature names should match"):
        permutation_importance(named, renamed, y, random_state=0)
    with pytest.warns(UserWarning, match="does not have valid feature names"):
        got = permutation_importance(named, X, y, n_repeats=2, random_state=0)
    expected = sklearn_permutation_importance(named, X, y, n_repeats=2, random_state=0)
    assert_array_equal(got.importances, expected.importances)


def test_a_run_cancelled_before_the_walk_still_scores_x(forest_data):
    import threading

    forest, X, y = forest_data
    cancel = threading.Event()
    cancel.set()
    got = permutation_importance(
        forest, X, y, n_repeats=3, random_state=0, cancel=cancel, return_result=True
    )
    assert got.n_repeats_done == 0
    assert got.baseline_scores == {"score": forest.score(X, y)}
