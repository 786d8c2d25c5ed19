"""Log loss and ROC AUC scored for all permuted copies at once: scikit-learn's
scorers' numbers on the same copies, bit for bit, and scikit-learn's own
code wherever the vectorized versions do not reproduce it.

The copies are scored twice through the same plan: vectorized, and copy by
copy with scikit-learn's scorer on each copy's predictions (``vectorize=False``,
the path a baseline takes). The predictions are the same arrays, so the
scores must be equal to the bit; tree models tie a lot, which is where a ROC
AUC can go wrong.
"""

import warnings

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.inspection import permutation_importance as sklearn_permutation_importance
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss, make_scorer, roc_auc_score
from sklearn.tree import DecisionTreeClassifier

from inspectwidgets import permutation_importance
from inspectwidgets.inspection._permutation import class_targets as targets_module
from inspectwidgets.inspection._permutation import vectorized_ranking
from inspectwidgets.inspection._permutation.scoring import ScoringPlan

from numerics import assert_blas_close

N_COPIES = 5
BINARY_SCORERS = ["neg_log_loss", "roc_auc", "roc_auc_ovr", "roc_auc_ovo_weighted"]
MULTICLASS_SCORERS = [
    "neg_log_loss",
    "roc_auc_ovr",
    "roc_auc_ovr_weighted",
    "roc_auc_ovo",
    "roc_auc_ovo_weighted",
]
MULTICLASS_OPTIONS = [
    {"multi_class": m, "average": a}
    for m, a in [
        ("ovr", "macro"),
        ("ovr", "weighted"),
        ("ovr", "micro"),
        ("ovo", "macro"),
        ("ovo", "weighted"),
    ]
]
MODELS = {
    "logistic": lambda: LogisticRegression(max_iter=500),
    # Few distinct probabilities: long runs of tied scores.
    "tree": lambda: DecisionTreeClassifier(max_depth=3, random_state=0),
    "forest": lambda: RandomForestClassifier(
        n_estimators=7, min_samples_leaf=3, random_state=0
    ),
    "boosting": lambda: HistGradientBoostingClassifier(max_iter=10, random_state=0),
    # The same probabilities for every row: a single threshold.
    "constant": lambda: DummyClassifier(strategy="prior"),
}
WEIGHTS = ["none", "integer", "float", "with zeros"]


def _data(n_classes, labels, n_rows=300, random_state=0):
    X, y = make_classification(
        n_samples=n_rows,
        n_features=6,
        n_informative=4,
        n_classes=n_classes,
        random_state=random_state,
    )
    X[:, 1] = np.round(X[:, 1])  # an integer-valued column
    if labels == "strings":
        y = np.array(["ham", "spam", "eggs"], dtype=object)[y]
    return X, y


def _weight(kind, n_rows):
    rng = np.random.default_rng(1)
    if kind == "none":
        return None
    if kind == "integer":
        return rng.integers(1, 4, n_rows).astype(float)
    weight = rng.uniform(0.2, 2.0, n_rows)
    if kind == "with zeros":
        weight[rng.random(n_rows) < 0.2] = 0.0
    return weight


def _copies(plan, X, n_copies=N_COPIES, random_state=0):
    """Each copy: X with one column permuted, predicted in one call, as a
    chunk predicts them."""
    rng = np.random.default_rng(random_state)
    stacked = []
    for c in range(n_copies):
        copy = X.copy()
        column = c % X.shape[1]
        copy[:, column] = copy[rng.permutation(len(X)), column]
        stacked.append(copy)
    return plan.predict(np.concatenate(stacked))


def _both_ways(plan, outputs, y, weight, n_copies=N_COPIES):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fast = plan.score_blocks(outputs, n_copies, y, weight, None)
        each = plan.score_blocks(outputs, n_copies, y, weight, None, vectorize=False)
    return fast, each


def _response(plan, planned, outputs, n_copies=N_COPIES):
    blocked = {m: v.reshape((n_copies, -1) + v.shape[1:]) for m, v in outputs.items()}
    return plan._response(planned, blocked)


def _assert_vectorized(plan, outputs, y, weight, classes):
    """Every scorer of `plan` is scored by its vectorized version here (no
    fallback to scikit-learn's function)."""
    for planned in plan.scorers:
        assert planned.vectorized is not None, planned.name
        response = _response(plan, planned, outputs)
        values = planned.vectorized(np.asarray(y), response, weight, classes)
        assert values is not None, planned.name


@pytest.mark.parametrize("weight_kind", WEIGHTS)
@pytest.mark.parametrize("labels", ["integers", "strings"])
@pytest.mark.parametrize("model_name", list(MODELS))
def test_binary_scores_are_sklearns_scorers_bit_for_bit(
    model_name, labels, weight_kind
):
    X, y = _data(2, labels)
    model = MODELS[model_name]().fit(X, y)
    weight = _weight(weight_kind, len(y))
    plan = ScoringPlan(model, BINARY_SCORERS)
    outputs = _copies(plan, X)
    fast, each = _both_ways(plan, outputs, y, weight)
    for name in BINARY_SCORERS:
        assert_array_equal(fast[name], each[name], err_msg=name)
        assert np.isfinite(fast[name]).all()
    _assert_vectorized(plan, outputs, y, weight, model.classes_)


@pytest.mark.parametrize("weight_kind", WEIGHTS)
@pytest.mark.parametrize("labels", ["integers", "strings"])
@pytest.mark.parametrize("model_name", list(MODELS))
def test_multiclass_scores_are_sklearns_scorers_bit_for_bit(
    model_name, labels, weight_kind
):
    X, y = _data(3, labels)
    model = MODELS[model_name]().fit(X, y)
    weight = _weight(weight_kind, len(y))
    # scikit-learn refuses sample weights for one-vs-one.
    scorers = [
        s
        for s in MULTICLASS_SCORERS
        if weight is None or not s.startswith("roc_auc_ovo")
    ]
    plan = ScoringPlan(model, scorers)
    outputs = _copies(plan, X)
    fast, each = _both_ways(plan, outputs, y, weight)
    for name in scorers:
        assert_array_equal(fast[name], each[name], err_msg=name)
    _assert_vectorized(plan, outputs, y, weight, model.classes_)


@pytest.mark.parametrize("options", MULTICLASS_OPTIONS, ids=str)
def test_every_multiclass_average_is_sklearns(options):
    """micro and the averages no built-in scorer name carries, through
    make_scorer."""
    X, y = _data(3, "strings")
    model = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
    scorer = make_scorer(roc_auc_score, response_method="predict_proba", **options)
    plan = ScoringPlan(model, {"auc": scorer})
    outputs = _copies(plan, X)
    for weight in (None, _weight("float", len(y))):
        if weight is not None and options["multi_class"] == "ovo":
            continue
        fast, each = _both_ways(plan, outputs, y, weight)
        assert_array_equal(fast["auc"], each["auc"])
        _assert_vectorized(plan, outputs, y, weight, model.classes_)


def test_tied_scores_under_float_weights_are_sklearns_own(monkeypatch):
    """Running sums of non-integer weights round by the order of tied rows:
    such copies are scored by scikit-learn's function, the others by ours."""
    X, y = _data(2, "integers")
    tree = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X, y)
    weight = _weight("float", len(y))
    plan = ScoringPlan(tree, ["roc_auc"])
    outputs = _copies(plan, X)
    calls = []

    def counted(*args, **kwargs):
        calls.append(1)
        return roc_auc_score(*args, **kwargs)

    monkeypatch.setattr(vectorized_ranking, "roc_auc_score", counted)
    fast, each = _both_ways(plan, outputs, y, weight)
    assert_array_equal(fast["roc_auc"], each["roc_auc"])
    assert len(calls) == N_COPIES  # every copy of a depth-2 tree ties


@pytest.mark.parametrize(
    "scoring",
    [
        # Keyword arguments the vectorized versions do not reproduce.
        {"ll": make_scorer(log_loss, response_method="predict_proba", labels=[0, 1])},
        {
            "auc": make_scorer(
                roc_auc_score,
                response_method="decision_function",
                max_fpr=0.5,
            )
        },
        # Custom scorer.
        {"custom": lambda est, X, y: float(np.mean(est.predict(X) == y))},
    ],
    ids=["labels", "max_fpr", "callable"],
)
def test_scorers_not_covered_are_scored_copy_by_copy(scoring):
    X, y = _data(2, "integers")
    model = LogisticRegression().fit(X, y)
    plan = ScoringPlan(model, scoring)
    assert all(planned.vectorized is None for planned in plan.scorers)
    expected = sklearn_permutation_importance(
        model, X, y, n_repeats=2, random_state=0, scoring=scoring
    )
    got = permutation_importance(
        model, X, y, n_repeats=2, random_state=0, scoring=scoring
    )
    for name in scoring:
        assert_blas_close(got[name].importances, expected[name].importances)


def test_one_class_rows_fall_back_to_sklearn():
    """y holding one class of a binary model: scikit-learn's ROC AUC warns and
    gives NaN, its log loss raises; the vectorized versions decline, so the
    same happens here."""
    X, y = _data(2, "integers")
    forest = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
    rows = y == 1
    plan = ScoringPlan(forest, ["roc_auc"])
    outputs = _copies(plan, X[rows])
    fast, each = _both_ways(plan, outputs, y[rows], None)
    assert np.isnan(fast["roc_auc"]).all()
    assert_array_equal(fast["roc_auc"], each["roc_auc"])
    kwargs = dict(n_repeats=2, random_state=0, scoring="neg_log_loss")
    with pytest.raises(ValueError) as expected:
        sklearn_permutation_importance(forest, X[rows], y[rows], **kwargs)
    with pytest.raises(ValueError) as got:
        permutation_importance(forest, X[rows], y[rows], **kwargs)
    assert str(got.value) == str(expected.value)


def test_a_class_absent_from_multiclass_rows_falls_back():
    X, y = _data(3, "integers")
    forest = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
    rows = y != 2
    for scoring in ("neg_log_loss", "roc_auc_ovr"):
        kwargs = dict(n_repeats=2, random_state=0, scoring=scoring)
        with pytest.raises(ValueError) as expected:
            sklearn_permutation_importance(forest, X[rows], y[rows], **kwargs)
        with pytest.raises(ValueError) as got:
            permutation_importance(forest, X[rows], y[rows], **kwargs)
        assert str(got.value) == str(expected.value)


def test_refusals_are_sklearns():
    """ROC AUC of multiclass decision functions (multi_class='raise') and
    one-vs-one under sample weights: scikit-learn raises, and so do we."""
    X, y = _data(3, "integers")
    model = LogisticRegression(max_iter=500).fit(X, y)
    weight = _weight("float", len(y))
    for scoring, kwargs in [
        ("roc_auc", {}),
        ("roc_auc_ovo", {"sample_weight": weight}),
    ]:
        common = dict(n_repeats=2, random_state=0, scoring=scoring, **kwargs)
        with pytest.raises(ValueError) as expected:
            sklearn_permutation_importance(model, X, y, **common)
        with pytest.raises(ValueError) as got:
            permutation_importance(model, X, y, **common)
        assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("weight_kind", ["none", "with zeros"])
def test_trees_end_to_end_are_sklearns_bit_for_bit(weight_kind):
    X, y = _data(2, "strings", n_rows=500)
    weight = _weight(weight_kind, len(y))
    scoring = ["neg_log_loss", "roc_auc", "accuracy"]
    for model in (
        RandomForestClassifier(n_estimators=10, min_samples_leaf=3, random_state=0),
        HistGradientBoostingClassifier(max_iter=15, random_state=0),
    ):
        model.fit(X, y)
        kwargs = dict(
            n_repeats=3, random_state=0, scoring=scoring, sample_weight=weight
        )
        expected = sklearn_permutation_importance(model, X, y, **kwargs)
        got = permutation_importance(model, X, y, **kwargs)
        for name in scoring:
            assert_array_equal(got[name].importances, expected[name].importances)


def test_linear_multiclass_end_to_end():
    X, y = _data(3, "strings", n_rows=500)
    model = LogisticRegression(max_iter=500).fit(X, y)
    scoring = ["neg_log_loss", "roc_auc_ovr_weighted", "roc_auc_ovo"]
    kwargs = dict(n_repeats=3, random_state=0, scoring=scoring)
    expected = sklearn_permutation_importance(model, X, y, **kwargs)
    result = permutation_importance(model, X, y, return_result=True, **kwargs)
    assert result.algorithm == "linear"
    for name in scoring:
        assert_blas_close(result.importances(name), expected[name].importances)


def test_targets_changed_in_place_are_read_afresh():
    """The targets' encoding is kept between chunks; a y changed in place
    between two runs must not be read from it."""
    X, y = _data(2, "integers")
    y = y.copy()
    forest = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
    kwargs = dict(n_repeats=2, random_state=0, scoring=["roc_auc", "neg_log_loss"])
    permutation_importance(forest, X, y, **kwargs)
    assert targets_module._kept
    y[:40] = 1 - y[:40]
    expected = sklearn_permutation_importance(forest, X, y, **kwargs)
    got = permutation_importance(forest, X, y, **kwargs)
    for name in kwargs["scoring"]:
        assert_array_equal(got[name].importances, expected[name].importances)
