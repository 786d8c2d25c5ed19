"""Count traits refuse values no run could use, naming the trait, and the
widget stays as it was and usable."""

import numpy as np
import pytest
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LinearRegression
from traitlets import TraitError

from inspectwidgets import (
    ImportanceComparisonWidget,
    PartialDependenceWidget,
    PermutationImportanceWidget,
)


def _regression():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = X @ [1.0, 0.5, 0.0]
    return LinearRegression().fit(X, y), X, y


def _permutation():
    model, X, y = _regression()
    return PermutationImportanceWidget(model, X, y, n_repeats=2)


def _partial_dependence():
    model, X, _ = _regression()
    return PartialDependenceWidget(model, X, grid_resolution=5, n_ice=10)


def _comparison():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    model = RandomForestClassifier(n_estimators=3, max_depth=2, random_state=0)
    model.fit(X[:40], y[:40])
    return ImportanceComparisonWidget(
        model, X[:40], y[:40], X[40:], y[40:], n_repeats=1
    )


BOUNDS = [
    (_permutation, "n_repeats", 0, 3),
    (_permutation, "n_repeats", -5, 3),
    (_permutation, "max_features", 0, 2),
    (_permutation, "random_state", -1, 7),
    (_permutation, "random_state", 2**32, 7),
    (_partial_dependence, "grid_resolution", 1, 6),
    (_partial_dependence, "grid_resolution", 0, 6),
    (_partial_dependence, "n_ice", 0, 5),
    (_comparison, "n_repeats", 0, 2),
    (_comparison, "random_state", -3, 7),
]


@pytest.mark.parametrize(
    "make, name, bad, good",
    BOUNDS,
    ids=[f"{m.__name__[1:]}-{n}={b}" for m, n, b, _ in BOUNDS],
)
def test_a_count_out_of_bounds_is_refused_by_name(make, name, bad, good):
    w = make()
    try:
        assert w.wait(timeout=60) == "done"
        before = getattr(w, name)
        with pytest.raises(TraitError, match=f"'{name}' trait"):
            setattr(w, name, bad)
        assert getattr(w, name) == before and w.status == "done"
        setattr(w, name, good)
        assert w.wait(timeout=60) == "done" and w.error == ""
    finally:
        w.close()
