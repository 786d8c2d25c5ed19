"""What a run holds counts against max_memory: the baseline predicted in
blocks of rows, the resident rows taken off the chunks' budget."""

import numpy as np
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.inspection import permutation_importance as sklearn_importance

from inspectwidgets import permutation_importance
from inspectwidgets.inspection._core.parallel import step_progress
from inspectwidgets.inspection._permutation.scoring import ScoringPlan


def _forest():
    X, y = make_classification(n_samples=500, n_features=6, random_state=0)
    return RandomForestClassifier(n_estimators=8, random_state=0).fit(X, y), X, y


def test_a_blocked_baseline_scores_every_row_as_one_call_does():
    forest, X, y = _forest()
    plan = ScoringPlan(forest, ["accuracy", "neg_log_loss", "roc_auc"])
    whole = plan.baseline(X, y, None)
    blocked = plan.baseline(X, y, None, block_rows=37)  # 14 blocks, one short
    assert blocked.scores == whole.scores
    assert blocked.output_bytes_per_row == whole.output_bytes_per_row


def test_a_blocked_baseline_reports_its_rows_as_they_are_scored():
    # A widget shows this step's progress: on a million rows it takes seconds.
    forest, X, y = _forest()
    plan = ScoringPlan(forest, "accuracy")
    steps = []
    with step_progress(lambda *step: steps.append(step)):
        plan.baseline(X, y, None, block_rows=200)
        plan.baseline(X, y, None)  # one block: nothing to report
    assert steps == [
        ("baseline", 0, 500),
        ("baseline", 200, 500),
        ("baseline", 400, 500),
        ("baseline", 500, 500),
    ]


def test_a_tight_budget_gives_scikit_learns_numbers():
    forest, X, y = _forest()
    expected = sklearn_importance(
        forest, X, y, n_repeats=3, random_state=0, max_samples=200
    )
    for algorithm in ("tree", "generic"):
        # 1 KiB: one copy a chunk.
        got = permutation_importance(
            forest, X, y, n_repeats=3, random_state=0, max_samples=200,
            max_memory=1024, algorithm=algorithm,
        )  # fmt: skip
        np.testing.assert_array_equal(got.importances, expected.importances)
