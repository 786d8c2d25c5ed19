"""ModelInspector without a browser: validation, header, linking, laziness."""

import base64
import json
import re

import joblib
import numpy as np
import pandas as pd
import pytest
import traitlets
from common.gated import GatedRegressor
from common.matrix import FaultyRegressor
from numpy.testing import assert_allclose
from pandas.testing import assert_frame_equal
from sklearn.compose import make_column_transformer
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.exceptions import NotFittedError
from sklearn.metrics import get_scorer
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

from inspectwidgets import (
    ModelInspector,
    cross_val_permutation_importance,
    oob_permutation_importance,
    permutation_importance,
)
from inspectwidgets.inspection._permutation.cross_validation import CrossValRun
from inspectwidgets.inspection._permutation.importance import PermutationRun
from inspectwidgets.inspection._permutation.out_of_bag import OobRun
from inspectwidgets.inspection._permutation.scoring import ScoringPlan
from inspectwidgets.widgets._inspector_views import InspectorViews
from inspectwidgets.widgets._review_header import BARELY_BEATS, barely_beats
from inspectwidgets.widgets._serialization import decode_binary_array

TIMEOUT = 60


@pytest.fixture(scope="module")
def regression():
    rng = np.random.RandomState(0)
    X = pd.DataFrame(rng.normal(size=(400, 4)), columns=["a", "b", "c", "d"])
    y = 3 * X["a"] + X["b"] ** 2 + 0.1 * rng.normal(size=400)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    model = RandomForestRegressor(n_estimators=20, random_state=0)
    return model.fit(X_train, y_train), X_train, y_train, X_test, y_test


@pytest.fixture(scope="module")
def pipeline():
    """A classifier pipeline with a string category."""
    rng = np.random.RandomState(1)
    n = 300
    X = pd.DataFrame(
        {
            "x": rng.normal(size=n),
            "color": rng.choice(["red", "green", "blue"], size=n),
            "z": rng.normal(size=n),
        }
    )
    y = ((X["x"] > 0) ^ (X["color"] == "red")).astype(int)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    model = make_pipeline(
        make_column_transformer((OneHotEncoder(), ["color"]), remainder="passthrough"),
        RandomForestClassifier(n_estimators=20, random_state=0),
    ).fit(X_train, y_train)
    return model, X_train, y_train, X_test, y_test


def make(data, **kwargs):
    model, X_train, y_train, X_test, y_test = data
    kwargs.setdefault("random_state", 0)
    kwargs.setdefault("n_repeats", 2)
    return ModelInspector(
        model, X_test, y_test, X_train=X_train, y_train=y_train, **kwargs
    )


def count_runs(inspector):
    """Wrap every view's run() to count the computations started."""
    counts = dict.fromkeys(inspector.views, 0)
    for key, child in inspector.views.items():

        def counted(run=child.run, key=key):
            counts[key] += 1
            run()

        child.run = counted
    return counts


@pytest.fixture
def engine_calls(monkeypatch):
    """Every engine computation started, with a digest of its inputs: the
    rows, the targets, the random draws (hence n_repeats, random_state,
    max_samples), the features' columns and the scorers. Recorded when the
    computation starts, not when it is validated; the permutation runs and
    baselines inside a cross-validated or out-of-bag run are that run's (the
    tests settle between views, so nothing else runs meanwhile)."""
    calls = []
    resampling = []  # the cross-validated or out-of-bag runs in flight

    def digest(*parts):
        return joblib.hash(parts)

    def counting(cls, key, outer=False):
        original = cls.__iter__

        def __iter__(self):
            if not resampling:
                calls.append(key(self))
            if outer:
                resampling.append(self)
            try:
                yield from original(self)
            finally:
                if outer:
                    resampling.remove(self)

        monkeypatch.setattr(cls, "__iter__", __iter__)

    counting(
        PermutationRun,
        lambda run: (
            "permutation",
            digest(
                run.X,
                run.y,
                run.rows,
                run.permutations,
                [tuple(c) for c in run.feature_columns],
                [s.name for s in run.plan.scorers],
            ),
        ),
    )
    counting(
        CrossValRun,
        lambda run: ("cv", digest(run.folds.X, run.folds.y, run.folds.seeds)),
        outer=True,
    )
    counting(
        OobRun,
        lambda run: ("oob", digest(run.members.X, run.members.seeds)),
        outer=True,
    )
    original = ScoringPlan.baseline

    def baseline(self, X, y, sample_weight, *args, **kwargs):
        if not resampling:
            calls.append(("baseline", digest(X, y, [s.name for s in self.scorers])))
        return original(self, X, y, sample_weight, *args, **kwargs)

    monkeypatch.setattr(ScoringPlan, "baseline", baseline)
    return calls


def kinds(calls):
    return [kind for kind, _ in calls]


def settle(inspector):
    # The Effects run starts when Importance finishes: wait for both.
    for _ in range(3):
        inspector.wait(TIMEOUT)


# Validation ----------------------------------------------------------------


def test_refuses_bad_input_naming_the_argument(regression):
    model, X_train, y_train, X_test, y_test = regression
    with pytest.raises(NotFittedError, match="estimator"):
        ModelInspector(RandomForestRegressor(), X_test, y_test)
    with pytest.raises(ValueError, match="y has"):
        ModelInspector(model, X_test, y_test[:-1])
    with pytest.raises(ValueError, match="X_train and y_train"):
        ModelInspector(model, X_test, y_test, X_train=X_train)
    with pytest.raises(ValueError, match="X_train has 3 columns"):
        ModelInspector(
            model, X_test, y_test, X_train=X_train.iloc[:, :3], y_train=y_train
        )
    with pytest.raises(ValueError, match="n_repeats"):
        ModelInspector(model, X_test, y_test, n_repeats=0)
    with pytest.raises(TypeError, match="unexpected keyword"):
        ModelInspector(model, X_test, y_test, repeats=3)
    with pytest.raises(ValueError, match="random_state"):
        ModelInspector(model, X_test, y_test, random_state=-1)
    # A generator gives the seed: the same generator state, the same seed.
    seeds = [
        ModelInspector(
            model, X_test, y_test, random_state=np.random.RandomState(7), run=False
        )._random_state
        for _ in range(2)
    ]
    assert seeds[0] == seeds[1] == np.random.RandomState(7).randint(2**31)
    with pytest.raises(ValueError, match="no_such_scorer"):
        ModelInspector(model, X_test, y_test, scoring="no_such_scorer", run=False)
    with pytest.raises(traitlets.TraitError, match="selected_features"):
        ModelInspector(model, X_test, y_test, selected_features=["nope"], run=False)


def test_inputs_not_mutated(pipeline):
    copies = [d.copy() for d in pipeline[1:]]
    inspector = make(pipeline, selected_features=["color"])
    inspector.view = "comparison"
    settle(inspector)
    for before, after in zip(copies, pipeline[1:], strict=True):
        assert before.equals(after)
    inspector.close()


def test_python_selection_is_validated(regression):
    inspector = make(regression, run=False)
    with pytest.raises(traitlets.TraitError, match="one feature"):
        inspector.selected_features = ["a", "b", "c"]
    inspector.selected_features = ["b", "b"]  # duplicates dropped
    assert inspector.selected_features == ["b"]
    inspector.close()


# Header ---------------------------------------------------------------------


def test_header_scores_match_scikit_learn(pipeline):
    model, X_train, y_train, X_test, y_test = pipeline
    inspector = make(pipeline, scoring=["accuracy", "roc_auc"], run=False)
    header = inspector._header
    dummy = DummyClassifier(strategy="prior").fit(X_train, y_train)
    for row in header["scores"]:
        scorer = get_scorer(row["scorer"])
        assert_allclose(row["model"], scorer(model, X_test, y_test))
        assert_allclose(row["dummy"], scorer(dummy, X_test, y_test))
    assert header["task"] == "binary classification"
    # The steps' names isolated inside each line (#49).
    assert header["model"]["steps"] == [
        "\u2068columntransformer\u2069: ColumnTransformer",
        "\u2068randomforestclassifier\u2069: RandomForestClassifier",
    ]
    assert (header["n_rows"], header["n_features"]) == X_test.shape
    assert header["dummy_fitted_on"] == "training data"
    assert_frame_equal(
        inspector.to_frame("header")[["scorer", "model", "dummy"]],
        pd.DataFrame(header["scores"])[["scorer", "model", "dummy"]],
    )
    inspector.close()


def test_header_scores_come_from_the_importance_runs_first_walk(
    regression, engine_calls
):
    """The held-out rows ride the Importance run's first walk of the forest:
    the header has the dummy's scores at once and the model's with the first
    bars, that run's baseline, never predicted apart (scikit-learn's, bit
    for bit: trees); the header's table is the same."""
    model, X_train, y_train, X_test, y_test = regression
    inspector = make(regression)
    settle(inspector)
    assert "baseline" not in kinds(engine_calls)
    [row] = inspector._header["scores"]
    assert inspector._header["model_scores"] == "done"
    assert row["model"] == get_scorer("r2")(model, X_test, y_test)
    result = inspector.views["importance"].result
    assert row["model"] == result.baseline_scores["r2"]
    assert inspector.to_frame("header")["model"].tolist() == [row["model"]]
    inspector.close()


def test_header_scored_apart_when_no_held_out_run_gives_its_scores(
    regression, engine_calls
):
    """A review that does not start on the held-out Importance view, or
    whose run is cancelled before its first results, scores the header
    itself; a model that fails to predict leaves it marked failed."""
    model, X_train, y_train, X_test, y_test = regression
    r2 = get_scorer("r2")(model, X_test, y_test)
    for kwargs in ({"run": False}, {"view": "comparison"}, {"importance_on": "train"}):
        engine_calls.clear()
        inspector = make(regression, **kwargs)
        assert kinds(engine_calls)[0] == "baseline", kwargs
        assert inspector._header["scores"][0]["model"] == r2
        inspector.close()
    gated = GatedRegressor().fit(X_train, y_train)
    inspector = ModelInspector(gated, X_test, y_test, n_repeats=2, random_state=0)
    gated.wait_for_a_waiting_call()  # the run's baseline predict, held
    assert inspector._header["model_scores"] == "pending"
    assert inspector._header["scores"][0]["model"] is None
    inspector.views["importance"].cancel()
    gated.open()
    assert inspector.views["importance"].wait(TIMEOUT) == "cancelled"
    assert inspector._header["model_scores"] == "done"
    assert_allclose(
        inspector.to_frame("header")["model"],
        [get_scorer("r2")(gated, X_test, y_test)],
    )
    inspector.close()
    failing = FaultyRegressor("raise").fit(X_train, y_train)
    inspector = ModelInspector(failing, X_test, y_test, n_repeats=2, random_state=0)
    assert inspector.views["importance"].wait(TIMEOUT) == "error"
    assert inspector._header["model_scores"] == "failed"
    with pytest.raises(RuntimeError, match="the model broke down"):
        inspector.to_frame("header")
    inspector.close()


def test_warning_when_the_model_barely_beats_the_dummy(regression):
    model, X_train, y_train, X_test, y_test = regression
    good = make(regression, run=False)
    assert good._header["warning"] == ""
    noise = np.random.RandomState(3).normal(size=len(y_train))
    bad = RandomForestRegressor(n_estimators=10, random_state=0).fit(X_train, noise)
    inspector = ModelInspector(
        bad, X_test, y_test, X_train=X_train, y_train=y_train, run=False
    )
    [row] = inspector._header["scores"]
    dummy = DummyRegressor().fit(X_train, y_train)
    assert_allclose(row["dummy"], get_scorer("r2")(dummy, X_test, y_test))
    assert row["barely"] and "barely beats" in inspector._header["warning"]
    good.close()
    inspector.close()


def test_barely_beats_definition():
    # Closing less than BARELY_BEATS of the gap to the best score.
    assert barely_beats(0.5 + 0.5 * BARELY_BEATS * 0.9, 0.5, 1.0)
    assert not barely_beats(0.5 + 0.5 * BARELY_BEATS * 1.1, 0.5, 1.0)
    assert barely_beats(-12.0, -10.0, 0.0)  # worse than the dummy
    assert not barely_beats(0.3, 0.2, None)  # best unknown: no claim


# Linking and laziness ---------------------------------------------------------


def test_views_compute_only_when_shown_and_once(regression):
    inspector = make(regression, run=False)
    counts = count_runs(inspector)
    inspector.run()
    settle(inspector)
    # Importance shown; Effects opened on the top feature once it was known.
    assert counts == {
        "importance": 1,
        "importance_train": 0,
        "importance_cv": 0,
        "importance_oob": 0,
        "effects": 1,
        "comparison": 0,
    }
    top = inspector.to_frame("importance").groupby("feature")["importance"].mean()
    assert inspector.selected_features == [top.idxmax()]
    for view in ["comparison", "importance", "comparison", "importance"]:
        inspector.view = view
        settle(inspector)
    assert counts == {
        "importance": 1,
        "importance_train": 0,
        "importance_cv": 0,
        "importance_oob": 0,
        "effects": 1,
        "comparison": 1,
    }
    inspector.selected_features = list(inspector.selected_features)  # same: nothing
    settle(inspector)
    assert counts["effects"] == 1
    inspector.close()


def test_no_computation_started_twice_for_the_same_inputs(regression, engine_calls):
    # 75 held-out and 300 training rows, under max_rows: Comparison permutes
    # the very rows the Importance views do.
    inspector = make(regression, selected_features=["a"], run=False)
    # The header scored the held-out rows: the Importance baseline.
    assert kinds(engine_calls) == ["baseline"]
    inspector.run()
    settle(inspector)
    # Importance on held-out rows: its baseline not predicted again.
    assert kinds(engine_calls) == ["baseline", "permutation"]
    inspector.view = "comparison"
    settle(inspector)
    # Comparison: its test measure is Importance's result (a second run on
    # the same inputs would repeat a digest); its train measure is new. The
    # four independent features form no group (|rho| < 0.8), so the grouped
    # measure is the test measure again, not recomputed. (The training rows'
    # baseline rides the forest's walk: not predicted.)
    assert kinds(engine_calls) == ["baseline", "permutation", "permutation"]
    assert len(set(engine_calls)) == len(engine_calls)
    assert all(
        len(m) == 1 for m in inspector.views["comparison"].result.groups.values()
    )
    inspector.view = "importance"
    inspector.importance_on = "train"
    settle(inspector)  # the Comparison's train measure, kept
    assert len(engine_calls) == 3
    for option in ["cv", "oob", "test", "cv", "oob", "train"]:
        inspector.importance_on = option
        settle(inspector)
    assert kinds(engine_calls)[3:] == ["cv", "oob"]
    assert len(set(engine_calls)) == len(engine_calls)
    # Shared numbers are the engine's for each view's own inputs.
    model, X_train, y_train, X_test, y_test = regression
    comparison = inspector.views["comparison"].to_frame()
    for rows, X, y in [("test", X_test, y_test), ("train", X_train, y_train)]:
        expected = permutation_importance(
            model, X, y, n_repeats=2, random_state=0, scoring="r2"
        )
        key = "importance" if rows == "test" else "importance_train"
        assert_allclose(
            inspector.views[key].result.importances("r2"), expected.importances
        )
        assert_allclose(
            comparison.loc[list(X.columns), f"permutation_{rows}_mean"],
            expected.importances_mean,
        )
    header = {row["scorer"]: row["model"] for row in inspector._header["scores"]}
    assert header["r2"] == inspector.views["importance"].result.baseline_scores["r2"]
    inspector.close()


def test_subsampled_comparison_shares_nothing_with_importance(regression, engine_calls):
    # Above max_rows Comparison permutes a subsample: other inputs.
    inspector = make(regression, max_rows=50, view="comparison", run=False)
    inspector.run()
    settle(inspector)
    inspector.view = "importance"
    settle(inspector)
    inspector.importance_on = "train"
    settle(inspector)
    permutations = [c for c in engine_calls if c[0] == "permutation"]
    # Comparison: test, train (its groups are single features, |rho| < 0.8:
    # the test measure's run); Importance: held-out and training.
    assert len(permutations) == 4
    assert len(set(engine_calls)) == len(engine_calls)
    inspector.close()


def test_importance_reuses_a_comparison_computed_first(regression, engine_calls):
    inspector = make(regression, view="comparison", selected_features=["a"])
    settle(inspector)
    before = list(engine_calls)
    inspector.view = "importance"
    settle(inspector)
    assert engine_calls == before  # the Comparison's test measure, kept
    # with the held-out interval the inspector asks of every run on test rows
    assert inspector.views["importance"].result.n_bootstrap == 200
    model, _, _, X_test, y_test = regression
    expected = permutation_importance(
        model, X_test, y_test, n_repeats=2, random_state=0
    )
    assert_allclose(
        inspector.views["importance"].result.importances(), expected.importances
    )
    inspector.close()


def test_repeats_are_the_inspectors_and_every_permutation_view_follows(
    regression, engine_calls
):
    inspector = make(regression, n_repeats=3, selected_features=["a"])
    settle(inspector)
    for key in ["importance", "importance_train", "importance_cv", "comparison"]:
        assert inspector.views[key].n_repeats == 3
    # The Importance view's own repeats control sets the inspector's.
    inspector._on_message(
        inspector, {"view": "importance", "set": {"n_repeats": 4}}, []
    )
    settle(inspector)
    assert inspector.n_repeats == 4
    assert inspector.views["importance"].result.n_repeats == 4
    inspector.view = "comparison"
    settle(inspector)
    comparison = inspector.views["comparison"]
    assert comparison.n_repeats == 4
    assert comparison.result.grouped.n_repeats == 4
    # Importance with 3, then 4 repeats; Comparison's train measure: its test
    # measure (and its groups, single features) is the Importance result for
    # 4 repeats.
    assert kinds(engine_calls).count("permutation") == 3
    assert len(set(engine_calls)) == len(engine_calls)
    inspector.close()


def test_cross_validated_and_out_of_bag_views_match_the_engines(
    regression, engine_calls
):
    model, X_train, y_train, *_ = regression
    scoring = ["r2", "neg_mean_absolute_error"]
    inspector = make(regression, scoring=scoring)
    settle(inspector)
    assert "cv" not in kinds(engine_calls) and "oob" not in kinds(engine_calls)
    views, results = {}, {}
    for option, engine in [
        ("cv", cross_val_permutation_importance),
        ("oob", oob_permutation_importance),
    ]:
        inspector.importance_on = option
        settle(inspector)
        assert kinds(engine_calls).count(option) == 1  # before the engine's own
        view = views[option] = inspector.views[f"importance_{option}"]
        expected = results[option] = engine(
            model, X_train, y_train, scoring=scoring, n_repeats=2, random_state=0
        )
        for name in scoring:
            # Cross-validated: one "repeat" per fold, the fold's importance.
            assert_allclose(
                view.result.importances(name), expected[name].importances, atol=1e-12
            )
    expected = results["cv"]["r2"]
    chart = views["cv"]._chart
    assert (chart["unit"], chart["spread"]) == ("folds", 1.96)
    std = decode_binary_array(chart["scorers"]["r2"]["std"])
    mean = decode_binary_array(chart["scorers"]["r2"]["mean"])
    order = [list(expected.feature_names).index(f)
             for f in chart["scorers"]["r2"]["features"]]  # fmt: skip
    assert_allclose(mean + 1.96 * std, expected.ci_high[order], rtol=1e-5)
    frame = inspector.to_frame("importance_cv").query("scorer == 'r2'")
    assert_allclose(frame["importance"], expected.importances.ravel())
    # Each fold's own baseline.
    assert_allclose(frame["baseline_score"], np.tile(expected.baseline_scores, 4))
    assert (views["cv"]._repeats_done, views["cv"]._repeats_total) == (5, 5)
    # Its figure too: titled in folds, bars ±1.96 std across folds.
    ax = inspector.figure("importance_cv").axes[0]
    assert "(5 of 5 folds; bars ±1.96 std across folds)" in ax.get_title()
    [segments] = [c.lines[2][0].get_segments() for c in ax.containers[-1:]]
    half_widths = [(s[1][0] - s[0][0]) / 2 for s in segments]
    assert_allclose(half_widths, 1.96 * std, rtol=1e-5)
    for name in scoring:
        assert (
            views["oob"].result.baseline_scores[name]
            == results["oob"][name].baseline_score
        )
    oob = views["oob"]
    assert (oob._repeats_done, oob._repeats_total) == (20, 20)  # members
    assert inspector.figure().axes
    inspector.close()


def test_unavailable_importance_options_say_why(regression, pipeline):
    model, X_train, y_train, X_test, y_test = regression
    alone = ModelInspector(model, X_test, y_test, run=False)
    for option in ["train", "cv", "oob"]:
        assert "pass X_train and y_train" in alone._importance_options[option]
        with pytest.raises(traitlets.TraitError, match=f"importance_on: '{option}'"):
            alone.importance_on = option
    alone.close()
    # A pipeline: cross-validated yes, out-of-bag no (the engine's reason).
    inspector = make(pipeline, run=False)
    assert inspector._importance_options["cv"] == ""
    assert "bagged ensemble" in inspector._importance_options["oob"]
    with pytest.raises(traitlets.TraitError, match="got Pipeline"):
        inspector.importance_on = "oob"
    assert "importance_oob" not in inspector.views
    inspector.close()
    no_bootstrap = RandomForestRegressor(
        n_estimators=5, bootstrap=False, random_state=0
    ).fit(X_train, y_train)
    inspector = ModelInspector(
        no_bootstrap, X_test, y_test, X_train=X_train, y_train=y_train, run=False
    )
    with pytest.raises(traitlets.TraitError, match="bootstrap=True"):
        inspector.importance_on = "oob"
    inspector.close()
    # Training rows other than the forest's.
    inspector = ModelInspector(
        model, X_test, y_test, X_train=X_test, y_train=y_test, run=False
    )
    assert "fitted on 300" in inspector._importance_options["oob"]
    inspector.close()


def test_switching_away_from_a_running_view_leaves_nothing_running(regression):
    inspector = make(regression, selected_features=["a"])
    for option in ["cv", "oob", "test", "cv", "train", "oob"]:
        inspector.importance_on = option
    settle(inspector)
    statuses = inspector.wait(TIMEOUT)
    assert "running" not in statuses.values()
    assert inspector.views["importance_oob"].status == "done"
    inspector.close()


@pytest.mark.parametrize("ends_first", [False, True], ids=["running", "ended"])
def test_effects_and_comparison_made_after_the_first_run_starts(
    regression, monkeypatch, ends_first
):
    """Opening on held-out importance, the inspector starts that run before
    it makes the Effects and Comparison views (the first bars wait for
    neither); a run that ends before they are made (a small X) still opens
    the review on its most important feature, with Effects computed."""
    made = InspectorViews._build_subsampled
    started = []

    def build(self, *args):
        if "importance" in self._children:  # the views made late
            started.append(self._children["importance"].status)
            if ends_first:
                self._children["importance"].wait(TIMEOUT)
        made(self, *args)

    monkeypatch.setattr(InspectorViews, "_build_subsampled", build)
    inspector = make(regression)
    assert started in (["running"], ["done"])
    settle(inspector)
    assert set(inspector.views) >= {"effects", "comparison"}
    top = inspector.to_frame("importance").groupby("feature")["importance"].mean()
    assert inspector.selected_features == [top.idxmax()]
    effects = inspector.views["effects"]
    assert effects.status == "done" and effects.overview
    assert list(effects.result.feature_names) == [top.idxmax()]
    assert inspector._effects["state"]["features"] == [top.idxmax()]
    inspector.close()


def test_selection_drives_effects_and_follows_its_controls(regression):
    inspector = make(regression, selected_features=["c"])
    settle(inspector)
    effects = inspector.views["effects"]
    assert list(effects.result.feature_names) == ["c"]
    # A click in a chart of any view sets the inspector's trait (shared in JS).
    inspector.selected_features = ["b", "a"]
    settle(inspector)
    assert list(effects.result.feature_names) == ["b", "a"]
    # The Effects view's own feature select writes through the mirror.
    inspector._on_message(
        inspector, {"view": "effects", "set": {"features": ["d"]}}, []
    )
    settle(inspector)
    assert inspector.selected_features == ["d"]
    assert list(effects.result.feature_names) == ["d"]
    assert inspector._effects["state"]["features"] == ["d"]
    inspector.close()


def test_hidden_effects_do_not_compute(regression):
    inspector = make(regression, run=False)
    counts = count_runs(inspector)
    inspector.selected_features = ["a"]  # not running: nothing starts
    assert counts["effects"] == 0
    inspector.selected_features = []
    inspector.run()
    inspector.views["importance"].wait(TIMEOUT)
    settle(inspector)
    assert counts["effects"] == 1  # the top feature, once
    inspector.close()


def test_rapid_selection_ends_in_the_last_one(regression):
    inspector = make(regression, selected_features=["a"])
    for feature in ["b", "c", "d", "a", "c", "b"]:
        inspector.selected_features = [feature]
    settle(inspector)
    effects = inspector.views["effects"]
    assert effects.status == "done"
    assert list(effects.result.feature_names) == ["b"]
    assert inspector._effects["state"]["status"] == "done"
    inspector.close()


def test_controls_write_through_and_refused_values_come_back(regression):
    inspector = make(regression)
    settle(inspector)
    importance = inspector.views["importance"]
    inspector._on_message(inspector, {"view": "importance", "set": {"kind": "box"}}, [])
    assert importance.kind == "box"
    assert inspector._importance["state"]["kind"] == "box"
    version = inspector._importance["versions"]["n_repeats"]
    inspector._on_message(
        inspector, {"view": "importance", "set": {"n_repeats": 0}}, []
    )
    assert importance.n_repeats == 2
    assert inspector._importance["versions"]["n_repeats"] > version
    inspector.close()


def test_importance_on_training_rows_when_shown(regression):
    model, X_train, y_train, *_ = regression
    inspector = make(regression, run=False)
    counts = count_runs(inspector)
    inspector.run()
    settle(inspector)
    assert counts["importance_train"] == 0
    inspector.importance_on = "train"
    settle(inspector)
    assert counts["importance_train"] == 1 and counts["importance"] == 1
    expected = permutation_importance(
        model, X_train, y_train, n_repeats=2, random_state=0
    )
    result = inspector.views["importance_train"].result
    assert_allclose(result.importances(), expected.importances)
    assert inspector.figure().axes  # the shown tab: importance on training rows
    inspector.importance_on = "test"
    inspector.importance_on = "train"
    settle(inspector)
    assert counts["importance_train"] == 1
    inspector.close()


def test_comparison_needs_training_data(regression):
    model, _, _, X_test, y_test = regression
    inspector = ModelInspector(model, X_test, y_test, run=False)
    assert "comparison" not in inspector.views
    assert "importance_train" not in inspector.views
    with pytest.raises(traitlets.TraitError, match="importance_on"):
        inspector.importance_on = "train"
    assert inspector._header["dummy_fitted_on"] == "X itself"
    with pytest.raises(ValueError, match="view"):
        inspector.figure("comparison")
    inspector.close()


# Big inputs, tables, figures, the saved page ---------------------------------------


def test_subsample_above_max_rows(regression):
    inspector = make(regression, max_rows=40, run=False)
    assert inspector.views["effects"]._X.shape[0] == 40
    assert inspector._header["n_rows_views"] == 40
    assert inspector.views["importance"]._X.shape[0] == 100  # every row
    again = make(regression, max_rows=40, run=False)
    assert inspector.views["effects"]._X.index.equals(again.views["effects"]._X.index)
    inspector.max_rows = 60
    assert inspector.views["effects"]._X.shape[0] == 60
    assert inspector._header["n_rows_views"] == 60
    effects = inspector.views["effects"]
    inspector.max_rows = 100  # all 100 rows: new views
    assert inspector.views["effects"] is not effects
    effects = inspector.views["effects"]
    inspector.max_rows = 5000  # still all 100 rows: the views stay
    assert inspector.views["effects"] is effects
    inspector.close()
    again.close()


def test_to_frame_and_figure(pipeline):
    inspector = make(pipeline, selected_features=["color"])
    inspector.view = "comparison"
    settle(inspector)
    frames = inspector.to_frame()
    assert set(frames) == {"header", "importance", "comparison", "effects"}
    inspector.importance_on = "train"  # not shown under the Comparison tab
    settle(inspector)
    assert "importance_train" not in inspector.to_frame()
    inspector.view = "importance"
    settle(inspector)
    assert "importance_train" in inspector.to_frame()
    for key in ["importance", "comparison", "effects"]:
        assert_frame_equal(frames[key], inspector.views[key].to_frame())
    with pytest.raises(ValueError, match="view"):
        inspector.to_frame("nope")
    for view in ["importance", "comparison", "effects"]:
        assert inspector.figure(view).axes
    inspector.close()


def test_save_html_embeds_state_and_buffers(regression, tmp_path):
    inspector = make(regression, selected_features=["a"])
    settle(inspector)
    path = inspector.save_html(tmp_path / "review.html")
    text = path.read_text()
    assert "<script src=" not in text and "<link" not in text  # all inlined
    payload = json.loads(
        re.search(
            r'<script type="application/json" id="widget-state">(.*?)</script>',
            text,
            re.S,
        ).group(1)
    )
    state = payload["state"]
    assert state["selected_features"] == ["a"]
    chart_path = ["_importance", "state", "_chart", "scorers", "r2", "mean", "data"]
    index = payload["buffer_paths"].index(chart_path)
    mean = np.frombuffer(base64.b64decode(payload["buffers"][index]), "<f4")
    expected = inspector._importance["state"]["_chart"]["scorers"]["r2"]["mean"]
    assert_allclose(mean, decode_binary_array(expected))
    inspector.close()


def test_static_picture_of_the_shown_view(regression):
    inspector = make(regression, run=False)
    data, _ = inspector._repr_mimebundle_()
    assert "image/png" not in data  # nothing computed yet
    inspector.run()
    settle(inspector)
    data, _ = inspector._repr_mimebundle_()
    assert base64.b64decode(data["image/png"]).startswith(b"\x89PNG")
    inspector.close()


def test_new_max_rows_while_running_ends_in_the_new_views(regression):
    inspector = make(regression, max_rows=40, selected_features=["a"])
    inspector.max_rows = 60  # the running views are replaced
    settle(inspector)
    state = inspector._effects["state"]
    assert state["status"] == inspector.views["effects"].status == "done"
    assert state["_curve"]["n_rows"] == 60
    inspector.close()


FRESH_PROCESS = """
import numpy as np
from sklearn.ensemble import RandomForestRegressor
from inspectwidgets import ModelInspector

rng = np.random.RandomState(0)
X = rng.normal(size=(200, 3))
y = X[:, 0] + rng.normal(size=200)
model = RandomForestRegressor(n_estimators=10, random_state=0).fit(X, y)
inspector = ModelInspector(model, X, y, n_repeats=2, selected_features=["x1"])
for _ in range(3):
    statuses = inspector.wait(60)
assert set(statuses.values()) == {"done"}, statuses
print("ok")
"""


@pytest.mark.slow  # runs a Python subprocess: left to `make test` (conftest.py)
def test_views_starting_together_in_a_fresh_process():
    # Importance and Effects start at once and both load the tree walk: the
    # second used to read the half-imported module and fail.
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def test_wait_returns_once_the_effects_overview_is_drawn(regression):
    """The overview of every feature starts when the Importance run ends:
    one `wait()` covers it, so a notebook's saved state shows it drawn
    (the gallery showed "Computing..." in its panels)."""
    inspector = make(regression)
    statuses = inspector.wait(TIMEOUT)
    assert statuses["importance"] == "done"
    effects = inspector.views["effects"]
    assert effects.overview and effects.overview_result.complete
    assert effects._overview["status"] == "done"
    inspector.close()


def test_scorers_chosen_in_the_importance_view_are_the_headers(pipeline):
    # #52 item 6: after adding neg_log_loss and f1_macro in the Importance
    # view's checklist, the header's score table listed accuracy alone.
    model, X_train, y_train, X_test, y_test = pipeline
    inspector = make(pipeline, scoring="accuracy")
    settle(inspector)
    chosen = ["accuracy", "neg_log_loss", "f1_macro"]
    inspector._on_message(
        inspector, {"view": "importance", "set": {"scoring": chosen}}, []
    )
    settle(inspector)
    rows = {row["scorer"]: row for row in inspector._header["scores"]}
    assert list(rows) == chosen
    dummy = DummyClassifier(strategy="prior").fit(X_train, y_train)
    for name in chosen:
        scorer = get_scorer(name)
        assert_allclose(rows[name]["model"], scorer(model, X_test, y_test))
        assert_allclose(rows[name]["dummy"], scorer(dummy, X_test, y_test))
    assert list(inspector.to_frame("header")["scorer"]) == chosen
    # The training rows' view, shown next, scores the same ones.
    inspector.importance_on = "train"
    settle(inspector)
    assert list(inspector.views["importance_train"].scoring) == chosen
    inspector.close()
