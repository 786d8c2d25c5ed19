"""What PartialDependenceWidget asks the engine: one stream per part of a
run (partial dependence, ALE, ICE at a tree model's steps), each part's
arguments read by name from its `PartSettings` (widgets/_effect_parts.py),
chained into the run's snapshots."""

import warnings
from functools import partial

from ..inspection import (
    iter_accumulated_local_effects,
    iter_partial_dependence,
    split_grid,
)
from ..inspection._core import MIN_ROWS, float_features, level_summary, quoted
from ._effect_parts import PD_KINDS, chain_parts
from ._options import split_column


class EffectStreams:
    """The streams of PartialDependenceWidget: `_stream` for the base
    class, from the parts `_keys` plans, keeping complete parts in `_held`."""

    def _stream(self, cancel):
        if not self._steps_checked:  # deferred by the constructor
            self._check_steps()
        keys = self._keys()
        self._workload = self._describe()
        held = {p: r for p, (k, r) in self._held.items() if (p, k) in keys}
        settings = dict(keys)
        if self.kind in PD_KINDS:
            pd = settings["pd"]
            pd_stream = None if "pd" in held else self._pd_stream(cancel, pd)
            parts = [("pd", pd, pd_stream)]
            if "steps" in settings:
                # Over the partial dependence's grid range, known once it runs.
                steps = partial(self._steps_stream, cancel, settings["steps"])
                parts.append(("steps", settings["steps"], steps))
            return chain_parts(held, parts, cancel, self._keep)
        ale = settings["ale"]
        ale_stream = None
        if "ale" not in held:
            self._check_ale_categories(ale.features)
            ale_stream = iter_accumulated_local_effects(
                self._estimator,
                self._X,
                [self._names.index(f) for f in ale.features],
                grid_resolution=ale.grid_resolution,
                scale=ale.scale,
                cancel=cancel,
                categorical_features=self._engine_kwargs["categorical_features"],
                sample_weight=self._engine_kwargs["sample_weight"],
            )
        parts = [("ale", ale, ale_stream)]
        if "pd" in settings:
            # Its grid is the ALE's edges, known once the ALE has run.
            overlay = partial(self._overlay_stream, cancel, settings["pd"])
            parts.append(("pd", settings["pd"], overlay))
        return chain_parts(held, parts, cancel, self._keep)

    def _keep(self, part, settings, result):
        """A part computed in full, kept for `_refresh`."""
        with self._lock:
            self._held[part] = (settings, result)

    def _pd_stream(self, cancel, settings, custom_edges=None):
        """The engine's stream of one partial dependence part, its arguments
        read from its `PartSettings` by name."""
        columns = [self._names.index(f) for f in settings.features]
        X = self._numeric_X(columns)
        # The correlation warning is shown in the widget, not in the output.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return iter_partial_dependence(
                self._estimator,
                X,
                columns,
                # Always predicted: "auto" would switch averages to the
                # recursion (over the training data, decision function) when
                # kind or the number of features changes.
                method="brute",
                grid_resolution=settings.grid_resolution,
                custom_values=self._custom_values(columns, custom_edges),
                kind=settings.kind,
                centered=settings.centered,
                scale=settings.scale,
                n_ice=settings.n_ice,
                cancel=cancel,
                # A feature's missing values: its grid from the observed
                # values, the missing value as a point drawn beside the curve.
                missing="observed",
                **self._engine_kwargs,
            )

    def _custom_values(self, columns, custom_edges):
        """The grids the widget sets: the first feature's `custom_edges`
        (the ALE's edges, a tree's steps), and of a text column with nearly
        one value per row (an ID, an e-mail) only the values `level_summary`
        names: the chart, and a saved page, never list them all. None
        named: refused, in a sentence the widget shows."""
        custom = {} if custom_edges is None else {columns[0]: custom_edges}
        categorical = self._engine_kwargs["categorical_features"] or ()
        for column in columns:
            if column not in categorical:
                continue
            name = self._names[column]
            summary = level_summary(split_column(self._X, self._names, name))
            if summary is None:
                continue
            if not summary.named:
                raise ValueError(
                    f"{quoted(name)}: {summary.note} Group its values into a "
                    "coarser column to see their partial dependence."
                )
            custom[column] = list(summary.named)
        return custom or None

    def _check_ale_categories(self, features):
        """Refuse, in a sentence the widget shows, an ALE of a text column
        with nearly one value per row (an ID, an e-mail: `level_summary`):
        each of its categories is a bin of the ALE, so the chart, and a
        saved page, would name every one, where partial dependence names
        only its values in `MIN_ROWS` rows or more."""
        categorical = self._engine_kwargs["categorical_features"] or ()
        for name in features:
            if self._names.index(name) not in categorical:
                continue
            summary = level_summary(split_column(self._X, self._names, name))
            if summary is not None:
                raise ValueError(
                    f"{quoted(name)}: {summary.n_values:,} distinct values, "
                    f"{summary.n_other_values:,} of them in fewer than {MIN_ROWS} "
                    "rows; an ALE draws each category as a bin and would name "
                    "every one (an ID or an e-mail names a person). Group its "
                    "values into a coarser column, or see its partial "
                    "dependence (kind='average'), which names only the values "
                    f"in {MIN_ROWS} rows or more."
                )

    def _numeric_X(self, columns):
        """The rows, with the integer features among `columns` (not listed as
        categorical) as floats: they are drawn as numbers, and a grid between
        integers is not rounded (the engine, as scikit-learn, refuses an
        integer feature). The user's X is not changed."""
        categorical = self._engine_kwargs["categorical_features"] or ()
        return float_features(self._X, [c for c in columns if c not in categorical])

    def _overlay_stream(self, cancel, settings, shown):
        return self._pd_stream(cancel, settings, shown["ale"].edges[0])

    def _steps_stream(self, cancel, settings, shown):
        result = shown["pd"]
        grid = result.grid_values[0]
        if result.missing and result.missing[0]:
            grid = grid[:-1]  # the missing point
        column = self._names.index(settings.features[0])
        X = self._numeric_X([column])
        steps = split_grid(self._estimator, X, column, bounds=(grid[0], grid[-1]))
        return self._pd_stream(cancel, settings, steps)

    _checked_when_made = True
    """Whether the constructor checks the settings and reads whether the
    first feature has steps; else the first run does (the inspector's
    Effects view, made while the Importance view computes its first bars)."""

    _steps_checked = False

    def _check_when_made(self):
        if self._checked_when_made:
            self._check_steps()
            self._stream(cancel=None)  # invalid settings fail here, in Python

    def _on_first_feature(self):
        """The features changed: their steps read now, or by the constructor
        or the next run while the settings are set quietly (not `_ready`)."""
        if self._ready:
            self._check_steps()
        else:
            self._steps_checked = False

    def _check_steps(self):
        """Whether the first feature's ICE can be drawn at every split of the
        model (the "ICE at every split" control)."""
        first = self.features[0] if self.features else None
        self._steps_checked = True
        self._steps_available = first in self._names and not self._steps_problem(first)

    def _steps_problem(self, feature):
        """Why split_grid cannot read `feature`'s steps ("" if it can)."""
        if feature not in self._steps_problems:
            try:
                column = self._names.index(feature)
                split_grid(self._estimator, self._numeric_X([column]), column)
                self._steps_problems[feature] = ""
            except ValueError as error:
                self._steps_problems[feature] = str(error)
        return self._steps_problems[feature]
