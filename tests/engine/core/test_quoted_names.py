"""Error messages of the engine and the widgets quote names (columns,
classes, scorers) shortened to about 80 characters, with control characters
escaped: a 10,000-character column name, or one holding a right-to-left
override, is not echoed as is."""

import numpy as np
import pandas as pd
import pytest
import traitlets
from sklearn.linear_model import LinearRegression, LogisticRegression

import inspectwidgets as iw
from inspectwidgets import partial_dependence, permutation_importance
from inspectwidgets.inspection._core.validation import NAME_SHOWN, quoted

LONG = "x" * 10_000


def test_quoted_short_names_are_their_repr():
    assert quoted("age") == "'age'"
    assert quoted(3) == "3"
    # repr escapes what a terminal would act on.
    assert quoted("\u202eevil\x00") == "'\\u202eevil\\x00'"


def test_quoted_long_names_are_cut_with_an_ellipsis_and_their_length():
    text = quoted(LONG)
    assert text == f"'{'x' * (NAME_SHOWN - 1)}\u2026 (10,000 characters)"
    assert len(quoted(list(range(1000)))) == NAME_SHOWN + 1


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(20, 2)), columns=[LONG, "\u202eb"])
    y = X.iloc[:, 0].to_numpy()
    return LinearRegression().fit(X, y), X, y


@pytest.mark.parametrize(
    "call",
    [
        # An unknown name, itself long, listed beside X's long column.
        lambda m, X, y: permutation_importance(m, X, y, features=[LONG + "?"]),
        lambda m, X, y: partial_dependence(m, X, [LONG + "?"]),
        # A group naming the long column twice.
        lambda m, X, y: permutation_importance(m, X, y, features={LONG: [0, 0]}),
        lambda m, X, y: permutation_importance(m, X, y, scoring=LONG),
    ],
    ids=["permutation feature", "pd feature", "group", "scorer"],
)
def test_engine_errors_quote_long_names_shortened(data, call):
    with pytest.raises(ValueError) as raised:
        call(*data)
    message = str(raised.value)
    assert LONG[: NAME_SHOWN + 1] not in message, message[:200]
    assert "\u2026 (10,0" in message
    assert "\u202e" not in message


def test_class_names_are_quoted_shortened():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    y = np.where(X[:, 0] > 0, LONG, "short")
    model = LogisticRegression().fit(X, y)
    with pytest.raises(ValueError) as raised:
        partial_dependence(model, X, [0], classes=[LONG + "?"])
    message = str(raised.value)
    assert LONG[: NAME_SHOWN + 1] not in message, message[:200]
    assert message.count("\u2026") == 2  # the class asked for, and the known one


@pytest.mark.parametrize(
    "make",
    [
        lambda m, X, y: iw.PartialDependenceWidget(
            m, X, features=[LONG + "?"], run=False
        ),
        lambda m, X, y: iw.PermutationImportanceWidget(
            m, X, y, features=[LONG + "?"], run=False
        ),
        lambda m, X, y: iw.InteractionWidget(m, X, pair=[LONG, LONG + "?"], run=False),
        lambda m, X, y: iw.ModelInspector(
            m, X, y, selected_features=[LONG + "?"], run=False
        ),
    ],
    ids=["pd widget", "permutation widget", "interaction widget", "inspector"],
)
def test_widget_errors_quote_long_names_shortened(data, make):
    with pytest.raises((ValueError, traitlets.TraitError)) as raised:
        make(*data).close()
    message = str(raised.value)
    assert LONG[: NAME_SHOWN + 1] not in message, message[:200]
    assert "\u2026" in message
