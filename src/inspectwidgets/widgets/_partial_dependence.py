"""The live partial dependence / ICE widget."""

import numbers
import warnings

import numpy as np
import traitlets
from sklearn.base import is_classifier

from ..inspection import DEFAULT_CORRELATION_THRESHOLD, iter_partial_dependence
from ..inspection._core.validation import check_fitted, check_X, column_names
from ._base import ComputationWidget
from ._options import STATIC
from ._serialization import binary_array


class PartialDependenceWidget(ComputationWidget):
    """Partial dependence and ICE curves that fill in while they are computed.

    One feature: the partial dependence (bold) over individual conditional
    expectation curves (thin, subsampled), optionally centered, above the
    feature's distribution. Two features: a heatmap with both distributions on
    the margins. For classifiers, pick the class and the scale (probability
    or ESL's centered log-odds). A warning shows when the feature is strongly
    correlated with another. The engine is
    :func:`~inspectwidgets.iter_partial_dependence`; the threading, status and
    cancellation rules are those of the permutation widget. Values are always
    computed by brute force over the rows of X (``method="brute"``), so the
    average is the mean of the ICE curves whatever the kind or the number of
    features; non-numeric columns are categorical.

    Parameters
    ----------
    estimator : fitted estimator
    X : ndarray or DataFrame of shape (n_samples, n_features)
    features : column or list of one or two columns, default=None
        The feature(s) to show, by label or int position; the first column
        when None. The trait holds them as strings.
    kind : {"average", "individual", "both"}, default="both"
        One-way curves only; two-way surfaces are averages.
    centered : bool, default=False
        Anchor every curve at 0 at the first grid value.
    grid_resolution : int, default=50
    n_ice : int, default=100
        ICE curves drawn (a random subsample of the rows).
    target : str, default=None
        Class shown for classifiers; the positive (last) class when None.
    scale : {"probability", "log_odds"}, default="probability"
    categorical_features, sample_weight, percentiles, random_state
        As in :func:`~inspectwidgets.partial_dependence`.
    run : bool, default=True
        Start computing at once.
    """

    _esm = STATIC / "pd_widget.js"
    _css = STATIC / "pd_widget.css"

    features = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """One feature (a curve) or two (a surface)."""

    kind = traitlets.Enum(("average", "individual", "both"), default_value="both").tag(
        sync=True
    )
    """Average curve, ICE curves, or both."""

    centered = traitlets.Bool(False).tag(sync=True)
    """Whether curves are anchored at 0 at the first grid value."""

    grid_resolution = traitlets.Int(50, min=2).tag(sync=True)
    """Grid points per numeric feature (at least 2, as in scikit-learn)."""

    n_ice = traitlets.Int(100, min=1).tag(sync=True)
    """ICE curves computed and drawn."""

    target = traitlets.Unicode("").tag(sync=True)
    """The class shown (classifiers); empty for regressors."""

    scale = traitlets.Enum(
        ("probability", "log_odds"), default_value="probability"
    ).tag(sync=True)
    """Class probability, or centered log-odds (ESL eq. 10.52)."""

    _feature_options = traitlets.List(traitlets.Unicode()).tag(sync=True)
    _categorical = traitlets.List(traitlets.Unicode()).tag(sync=True)
    _target_options = traitlets.List(traitlets.Unicode()).tag(sync=True)
    _curve = traitlets.Dict().tag(sync=True)

    _RERUN_ON = (
        "features",
        "kind",
        "centered",
        "grid_resolution",
        "n_ice",
        "scale",
    )

    def __init__(
        self,
        estimator,
        X,
        *,
        features=None,
        kind="both",
        centered=False,
        grid_resolution=50,
        n_ice=100,
        target=None,
        scale="probability",
        categorical_features=None,
        sample_weight=None,
        percentiles=(0.05, 0.95),
        random_state=0,
        run=True,
    ):
        check_fitted(estimator)
        X = check_X(X)
        names = column_names(X)
        features = _feature_names(features, names)
        targets = _target_options(estimator)
        categorical = _categorical_names(X, names, categorical_features)
        self._estimator, self._X, self._names = estimator, X, names
        self._engine_kwargs = dict(
            # Columns by position: the names in the traits are strings, the
            # frame's labels need not be. Non-numeric columns are categorical.
            categorical_features=[names.index(n) for n in categorical] or None,
            sample_weight=sample_weight,
            percentiles=percentiles,
            random_state=random_state,
            # Ours, on here (the function leaves it off, as scikit-learn).
            correlation_threshold=DEFAULT_CORRELATION_THRESHOLD,
        )
        self._ready = False
        super().__init__(
            features=features,
            kind=kind,
            centered=centered,
            grid_resolution=grid_resolution,
            n_ice=n_ice,
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

    # ComputationWidget hooks --------------------------------------------------

    def _stream(self, cancel):
        if not 1 <= len(self.features) <= 2:
            raise ValueError(
                f"features: pick one feature (a curve) or two (a surface); "
                f"got {list(self.features)}."
            )
        if self._target_options and self.target not in self._target_options:
            raise ValueError(
                f"target: {self.target!r} is not a class shown here; "
                f"choose from {self._target_options}."
            )
        unknown = [f for f in self.features if f not in self._names]
        if unknown:
            raise ValueError(
                f"features: {unknown} not among X's columns; choose from {self._names}."
            )
        two_way = len(self.features) == 2
        # The correlation warning is shown in the widget, not in the output.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return iter_partial_dependence(
                self._estimator,
                self._X,
                [self._names.index(f) for f in self.features],
                # Always predicted: "auto" would switch averages to the
                # recursion (over the training data, decision function) when
                # kind or the number of features changes.
                method="brute",
                grid_resolution=self.grid_resolution,
                kind="average" if two_way else self.kind,
                centered=self.centered and not two_way,
                scale=self.scale if self._target_options else "probability",
                n_ice=None if two_way or self.kind == "average" else self.n_ice,
                cancel=cancel,
                **self._engine_kwargs,
            )

    def _show(self, result):
        self._curve = curve_payload(result, self.target, len(self._X))
        return result

    def _progress_of(self, result):
        return result.n_points_done, result.n_points

    @traitlets.observe(*_RERUN_ON)
    def _on_settings(self, change):
        if self._ready:
            self.run()

    @traitlets.observe("target")
    def _on_target(self, change):
        """The engine computes every class: a new class is drawn from the
        stored result of the current run, without predicting again."""
        if not self._ready:
            return
        with self._lock:
            current = self._result_generation == self._generation
            if self.target in self._target_options and (
                self.status == "running"
                or (self.status in ("done", "cancelled") and current)
            ):
                # A run yet to show its first result reads `target` then.
                if current:
                    self._curve = curve_payload(self.result, self.target, len(self._X))
                return
        self.run()  # after an error, or to report an unknown class

    # Results in Python --------------------------------------------------------

    def to_frame(self):
        """Tidy DataFrame of the average over the grid."""
        if self.result is None:
            raise RuntimeError("No result yet; call wait() first.")
        return self.result.to_frame()

    def figure(self):
        """A matplotlib Figure of the current curve or surface."""
        from matplotlib.figure import Figure

        from ..plotting import PartialDependenceDisplay

        if self.result is None:
            raise RuntimeError("No result yet; call wait() first.")
        figure = Figure(figsize=(6.4, 4.8), layout="constrained")
        # The trait holds the class label as a string ("" for regressors),
        # which the Display's `target` accepts.
        PartialDependenceDisplay(self.result).plot(
            ax=figure.subplots(), target=self.target or None
        )
        return figure


def _target_options(estimator):
    """Class labels a curve can show: the positive class of a binary
    classifier (scikit-learn returns only that one), every class otherwise."""
    if not is_classifier(estimator):
        return []
    classes = [str(c) for c in estimator.classes_]
    return classes[-1:] if len(classes) == 2 else classes


def _feature_names(features, names):
    """`features` (a column or a list of them: labels, or int positions) as
    the names in the traits; the first column when None."""
    if features is None:
        return [names[0]]
    if isinstance(features, (str, numbers.Integral)) or not np.iterable(features):
        features = [features]
    return [
        names[f] if isinstance(f, numbers.Integral) and 0 <= f < len(names) else str(f)
        for f in features
    ]


def _categorical_names(X, names, categorical_features):
    numeric = (
        # By position: labels may repeat.
        [dtype.kind in "biuf" for dtype in X.dtypes]
        if hasattr(X, "columns")
        else [X.dtype.kind in "biuf"] * X.shape[1]
    )
    chosen = set()
    if categorical_features is not None:
        flags = np.asarray(categorical_features)
        if flags.dtype == bool:
            chosen = {n for n, flag in zip(names, flags, strict=True) if flag}
        else:
            chosen = {
                names[c] if isinstance(c, (int, np.integer)) else str(c) for c in flags
            }
    return [
        n
        for n, is_numeric in zip(names, numeric, strict=True)
        if not is_numeric or n in chosen
    ]


def _output_index(result, target):
    if result.output_names is None:
        return 0
    labels = [str(name) for name in result.output_names]
    return labels.index(target) if target in labels else len(labels) - 1


def _y_label(result, target):
    if result.output_names is None:
        label = "partial dependence (prediction)"
    elif result.scale == "log_odds":
        label = f"centered log-odds of class {target}"
    elif result.response_method == "decision_function":
        label = f"decision function, class {target}"
    else:
        label = f"probability of class {target}"
    return f"{label}, change from the first grid value" if result.centered else label


def _distribution(summary, grid):
    """The feature's distribution for drawing beside the curve: histogram bins
    outside the grid's range are left out (the axes span the grid) and the
    outer edges are clipped to it."""
    if summary.categorical:
        return {
            "kind": "categories",
            "labels": [str(c) for c in summary.categories],
            "counts": binary_array(summary.counts),
        }
    edges, counts = summary.bin_edges, summary.counts
    low, high = float(np.min(grid)), float(np.max(grid))
    inside = (edges[1:] > low) & (edges[:-1] < high)
    if inside.any():
        first, last = np.flatnonzero(inside)[[0, -1]]
        counts = counts[first : last + 1]
        edges = np.clip(edges[first : last + 2], low, high)
    return {
        "kind": "histogram",
        "edges": binary_array(edges),
        "counts": binary_array(counts),
        "deciles": binary_array(summary.deciles),
    }


def _axis(result, axis):
    """Grid positions and labels of one feature: values for numeric features,
    0..k-1 with the category labels for categorical ones."""
    values = result.grid_values[axis]
    if result.categorical[axis]:
        return np.arange(len(values), dtype=float), [str(v) for v in values]
    return np.asarray(values, dtype=float), []


def curve_payload(result, target, n_rows):
    """What the front end draws, as float32 buffers. One-way curves carry only
    the grid points computed so far (the engine fills the grid coarse to fine),
    so the drawn line refines instead of showing gaps."""
    output = _output_index(result, target)
    common = {
        "features": list(result.feature_names),
        "n_rows": int(n_rows),
        "y_label": _y_label(result, target),
        "correlated": [
            {
                "feature": c.feature,
                "partner": c.partner,
                "rho": float(c.spearman_rho),
                "message": c.message,
            }
            for c in result.correlated
        ],
    }
    grid, labels = _axis(result, 0)
    common["distribution"] = _distribution(result.distributions[0], grid)
    if len(result.feature_names) == 1:
        done = result.done
        average = result.average[output][done] if result.kind != "individual" else None
        individual = (
            result.individual[output][:, done]
            if result.individual is not None
            else None
        )
        return {
            **common,
            "categorical": bool(result.categorical[0]),
            "grid": binary_array(grid[done]),
            "grid_labels": [label for label, d in zip(labels, done, strict=False) if d],
            "grid_done": int(done.sum()),
            "average": None if average is None else binary_array(average),
            "individual": None if individual is None else binary_array(individual),
        }
    grid_y, labels_y = _axis(result, 1)
    return {
        **common,
        "categorical": [bool(c) for c in result.categorical],
        "grid": binary_array(grid),
        "grid_labels": labels,
        "grid_y": binary_array(grid_y),
        "grid_y_labels": labels_y,
        "grid_done": int(result.done.all(axis=1).sum()),
        "average": binary_array(result.average[output]),
        "distribution_y": _distribution(result.distributions[1], grid_y),
    }
