"""The views of ModelInspector: the existing widgets, embedded.

An embedded widget is a real instance of the widget (its engine, thread,
latest-wins rule, ``to_frame`` and ``figure``) that opens no comm of its own:
the inspector mirrors its synced traits into one of its own traits and its
front end renders the widget's module over that mirror
(js/src/inspector/sub_model.js).
"""

from ._comparison import ImportanceComparisonWidget
from ._inspector_effects import ModelsEffects
from ._inspector_importance import ModelsImportance
from ._partial_dependence import PartialDependenceWidget
from ._permutation import PermutationImportanceWidget
from ._resampled import CrossValidatedImportance, OutOfBagImportance

# Traits not mirrored: the widget machinery's, and the selection, which is
# the inspector's own (shared by every view).
_WIDGET_TRAITS = {"layout", "tabbable", "tooltip", "_dom_classes", "comm"}
_NOT_MIRRORED = _WIDGET_TRAITS | {"selected_features"}


class _Embedded:
    """A widget shown only through the inspector: no comm of its own."""

    def open(self):
        pass


def _embedded(cls, **attributes):
    return type(f"Embedded{cls.__name__}", (_Embedded, cls), attributes)


VIEW_CLASSES = {
    "importance": _embedded(PermutationImportanceWidget),
    "importance_train": _embedded(PermutationImportanceWidget),
    "importance_cv": _embedded(CrossValidatedImportance),
    "importance_oob": _embedded(OutOfBagImportance),
    "comparison": _embedded(ImportanceComparisonWidget),
    # Made while the Importance view computes its first bars: its settings
    # (the inspector's, checked up front) and whether its feature has steps
    # (reading every tree's splits) are checked by its first run.
    "effects": _embedded(PartialDependenceWidget, _checked_when_made=False),
    # Several models: each one's partial dependence of the selected feature.
    "effects_models": _embedded(ModelsEffects),
}

# The held-out Importance view of several models (one run of them all).
MODELS_IMPORTANCE = _embedded(ModelsImportance)

# The views that permute features, all with the inspector's `n_repeats`.
PERMUTATION_VIEWS = (
    "importance",
    "importance_train",
    "importance_cv",
    "importance_oob",
    "comparison",
)


def mirrored(child):
    """The child's synced traits the front end reads (not the widget
    machinery's own)."""
    return [
        name
        for name in child.trait_names(sync=True)
        if name not in _NOT_MIRRORED
        and not name.startswith(("_model_", "_view_", "_anywidget", "_esm", "_css"))
    ]
