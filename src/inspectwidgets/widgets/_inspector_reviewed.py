"""ModelInspector's reviewed model, of several (its `reviewed` trait): the
views about one model review it, and the held-out Importance view draws
its paired difference with each other model.

Changing it keeps what does not depend on it: the held-out run of every
model (the same permuted copies whoever is reviewed: only its chart is
redrawn), every model's curves under Effects, and each model's held-out
scores. What does is made again for the new model, its runs in flight
cancelled (their widgets closed), and runs when shown as any view does:
the Importance views on training rows (cross-validated, out-of-bag), the
Comparison view, the Effects view (its selection and settings kept), the
cohorts' importance and the header (the reviewed model's scores, its
cohorts' and its warning). Each model keeps its
own store of shared permutations (widgets/_shared.py keys them by rows,
not by model), so coming back to a model reuses what its views computed.
"""

from types import SimpleNamespace

import traitlets

from ._shared import SharedPermutations

TRAINING_VIEWS = ("importance_train", "importance_cv", "importance_oob")


def check_reviewed(models, name):
    """`name` if it names one of `models` (a review of one model has no
    names: only "" then), else a TraitError naming them."""
    if name in models or (not models and name == ""):
        return name
    if not models:
        raise traitlets.TraitError(
            f"reviewed: this review has one model, not named; got {name!r}. "
            "Pass a dict {name: model} to review several."
        )
    raise traitlets.TraitError(
        f"reviewed: {name!r} is not one of the models {list(models)}."
    )


def review(inspector, name):
    """Make `name` the model `inspector`'s single-model views review."""
    models = inspector._models
    if name == inspector._reviewed_name:
        return
    inspector._reviewed_name, inspector._estimator = name, models[name]
    inspector._other_models = {k: m for k, m in models.items() if k != name}
    inspector._shared = inspector._stores.setdefault(name, SharedPermutations())
    held_out = inspector._children["importance"]
    held_out.reviewed = name  # redrawn, not run again
    effects = inspector._children.get("effects")
    overview = effects is not None and effects.overview
    for key in TRAINING_VIEWS:  # another model's, even where this has none
        child = inspector._children.pop(key, None)
        if child is not None:
            child.unobserve_all()
            child.close()
            setattr(inspector, f"_{key}", {})
    inspector._importance_options = inspector._training_views()
    if effects is not None:
        inspector._build_subsampled(every_model=False)
        inspector._follow_effects()
        if held_out.status == "done":  # the overview's order: its importances
            inspector._on_importance_status(SimpleNamespace(new="done"))
        inspector._children["effects"].overview = overview
    if held_out.status == "running":  # its first results bring every score
        inspector._header = inspector._header_content()
    else:
        inspector._open_header(run=False)
    inspector._cohorts_of_reviewed()
    if inspector._importance_options.get(inspector.importance_on):
        inspector.importance_on = "test"  # unavailable for this model
    inspector._refresh()
