"""DataFrames of other libraries (polars, pyarrow, ...) as pandas frames.

The engine works on pandas DataFrames and arrays. scikit-learn's inspection
functions turn any other frame into an array, losing its column names (so its
results say x0, x1, ... and a model fitted on the frame warns that X "does not
have valid feature names"). Here such a frame becomes a pandas DataFrame with
the same names and values, read column by column through narwhals (which
scikit-learn itself uses), with no pyarrow needed: categorical and enum
columns keep their categories, missing numbers become NaN and other missing
values None, as polars' own ``to_pandas`` makes them.
"""

from __future__ import annotations

from typing import Any

import pandas as pd


def is_foreign_frame(X: Any) -> bool:
    """Whether X is a DataFrame narwhals reads eagerly, other than pandas'."""
    if hasattr(X, "iloc"):
        return False
    try:
        from narwhals.dependencies import is_into_dataframe
    except ImportError:  # pragma: no cover - narwhals is a dependency
        return False
    return bool(is_into_dataframe(X))


def as_pandas(X: Any) -> pd.DataFrame:
    """A foreign DataFrame (`is_foreign_frame`) as a new pandas DataFrame with
    its column names; X itself is left as it is."""
    # The stable API: narwhals keeps it across its releases.
    import narwhals.stable.v2 as nw

    frame = nw.from_native(X, eager_only=True)
    columns = {}
    for name in frame.columns:
        series = frame.get_column(name)
        values = series.to_numpy()
        if series.dtype == nw.Categorical or isinstance(series.dtype, nw.Enum):
            categories = series.cat.get_categories().to_list()
            values = pd.Categorical(values, categories=categories)
        columns[name] = values
    return pd.DataFrame(columns, index=pd.RangeIndex(len(frame)))
