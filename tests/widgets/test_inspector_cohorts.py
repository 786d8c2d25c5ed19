"""ModelInspector's cohorts, without a browser: the Importance and Effects
views split by them ("(cohorts)" in their Split by); every view's numbers
are the engine's (and scikit-learn's) on the cohort's rows, with masks
written here with pandas; the header's cohort scores and Effects per cohort
cost no prediction; a bad rule is refused and the cohorts in force kept."""

import json
import threading

import numpy as np
import pandas as pd
import pytest
import traitlets
from numpy.testing import assert_array_equal
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.inspection import permutation_importance
from sklearn.metrics import r2_score

from inspectwidgets import Cohort, ModelInspector, subgroup_partial_dependence
from inspectwidgets.widgets._effect_groups import COHORT_SPLIT
from inspectwidgets.widgets._serialization import decode_binary_array

from numerics import assert_blas_close

N_ROWS = 240
RULE = "x0 < 0.2 and plan == 'pro'"


class Counted(RegressorMixin, BaseEstimator):
    """Reads x0, x1 and plan; records the rows it predicts, by thread."""

    predicted: list = []

    def fit(self, X, y=None):
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X):
        Counted.predicted.append((threading.current_thread().name, len(X)))
        x0 = np.nan_to_num(np.asarray(X["x0"], dtype=float))  # missing as 0
        x1 = np.asarray(X["x1"], dtype=float)
        pro = np.asarray(X["plan"].astype(object) == "pro", dtype=float)
        return np.where(x1 > 0, x0, -x0) + pro * x0 + 0.3 * x1


def rows_predicted(thread_prefix):
    return sum(n for name, n in Counted.predicted if name.startswith(thread_prefix))


@pytest.fixture
def messy():
    rng = np.random.RandomState(0)
    X = pd.DataFrame(
        {
            "x0": rng.uniform(-1, 1, N_ROWS),
            "x1": rng.uniform(-1, 1, N_ROWS),
            "plan": pd.Categorical(rng.choice(["basic", "pro"], N_ROWS)),
            "seats": pd.array(rng.randint(0, 3, N_ROWS), dtype="Int64"),
            "member": pd.array(rng.rand(N_ROWS) > 0.5, dtype="boolean"),
            "region": rng.choice(["north", "south"], N_ROWS).astype(object),
        }
    )
    X.loc[[4, 8], "region"] = None
    X.loc[:9, "seats"] = pd.NA
    X.loc[[3, 7], "x0"] = np.nan
    model = Counted().fit(X)
    y = model.predict(X) + rng.normal(0, 0.3, N_ROWS)
    Counted.predicted = []
    return model, X, y


def young_pro(X):
    """The rule's rows, written with pandas (NaN meets no comparison)."""
    return ((X["x0"] < 0.2) & (X["plan"] == "pro")).to_numpy()


def inspector(model, X, y, **kwargs):
    review = ModelInspector(model, X, y, random_state=0, n_repeats=3, **kwargs)
    statuses = review.wait(timeout=120)
    assert set(statuses.values()) <= {"done", "idle"}, statuses
    return review


def test_importance_per_cohort_is_sklearns_on_its_rows(messy):
    model, X, y = messy
    before = X.copy()
    review = inspector(model, X, y, cohorts={"young pro": RULE})
    assert review.views["importance"].split_by == COHORT_SPLIT
    frame = review.to_frame("importance")
    assert list(frame["subgroup"].unique()) == ["young pro", "rest"]
    inside = young_pro(X)
    seed = review._random_state
    for name, rows in (("young pro", inside), ("rest", ~inside)):
        expected = permutation_importance(
            model, X[rows], y[rows], n_repeats=3, random_state=seed
        )
        ours = frame[frame["subgroup"] == name]
        assert ours["size"].iloc[0] == rows.sum()
        table = ours.pivot(index="feature", columns="repeat", values="importance")
        assert_blas_close(table.loc[list(X.columns)].to_numpy(), expected.importances)
    pd.testing.assert_frame_equal(X, before)


def test_header_scores_each_cohort_on_its_rows(messy):
    model, X, y = messy
    review = inspector(model, X, y, cohorts={"young pro": RULE})
    header = review.to_frame("header")
    inside = young_pro(X)
    for name, rows in (("young pro", inside), ("rest", ~inside)):
        row = header[header["cohort"] == name].iloc[0]
        assert row["n_rows"] == rows.sum()
        assert_blas_close(row["model"], r2_score(y[rows], model.predict(X[rows])))
    assert header["cohort"].iloc[0] == "all rows"
    assert_blas_close(header["model"].iloc[0], r2_score(y, model.predict(X)))


def test_the_header_scores_cohorts_from_the_importance_run(messy):
    """Each cohort's score is its subgroup's baseline in the held-out
    Importance run: the run predicts each cohort's rows once for it and
    once per feature and repeat; the header adds one prediction of X, for
    the score on every row (a split run scores no row twice)."""
    model, X, y = messy
    review = inspector(model, X, y, cohorts={"young pro": RULE})
    review.to_frame("header")
    n_copies = 1 + 3 * X.shape[1]  # the baseline, then each feature's repeats
    importance = rows_predicted("EmbeddedPermutationImportanceWidget")
    assert importance == (n_copies + 1) * N_ROWS
    # Nothing else: the Effects view (no feature selected) has not run, and
    # checks whether the model takes a missing value only when it does.
    others = [n for name, n in Counted.predicted if not name.startswith("EmbeddedPerm")]
    assert others == []


def test_the_chart_draws_every_cohort_with_its_size(messy):
    model, X, y = messy
    review = inspector(
        model, X, y, cohorts={"young pro": RULE, "few": "seats is missing"}
    )
    chart = review._importance["state"]["_chart"]["groups"]
    assert chart["labels"] == ["young pro", "few", "rest"]
    labels = np.where(young_pro(X), "young pro", "rest")
    labels[(~young_pro(X)) & X["seats"].isna().to_numpy()] = "few"
    sizes = [int((labels == c).sum()) for c in chart["labels"]]
    assert chart["sizes"] == sizes
    # The ten rows of missing seats: kept, flagged small (greyed), not dropped.
    assert chart["small"] == [s < chart["min_size"] for s in sizes]
    assert chart["small"][1]
    mean = review._importance["state"]["_chart"]["scorers"]["r2"]["mean"]
    assert decode_binary_array(mean).shape == (3, len(X.columns))
    # The figure: the Display's grouped bars, a bar set per cohort.
    figure = review.figure("importance")
    legend = figure.axes[0].get_legend().get_texts()
    assert [t.get_text().split(" ")[0] for t in legend] == ["young", "few", "rest"]


def test_effects_per_cohort_are_the_mean_of_their_curves_no_prediction(messy):
    model, X, y = messy
    plain = inspector(model, X, y, selected_features=["x0"])
    alone = rows_predicted("EmbeddedPartialDependenceWidget")
    Counted.predicted = []
    review = inspector(model, X, y, selected_features=["x0"], cohorts={"yp": RULE})
    # Split by cohorts: the same rows predicted as without.
    assert rows_predicted("EmbeddedPartialDependenceWidget") == alone
    effects = review.views["effects"]
    assert effects.split_by == COHORT_SPLIT
    groups = effects._curve["groups"]
    assert groups["labels"] == ["yp", "rest"]  # as listed: one colour each
    result = effects.result
    inside = young_pro(X)
    frame = review.to_frame("effects")
    own = frame[frame["subgroup"] == "yp"]["average"].to_numpy()
    # The mean of the cohort's ICE curves, written out here.
    assert_blas_close(own, result.individual[0][inside].mean(axis=0))
    expected = subgroup_partial_dependence(result, np.where(inside, "yp", "rest"))
    assert_array_equal(own, expected.average[list(expected.labels).index("yp"), 0])
    # Other cohorts: redrawn from the same curves, no prediction.
    Counted.predicted = []
    review.cohorts = [{"name": "high", "rule": "x1 > 0.5"}]
    review.wait(timeout=60)
    assert rows_predicted("EmbeddedPartialDependenceWidget") == 0
    groups = effects._curve["groups"]
    high = int((X["x1"] > 0.5).sum())
    assert dict(zip(groups["labels"], groups["sizes"], strict=True)) == {
        "high": high,
        "rest": N_ROWS - high,
    }
    plain.close()


def test_a_bad_rule_is_refused_and_the_cohorts_kept(messy):
    model, X, y = messy
    review = inspector(model, X, y, cohorts={"young pro": RULE})
    kept = list(review.cohorts)
    with pytest.raises(traitlets.TraitError, match="'agee' is not a column of X"):
        review.cohorts = [{"name": "bad", "rule": "agee < 3"}]
    assert review.cohorts == kept
    # From the header's form: the reason shown, the cohorts kept.
    review._on_cohort_message(
        review, {"set_cohorts": [{"name": "bad", "rule": "x0 <"}]}, []
    )
    assert "expected a value, found the end" in review._cohorts_error
    assert review.cohorts == kept
    review._on_cohort_message(
        review, {"set_cohorts": [{"name": "high", "rule": "x1 > 0.5"}]}, []
    )
    assert review._cohorts_error == ""
    assert review.cohorts == [{"name": "high", "rule": "x1 > 0.5"}]


@pytest.mark.parametrize(
    ("cohorts", "message"),
    [
        ({"rest": "x0 < 0"}, "'rest' names the rows in no cohort"),
        ({"a": "plan < 'pro'"}, "'<' orders numbers only"),
        ([{"name": "a"}], "keys 'name' and 'rule'"),
    ],
)
def test_bad_cohorts_at_construction(messy, cohorts, message):
    model, X, y = messy
    with pytest.raises((ValueError, TypeError), match=message):
        ModelInspector(model, X, y, cohorts=cohorts, run=False)


def test_removing_cohorts_clears_every_view(messy):
    model, X, y = messy
    review = inspector(model, X, y, selected_features=["x0"], cohorts={"yp": RULE})
    review.cohorts = []
    review.wait(timeout=60)
    assert review.views["effects"].split_by is None
    assert review.views["importance"].split_by is None
    assert COHORT_SPLIT not in review.views["importance"]._split_options
    assert "cohort" not in review.to_frame("header")
    assert "subgroup" not in review.to_frame("importance")
    assert review._header["cohorts"] == []


def test_the_split_by_offers_cohorts_beside_the_columns(messy):
    model, X, y = messy
    review = inspector(model, X, y, cohorts={"yp": RULE})
    importance = review.views["importance"]
    assert importance._split_options[-1] == COHORT_SPLIT
    # Another split chosen in the dropdown: that column's subgroups.
    review._on_message(review, {"view": "importance", "set": {"split_by": "plan"}}, [])
    review.wait(timeout=60)
    assert set(review.to_frame("importance")["subgroup"]) == {"basic", "pro"}
    # Other cohorts: split by them again, their numbers.
    review.cohorts = [{"name": "high", "rule": "x1 > 0.5"}]
    assert importance.split_by == COHORT_SPLIT
    review.wait(timeout=60)
    frame = review.to_frame("importance")
    assert list(frame["subgroup"].unique()) == ["high", "rest"]
    high = (X["x1"] > 0.5).to_numpy()
    assert frame[frame["subgroup"] == "high"]["size"].iloc[0] == high.sum()
    scores = {e["name"]: e["scores"]["r2"] for e in review._header["cohorts"]}
    assert_blas_close(scores["high"], r2_score(y[high], model.predict(X[high])))


def test_the_training_view_splits_by_the_cohorts_on_its_rows(messy):
    model, X, y = messy
    X_train, y_train = X.iloc[:120], y[:120]
    review = inspector(
        model, X, y, X_train=X_train, y_train=y_train, cohorts={"yp": RULE}
    )
    review.importance_on = "train"
    review.wait(timeout=60)
    frame = review.to_frame("importance_train")
    inside = young_pro(X_train)
    assert frame[frame["subgroup"] == "yp"]["size"].iloc[0] == inside.sum()
    expected = permutation_importance(
        model, X_train[inside], y_train[inside], n_repeats=3, random_state=0
    )
    ours = frame[frame["subgroup"] == "yp"]
    table = ours.pivot(index="feature", columns="repeat", values="importance")
    assert_blas_close(table.loc[list(X.columns)].to_numpy(), expected.importances)


@pytest.mark.parametrize("gone", ["cohort_importance", "cohort_effects"])
def test_the_cohorts_own_tables_say_where_they_went(messy, gone):
    model, X, y = messy
    review = ModelInspector(model, X, y, cohorts={"yp": RULE}, run=False)
    view = gone.removeprefix("cohort_")
    with pytest.raises(ValueError, match=rf"call to_frame\('{view}'\)"):
        review.to_frame(gone)
    with pytest.raises(ValueError, match=rf"call figure\('{view}'\)"):
        review.figure(gone)


def test_cancel_ends_the_cohort_run_never_running(messy):
    model, X, y = messy
    review = inspector(model, X, y)
    review.cohorts = [{"name": "north", "rule": "region == 'north'"}]
    review.cancel()
    statuses = review.wait(timeout=60)
    assert statuses["importance"] in ("cancelled", "done")
    review.views["importance"].run()
    assert review.wait(timeout=60)["importance"] == "done"
    assert set(review.to_frame("importance")["subgroup"]) == {"north", "rest"}


def test_50_random_changes_end_in_sklearns_numbers_for_the_last(messy):
    model, X, y = messy
    review = inspector(model, X, y, selected_features=["x0"])
    rng = np.random.RandomState(1)
    rules = [
        "x1 < {t}",
        "x0 >= {t} and region != 'north'",
        "(member == True or seats is missing) and x1 > {t}",
        "region in ['south'] and plan = 'basic'",
    ]
    for _ in range(50):
        if rng.rand() < 0.2:
            review.n_repeats = int(rng.randint(1, 4))
        elif rng.rand() < 0.1:
            review.cohorts = []
        else:
            rule = rules[rng.randint(len(rules))]
            threshold = round(float(rng.uniform(-0.5, 0.5)), 2)
            review.cohorts = [{"name": "c", "rule": rule.format(t=threshold)}]
    if not review.cohorts:
        review.cohorts = [{"name": "c", "rule": "x1 < 0"}]
    statuses = review.wait(timeout=120)
    assert "running" not in statuses.values()
    assert statuses["importance"] == "done"
    rule = review.cohorts[0]["rule"]
    inside = Cohort("c", rule).mask(X)
    frame = review.to_frame("importance")
    cohort = frame[frame["subgroup"] == "c"]
    assert cohort["size"].iloc[0] == inside.sum()
    expected = permutation_importance(
        model,
        X[inside],
        y[inside],
        n_repeats=review.n_repeats,
        random_state=review._random_state,
    )
    table = cohort.pivot(index="feature", columns="repeat", values="importance")
    assert_blas_close(table.loc[list(X.columns)].to_numpy(), expected.importances)
    groups = review.views["effects"]._curve["groups"]
    assert groups["labels"][0] == "c"
    assert groups["sizes"][0] == inside[review.views["effects"]._X.index].sum()


def test_a_saved_review_carries_its_cohorts_whole(messy, tmp_path):
    model, X, y = messy
    name = "young </script><b>pro</b>"
    review = inspector(model, X, y, cohorts={name: RULE})
    page = review.save_html(tmp_path / "review.html").read_text(encoding="utf-8")
    assert "</script><b>" not in page  # escaped in the page's script
    # The state as the page holds it (a JSON script, read as a browser would).
    text = page.split('id="widget-state"')[1].split(">", 1)[1].split("</script>")[0]
    state = json.loads(text)
    saved = state["state"]
    # As the header shows them; the trait as written only feeds the form,
    # hidden without a kernel (an ID's values in a rule: test_saved_text.py).
    assert saved["cohorts"] == []
    shown = saved["_header"]["cohorts"][0]
    assert (shown["name"], shown["rule"]) == (name, RULE)
    importance = saved["_importance"]["state"]
    assert importance["split_by"] == COHORT_SPLIT
    assert importance["_chart"]["groups"]["labels"] == [name, "rest"]
    assert "_cohort_importance" not in saved


def test_a_cluster_rule_made_a_cohort_splits_every_view(messy):
    """Effects' "+ cohort" beside a cluster rule sends the cohorts with the
    rule added (as the header's form): its rows, read by the cohort rule
    language, are the rows the rule's tree leaf holds."""
    model, X, y = messy
    review = inspector(model, X, y, selected_features=["x0"])
    effects = review.views["effects"]
    effects.ice_mode = "clusters"
    review.wait(timeout=60)
    clusters = effects._clusters[1]
    rule = clusters.rules[0][0].rule
    # What the front end sends (js/src/pd/pd_summaries.js withRuleCohort).
    review._on_cohort_message(
        review, {"set_cohorts": [{"name": "cluster 1", "rule": rule}]}, []
    )
    assert review._cohorts_error == ""
    review.wait(timeout=60)
    inside = np.zeros(len(effects._X), dtype=bool)
    inside[clusters.rule_rows[0][0]] = True
    assert_array_equal(Cohort("cluster 1", rule).mask(effects._X), inside)
    assert effects.split_by == COHORT_SPLIT
    assert review.views["importance"].split_by == COHORT_SPLIT
    groups = effects._curve["groups"]
    sizes = dict(zip(groups["labels"], groups["sizes"], strict=True))
    assert sizes["cluster 1"] == inside.sum()
    frame = review.to_frame("importance")
    size = frame[frame["subgroup"] == "cluster 1"]["size"].iloc[0]
    assert size == Cohort("cluster 1", rule).mask(X).sum()
    header = review.to_frame("header")
    assert "cluster 1" in set(header["cohort"])


def test_several_models_score_each_cohort_in_the_header(messy):
    """Several models' Importance view (one run of them all) has no split:
    the header scores each cohort of the reviewed model on its rows, the
    Effects view splits as for one model."""
    model, X, y = messy
    other = Counted().fit(X)
    review = inspector(
        {"first": model, "second": other},
        X,
        y,
        selected_features=["x0"],
        cohorts={"young pro": RULE, "none": "x0 > 5"},
    )
    assert not hasattr(review.views["importance"], "split_by")
    entries = {e["name"]: e for e in review._header["cohorts"]}
    inside = young_pro(X)
    expected = r2_score(y[inside], model.predict(X[inside]))
    assert_blas_close(entries["young pro"]["scores"]["r2"], expected)
    assert entries["none"]["size"] == 0
    assert entries["none"]["scores"] == {}  # no rows, no score (not pending)
    assert review.views["effects"].split_by == COHORT_SPLIT
