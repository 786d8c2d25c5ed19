"""When two features count as correlated, for every engine.

The partial dependence widgets and Displays warn when a feature's
``|Spearman rho|`` with another reaches ``DEFAULT_CORRELATION_THRESHOLD``
(the functions, drop-ins for scikit-learn's, check only when asked);
``cluster_features`` and the comparison widget's correlation view group
features whose every pair reaches it.

0.8: past about 0.7 collinearity starts to distort what models estimate
(Dormann et al. 2013, "Collinearity: a review of methods to deal with it",
Ecography 36:27-46); at 0.8 two features share 64 % of their rank variance,
so one can stand in for the other, which is what makes permuting either
alone misleading. Lower it to group more loosely.

Both measure Spearman's rho pairwise complete: each pair over the rows where
both features are present. Dropping every row with a missing value anywhere
could leave none on messy data.
"""

import numpy as np
import pandas as pd
from scipy.stats import rankdata

DEFAULT_CORRELATION_THRESHOLD = 0.8
MIN_ROWS = 3
"""Fewer rows with both features present give no correlation (NaN)."""


def spearman(a, b):
    """Spearman's rank correlation of two float arrays over the rows where
    both are finite (ties get average ranks); NaN when either is constant
    there or fewer than ``MIN_ROWS`` rows have both."""
    both = np.isfinite(a) & np.isfinite(b)
    if both.sum() < MIN_ROWS:
        return np.nan
    a, b = rankdata(a[both]), rankdata(b[both])
    a, b = a - a.mean(), b - b.mean()
    denominator = np.sqrt((a @ a) * (b @ b))
    return float(a @ b / denominator) if denominator > 0 else np.nan


def spearman_matrix(values):
    """:func:`spearman` of every pair of columns of a float array (NaN where
    a value is missing), with a unit diagonal; NaN where it is NaN."""
    if np.isnan(values).any():
        # pandas ranks each pair's common rows (its nancorr_spearman).
        frame = pd.DataFrame(values)
        correlation = frame.corr("spearman", min_periods=MIN_ROWS).to_numpy(copy=True)
    else:
        with np.errstate(invalid="ignore", divide="ignore"):
            correlation = np.corrcoef(rankdata(values, axis=0), rowvar=False)
        correlation = np.atleast_2d(correlation)
    np.fill_diagonal(correlation, 1.0)
    return correlation
