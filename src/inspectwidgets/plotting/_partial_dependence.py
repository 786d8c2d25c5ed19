"""Partial dependence and ICE curves as a matplotlib chart."""

import numpy as np

from ..inspection import PartialDependenceResult, partial_dependence


class PartialDependenceDisplay:
    """Partial dependence (and ICE) of one feature, or a surface of two.

    ``__init__`` only stores a :class:`~inspectwidgets.PartialDependenceResult`;
    :meth:`from_estimator` computes one; :meth:`plot` draws: the average as a
    bold line over translucent ICE lines with decile ticks for one numeric
    feature, points per category for a categorical one, filled contours for
    two numeric features, cells when one of the two is categorical.

    Attributes
    ----------
    figure_, ax_ : matplotlib Figure and Axes
    lines_ : list of Line2D
        The ICE lines and then the average line (one feature).
    """

    def __init__(self, result):
        if not isinstance(result, PartialDependenceResult):
            raise TypeError(
                "result must be a PartialDependenceResult (use "
                "partial_dependence(..., return_result=True)); got "
                f"{type(result).__name__}."
            )
        self.result = result

    @classmethod
    def from_estimator(cls, estimator, X, features, *, ax=None, output=-1, **kwargs):
        """Compute (keyword arguments as in ``partial_dependence``) and plot."""
        result = partial_dependence(
            estimator, X, features, return_result=True, **kwargs
        )
        return cls(result).plot(ax=ax, output=output)

    def plot(self, *, ax=None, output=-1):
        """Draw output `output` (a class index for classifiers) of the result."""
        import matplotlib.pyplot as plt

        result = self.result
        if ax is None:
            _, ax = plt.subplots(layout="constrained")
        names = result.feature_names
        if len(names) > 2:
            raise ValueError(
                "PartialDependenceDisplay draws one feature (a curve) or two (a "
                f"surface); this result has {len(names)}: {list(names)}."
            )
        self.lines_ = []
        if len(names) == 2:
            self._surface(ax, output)
        else:
            self._curve(ax, output)
        self.ax_, self.figure_ = ax, ax.figure
        return self

    def _curve(self, ax, output):
        result = self.result
        grid = result.grid_values[0]
        done = result.done
        categorical = result.categorical[0]
        x = np.arange(len(grid)) if categorical else np.asarray(grid, dtype=float)
        if result.individual is not None:
            ice = result.individual[output][:, done]
            self.lines_ += ax.plot(x[done], ice.T, color="tab:blue", alpha=0.15, lw=0.8)
        if result.kind != "individual":
            style = dict(marker="o", linestyle="none") if categorical else {}
            self.lines_ += ax.plot(
                x[done],
                result.average[output][done],
                color="tab:orange",
                lw=2.5,
                label="average",
                **style,
            )
        if categorical:
            ax.set_xticks(x, labels=[str(v) for v in grid])
        elif result.distributions[0].deciles is not None:
            deciles = result.distributions[0].deciles
            ax.plot(
                deciles,
                np.zeros_like(deciles),
                "|",
                color="k",
                markersize=12,
                transform=ax.get_xaxis_transform(),
            )
        ax.set_xlabel(names_label(result.feature_names[0], result.warnings))
        ax.set_ylabel(
            "centered partial dependence" if result.centered else "partial dependence"
        )

    def _surface(self, ax, output):
        result = self.result
        values = result.average[output].T
        if any(result.categorical):
            # Cells, not contours: there is nothing between two categories.
            xs, ys = (
                np.arange(len(g)) if categorical else np.asarray(g, dtype=float)
                for g, categorical in zip(
                    result.grid_values, result.categorical, strict=True
                )
            )
            surface = ax.pcolormesh(xs, ys, values, shading="nearest", cmap="viridis")
            for axis, grid, categorical in zip(
                (ax.xaxis, ax.yaxis), result.grid_values, result.categorical,
                strict=True,
            ):  # fmt: skip
                if categorical:
                    axis.set_ticks(np.arange(len(grid)), labels=[str(v) for v in grid])
        else:
            xs, ys = (np.asarray(g, dtype=float) for g in result.grid_values)
            surface = ax.contourf(xs, ys, values, levels=12, cmap="viridis")
        ax.figure.colorbar(surface, ax=ax, label="partial dependence")
        ax.set_xlabel(result.feature_names[0])
        ax.set_ylabel(result.feature_names[1])


def names_label(feature, warnings):
    """The x label, marked when the curve comes with a correlation warning."""
    return (
        f"{feature} (correlated with other features: read with care)"
        if warnings
        else feature
    )
