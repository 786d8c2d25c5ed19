"""Which shortcut predicts a run's copies: the one place the engines choose.

``algorithm`` names a path: ``"generic"`` (the model predicts stacked
copies of X), a shortcut's own path (``"linear"``, ``"tree"``: that one, or
a ValueError saying why not), or ``"auto"``: the first shortcut of
:data:`SHORTCUTS` that takes the model, unless its cost model says the
model's own predict costs less. A new shortcut (another library's trees) is
one more row there, made of what its sub-package's face gives.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from . import linear, trees


class Chosen(NamedTuple):
    """A shortcut as a run uses it."""

    model: Any  # TreeModel or LinearModel: predict(X, copies, methods, ...)
    X: Any  # X as the shortcut reads it
    donor: Any  # the donor rows as it reads them, or None


@dataclass(frozen=True)
class Shortcut:
    """One row of :data:`SHORTCUTS`."""

    path: str  # its value of `algorithm`, and the path results report
    # (model, X, methods, donor) -> (shortcut, X, donor) as it reads them, or
    # why it does not apply (a str).
    take: Callable[..., Any]
    # (estimator, X, methods) -> why ``algorithm=path`` cannot apply whatever
    # X's values (a str), or None: checked before any work.
    check: Callable[..., str | None]
    # (model, algorithm, columns, n_repeats) -> whether, under "auto", the
    # model predicts copies permuting `columns` faster; None: never.
    slower: Callable[..., bool] | None = None


# In the order "auto" tries them: the linear shortcut first (a copy then
# costs a gather, never more than predicting it).
SHORTCUTS = (
    Shortcut("linear", linear.take, linear.check),
    Shortcut("tree", trees.take, trees.check, slower=trees.predicts_faster),
)


def choose_shortcut(algorithm, model, X, methods, donor=None, obstacle=None, *,
                    permuted=None, n_repeats=1, paths=None):  # fmt: skip
    """The :class:`Chosen` shortcut for `model` on `X` (and `donor`), or None
    for the generic path; ``algorithm="linear"`` or ``"tree"`` refuse with a
    ValueError saying why not. `obstacle`: a reason of the caller's own (a
    custom scorer, the recursion method). `permuted`: the column groups a
    permutation run permutes, `n_repeats` times each, for the cost models.
    `paths`: the shortcuts considered (None: all)."""
    for shortcut in SHORTCUTS:
        if algorithm not in ("auto", shortcut.path) or (
            paths is not None and shortcut.path not in paths
        ):
            continue
        if shortcut.slower is not None and shortcut.slower(
            model, algorithm, permuted, n_repeats
        ):
            return None
        found = obstacle or shortcut.take(model, X, methods, donor)
        if not isinstance(found, str):
            return Chosen(*found)
        if algorithm == shortcut.path:
            raise ValueError(f"algorithm={algorithm!r}: {found}.")
    return None


def check_algorithm_fits(algorithm, estimator, X, methods, obstacle=None):
    """For a shortcut's own `algorithm`, before any work: a ValueError
    unless the model (a column-wise pipeline's final step, if so) can take
    that shortcut."""
    for shortcut in SHORTCUTS:
        if algorithm == shortcut.path:
            reason = obstacle or shortcut.check(estimator, X, methods)
            if reason is not None:
                raise ValueError(f"algorithm={algorithm!r}: {reason}.")


def path_of(model):
    """What predicted the copies, as results report it: the path of a
    shortcut's `model` (``Chosen.model``), or "generic" (None)."""
    return "generic" if model is None else model.path
