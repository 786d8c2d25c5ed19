"""The marginal / conditional switch of the permutation views.

`method` picks the engine run a permutation view streams: scikit-learn's
marginal permutation importance, or the conditional one (cs-PFI,
docs/conditional_importance.md), which permutes each feature within the
subgroups of rows alike in the features that predict it. Both runs take the
same arguments and yield the same result object; the conditional one adds
each feature's subgroups, whose rules the front end shows on hover.

The conditional run fits its subgroup trees when it is made (seconds on a
big X), so a view makes it on its worker thread, as its stream starts
(:func:`deferred_stream`), after the arguments were checked on the caller's
thread by a marginal run made from the same arguments.
"""

from ..inspection._permutation import conditional_run, permutation_run

METHODS = ("marginal", "conditional")
"""Values of the `method` trait."""

FITTING_PHASE = "conditional: fitting the subgroup trees"
"""What the status line says while the subgroup trees are fitted."""


def importance_run(method, estimator, X, y, **params):
    """The not yet started engine run of `method` (one of `METHODS`)."""
    make = conditional_run if method == "conditional" else permutation_run
    return make(estimator, X, y, **params)


def deferred_stream(make):
    """The stream `make()` returns, made only when first consumed: on the
    worker thread, so the kernel stays free while it is made."""
    yield from make()


def store_settings(method, n_repeats, random_state, max_samples):
    """The settings under which a SharedPermutations store keeps a view's
    results (widgets/_shared.py): a conditional result answers only a
    conditional run, a marginal one every marginal view (their key is
    unchanged, so the Comparison view still finds it)."""
    settings = (n_repeats, random_state, max_samples)
    return (*settings, "conditional") if method == "conditional" else settings
