"""API edges of issue #52, item 8: `mi.cohorts = {...}` as the argument, the
cohorts' scores before the held-out view has run, and the ICE curves in the
partial dependence widget's `to_frame()`."""

import numpy as np
import pandas as pd
import pytest
import traitlets
from numpy.testing import assert_allclose
from sklearn.ensemble import RandomForestRegressor
from sklearn.metrics import get_scorer

from inspectwidgets import Cohort, ModelInspector, PartialDependenceWidget
from inspectwidgets.widgets._effect_groups import drawn_rows

from sklearn_reference import sklearn_partial_dependence

TIMEOUT = 60


@pytest.fixture(scope="module")
def houses():
    rng = np.random.default_rng(0)
    n = 300
    X = pd.DataFrame(
        {
            "size": rng.normal(size=n),
            "rooms": rng.integers(1, 6, n),
            "city": pd.Categorical(rng.choice(["north", "south"], n)).codes,
        }
    )
    X.loc[::13, "size"] = np.nan
    y = 2 * X["size"].fillna(0) + X["rooms"] + rng.normal(size=n)
    model = RandomForestRegressor(20, random_state=0).fit(X, y)
    return model, X, y


def test_cohorts_assigned_as_the_argument_takes_them(houses):
    model, X, y = houses
    given = ModelInspector(model, X, y, cohorts={"big": "rooms >= 4"}, run=False)
    mi = ModelInspector(model, X, y, run=False)
    mi.cohorts = {"big": "rooms >= 4"}
    assert mi.cohorts == given.cohorts == [{"name": "big", "rule": "rooms >= 4"}]
    mi.cohorts = [Cohort("small", "size < 0")]
    assert mi.cohorts == [{"name": "small", "rule": "size < 0"}]
    # Refused with the argument's reason; the cohorts in force are kept.
    with pytest.raises(ValueError, match="'floors' is not a column") as argument:
        ModelInspector(model, X, y, cohorts={"bad": "floors > 1"}, run=False)
    with pytest.raises(traitlets.TraitError) as assigned:
        mi.cohorts = {"bad": "floors > 1"}
    assert str(assigned.value) == str(argument.value)
    assert mi.cohorts == [{"name": "small", "rule": "size < 0"}]
    mi.cohorts = {}
    assert mi.cohorts == []
    given.close()
    mi.close()


def test_cohort_scores_before_the_held_out_view_has_run(houses):
    model, X, y = houses
    mi = ModelInspector(model, X, y, cohorts={"big": "rooms >= 4"}, run=False)
    frame = mi.to_frame("header")
    r2 = get_scorer("r2")
    big = (X["rooms"] >= 4).to_numpy()
    by_cohort = frame.set_index("cohort")["model"]
    assert_allclose(by_cohort["big"], r2(model, X[big], y[big]))
    assert_allclose(by_cohort["rest"], r2(model, X[~big], y[~big]))
    # The header the page shows has them too.
    scores = {e["name"]: e["scores"]["r2"] for e in mi._header["cohorts"]}
    assert_allclose(scores["big"], r2(model, X[big], y[big]))
    mi.close()


def test_pd_to_frame_has_the_ice_curves_the_chart_draws(houses):
    model, X, y = houses
    X = X.astype({"rooms": float})  # scikit-learn refuses an integer column
    w = PartialDependenceWidget(
        model, X, features="rooms", kind="both", n_ice=25, grid_resolution=5,
        random_state=0,
    )  # fmt: skip
    assert w.wait(TIMEOUT) == "done"
    frame = w.to_frame()
    assert list(frame.columns) == ["rooms", "output", "curve", "row", "value", "done"]
    reference = sklearn_partial_dependence(
        model, X, ["rooms"], kind="both", grid_resolution=5
    )
    average = frame[frame["curve"] == "average"]
    assert average["row"].isna().all()
    assert_allclose(average["value"], reference["average"][0])
    rows = drawn_rows(len(X), 25, 0)
    ice = frame[frame["curve"] == "ice"]
    assert sorted(ice["row"].unique()) == list(rows)
    for row in rows[:3]:
        curve = ice[ice["row"] == row]
        assert_allclose(curve["rooms"].astype(float), reference["grid_values"][0])
        assert_allclose(curve["value"], reference["individual"][0, row])
    w.kind = "average"
    assert w.wait(TIMEOUT) == "done"
    assert list(w.to_frame().columns) == ["rooms", "output", "average", "done"]
    w.close()


def test_figure_header_draws_what_to_frame_header_holds(houses):
    model, X, y = houses
    mi = ModelInspector(
        model, X, y, scoring=["r2", "neg_mean_absolute_error"],
        cohorts={"big": "rooms >= 4"}, run=False,
    )  # fmt: skip
    frame = mi.to_frame("header")
    figure = mi.figure("header")
    assert len(figure.axes) == 2
    for ax, scorer in zip(figure.axes, ["r2", "neg_mean_absolute_error"], strict=True):
        assert ax.get_xlabel() == scorer
        rows = frame[frame["scorer"] == scorer].set_index("cohort")
        expected = [
            rows.loc["all rows", "model"],
            rows.loc["all rows", "dummy"],
            rows.loc["big", "model"],
            rows.loc["rest", "model"],
        ]
        widths = [bar.get_width() for bar in ax.patches]
        assert_allclose(widths, expected)
        assert [t.get_text() for t in ax.get_yticklabels()] == [
            "model", "dummy", f"big (n = {rows.loc['big', 'n_rows']:,})",
            f"rest (n = {rows.loc['rest', 'n_rows']:,})",
        ]  # fmt: skip
    mi.close()
