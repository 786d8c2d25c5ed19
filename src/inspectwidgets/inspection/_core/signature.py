"""One parameter list per engine, and one way for its one-shot function to end.

``permutation_importance`` and ``partial_dependence`` write their signatures
out, beside their docstrings, as scikit-learn does. The streaming ``iter_…``
function and the Run behind both take the same parameters minus the
one-shot's own (`callback`, `return_result`), read from that signature rather
than written again, so the three cannot drift apart.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

ONE_SHOT_ONLY = ("callback", "return_result")


def streaming_signature(one_shot):
    """`one_shot`'s signature without the parameters only it has."""
    signature = inspect.signature(one_shot)
    return signature.replace(
        parameters=[
            p for name, p in signature.parameters.items() if name not in ONE_SHOT_ONLY
        ]
    )


def adopt_parameters(
    function: Callable[..., Any], signature: inspect.Signature
) -> None:
    """Show `signature`'s parameters as `function`'s (written with
    ``**params``) to help() and the docs, keeping `function`'s own return
    annotation: an ``iter_…`` function yields what its one-shot returns."""
    own = inspect.signature(function).return_annotation
    function.__signature__ = signature.replace(  # type: ignore[attr-defined]
        return_annotation=own
    )


def bind_arguments(signature, args, kwargs):
    """The call's arguments by name, defaults filled in; a TypeError names an
    unknown or missing argument, as the function itself would."""
    bound = signature.bind(*args, **kwargs)
    bound.apply_defaults()
    return bound.arguments


def streaming_arguments(arguments):
    """A one-shot call's arguments (its ``locals()``) without its own."""
    return {k: v for k, v in arguments.items() if k not in ONE_SHOT_ONLY}


def finish(results, run, callback, return_result):
    """What a one-shot function returns: the last of the streamed `results`
    (each shown to `callback`), or the run's empty result when cancelled
    before the first; as scikit-learn's Bunch unless `return_result`."""
    result = None
    for result in results:
        if callback is not None:
            callback(result)
    if result is None:
        result = run.empty_result()
    return result if return_result else result.to_sklearn()
