"""ALE within subgroups: each subgroup's ALE is the ALE computed on that
subgroup's rows alone (its own bins and weights), for labels of any dtype."""

import threading

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.ensemble import HistGradientBoostingRegressor
from threadpoolctl import threadpool_limits

from inspectwidgets import (
    accumulated_local_effects,
    subgroup_accumulated_local_effects,
)


@pytest.fixture(scope="module")
def messy():
    rng = np.random.RandomState(0)
    n = 500
    X = pd.DataFrame(
        {
            "tenure": rng.uniform(0, 1, n),
            "visits": pd.array(rng.randint(0, 6, n), dtype="Int64"),
            "plan": pd.Categorical(rng.choice(["basic", "pro", "team"], n)),
        }
    )
    X.loc[rng.rand(n) < 0.05, "tenure"] = np.nan
    slope = X["plan"].map({"basic": -1.0, "pro": 2.0, "team": 0.5}).astype(float)
    y = slope * X["tenure"].fillna(0.5) + 0.1 * X["visits"].astype(float)
    with threadpool_limits(limits=1):
        model = HistGradientBoostingRegressor(
            max_iter=40, categorical_features="from_dtype", random_state=0
        ).fit(X, y)
    return model, X


@pytest.fixture(autouse=True)
def one_thread():
    with threadpool_limits(limits=1):
        yield


def test_each_subgroup_is_the_ale_of_its_rows(messy):
    model, X = messy
    weight = np.linspace(0.5, 2, len(X))
    nullable = pd.array(np.arange(len(X)) % 3, dtype="Int64")
    nullable[:4] = pd.NA
    for labels in (X["plan"], "plan", nullable, (X["visits"] > 2).to_numpy()):
        by_group = subgroup_accumulated_local_effects(
            model, X, "tenure", subgroups=labels, sample_weight=weight,
            grid_resolution=6,
        )  # fmt: skip
        series = X["plan"] if isinstance(labels, str) else pd.Series(labels)
        assert by_group.sizes.sum() == len(X)
        for label, result in zip(by_group.labels, by_group.results, strict=True):
            same = series.isna() if label == "missing" else series.eq(label)
            mask = same.fillna(False).to_numpy(dtype=bool)
            expected = accumulated_local_effects(
                model, X[mask], "tenure", sample_weight=weight[mask],
                grid_resolution=6,
            )  # fmt: skip
            assert_array_equal(result.centered, expected.centered)
            assert_array_equal(result.edges[0], expected.edges[0])
    slopes = {
        label: r.centered[0, -1] - r.centered[0, 0]
        for label, r in zip(by_group.labels, by_group.results, strict=True)
    }
    assert set(slopes) == {True, False}


def test_tiny_subgroups_are_kept_with_a_note(messy):
    model, X = messy
    labels = X["plan"].astype(object).to_numpy().copy()
    labels[0] = "alone"
    by_group = subgroup_accumulated_local_effects(
        model, X, "tenure", subgroups=labels, grid_resolution=5
    )
    alone = by_group.labels.index("alone")
    assert by_group.small[alone] and by_group.sizes[alone] == 1
    assert by_group.results[alone] is None
    assert "at least two" in by_group.notes[alone]
    table = by_group.to_frame()
    assert list(table.columns[:3]) == ["subgroup", "size", "small"]
    assert "alone" not in set(table["subgroup"])
    assert set(table["subgroup"]) == set(by_group.labels) - {"alone"}


def test_cancel_and_bad_inputs(messy):
    model, X = messy
    cancel = threading.Event()
    cancel.set()
    cancelled = subgroup_accumulated_local_effects(
        model, X, "tenure", subgroups="plan", cancel=cancel
    )
    assert cancelled.notes == ("cancelled",) * len(cancelled.labels)
    before = X.copy()
    with pytest.raises(ValueError, match="subgroups: unknown feature 'region'"):
        subgroup_accumulated_local_effects(model, X, "tenure", subgroups="region")
    with pytest.raises(ValueError, match=r"subgroups has shape \(2,\)"):
        subgroup_accumulated_local_effects(model, X, "tenure", subgroups=[1, 2])
    with pytest.raises(ValueError, match="min_size must be an int >= 1"):
        subgroup_accumulated_local_effects(
            model, X, "tenure", subgroups="plan", min_size=-1
        )
    with pytest.raises(TypeError, match="no callback"):
        subgroup_accumulated_local_effects(
            model, X, "tenure", subgroups="plan", callback=print
        )
    # A bad argument fails for a subgroup of many rows too: raised, not noted.
    with pytest.raises(ValueError, match="grid_resolution"):
        subgroup_accumulated_local_effects(
            model, X, "tenure", subgroups="plan", grid_resolution=0
        )
    pd.testing.assert_frame_equal(X, before)
