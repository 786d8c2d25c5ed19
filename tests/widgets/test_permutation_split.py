"""The permutation widget's "split by", without a browser: each subgroup's
bars are scikit-learn's permutation importance on that subgroup's rows."""

import random
import threading

import numpy as np
import pandas as pd
import pytest
from common.gated import GATE_TIMEOUT, HANG_GUARD
from matplotlib.container import BarContainer
from numpy.testing import assert_array_equal
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.inspection import permutation_importance as sklearn_importance
from traitlets import TraitError

from inspectwidgets import (
    PermutationImportanceWidget,
    SubgroupImportanceResult,
    permutation_importance,
    subgroup_permutation_importance,
)
from inspectwidgets.widgets._resampled import CrossValidatedImportance
from inspectwidgets.widgets._serialization import decode_binary_array

from numerics import assert_blas_close

N_ROWS = 240

# The "missing" region is one row: its r2 is undefined (NaN importances,
# kept), which scikit-learn warns about on every score of it.
pytestmark = pytest.mark.filterwarnings("ignore:R\\^2 score is not well-defined")


class Messy(RegressorMixin, BaseEstimator):
    """Reads every kind of column (category, nullable ints and booleans, NaN,
    object strings) as numbers; x0's effect doubles on the "pro" plan."""

    def fit(self, X, y=None):
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X):
        x0 = X["x0"].to_numpy(dtype=float)
        pro = (X["plan"].astype(object) == "pro").to_numpy(dtype=float)
        seats = X["seats"].astype("Float64").fillna(0).to_numpy(dtype=float)
        member = X["member"].astype("Float64").fillna(0.5).to_numpy(dtype=float)
        rate = np.nan_to_num(X["rate"].to_numpy(dtype=float), nan=1.0)
        south = (X["region"] == "south").to_numpy(dtype=float)
        return (
            x0 * (1 + pro)
            + 0.5 * seats
            + member * rate
            + 0.3 * south
            + 0.1 * X["level"].to_numpy(dtype=float)
        )


@pytest.fixture(scope="module")
def messy():
    rng = np.random.RandomState(0)
    X = pd.DataFrame(
        {
            "x0": rng.normal(size=N_ROWS),
            "plan": pd.Categorical(rng.choice(["basic", "pro", "team"], N_ROWS)),
            "seats": pd.array(rng.randint(0, 3, N_ROWS), dtype="Int64"),
            "member": pd.array(rng.rand(N_ROWS) > 0.5, dtype="boolean"),
            "rate": rng.choice([0.5, 1.5, np.nan], N_ROWS, p=[0.5, 0.45, 0.05]),
            "region": rng.choice(["north", "south"], N_ROWS).astype(object),
            "level": rng.randint(0, 4, N_ROWS),
        }
    )
    X.loc[:9, "seats"] = pd.NA  # 10 rows: a small "missing" subgroup
    X.loc[5, "member"] = pd.NA
    X.loc[3, "region"] = None
    model = Messy().fit(X)
    y = model.predict(X) + 0.3 * rng.normal(size=N_ROWS)
    return model, X, y


def subgroup_rows(column, label):
    """The rows of `label` in `column`, as a reader of the data finds them."""
    if label == "missing":
        return column.isna().to_numpy()
    return (column.astype(object) == label).fillna(False).to_numpy(dtype=bool)


@pytest.mark.parametrize(
    "column", ["plan", "seats", "member", "rate", "region", "level"]
)
def test_each_subgroup_is_scikit_learns_importance_on_its_rows(messy, column):
    model, X, y = messy
    before = X.copy()
    w = PermutationImportanceWidget(
        model, X, y, n_repeats=3, random_state=7, split_by=column
    )
    assert w.wait(timeout=HANG_GUARD) == "done"
    result = w.result
    assert isinstance(result, SubgroupImportanceResult)
    assert result.sizes.sum() == N_ROWS  # no row dropped, missing ones too
    for label, group in zip(result.labels, result.results, strict=True):
        rows = subgroup_rows(X[column], label)
        assert rows.sum() == group_size(result, label)
        expected = sklearn_importance(
            model, X[rows], y[rows], n_repeats=3, random_state=7, scoring="r2"
        )
        assert_blas_close(group.importances("r2"), expected.importances)
    pd.testing.assert_frame_equal(X, before)  # the input is not mutated


def group_size(result, label):
    return int(result.sizes[list(result.labels).index(label)])


def test_the_chart_frame_and_figure_show_every_subgroup(messy):
    model, X, y = messy
    w = PermutationImportanceWidget(
        model, X, y, n_repeats=2, split_by="seats", max_features=3
    )
    assert w.wait(timeout=HANG_GUARD) == "done"
    result = w.result
    assert "missing" in result.labels
    small = dict(zip(result.labels, result.small, strict=True))
    assert small["missing"] and not small[1]  # 10 rows, below 30: flagged
    # The chart: the subgroups with their sizes, the top 3 features by the
    # size-weighted mean, each subgroup's mean as (subgroups, features).
    chart = w._chart
    assert chart["groups"]["labels"] == [str(v) for v in result.labels]
    assert chart["groups"]["sizes"] == result.sizes.tolist()
    assert chart["groups"]["small"] == result.small.tolist()
    block = chart["scorers"]["r2"]
    shown, hidden = result.top("r2", 3)
    assert block["features"] == [result.feature_names[i] for i in shown]
    assert block["n_hidden"] == hidden == len(X.columns) - 3
    assert_array_equal(
        decode_binary_array(block["mean"]),
        result.importances_mean("r2")[:, shown].astype("float32"),
    )
    # The frame: one row per subgroup, feature and repeat.
    frame = w.to_frame()
    assert list(frame.columns[:4]) == ["subgroup", "size", "n_permuted", "small"]
    assert len(frame) == len(result.labels) * len(X.columns) * 2
    assert set(frame["subgroup"]) == set(result.labels)
    assert frame.loc[frame["subgroup"] == "missing", "small"].all()
    # The figure: a bar per subgroup, its size in the legend, small greyed.
    ax = w.figure().axes[0]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[-1] == "missing (n=10) - few rows"
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert [len(c) for c in bars] == [3] * len(result.labels)
    # Back to every row: the unsplit result, chart and frame.
    w.split_by = None
    assert w.wait(timeout=HANG_GUARD) == "done"
    assert "groups" not in w._chart and "subgroup" not in w.to_frame()


def test_a_split_the_view_cannot_compute_is_refused_naming_it(messy):
    model, X, y = messy
    w = PermutationImportanceWidget(model, X, y, n_repeats=1)
    assert w.wait(timeout=HANG_GUARD) == "done"
    # Columns of 2 to 10 values; x0 (continuous) is not offered.
    assert w._split_options == [
        "plan",
        "seats",
        "member",
        "rate",
        "region",
        "level",
    ]
    before = w.result
    with pytest.raises(TraitError, match="split_by: 'x0' is not a column of 2 to 10"):
        w.split_by = "x0"
    assert w.split_by is None and w.result is before and w.status == "done"
    with pytest.raises(TraitError, match="split_by: 'nope'"):
        PermutationImportanceWidget(model, X, y, split_by="nope", run=False)
    # The conditional method permutes within other subgroups: refused at
    # construction, shown inline when set later.
    with pytest.raises(ValueError, match="split_by: .*method='conditional'"):
        PermutationImportanceWidget(
            model, X, y, split_by="plan", method="conditional", run=False
        )
    w.split_by = "plan"
    assert w.wait(timeout=HANG_GUARD) == "done"
    w.method = "conditional"
    assert w.wait(timeout=HANG_GUARD) == "error"
    assert "split_by" in w.error
    # The cross-validated view: no column offered, none taken.
    cv = CrossValidatedImportance(model, X, y, n_repeats=1, cv=2, run=False)
    assert cv._split_options == []
    with pytest.raises(TraitError, match="CrossValidatedImportance computes"):
        cv.split_by = "plan"
    assert cv.split_by is None


def test_quick_changes_end_in_the_result_of_the_last_settings(messy):
    model, X, y = messy
    rng = random.Random(0)
    w = PermutationImportanceWidget(model, X, y, n_repeats=2)
    for _ in range(20):
        change = rng.choice(["split_by", "n_repeats", "random_state"])
        if change == "split_by":
            w.split_by = rng.choice([None, "plan", "seats", "member"])
        elif change == "n_repeats":
            w.n_repeats = rng.randint(1, 4)
        else:
            w.random_state = rng.randint(0, 100)
    assert w.wait(timeout=HANG_GUARD) == "done"
    params = dict(n_repeats=w.n_repeats, random_state=w.random_state)
    if w.split_by is None:
        expected = permutation_importance(model, X, y, return_result=True, **params)
        assert_blas_close(w.result.importances(), expected.importances())
        return
    expected = subgroup_permutation_importance(
        model, X, y, subgroups=w.split_by, return_result=True, **params
    )
    assert w.result.labels == expected.labels
    assert_blas_close(w.result.importances(), expected.importances())


class GatedMessy(Messy):
    """Messy, whose predict calls wait at a gate once `free_rows` rows were
    predicted (a round of repeats is the features' copies of X)."""

    def __init__(self, free_rows=0):
        self.free_rows = free_rows

    def fit(self, X, y=None):
        self.predicted_rows, self.gate = 0, threading.Event()
        self.waiting = threading.Event()
        return super().fit(X, y)

    def predict(self, X):
        if self.predicted_rows >= self.free_rows:
            self.waiting.set()
            if not self.gate.wait(GATE_TIMEOUT):
                raise TimeoutError("the test never opened the gate")
        self.predicted_rows += len(X)
        return super().predict(X)


def test_stop_keeps_the_repeats_done_and_a_new_split_cancels_the_run(messy):
    _, X, y = messy
    # Free: the baseline and the first round (each feature's permuted copy).
    model = GatedMessy(free_rows=N_ROWS * (1 + X.shape[1])).fit(X)
    w = PermutationImportanceWidget(model, X, y, n_repeats=50, split_by="plan")
    assert model.waiting.wait(GATE_TIMEOUT)  # a later round waits at the gate
    assert w.status == "running" and w.result.n_repeats_done >= 1
    w._stop_requests += 1  # the Stop button
    model.gate.set()
    assert w.wait(timeout=HANG_GUARD) == "cancelled"
    done = w.result.n_repeats_done
    assert 1 <= done < 50 and isinstance(w.result, SubgroupImportanceResult)
    assert w.to_frame()["repeat"].max() == done - 1
    # Another column: a new run, shown once done, never left "running".
    w.split_by = "region"
    assert w.wait(timeout=HANG_GUARD) == "done"
    assert set(w.result.labels) == {"north", "south", "missing"}
    assert w.result.n_repeats_done == 50


def test_the_inspectors_held_out_view_splits_and_keeps_its_overview(messy):
    from inspectwidgets import ModelInspector

    model, X, y = messy
    errors = []
    hook, threading.excepthook = threading.excepthook, errors.append
    try:
        inspector = ModelInspector(model, X, y, n_repeats=2)
        inspector.wait(timeout=HANG_GUARD)
        effects = inspector.views["effects"]
        order = effects._overview_importances
        view = inspector.views["importance"]
        assert view._split_options  # the held-out view offers the columns
        view.split_by = "plan"
        assert view.wait(timeout=HANG_GUARD) == "done"
        inspector.wait(timeout=HANG_GUARD)
    finally:
        threading.excepthook = hook
    assert errors == []  # no worker thread failed on the subgroups' result
    assert set(inspector.to_frame("importance")["subgroup"]) == {"basic", "pro", "team"}
    # The Effects overview keeps the order of the unsplit importances.
    assert order is not None and effects._overview_importances == order
