"""Missing values in a partial dependence's features: scikit-learn's grid by
default (refused where scikit-learn's is all NaN), and ``missing="observed"``:
the grid of the observed values, then the missing value as its own point,
compared with scikit-learn on that grid and with predictions written out."""

import copy

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.compose import make_column_transformer
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OrdinalEncoder

from inspectwidgets import partial_dependence

from sklearn_reference import sklearn_partial_dependence

pytestmark = pytest.mark.usefixtures("quiet_single_threaded")


@pytest.fixture(scope="module")
def churn():
    """200 rows: a numeric feature with 6 % NaN, strings with NaN, a
    histogram-boosting pipeline that takes both."""
    rng = np.random.default_rng(0)
    n = 200
    X = pd.DataFrame(
        {
            "charges": rng.gamma(2.0, 30.0, n),
            "score": rng.normal(size=n),
            "plan": rng.choice(["basic", "plus", "pro"], n).astype(object),
        }
    )
    X.loc[rng.random(n) < 0.06, "charges"] = np.nan
    X.loc[rng.random(n) < 0.06, "plan"] = np.nan
    signal = np.nan_to_num(X["charges"].to_numpy(), nan=150.0) / 40 - 2
    y = np.where(rng.random(n) < 1 / (1 + np.exp(-signal)), "left", "stayed")
    encode = make_column_transformer(
        (OrdinalEncoder(encoded_missing_value=np.nan), ["plan"]),
        remainder="passthrough",
    )
    model = make_pipeline(encode, HistGradientBoostingClassifier(max_iter=10))
    return model.fit(X, y), X


def test_default_refuses_the_all_nan_grid_scikit_learn_returns(churn):
    model, X = churn
    theirs = sklearn_partial_dependence(model, X, ["charges"], grid_resolution=5)
    assert np.isnan(theirs["grid_values"][0]).all()  # what the user saw
    with pytest.raises(ValueError, match=r"column 'charges' holds 1\d missing.*"
                       "missing='observed'"):  # fmt: skip
        partial_dependence(model, X, ["charges"], grid_resolution=5)


def test_default_keeps_scikit_learns_nan_among_unique_values(churn):
    model, X = churn
    X = X.assign(charges=X["charges"].round(-2))  # a few values, and NaN
    kwargs = dict(grid_resolution=20, kind="both", method="brute")
    theirs = sklearn_partial_dependence(model, X, ["charges"], **kwargs)
    ours = partial_dependence(model, X, ["charges"], **kwargs)
    assert np.isnan(theirs["grid_values"][0][-1])
    assert_array_equal(ours["grid_values"][0], theirs["grid_values"][0])
    assert_array_equal(ours["average"], theirs["average"])
    assert_array_equal(ours["individual"], theirs["individual"])


def test_default_names_the_categorical_column_with_nan(churn):
    model, X = churn
    with pytest.raises(ValueError, match="The column #0 contains mixed data types"):
        sklearn_partial_dependence(model, X, ["plan"], categorical_features=["plan"])
    with pytest.raises(
        ValueError,
        match=r"The column #0 contains mixed data types: column 'plan' holds "
        r"missing values among strings.*missing='observed'",
    ):
        partial_dependence(model, X, ["plan"], categorical_features=["plan"])


@pytest.mark.parametrize("kind", ["average", "both"])
def test_observed_grid_and_missing_point_equal_scikit_learn(churn, kind):
    model, X = churn
    before = copy.deepcopy(X)
    ours = partial_dependence(
        model, X, ["charges"], grid_resolution=7, kind=kind, missing="observed",
        return_result=True,
    )  # fmt: skip
    assert ours.missing == (True,) and ours.method == "brute"
    grid = ours.grid_values[0]
    # The observed values' grid is scikit-learn's on the rows holding a value.
    observed = X.dropna(subset=["charges"])
    theirs = sklearn_partial_dependence(model, observed, ["charges"], grid_resolution=7)
    assert_array_equal(grid[:-1], theirs["grid_values"][0])
    assert np.isnan(grid[-1])
    # Every point, the missing one included, is scikit-learn's on that grid.
    theirs = sklearn_partial_dependence(
        model, X, ["charges"], custom_values={"charges": grid}, kind="both",
        method="brute",
    )  # fmt: skip
    assert_array_equal(ours.average, theirs["average"])
    if kind == "both":
        assert_array_equal(ours.individual, theirs["individual"])
    # The missing point written out: every row with charges missing.
    missing = X.assign(charges=np.nan)
    expected = model.predict_proba(missing)[:, 1].mean()
    assert ours.average[0, -1] == pytest.approx(expected, rel=1e-12)
    pd.testing.assert_frame_equal(X, before)


def test_observed_categorical_levels_then_the_missing_category(churn):
    model, X = churn
    ours = partial_dependence(
        model, X, ["plan"], categorical_features=["plan"], missing="observed",
        kind="both",
    )  # fmt: skip
    grid = ours["grid_values"][0]
    assert list(grid[:-1]) == ["basic", "plus", "pro"] and pd.isna(grid[-1])
    theirs = sklearn_partial_dependence(
        model, X, ["plan"], custom_values={"plan": grid}, kind="both"
    )
    assert_array_equal(ours["average"], theirs["average"])
    assert_array_equal(ours["individual"], theirs["individual"])


def test_observed_drops_the_missing_point_a_model_refuses(churn):
    _, X = churn
    X = X.drop(columns="plan")
    y = (X["score"] > 0).astype(int)
    model = LogisticRegression().fit(X.fillna(0.0), y)
    result = partial_dependence(
        model, X, ["charges"], grid_resolution=5, missing="observed",
        return_result=True,
    )  # fmt: skip
    assert result.missing == (False,)
    assert result.grid_values[0].shape == (5,) and np.isfinite(result.average).all()
    assert "LogisticRegression does not take a missing 'charges'" in (
        result.missing_note
    )


def test_observed_refuses_the_recursion_and_resolves_auto_to_brute(churn):
    model, X = churn
    final = model[-1]
    Xt = pd.DataFrame(model[0].transform(X), columns=model[0].get_feature_names_out())
    with pytest.raises(ValueError, match="method='recursion' cannot compute"):
        partial_dependence(final, Xt, [1], method="recursion", missing="observed")
    result = partial_dependence(final, Xt, [1], missing="observed", return_result=True)
    assert result.method == "brute" and result.missing == (True,)
    # Without missing values, "auto" stays scikit-learn's choice.
    result = partial_dependence(final, Xt, [2], missing="observed", return_result=True)
    assert result.method == "recursion" and result.missing == (False,)


def test_observed_all_missing_column_names_it(churn):
    model, X = churn
    X = X.assign(empty=np.nan)
    with pytest.raises(ValueError, match="column 'empty' holds only missing values"):
        partial_dependence(model, X, ["empty"], missing="observed")


def test_missing_keyword_is_checked(churn):
    model, X = churn
    with pytest.raises(ValueError, match="missing must be one of.*got 'drop'"):
        partial_dependence(model, X, ["score"], missing="drop")


def test_mixed_types_without_missing_values_are_named_not_blamed_on_nan():
    X = pd.DataFrame({"code": np.array([1, "x", 2.5, "y"], dtype=object)})
    model = LogisticRegression().fit(np.arange(4.0)[:, None], [0, 1, 0, 1])
    with pytest.raises(
        ValueError,
        match=r"The column #0 contains mixed data types: column 'code' holds "
        r"values of types that cannot be sorted together",
    ):
        partial_dependence(model, X, ["code"], categorical_features=["code"])
