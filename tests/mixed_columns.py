"""A frame of every column kind users bring (float NaN, nullable Int64 /
Float64 / boolean, a pandas category) and a target depending on two of
them: the messy data of the several-model inspector's tests."""

import numpy as np
import pandas as pd


def mixed_columns(n, seed=1):
    """`(X, y, rng)`: `n` rows, y = x (0 where missing) + 2 on the "pro"
    plan; `rng` the generator that drew them, to draw more from."""
    rng = np.random.RandomState(seed)
    X = pd.DataFrame(
        {
            "x": np.where(rng.rand(n) < 0.1, np.nan, rng.normal(size=n)),
            "k": pd.array(rng.randint(0, 4, n), dtype="Int64"),
            "f": pd.array(rng.normal(size=n), dtype="Float64"),
            "b": pd.array(rng.rand(n) < 0.5, dtype="boolean"),
            "plan": pd.Categorical(rng.choice(["basic", "pro", "team"], n)),
        }
    )
    y = np.nan_to_num(X["x"].to_numpy(float)) + (X["plan"] == "pro") * 2.0
    return X, y, rng
