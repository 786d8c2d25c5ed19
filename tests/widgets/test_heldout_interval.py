"""The held-out interval reaches the widgets' tooltips: the chart payload
carries each drawn feature's interval, as the engine computes it."""

import numpy as np
from numpy.testing import assert_allclose
from sklearn.datasets import load_diabetes, make_classification
from sklearn.linear_model import LogisticRegression, Ridge

from inspectwidgets import (
    ModelInspector,
    PermutationImportanceWidget,
    permutation_importance,
)
from inspectwidgets.widgets._serialization import decode_binary_array


def _diabetes():
    X, y = load_diabetes(return_X_y=True, as_frame=True)
    return Ridge(alpha=1e-2).fit(X[:300], y[:300]), X[300:], y[300:]


def test_payload_holds_the_engines_interval_of_the_drawn_features():
    model, X, y = _diabetes()
    scoring = ["r2", "neg_mean_absolute_error"]
    w = PermutationImportanceWidget(
        model, X, y, scoring=scoring, n_repeats=4, n_bootstrap=60, max_features=4
    )
    assert w.wait() == "done"
    expected = permutation_importance(
        model, X, y, scoring=scoring, n_repeats=4, random_state=0, n_bootstrap=60
    )
    chart = w._chart
    assert chart["interval_label"] == "95 % interval over resampled held-out rows"
    for name in scoring:
        block = chart["scorers"][name]
        order = np.argsort(-expected[name].importances_mean, kind="stable")[:4]
        assert block["features"] == list(X.columns[order])
        bounds = expected[name].interval[order]
        # float32 on the wire
        assert_allclose(
            decode_binary_array(block["interval_low"]), bounds[:, 0], rtol=1e-6
        )
        assert_allclose(
            decode_binary_array(block["interval_high"]), bounds[:, 1], rtol=1e-6
        )


def test_no_interval_unless_asked():
    model, X, y = _diabetes()
    w = PermutationImportanceWidget(model, X, y, n_repeats=2)
    assert w.wait() == "done"
    assert w._chart["interval_label"] == ""
    assert "interval_low" not in w._chart["scorers"]["r2"]


def test_inspector_test_view_resamples_row_loss_metrics_only():
    model, X, y = _diabetes()
    inspector = ModelInspector(model, X, y, n_repeats=3, random_state=0, run=False)
    view = inspector._children["importance"]
    view.run()
    assert view.wait() == "done"
    assert view.result.n_bootstrap == 200
    assert "interval_low" in view._chart["scorers"]["r2"]
    # roc_auc is scored by a call per copy and resample: left out there.
    X2, y2 = make_classification(n_samples=200, n_features=4, random_state=0)
    classifier = LogisticRegression().fit(X2, y2)
    inspector = ModelInspector(
        classifier, X2, y2, scoring="roc_auc", n_repeats=2, random_state=0, run=False
    )
    view = inspector._children["importance"]
    view.run()
    assert view.wait() == "done"
    assert view.result.n_bootstrap is None
    assert view._chart["interval_label"] == ""
