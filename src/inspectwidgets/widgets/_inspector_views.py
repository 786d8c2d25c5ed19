"""ModelInspector's views: its arguments checked once, the child widgets
behind its views made and mirrored into its traits, their controls' writes
set on them (the design is in widgets/_inspector.py)."""

import logging
from types import SimpleNamespace

import numpy as np
import traitlets
from sklearn.utils import check_random_state

from ..inspection._core import (
    check_columns,
    check_fitted,
    check_n_repeats,
    check_not_empty,
    check_random_state_argument,
    check_target,
    check_X,
    check_y,
)
from ..inspection._permutation import SubgroupImportanceResult
from ._base import ComputationWidget, Status
from ._embedding import MODELS_IMPORTANCE, PERMUTATION_VIEWS, VIEW_CLASSES, mirrored
from ._inspector_scores import InspectorScores
from ._messages import frontend_inputs
from ._workload import HELD_OUT_MAX_ROWS, HELD_OUT_RESAMPLES, seeded_rows, take_rows

logger = logging.getLogger(__name__)

IMPORTANCE_ON = {
    "test": "importance",
    "train": "importance_train",
    "cv": "importance_cv",
    "oob": "importance_oob",
}
"""The Importance view's rows, and the view behind each."""

_NEEDS_TRAINING = {
    "train": "importance on training rows needs training data",
    "cv": "cross-validated importance refits the model on folds of the training data",
    "oob": "out-of-bag importance scores the ensemble on its training rows",
}


def check_review_arguments(estimator, X, y, X_train, y_train, n_repeats, random_state):
    """ModelInspector's arguments, checked once up front: ``(X, y, X_train,
    y_train, random_state)`` checked, the seed drawn when None."""
    check_fitted(estimator)
    X = check_columns(estimator, check_not_empty(check_X(X)))
    y = check_target(estimator, check_y(y, X.shape[0]))
    if (X_train is None) != (y_train is None):
        raise ValueError(
            "X_train and y_train: pass both (training data) or neither; "
            f"got X_train={'None' if X_train is None else 'data'} and "
            f"y_train={'None' if y_train is None else 'data'}."
        )
    if X_train is not None:
        X_train = check_not_empty(check_X(X_train))
        y_train = check_target(
            estimator,
            check_y(y_train, X_train.shape[0], name="y_train"),
            "y_train",
        )
        if X_train.shape[1] != X.shape[1]:
            raise ValueError(
                f"X_train has {X_train.shape[1]} columns but X has "
                f"{X.shape[1]}; pass the same features."
            )
        check_columns(estimator, X_train, "X_train")
    check_n_repeats(n_repeats)
    check_random_state_argument(random_state, "ModelInspector")
    if random_state is None or isinstance(random_state, np.random.RandomState):
        # One seed from the generator (as a scikit-learn estimator draws it),
        # shown in the header and shared by every view.
        random_state = int(check_random_state(random_state).randint(2**31))
    return X, y, X_train, y_train, int(random_state)


class InspectorViews(InspectorScores):
    """The children behind ModelInspector's views (`_children`, by view key),
    each one's synced traits mirrored into the inspector's ``_<key>`` trait."""

    _children: dict[str, ComputationWidget]
    _done_before_effects = False  # see _effects_made

    def wait(self, timeout: float | None = None) -> dict[str, Status]:
        """Block until no view computes; return ``{view: status}``.

        The Effects view's overview of every feature counts: it starts when
        the Importance run ends, so after the views' runs.
        """
        statuses = {key: child.wait(timeout) for key, child in self._children.items()}
        effects = self._children.get("effects")
        if effects is not None and effects.overview:
            if not effects.wait_overview(timeout):
                raise TimeoutError(f"the Effects overview still runs after {timeout} s")
            effects.send_state()  # its updates left from a worker thread
        return statuses

    def cancel(self) -> None:
        """Stop every view's run in flight."""
        for child in self._children.values():
            child.cancel()

    def _child(self, key, *args, cls=None, **kwargs):
        """Create (or replace) the child behind view `key` (of `cls`, by
        default the view's class), mirrored and not yet run."""
        old = self._children.pop(key, None)
        if old is not None:
            old.unobserve_all()  # nothing of it reaches the mirror any more
            old.close()
        child = (cls or VIEW_CLASSES[key])(*args, run=False, **kwargs)
        if hasattr(child, "_bad_model"):
            child._bad_model = None  # the inspector's header warns
        self._children[key] = child
        names = mirrored(child)
        self._publish(key, {name: getattr(child, name) for name in names})
        child.observe(
            lambda change: self._publish(key, {change.name: change.new}), names=names
        )
        self._dirty.add(key)
        return child

    def _held_out_importance(self, scoring, method):
        """The held-out Importance view: the reviewed model's permutation
        widget, sharing its baseline with the header and the Comparison
        view; of several models, one run of them all (no sharing: the
        header scores the reviewed model itself)."""
        X, y = self._X, self._y
        params = dict(
            scoring=scoring,
            n_repeats=self.n_repeats,
            random_state=self._random_state,
            n_jobs=self._n_jobs,
        )
        if self._other_models:
            if method != "marginal":
                raise ValueError(
                    "method: several models' Importance view permutes "
                    f"marginally (one run of every model); got {method!r}."
                )
            importance = self._child(
                "importance", self._models, X, y, cls=MODELS_IMPORTANCE, **params
            )
            importance.on_baselines = self._models_scored
            return importance
        importance = self._child(
            "importance", self._estimator, X, y, method=method, **params
        )
        if len(X) <= HELD_OUT_MAX_ROWS:
            self._shared.resamples["test"] = HELD_OUT_RESAMPLES
        importance._shared = (self._shared, "test")
        return importance

    def _training_views(self):
        """Make the Importance views on the training data that the model and
        data allow; return each `importance_on` option's reason to be
        unavailable ("" when available)."""
        X_train, y_train = self._train
        reasons = {"test": ""}
        for option, key in list(IMPORTANCE_ON.items())[1:]:
            if X_train is None:
                reasons[option] = (
                    f"{_NEEDS_TRAINING[option]}: pass X_train and y_train to "
                    "ModelInspector."
                )
                continue
            try:
                child = self._child(
                    key,
                    self._estimator,
                    X_train,
                    y_train,
                    scoring=self._scoring,
                    n_repeats=self.n_repeats,
                    random_state=self._random_state,
                    n_jobs=self._n_jobs,
                    # The held-out view's method; the others are marginal.
                    **({"method": self._method} if option == "train" else {}),
                )
            except (TypeError, ValueError) as exc:  # the engine's own reason
                reasons[option] = str(exc)
                continue
            if option == "train":
                child._shared = (self._shared, "train")
            reasons[option] = ""
        return reasons

    def _build_subsampled(self, every_model=True):
        """The Comparison and Effects children, on at most `max_rows` rows;
        every model's Effects too unless not `every_model` (a reviewed
        model changed: those curves do not depend on it)."""
        X, y = self._rows(self._X, self._y)
        first = self.selected_features[:2] or [self._names[0]]
        effects = self._child(
            "effects",
            self._estimator,
            X,
            features=first,
            random_state=self._random_state,
        )
        effects.observe(self._on_effects_features, names=["features"])
        if self._other_models:
            # Made again (other rows): what it was asked to draw, kept; not
            # for another reviewed model (its curves are every model's).
            old = self._children.get("effects_models")
            shown = ("effect", "ice", "centered")
            if every_model or old is None:
                panel = self._child(
                    "effects_models",
                    self._models,
                    X,
                    features=first,
                    grid_resolution=effects.grid_resolution,
                    target=effects.target,
                    n_ice=effects.n_ice,
                    random_state=self._random_state,
                    **({k: getattr(old, k) for k in shown} if old else {}),
                )
                # The reviewed model's curve is the Effects view's: taken.
                panel.effects_view = lambda: self._children.get("effects")
            effects.observe(
                self._on_effects_settings,
                names=["grid_resolution", "target", "n_ice"],
            )
        X_train, y_train = self._train
        if X_train is not None:
            # The rows' names in the shared store: a subsample (the same for
            # the same max_rows) is shared only between Comparison's stages.
            shared = {
                "test": "test"
                if X.shape[0] == self._X.shape[0]
                else f"test, {self.max_rows} rows",
                "train": "train"
                if X_train.shape[0] <= self.max_rows
                else f"train, {self.max_rows} rows",
            }
            X_train, y_train = self._rows(X_train, y_train)
            comparison = self._child(
                "comparison",
                self._estimator,
                X_train,
                y_train,
                X,
                y,
                scoring=self._scoring[0],
                n_repeats=self.n_repeats,
                random_state=self._random_state,
                n_jobs=self._n_jobs,
            )
            comparison._shared = (self._shared, shared)

    def _on_importance_status(self, change):
        self._header_after_importance(change.new)
        # The review opens on the most important feature once it is known.
        if change.new != "done" or not self._effects_made():
            return
        # The reviewed model's result (the first's, of several models).
        child = self._children["importance"]
        result = getattr(child, "reviewed_result", child.result)
        if isinstance(result, SubgroupImportanceResult):
            return  # split by a column: no one order of the features
        scorer = result.scorer_names[0]
        # The Effects overview's order: these importances, not the curves'
        # own spread, once known.
        means = result.to_bunch(scorer).importances_mean
        effects = self._children["effects"]
        method = "conditional " if result.subgroups is not None else ""
        effects.set_overview_importances(
            dict(zip(result.feature_names, means, strict=True)),
            f"{method}permutation importance ({scorer})",
        )
        if not self._overview_opened:
            # Shown with the Effects panel, once: a user who closes it keeps
            # it closed through later runs.
            self._overview_opened = True
            effects.overview = True
        if not self.selected_features:
            order, _ = result.top(scorer, 1)
            self.selected_features = [result.feature_names[order[0]]]

    def _build_subsampled_late(self):
        """`_build_subsampled` once the held-out Importance run has started;
        what its end does for the Effects view if it ended before (a small
        X), and the views now shown run."""
        self._build_subsampled()
        with self._lock:
            done, self._done_before_effects = self._done_before_effects, False
        if done:
            self._on_importance_status(SimpleNamespace(new="done"))
        self._refresh()

    def _effects_made(self):
        """Whether the Effects child exists; if not yet (see
        `_build_subsampled_late`), noted, for it to tell once made."""
        with self._lock:
            made = "effects" in self._children
            self._done_before_effects = not made
        return made

    def _on_effects_settings(self, change):
        self._follow_effects()
        if self._ready:
            self._refresh()

    def _follow_effects(self):
        """Every model's curves follow the Effects view: its feature (or
        pair), its grid resolution, class and ICE rows; marked to run when
        next shown."""
        child = self._children.get("effects_models")
        effects = self._children["effects"]
        if child is None or not effects.features:
            return
        settings = {
            "features": list(effects.features),
            "grid_resolution": effects.grid_resolution,
            "target": effects.target,
            "n_ice": effects.n_ice,
        }
        if all(getattr(child, k) == v for k, v in settings.items()):
            return
        child.cancel()  # its curves were of other settings
        for name, value in settings.items():
            setattr(child, name, value)
        self._dirty.add("effects_models")

    def _rows(self, X, y):
        """At most `max_rows` rows of (X, y), drawn with the inspector's seed
        and kept in their order; the data itself when it is small enough."""
        rows = seeded_rows(X.shape[0], self.max_rows, self._random_state)
        return take_rows(rows, X, y)

    def _publish(self, key, values):
        """Mirror changed child traits into ``_<key>``, each with a new
        version so the front end knows which changed."""
        with self._lock:
            current = getattr(self, f"_{key}") or {}
            state = {**current.get("state", {}), **values}
            versions = dict(current.get("versions", {}))
            for name in values:
                self._version += 1
                versions[name] = self._version
            setattr(self, f"_{key}", {"state": state, "versions": versions})

    def _on_message(self, widget, content, buffers):
        """A child's control wrote traits: set them on the child, whose own
        observers rerun it. A refused value is published again, so the
        control shows the value in force. Only the child's inputs can be
        written (_messages.py); anything else is logged and ignored."""
        if not isinstance(content, dict) or "set_cohorts" in content:
            return
        view, changes = content.get("view"), content.get("set")
        if (
            not isinstance(view, str)
            or view not in self._children
            or not isinstance(changes, dict)
        ):
            logger.warning("ModelInspector: ignored a malformed message")
            return
        child = self._children[view]
        allowed = frontend_inputs(type(child))
        for name, value in changes.items():
            if name not in allowed:
                logger.warning(
                    "ModelInspector: the front end may not set %s of %s; ignored",
                    name,
                    view,
                )
                if name in mirrored(child):
                    self._publish(view, {name: getattr(child, name)})
                continue
            # The repeats are the inspector's, shared by the permutation views.
            shared = name == "n_repeats" and content["view"] in PERMUTATION_VIEWS
            try:
                setattr(self if shared else child, name, value)
            except traitlets.TraitError:
                self._publish(content["view"], {name: getattr(child, name)})
                continue
            if name == "scoring" and view == "importance":
                self._follow_scoring(child.scoring)
