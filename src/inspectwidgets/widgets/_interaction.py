"""The interaction widget: Friedman's H² among the top features, and the
2-way partial dependence (or ALE) of the pair clicked.

Why a widget of its own rather than a view of the partial dependence widget:
H² is a different computation with its own settings (the subsample
`n_samples`, `random_state`, the `n_top` features whose pairs are computed)
and cost (``n_samples**2`` predictions per feature and per pair: seconds,
where a curve takes a fraction of one), and it looks at every feature at once
where the partial dependence widget looks at one or two. What the two share
is reused, not copied: the 2-way surface is the partial dependence widget's
payload and chart (``curve_payload``, ``effects_payload``, js/src/pd/), the
heatmap is js/src/charts/heatmap.js. Choosing a pair recomputes only its
surface; H² is kept while its own settings stay.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import numpy as np
import traitlets
from numpy.typing import ArrayLike
from sklearn.utils import check_random_state

from ..inspection import (
    interaction_strength,
    iter_accumulated_local_effects,
    iter_partial_dependence,
)
from ..inspection._core import (
    Column,
    Data,
    Estimator,
    check_fitted,
    check_X,
    column_names,
    float_features,
    quoted,
    quoted_names,
)
from ..inspection._effects import pair_matrix, select_output
from ._base import ComputationWidget
from ._effect_payloads import curve_payload, effects_payload
from ._figures import new_figure
from ._options import STATIC, categorical_names, feature_names, target_options
from ._serialization import binary_array

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


@dataclass(frozen=True)
class _Interactions:
    """One snapshot: the H² frame (None before it is computed) and the
    chosen pair's surface (None before it starts, or without a pair)."""

    h2: object = None
    surface: object = None
    with_pair: bool = False


class InteractionWidget(ComputationWidget):
    """Friedman and Popescu's H² as a heatmap of the pairs among the top
    features; clicking a cell (or pressing Enter on it) draws that pair's
    2-way partial dependence or second-order ALE below it.

    H² comes from :func:`~inspectwidgets.interaction_strength` (each feature
    against all others, then the pairs among the `n_top` features with the
    largest), the surface from
    :func:`~inspectwidgets.iter_partial_dependence` (brute force) or
    :func:`~inspectwidgets.iter_accumulated_local_effects`, streamed. The
    threading, status and cancellation rules are the other widgets'; cancel
    takes effect between H² and the surface, and between the surface's
    chunks.

    Parameters
    ----------
    estimator : fitted estimator
    X : ndarray or DataFrame of shape (n_samples, n_features)
    features : list of columns, default=None
        The candidates (labels or int positions); every column when None.
    n_top : int, default=5
        Features whose pairs are computed and drawn.
    n_samples : int, default=300
        Rows of the seeded subsample H² is computed on.
    pair : pair of columns, default=None
        The pair drawn below the heatmap; none when None.
    kind : {"average", "ale"}, default="average"
        The pair's 2-way partial dependence, or its second-order ALE
        (numeric features only).
    grid_resolution : int, default=20
        Grid points (PD) or quantile bins (ALE) per feature of the pair.
    target : str, default=None
        Class shown for classifiers; the positive (last) class when None.
    scale : {"probability", "log_odds"}, default="probability"
        For H² and the surface; Friedman & Popescu take log-odds.
    categorical_features, sample_weight
        For the surface, as in :func:`~inspectwidgets.partial_dependence`.
    random_state : int, default=0
        Draws the subsample; None draws one seed per run.
    run : bool, default=True
        Start computing at once.
    """

    _esm = STATIC / "interaction_widget.js"
    _css = STATIC / "interaction_widget.css"

    features = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The candidate features (strings)."""

    n_top = traitlets.Int(5, min=2).tag(sync=True)
    """How many features (with the largest H² against all others) pair up."""

    n_samples = traitlets.Int(300, min=2).tag(sync=True)
    """Rows of the subsample H² is computed on."""

    pair = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The pair drawn below the heatmap: two feature names, or empty."""

    kind = traitlets.Enum(("average", "ale"), default_value="average").tag(sync=True)
    """The pair's 2-way partial dependence, or its second-order ALE."""

    grid_resolution = traitlets.Int(20, min=2).tag(sync=True)
    """Grid points, or quantile bins, per feature of the pair."""

    target = traitlets.Unicode("").tag(sync=True)
    """The class shown (classifiers); empty for regressors."""

    scale = traitlets.Enum(
        ("probability", "log_odds"), default_value="probability"
    ).tag(sync=True)
    """Class probability, or centered log-odds (ESL eq. 10.52)."""

    _feature_options = traitlets.List(traitlets.Unicode()).tag(sync=True)
    _categorical = traitlets.List(traitlets.Unicode()).tag(sync=True)
    _target_options = traitlets.List(traitlets.Unicode()).tag(sync=True)
    _h2 = traitlets.Dict().tag(sync=True)
    _curve = traitlets.Dict().tag(sync=True)

    _H2_ON = ("features", "n_top", "n_samples", "scale")
    _SURFACE_ON = ("pair", "kind", "grid_resolution")

    def __init__(
        self,
        estimator: Estimator,
        X: Data,
        *,
        features: Sequence[Column] | None = None,
        n_top: int = 5,
        n_samples: int = 300,
        pair: tuple[Column, Column] | None = None,
        kind: Literal["average", "ale"] = "average",
        grid_resolution: int = 20,
        target: str | None = None,
        scale: Literal["probability", "log_odds"] = "probability",
        categorical_features: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        random_state: int = 0,
        run: bool = True,
    ) -> None:
        check_fitted(estimator)
        X = check_X(X)
        names = column_names(X)
        targets = target_options(estimator)
        categorical = categorical_names(X, names, categorical_features)
        self._estimator, self._X, self._names = estimator, X, names
        self._surface_kwargs = dict(
            categorical_features=[names.index(n) for n in categorical] or None,
            sample_weight=sample_weight,
        )
        self._random_state = random_state
        self._held_h2 = None  # (settings, frame) of the last complete H²
        self._snapshot = _Interactions()
        self.pair_result = None
        self._ready = False
        super().__init__(
            features=names if features is None else feature_names(features, names),
            n_top=n_top,
            n_samples=n_samples,
            pair=[] if pair is None else feature_names(pair, names),
            kind=kind,
            grid_resolution=grid_resolution,
            target=target if target is not None else (targets[-1] if targets else ""),
            scale=scale,
            _feature_options=names,
            _categorical=categorical,
            _target_options=targets,
        )
        self._stream(cancel=None)  # invalid settings fail here, in Python
        self._ready = True
        if run:
            self.run()

    # Settings -----------------------------------------------------------------

    def _columns(self, names, argument):
        unknown = [f for f in names if f not in self._names]
        if unknown:
            raise ValueError(
                f"{argument}: {quoted_names(unknown)} not among X's columns; "
                f"choose from {quoted_names(self._names)}."
            )
        return [self._names.index(f) for f in names]

    def _scale(self):
        return self.scale if self._target_options else "probability"

    def _h2_key(self):
        return (tuple(self.features), self.n_top, self.n_samples, self._scale())

    def run(self) -> None:
        """Start (or restart) the computation: H², then the pair's surface.

        Cancels a run in flight; recomputes H² even if its settings did not
        change. Returns at once; use :meth:`wait` to block.
        """
        self._held_h2 = None
        super().run()

    # ComputationWidget hooks --------------------------------------------------

    def _stream(self, cancel):
        features = self._columns(self.features, "features")
        if len(features) < 2:
            raise ValueError(
                f"features: H² needs at least two features; got "
                f"{quoted_names(list(self.features))}."
            )
        if self._target_options and self.target not in self._target_options:
            raise ValueError(
                f"target: {quoted(self.target)} is not a class shown here; "
                f"choose from {quoted_names(self._target_options)}."
            )
        surface = self._surface_stream(cancel) if self.pair else None
        key = self._h2_key()
        held = self._held_h2[1] if self._held_h2 and self._held_h2[0] == key else None
        # One seed per run, handed to the engine: a None random_state still
        # gives one subsample for every statistic of the run.
        seed = self._random_state
        if not isinstance(seed, numbers.Integral):
            seed = check_random_state(seed).randint(np.iinfo(np.int32).max)
        return self._snapshots(key, held, features, seed, surface, cancel)

    def _surface_stream(self, cancel):
        if len(self.pair) != 2 or self.pair[0] == self.pair[1]:
            raise ValueError(
                "pair: pick two different features; got "
                f"{quoted_names(list(self.pair))}."
            )
        columns = self._columns(self.pair, "pair")
        categorical = self._surface_kwargs["categorical_features"] or ()
        # Integer features as numbers (a float copy of their columns: the
        # grid lies between their values); the user's X is not changed.
        X = float_features(self._X, [c for c in columns if c not in categorical])
        if self.kind == "ale":
            return iter_accumulated_local_effects(
                self._estimator,
                self._X,
                columns,
                grid_resolution=self.grid_resolution,
                scale=self._scale(),
                cancel=cancel,
                **self._surface_kwargs,
            )
        return iter_partial_dependence(
            self._estimator,
            X,
            columns,
            method="brute",
            grid_resolution=self.grid_resolution,
            kind="average",
            scale=self._scale(),
            cancel=cancel,
            # The grid of the observed values: the surface leaves the
            # missing points out (see curve_payload).
            missing="observed",
            **self._surface_kwargs,
        )

    def _snapshots(self, key, h2, features, seed, surface, cancel):
        with_pair = surface is not None
        if h2 is None:
            h2 = interaction_strength(
                self._estimator,
                self._X,
                features,
                n_top=self.n_top,
                n_samples=self.n_samples,
                random_state=seed,
                scale=self._scale(),
            )
            with self._lock:
                self._held_h2 = (key, h2)
        yield _Interactions(h2=h2, with_pair=with_pair)
        if not with_pair or cancel.is_set():
            return
        for result in surface:
            yield _Interactions(h2=h2, surface=result, with_pair=True)

    def _show(self, snapshot):
        self._snapshot = snapshot
        self.pair_result = snapshot.surface
        self._h2 = h2_payload(snapshot.h2, self.target, self._target_options)
        surface, n_rows = snapshot.surface, len(self._X)
        if surface is None:
            self._curve = {}
        elif self.kind == "ale" and hasattr(surface, "edges"):
            self._curve = effects_payload(surface, None, self.target, n_rows)
        else:
            self._curve = curve_payload(surface, self.target, n_rows)
        return snapshot.h2

    def _progress_of(self, snapshot):
        """H² counts as one part, the surface (rows or grid points) as the
        other."""
        if not snapshot.with_pair:
            return 1.0, 1.0
        surface = snapshot.surface
        if surface is None:
            return 1.0, 2.0
        done = getattr(surface, "progress", None)
        if done is None:  # ALE: rows
            done = surface.n_rows_done / surface.n_rows
        return 1.0 + done, 2.0

    @traitlets.observe(*_H2_ON, *_SURFACE_ON)
    def _on_settings(self, change):
        if self._ready:
            # `run()` would drop the H² kept for the surface settings.
            ComputationWidget.run(self)

    @traitlets.observe("target")
    def _on_target(self, change):
        """Every class is computed: a new class is redrawn from the snapshot."""
        if not self._ready:
            return
        with self._lock:
            current = self._result_generation == self._generation
            if current and self.target in self._target_options:
                self._show(self._snapshot)
                return
        ComputationWidget.run(self)

    # Results in Python --------------------------------------------------------

    def to_frame(self) -> pd.DataFrame:
        """The H² DataFrame of :func:`~inspectwidgets.interaction_strength`."""
        if self.result is None:
            raise RuntimeError("No result yet; call wait() first.")
        return self.result

    def figure(self) -> Figure:
        """A matplotlib Figure of the H² bars and pair heatmap."""
        from ..plotting import InteractionStrengthDisplay

        if self.result is None:
            raise RuntimeError("No result yet; call wait() first.")
        figure = new_figure((10, 4))
        InteractionStrengthDisplay(self.result).plot(
            axes=figure.subplots(1, 2), target=self.target or None
        )
        return figure


def h2_payload(frame, target, targets):
    """The heatmap's content for `target`: the top features (the pairs'
    features, in the order of their H² against all others), the symmetric
    matrix of the pairs' H² (NaN on the diagonal) and each feature's H²
    against all others."""
    if frame is None:
        return {}
    rows = select_output(frame, target if targets else None)
    names, matrix = pair_matrix(rows)
    single = rows[rows["kind"] == "one_vs_rest"].set_index("feature")["h_squared"]
    order = sorted(
        range(len(names)), key=lambda i: -np.nan_to_num(single[names[i]], nan=-1)
    )
    names = [names[i] for i in order]
    matrix = matrix[np.ix_(order, order)]
    return {
        "features": names,
        "matrix": binary_array(matrix),
        "one_vs_rest": binary_array([single[n] for n in names]),
        "n_samples": int(frame.attrs.get("n_samples", 0)),
    }
