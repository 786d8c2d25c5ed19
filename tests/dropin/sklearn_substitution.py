"""A pytest plugin: scikit-learn's inspection functions replaced by ours.

Loaded with ``-p sklearn_substitution`` into a pytest run of scikit-learn's
own test files (see test_sklearn_suite.py). At configure time, before any test
module is imported, `sklearn.inspection.permutation_importance` and
`partial_dependence`, and every module attribute that already holds them
(such as the one `PartialDependenceDisplay` calls), become counting wrappers of
inspectwidgets' functions. At the end of the session the calls counted (per
test), and the modules that still hold one of scikit-learn's functions, are
written as JSON to the file named by ``INSPECTWIDGETS_SUBSTITUTION_REPORT``:
the caller checks that ours ran and that no test module imported
scikit-learn's. The tests in `EXCLUDED` are deselected, each for its reason.
"""

import json
import os
import sys
from collections import Counter, defaultdict
from functools import wraps

import sklearn.inspection
import sklearn.inspection._partial_dependence as sk_pd
import sklearn.inspection._permutation_importance as sk_pi
import sklearn.inspection._plot.partial_dependence as sk_plot

import inspectwidgets

ORIGINALS = {
    "permutation_importance": sk_pi.permutation_importance,
    "partial_dependence": sk_pd.partial_dependence,
}
# Every module attribute holding one of them once scikit-learn is imported.
HOLDERS = {
    "permutation_importance": (sklearn.inspection, sk_pi),
    "partial_dependence": (sklearn.inspection, sk_pd, sk_plot),
}
# scikit-learn's tests that never call either function, by name, and why
# they are not run: they test scikit-learn's own code, not ours.
EXCLUDED = {
    "test_grid_from_X": "the private helper _grid_from_X",
    "test_grid_from_X_error": "the private helper _grid_from_X",
    "test_grid_from_X_with_categorical": "the private helper _grid_from_X",
    "test_grid_from_X_heterogeneous_type": "the private helper _grid_from_X",
    "test_partial_dependence_helpers": (
        "the private helpers _partial_dependence_brute and "
        "_partial_dependence_recursion"
    ),
    "test_recursion_decision_tree_vs_forest_and_gbdt": (
        "the private helper _partial_dependence_recursion"
    ),
    "test_partial_dependence_kind_error": (
        "PartialDependenceDisplay's own argument checks, which raise before "
        "partial_dependence is called"
    ),
    "test_plot_partial_dependence_error": (
        "PartialDependenceDisplay's own argument checks, which raise before "
        "partial_dependence is called"
    ),
    "test_plot_partial_dependence_multiclass_error": (
        "PartialDependenceDisplay's own argument checks, which raise before "
        "partial_dependence is called"
    ),
    "test_grid_resolution_with_categorical": (
        "PartialDependenceDisplay's own argument checks, which raise before "
        "partial_dependence is called"
    ),
}
# {test id: {function name: calls}}
CALLS = defaultdict(Counter)
CURRENT = {"test": None}
EXCLUDED_IDS = []


def _counted(function, name):
    @wraps(function)
    def counted(*args, **kwargs):
        CALLS[CURRENT["test"]][name] += 1
        return function(*args, **kwargs)

    return counted


def pytest_configure(config):
    for name, original in ORIGINALS.items():
        ours = _counted(getattr(inspectwidgets, name), name)
        for module in HOLDERS[name]:
            if getattr(module, name) is not original:
                raise RuntimeError(
                    f"{module.__name__}.{name} is not scikit-learn's function: "
                    "scikit-learn has moved it, and the substitution would miss "
                    "its callers."
                )
            setattr(module, name, ours)


def pytest_collection_modifyitems(session, config, items):
    excluded = [item for item in items if item.originalname in EXCLUDED]
    items[:] = [item for item in items if item.originalname not in EXCLUDED]
    config.hook.pytest_deselected(items=excluded)
    EXCLUDED_IDS.extend(item.nodeid for item in excluded)


def pytest_runtest_setup(item):
    CURRENT["test"] = item.nodeid


def _modules_holding_originals():
    originals = {id(f): name for name, f in ORIGINALS.items()}
    return sorted(
        f"{module_name}.{attribute}"
        for module_name, module in list(sys.modules.items())
        if module is not None
        for attribute, value in list(vars(module).items())
        if id(value) in originals and value is ORIGINALS[originals[id(value)]]
    )


def pytest_sessionfinish(session, exitstatus):
    report = os.environ.get("INSPECTWIDGETS_SUBSTITUTION_REPORT")
    if report:
        with open(report, "w") as f:
            json.dump(
                {
                    "calls": {test: dict(c) for test, c in CALLS.items()},
                    "originals": _modules_holding_originals(),
                    "excluded": EXCLUDED_IDS,
                },
                f,
            )
