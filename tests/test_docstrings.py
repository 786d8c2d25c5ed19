"""Every public function shows how it is used: its docstring ends with an
Examples section that `make doctest` runs (`--doctest-modules`)."""

import inspect

import pytest

import inspectwidgets

FUNCTIONS = sorted(
    name
    for name in inspectwidgets.__all__
    if inspect.isfunction(getattr(inspectwidgets, name))
)


def test_the_public_functions_are_found():
    assert {"permutation_importance", "partial_dependence"} <= set(FUNCTIONS)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_public_function_has_a_doctest_example(name):
    doc = inspect.getdoc(getattr(inspectwidgets, name))
    assert "\nExamples\n--------\n" in doc, f"{name}: no Examples section"
    examples = doc.split("\nExamples\n--------\n", 1)[1]
    assert ">>> " in examples, f"{name}: Examples without a doctest"
    # An example that only prints nothing checks nothing: some line must
    # expect an output.
    lines = examples.splitlines()
    assert any(
        line.strip() and not line.startswith((">>>", "...")) for line in lines
    ), f"{name}: Examples check no output"
