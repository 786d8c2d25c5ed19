"""The comparison widget without a browser: measures, classes, clusters."""

import numpy as np
import pandas as pd
import pytest
import traitlets
from numpy.testing import assert_allclose
from pandas.testing import assert_frame_equal
from sklearn.compose import ColumnTransformer
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder
from traitlets import TraitError

from inspectwidgets import (
    ImportanceComparisonWidget,
    compare_importances,
    permutation_importance,
)
from inspectwidgets.inspection._comparison.comparison import NEGATIVE
from inspectwidgets.widgets._serialization import decode_binary_array


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    model = RandomForestClassifier(n_estimators=30, random_state=0).fit(
        X_train, y_train
    )
    return model, X_train, y_train, X_test, y_test


def test_measures_match_compare_importances(cancer):
    model, *data = cancer
    w = ImportanceComparisonWidget(model, *data, n_repeats=3, random_state=1)
    assert w.wait(timeout=60) == "done"
    expected = compare_importances(model, *data, n_repeats=3, random_state=1)
    assert_frame_equal(w.to_frame(), expected)
    payload = w._measures
    assert payload["features"] == list(expected.index)
    test = next(m for m in payload["measures"] if m["key"] == "permutation_test")
    values = expected["permutation_test_mean"].to_numpy()
    assert_allclose(decode_binary_array(test["values"]), values, rtol=1e-6)
    assert_allclose(
        decode_binary_array(test["normalized"]),
        values / np.abs(values).max(),
        rtol=1e-6,
    )
    assert payload["notes"] == list(expected["notes"])
    assert w.figure().axes[0].get_title().startswith("Importance measures compared")


def test_measures_carry_intervals_units_and_noise_marks(cancer):
    model, *data = cancer
    w = ImportanceComparisonWidget(model, *data, n_repeats=10, random_state=1)
    assert w.wait(timeout=60) == "done"
    frame = compare_importances(model, *data, n_repeats=10, random_state=1)
    measures = {m["key"]: m for m in w._measures["measures"]}
    assert measures["mdi"]["units"] == "share of the impurity decrease"
    assert "low" not in measures["mdi"]
    for key in ("permutation_train", "permutation_test"):
        measure = measures[key]
        assert measure["units"] == "decrease in accuracy"
        low = decode_binary_array(measure["low"])
        high = decode_binary_array(measure["high"])
        assert_allclose(low, frame[f"{key}_low"], rtol=1e-5, atol=1e-7)
        assert_allclose(high, frame[f"{key}_high"], rtol=1e-5, atol=1e-7)
        noise = (frame[f"{key}_low"] <= 0) & (frame[f"{key}_high"] >= 0)
        assert list(decode_binary_array(measure["within_noise"])) == list(noise)
    assert decode_binary_array(measures["permutation_test"]["within_noise"]).sum() > 0
    assert w._measures["flag_evidence"][NEGATIVE] == ["permutation_test"]


def test_sort_by_reorders_without_recomputing(cancer):
    model, *data = cancer
    w = ImportanceComparisonWidget(model, *data, n_repeats=2, random_state=1)
    assert w.wait(timeout=60) == "done"
    grouped = w.result.grouped
    w.sort_by = "mdi"
    expected = compare_importances(
        model, *data, n_repeats=2, random_state=1, sort_by="mdi"
    )
    assert_frame_equal(w.to_frame(), expected)
    assert w._measures["features"] == list(expected.index)
    assert w._measures["sort_by"] == "mdi"
    assert w.result.grouped is grouped and w.status == "done"
    with pytest.raises(traitlets.TraitError):
        w.sort_by = "accuracy"
    with pytest.raises(ValueError, match="sort_by must be one of"):
        ImportanceComparisonWidget(model, *data, sort_by="accuracy", run=False)


def test_threshold_regroups_without_recomputing_the_measures(cancer):
    model, X_train, y_train, X_test, y_test = cancer
    w = ImportanceComparisonWidget(model, X_train, y_train, X_test, y_test, n_repeats=2)
    w.wait(timeout=60)
    frame = w.to_frame()
    n_groups = len(w._groups["groups"])
    w.correlation_threshold = 0.95  # stricter: fewer features grouped
    assert w.wait(timeout=60) == "done"
    assert w.to_frame() is not None
    assert_frame_equal(w.to_frame(), frame)
    assert len(w._groups["groups"]) > n_groups
    # The grouped importances are the engine's for these groups.
    expected = permutation_importance(
        model, X_test, y_test, n_repeats=2, random_state=0, features=w.result.groups
    )
    order = np.argsort(-expected.importances_mean, kind="stable")
    assert [g["label"] for g in w._groups["groups"]] == list(
        expected.feature_names[order]
    )
    assert_allclose(
        decode_binary_array(w._groups["mean"]),
        expected.importances_mean[order],
        rtol=1e-6,
    )
    members = {g["label"]: g["members"] for g in w._groups["groups"]}
    assert sorted(m for ms in members.values() for m in ms) == sorted(X_test.columns)


def test_correlation_payload_is_the_clustered_spearman_matrix(cancer):
    model, *data = cancer
    w = ImportanceComparisonWidget(model, *data, n_repeats=1, run=False)
    correlation = w._correlation
    n = data[0].shape[1]
    matrix = decode_binary_array(correlation["matrix"])
    assert matrix.shape == (n, n) and np.allclose(np.diag(matrix), 1)
    assert decode_binary_array(correlation["linkage"]).shape == (n - 1, 4)
    assert sorted(correlation["leaf_order"]) == list(range(n))
    assert w._per_class == {}  # a forest has no per-class trees


def test_per_class_relative_importance_for_three_class_boosting():
    X, y = load_wine(return_X_y=True, as_frame=True)
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, stratify=y, random_state=0
    )
    model = GradientBoostingClassifier(n_estimators=20, max_depth=2, random_state=0)
    model.fit(X_train, y_train)
    w = ImportanceComparisonWidget(model, X_train, y_train, X_test, y_test, run=False)
    values = decode_binary_array(w._per_class["values"])
    assert w._per_class["classes"] == ["0", "1", "2"]
    assert values.shape == (3, X.shape[1])
    assert_allclose(values.max(axis=1), 100, rtol=1e-6)


def test_bad_input(cancer):
    model, *data = cancer
    with pytest.raises(ValueError, match="a comparison uses one scorer"):
        ImportanceComparisonWidget(model, *data, scoring=["accuracy", "roc_auc"])
    w = ImportanceComparisonWidget(model, *data, n_repeats=1)
    w.wait(timeout=60)
    with pytest.raises(TraitError, match="'n_repeats' trait"):
        w.n_repeats = 0
    assert w.n_repeats == 1 and w.status == "done"
    w.scoring = "r3"
    assert w.status == "error" and "scoring" in w.error
    w.scoring = "accuracy"
    assert w.wait(timeout=60) == "done"


def test_static_png_in_the_mimebundle(cancer):
    model, *data = cancer
    w = ImportanceComparisonWidget(model, *data, n_repeats=1)
    w.wait(timeout=60)
    bundle, _ = w._repr_mimebundle_()
    assert bundle["image/png"] and "application/vnd.jupyter.widget-view+json" in bundle


def test_one_numeric_column_means_one_feature_per_group():
    # Clustering needs two numeric columns; with one, the grouped stage ran on
    # no groups and failed with "'NoneType' object is not subscriptable".
    rng = np.random.default_rng(0)
    X = pd.DataFrame(
        {"size": rng.normal(size=300), "colour": rng.choice(["red", "blue"], 300)}
    )
    y = (X["size"] + (X["colour"] == "red") > 0.5).astype(int)
    model = make_pipeline(
        ColumnTransformer(
            [("onehot", OneHotEncoder(), ["colour"])], remainder="passthrough"
        ),
        RandomForestClassifier(n_estimators=10, random_state=0),
    ).fit(X[:200], y[:200])
    data = X[:200], y[:200], X[200:], y[200:]
    w = ImportanceComparisonWidget(model, *data, n_repeats=2)
    assert w.wait(timeout=60) == "done", w.error
    assert w._correlation == {}  # the view says why there is no matrix
    assert w.result.groups == {"size": ["size"], "colour": ["colour"]}
    expected = permutation_importance(
        model, X[200:], y[200:], n_repeats=2, random_state=0
    )
    order = np.argsort(-expected.importances_mean, kind="stable")
    assert [g["label"] for g in w._groups["groups"]] == list(
        expected.feature_names[order]
    )
    assert_allclose(
        decode_binary_array(w._groups["mean"]),
        expected.importances_mean[order],
        rtol=1e-6,
    )


def test_an_array_without_column_names_is_compared_and_grouped():
    # The clusters name an array's columns 'x0', 'x1', ...; the widget must
    # find its columns by those names (it failed on any ndarray).
    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 3))
    X[:, 1] = X[:, 0] + rng.normal(scale=0.05, size=80)
    y = (X[:, 0] + X[:, 2] > 0).astype(int)
    model = RandomForestClassifier(n_estimators=5, random_state=0).fit(X[:50], y[:50])
    w = ImportanceComparisonWidget(
        model, X[:50], y[:50], X[50:], y[50:], n_repeats=2, correlation_threshold=0.5
    )
    assert w.wait(timeout=60) == "done"
    assert w.result.groups == {"0 + 1": [0, 1], "2": [2]}
    assert list(w.result.grouped.feature_names) == ["0 + 1", "2"]
