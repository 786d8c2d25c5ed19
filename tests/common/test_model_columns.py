"""X's columns are checked by the rule of the model's own library: an X the
model's own ``predict`` accepts is accepted (names with spaces for LightGBM,
integer labels for LightGBM, XGBoost and CatBoost), one it refuses is refused
with a sentence naming the columns. The oracle is each library's predict,
called here on the same frames.

The one deliberate difference: LightGBM predicts a frame holding its own
columns in another order (it reads by position, whatever the labels), and the
engine refuses it, since every number would mix the columns up.
"""

import numpy as np
import pandas as pd
import pytest

from inspectwidgets import permutation_importance
from inspectwidgets.inspection._core import check_columns

lightgbm = pytest.importorskip("lightgbm")
xgboost = pytest.importorskip("xgboost")
catboost = pytest.importorskip("catboost")

rng = np.random.default_rng(0)
VALUES = rng.normal(size=(120, 3))
TARGET = (VALUES[:, 0] + VALUES[:, 1] > 0).astype(int)
NAMED = pd.DataFrame(VALUES, columns=["mean radius", "c", "worst area"])


def _fit(library, X):
    if library == "lightgbm":
        model = lightgbm.LGBMClassifier(n_estimators=5, verbose=-1)
    elif library == "xgboost":
        model = xgboost.XGBClassifier(n_estimators=5)
    else:
        model = catboost.CatBoostClassifier(
            iterations=5, verbose=0, allow_writing_files=False
        )
    return model.fit(X, TARGET)


VARIANTS = {
    "same frame": lambda X: X,
    "integer labels": lambda X: pd.DataFrame(X.to_numpy()),
    "reordered": lambda X: X[[X.columns[1], X.columns[0], X.columns[2]]],
    "renamed": lambda X: X.set_axis(["p", "q", "r"], axis=1),
    "spaces as underscores": lambda X: X.set_axis(
        [str(c).replace(" ", "_") for c in X.columns], axis=1
    ),
    "an extra column": lambda X: X.assign(extra=1.0),
    "a column short": lambda X: X.iloc[:, :2],
    "array": lambda X: X.to_numpy(),
}

FITTED_ON = {
    "named frame": NAMED,
    "integer-labelled frame": pd.DataFrame(VALUES),
    "array": VALUES,
}


# How each library names a frame's column (its documented rule, written out
# here rather than taken from the engine).
STORED_NAME = {
    "lightgbm": lambda label: str(label).replace(" ", "_"),
    "xgboost": str,
    "catboost": str,
}


def _predict_accepts(model, X):
    try:
        model.predict_proba(X)
    except Exception:  # each library raises its own error type
        return False
    return True


def _predicts_the_same(model, X, reference):
    return np.array_equal(model.predict_proba(X), model.predict_proba(reference))


@pytest.mark.parametrize("library", ["lightgbm", "xgboost", "catboost"])
@pytest.mark.parametrize("fitted_on", list(FITTED_ON))
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_accepts_what_the_models_predict_accepts(library, fitted_on, variant):
    train = FITTED_ON[fitted_on]
    model = _fit(library, train)
    X = VARIANTS[variant](NAMED if fitted_on == "array" else train)
    accepted = _predict_accepts(model, X)
    # LightGBM mixes up its own columns given in another order: refused here.
    mixed_up = (
        accepted and fitted_on != "array" and not _predicts_the_same(model, X, train)
    )
    if accepted and not mixed_up:
        assert check_columns(model, X) is X
    else:
        with pytest.raises(ValueError, match=r"\bX\b") as error:
            check_columns(model, X)
        message = str(error.value)
        # The error never says X lacks columns it has.
        if "lacks" in message:
            missing = message.split("lacks the column(s) ")[1].split("]")[0]
            stored = [STORED_NAME[library](c) for c in getattr(X, "columns", [])]
            for name in stored:
                assert repr(name) not in missing, message


def test_lightgbm_reordered_columns_named_with_the_fix():
    model = _fit("lightgbm", NAMED)
    X = NAMED[["c", "mean radius", "worst area"]]
    with pytest.raises(ValueError, match="another order") as error:
        check_columns(model, X)
    assert "['mean radius', 'c', 'worst area']" in str(error.value)


@pytest.mark.parametrize("library", ["lightgbm", "xgboost", "catboost"])
def test_breast_cancer_names_with_spaces_give_scikit_learns_numbers(library):
    """The issue's first report: a LightGBM model on load_breast_cancer's
    frame was refused by every entry point."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.inspection import permutation_importance as sklearn_importance

    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    X = X.iloc[:, :8]
    models = {
        "lightgbm": lambda: lightgbm.LGBMClassifier(n_estimators=20, verbose=-1),
        "xgboost": lambda: xgboost.XGBClassifier(n_estimators=20),
        "catboost": lambda: catboost.CatBoostClassifier(
            iterations=20, verbose=0, allow_writing_files=False
        ),
    }
    # The frame itself, and pd.DataFrame(ndarray): integer labels, which the
    # libraries store as strings.
    for frame in (X, pd.DataFrame(X.to_numpy())):
        model = models[library]().fit(frame, y)
        ours = permutation_importance(model, frame, y, n_repeats=3, random_state=0)
        theirs = sklearn_importance(model, frame, y, n_repeats=3, random_state=0)
        np.testing.assert_array_equal(ours.importances, theirs.importances)
