"""scikit-learn's partial dependence as a reference, on every version we
support (imported by the tests as `sklearn_reference`).

`custom_values` is scikit-learn's from 1.7; ours takes it on every version.
On 1.6 the reference is scikit-learn's own `partial_dependence` with its grid
builder (`_grid_from_X`) giving the custom grid of the features that have one,
as 1.7 does: the predictions, averages and shapes are 1.6's own.
"""

from unittest import mock

import numpy as np
from sklearn.inspection import _partial_dependence
from sklearn.inspection import partial_dependence as _sklearn_partial_dependence
from sklearn.utils import _safe_indexing
from sklearn.utils.extmath import cartesian

from inspectwidgets.inspection._core.compat import SKLEARN_MINOR

HAS_CUSTOM_VALUES = SKLEARN_MINOR >= (1, 7)


def sklearn_partial_dependence(estimator, X, features, **kwargs):
    """scikit-learn's `partial_dependence`, with `custom_values` on 1.6 too."""
    custom_values = kwargs.pop("custom_values", None)
    if HAS_CUSTOM_VALUES or not custom_values:
        if custom_values is not None:
            kwargs["custom_values"] = custom_values
        return _sklearn_partial_dependence(estimator, X, features, **kwargs)
    # 1.7's matching: a key applies to the feature given exactly so.
    given = [features] if isinstance(features, (str, int)) else list(features)
    custom = {
        i: _custom_axis(custom_values[feature])
        for i, feature in enumerate(given)
        if feature in custom_values
    }
    original = _partial_dependence._grid_from_X

    def grid_from_X(X_subset, percentiles, is_categorical, grid_resolution):
        values = [
            custom[i]
            if i in custom
            else original(
                _safe_indexing(X_subset, [i], axis=1),
                percentiles,
                [is_categorical[i]],
                grid_resolution,
            )[1][0]
            for i in range(X_subset.shape[1])
        ]
        return cartesian(values), values

    with mock.patch.object(_partial_dependence, "_grid_from_X", grid_from_X):
        return _sklearn_partial_dependence(estimator, X, features, **kwargs)


def _custom_axis(values):
    """1.7's conversion of a custom grid: object where a value is a string."""
    dtype = object if any(isinstance(v, str) for v in values) else None
    axis = np.asarray(values, dtype=dtype)
    assert axis.ndim == 1, "a custom grid is one-dimensional"
    return axis
