"""The random draws of a permutation importance, made once."""

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils.random import sample_without_replacement


def permutation_schedule(random_state, n_samples, max_samples, n_repeats):
    """Rows and row permutations exactly as scikit-learn draws them.

    scikit-learn draws one int seed from `random_state`, then, for every
    column, seeds a fresh RandomState with it, subsamples the rows (if
    ``max_samples < n_samples``) and shuffles an index array in place once per
    repeat, applying each shuffle to the already permuted column. Every column
    therefore sees the same rows and the same permutations; we draw them once.

    Returns
    -------
    rows : ndarray of shape (max_samples,) or None
        Subsampled rows of X, or None for all rows.
    permutations : list of ndarray of shape (max_samples,)
        ``permutations[r]`` maps each row of the permuted column at repeat `r`
        to the row of the (subsampled) data it comes from.
    """
    return schedule_of_seed(draw_seed(random_state), n_samples, max_samples, n_repeats)


def draw_seed(random_state):
    """The one int seed scikit-learn draws from `random_state` for a run."""
    return check_random_state(random_state).randint(np.iinfo(np.int32).max + 1)


def schedule_of_seed(seed, n_samples, max_samples, n_repeats):
    """:func:`permutation_schedule` of the int `seed` already drawn."""
    rng = np.random.RandomState(seed)
    rows = None
    if max_samples < n_samples:
        rows = sample_without_replacement(n_samples, max_samples, random_state=rng)
        # A view of an `n_samples`-entry pool: copied, so that the run keeps
        # max_samples indices, not the pool (7.6 MiB for 10^6 rows).
        rows = rows.copy()
    shuffling = np.arange(max_samples)
    composed = np.arange(max_samples)
    permutations = []
    for _ in range(n_repeats):
        rng.shuffle(shuffling)
        composed = composed[shuffling]
        permutations.append(composed)
    return rows, permutations


def within_subgroups(permutation, subgroups):
    """`permutation` (a repeat's, of every row) restricted to each subgroup:
    row i of the permuted column takes its value from the row of its own
    subgroup that `permutation` lists at the same rank among that subgroup's.

    `subgroups` holds each row's subgroup code and the rows sorted by it
    (stably). A uniform permutation orders each subgroup's rows uniformly
    and independently of the others, so each subgroup is uniformly permuted
    within itself; with one subgroup this is `permutation` itself, so a
    feature nothing else predicts gets scikit-learn's permutation exactly.
    Nothing more is drawn.
    """
    codes, sorted_rows = subgroups
    sources = permutation[np.argsort(codes[permutation], kind="stable")]
    within = np.empty_like(permutation)
    within[sorted_rows] = sources
    return within
