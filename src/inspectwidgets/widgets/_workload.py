"""Big inputs: the seeded subsample of rows and the words that say what a run
computes.

Partial dependence predicts every row once per grid point and a comparison
once per feature and repeat, so their widgets (and ModelInspector's views)
compute on a seeded subsample of at most `max_rows` rows above
`LARGE_INPUT_CELLS`; permutation importance subsamples only through its own
`max_samples`. Every widget above that size says in its status line what it
computes (the JS puts `_workload` before the progress and the time left,
which the base estimates from the first chunk's time).
"""

import numbers

import numpy as np
import traitlets
from sklearn.utils import _safe_indexing, check_random_state

LARGE_INPUT_CELLS = 1_000_000
"""Rows x features above which a widget subsamples by default and describes
its work: five times the cells of a 10,000 x 20 table, whose partial
dependence already takes seconds on 2 cores (docs/large_data.md), is past
what one waits for without being told."""

DEFAULT_MAX_ROWS = 10_000
"""Rows of the default subsample: a PD/ICE curve of 10,000 rows is as smooth
as one of a million, at a hundredth of the predictions."""


HELD_OUT_RESAMPLES = 200
"""Resamples of the held-out rows behind the Importance view's interval on
test rows, computed where its scorers are means over rows and the rows are
at most `HELD_OUT_MAX_ROWS`."""

HELD_OUT_MAX_ROWS = 20_000
"""Above this many held-out rows the inspector computes no interval by
itself: each chunk reads the rows x resamples counts, which on 100,000 rows
costs more than the run itself (benchmarks/results/permutation.md, "The
held-out interval")."""

MAX_ROWS = 5_000
"""ModelInspector's default `max_rows`: Effects and Comparison predict every
row once per grid point or repeat, so above this many rows they use a seeded
subsample (a PD/ICE curve of 5,000 rows is as smooth as one of 50,000)."""


def seeded_rows(n_rows, max_rows, random_state):
    """Positions of at most `max_rows` of `n_rows` rows, drawn without
    replacement with ``check_random_state(random_state)`` and sorted (the
    rows keep their order); None when every row is used. An int gives the
    same rows every time."""
    if n_rows <= max_rows:
        return None
    rng = check_random_state(random_state)
    return np.sort(rng.choice(n_rows, size=max_rows, replace=False))


def take_rows(rows, *arrays):
    """Each of `arrays` (None stays None) at positions `rows` (None: whole)."""
    if rows is None:
        return arrays
    return tuple(None if a is None else _safe_indexing(a, rows) for a in arrays)


def resolve_max_rows(max_rows, *Xs):
    """A widget's `max_rows` argument, checked; for None, `DEFAULT_MAX_ROWS`
    where one of `Xs` is large, else every row of the longest."""
    if max_rows is None:
        if any(is_large(X) for X in Xs):
            return DEFAULT_MAX_ROWS
        return max(X.shape[0] for X in Xs)
    if not isinstance(max_rows, numbers.Integral) or max_rows < 1:
        raise ValueError(f"max_rows must be a positive int or None; got {max_rows!r}.")
    return int(max_rows)


def is_large(X):
    return X.shape[0] * X.shape[1] > LARGE_INPUT_CELLS


def rows_text(used, total, how="seeded subsample"):
    """'10,000 of 1,000,000 rows (seeded subsample)', or '5,000 rows'."""
    if used < total:
        return f"{used:,} of {total:,} rows ({how})"
    return f"{total:,} rows"


def workload_text(*parts):
    """The parts of a description joined: rows, features, the work per row."""
    return " × ".join(p for p in parts if p)


class Workload(traitlets.HasTraits):
    """What a run computes, in words, for the status line
    (js/src/ui/workload.js): "" for inputs small enough to need no word."""

    _workload = traitlets.Unicode("").tag(sync=True)


class RowSubsample(Workload):
    """A seeded subsample of at most `max_rows` rows, shown in the status
    line with a field to change it; the widget recomputes when `max_rows`
    changes."""

    max_rows = traitlets.Int(DEFAULT_MAX_ROWS, min=1).tag(sync=True)
    """Rows computed at most: a seeded subsample (`random_state`) of larger
    data. Defaults to every row, or to 10,000 where rows x features exceed
    1,000,000."""

    _n_rows = traitlets.Int(0).tag(sync=True)
    """Rows of the data given (the largest `max_rows` that changes anything)."""
