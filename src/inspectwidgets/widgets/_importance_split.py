"""The permutation widget's "split by": permutation importance within each
subgroup of the rows of a column of X.

A split view streams :func:`~inspectwidgets.iter_subgroup_permutation_importance`
(each subgroup's rows permuted and scored among themselves: scikit-learn's
numbers on that subgroup's rows, for the same seed), every subgroup in one
run with the marginal run's progress, Stop and cancel. The chart draws one
bar per subgroup for each feature (grouped_bars.js); `to_frame()` has a
``subgroup`` column and `figure()` draws the grouped bars of
:class:`~inspectwidgets.PermutationImportanceDisplay`.

The columns offered are the PD widget's (`split_options`), and, in
ModelInspector, "(cohorts)" once it sets some (its cohorts' labels, the
cohorts in the order the header lists them, "rest" last). The resampled
views (cross-validated, out-of-bag) permute over every row of their folds
or members: they offer no split and refuse one.
"""

import dataclasses

import traitlets

from ..inspection import cohort_labels
from ..inspection._core import quoted, quoted_names
from ..inspection._permutation import subgroup_run
from ._effect_groups import COHORT_SPLIT, cohort_order, split_by_cohorts
from ._figures import new_figure
from ._options import MAX_SPLIT_VALUES, split_column, split_options


class ImportanceSplit(traitlets.HasTraits):
    """The `split_by` trait of the permutation views, and the run it makes:
    the marginal method only, without `n_bootstrap`'s held-out interval;
    the widget's `result` is then a
    :class:`~inspectwidgets.SubgroupImportanceResult`."""

    split_by = traitlets.Unicode(None, allow_none=True).tag(sync=True)
    """None, or a column of X of 2 to ``MAX_SPLIT_VALUES`` values: the
    importance within each of its subgroups of rows (missing values the
    subgroup "missing"); in ModelInspector also "(cohorts)", its cohorts'
    rows."""

    _split_options = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The columns a split may name (the dropdown shows when any)."""

    _splits = True
    """Whether this view computes subgroups (the resampled views do not)."""

    def _init_split(self, X, names):
        """The columns to offer, and where to read a split's labels."""
        self._split_names = names
        self._cohorts = ()  # the inspector's, for COHORT_SPLIT
        return split_options(X, names) if self._splits else []

    @traitlets.validate("split_by")
    def _valid_split(self, proposal):
        value = proposal["value"]
        if value is None:
            return None
        if not self._splits:
            raise traitlets.TraitError(
                f"split_by: {type(self).__name__} computes importance over "
                f"every row only; got {quoted(value)}."
            )
        if value not in self._split_options:
            raise traitlets.TraitError(
                f"split_by: {quoted(value)} is not a column of 2 to "
                f"{MAX_SPLIT_VALUES} distinct values; choose None or one of "
                f"{quoted_names(self._split_options)}."
            )
        return value

    def _set_cohorts(self, cohorts):
        """Split by the inspector's `cohorts` (Cohort instances), as the PD
        widget does: offered once set and selected whenever they change;
        none, the split goes. A run of the old cohorts in flight stops (its
        bars are not these); the rerun is the caller's when it holds
        `_ready` (ModelInspector, for a view not shown)."""
        if not self._ready:
            self.cancel()
        split_by_cohorts(self, cohorts, self._relabel)

    def _relabel(self):
        if self._ready:
            self.run()

    def _split_stream(self, params):
        """The subgroup run of the permutation run's `params` (the held-out
        interval apart: a subgroup result has none), streamed from its first
        round; the cohorts in the header's order."""
        if self.method != "marginal":
            raise ValueError(
                "split_by: the subgroups' importance permutes each feature "
                f"over the subgroup's rows (method='marginal'); got "
                f"method={self.method!r} with split_by={self.split_by!r}."
            )
        order = ()
        if self.split_by == COHORT_SPLIT:
            labels = cohort_labels(self._X, self._cohorts, self._split_names)
            order = cohort_order(self._cohorts)
        else:
            labels = split_column(self._X, self._split_names, self.split_by)
        params = {k: v for k, v in params.items() if k != "n_bootstrap"}
        run = subgroup_run(
            self._estimator, self._X, self._y, subgroups=labels, **params
        )
        run.stream_first_round = True
        return (in_order(result, order) for result in run) if order else iter(run)


def in_order(result, order):
    """A SubgroupImportanceResult with its subgroups in `order` (those
    present; any other after them), so a cohort keeps its colour."""
    rank = {name: i for i, name in enumerate(order)}
    positions = sorted(
        range(len(result.labels)), key=lambda i: rank.get(result.labels[i], len(rank))
    )
    return dataclasses.replace(
        result,
        labels=tuple(result.labels[i] for i in positions),
        sizes=result.sizes[positions],
        n_permuted=result.n_permuted[positions],
        small=result.small[positions],
        results=tuple(result.results[i] for i in positions),
    )


def split_figure(result, scorer, max_features):
    """The grouped bars of a SubgroupImportanceResult, as its Display draws
    them, in a figure tall enough for a bar per subgroup."""
    from ..plotting import PermutationImportanceDisplay
    from ..plotting._permutation import chart_size

    n_bars = min(max_features, len(result.feature_names))
    figure = new_figure(chart_size(0.75 * n_bars * len(result.labels)))
    PermutationImportanceDisplay(result).plot(
        ax=figure.subplots(), scorer=scorer, max_features=max_features
    )
    return figure
