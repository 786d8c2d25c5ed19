"""A categorical feature's missing values are a category of their own in its
ALE (issue #52, item 9): the same ALE as with the missing values written as a
category, for a model that reads both alike; labelled "missing" where drawn."""

import matplotlib
import numpy as np
import pandas as pd
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.compose import make_column_transformer
from sklearn.impute import SimpleImputer
from sklearn.linear_model import Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

from inspectwidgets import accumulated_local_effects
from inspectwidgets.plotting import AccumulatedLocalEffectsDisplay

matplotlib.use("Agg")


def _churn():
    rng = np.random.default_rng(0)
    n = 400
    X = pd.DataFrame(
        {
            "tenure": rng.integers(0, 72, n).astype(float),
            # NaN, not None: pandas 2 keeps None in an object column, where
            # scikit-learn's imputer does not see it as missing.
            "plan": pd.Series(rng.choice(["basic", "pro", "team", "?"], n)).replace(
                "?", np.nan
            ),
        }
    )
    X.loc[::17, "tenure"] = np.nan
    y = (
        np.nan_to_num(X["tenure"]) / 10
        + 3 * (X["plan"] == "pro")
        + 5 * X["plan"].isna()
        + rng.normal(size=n)
    )
    # A missing plan is read as the plan "zz".
    plan = make_pipeline(
        SimpleImputer(strategy="constant", fill_value="zz"), OneHotEncoder()
    )
    encode = make_column_transformer((plan, ["plan"]), (SimpleImputer(), ["tenure"]))
    return make_pipeline(encode, Ridge()).fit(X, y), X


def test_missing_values_are_a_category_of_their_own():
    model, X = _churn()
    ale = accumulated_local_effects(model, X, "plan", categorical_features=["plan"])
    written = accumulated_local_effects(
        model, X.assign(plan=X["plan"].fillna("zz")), "plan",
        categorical_features=["plan"],
    )  # fmt: skip
    order = [("zz" if pd.isna(c) else c) for c in ale.edges[0]]
    assert_array_equal(order, written.edges[0])
    assert_allclose(ale.uncentered, written.uncentered)
    assert_allclose(ale.to_frame()["effect"], written.to_frame()["effect"])
    assert_array_equal(ale.bin_counts, written.bin_counts)
    assert ale.bin_counts[list(map(pd.isna, ale.edges[0])).index(True)] == int(
        X["plan"].isna().sum()
    )
    display = AccumulatedLocalEffectsDisplay(ale).plot()
    # The ticks are labelled under the rows-per-bin strip, which shares x.
    labels = [t.get_text() for t in display.bars_ax_.get_xticklabels()]
    assert "missing" in labels and "nan" not in labels
