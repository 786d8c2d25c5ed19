"""ModelInspector's Effects of several models: each model's partial
dependence of the selected feature, on one grid, drawn on one axis below the
reviewed model's Effects view (the design is in widgets/_inspector.py).

The grid is the same for every model by construction: scikit-learn's grid
depends on X, the feature, the percentiles and `grid_resolution` only, and
every model gets the same ones (the Effects view's rows and resolution).
"""

from __future__ import annotations

import collections
from typing import TYPE_CHECKING

import numpy as np
import traitlets

from ..inspection import iter_partial_dependence
from ..inspection._core import column_names, float_features, quoted, quoted_names
from ._base import ComputationWidget
from ._figures import new_figure
from ._options import categorical_names
from ._serialization import binary_array

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure


def _output(result, target):
    """The index of the output drawn: `target`'s (a class label as text),
    else the last (a binary classifier's positive class, a regressor's
    only one)."""
    names = [str(name) for name in result.output_names or ()]
    return names.index(target) if target in names else len(result.average) - 1


def curves_payload(results, feature, target):
    """What the front end draws: the grid (numbers, or labels for a
    categorical or non-numeric feature) and each model's average on it."""
    first = next(iter(results.values()))
    grid = first.grid_values[0]
    numeric = not first.categorical[0] and np.issubdtype(
        np.asarray(grid).dtype, np.number
    )
    averages = [r.average[_output(r, target)] for r in results.values()]
    output = (first.output_names or [None])[_output(first, target)]
    return {
        "feature": feature,
        "models": list(results),
        "grid": binary_array(grid) if numeric else None,
        "labels": None if numeric else [str(v) for v in grid],
        "average": binary_array(np.array(averages, dtype=float)),
        "output": "" if output is None else str(output),
        "response": first.response_method,
    }


class ModelsEffects(ComputationWidget):
    """Every model's partial dependence of one feature, a model at a time;
    shown only inside :class:`ModelInspector` (no comm of its own)."""

    feature = traitlets.Unicode().tag(sync=True)
    """The feature of the curves (the inspector's one selected feature)."""

    grid_resolution = traitlets.Int(50, min=2).tag(sync=True)
    """The grid's points at most (the Effects view's)."""

    target = traitlets.Unicode().tag(sync=True)
    """The class drawn, as the Effects view's; "" for the last output."""

    _models_curves = traitlets.Dict().tag(sync=True)
    """The curves as drawn (:func:`curves_payload`)."""

    def __init__(
        self,
        models: dict,
        X,
        *,
        feature: str,
        grid_resolution: int = 50,
        target: str = "",
        run: bool = True,
    ) -> None:
        self._models = dict(models)
        # The reviewed model: the tree walk compiled before its first chunk.
        self._estimator = next(iter(self._models.values()))
        self._X, self._names = X, column_names(X)
        # As the Effects view takes them (widgets/_effect_streams.py), so the
        # reviewed model's curve here is the one drawn above.
        self._categorical = [
            self._names.index(n) for n in categorical_names(X, self._names, None)
        ]
        super().__init__(
            feature=feature, grid_resolution=grid_resolution, target=target
        )
        if run:
            self.run()

    def _stream(self, cancel):
        if self.feature not in self._names:
            raise ValueError(
                f"feature: {quoted(self.feature)} is not among X's columns; "
                f"choose from {quoted_names(self._names)}."
            )
        return self._curves(cancel)

    def _curves(self, cancel):
        """Each model's whole curve, yielded as it completes (every model
        so far, in the models' order)."""
        column = self._names.index(self.feature)
        categorical = column in self._categorical
        # An integer feature drawn as numbers: a grid between its integers.
        X = self._X if categorical else float_features(self._X, [column])
        results = {}
        for name, model in self._models.items():
            stream = iter_partial_dependence(
                model,
                X,
                [column],
                kind="average",
                grid_resolution=self.grid_resolution,
                # Predicted, as the Effects view: the same rows averaged for
                # every model, whatever recursion each would allow.
                method="brute",
                categorical_features=self._categorical or None,
                missing="observed",
                cancel=cancel,
            )
            # The model's whole curve: its last snapshot (None if cancelled
            # before its first).
            snapshots = collections.deque(stream, maxlen=1)
            last = snapshots.pop() if snapshots else None
            if last is None or not last.done.all():
                return  # cancelled: the models done so far stay shown
            results[name] = last
            yield dict(results)

    def _show(self, results):
        self._models_curves = curves_payload(results, self.feature, self.target)
        return results

    def _progress_of(self, results):
        return len(results), len(self._models)

    def to_frame(self) -> pd.DataFrame:
        """One row per model and grid value: the average drawn."""
        import pandas as pd

        if self.result is None:
            raise RuntimeError("No result yet; call wait() first.")
        frames = []
        for name, result in self.result.items():
            frames.append(
                pd.DataFrame(
                    {
                        "model": name,
                        self.feature: result.grid_values[0],
                        "average": result.average[_output(result, self.target)],
                    }
                )
            )
        return pd.concat(frames, ignore_index=True)

    def figure(self) -> Figure:
        """A matplotlib Figure of every model's curve on one axis."""
        frame = self.to_frame()
        figure = new_figure((6.4, 4.0))
        ax = figure.subplots()
        for name, rows in frame.groupby("model", sort=False):
            ax.plot(rows[self.feature], rows["average"], label=name)
        ax.set_xlabel(self.feature)
        ax.set_ylabel("partial dependence")
        ax.legend(title="model")
        return figure
