"""Log loss and ROC AUC scored for all copies at once, against scikit-learn.

    python benchmarks/scorers.py [--quick] [--runs N] [--case TEXT]

Per case (a model, rows x columns, a scorer): median seconds of
scikit-learn's ``permutation_importance``, of ours, and of ours scoring copy
by copy with scikit-learn's own metric ("per copy": the same scorer given a
keyword argument that keeps it off the vectorized path, ``labels=`` set to
the classes it has anyway, so the same numbers), each on the same fitted
model, 5 repeats, ``random_state=0``. ``ratio`` is scikit-learn's time over
ours; ``vs per copy`` is the per-copy time over ours (what vectorizing the
metric gains on our own path). Results are checked against scikit-learn's
(tests/numerics.py's tolerance where BLAS is on the path; trees exactly): a
difference exits 1.

Cases: the logistic regression of benchmarks/linear.py (StandardScaler +
LogisticRegression, 100,000 x 50: the linear shortcut), and a random forest
and a HistGradientBoosting classifier on 20,000 x 20 (the tree walk), with
accuracy as the reference point. ``--quick``: the 10,000-row logistic case
and the tree cases on 5,000 rows, one run, one BLAS and OpenMP thread.
"""

import argparse
import functools
import time
from dataclasses import dataclass

import _agreement
import _timing
import numpy as np
import sklearn
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.inspection import permutation_importance as sklearn_importance
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, log_loss, make_scorer, roc_auc_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import inspectwidgets
from inspectwidgets import permutation_importance

N_REPEATS = 5
RANDOM_STATE = 0
SCORERS = ("accuracy", "neg_log_loss", "roc_auc")


@functools.cache
def data(n_rows, n_columns):
    """benchmarks/linear.py's data: normal columns, one integer-valued."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n_rows, n_columns))
    X[:, 1] = rng.integers(0, 10, n_rows)
    y = X @ rng.normal(size=n_columns) + rng.normal(0, 1, n_rows)
    return X, (y > np.median(y)).astype(int)


@functools.cache
def model(kind, n_rows, n_columns):
    X, y = data(n_rows, n_columns)
    if kind == "logistic":
        estimator = make_pipeline(StandardScaler(), LogisticRegression(max_iter=200))
    elif kind == "forest":
        estimator = RandomForestClassifier(
            n_estimators=50, min_samples_leaf=5, random_state=0, n_jobs=1
        )
    else:
        estimator = HistGradientBoostingClassifier(max_iter=50, random_state=0)
    return estimator.fit(X, y)


def per_copy_scorer(name, classes):
    """`name`'s scorer with ``labels=classes``: the same number, scored copy
    by copy (a keyword argument keeps a scorer off the vectorized path)."""
    metric, kwargs = {
        "accuracy": (accuracy_score, {"response_method": "predict"}),
        "neg_log_loss": (
            log_loss,
            {"response_method": "predict_proba", "greater_is_better": False},
        ),
        "roc_auc": (
            roc_auc_score,
            {"response_method": ("decision_function", "predict_proba")},
        ),
    }[name]
    if metric is accuracy_score:
        return make_scorer(metric, normalize=True, **kwargs)
    return make_scorer(metric, labels=classes, **kwargs)


@dataclass(frozen=True)
class Case:
    kind: str  # "logistic", "forest" or "boosting"
    n_rows: int
    n_columns: int
    scoring: str

    @property
    def label(self):
        return f"{self.kind} {self.n_rows:,} x {self.n_columns} {self.scoring}"

    def contenders(self):
        estimator = model(self.kind, self.n_rows, self.n_columns)
        X, y = data(self.n_rows, self.n_columns)
        common = dict(n_repeats=N_REPEATS, random_state=RANDOM_STATE)
        per_copy = per_copy_scorer(self.scoring, estimator.classes_)
        return {
            "sklearn": lambda: sklearn_importance(
                estimator, X, y, scoring=self.scoring, **common
            ),
            "ours": lambda: permutation_importance(
                estimator, X, y, scoring=self.scoring, **common
            ),
            "per copy": lambda: permutation_importance(
                estimator, X, y, scoring=per_copy, **common
            ),
        }

    def compare(self, agreement, results):
        theirs = results["sklearn"].importances
        if self.kind == "logistic":  # BLAS on the path: tests/numerics.py
            return max(
                agreement.max_difference(self.label, results[name].importances, theirs)
                for name in ("ours", "per copy")
            )
        for name in ("ours", "per copy"):
            agreement.require_identical(
                f"{self.label} ({name})", results[name].importances, theirs
            )
        return float(np.max(np.abs(results["ours"].importances - theirs)))


def cases(quick, text):
    sizes = (
        [("logistic", 10_000, 50), ("forest", 5_000, 20), ("boosting", 5_000, 20)]
        if quick
        else [
            ("logistic", 100_000, 50),
            ("forest", 20_000, 20),
            ("boosting", 20_000, 20),
        ]
    )
    every = [Case(*size, scoring) for size in sizes for scoring in SCORERS]
    return [c for c in every if text is None or text in c.label]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--runs", type=int, default=3, help="timed runs (default 3)")
    parser.add_argument("--case", default=None, help="only cases whose label has it")
    args = parser.parse_args()
    _timing.restart_single_threaded_if_quick(args.quick)
    runs = 1 if args.quick else args.runs
    print(_timing.describe_environment([sklearn, np, inspectwidgets]))
    print(_timing.describe_method(runs, args.quick, "sklearn, ours and per copy"))
    agreement = _agreement.Agreement()
    columns = [
        ("case", "<"),
        ("sklearn s", ">"),
        ("ours s", ">"),
        ("per copy s", ">"),
        ("ratio", ">"),
        ("vs per copy", ">"),
        ("max diff", ">"),
    ]
    rows = []
    started = time.perf_counter()
    for case in cases(args.quick, args.case):
        medians, results = _timing.time_side_by_side(case.contenders(), runs)
        difference = case.compare(agreement, results)
        rows.append(
            [
                case.label,
                f"{medians['sklearn']:.3f}",
                f"{medians['ours']:.3f}",
                f"{medians['per copy']:.3f}",
                f"{medians['sklearn'] / medians['ours']:.1f}x",
                f"{medians['per copy'] / medians['ours']:.1f}x",
                f"{difference:.1e}",
            ]
        )
        print(f"  {case.label} done", flush=True)
    print(_timing.format_table(columns, rows))
    print(f"\n{time.perf_counter() - started:.0f} s in all")
    agreement.exit_if_any()


if __name__ == "__main__":
    main()
