"""The memory budget holds (#49): every engine's estimate bounds the peak a
run measures (tracemalloc, which numpy reports to), across prediction paths
and sizes; a setting beyond the budget is refused, from Python and from a
widget's front end, with the largest value that fits; Stop answers at once."""

import time
import tracemalloc

import numpy as np
import pandas as pd
import pytest
from common.gated import HANG_GUARD
from sklearn.ensemble import (
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
)
from sklearn.linear_model import Ridge
from sklearn.neighbors import KNeighborsRegressor
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

import inspectwidgets as iw
from inspectwidgets.inspection._core import budget
from inspectwidgets.inspection._core.budget import x_bytes
from inspectwidgets.inspection._effects import footprint as effects_footprint
from inspectwidgets.inspection._partial_dependence import footprint as pd_footprint
from inspectwidgets.inspection._permutation import footprint as perm_footprint

MAX_MEMORY = 64 * 2**20  # the engines' default


def _data(n_rows, classes=False):
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(n_rows, 8)), columns=list("abcdefgh"))
    y = 2 * X["a"] + X["b"] + rng.normal(size=n_rows)
    return X, (np.digitize(y, [0, 1]) if classes else y)


def _hold_each(stream):
    """Consume `stream` as a widget does: the last snapshot held while the
    next is made."""
    held = None
    for held in stream:  # noqa: B007
        pass
    return held


def _peak(call):
    tracemalloc.start()
    try:
        call()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


MODELS = {
    "linear shortcut": Ridge,
    "tree shortcut": lambda: DecisionTreeRegressor(max_depth=6, random_state=0),
    "generic": lambda: HistGradientBoostingRegressor(max_iter=10, random_state=0),
    "generic, no batching shortcut": KNeighborsRegressor,
}


@pytest.mark.parametrize(
    "path, n_rows, n_repeats",
    [
        ("linear shortcut", 500, 5),
        # Thousands of rounds in one chunk: their snapshots were held at once.
        ("linear shortcut", 500, 2000),
        ("linear shortcut", 5000, 1000),
        ("tree shortcut", 500, 1000),
        ("tree shortcut", 3000, 200),
        ("generic", 500, 200),
        ("generic, no batching shortcut", 500, 100),
    ],
)
def test_permutation_estimate_bounds_the_peak(path, n_rows, n_repeats):
    X, y = _data(n_rows)
    model = MODELS[path]().fit(X, y)
    scoring = ["r2", "neg_mean_squared_error"]
    peak = _peak(
        lambda: iw.permutation_importance(
            model, X, y, n_repeats=n_repeats, scoring=scoring, random_state=0
        )
    )
    estimate = perm_footprint.peak_bytes(
        n_rows, 8, n_repeats, n_scores=2, max_memory=MAX_MEMORY, x_bytes=x_bytes(X)
    )
    assert peak <= estimate, f"{peak / 2**20:.1f} MiB > {estimate / 2**20:.1f} MiB"


@pytest.mark.parametrize(
    "model, n_rows, features, grid_resolution",
    [
        ("ridge", 500, ["a"], 1000),
        ("ridge", 5000, ["a"], 10_000),
        ("ridge", 500, ["a", "b"], 60),
        ("classifier", 2000, ["a"], 1000),
        ("classifier", 2000, ["a", "b"], 40),
        ("hgb", 500, ["a", "b"], 40),
    ],
)
def test_partial_dependence_estimate_bounds_the_peak(
    model, n_rows, features, grid_resolution
):
    X, y = _data(n_rows, classes=model == "classifier")
    fitted = {
        "ridge": Ridge,
        "classifier": lambda: DecisionTreeClassifier(max_depth=5, random_state=0),
        "hgb": lambda: HistGradientBoostingRegressor(max_iter=10, random_state=0),
    }[model]().fit(X, y)
    peak = _peak(
        lambda: iw.partial_dependence(
            fitted, X, features, grid_resolution=grid_resolution, kind="both"
        )
    )
    estimate = pd_footprint.peak_bytes(
        grid_resolution,
        n_rows=n_rows,
        n_columns=8,
        n_axes=len(features),
        n_outputs=3 if model == "classifier" else 1,
        n_ice_rows=n_rows,
        max_memory=MAX_MEMORY,
        x_bytes=x_bytes(X),
    )
    assert peak <= estimate, f"{peak / 2**20:.1f} MiB > {estimate / 2**20:.1f} MiB"


@pytest.fixture
def small_budget(monkeypatch):
    """A budget of 512 MiB, whatever this machine has free."""
    monkeypatch.setattr(budget, "memory_budget", lambda: 512 * 2**20)


def _fitting_value(message, setting):
    assert f"{setting}=" in message and "memory budget of 512 MiB" in message, message
    return int(message.rsplit(" ", 1)[-1].rstrip(".").replace(",", ""))


def test_python_refuses_repeats_beyond_the_budget(small_budget):
    X, y = _data(500)
    model = Ridge().fit(X, y)
    with pytest.raises(ValueError, match="n_repeats=1,000,000 needs an estimated") as e:
        iw.permutation_importance(model, X, y, n_repeats=1_000_000)
    fits = _fitting_value(str(e.value), "n_repeats")
    assert 10_000 < fits < 1_000_000
    estimate = perm_footprint.peak_bytes(
        500, 8, fits, max_memory=MAX_MEMORY, x_bytes=x_bytes(X)
    )
    assert (
        estimate
        <= 512 * 2**20
        < perm_footprint.peak_bytes(
            500, 8, fits + 1, max_memory=MAX_MEMORY, x_bytes=x_bytes(X)
        )
    )


def test_python_refuses_a_grid_beyond_the_budget(small_budget):
    X, y = _data(20_000)
    model = Ridge().fit(X, y)
    with pytest.raises(ValueError, match="grid_resolution=100,000 needs") as e:
        iw.partial_dependence(model, X, ["a"], grid_resolution=100_000, kind="both")
    fits = _fitting_value(str(e.value), "grid_resolution")
    assert 100 < fits < 100_000


def test_the_widget_refuses_repeats_from_the_front_end(small_budget):
    X, y = _data(500)
    widget = iw.PermutationImportanceWidget(
        Ridge().fit(X, y), X, y, n_repeats=2, random_state=0
    )
    assert widget.wait(HANG_GUARD) == "done"
    before = widget.result
    widget._handle_msg(
        {
            "content": {"data": {"method": "update", "state": {"n_repeats": 10**6}}},
            "buffers": [],
        }
    )
    assert widget.wait(HANG_GUARD) == "error"
    assert "n_repeats=1,000,000" in widget.error
    assert "the largest n_repeats that fits is" in widget.error
    assert widget.result is before  # the chart drawn stays
    widget.n_repeats = 3
    assert widget.wait(HANG_GUARD) == "done"
    widget.close()


def test_stop_answers_within_half_a_second_mid_chunk():
    # The linear shortcut's one chunk completes every round at once: Stop
    # must land between its snapshots, not after them all.
    X, y = _data(500)
    widget = iw.PermutationImportanceWidget(
        Ridge().fit(X, y), X, y, n_repeats=2, random_state=0
    )
    widget.wait(HANG_GUARD)
    widget.n_repeats = 100_000
    deadline = time.monotonic() + HANG_GUARD
    while widget.result.n_repeats_done < 100 and time.monotonic() < deadline:
        time.sleep(0.01)
    start = time.perf_counter()
    widget._handle_msg(
        {
            "content": {"data": {"method": "update", "state": {"_stop_requests": 1}}},
            "buffers": [],
        }
    )
    assert widget.wait(HANG_GUARD) == "cancelled"
    assert time.perf_counter() - start < 0.5
    assert 0 < widget.result.n_repeats_done < 100_000
    widget.close()


@pytest.mark.parametrize(
    "model, n_rows, features, grid_resolution",
    [
        ("ridge", 500, ["a"], 20),
        # Far more bins than rows: interpolated quantiles, one edge each.
        ("ridge", 500, ["a"], 300_000),
        ("ridge", 5000, ["a", "b"], 300),
        ("tree", 2000, ["a"], 10_000),
        ("tree", 2000, ["a", "b"], 200),
        ("classifier", 2000, ["a"], 5000),
        ("hgb classifier", 2000, ["a", "b"], 300),
    ],
)
def test_ale_estimate_bounds_the_peak(model, n_rows, features, grid_resolution):
    classes = "classifier" in model
    X, y = _data(n_rows, classes=classes)
    fitted = {
        "ridge": Ridge,
        "tree": lambda: DecisionTreeRegressor(max_depth=6, random_state=0),
        "classifier": lambda: DecisionTreeClassifier(max_depth=5, random_state=0),
        "hgb classifier": lambda: HistGradientBoostingClassifier(
            max_iter=10, random_state=0
        ),
    }[model]().fit(X, y)
    peak = _peak(
        lambda: _hold_each(
            iw.iter_accumulated_local_effects(
                fitted, X, features, grid_resolution=grid_resolution
            )
        )
    )
    estimate = effects_footprint.ale_peak_bytes(
        grid_resolution,
        n_rows=n_rows,
        n_columns=8,
        n_axes=len(features),
        n_outputs=3 if classes else 1,
        max_memory=MAX_MEMORY,
        x_bytes=x_bytes(X),
    )
    assert peak <= estimate, f"{peak / 2**20:.1f} MiB > {estimate / 2**20:.1f} MiB"


@pytest.mark.parametrize(
    "model, n_rows, n_samples, exact",
    [
        ("ridge", 2000, 300, False),
        ("ridge", 3000, None, False),
        ("tree", 3000, 300, True),
        ("tree", 3000, None, True),
        ("hgb classifier", 1500, None, False),
        ("knn", 500, 400, False),
    ],
)
def test_interaction_estimate_bounds_the_peak(model, n_rows, n_samples, exact):
    classes = "classifier" in model
    X, y = _data(n_rows, classes=classes)
    fitted = {
        "ridge": Ridge,
        "tree": lambda: DecisionTreeRegressor(max_depth=6, random_state=0),
        "hgb classifier": lambda: HistGradientBoostingClassifier(
            max_iter=10, random_state=0
        ),
        "knn": KNeighborsRegressor,
    }[model]().fit(X, y)
    features = ["a", "b", "c"]
    frames = []
    peak = _peak(
        lambda: frames.append(
            iw.interaction_strength(
                fitted, X, features, n_samples=n_samples, random_state=0
            )
        )
    )
    assert (frames[0].attrs["algorithm"] == "exact_tree") == exact
    estimate = effects_footprint.interaction_peak_bytes(
        n_samples,
        n_rows=n_rows,
        n_outputs=3 if classes else 1,
        n_subsets=3 + 3,
        copy_row_bytes=8 * 8 + 32,
        exact=exact,
        max_memory=MAX_MEMORY,
        x_bytes=x_bytes(X),
    )
    assert peak <= estimate, f"{peak / 2**20:.1f} MiB > {estimate / 2**20:.1f} MiB"


def test_python_refuses_ale_bins_beyond_the_budget(small_budget):
    X, y = _data(500)
    model = Ridge().fit(X, y)
    with pytest.raises(ValueError, match="grid_resolution=10,000,000 needs") as e:
        iw.accumulated_local_effects(model, X, "a", grid_resolution=10**7)
    fits = _fitting_value(str(e.value), "grid_resolution")
    assert 10_000 < fits < 10**7
    iw.accumulated_local_effects(model, X, "a", grid_resolution=fits // 10)
    # A pair's cells grow as the square: far fewer bins fit.
    with pytest.raises(ValueError, match="grid_resolution=10,000 needs") as e:
        iw.accumulated_local_effects(model, X, ["a", "b"], grid_resolution=10_000)
    assert 100 < _fitting_value(str(e.value), "grid_resolution") < 10_000


def test_python_refuses_h2_samples_beyond_the_budget(small_budget):
    X, y = _data(20_000)
    with pytest.raises(ValueError, match="n_samples=1,000,000 needs") as e:
        iw.interaction_strength(Ridge().fit(X, y), X, ["a"], n_samples=1_000_000)
    fits = _fitting_value(str(e.value), "n_samples")
    assert 1000 < fits < 20_000
    # The exact tree path holds no n x n batch: every row fits.
    tree = DecisionTreeRegressor(max_depth=4, random_state=0).fit(X, y)
    frame = iw.interaction_strength(tree, X, ["a"], n_samples=1_000_000)
    assert frame.attrs["n_samples"] == 20_000


def _send(widget, state):
    widget._handle_msg(
        {"content": {"data": {"method": "update", "state": state}}, "buffers": []}
    )


def test_the_interaction_widget_refuses_samples_from_the_front_end(small_budget):
    X, y = _data(20_000)
    widget = iw.InteractionWidget(
        Ridge().fit(X, y), X, features=["a", "b"], n_samples=50
    )
    assert widget.wait(HANG_GUARD) == "done"
    _send(widget, {"n_samples": 10**6})
    assert widget.wait(HANG_GUARD) == "error"
    assert "n_samples=1,000,000 needs" in widget.error
    assert "the largest n_samples that fits is" in widget.error
    widget.n_samples = 60
    assert widget.wait(HANG_GUARD) == "done"
    widget.close()


def test_the_pd_widget_refuses_ale_bins_from_the_front_end(small_budget):
    X, y = _data(500)
    widget = iw.PartialDependenceWidget(
        Ridge().fit(X, y), X, features="a", kind="ale", grid_resolution=10
    )
    assert widget.wait(HANG_GUARD) == "done"
    _send(widget, {"grid_resolution": 10**7})
    assert widget.wait(HANG_GUARD) == "error"
    assert "grid_resolution=10,000,000 needs" in widget.error
    assert "the largest grid_resolution that fits is" in widget.error
    widget.grid_resolution = 12
    assert widget.wait(HANG_GUARD) == "done"
    widget.close()
