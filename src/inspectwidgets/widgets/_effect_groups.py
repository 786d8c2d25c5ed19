"""What the partial dependence widget draws of the ICE curves beyond thin
lines: one curve per subgroup of rows ("split by"), percentile bands, or
k-means clusters with the rules telling them apart.

All of it is read from the curves of every row the run already computed
(``n_ice=None``): the engine's ``subgroup_partial_dependence``,
``ice_percentiles`` and ``ice_clusters``, never another prediction. The thin
lines still drawn are those of the rows ``n_ice`` would have drawn (the same
seeded draw as the engine's), so switching a summary on keeps the picture.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import traitlets
from sklearn.utils import check_random_state

from ..inspection import (
    cohort_labels,
    ice_clusters,
    ice_percentiles,
    subgroup_partial_dependence,
)
from ..inspection._core import REST, quoted, quoted_names
from ._options import MAX_SPLIT_VALUES, split_column, split_options
from ._serialization import binary_array

ICE_MODES = ("lines", "bands", "clusters")

COHORT_SPLIT = "(cohorts)"
"""The `split_by` of the inspector's cohorts (offered once it sets some):
one curve per cohort and one for the rows in none."""


def cohort_order(cohorts):
    """The cohorts' names as listed, then "rest": the order (and so the
    colour) every view gives them."""
    return (*(c.name for c in cohorts), REST)


def split_by_cohorts(widget, cohorts, relabel):
    """The rule both split views (PD, permutation) follow for the
    inspector's `cohorts` (Cohort instances): "(cohorts)" offered once some
    are set and chosen whenever they change; none, the split goes;
    `relabel()` when the split stays "(cohorts)" with other labels."""
    widget._cohorts = tuple(cohorts)
    options = [o for o in widget._split_options if o != COHORT_SPLIT]
    widget._split_options = [*options, COHORT_SPLIT] if cohorts else options
    if not cohorts:
        if widget.split_by == COHORT_SPLIT:
            widget.split_by = None
    elif widget.split_by != COHORT_SPLIT:
        widget.split_by = COHORT_SPLIT
    else:
        relabel()


def check_split(value, options, rules):
    """`split_by`: None, a column of `options` or a rule listed in `rules`."""
    if value is None or value in options or value in rules:
        return value
    raise ValueError(
        f"split_by: {quoted(value)} is not a column of at most "
        f"{MAX_SPLIT_VALUES} distinct values nor a cluster rule shown; "
        f"choose None or one of {quoted_names(options)}."
    )


def split_labels(X, names, split_by, rule_rows):
    """One label per row of X for `split_by`: the column's values, or, for a
    cluster rule (a key of `rule_rows`), the rule against the other rows."""
    if split_by in rule_rows:
        inside = np.zeros(len(X), dtype=bool)
        inside[rule_rows[split_by]] = True
        return np.where(inside, split_by, "other rows")
    return split_column(X, names, split_by)


def drawn_rows(n_rows, n_ice, random_state):
    """The rows `n_ice` draws, as the engine draws them (None: every row)."""
    if n_ice is None or n_ice >= n_rows:
        return None
    rng = check_random_state(random_state)
    return np.sort(rng.choice(n_rows, n_ice, replace=False))


def with_drawn_curves(result, rows):
    """`result` with only the curves of `rows` (None: as it is), for the thin
    lines drawn under a summary."""
    if rows is None or result.individual is None or result.ice_rows is not None:
        return result
    return dataclasses.replace(
        result, individual=result.individual[:, rows], ice_rows=rows
    )


def _points(result, output, values):
    """`values` over the grid (last axis) at the computed points, without the
    missing point (drawn apart), as float32."""
    done = result.done
    if result.has_missing_point(0):
        done, values = done[:-1], values[..., :-1]
    return binary_array(np.ascontiguousarray(values[..., done]))


def groups_payload(result, output, labels, sample_weight, order=()):
    """Each subgroup's partial dependence: labels, sizes, the small ones
    (the engine's `min_size`) and their curves, one row per subgroup; those
    named in `order` first, in that order (the cohorts, as listed), the
    others as their rows come."""
    groups = subgroup_partial_dependence(result, labels, sample_weight=sample_weight)
    rank = {name: i for i, name in enumerate(order)}
    rows = sorted(
        range(len(groups.labels)), key=lambda i: rank.get(groups.labels[i], len(rank))
    )
    return {
        "labels": [str(groups.labels[i]) for i in rows],
        "sizes": [int(groups.sizes[i]) for i in rows],
        "small": [bool(groups.small[i]) for i in rows],
        "min_size": groups.min_size,
        "average": _points(result, output, groups.average[rows, output]),
    }


def bands_payload(result, output):
    """The 5-95 and 25-75 percentile bands and the median of the curves."""
    bands = ice_percentiles(result)
    return {
        "percentiles": list(bands.percentiles),
        "values": _points(result, output, bands.values[output]),
    }


def cluster_result(result, X, random_state):
    """The clusters of a complete result's curves, with rules on X."""
    return ice_clusters(result, X, random_state=random_state)


def clusters_payload(result, clusters, output):
    """Each cluster's mean curve and size, and its rules (listed beside the
    chart, each a split to click)."""
    return {
        "sizes": [int(size) for size in clusters.sizes],
        "average": _points(result, output, clusters.average[:, output]),
        "rules": [
            [
                {
                    "rule": rule.rule,
                    "size": rule.size,
                    "precision": rule.precision,
                    "coverage": rule.coverage,
                }
                for rule in rules
            ]
            for rules in clusters.rules or ()
        ],
    }


def cluster_rule_rows(clusters):
    """Each rule's text -> its rows (the first cluster's rule of a text kept:
    a leaf has one rule)."""
    rows = {}
    for rules, members in zip(
        clusters.rules or (), clusters.rule_rows or (), strict=True
    ):
        for rule, positions in zip(rules, members, strict=True):
            rows.setdefault(rule.rule, positions)
    return rows


class IceSummaries(traitlets.HasTraits):
    """The "split by" and ICE-mode traits of PartialDependenceWidget, and the
    payload entries they add to its `_curve` (`_summaries`)."""

    split_by = traitlets.Unicode(None, allow_none=True).tag(sync=True)
    """None, a column of X of 2 to ``MAX_SPLIT_VALUES`` values (one curve per
    value, missing values as "missing"), or a cluster rule shown (the rule's
    rows against the others)."""

    ice_mode = traitlets.Enum(ICE_MODES, default_value="lines").tag(sync=True)
    """ICE curves as thin lines, percentile bands (5-95, 25-75, median), or
    k-means clusters' mean curves with rules on X."""

    _split_options = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def _init_summaries(self, X, names):
        self._split_rule = None  # (rule, its rows) once set
        self._cohorts = ()  # the inspector's, for COHORT_SPLIT
        self._clusters = None  # (result, its IceClusters)
        return split_options(X, names)

    def _drop_rule_split(self):
        """Before other rows (`max_rows`) replace these: a cluster rule's
        rows are positions among these, so its split goes (a column's
        stays, read again from the new rows)."""
        if self.split_by is not None and self.split_by not in self._split_options:
            self.split_by = None

    def _set_cohorts(self, cohorts):
        """Split by the inspector's `cohorts` (Cohort instances; none: the
        split goes): each one's curve, and the rest's, read again from the
        curves of these rows (no prediction when they hold every row's)."""
        split_by_cohorts(self, cohorts, lambda: self._on_summary(None))

    @traitlets.validate("split_by")
    def _valid_split(self, proposal):
        rules = self._clusters[1] if self._clusters is not None else None
        shown = cluster_rule_rows(rules) if rules is not None else {}
        if self._split_rule is not None:
            shown.setdefault(*self._split_rule)
        try:
            value = check_split(proposal["value"], self._split_options, shown)
        except ValueError as error:
            raise traitlets.TraitError(str(error)) from None
        if value in shown and value not in self._split_options:
            self._split_rule = (value, shown[value])
        return value

    @traitlets.observe("split_by", "ice_mode")
    def _on_summary(self, change):
        """Another split or summary: redrawn from the curves when the run
        holds every row's, else rerun (keeping them from then on)."""
        if not self._ready:
            return
        with self._lock:
            result = self._snapshot.pd
            if (
                self._result_generation == self._generation
                and result is not None
                and result.individual is not None
                and result.ice_rows is None
            ):
                self._show(self._snapshot)
                return
        self._refresh()

    def _all_curves(self):
        """Whether the run keeps every row's curve (a summary is drawn)."""
        summary = self.ice_mode != "lines" and self.kind != "average"
        return self.split_by is not None or summary

    def _split_labels(self):
        """A label per row of the widget's X for `split_by` (set): the
        inspector's cohorts' for COHORT_SPLIT."""
        if self.split_by == COHORT_SPLIT:
            return cohort_labels(self._X, self._cohorts, self._names)
        rules = dict([self._split_rule]) if self._split_rule else {}
        return split_labels(self._X, self._names, self.split_by, rules)

    def _summaries(self, payload, result, output):
        """`payload` (a one-way `_curve`) with the subgroups', bands' and
        clusters' entries the traits ask for."""
        payload |= {"groups": None, "bands": None, "clusters": None}
        if result.individual is None or result.ice_rows is not None:
            return payload  # only drawn curves: nothing to summarize
        weight = self._engine_kwargs["sample_weight"]
        if self.split_by is not None:
            labels = self._split_labels()
            # The cohorts as the header and Importance list them: one colour each.
            order = cohort_order(self._cohorts) if self.split_by == COHORT_SPLIT else ()
            payload["groups"] = groups_payload(result, output, labels, weight, order)
        if self.kind == "average":  # no ICE drawn: no summary of it
            return payload
        if self.ice_mode == "bands":
            payload["bands"] = bands_payload(result, output)
        if self.ice_mode == "clusters" and result.complete:
            if self._clusters is None or self._clusters[0] is not result:
                random_state = self._engine_kwargs["random_state"]
                self._clusters = (result, cluster_result(result, self._X, random_state))
            payload["clusters"] = clusters_payload(result, self._clusters[1], output)
        return payload
