"""Text stays text (#49 items 4, 5, 6 and 10), on every widget: a name with two
``$`` is drawn as itself in every ``figure()`` and PNG fallback; a lone
surrogate crosses the comm as its escape and a click on it selects the
original; a class name's bidi override stays inside its name in the axis
title; names that differ invisibly are drawn apart; an empty model name is
refused. The Displays are reached through the widgets' figure(); the
page: tests/browser/test_shared_review.py."""

import io
import os
import unicodedata

import numpy as np
import pandas as pd
import pytest
from ipywidgets.widgets.widget import _remove_buffers
from jupyter_client.session import json_packer
from matplotlib.text import Text
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.tree import DecisionTreeRegressor

import inspectwidgets as iw
from inspectwidgets._text import OPEN_BOX, isolate, mpl_name, sendable, visible

from hostile import build_widgets

DOLLARS = ["cost ($) per unit ($)", "$\\undefinedmacro$", "$x^{2}$"]
# A file name decoded by os.fsdecode: b"caf\xe9" is not UTF-8.
FSDECODED = os.fsdecode(b"caf\xe9")
LOOKALIKES = ["age", "age ", "\u0430ge", "a\u200dge"]  # Cyrillic а, ZWJ


def _frame(names, n_rows=60):
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(n_rows, len(names))), columns=names)
    y = 2 * X.iloc[:, 0] + X.iloc[:, 1]
    return X, y


def _widgets(names):
    """Every widget over columns `names`, run to the end."""
    X, y = _frame(names)
    tree = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y)
    pair = list(names[:2])
    widgets = {
        "permutation": iw.PermutationImportanceWidget(
            tree, X, y, n_repeats=2, random_state=0
        ),
        "partial_dependence": iw.PartialDependenceWidget(
            tree, X, features=pair, grid_resolution=5
        ),
        "comparison": iw.ImportanceComparisonWidget(
            tree, X, y, X, y, n_repeats=2, random_state=0
        ),
        "interaction": iw.InteractionWidget(
            LinearRegression().fit(X, y),
            X,
            n_samples=10,
            n_top=2,
            grid_resolution=4,
            pair=pair,
        ),
        "inspector": iw.ModelInspector(
            tree, X, y, n_repeats=2, random_state=0, selected_features=pair
        ),
        "inspector of models": iw.ModelInspector(
            {names[0]: tree, names[1]: LinearRegression().fit(X, y)},
            X,
            y,
            n_repeats=2,
            random_state=0,
        ),
    }
    for widget in widgets.values():
        for _ in range(2):  # the inspector starts its effects after importance
            widget.wait(60)
    return widgets


@pytest.fixture(scope="module")
def dollar_widgets():
    widgets = _widgets(DOLLARS)
    yield widgets
    for widget in widgets.values():
        widget.close()


def _drawn_texts(figure):
    """What each Text of `figure` draws, drawn first (tick labels are made at
    draw time), with whether matplotlib parsed it as mathtext."""
    figure.savefig(io.BytesIO(), format="png")
    return [
        t._preprocess_math(t.get_text()) for t in figure.findobj(Text) if t.get_text()
    ]


# Item 4: "$" ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind",
    [
        "permutation",
        "partial_dependence",
        "comparison",
        "interaction",
        "inspector",
        "inspector of models",
    ],
)
def test_every_figure_draws_dollar_names_as_text(dollar_widgets, kind):
    widget = dollar_widgets[kind]
    views = [None]
    if isinstance(widget, iw.ModelInspector):
        views = [v for v in widget.views if widget._children[v].result is not None]
    for view in views:
        figure = widget.figure() if view is None else widget.figure(view)
        drawn = _drawn_texts(figure)
        assert not [text for text, math in drawn if math], (kind, view)
        shown = " ".join(text for text, _ in drawn)
        assert any(name in shown for name in DOLLARS), (kind, view, shown)
    # The PNG where no widget manager runs (nbconvert, GitHub).
    data, _ = widget._repr_mimebundle_()
    assert data["image/png"]


# Item 5: lone surrogates -----------------------------------------------------------


@pytest.fixture(scope="module")
def hostile_widgets():
    widgets = build_widgets()
    yield widgets
    for widget in widgets.values():
        widget.close()


def _as_the_kernel_sends(state):
    """`state` packed as jupyter_client packs a comm message, and read back
    as the browser reads it (UTF-8, strict)."""
    state, _, _ = _remove_buffers(state)
    return json_packer(state).decode("utf-8")


def test_every_widget_state_crosses_the_comm(hostile_widgets):
    """HOSTILE names columns with lone surrogates: the kernel's packing of the
    comm's first message raised UnicodeEncodeError, so no widget could be
    displayed (and the constructor that opens the comm raised)."""
    sent = [_as_the_kernel_sends(w.get_state()) for w in hostile_widgets.values()]
    # The categories' lone surrogates reach the page as their escapes.
    assert any("lone \\\\ud800 high" in text for text in sent)


def _update(widget, **state):
    widget._handle_msg(
        {
            "content": {
                "data": {"method": "update", "state": state, "buffer_paths": []}
            },
            "buffers": [],
        }
    )


@pytest.mark.parametrize("make", ["permutation", "inspector"])
def test_a_click_on_an_escaped_name_selects_the_original(make, monkeypatch):
    X, y = _frame([FSDECODED, "lone\ud800x", "plain"])
    tree = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y)
    if make == "permutation":
        widget = iw.PermutationImportanceWidget(tree, X, y, n_repeats=2)
    else:
        widget = iw.ModelInspector(tree, X, y, n_repeats=2, random_state=0)
    try:
        for _ in range(2):
            widget.wait(60)
        # The page reads the name as its escape, not U+FFFD ...
        sent = _as_the_kernel_sends(widget.get_state())
        assert "caf\\\\udce9" in sent and "\ufffd" not in sent
        # ... and a click sends that escape back: the original is selected.
        sent = []  # what the comm sends, packed as the kernel packs it
        monkeypatch.setattr(
            widget.comm,
            "send",
            lambda data=None, buffers=None, **_: sent.append(
                json_packer(data).decode("utf-8")
            ),
        )
        _update(widget, selected_features=["caf\\udce9", "lone\\ud800x"])
        assert widget.selected_features == [FSDECODED, "lone\ud800x"]
        # The echo of the page's values reaches the page as escapes too.
        assert sent and all("\\\\udce9" in message for message in sent)
    finally:
        widget.close()


def test_sendable_records_what_it_changed():
    sent_as = {}
    state = {"features": [FSDECODED, "plain"], FSDECODED: {"x": 1.5}}
    shown = sendable(state, sent_as)
    assert shown == {"features": ["caf\\udce9", "plain"], "caf\\udce9": {"x": 1.5}}
    assert sent_as == {"caf\\udce9": FSDECODED}


# Item 6: bidi in the sentences Python composes for the page -------------------


def test_a_class_name_in_the_axis_title_is_isolated():
    X, y = _frame(["a", "b"])
    labels = np.where(y > 0, "\u202eevil", "good")
    model = LogisticRegression().fit(X, labels)
    widget = iw.PartialDependenceWidget(
        model, X, features=["a"], grid_resolution=5, target="\u202eevil"
    )
    try:
        widget.wait(60)
        label = widget._curve["y_label"]
        # The override ends with the name: nothing after it is reversed.
        assert label.endswith("class " + isolate("\u202eevil")), label
    finally:
        widget.close()


def test_pipeline_step_names_are_isolated_in_the_header(hostile_widgets):
    header = hostile_widgets["inspector"]._header
    steps = header["model"]["steps"]
    assert steps and all(step.startswith("\u2068") for step in steps), steps
    assert all("\u2069: " in step for step in steps), steps


# Item 10: names that differ invisibly, empty model names -----------------------


def test_visible_draws_names_apart():
    shown = [visible(name) for name in LOOKALIKES]
    assert len(set(shown)) == len(LOOKALIKES), shown
    assert shown == ["age", f"age{OPEN_BOX}", "\\u0430ge", "a\\u200dge"]
    # A plain name, and a name in one script alone, are drawn as themselves.
    for name in ["age", "naïve", "Москва", "μ (mean)", "年齢"]:
        assert visible(name) == name
    assert visible(FSDECODED) == "caf\\udce9"
    assert mpl_name("$x$ ") == f"\\$x\\${OPEN_BOX}"


def test_figures_draw_lookalike_names_apart():
    X, y = _frame(LOOKALIKES)
    tree = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y)
    widget = iw.PermutationImportanceWidget(tree, X, y, n_repeats=2)
    try:
        widget.wait(60)
        figure = widget.figure()
        figure.savefig(io.BytesIO(), format="png")
        ticks = [t.get_text() for t in figure.axes[0].get_yticklabels()]
        # As a reader sees them: edge spaces and zero-width characters are
        # drawn as nothing; a Cyrillic letter looks Latin, so it is escaped.
        seen = {
            "".join(c for c in t if unicodedata.category(c) != "Cf").strip()
            for t in ticks
        }
        assert len(seen) == len(LOOKALIKES), ticks
        assert "\\u0430ge" in ticks, ticks
    finally:
        widget.close()


@pytest.mark.parametrize("blank", ["", "   ", "\u200b"])
def test_a_blank_model_name_is_refused(blank):
    X, y = _frame(["a", "b"])
    model = LinearRegression().fit(X, y)
    models = {blank: model, "other": model}
    with pytest.raises(ValueError, match="a model's name must show"):
        iw.compare_permutation_importance(models, X, y, n_repeats=1)
    with pytest.raises(ValueError, match="a model's name must show"):
        iw.ModelInspector(models, X, y, n_repeats=1)
