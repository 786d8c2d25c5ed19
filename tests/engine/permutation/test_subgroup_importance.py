"""Permutation importance within subgroups: each subgroup's numbers are
scikit-learn's permutation_importance on that subgroup's rows alone, all
subgroups in one run sharing its predictions."""

import threading
import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestRegressor
from sklearn.inspection import permutation_importance as sklearn_permutation_importance
from threadpoolctl import threadpool_limits

from inspectwidgets import (
    SubgroupImportanceResult,
    iter_subgroup_permutation_importance,
    permutation_importance,
    subgroup_permutation_importance,
)

from numerics import assert_blas_close

SCORERS = ["accuracy", "neg_log_loss", "balanced_accuracy"]


@pytest.fixture(autouse=True)
def one_thread():
    """One OpenMP thread: gradient boosting's threads crawl on a busy
    machine, and scikit-learn gets the same setting."""
    with threadpool_limits(limits=1):
        yield


@pytest.fixture(scope="module")
def churn():
    """A frame with a string, a category, a nullable integer with NA, a bool
    and NaN in a number; gradient boosting (which takes NaN, and the tree
    walk) on its numeric encoding."""
    rng = np.random.default_rng(0)
    n = 500
    frame = pd.DataFrame(
        {
            "tenure": rng.normal(20, 8, n),
            "visits": rng.poisson(3, n).astype(float),
            "plan": rng.choice(["basic", "pro", "team"], n, p=[0.5, 0.4, 0.1]),
        }
    )
    frame.loc[rng.choice(n, 20, replace=False), "visits"] = np.nan
    X = pd.DataFrame(
        {
            "tenure": frame["tenure"],
            "visits": frame["visits"],
            "pro": (frame["plan"] == "pro").astype(float),
        }
    )
    logit = np.where(frame["plan"] == "pro", (frame["tenure"] - 20) / 4, 0.3)
    y = (logit + rng.normal(0, 1, n) > 0).astype(int)
    forest = HistGradientBoostingClassifier(max_iter=15, random_state=0).fit(X, y)
    return forest, X, y, frame


def _sklearn_on_group(model, X, y, mask, **kwargs):
    weight = kwargs.pop("sample_weight", None)
    return sklearn_permutation_importance(
        model,
        X[mask],
        y[mask],
        sample_weight=None if weight is None else weight[mask],
        **kwargs,
    )


@pytest.mark.parametrize(
    "algorithm, max_samples",
    [("tree", 1.0), ("generic", 1.0), ("tree", 0.6), ("generic", 70), ("auto", 70)],
)
def test_each_subgroup_is_sklearn_on_its_rows_bit_for_bit(
    churn, algorithm, max_samples
):
    forest, X, y, frame = churn
    weight = np.linspace(1, 2, len(y))
    kwargs = dict(n_repeats=3, random_state=0, scoring=SCORERS)
    result = subgroup_permutation_importance(
        forest,
        X,
        y,
        subgroups=frame["plan"],
        algorithm=algorithm,
        max_samples=max_samples,
        sample_weight=weight,
        return_result=True,
        **kwargs,
    )
    assert result.labels == tuple(pd.unique(frame["plan"]))
    for label, size, n_permuted in zip(
        result.labels, result.sizes, result.n_permuted, strict=True
    ):
        mask = (frame["plan"] == label).to_numpy()
        assert size == mask.sum()
        # An int max_samples takes at most the subgroup's rows.
        group_samples = (
            min(max_samples, int(size)) if isinstance(max_samples, int) else max_samples
        )
        expected = _sklearn_on_group(
            forest, X, y, mask, sample_weight=weight, max_samples=group_samples,
            **kwargs,
        )  # fmt: skip
        assert n_permuted == (
            group_samples
            if isinstance(group_samples, int)
            else int(group_samples * size)
        )
        for name in SCORERS:
            got = result.group(label).to_bunch(name)
            assert_array_equal(got.importances, expected[name].importances)


def test_a_linear_model_within_blas_rounding(diabetes):
    model, X, y = diabetes
    groups = np.where(X["sex"] > 0, "f", "m")
    got = subgroup_permutation_importance(
        model, X, y, subgroups=groups, n_repeats=4, random_state=3
    )
    for label in ("f", "m"):
        expected = sklearn_permutation_importance(
            model, X[groups == label], y[groups == label], n_repeats=4, random_state=3
        )
        assert_blas_close(got[label].importances, expected.importances)
        assert got[label].size == (groups == label).sum()


def test_labels_of_every_dtype_and_a_column_name(churn):
    forest, X, y, frame = churn
    n = len(y)
    rng = np.random.default_rng(1)
    nullable = pd.array(rng.integers(0, 3, n), dtype="Int64")
    nullable[:7] = pd.NA
    cases = {
        "category": pd.Categorical(frame["plan"]),
        "Int64 with NA": nullable,
        "bool": (frame["tenure"] > 20).to_numpy(),
        "object with None": np.array(
            [None if i % 50 == 0 else p for i, p in enumerate(frame["plan"])],
            dtype=object,
        ),
    }
    kwargs = dict(n_repeats=2, random_state=0)
    for case, labels in cases.items():
        result = subgroup_permutation_importance(
            forest, X, y, subgroups=labels, return_result=True, algorithm="tree",
            **kwargs,
        )  # fmt: skip
        series = pd.Series(labels)
        assert result.sizes.sum() == n, case
        for label, group in zip(result.labels, result.results, strict=True):
            same = series.isna() if label == "missing" else series.eq(label)
            mask = same.fillna(False).to_numpy(dtype=bool)
            assert mask.sum() > 0, case
            expected = _sklearn_on_group(forest, X, y, mask, **kwargs)
            assert_array_equal(group.importances(), expected.importances, case)
        if series.isna().any():
            assert result.labels[-1] == "missing"
            assert result.sizes[-1] == series.isna().sum()
    by_column = subgroup_permutation_importance(
        forest, X, y, subgroups="pro", return_result=True, **kwargs
    )
    by_values = subgroup_permutation_importance(
        forest, X, y, subgroups=X["pro"].to_numpy(), return_result=True, **kwargs
    )
    assert by_column.labels == by_values.labels == tuple(pd.unique(X["pro"]))
    assert_array_equal(by_column.importances(), by_values.importances())
    by_position = subgroup_permutation_importance(
        forest, X.to_numpy(), y, subgroups=2, return_result=True, **kwargs
    )
    assert_array_equal(by_position.importances(), by_values.importances())


def test_tiny_subgroups_are_kept_and_flagged(churn):
    forest, X, y, frame = churn
    labels = frame["plan"].to_numpy(dtype=object).copy()
    labels[:3] = "three rows"
    labels[3] = "one row"
    model = RandomForestRegressor(n_estimators=5, random_state=0)
    model.fit(X.fillna(0), y)
    X = X.fillna(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # r2 of one row: undefined, warned
        result = subgroup_permutation_importance(
            model, X, y, subgroups=labels, random_state=0, return_result=True
        )
    sizes = dict(zip(result.labels, result.sizes, strict=True))
    small = dict(zip(result.labels, result.small, strict=True))
    assert sizes["three rows"] == 3 and sizes["one row"] == 1
    assert small["three rows"] and small["one row"] and not small["basic"]
    assert result.min_size == 30
    # r2 of one row is undefined: NaN, kept; three rows are scored.
    assert np.isnan(result.group("one row").importances()).all()
    mask = labels == "three rows"
    expected = _sklearn_on_group(model, X, y, mask, random_state=0)
    assert_array_equal(result.group("three rows").importances(), expected.importances)
    frame_out = result.to_frame()
    assert set(frame_out["subgroup"]) == set(result.labels)
    assert frame_out.loc[frame_out["subgroup"] == "one row", "small"].all()
    team = (labels == "team").sum()
    assert small["team"] == (team < 30)
    flagged = subgroup_permutation_importance(
        model, X, y, subgroups=labels, random_state=0, min_size=2,
        return_result=True,
    )  # fmt: skip
    assert flagged.small.tolist() == (flagged.sizes < 2).tolist()


def test_a_subgroup_run_predicts_what_one_plain_run_predicts(churn):
    """Every subgroup's copy of a feature at a repeat is one copy of X: the
    model sees the rows one plain run predicts, however many subgroups."""
    _, X, y, frame = churn
    counted = _RowCounter(max_iter=15, random_state=0).fit(X, y)
    kwargs = dict(n_repeats=3, random_state=0, algorithm="generic")
    kwargs.update(scoring="neg_log_loss")
    permutation_importance(counted, X, y, **kwargs)
    plain, counted.rows = counted.rows, 0
    subgroup_permutation_importance(counted, X, y, subgroups=frame["plan"], **kwargs)
    assert counted.rows == plain == (1 + 3 * X.shape[1]) * len(X)


class _RowCounter(HistGradientBoostingClassifier):
    """Gradient boosting counting the rows it predicts."""

    rows = 0

    def predict_proba(self, X):
        self.rows += len(X)
        return super().predict_proba(X)


def test_streamed_rounds_end_in_the_one_shot_result_and_cancel_keeps_them(churn):
    forest, X, y, frame = churn
    # Predicted round by round (the walk takes rounds 2-4 in one block).
    kwargs = dict(n_repeats=4, random_state=0, subgroups=frame["plan"])
    kwargs.update(algorithm="generic")
    rounds = list(iter_subgroup_permutation_importance(forest, X, y, **kwargs))
    assert [r.n_repeats_done for r in rounds] == [1, 2, 3, 4]
    assert all(isinstance(r, SubgroupImportanceResult) for r in rounds)
    final = subgroup_permutation_importance(forest, X, y, return_result=True, **kwargs)
    assert_array_equal(rounds[-1].importances(), final.importances())
    cancel = threading.Event()

    def stop_after_two(result):
        if result.n_repeats_done == 2:
            cancel.set()

    partial = subgroup_permutation_importance(
        forest, X, y, callback=stop_after_two, cancel=cancel, return_result=True,
        **kwargs,
    )  # fmt: skip
    assert 2 <= partial.n_repeats_done < 4
    done = partial.n_repeats_done
    assert_array_equal(partial.importances(), final.importances()[:, :, :done])
    cancel.set()
    empty = subgroup_permutation_importance(
        forest, X, y, cancel=cancel, return_result=True, **kwargs
    )
    assert empty.n_repeats_done == 0
    assert np.isnan(empty.importances_mean()).all()


def test_to_frame_and_to_sklearn(churn):
    forest, X, y, frame = churn
    result = subgroup_permutation_importance(
        forest, X, y, subgroups=frame["plan"], n_repeats=2, random_state=0,
        scoring=["accuracy", "roc_auc"], return_result=True,
    )  # fmt: skip
    table = result.to_frame()
    assert list(table.columns[:4]) == ["subgroup", "size", "n_permuted", "small"]
    assert len(table) == len(result.labels) * X.shape[1] * 2 * 2
    basic = table[(table["subgroup"] == "basic") & (table["scorer"] == "roc_auc")]
    assert_array_equal(
        basic["importance"].to_numpy(),
        result.group("basic").importances("roc_auc").ravel(),
    )
    bunches = result.to_sklearn()
    assert list(bunches) == list(result.labels)
    assert set(bunches["pro"]) == {"accuracy", "roc_auc"}
    assert bunches["pro"]["accuracy"].size == result.sizes[result.labels.index("pro")]


def test_bad_inputs_name_the_argument_and_leave_inputs_untouched(churn):
    forest, X, y, frame = churn
    before_X, before_labels = X.copy(), frame["plan"].copy()
    with pytest.raises(ValueError, match=r"subgroups has shape \(3,\); pass one"):
        subgroup_permutation_importance(forest, X, y, subgroups=["a", "b", "c"])
    with pytest.raises(ValueError, match="subgroups: unknown feature 'region'"):
        subgroup_permutation_importance(forest, X, y, subgroups="region")
    with pytest.raises(ValueError, match="subgroups: column index 9 is out of range"):
        subgroup_permutation_importance(forest, X, y, subgroups=9)
    with pytest.raises(ValueError, match="min_size must be an int >= 1; got 0"):
        subgroup_permutation_importance(
            forest, X, y, subgroups=frame["plan"], min_size=0
        )
    with pytest.raises(TypeError, match="subgroups"):
        subgroup_permutation_importance(forest, X, y)
    with pytest.raises(KeyError, match="no subgroup 'gold'"):
        subgroup_permutation_importance(
            forest, X, y, subgroups=frame["plan"], n_repeats=1, return_result=True
        ).group("gold")
    pd.testing.assert_frame_equal(X, before_X)
    pd.testing.assert_series_equal(frame["plan"], before_labels)
