"""The linear shortcut against scikit-learn, side by side.

    python benchmarks/linear.py [--quick] [--large] [--runs N] [--case TEXT]

Per case (a model, a task, rows x columns): median seconds of scikit-learn
and of ours (``algorithm="auto"``, which takes the linear shortcut: each
permuted copy's decision function from X's plus the permuted column's
contribution, then the model's link), their ratio, and how far ours is from
scikit-learn (held to tests/numerics.py's tolerance: a difference exits 1).

Tasks: permutation importance of every column, 5 repeats, one scorer;
partial dependence and ICE (``kind="both"``) of one feature on scikit-learn's
default 100-point grid. Models: Ridge scored by r2, and a StandardScaler +
LogisticRegression pipeline scored by accuracy (its predict thresholds the
decision function; PD takes predict_proba through expit). Cases of over
2,000,000 cells get one timed run unless ``--runs`` says, and no warm-up
where a smaller size of the same model and task ran before in the process.
Importance at 100,000 x 200 takes scikit-learn minutes a call: the
pipeline's is left out, Ridge's runs with ``--large``. ``--quick``: the
10,000-row cases only, one BLAS thread. ``--drop-results``: each result freed
as soon as it is timed (by default every contender's last result stays alive
while the next call runs). See README.md beside this file.
"""

import argparse
import functools
import time
from dataclasses import dataclass

import _agreement
import _timing
import numpy as np
import sklearn
from sklearn.inspection import partial_dependence as sklearn_partial_dependence
from sklearn.inspection import permutation_importance as sklearn_importance
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import inspectwidgets
from inspectwidgets import partial_dependence, permutation_importance

N_REPEATS = 5
RANDOM_STATE = 0
SIZES = [(10_000, 50), (10_000, 200), (100_000, 50), (100_000, 200)]


@functools.cache
def data(n_rows, n_columns):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n_rows, n_columns))
    X[:, 1] = rng.integers(0, 10, n_rows)  # an integer-valued column
    y = X @ rng.normal(size=n_columns) + rng.normal(0, 1, n_rows)
    return X, y


@functools.cache
def model(kind, n_rows, n_columns):
    X, y = data(n_rows, n_columns)
    if kind == "ridge":
        return Ridge().fit(X, y), y
    labels = (y > np.median(y)).astype(int)
    pipe = make_pipeline(StandardScaler(), LogisticRegression(max_iter=200))
    return pipe.fit(X, labels), labels


@dataclass(frozen=True)
class Case:
    kind: str  # "ridge" or "logistic"
    task: str  # "importance" or "pd+ice"
    n_rows: int
    n_columns: int

    @property
    def label(self):
        return f"{self.kind} {self.task} {self.n_rows:,} x {self.n_columns}"

    def contenders(self):
        estimator, y = model(self.kind, self.n_rows, self.n_columns)
        X, _ = data(self.n_rows, self.n_columns)
        scoring = "r2" if self.kind == "ridge" else "accuracy"
        if self.task == "importance":
            common = dict(scoring=scoring, n_repeats=N_REPEATS,
                          random_state=RANDOM_STATE)  # fmt: skip
            return {
                "sklearn": lambda: sklearn_importance(estimator, X, y, **common),
                "ours": lambda: permutation_importance(estimator, X, y, **common),
            }
        return {
            "sklearn": lambda: sklearn_partial_dependence(
                estimator, X, [0], kind="both"
            ),
            "ours": lambda: partial_dependence(estimator, X, [0], kind="both"),
        }

    def compare(self, agreement, results):
        ours, theirs = results["ours"], results["sklearn"]
        if self.task == "importance":
            return agreement.max_difference(
                self.label, ours.importances, theirs.importances
            )
        return max(
            agreement.max_difference(self.label, ours.average, theirs.average),
            agreement.max_difference(
                self.label + " ICE", ours.individual, theirs.individual
            ),
        )


# scikit-learn predicts 1,000 copies of 100,000 x 200 for importance:
# minutes a call. The pipeline's is left out; the ridge's runs with --large.
SKIPPED = {("logistic", "importance", 100_000, 200)}
LARGE = {("ridge", "importance", 100_000, 200)}
# Cases this large (cells) get one timed run after the warm-up, so that the
# whole script takes minutes.
ONE_RUN_CELLS = 2_000_000


def cases(quick, large, text):
    sizes = [s for s in SIZES if not quick or s[0] <= 10_000]
    every = [
        Case(kind, task, n_rows, n_columns)
        for n_rows, n_columns in sizes
        for task in ("importance", "pd+ice")
        for kind in ("ridge", "logistic")
        if (kind, task, n_rows, n_columns) not in SKIPPED
        and (large or (kind, task, n_rows, n_columns) not in LARGE)
    ]
    return [c for c in every if text is None or text in c.label]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--large", action="store_true", help="also Ridge's importance, 100,000 x 200"
    )
    parser.add_argument(
        "--runs", type=int, default=None, help="timed runs (default 3; 1 when large)"
    )
    parser.add_argument("--case", default=None, help="only cases whose label has it")
    parser.add_argument(
        "--drop-results",
        action="store_true",
        help="free each result once timed (see results/linear.md)",
    )
    args = parser.parse_args()
    _timing.restart_single_threaded_if_quick(args.quick)
    print(_timing.describe_environment([sklearn, np, inspectwidgets]))
    print(_timing.describe_method(args.runs or 3, args.quick, "sklearn and ours"))
    if args.runs is None:
        print("(cases over 2,000,000 cells: 1 run; warmed up by a smaller size's run)")
    agreement = _agreement.Agreement()
    header = (
        f"{'case':<36} {'runs':>4} {'sklearn s':>10} {'ours s':>9} {'ratio':>7} "
        f"{'max diff':>9}"
    )
    print(header)
    print("-" * len(header))
    started = time.perf_counter()
    warmed = set()
    for case in cases(args.quick, args.large, args.case):
        runs = args.runs or (3 if case.n_rows * case.n_columns < ONE_RUN_CELLS else 1)
        # A smaller size of the same model and task warmed up its code.
        warm_up = (case.kind, case.task) not in warmed
        warmed.add((case.kind, case.task))
        medians, results = _timing.time_side_by_side(
            case.contenders(), runs, warm_up, keep_results=not args.drop_results
        )
        difference = case.compare(agreement, results)
        ratio = medians["sklearn"] / medians["ours"]
        print(
            f"{case.label:<36} {runs:>4} {medians['sklearn']:>10.3f} "
            f"{medians['ours']:>9.3f} "
            f"{ratio:>6.1f}x {difference:>9.1e}",
            flush=True,
        )
    print(f"\n{time.perf_counter() - started:.0f} s in all")
    agreement.exit_if_any()


if __name__ == "__main__":
    main()
