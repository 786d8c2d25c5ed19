"""The effects overview on the messy churn-like table: every column gives a
drawn panel or one sentence naming it, and the data stays as it was."""

import numpy as np
import pandas as pd
from messy import messy_pipeline, messy_table
from numpy.testing import assert_array_equal

from inspectwidgets import partial_dependence, partial_dependence_overview


def test_messy_columns_each_give_a_panel_or_a_reason():
    X, y = messy_table()
    before = X.copy()
    model = messy_pipeline().fit(X, y)
    overview = partial_dependence_overview(
        model, X, categorical_features=["plan", "region", "paperless", "code"]
    )
    pd.testing.assert_frame_equal(X, before)
    panels = {p.feature: p for p in overview.panels}
    assert set(panels) == set(X.columns)
    # Each panel is drawn, or says why in one sentence naming its column.
    for name, panel in panels.items():
        if panel.failed:
            assert name in panel.note and panel.note.endswith("."), name
        else:
            assert np.isfinite(panel.average).all(), name
    assert "only missing values" in panels["empty"].note
    # Nullable Float64 with pd.NA: its missing point, taken by the model.
    assert panels["score"].missing and not panels["score"].failed
    # The constant column: one grid value, a flat (zero) spread.
    assert len(panels["flat"].grid_values) == 1 and panels["flat"].spread == 0
    # A category with an unused level: its grid is the levels observed (and
    # the missing one), as partial_dependence builds it.
    single = partial_dependence(
        model, X, ["region"], categorical_features=["region"], missing="observed",
        method="brute", grid_resolution=20,
    )  # fmt: skip
    region = panels["region"]
    assert list(region.grid_values.astype(object)) == list(
        single["grid_values"][0].astype(object)
    )
    assert "w" not in list(region.grid_values)
    assert_array_equal(region.average, single["average"])
    # Failed panels come last under the spread's order.
    failed = [p.failed for p in overview.panels]
    assert failed == sorted(failed)
