"""The public API is typed: every public function, and every public method,
classmethod, staticmethod and property of every public class (its constructor
too), annotates each parameter and its return. ``make lint`` type-checks the
package with mypy (pyproject.toml [tool.mypy]); this test is what makes that
check strict on the public API, where mypy's default skips an unannotated
function silently."""

import inspect

import inspectwidgets

EXEMPT = {"self", "cls"}


def missing_annotations(function, name):
    """The parameters of `function` (and its return) without an annotation,
    each as ``name(parameter)`` or ``name -> return``."""
    signature = inspect.signature(function)
    missing = [
        f"{name}({parameter.name})"
        for parameter in signature.parameters.values()
        if parameter.name not in EXEMPT
        and parameter.annotation is inspect.Parameter.empty
    ]
    if signature.return_annotation is inspect.Signature.empty:
        missing.append(f"{name} -> return")
    return missing


def own_members(cls):
    """The public callables and properties of `cls` defined by this package,
    inherited ones included (a widget's run, wait and cancel come from its
    base), with its constructor; traits, which are class attributes, are not
    methods and stay out."""
    seen = set()
    for klass in cls.__mro__:
        if not klass.__module__.startswith("inspectwidgets"):
            continue
        for name, member in vars(klass).items():
            if name in seen or (name.startswith("_") and name != "__init__"):
                continue
            seen.add(name)
            if isinstance(member, classmethod | staticmethod):
                yield name, member.__func__
            elif isinstance(member, property):
                yield name, member.fget
            elif inspect.isfunction(member):
                yield name, member


def offenders(namespace, names):
    """Every unannotated parameter or return in the public names of
    `namespace`."""
    found = []
    for name in names:
        obj = getattr(namespace, name)
        if inspect.isfunction(obj):
            found += missing_annotations(obj, name)
        elif inspect.isclass(obj):
            for member_name, member in own_members(obj):
                found += missing_annotations(member, f"{name}.{member_name}")
    return found


def test_the_public_api_is_walked():
    kinds = {
        inspect.isfunction(getattr(inspectwidgets, n))
        or inspect.isclass(getattr(inspectwidgets, n))
        for n in inspectwidgets.__all__
        if n != "__version__"
    }
    assert kinds == {True}, "a public name is neither a function nor a class"
    members = dict(own_members(inspectwidgets.PermutationImportanceWidget))
    assert {"__init__", "run", "wait", "cancel", "to_frame", "figure"} <= set(members)
    assert "from_estimator" in dict(
        own_members(inspectwidgets.PartialDependenceDisplay)
    )


def test_every_public_function_and_method_is_annotated():
    names = [n for n in inspectwidgets.__all__ if n != "__version__"]
    found = offenders(inspectwidgets, names)
    assert not found, f"{len(found)} unannotated:\n" + "\n".join(found)


def test_the_checker_reports_an_unannotated_function():
    def untyped(estimator, X, *, n_repeats: int = 5):
        return estimator

    class Typed:
        def method(self, x: int):
            return x

        @property
        def size(self) -> int:
            return 0

    class Namespace:
        pass

    namespace = Namespace()
    namespace.untyped = untyped
    namespace.Typed = Typed
    Typed.__module__ = "inspectwidgets.synthetic"
    assert offenders(namespace, ["untyped", "Typed"]) == [
        "untyped(estimator)",
        "untyped(X)",
        "untyped -> return",
        "Typed.method -> return",
    ]
