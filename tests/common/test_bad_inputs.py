"""The same bad inputs on every public entry point: a clear error naming the
argument (or a finite result where the input is supported), the user's data and
model unchanged, and widgets that end in a status, never stuck in "running",
never "done" with nothing to draw, and usable again after a good change. The
inputs are the matrix's cases and the messy table's (messy.py). See
docs/reliability.md."""

import numpy as np
import pytest
from matrix import (
    CASES,
    TARGETS,
    Case,
    assert_finite,
    assert_names,
    fingerprint,
    known_gap,
)
from messy import MESSY_CASES
from traitlets import TraitError

WAIT = 30


def _params(pairs, suffix=""):
    """pytest params of (target, case) pairs, the known gaps marked xfail."""
    params = []
    for target, case in pairs:
        reason = known_gap(target, case)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(
            pytest.param(target, case, marks=marks, id=f"{target}-{case}{suffix}")
        )
    return params


PAIRS = [(t, c) for t in TARGETS for c in [*CASES, *MESSY_CASES] if c.applies_to(t)]


def _expected(target, case):
    # Functions that fit clones of the model accept an unfitted one.
    if (case.name == "unfitted model" or case.refitted_ok) and target.fits:
        return "ok"
    if target.widget and case.widget_outcome:
        return case.widget_outcome
    return case.outcome


@pytest.mark.parametrize("target, case", _params(PAIRS))
def test_bad_input(target, case):
    if case.name == "polars frame":
        pytest.importorskip("polars")
    model, X, y = case.build(target)
    before = fingerprint(model, X, y, case.settings)
    where = f"{target.name} / {case.name}"
    if target.widget:
        _check_widget(target, case, model, X, y, where)
    else:
        _check_call(target, case, model, X, y, where)
    assert fingerprint(model, X, y, case.settings) == before, f"{where}: mutated"


def _check_call(target, case, model, X, y, where):
    expected = _expected(target, case)
    try:
        result = target.call(model, X, y, **case.settings)
    except case.errors as exc:
        assert expected != "ok", f"{where}: refused a supported input: {exc!r}"
        assert_names(case, str(exc), where)
        return
    assert expected != "raise", f"{where}: accepted without an error"
    assert_finite(target.numbers(result), where)


def _check_widget(target, case, model, X, y, where):
    expected = _expected(target, case)
    try:
        w = target.call(model, X, y, **case.settings)
    except (*case.errors, TraitError) as exc:
        assert expected != "ok", f"{where}: refused a supported input: {exc!r}"
        assert_names(case, str(exc), where)
        return
    try:
        status = w.wait(timeout=WAIT)
        assert status in ("done", "error"), f"{where}: ended {status!r}"
        if status == "done":
            assert expected != "raise", f"{where}: accepted without an error"
            assert_finite(target.numbers(w.result), where)
            _assert_drawable(target, w, where)
            return
        assert expected != "ok", f"{where}: refused a supported input: {w.error}"
        assert_names(case, w.error, where)
        assert w.error_details.startswith("Traceback")
        if case.fault:
            # Usable again: the model mended, a run gives the engine's result.
            model.fault = None
            w.run()
            assert w.wait(timeout=WAIT) == "done", w.error
            assert_finite(target.numbers(w.result), where)
            model.fault = case.fault  # as it was, for the mutation check
    finally:
        w.close()


def _assert_drawable(target, w, where):
    """A widget that is done has something to draw: its payload traits are
    filled, and a curve has finite points (its missing value's point, when
    the feature has one the model takes, finite too)."""
    widget = getattr(w, "inspector", w)
    for name in target.payload:
        assert getattr(widget, name), f"{where}: done with an empty {name}"
    curve = getattr(widget, "_curve", None) if target.payload == ("_curve",) else None
    if curve and len(curve["features"]) == 1:
        assert curve["grid_done"] > 0, f"{where}: done with no grid point"
        missing = curve.get("missing")
        if missing and not curve.get("missing_note") and "average" in missing:
            average = missing["average"]
            assert average is None or np.isfinite(average), f"{where}: {missing}"


TRAIT_CASES = [
    (t, c)
    for t in TARGETS
    if t.widget
    for c in CASES
    if c.settings and set(c.settings) <= t.traits and c.applies_to(t)
]

GOOD = {"n_repeats": 3, "random_state": 5, "grid_resolution": 6}


def _trait_value(target, name, value):
    """A generic setting as the widget's trait holds it."""
    if name == "scoring" and target.name == "PermutationImportanceWidget":
        return [value] if isinstance(value, str) else value
    if name == "features" and target.name == "PartialDependenceWidget":
        return [str(v) if isinstance(v, str) else v for v in value]
    return value


@pytest.mark.parametrize("target, case", _params(TRAIT_CASES, " (trait)"))
def test_bad_trait_value_then_a_good_one(target, case: Case):
    """The same settings changed on a running widget, then set right again."""
    model, X, y = Case("good", "").build(target)
    w = target.call(model, X, y)
    where = f"{target.name} / {case.name} (trait)"
    try:
        assert w.wait(timeout=WAIT) == "done"
        ((name, value),) = case.settings.items()
        before = getattr(w, name)
        try:
            setattr(w, name, _trait_value(target, name, value))
        except TraitError as exc:
            assert_names(case, str(exc), where)
            assert getattr(w, name) == before and w.status == "done"
        else:
            if w.wait(timeout=WAIT) == "done":
                assert case.outcome != "raise", f"{where}: accepted {value!r}"
            else:
                assert w.status == "error", f"{where}: ended {w.status!r}"
                assert_names(case, w.error, where)
        if name in GOOD:
            setattr(w, name, GOOD[name])
        else:
            setattr(w, name, before)
            w.run()
        assert w.wait(timeout=WAIT) == "done", f"{where}: {w.error}"
        assert_finite(target.numbers(w.result), where)
    finally:
        w.close()
