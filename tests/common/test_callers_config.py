"""scikit-learn's configuration reaches every thread that may call the model.

``sklearn.set_config`` and ``config_context`` configure the calling thread
only; a new thread starts with the defaults. The pipeline here was fitted
with pandas output and selects columns by name after its first step: it
predicts only under that configuration, as on the user's thread. scikit-learn
carries it into its own workers (``permutation_importance(n_jobs=2)``), so
the engine's threads, a widget's worker and its overview thread must too.
"""

import numpy as np
import pandas as pd
import pytest
from common.gated import HANG_GUARD
from numpy.testing import assert_array_equal
from sklearn import config_context
from sklearn.compose import ColumnTransformer
from sklearn.ensemble import RandomForestRegressor
from sklearn.inspection import permutation_importance as sklearn_importance
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from inspectwidgets import (
    PartialDependenceWidget,
    PermutationImportanceWidget,
    permutation_importance,
)


@pytest.fixture(scope="module")
def named_columns():
    """A pipeline that predicts only with pandas output, its X and y."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(300, 3)), columns=["a", "b", "c"])
    y = X["a"] - 2 * X["b"] + rng.normal(scale=0.3, size=300)
    scale = [("num", StandardScaler(), ["a", "b", "c"])]
    select = [("keep", "passthrough", ["a", "b"])]
    names = dict(verbose_feature_names_out=False)
    with config_context(transform_output="pandas"):
        pipe = Pipeline(
            [
                ("scale", ColumnTransformer(scale, **names)),
                ("select", ColumnTransformer(select, **names)),
                ("model", RandomForestRegressor(20, random_state=0)),
            ]
        ).fit(X, y)
    with pytest.raises(ValueError, match="only supported for dataframes"):
        pipe.predict(X)  # the defaults: numpy output, no names to select by
    return pipe, X, y


def test_the_engines_threads_take_the_callers_config(named_columns):
    pipe, X, y = named_columns
    kwargs = dict(n_repeats=3, random_state=0, n_jobs=2)
    with config_context(transform_output="pandas"):
        expected = sklearn_importance(pipe, X, y, **kwargs)
        ours = permutation_importance(pipe, X, y, **kwargs)
    assert_array_equal(ours.importances, expected.importances)


def test_a_widgets_worker_takes_the_callers_config(named_columns):
    pipe, X, y = named_columns
    with config_context(transform_output="pandas"):
        widget = PermutationImportanceWidget(pipe, X, y, n_repeats=3, random_state=0)
        expected = sklearn_importance(pipe, X, y, n_repeats=3, random_state=0)
    assert widget.wait(HANG_GUARD) == "done", widget.error
    assert_array_equal(widget.result.importances(), expected.importances)
    widget.close()


def test_the_overview_thread_takes_the_callers_config(named_columns):
    pipe, X, _ = named_columns
    with config_context(transform_output="pandas"):
        widget = PartialDependenceWidget(pipe, X, overview=True)
    widget.wait(HANG_GUARD)
    assert widget.wait_overview(HANG_GUARD)
    assert widget.status == "done", widget.error
    assert widget._overview["status"] == "done"
    assert {p["state"] for p in widget._overview["panels"]} == {"done"}
    widget.close()
