"""What the whole suite shares: the `slow` mark on the groups that the inner
loop (`make test-fast`) leaves to `make test`.

Marked by folder, here, so a new test in those folders is marked without
remembering to: the browser tests (JupyterLab and Chromium), scikit-learn's
own inspection suite run against ours (tests/dropin), the scale tests
(memory budgets, dask), the input matrix of tests/common, the notebooks and
the widget tests that run one in a fresh kernel. A test elsewhere that runs a
Python subprocess of its own carries the mark itself.
"""

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
SLOW = [
    TESTS / "browser",
    TESTS / "dropin",
    TESTS / "engine" / "scale",
    # The input matrix: every entry point against every kind of bad and messy
    # input (docs/reliability.md), about a third of the rest's time.
    TESTS / "common" / "test_bad_inputs.py",
    TESTS / "common" / "test_messy_data.py",
    # Widgets displayed in a fresh kernel, run by nbclient as a notebook is.
    TESTS / "widgets" / "test_figure_display.py",
    TESTS / "widgets" / "test_static_fallback.py",
]


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = Path(item.path)
        if item.get_closest_marker("notebook") or any(
            path.is_relative_to(folder) for folder in SLOW
        ):
            item.add_marker(pytest.mark.slow)
