"""The partial dependence widget's "split by" and ICE summaries, without a
browser: the payload is the engine's numbers, from the same predictions."""

import numpy as np
import pandas as pd
import pytest
import traitlets
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import BaseEstimator, RegressorMixin

from inspectwidgets import (
    PartialDependenceWidget,
    ice_clusters,
    ice_percentiles,
    partial_dependence,
    subgroup_partial_dependence,
)
from inspectwidgets.widgets._options import MAX_SPLIT_VALUES
from inspectwidgets.widgets._serialization import decode_binary_array

N_ROWS = 300
GRID = 8


class Interaction(RegressorMixin, BaseEstimator):
    """x0's effect flips with the sign of x1; counts the rows it predicts."""

    predicted: list = []

    def fit(self, X, y=None):
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X):
        Interaction.predicted.append(len(X))
        x0 = np.asarray(X["x0"], dtype=float)
        x1 = np.asarray(X["x1"], dtype=float)
        return np.where(x1 > 0, x0, -x0) * (1 + 0.2 * np.abs(x1)) + 0.1 * x1


@pytest.fixture
def messy():
    rng = np.random.RandomState(0)
    X = pd.DataFrame(
        {
            "x0": rng.uniform(-1, 1, N_ROWS),
            "x1": rng.uniform(-1, 1, N_ROWS),
            "plan": pd.Categorical(rng.choice(["basic", "pro", "team"], N_ROWS)),
            "seats": pd.array(rng.randint(0, 3, N_ROWS), dtype="Int64"),
            "region": rng.choice(["north", "south"], N_ROWS).astype(object),
            "rate": rng.choice([0.5, 1.5, np.nan], N_ROWS, p=[0.5, 0.45, 0.05]),
            "member": pd.array(rng.rand(N_ROWS) > 0.5, dtype="boolean"),
        }
    )
    X.loc[:9, "seats"] = pd.NA  # 10 rows: a small "missing" group
    X.loc[3, "region"] = None
    X.loc[5, "member"] = pd.NA
    Interaction.predicted = []
    return Interaction().fit(X), X


def engine_result(model, X):
    return partial_dependence(
        model,
        X,
        ["x0"],
        grid_resolution=GRID,
        kind="both",
        n_ice=None,
        method="brute",
        random_state=0,
        return_result=True,
    )


def widget(model, X, **kwargs):
    w = PartialDependenceWidget(model, X, features="x0", grid_resolution=GRID, **kwargs)
    assert w.wait(timeout=60) == "done"
    return w


def test_split_options_are_the_low_cardinality_columns(messy):
    model, X = messy
    w = PartialDependenceWidget(model, X, features="x0", run=False)
    assert w._split_options == ["plan", "seats", "region", "rate", "member"]
    wide = X.assign(many=np.arange(N_ROWS) % (MAX_SPLIT_VALUES + 1))
    w = PartialDependenceWidget(Interaction().fit(wide), wide, features="x0", run=False)
    assert "many" not in w._split_options


@pytest.mark.parametrize("column", ["plan", "seats", "region", "rate", "member"])
def test_each_groups_curve_is_the_engines_subgroup_partial_dependence(messy, column):
    model, X = messy
    w = widget(model, X, split_by=column)
    groups = w._curve["groups"]
    expected = subgroup_partial_dependence(engine_result(model, X), X[column])
    assert groups["labels"] == [str(label) for label in expected.labels]
    assert groups["sizes"] == expected.sizes.tolist()
    assert sum(groups["sizes"]) == N_ROWS  # no row dropped
    assert groups["small"] == expected.small.tolist()
    assert groups["min_size"] == expected.min_size
    assert_allclose(
        decode_binary_array(groups["average"]), expected.average[:, 0], rtol=1e-6
    )
    if X[column].isna().any():
        assert groups["labels"][-1] == "missing"
    X_before = X.copy()
    assert X.equals(X_before)


def test_the_small_missing_group_is_kept_and_flagged(messy):
    model, X = messy
    groups = widget(model, X, split_by="seats")._curve["groups"]
    at = groups["labels"].index("missing")
    assert groups["sizes"][at] == 10 and groups["small"][at]
    assert not any(s for i, s in enumerate(groups["small"]) if i != at)


def test_splits_and_summaries_predict_nothing_more(messy):
    model, X = messy
    widget(model, X)  # thin lines of 100 drawn rows
    plain = sum(Interaction.predicted)
    Interaction.predicted = []
    w = widget(model, X, split_by="plan")
    assert sum(Interaction.predicted) == plain == N_ROWS * GRID
    for change in [
        {"split_by": "region"},
        {"ice_mode": "bands"},
        {"ice_mode": "clusters"},
        {"split_by": None},
        {"ice_mode": "lines"},
        {"split_by": "seats"},
    ]:
        for name, value in change.items():
            setattr(w, name, value)
        assert w.wait(timeout=60) == "done"
    assert sum(Interaction.predicted) == plain
    assert w._curve["groups"]["labels"][-1] == "missing"


def test_bands_and_clusters_are_the_engines(messy):
    model, X = messy
    result = engine_result(model, X)
    w = widget(model, X, ice_mode="bands")
    bands = w._curve["bands"]
    expected = ice_percentiles(result)
    assert bands["percentiles"] == [5.0, 25.0, 50.0, 75.0, 95.0]
    assert_allclose(decode_binary_array(bands["values"]), expected.values[0], rtol=1e-6)
    w.ice_mode = "clusters"
    clusters = w._curve["clusters"]
    expected = ice_clusters(result, X, random_state=0)
    assert clusters["sizes"] == expected.sizes.tolist()
    assert_allclose(
        decode_binary_array(clusters["average"]), expected.average[:, 0], rtol=1e-6
    )
    assert [[r["rule"] for r in rules] for rules in clusters["rules"]] == [
        [r.rule for r in rules] for rules in expected.rules
    ]
    # The drawn thin lines are still the 100 rows n_ice draws.
    assert decode_binary_array(w._curve["individual"]).shape == (100, GRID)


def test_a_cluster_rule_splits_its_rows_from_the_others(messy):
    model, X = messy
    w = widget(model, X, ice_mode="clusters")
    rule = w._curve["clusters"]["rules"][0][0]
    w.split_by = rule["rule"]
    groups = w._curve["groups"]
    sizes = dict(zip(groups["labels"], groups["sizes"], strict=True))
    assert sizes == {rule["rule"]: rule["size"], "other rows": N_ROWS - rule["size"]}
    # The rule is x1's sign (the threshold between the two rows nearest 0),
    # read independently of the tree's text.
    x1 = X["x1"].to_numpy()
    inside = x1 <= x1[x1 < 0].max() if "<=" in rule["rule"] else x1 > x1[x1 < 0].max()
    labels = np.where(inside, rule["rule"], "other rows")
    expected = subgroup_partial_dependence(engine_result(model, X), labels)
    assert groups["labels"] == list(expected.labels)
    assert_allclose(
        decode_binary_array(groups["average"]), expected.average[:, 0], rtol=1e-6
    )


@pytest.mark.parametrize(
    "name, value, message",
    [
        ("split_by", "x0", "not a column of at most 10 distinct values"),
        ("split_by", "nope", "'nope'"),
        ("split_by", 3, "split_by"),
        ("ice_mode", "violin", "ice_mode"),
    ],
)
def test_bad_values_are_refused_naming_the_trait(messy, name, value, message):
    model, X = messy
    w = PartialDependenceWidget(model, X, features="x0", run=False)
    with pytest.raises(traitlets.TraitError, match=message):
        setattr(w, name, value)
    with pytest.raises(traitlets.TraitError, match=message):
        PartialDependenceWidget(model, X, features="x0", run=False, **{name: value})


def test_two_features_and_average_kind_carry_no_summary(messy):
    model, X = messy
    w = widget(model, X, split_by="plan", kind="average", ice_mode="bands")
    assert w._curve["individual"] is None and w._curve["bands"] is None
    assert len(w._curve["groups"]["labels"]) == 3
    w.features = ["x0", "x1"]
    assert w.wait(timeout=60) == "done"
    assert "groups" not in w._curve


def test_engine_rule_rows_are_each_leafs_rows(messy):
    model, X = messy
    clusters = ice_clusters(engine_result(model, X), X, random_state=0)
    assert clusters.rule_rows is not None
    for c, (rules, members) in enumerate(
        zip(clusters.rules, clusters.rule_rows, strict=True)
    ):
        for rule, rows in zip(rules, members, strict=True):
            in_cluster = clusters.labels[rows] == c
            assert len(rows) == rule.size
            assert in_cluster.mean() == pytest.approx(rule.precision)
            assert in_cluster.sum() / clusters.sizes[c] == pytest.approx(rule.coverage)
    every = np.sort(np.concatenate([r for m in clusters.rule_rows for r in m]))
    assert_array_equal(every, np.arange(N_ROWS))  # the leaves part the rows


def test_other_rows_drop_a_rule_split_and_keep_a_column_split(messy):
    model, X = messy
    w = widget(model, X, ice_mode="clusters")
    w.split_by = w._curve["clusters"]["rules"][0][0]["rule"]
    w.max_rows = 200  # another subsample: the rule's rows were of the old one
    assert w.wait(timeout=60) == "done"
    assert w.split_by is None and w._curve["groups"] is None
    w.split_by = "plan"
    w.max_rows = 150
    assert w.wait(timeout=60) == "done"
    assert w.split_by == "plan" and sum(w._curve["groups"]["sizes"]) == 150


def test_fifty_random_changes_end_on_the_engines_numbers(messy):
    """Seeded random changes of the split, the mode and the settings that
    rerun, without waiting: the final payload is the engine's for the final
    settings."""
    model, X = messy
    rng = np.random.RandomState(3)
    w = PartialDependenceWidget(model, X, features="x0", grid_resolution=GRID)
    for _ in range(50):
        change = rng.choice(["split_by", "ice_mode", "kind", "centered", "grid"])
        if change == "split_by":
            w.split_by = rng.choice([None, "plan", "seats", "region", "rate", "member"])
        elif change == "ice_mode":
            w.ice_mode = rng.choice(["lines", "bands", "clusters"])
        elif change == "kind":
            w.kind = rng.choice(["average", "individual", "both"])
        elif change == "centered":
            w.centered = not w.centered
        else:
            w.grid_resolution = int(rng.randint(3, 9))
    if w.split_by is None:
        w.split_by = "seats"
    w.ice_mode = "bands"
    w.kind = "both"
    assert w.wait(timeout=60) == "done"
    result = partial_dependence(
        model,
        X,
        ["x0"],
        grid_resolution=w.grid_resolution,
        kind="both",
        centered=w.centered,
        n_ice=None,
        method="brute",
        return_result=True,
    )
    groups = subgroup_partial_dependence(result, X[w.split_by])
    assert w._curve["groups"]["sizes"] == groups.sizes.tolist()
    assert_allclose(
        decode_binary_array(w._curve["groups"]["average"]),
        groups.average[:, 0],
        rtol=1e-6,
        atol=1e-9,
    )
    assert_allclose(
        decode_binary_array(w._curve["bands"]["values"]),
        ice_percentiles(result).values[0],
        rtol=1e-6,
        atol=1e-9,
    )


# ---- to_frame() and figure() follow what the chart shows ----------------------


def legend_texts(figure):
    return [t.get_text() for t in figure.axes[0].get_legend().get_texts()]


@pytest.mark.parametrize("column", ["seats", "member", "region"])
def test_a_split_frame_and_figure_are_each_subgroups_curve(messy, column):
    model, X = messy
    w = widget(model, X, split_by=column)
    expected = subgroup_partial_dependence(engine_result(model, X), X[column])
    frame = w.to_frame()
    pd.testing.assert_frame_equal(
        frame.drop(columns="average"), expected.to_frame().drop(columns="average")
    )
    assert_allclose(frame["average"], expected.to_frame()["average"], rtol=1e-12)
    assert frame.groupby("subgroup", dropna=False)["size"].first().sum() == N_ROWS
    legend = legend_texts(w.figure())
    for label, size, small in zip(
        expected.labels, expected.sizes, expected.small, strict=True
    ):
        entry = next(t for t in legend if t.startswith(f"{label} (n={size:,}"))
        assert ("few rows" in entry) == bool(small)
    # No split: the average over the grid again, and the n_ice thin lines.
    w.split_by = None
    assert w.wait(timeout=60) == "done"
    assert "subgroup" not in w.to_frame()
    assert len(w.figure().axes[0].lines) == 100 + 1


def test_bands_and_clusters_frames_and_figures_are_the_engines(messy):
    model, X = messy
    result = engine_result(model, X)
    w = widget(model, X, ice_mode="bands")
    bands = ice_percentiles(result).to_frame()
    frame = w.to_frame()
    assert list(frame.columns) == list(bands.columns)
    assert_allclose(frame["value"], bands["value"], rtol=1e-12)
    ax = w.figure().axes[0]
    assert len(ax.collections) >= 2  # the 5-95 and 25-75 bands
    w.ice_mode = "clusters"
    assert w.wait(timeout=60) == "done"
    clusters = ice_clusters(result, X, random_state=0)
    frame = w.to_frame()
    assert frame.groupby("cluster")["size"].first().tolist() == clusters.sizes.tolist()
    assert_allclose(frame["average"], clusters.to_frame()["average"], rtol=1e-12)
    legend = legend_texts(w.figure())
    assert sum(t.startswith("cluster") for t in legend) == clusters.n_clusters
    # A rule clicked: the frame holds its rows' curve and the other rows'.
    rule = clusters.rules[0][0]
    w.split_by = rule.rule
    frame = w.to_frame()
    sizes = frame.groupby("subgroup")["size"].first().to_dict()
    assert sizes == {rule.rule: rule.size, "other rows": N_ROWS - rule.size}
    w.split_by = None
    # kind="average" draws no ICE: no summary in the frame either.
    w.kind = "average"
    assert w.wait(timeout=60) == "done"
    assert list(w.to_frame().columns) == list(result.to_frame().columns)
