"""scikit-learn's own inspection tests, passed by our functions.

`permutation_importance` and `partial_dependence` promise to be drop-ins for
scikit-learn's. This runs the test files of the *installed* scikit-learn for
both functions (and for `PartialDependenceDisplay`, which calls
`partial_dependence`) in a pytest subprocess, with ours substituted before the
test modules import them (sklearn_substitution.py, which also lists the tests
left out and why), and `-W error::UserWarning`: a warning scikit-learn does not
give fails. The substitution is checked, not assumed: every test run must have
called ours, and no module may still hold scikit-learn's function.
"""

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib.util import find_spec
from pathlib import Path

import pytest
import sklearn_substitution

SKLEARN = Path(find_spec("sklearn").submodule_search_locations[0])
TEST_FILES = [
    SKLEARN / "inspection" / "tests" / "test_permutation_importance.py",
    SKLEARN / "inspection" / "tests" / "test_partial_dependence.py",
    SKLEARN / "inspection" / "_plot" / "tests" / "test_plot_partial_dependence.py",
]


@pytest.fixture(scope="module")
def suite(tmp_path_factory):
    """Run scikit-learn's tests once; their JUnit report and ours."""
    missing = [str(f) for f in TEST_FILES if not f.exists()]
    if missing:
        pytest.fail(f"scikit-learn's test files are not installed: {missing}")
    root = tmp_path_factory.mktemp("sklearn_suite")
    # An empty ini: neither our pytest settings nor scikit-learn's apply.
    (root / "pytest.ini").write_text("[pytest]\n")
    report, junit = root / "substitution.json", root / "junit.xml"
    env = {
        **os.environ,
        "PYTHONPATH": str(Path(sklearn_substitution.__file__).parent),
        "INSPECTWIDGETS_SUBSTITUTION_REPORT": str(report),
        "MPLBACKEND": "Agg",
    }
    pytest_command = [
        sys.executable, "-m", "pytest", "-q", "-c", str(root / "pytest.ini"),
        "--rootdir", str(root), "-p", "no:cacheprovider",
    ]  # fmt: skip
    command = [
        *pytest_command, "-p", "sklearn_substitution", "-W", "error::UserWarning",
        f"--junitxml={junit}", *map(str, TEST_FILES),
    ]  # fmt: skip
    done = subprocess.run(
        command, cwd=root, env=env, capture_output=True, text=True, timeout=900
    )
    # What the installed version's files hold, collected without our plugin:
    # each scikit-learn release adds and renames tests.
    listing = subprocess.run(
        [*pytest_command, "--collect-only", *map(str, TEST_FILES)],
        cwd=root, env={**env, "PYTHONPATH": ""}, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert listing.returncode == 0, listing.stdout[-5000:] + listing.stderr[-5000:]
    collected = [
        line.rsplit("::", 1)[-1] for line in listing.stdout.splitlines() if "::" in line
    ]
    report = json.loads(report.read_text())
    return done, report, ET.parse(junit).getroot(), collected


def test_sklearn_inspection_tests_pass_against_ours(suite):
    done, _, junit, collected = suite
    counts = {k: int(junit[0].get(k)) for k in ("tests", "failures", "errors")}
    # The tail names every failing test and the reason pytest gives.
    assert done.returncode == 0, done.stdout[-20000:] + done.stderr[-5000:]
    assert counts["failures"] == counts["errors"] == 0, counts
    # Every test of the installed version's three files but the excluded ran
    # (346 in scikit-learn 1.6, 537 from 1.7): not an empty or partial run.
    ran = sorted(case.get("name") for case in junit.iter("testcase"))
    expected = sorted(
        name
        for name in collected
        if name.split("[")[0] not in sklearn_substitution.EXCLUDED
    )
    assert ran == expected
    assert counts["tests"] >= 300, counts


def test_every_test_run_called_ours_and_none_kept_sklearns(suite):
    _, report, junit, _ = suite
    ran = {case.get("name") for case in junit.iter("testcase")}
    called = {
        test.rsplit("::", 1)[-1]: calls for test, calls in report["calls"].items()
    }
    # JSON spells the test id None (a call outside any test) "null".
    assert called.pop("null", {}) == {}, "called outside any test"
    assert sorted(ran - set(called)) == [], "tests that never called ours"
    totals = {
        name: sum(c.get(name, 0) for c in called.values())
        for name in ("permutation_importance", "partial_dependence")
    }
    assert totals["permutation_importance"] >= 40, totals
    assert totals["partial_dependence"] >= 400, totals
    assert report["originals"] == [], "modules still holding scikit-learn's"


def test_every_exclusion_still_matches_a_test(suite):
    _, report, _, _ = suite
    excluded = {test.rsplit("::", 1)[-1].split("[")[0] for test in report["excluded"]}
    assert excluded == set(sklearn_substitution.EXCLUDED)
