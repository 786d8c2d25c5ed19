"""The parts of a PartialDependenceWidget run: which ones the settings need
and what each depends on (the planner), the snapshots of the parts in turn
(the loop that only streams), and the run's progress.

A part is "pd" (the partial dependence), "ale" or "steps" (ICE at every step
of a tree model). A part computed in full is kept with its `PartSettings`, so
switching back to settings already computed redraws without predicting.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..inspection._core import quoted, quoted_names

if TYPE_CHECKING:
    from ..inspection import AccumulatedLocalEffectsResult, PartialDependenceResult


PD_KINDS = ("average", "individual", "both")
KINDS = (*PD_KINDS, "ale", "average_and_ale")


@dataclass(frozen=True)
class Effects:
    """One snapshot of a run: the partial dependence and/or the ALE (None
    where the kind does not draw it, or before it starts)."""

    pd: PartialDependenceResult | None = None
    ale: AccumulatedLocalEffectsResult | None = None
    steps: object = None
    """ICE of the same rows as `pd` at every step of a tree model."""
    expects: tuple = ()
    """The parts the run computes, for its progress."""


@dataclass(frozen=True)
class PartSettings:
    """The settings one part's result depends on: the key its complete result
    is kept under, and the arguments of the stream that computes it, read by
    name (adding a setting is adding a field; nothing shifts)."""

    features: tuple
    grid_resolution: int
    scale: str
    kind: str | None = None
    """The engine's kind of a partial dependence part (None for the ALE)."""
    n_ice: int | None = None
    """ICE curves computed (None: the average only)."""
    centered: bool = False
    at_ale_edges: bool = False
    """The overlay's partial dependence: its grid is the ALE's bin edges, so
    it depends on the ALE's settings, not on `kind`."""


def check_features(features, target, targets, names):
    """The widget's features and class, refused in its words."""
    if not 1 <= len(features) <= 2:
        raise ValueError(
            f"features: pick one feature (a curve) or two (a surface); "
            f"got {quoted_names(list(features))}."
        )
    if targets and target not in targets:
        raise ValueError(
            f"target: {quoted(target)} is not a class shown here; "
            f"choose from {quoted_names(targets)}."
        )
    unknown = [f for f in features if f not in names]
    if unknown:
        raise ValueError(
            f"features: {quoted_names(unknown)} not among X's columns; "
            f"choose from {quoted_names(names)}."
        )


def plan_parts(
    *, features, kind, grid_resolution, scale, n_ice, centered, steps, all_curves=False
):
    """The parts a run needs, each with its `PartSettings`, in the order they
    are computed. `steps` is False, or a function giving why the first
    feature's steps cannot be read ("" if they can) when ``ice_steps`` is on.
    `all_curves`: a one-way partial dependence keeps every row's ICE curve
    (for subgroups and summaries: the same predictions, more kept), under one
    key whatever the summary, so switching between them predicts nothing."""
    common = dict(
        features=tuple(features), grid_resolution=grid_resolution, scale=scale
    )
    if kind == "ale":
        return [("ale", PartSettings(**common))]
    if kind == "average_and_ale":
        if len(features) != 1:
            raise ValueError(
                "kind: 'average_and_ale' overlays two curves of one feature; "
                f"got features={quoted_names(list(features))}. Pick one "
                "feature, or kind='ale' for a pair's second-order effect."
            )
        overlay = PartSettings(**common, kind="average", at_ale_edges=True)
        return [("ale", PartSettings(**common)), ("pd", overlay)]
    two_way = len(features) == 2
    pd_kind = "average" if two_way else kind
    ice = None if two_way or pd_kind == "average" else n_ice
    centered = centered and not two_way
    pd_settings = PartSettings(**common, kind=pd_kind, n_ice=ice, centered=centered)
    if all_curves and not two_way:
        every = "individual" if kind == "individual" else "both"
        pd_settings = dataclasses.replace(pd_settings, kind=every, n_ice=None)
    parts = [("pd", pd_settings)]
    if steps and ice is not None:
        problem = steps(features[0])
        if problem:
            raise ValueError(f"ice_steps: {problem}")
        step_settings = PartSettings(
            **common, kind="individual", n_ice=ice, centered=centered
        )
        parts.append(("steps", step_settings))
    return parts


def chain_parts(held, parts, cancel, keep):
    """Snapshots of the parts in turn (held ones as they are): `parts` are
    ``(part, settings, stream)``, a stream that needs the parts before it
    given as a function of them; `keep(part, settings, result)` is called
    with each part complete."""
    shown = dict(held)
    expects = tuple(part for part, _, _ in parts)
    for part, settings, stream in parts:
        if part in held:
            continue
        if cancel.is_set():
            return  # cancelled between parts
        if callable(stream):  # it needs the parts before it
            stream = stream(shown)
        result = None
        for result in stream:
            shown[part] = result
            yield Effects(**shown, expects=expects)
        finished = result is not None and (
            result.done if part == "ale" else result.complete
        )
        if not finished:
            return
        keep(part, settings, result)
    if len(shown) == len(held):  # nothing left to compute
        yield Effects(**shown, expects=expects)


def progress_of(snapshot):
    """Rows for the ALE, grid points for the PD; the overlay counts each
    part as half the work."""
    fractions = []
    if "ale" in snapshot.expects:
        ale = snapshot.ale
        fractions.append(0.0 if ale is None else ale.n_rows_done / ale.n_rows)
    for part in ("pd", "steps"):
        if part in snapshot.expects:
            result = getattr(snapshot, part)
            fractions.append(0.0 if result is None else result.progress)
    return sum(fractions), len(fractions)
