"""The features selected in a widget's charts."""

import traitlets


class FeatureSelection(traitlets.HasTraits):
    """The features selected in a widget's charts: a click on (or Enter on)
    a row, bar, dot or correlation cell sets it (js/src/ui/feature_selection.js)
    and the charts mark it. ModelInspector links it across its views."""

    selected_features = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The selected features (one, or a correlation cell's two)."""
