"""ModelInspector's cohorts: named rules on X's columns ("age < 30 and plan
== 'pro'", the language of inspection/_core/cohort_rules.py), passed from
Python or built in the header, and shown in every view at once as the
"(cohorts)" split of the views' own "Split by" (COHORT_SPLIT):

- Importance (held-out and training rows): each cohort's permutation
  importance, the permutation widget's subgroup run over the cohorts'
  labels (widgets/_importance_split.py);
- Effects: the partial dependence of each cohort, the mean of its rows' ICE
  curves (the PD widget's split: no other prediction), and a cluster rule
  of its ICE clusters made a cohort with a click;
- the header: each cohort's rows and its held-out score of every scorer, the
  held-out Importance run's baseline scores of its subgroups: no other
  prediction.

A row meeting several rules counts in the first cohort listed; the rows in
none form "rest". A rule that does not parse, or names no column of X, is
refused: from Python as a TraitError, from the header as `_cohorts_error`
shown beside the form; the cohorts in force stay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import traitlets
from pandas.api.types import is_bool_dtype, is_numeric_dtype

from ..inspection import cohort_labels
from ..inspection._core import (
    check_cohorts,
    level_summary,
    rule_name,
    rule_naming_only,
)
from ._effect_groups import COHORT_SPLIT, cohort_order
from ._inspector_models import cohort_scores
from ._options import split_column

if TYPE_CHECKING:
    from collections.abc import Callable

    from matplotlib.figure import Figure

    from ._base import ComputationWidget

COHORT_VIEWS = ("importance", "importance_train", "effects")
"""The views split by the cohorts (those with a "Split by" of rows)."""

_GONE = {"cohort_importance": "importance", "cohort_effects": "effects"}
"""The cohorts' own tables before they were the views' split (#34)."""


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
            fields.append({"name": name, "kind": "text", **_suggestions(column)})
    return fields


def _suggestions(column):
    """The values the form suggests for a text column, most frequent first:
    every one, or of an ID's or an e-mail's only those `level_summary`
    names, and its note (the suggestions are in a saved page's state)."""
    summary = level_summary(column)
    if summary is None:
        counts = column.dropna().astype(str).value_counts(sort=True)
        return {"values": list(counts.index), "note": ""}
    return {"values": [str(v) for v in summary.named], "note": summary.note}


def _numbers(column):
    try:
        column.dropna().to_numpy(dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return True


def as_trait(cohorts):
    """`cohorts` (a dict or a list) as the trait holds them."""
    return [{"name": c.name, "rule": c.rule} for c in check_cohorts(cohorts)]


class CohortsTrait(traitlets.TraitType):
    """Cohorts as ModelInspector takes them (a dict {name: rule}, a list of
    Cohort or of {"name", "rule"} dicts), held as the list of dicts the
    header's form sends: ``mi.cohorts = {...}`` works as the argument does."""

    info_text = 'a dict {name: rule} or a list of Cohort or {"name", "rule"} dicts'

    def make_dynamic_default(self):
        return []

    def validate(self, obj, value):
        try:
            return as_trait(value)
        except (TypeError, ValueError) as error:
            raise traitlets.TraitError(str(error)) from None


class InspectorCohorts(traitlets.HasTraits):
    """The `cohorts` trait of ModelInspector and what it sets in every view
    (the views are InspectorViews' children)."""

    cohorts = CohortsTrait().tag(sync=True)
    """The cohorts: ``[{"name": ..., "rule": ...}]`` (see
    :class:`~inspectwidgets.Cohort`); empty for none."""

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
    _sent_as: dict[str, str]

    def _init_cohorts(self, cohorts):
        """The form's columns, the header's messages, and `cohorts` set."""
        self._cohort_fields = cohort_fields(self._X, self._names)
        self.on_msg(self._on_cohort_message)
        importance = self._children["importance"]
        if hasattr(importance, "_set_cohorts"):  # not several models' run
            importance.observe(self._cohort_scores, names=["_chart"])
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
        labels = cohort_labels(self._X, cohorts, self._names) if cohorts else None
        self._cohorts_to_header(cohorts, labels)
        for key in COHORT_VIEWS:
            self._cohorts_to_view(key, cohorts)
        if self._ready:
            self._refresh()

    def _on_cohort_message(self, widget, content, buffers):
        """The header's form sent the whole list: set, or refused with the
        reason shown and the cohorts in force kept."""
        if not isinstance(content, dict) or "set_cohorts" not in content:
            return
        try:
            self.cohorts = [self._as_named(c) for c in content["set_cohorts"] or []]
        except (traitlets.TraitError, TypeError, ValueError) as error:
            self._cohorts_error = str(error)

    def _as_named(self, cohort):
        """A cohort from the form with each column the page knew by its
        escape (a lone surrogate, `sendable`) named as X names it: the form
        quotes the name it was shown, which only the page held."""
        rule = cohort.get("rule") if isinstance(cohort, dict) else None
        if not isinstance(rule, str):
            return cohort  # check_cohorts says what is wrong
        for shown, original in self._sent_as.items():
            if original in self._names:
                rule = rule.replace(rule_name(shown, ()), rule_name(original, ()))
        return {**cohort, "rule": rule}

    def _build_subsampled(self, every_model=True):
        super()._build_subsampled(every_model)
        self._cohorts_to_view("effects", check_cohorts(self.cohorts))

    def _cohorts_of_reviewed(self):
        """Another model reviewed: the views made again for it take the
        cohorts, and the header scores each cohort for it."""
        if self.cohorts:
            self._on_cohorts(None)

    def _cohorts_to_view(self, key, cohorts):
        """View `key` split by the cohorts: redrawn (or run) at once when
        shown, else when next shown."""
        child = self._children.get(key)
        if child is None or not hasattr(child, "_set_cohorts"):
            return  # made later (_build_subsampled), or no split (several models)
        if self._started and key in self._shown():
            child._set_cohorts(cohorts)
        else:
            with self._quietly(key):
                child._set_cohorts(cohorts)

    def _cohorts_to_header(self, cohorts, labels):
        """Each cohort's rows in the header, its scores to come; its rule as
        a page may show it (`rule_naming_only`: no value of an ID's or an
        e-mail's that `level_summary` does not name)."""
        entries = []
        names = cohort_order(cohorts)
        rules = [self._shown_rule(c.rule) for c in cohorts] + [""]
        for name, rule in zip(names, rules, strict=True) if cohorts else ():
            size = int(np.sum(labels == name))
            entries.append({"name": name, "rule": rule, "size": size, "scores": None})
        splits = hasattr(self._children["importance"], "_set_cohorts")
        # The held-out run's split (not several models') scores them when it
        # runs, that is when shown; else they are scored here.
        hidden = self._started and "importance" not in self._shown()
        if cohorts and (not splits or hidden):
            entries = self._scored(entries, labels)
        with self._lock:
            self._header = {**self._header, "cohorts": entries}

    def _scored(self, entries, labels=None):
        """`entries` with each cohort's scores, from one prediction of the
        held-out rows (:func:`cohort_scores`)."""
        if labels is None:
            labels = cohort_labels(self._X, check_cohorts(self.cohorts), self._names)
        names = [entry["name"] for entry in entries]
        scored = cohort_scores(
            self._estimator, self._X, self._y, labels, names, self._scoring
        )
        return [{**e, "scores": scored[e["name"]]} for e in entries]

    def _shown_rule(self, rule):
        return rule_naming_only(
            rule, self._names, lambda name: split_column(self._X, self._names, name)
        )

    def _cohort_scores(self, change):
        # From the held-out Importance run's thread: its subgroups' baseline
        # scores, when they are the cohorts'.
        chart = change.new
        groups = (chart or {}).get("groups")
        if not groups or self._children["importance"].split_by != COHORT_SPLIT:
            return
        with self._lock:
            entries = self._header.get("cohorts", [])
            if set(groups["labels"]) - {entry["name"] for entry in entries}:
                return  # the bars of other cohorts
            position = {label: i for i, label in enumerate(groups["labels"])}
            scorers = chart["scorers"]

            def scored(entry):
                i = position.get(entry["name"])
                if i is None:  # a cohort of no rows: no score
                    return {**entry, "scores": {}}
                return {
                    **entry,
                    "scores": {s: scorers[s]["baselines"][i] for s in scorers},
                    "small": groups["small"][i],
                    "min_size": groups["min_size"],
                }

            self._header = {**self._header, "cohorts": list(map(scored, entries))}

    def _header_frame(self):
        frame = super()._header_frame()
        entries = self._header.get("cohorts") or []
        if not entries:
            return frame
        if any(entry["scores"] is None for entry in entries):
            # The held-out run has not split them yet (not shown): now.
            entries = self._scored(entries)
            with self._lock:
                if self._header.get("cohorts") and all(
                    e["scores"] is None for e in self._header["cohorts"]
                ):
                    self._header = {**self._header, "cohorts": entries}
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
        and scorer beside the scores on all rows), and the views split by
        them ("importance", "effects") have a `subgroup` column."""
        _check_not_gone(view, "to_frame")
        # InspectorResults.to_frame: next in ModelInspector's order.
        return super().to_frame(view)  # type: ignore[misc]

    def figure(self, view: str | None = None) -> Figure:
        """A matplotlib Figure of `view`, as :meth:`InspectorResults.figure`;
        split by the cohorts, one mark or curve per cohort."""
        _check_not_gone(view, "figure")
        return super().figure(view)  # type: ignore[misc]


def _check_not_gone(view, method):
    """The cohorts' own views are the views' split now: say where."""
    if view in _GONE:
        raise ValueError(
            f"view: {view!r} is no longer a view: the cohorts split the "
            f"{_GONE[view]!r} view (its Split by is {COHORT_SPLIT!r}); call "
            f"{method}({_GONE[view]!r}), whose `subgroup` column is the cohort."
        )
