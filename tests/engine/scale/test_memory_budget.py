"""The tree walk stays within `max_memory`: what the chunks in flight hold,
traced by tracemalloc, against the budget the caller sets.

The walk is loaded before tracing: numba's first load of its cached kernels
allocates once per process, not per chunk. The flattened trees are the
model's size whatever X's and are not counted (docs/partial_dependence.md);
these models are small."""

import tracemalloc

import pytest
from sklearn.datasets import make_classification
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier

from inspectwidgets import partial_dependence, permutation_importance
from inspectwidgets.inspection._shortcuts import load_walks

MAX_MEMORY = 12 * 2**20
# The budget plus 10 % (the bound), plus what any call holds whatever
# the chunks: the validated inputs and the result.
SLACK = 0.1 * MAX_MEMORY + 2**20


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(
        n_samples=24_000, n_features=8, n_informative=4, random_state=0
    )
    return X[:4000], y[:4000], X[4000:], y[4000:]


def traced_peak(call):
    """The peak memory traced during ``call(rows)`` on every row, after a call
    on a few rows has filled the caches and done the lazy imports."""
    load_walks()
    call(slice(0, 200))
    tracemalloc.start()
    try:
        call(slice(None))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "model",
    [
        RandomForestClassifier(n_estimators=10, max_depth=8, random_state=0),
        HistGradientBoostingClassifier(max_iter=10, random_state=0),
    ],
    ids=["forest", "histogram boosting"],
)
def test_walk_within_max_memory(data, model):
    X_train, y_train, X, y = data
    model.fit(X_train, y_train)
    # 20,000 rows: at 36-60 bytes a row a copy, the budget holds a few
    # copies per chunk, so 10 repeats of 8 features take many chunks.
    scoring = ["accuracy", "neg_log_loss"]
    importance = traced_peak(
        lambda rows: permutation_importance(
            model,
            X[rows],
            y[rows],
            n_repeats=10,
            scoring=scoring,
            random_state=0,
            algorithm="tree",
            max_memory=MAX_MEMORY,
        )  # fmt: skip
    )
    assert importance <= MAX_MEMORY + SLACK
    dependence = traced_peak(
        lambda rows: partial_dependence(
            model,
            X[rows],
            [0],
            method="brute",
            kind="average",
            grid_resolution=100,
            algorithm="tree",
            max_memory=MAX_MEMORY,
        )  # fmt: skip
    )
    assert dependence <= MAX_MEMORY + SLACK
