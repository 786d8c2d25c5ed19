"""Several models' streams of snapshots merged into comparison snapshots:
what every model has done, each model's numbers untouched.

Each model's stream (``PermutationRun.stream``, or the shared stream of the
models stacking X's rows) yields its rounds, and, split like a single
widget's run (``stream_first_round``), its first round's features as they
come. The streams take turns, the one behind first, and a comparison
snapshot is yielded whenever what every model has done grows: during the
first round, the features every model has done (so the first marks come
after one small chunk of each model, not after a whole round of each);
then every round once every model has it.
"""

from dataclasses import replace


def merged_rounds(streams, model_names, feature_names):
    """The snapshots ``{model name: PermutationImportanceResult}`` of what
    every model has done, as `streams` (generators of ``{name: result}``,
    each name in one stream) come in; none twice. A stream ending before
    the others (a cancelled run) ends it: what was yielded stays valid."""
    progress = [-1.0] * len(streams)
    latest = {}
    shown = 0.0  # nothing every model has done yet
    while True:
        # The stream behind goes next: the models' work stays in step, and
        # a round waits for no model's next one.
        turn = min(range(len(streams)), key=progress.__getitem__)
        update = next(streams[turn], None)
        if update is None:  # every round done, or cancelled
            return
        progress[turn] = min(r.rounds_done for r in update.values())
        latest.update(update)
        if len(latest) < len(model_names):
            continue
        common = common_snapshot(latest, feature_names)
        done = next(iter(common.values())).rounds_done
        if done > shown:
            shown = done
            yield {name: common[name] for name in model_names}


def common_snapshot(latest, feature_names):
    """Each model's snapshot in `latest` cut to what every model has: the
    fewest rounds, or, while some model is in its first round, the first
    repeat of the features every model has done (in `feature_names`'
    order, the others pending). The same scores, fewer of them."""
    results = latest.values()
    if not any(r.pending_features for r in results):
        n_done = min(r.n_repeats_done for r in results)
        names = tuple(feature_names)
    else:
        done = set.intersection(*(set(r.feature_names) for r in results))
        names, n_done = tuple(f for f in feature_names if f in done), 1
    pending = tuple(f for f in feature_names if f not in set(names))
    return {name: _cut(r, names, n_done, pending) for name, r in latest.items()}


def _cut(result, names, n_done, pending):
    """`result`'s first `n_done` repeats of the features `names`, the
    others `pending`."""
    if names == result.feature_names and n_done == result.n_repeats_done:
        return result
    rows = [result.feature_names.index(name) for name in names]
    resampled = result.bootstrap_permuted_scores
    return replace(
        result,
        feature_names=tuple(names),
        feature_columns=tuple(result.feature_columns[i] for i in rows),
        permuted_scores={
            s: v[rows, :n_done].copy() for s, v in result.permuted_scores.items()
        },
        pending_features=pending,
        bootstrap_permuted_scores=None
        if resampled is None
        else {s: v[rows, :n_done].copy() for s, v in resampled.items()},
        subgroups=None
        if result.subgroups is None
        else {name: result.subgroups[name] for name in names},
    )
