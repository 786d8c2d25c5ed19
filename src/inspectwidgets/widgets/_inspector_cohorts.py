"""ModelInspector's cohorts: named rules on X's columns ("age < 30 and plan
== 'pro'", the language of inspection/_core/cohort_rules.py), passed from
Python or built in the header, and shown in every view at once:

- the header: each cohort's rows and its held-out score of every scorer (the
  cohort importance run's baseline scores: no other prediction);
- Importance (held-out rows): each cohort's permutation importance, one run
  of `subgroup_permutation_importance` (widgets/_cohort_importance.py);
- Effects: the partial dependence of each cohort, the mean of its rows' ICE
  curves (the PD widget's split by cohorts: no other prediction).

A row meeting several rules counts in the first cohort listed; the rows in
none form "rest". A rule that does not parse, or names no column of X, is
refused: from Python as a TraitError, from the header as `_cohorts_error`
shown beside the form; the cohorts in force stay.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import traitlets
from pandas.api.types import is_bool_dtype, is_numeric_dtype

from ..inspection import cohort_labels
from ..inspection._core import REST, check_cohorts
from ._effect_groups import COHORT_SPLIT

if TYPE_CHECKING:
    from collections.abc import Callable

    from ._base import ComputationWidget

# Values of a text column the header's form offers (the most frequent).
MAX_FIELD_VALUES = 30


def cohort_fields(X, names):
    """What the header's form offers per column: its name, its kind
    ("number", "bool" or "text") and, for text, its most frequent values."""
    frame = X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))
    fields = []
    for position, name in enumerate(names):
        column = frame.iloc[:, position]
        if is_bool_dtype(column.dtype):
            fields.append({"name": name, "kind": "bool", "values": []})
        elif is_numeric_dtype(column.dtype) or _numbers(column):
            fields.append({"name": name, "kind": "number", "values": []})
        else:
            counts = column.dropna().astype(str).value_counts(sort=True)
            values = list(counts.index[:MAX_FIELD_VALUES])
            fields.append({"name": name, "kind": "text", "values": values})
    return fields


def _numbers(column):
    try:
        column.dropna().to_numpy(dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return True


def as_trait(cohorts):
    """`cohorts` (a dict or a list) as the trait holds them."""
    return [{"name": c.name, "rule": c.rule} for c in check_cohorts(cohorts)]


class InspectorCohorts(traitlets.HasTraits):
    """The `cohorts` trait of ModelInspector and what it sets in every view
    (the views are InspectorViews' children)."""

    cohorts = traitlets.List(traitlets.Dict()).tag(sync=True)
    """The cohorts: ``[{"name": ..., "rule": ...}]`` (see
    :class:`~inspectwidgets.Cohort`); empty for none."""

    _cohort_importance = traitlets.Dict().tag(sync=True)
    """The mirror of the cohorts' held-out importance view."""

    _cohorts_error = traitlets.Unicode("").tag(sync=True)
    """Why the header's last cohorts were refused; "" when they were not."""

    _cohort_fields = traitlets.List(traitlets.Dict()).tag(sync=True)
    """The columns the header's form offers (:func:`cohort_fields`)."""

    _children: dict[str, ComputationWidget]
    _dirty: set[str]
    _lock: object
    _ready: bool
    _started: bool
    _header: dict
    _refresh: Callable[[], None]
    _tab: Callable[[], str]

    def _init_cohorts(self, cohorts):
        """The form's columns, the header's messages, and `cohorts` set."""
        self._cohort_fields = cohort_fields(self._X, self._names)
        self.on_msg(self._on_cohort_message)
        if cohorts:
            value = as_trait(cohorts)
            try:
                self.cohorts = value
            except traitlets.TraitError as error:  # a bad argument, as any other
                raise ValueError(str(error)) from None

    @traitlets.validate("cohorts")
    def _check_cohorts(self, proposal):
        try:
            value = as_trait(proposal.value)
            cohort_labels(self._X, check_cohorts(value), self._names)
        except (TypeError, ValueError) as error:
            raise traitlets.TraitError(str(error)) from None
        return value

    @traitlets.observe("cohorts")
    def _on_cohorts(self, change):
        self._cohorts_error = ""
        cohorts = check_cohorts(self.cohorts)
        self._cohorts_to_effects(cohorts)
        labels = cohort_labels(self._X, cohorts, self._names) if cohorts else None
        self._cohorts_to_header(cohorts, labels)
        if cohorts:
            order = (*(c.name for c in cohorts), REST)
            child = self._children.get("cohort_importance")
            if child is None:
                child = self._child(
                    "cohort_importance",
                    self._estimator,
                    self._X,
                    self._y,
                    labels=labels,
                    order=order,
                    scoring=self._scoring,
                    n_repeats=self.n_repeats,
                    random_state=self._random_state,
                    n_jobs=self._n_jobs,
                )
                child.observe(self._cohort_scores, names=["_cohort_chart"])
            else:
                child.set_labels(labels, order)
                self._dirty.add("cohort_importance")
        else:
            child = self._children.get("cohort_importance")
            if child is not None:
                child.cancel()  # its cohorts are gone
        if self._ready:
            self._refresh()

    def _on_cohort_message(self, widget, content, buffers):
        """The header's form sent the whole list: set, or refused with the
        reason shown and the cohorts in force kept."""
        if not isinstance(content, dict) or "set_cohorts" not in content:
            return
        try:
            self.cohorts = list(content["set_cohorts"] or [])
        except (traitlets.TraitError, TypeError) as error:
            self._cohorts_error = str(error)

    def _cohort_views(self):
        """The cohorts' own views shown: their importance on held-out rows
        under that Importance view (Effects is split in place)."""
        if self.cohorts and self._tab() == "importance":
            return {"cohort_importance"}
        return set()

    def _build_subsampled(self, every_model=True):
        super()._build_subsampled(every_model)
        self._cohorts_to_effects(check_cohorts(self.cohorts))

    def _cohorts_of_reviewed(self):
        """Another model reviewed: its cohorts' importance (and so their
        header scores) made again for it, when next shown."""
        stale = self._children.pop("cohort_importance", None)
        if stale is not None:
            stale.unobserve_all()
            stale.close()
            self._cohort_importance = {}
        if self.cohorts:
            self._on_cohorts(None)

    @traitlets.observe("n_repeats")
    def _on_cohort_repeats(self, change):
        if "cohort_importance" in self._children:
            with self._quietly("cohort_importance") as child:
                child.n_repeats = change.new
            if self._ready:
                self._refresh()

    def _cohorts_to_effects(self, cohorts):
        """The Effects view split by the cohorts: redrawn from its curves
        (or run) at once when shown, else when next shown."""
        if "effects" not in self._children:
            return  # made later (_build_subsampled), with the cohorts
        if self._started and "effects" in self._shown():
            self._children["effects"]._set_cohorts(cohorts)
        else:
            with self._quietly("effects") as effects:
                effects._set_cohorts(cohorts)

    def _cohorts_to_header(self, cohorts, labels):
        """Each cohort's rows in the header, its scores to come."""
        entries = []
        if cohorts:
            names = [c.name for c in cohorts] + [REST]
            rules = [c.rule for c in cohorts] + [""]
            for name, rule in zip(names, rules, strict=True):
                size = int(np.sum(labels == name))
                entries.append(
                    {"name": name, "rule": rule, "size": size, "scores": None}
                )
        with self._lock:
            self._header = {**self._header, "cohorts": entries}

    def _cohort_scores(self, change):
        # From the cohort run's thread: its baseline scores, by cohort.
        chart = change.new
        if not chart:
            return
        scores = dict(zip(chart["cohorts"], chart["scores"], strict=True))
        small = dict(zip(chart["cohorts"], chart["small"], strict=True))
        with self._lock:
            entries = [
                {
                    **entry,
                    "scores": scores.get(entry["name"]),
                    "small": small.get(entry["name"], False),
                    "min_size": chart["min_size"],
                }
                for entry in self._header.get("cohorts", [])
            ]
            self._header = {**self._header, "cohorts": entries}

    def _header_frame(self):
        frame = super()._header_frame()
        entries = self._header.get("cohorts") or []
        if not entries:
            return frame
        frame.insert(0, "cohort", "all rows")
        frame.insert(1, "n_rows", len(self._y))
        rows = [
            {
                "cohort": entry["name"],
                "n_rows": entry["size"],
                "scorer": scorer,
                "model": (entry["scores"] or {}).get(scorer, np.nan),
            }
            for entry in entries
            for scorer in frame["scorer"]
        ]
        return pd.concat([frame, pd.DataFrame(rows)], ignore_index=True)

    def to_frame(
        self, view: str | None = None
    ) -> pd.DataFrame | dict[str, pd.DataFrame]:
        """A computed table, as :meth:`InspectorResults.to_frame`; where
        cohorts are set, "header" has a `cohort` column (a row per cohort
        and scorer beside the scores on all rows), "cohort_importance" is
        each cohort's importance and "cohort_effects" each cohort's partial
        dependence of the Effects feature (the mean of its rows' ICE
        curves), each with a `cohort` column."""
        if view == "cohort_effects":
            return self._cohort_effects_frame()
        # InspectorResults.to_frame: next in ModelInspector's order.
        tables = super().to_frame(view)  # type: ignore[misc]
        if view is None and isinstance(tables, dict) and self.cohorts:
            with contextlib.suppress(RuntimeError):  # no curves yet
                tables["cohort_effects"] = self._cohort_effects_frame()
        return tables

    def _cohort_effects_frame(self):
        """The Effects view's table when it splits by the cohorts (its
        subgroups' partial dependence), the `subgroup` column as `cohort`."""
        effects = self._children.get("effects")
        if (
            not self.cohorts
            or effects is None
            or effects.result is None
            or effects.split_by != COHORT_SPLIT
        ):
            raise RuntimeError(
                "No cohort effects yet: set cohorts, select a feature, then wait()."
            )
        frame = effects.to_frame()
        if "subgroup" not in frame:  # a summary of a sample of the curves only
            raise RuntimeError("The Effects view shows no split by the cohorts.")
        return frame.rename(columns={"subgroup": "cohort"})
