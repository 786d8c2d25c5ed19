"""What the whole suite shares: the `slow` mark on the groups that the inner
loop (`make test-fast`) leaves to `make test`.

Marked by folder, here, so a new test in those folders is marked without
remembering to: the browser tests (JupyterLab and Chromium), scikit-learn's
own inspection suite run against ours (tests/dropin), the scale tests
(memory budgets, dask) and the notebooks.
"""

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
SLOW = [TESTS / "browser", TESTS / "dropin", TESTS / "engine" / "scale"]


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = Path(item.path)
        if item.get_closest_marker("notebook") or any(
            path.is_relative_to(folder) for folder in SLOW
        ):
            item.add_marker(pytest.mark.slow)
