"""ModelInspector's reviewed model, of several: the single-model views,
the header and its warning review it; the held-out Importance view draws
its paired difference with each other model, from the one run of all."""

import numpy as np
import pandas as pd
import pytest
import traitlets
from mixed_columns import mixed_columns
from numpy.testing import assert_allclose
from scipy import stats
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.inspection import partial_dependence
from sklearn.inspection import permutation_importance as sklearn_permutation_importance
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import get_scorer
from sklearn.model_selection import train_test_split

from inspectwidgets import ModelInspector
from inspectwidgets.widgets import _inspector_importance
from inspectwidgets.widgets._serialization import decode_binary_array

TIMEOUT = 60
N_REPEATS = 4


@pytest.fixture(scope="module")
def three_models():
    rng = np.random.RandomState(0)
    X = pd.DataFrame(rng.normal(size=(320, 4)), columns=["a", "b", "c", "d"])
    X["n"] = pd.array(rng.randint(0, 5, 320), dtype="Int64")
    y = (X["a"] + X["b"] ** 2 + 0.3 * rng.normal(size=320) > 1).astype(int)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    as_float = X_train.astype(float)
    models = {
        "forest": RandomForestClassifier(20, random_state=0).fit(X_train, y_train),
        "logistic": LogisticRegression().fit(as_float, y_train),
        "boosting": HistGradientBoostingClassifier(max_iter=20, random_state=0).fit(
            X_train, y_train
        ),
    }
    return models, X_train, y_train, X_test, y_test


def _sklearn_importances(model, X, y):
    return sklearn_permutation_importance(
        model, X, y, n_repeats=N_REPEATS, random_state=0, scoring="accuracy"
    ).importances


def _inspector(three_models, **kwargs):
    models, X_train, y_train, X_test, y_test = three_models
    return ModelInspector(
        models, X_test, y_test, X_train=X_train, y_train=y_train,
        n_repeats=N_REPEATS, random_state=0, **kwargs,
    )  # fmt: skip


def test_the_reviewed_model_is_the_first_until_set(three_models):
    inspector = _inspector(three_models, run=False)
    assert inspector.reviewed == "forest"
    assert inspector._header["models"] == ["forest", "logistic", "boosting"]
    with pytest.raises(
        traitlets.TraitError, match=r"'ridge'.*\['forest', 'logistic', 'boosting'\]"
    ):
        inspector.reviewed = "ridge"
    assert inspector.reviewed == "forest"
    inspector.close()
    models, _, _, X_test, y_test = three_models
    alone = ModelInspector(models["forest"], X_test, y_test, run=False)
    assert alone.reviewed == "" and "models" not in alone._header
    with pytest.raises(traitlets.TraitError, match="one model"):
        alone.reviewed = "forest"
    alone.close()


def test_reviewing_another_model_redraws_the_held_out_run_without_rerunning(
    three_models, monkeypatch
):
    models, X_train, y_train, X_test, y_test = three_models
    runs = []
    original = _inspector_importance.models_run

    def counted(*args, **kwargs):
        runs.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(_inspector_importance, "models_run", counted)
    inspector = _inspector(three_models)
    assert inspector.wait(TIMEOUT)["importance"] == "done"
    result = inspector.views["importance"].result
    # As the front end's menu does: the trait set through the comm's state.
    inspector.set_state({"reviewed": "logistic"})
    inspector.wait(TIMEOUT)
    assert runs == [1] and inspector.views["importance"].result is result
    chart = inspector._importance["state"]["_models_chart"]
    assert chart["models"] == ["forest", "logistic", "boosting"]
    assert chart["reviewed"] == "logistic"
    features = list(X_test.columns)
    order = [features.index(f) for f in chart["features"]]
    theirs = {
        name: _sklearn_importances(
            model, X_test.astype(float) if name == "logistic" else X_test, y_test
        )
        for name, model in models.items()
    }
    pairs = [(d["first"], d["second"]) for d in chart["differences"]]
    assert pairs == [("logistic", "forest"), ("logistic", "boosting")]
    flagged = False
    for difference in chart["differences"]:
        # Student's t over the repeats, written out from its definition.
        paired = (theirs["logistic"] - theirs[difference["second"]])[order]
        half = stats.t.ppf(0.975, N_REPEATS - 1) * (
            paired.std(axis=1, ddof=1) / np.sqrt(N_REPEATS)
        )
        low, high = paired.mean(axis=1) - half, paired.mean(axis=1) + half
        assert_allclose(
            decode_binary_array(difference["low"]), low, rtol=1e-5, atol=1e-7
        )
        assert_allclose(
            decode_binary_array(difference["high"]), high, rtol=1e-5, atol=1e-7
        )
        assert difference["differs"] == list((low > 0) | (high < 0))
        flagged = flagged or any(difference["differs"])
    assert flagged
    # The figure's difference panel follows: the reviewed model minus each other.
    figure = inspector.figure("importance")
    legend = [t.get_text() for t in figure.axes[1].get_legend().get_texts()]
    assert [text.split(":")[0] for text in legend[:2]] == [
        "logistic − forest", "logistic − boosting",
    ]  # fmt: skip
    inspector.close()


def test_the_single_model_views_and_the_header_review_it(three_models):
    models, X_train, y_train, X_test, y_test = three_models
    inspector = _inspector(three_models, importance_on="train", selected_features=["b"])
    inspector.wait(TIMEOUT)
    inspector.reviewed = "boosting"
    for key in ("importance_train", "importance_cv", "comparison", "effects"):
        assert inspector.views[key]._estimator is models["boosting"], key
    statuses = inspector.wait(TIMEOUT)
    assert statuses["importance_train"] == "done"
    # Training-row importances: scikit-learn's for the reviewed model.
    frame = inspector.to_frame("importance_train")
    ours = frame.pivot(index="feature", columns="repeat", values="importance")
    expected = _sklearn_importances(models["boosting"], X_train, y_train)
    assert_allclose(ours.loc[list(X_train.columns)].to_numpy(), expected)
    # The header: its model, scores and warning are the reviewed model's,
    # every other model's column beside, the first model's among them.
    header = inspector._header
    assert header["model_name"] == "boosting"
    assert header["model"]["type"] == "HistGradientBoostingClassifier"
    [accuracy] = header["scores"]
    scorer = get_scorer("accuracy")
    assert_allclose(accuracy["model"], scorer(models["boosting"], X_test, y_test))
    others = {o["name"]: o["scores"]["accuracy"] for o in header["other_models"]}
    assert list(others) == ["forest", "logistic"]
    assert_allclose(others["forest"], scorer(models["forest"], X_test, y_test))
    assert list(inspector.to_frame("header").columns) == [
        "scorer", "model", "dummy", "barely", "forest", "logistic",
    ]  # fmt: skip
    # Effects: the reviewed model's partial dependence, the selection kept.
    selected = inspector.selected_features
    assert selected == ["b"] and inspector.views["effects"].features == selected
    statuses = inspector.wait(TIMEOUT)
    assert statuses["effects"] == "done"
    effects = inspector.to_frame("effects")  # every curve drawn, the average first
    effects = effects[effects["curve"] == "average"]
    average, grid = effects["value"].to_numpy(), effects[selected[0]].to_numpy()
    expected = partial_dependence(
        models["boosting"], X_test, selected, kind="average",
        custom_values={selected[0]: grid}, method="brute",
        response_method="predict_proba",
    )["average"][0]  # fmt: skip
    assert_allclose(average, expected, rtol=1e-6)
    inspector.close()


def test_out_of_bag_unavailable_for_the_reviewed_model_falls_back(three_models):
    inspector = _inspector(three_models, importance_on="oob")
    inspector.wait(TIMEOUT)
    inspector.reviewed = "logistic"
    assert inspector._importance_options["oob"] != ""
    assert inspector.importance_on == "test"
    assert "importance_oob" not in inspector.views
    assert inspector._importance_oob == {}
    inspector.reviewed = "forest"  # and back: available again
    assert inspector._importance_options["oob"] == ""
    inspector.importance_on = "oob"
    assert inspector.wait(TIMEOUT)["importance_oob"] == "done"
    inspector.close()


def test_rapid_changes_end_reviewing_the_last_model_never_running(three_models):
    """Seeded random changes of the reviewed model, the tab and the rows
    shown while views run: the review ends on the last model's numbers."""
    models, X_train, y_train, X_test, y_test = three_models
    inspector = _inspector(three_models, view="comparison")
    rng = np.random.RandomState(0)
    names = list(models)
    for _ in range(12):
        choice = rng.randint(3)
        if choice == 0:
            inspector.reviewed = names[rng.randint(len(names))]
        elif choice == 1:
            inspector.view = ["importance", "comparison"][rng.randint(2)]
        else:
            inspector.importance_on = ["test", "train", "cv"][rng.randint(3)]
    inspector.reviewed = "logistic"
    inspector.view, inspector.importance_on = "importance", "train"
    statuses = inspector.wait(TIMEOUT)
    assert "running" not in statuses.values()
    assert statuses["importance_train"] == "done"
    frame = inspector.to_frame("importance_train")
    ours = frame.pivot(index="feature", columns="repeat", values="importance")
    expected = _sklearn_importances(models["logistic"], X_train.astype(float), y_train)
    assert_allclose(ours.loc[list(X_train.columns)].to_numpy(), expected)
    inspector.view = "comparison"
    assert inspector.wait(TIMEOUT)["comparison"] == "done"
    assert inspector.views["comparison"]._estimator is models["logistic"]
    inspector.close()


def test_reviewing_on_messy_data_leaves_x_untouched():
    from sklearn.ensemble import HistGradientBoostingRegressor

    X, y, rng = mixed_columns(200)
    kwargs = dict(categorical_features="from_dtype", random_state=0)
    models = {
        "shallow": HistGradientBoostingRegressor(max_iter=5, **kwargs).fit(X, y),
        "deep": HistGradientBoostingRegressor(max_iter=40, **kwargs).fit(X, y),
    }
    before = X.copy()
    inspector = ModelInspector(
        models, X, y, X_train=X, y_train=y, n_repeats=2, random_state=0,
        selected_features=["plan"],
    )  # fmt: skip
    inspector.wait(TIMEOUT)
    inspector.reviewed = "deep"
    inspector.view = "comparison"
    statuses = inspector.wait(TIMEOUT)
    assert statuses["comparison"] == "done" and statuses["effects"] == "done"
    assert inspector.views["effects"]._estimator is models["deep"]
    [difference] = inspector.views["importance"]._models_chart["differences"]
    assert (difference["first"], difference["second"]) == ("deep", "shallow")
    pd.testing.assert_frame_equal(X, before)
    inspector.close()


def test_the_header_takes_every_models_scores_from_the_held_out_run(
    three_models, monkeypatch
):
    """No prediction of the header's own: each model's held-out scores are
    its run's baseline, arriving with the first marks; equal to
    scikit-learn's scorer of each model."""
    from inspectwidgets.widgets import _inspector_scores

    models, X_train, y_train, X_test, y_test = three_models
    scored = []
    original = _inspector_scores.score_models
    monkeypatch.setattr(
        _inspector_scores,
        "score_models",
        lambda models, *a: scored.append(list(models)) or original(models, *a),
    )
    inspector = _inspector(three_models)
    assert inspector.wait(TIMEOUT)["importance"] == "done"
    header = inspector._header
    assert scored == [] and header["model_scores"] == "done"
    scorer = get_scorer("accuracy")
    assert_allclose(
        header["scores"][0]["model"], scorer(models["forest"], X_test, y_test)
    )
    others = {o["name"]: o["scores"]["accuracy"] for o in header["other_models"]}
    assert_allclose(
        others["logistic"], scorer(models["logistic"], X_test.astype(float), y_test)
    )
    assert_allclose(others["boosting"], scorer(models["boosting"], X_test, y_test))
    # Reviewing another model predicts none again.
    inspector.reviewed = "boosting"
    assert scored == [] and inspector._header["model_scores"] == "done"
    assert_allclose(
        inspector._header["scores"][0]["model"], others["boosting"], rtol=0, atol=0
    )
    inspector.close()
    # Opened without a run: scored as it opens, every model once.
    inspector = _inspector(three_models, run=False)
    assert scored == [["forest", "logistic", "boosting"]]
    assert inspector._header["model_scores"] == "done"
    inspector.close()


def test_reviewing_while_the_held_out_run_runs_waits_for_its_scores(
    three_models, monkeypatch
):
    """A reviewed model changed before the run's first results: the header
    waits for them (pending meanwhile), predicting nothing of its own."""
    import threading

    from inspectwidgets.widgets import _inspector_scores

    scored = []
    original = _inspector_scores.score_models
    monkeypatch.setattr(
        _inspector_scores,
        "score_models",
        lambda models, *a: scored.append(list(models)) or original(models, *a),
    )
    release = threading.Event()
    models_run = _inspector_importance.models_run

    class Held:
        def __init__(self, run):
            self.run = run

        def __iter__(self):
            # Held on the worker's first step, as the run's own planning is.
            release.wait(TIMEOUT)
            self.run.stream_first_round = self.stream_first_round
            yield from self.run

    monkeypatch.setattr(
        _inspector_importance,
        "models_run",
        lambda *a, **k: Held(models_run(*a, **k)),
    )
    models, X_train, y_train, X_test, y_test = three_models
    inspector = _inspector(three_models)
    assert inspector.views["importance"].status == "running"
    inspector.reviewed = "logistic"
    inspector.reviewed = "boosting"
    assert inspector._header["model_scores"] == "pending", scored
    release.set()
    statuses = inspector.wait(TIMEOUT)
    assert statuses["importance"] == "done" and "running" not in statuses.values()
    assert scored == [] and inspector._header["model_scores"] == "done"
    assert inspector._header["model_name"] == "boosting"
    scorer = get_scorer("accuracy")
    assert_allclose(
        inspector._header["scores"][0]["model"],
        scorer(models["boosting"], X_test, y_test),
    )
    inspector.close()


def test_the_cohorts_follow_the_reviewed_model(three_models):
    """Each cohort's importance (on training rows) and held-out header
    scores are the reviewed model's: scikit-learn's on that cohort's rows."""
    models, X_train, y_train, X_test, y_test = three_models
    inspector = _inspector(three_models, run=False)
    inspector.cohorts = [{"name": "high a", "rule": "a > 0"}]
    inspector.run()
    inspector.wait(TIMEOUT)
    inspector.reviewed = "boosting"
    statuses = inspector.wait(TIMEOUT)
    assert "running" not in statuses.values()
    # Several models' held-out view is their comparison, never split: the
    # training rows' view is the reviewed model's, split by the cohorts.
    inspector.importance_on = "train"
    statuses = inspector.wait(TIMEOUT)
    train = inspector.views["importance_train"]
    assert statuses["importance_train"] == "done"
    assert train._estimator is models["boosting"]
    assert train.split_by == "(cohorts)"
    [entry, rest] = inspector._header["cohorts"]
    rows = (X_test["a"] > 0).to_numpy()
    scorer = get_scorer("accuracy")
    assert_allclose(
        entry["scores"]["accuracy"],
        scorer(models["boosting"], X_test[rows], y_test[rows]),
    )
    assert_allclose(
        rest["scores"]["accuracy"],
        scorer(models["boosting"], X_test[~rows], y_test[~rows]),
    )
    inspector.close()
