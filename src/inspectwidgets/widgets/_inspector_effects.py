"""ModelInspector's Effects of several models: each model's partial
dependence of the selected feature, on one grid, drawn on one axis below the
reviewed model's Effects view (the design is in widgets/_inspector.py); on
demand the same rows' ICE curves of every model, side by side; for a pair
of features, every model's surface side by side.

The grid is the same for every model by construction: scikit-learn's grid
depends on X, the feature, the percentiles and `grid_resolution` only, and
every model gets the same ones (the Effects view's rows and resolution). The
ICE rows are the same too: drawn once by the inspector's seed from the same
number of rows.

ICE curves come from the predictions the average is the mean of: until
they are asked, each model runs for its average alone (kind "average");
asked, each model runs once more, for its average and ICE curves together
(kind "both"). Centering and hiding the ICE curves again redraw what was
computed, and so does switching back to what was computed before (PD and
ALE, each kept once complete).

ALE instead of PD (`effect`): each model's accumulated local effects over
the same bins (X's quantiles, or its categories in an order read from X).
"""

from __future__ import annotations

import collections
import dataclasses
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

import traitlets

from ..inspection import iter_accumulated_local_effects, iter_partial_dependence
from ..inspection._core import column_names, float_features, quoted, quoted_names
from ._base import ComputationWidget
from ._inspector_effects_figure import models_figure
from ._inspector_effects_payloads import (
    ale_payload,
    curves_of,
    curves_payload,
    effect_values,
    output_index,
    surface_payload,
)
from ._options import categorical_names

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


@dataclasses.dataclass(frozen=True)
class CurvesKey:
    """What every model's computed curves depend on."""

    features: tuple[str, ...]
    grid_resolution: int
    individual: bool
    effect: str = "pd"
    n_ice: int | None = None  # the ICE rows drawn, with `individual`


@dataclasses.dataclass(frozen=True)
class ModelsCurves:
    """The models computed so far (in the models' order), and for what."""

    key: CurvesKey
    results: dict


class ModelsEffects(ComputationWidget):
    """Every model's partial dependence of one feature (or a pair), a model
    at a time; shown only inside :class:`ModelInspector` (no comm of its
    own)."""

    features = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The feature of the curves, or the pair of the surfaces (the
    inspector's selection)."""

    grid_resolution = traitlets.Int(50, min=2).tag(sync=True)
    """The grid's points at most (the Effects view's)."""

    target = traitlets.Unicode().tag(sync=True)
    """The class drawn, as the Effects view's; "" for the last output."""

    effect = traitlets.Enum(("pd", "ale"), default_value="pd").tag(sync=True)
    """Partial dependence, or accumulated local effects (no ICE, always
    centred on the data)."""

    ice = traitlets.Bool(False).tag(sync=True)
    """Draw each model's ICE curves of the same rows (one feature)."""

    n_ice = traitlets.Int(100, min=1).tag(sync=True)
    """ICE curves drawn per model: the Effects view's `n_ice`, the same rows."""

    centered = traitlets.Bool(False).tag(sync=True)
    """Draw every curve as its change from the first grid value."""

    _models_curves = traitlets.Dict().tag(sync=True)
    """What is drawn (widgets/_inspector_effects_payloads.py)."""

    effects_view: Callable[[], Any] | None = None
    """The inspector's Effects view (a callable giving it), whose partial
    dependence of the reviewed model this panel takes (`shown_curve`)."""

    def __init__(
        self,
        models: dict,
        X,
        *,
        features: list[str],
        grid_resolution: int = 50,
        target: str = "",
        effect: Literal["pd", "ale"] = "pd",
        ice: bool = False,
        n_ice: int = 100,
        centered: bool = False,
        random_state: int = 0,
        run: bool = True,
    ) -> None:
        self._ready = False
        self._held: dict[CurvesKey, ModelsCurves] = {}
        self._models = dict(models)
        # The reviewed model: the tree walk compiled before its first chunk.
        self._estimator = next(iter(self._models.values()))
        self._X, self._names = X, column_names(X)
        self._random_state = random_state
        # As the Effects view takes them (widgets/_effect_streams.py), so the
        # reviewed model's curve here is the one drawn above.
        self._categorical = [
            self._names.index(n) for n in categorical_names(X, self._names, None)
        ]
        super().__init__(
            features=list(features),
            grid_resolution=grid_resolution,
            target=target,
            effect=effect,
            ice=ice,
            n_ice=n_ice,
            centered=centered,
        )
        self._ready = True
        if run:
            self.run()

    def _key(self):
        """What the settings ask to compute (ICE: partial dependence's, of
        one feature)."""
        individual = self.effect == "pd" and len(self.features) == 1 and self.ice
        return CurvesKey(
            tuple(self.features),
            self.grid_resolution,
            individual,
            self.effect,
            self.n_ice if individual else None,
        )

    def _stream(self, cancel):
        unknown = [f for f in self.features if f not in self._names]
        if unknown or len(self.features) not in (1, 2):
            raise ValueError(
                f"features: {quoted_names(self.features)} is not one or two of "
                f"X's columns; choose from {quoted_names(self._names)}."
                if not unknown
                else f"features: {quoted(unknown[0])} is not among X's columns; "
                f"choose from {quoted_names(self._names)}."
            )
        return self._curves(cancel, self._key())

    def _curves(self, cancel, key):
        """Each model's whole curve (or surface), yielded as it completes
        (every model so far, in the models' order)."""
        columns = [self._names.index(f) for f in key.features]
        # An integer feature drawn as numbers: a grid between its integers.
        numeric = [c for c in columns if c not in self._categorical]
        X = float_features(self._X, numeric)
        results = {}
        for name, model in self._models.items():
            if key.effect == "ale":
                last = self._ale(model, X, columns, key, cancel)
                if last is None:
                    return  # cancelled: the models done so far stay shown
                results[name] = last
                yield self._kept(ModelsCurves(key, dict(results)))
                continue
            view = None if self.effects_view is None else self.effects_view()
            shown = shown_curve(view, model, self._X, key, cancel)
            if shown is not None:  # the reviewed model's: not computed again
                results[name] = shown
                yield self._kept(ModelsCurves(key, dict(results)))
                continue
            stream = iter_partial_dependence(
                model,
                X,
                [tuple(columns)] if len(columns) == 2 else columns,
                kind="both" if key.individual else "average",
                grid_resolution=key.grid_resolution,
                # Predicted, as the Effects view: the same rows averaged for
                # every model, whatever recursion each would allow.
                method="brute",
                categorical_features=self._categorical or None,
                missing="observed",
                n_ice=key.n_ice,
                random_state=self._random_state,
                cancel=cancel,
            )
            # The model's whole curve: its last snapshot (None if cancelled
            # before its first).
            snapshots = collections.deque(stream, maxlen=1)
            last = snapshots.pop() if snapshots else None
            if last is None or not last.done.all():
                return  # cancelled: the models done so far stay shown
            results[name] = last
            yield self._kept(ModelsCurves(key, dict(results)))

    def _ale(self, model, X, columns, key, cancel):
        """One model's whole ALE; None if cancelled before its last rows."""
        stream = iter_accumulated_local_effects(
            model,
            X,
            columns,
            grid_resolution=key.grid_resolution,
            categorical_features=self._categorical or None,
            cancel=cancel,
        )
        snapshots = collections.deque(stream, maxlen=1)
        last = snapshots.pop() if snapshots else None
        return last if last is not None and last.n_rows_done == last.n_rows else None

    def _kept(self, curves):
        """Every model's curves, once complete, kept for a redraw (those of
        the current features and grid only)."""
        if len(curves.results) == len(self._models):
            with self._lock:
                self._held = {
                    k: v
                    for k, v in self._held.items()
                    if k.features == curves.key.features
                    and k.grid_resolution == curves.key.grid_resolution
                }
                self._held[curves.key] = curves
        return curves

    def _show(self, curves):
        if curves.key.effect == "ale":
            payload = ale_payload(curves.results, curves.key.features, self.target)
        elif len(curves.key.features) == 2:
            payload = surface_payload(curves.results, curves.key.features, self.target)
        else:
            payload = curves_payload(
                curves.results,
                curves.key.features,
                self.target,
                individual=self.ice and curves.key.individual,
                centered=self.centered,
            )
        self._models_curves = payload
        return curves

    def _progress_of(self, curves):
        return len(curves.results), len(self._models)

    @traitlets.observe("ice", "centered", "effect")
    def _on_display(self, change):
        """Redraw what was computed when it holds what is asked (centering,
        hiding the ICE curves, showing them again, PD or ALE again); else
        compute again."""
        if not self._ready:
            return
        key = self._key()
        # ICE curves computed hold the average too.
        keys = (key, dataclasses.replace(key, individual=True, n_ice=self.n_ice))
        with self._lock:
            shown = self.result
            if shown is not None and shown.key in keys:
                # The run in flight (if any) goes on; its next model redraws.
                self.result = self._show(shown)
                return
            held = next((self._held[k] for k in keys if k in self._held), None)
        if held is not None:
            self._publish(held)
        else:
            self.run()

    def _drawn(self):
        """The computed results and whether their ICE curves are drawn."""
        if self.result is None:
            raise RuntimeError("No result yet; call wait() first.")
        key = self.result.key
        return self.result, self.ice and key.individual and len(key.features) == 1

    def to_frame(self) -> pd.DataFrame:
        """What is drawn: one row per model and grid value (both features'
        for a pair) with ``model``, a column per feature and ``average`` (or
        ``ale``, over the ALE's edges); with the ICE curves drawn, one row
        per model, drawn row (``row``, its position in X) and grid value,
        with ``individual`` beside the ``average`` at that value. Centered
        when drawn centered."""
        import numpy as np
        import pandas as pd

        curves, individual = self._drawn()
        features = list(curves.key.features)
        ale = curves.key.effect == "ale"
        column = "ale" if ale else "average"
        frames = []
        for name, result in curves.results.items():
            grids = result.edges if ale else result.grid_values
            if ale or len(features) == 2:
                values = effect_values(result)[output_index(result, self.target)]
                grid = np.meshgrid(*grids, indexing="ij")
                columns = {f: g.ravel() for f, g in zip(features, grid, strict=True)}
                frames.append(
                    pd.DataFrame({"model": name, **columns, column: values.ravel()})
                )
                continue
            average, ice = curves_of(
                {name: result}, self.target, individual=individual,
                centered=self.centered,
            )  # fmt: skip
            if not individual:
                frames.append(
                    pd.DataFrame(
                        {"model": name, features[0]: grids[0], "average": average[0]}
                    )
                )
                continue
            rows = result.ice_rows
            rows = np.arange(ice.shape[1]) if rows is None else rows
            frames.append(
                pd.DataFrame(
                    {
                        "model": name,
                        "row": np.repeat(rows, len(grids[0])),
                        features[0]: np.tile(grids[0], len(rows)),
                        "individual": ice[0].ravel(),
                        "average": np.tile(average[0], len(rows)),
                    }
                )
            )
        return pd.concat(frames, ignore_index=True)

    def figure(self) -> Figure:
        """A matplotlib Figure of what is drawn: every model's curve on one
        axis, its ICE curves in a panel per model, or its surface in a panel
        per model with one colour scale."""
        curves, individual = self._drawn()
        return models_figure(
            self.to_frame(),
            list(curves.key.features),
            individual=individual,
            centered=self.centered,
            ale=curves.key.effect == "ale",
        )


def shown_curve(effects, model, X, key, cancel):
    """The Effects view's partial dependence of `model` on the rows `X` for
    `key`, which every model's panel would otherwise compute again (the same
    rows, method, grid and ICE rows: the reviewed model's curve); waited for
    while the view computes; None where the view holds no such curve."""
    if effects is None or effects._estimator is not model or effects._X is not X:
        return None
    while True:
        with effects._lock:
            settings, result = effects._held.get("pd", (None, None))
        if settings is not None and _same_curve(settings, key):
            if key.individual:
                return result
            return dataclasses.replace(result, individual=None, ice_rows=None)
        if effects.status != "running" or (cancel is not None and cancel.is_set()):
            return None
        time.sleep(0.02)  # the view's run, started first, is computing it


def _same_curve(settings, key):
    """Whether the Effects view's partial dependence part (`settings`, a
    PartSettings) is what `key` asks of the reviewed model."""
    kinds = ("both",) if key.individual else ("average", "both")
    return (
        tuple(settings.features) == key.features
        and settings.grid_resolution == key.grid_resolution
        and settings.kind in kinds
        and settings.scale == "probability"
        and not settings.centered
        and not settings.at_ale_edges
        and (not key.individual or settings.n_ice == key.n_ice)
    )
