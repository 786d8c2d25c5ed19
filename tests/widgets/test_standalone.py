"""save_html's page is safe to send and safe to open: it holds any string the
data holds (parsed here with Python's html.parser; drawn in Chromium by
tests/browser/test_shared_review.py), carries no traceback nor local path,
and is written whole or not at all."""

import errno
import json
import os
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, RegressorMixin

import inspectwidgets as iw
from inspectwidgets._text import sendable
from inspectwidgets.widgets import _file_writing, _standalone
from inspectwidgets.widgets._page_state import without_local_paths
from inspectwidgets.widgets._standalone import save_html, script_json

from hostile import HOSTILE, build_widgets


class _Page(HTMLParser):
    """The scripts of a page, by id, and the text of its title."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.scripts, self.title, self._in = {}, "", None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self._in = dict(attrs).get("id") or dict(attrs).get("type")
            self.scripts[self._in] = ""
        elif tag == "title":
            self._in = "<title>"

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        if self._in == "<title>":
            self.title += data
        elif self._in is not None:
            self.scripts[self._in] += data


class _FakeWidget:
    """What standalone_html reads of a widget: its state, module and CSS."""

    _esm = "export default { render() {} };"
    _css = ".x { color: red; }"

    def __init__(self, state):
        self._state = state

    def get_state(self):
        return self._state


def _strings(node):
    """Every string in a JSON value, keys included."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)
    elif isinstance(node, str):
        yield node


def _state_of(text):
    page = _Page(text)
    assert set(page.scripts) == {"widget-state", "widget-module", "module"}
    for script in page.scripts.values():
        # Nothing in the data can open a comment, a script or end one.
        assert "<" not in script or script is page.scripts["module"]
    return json.loads(page.scripts["widget-state"])


@pytest.mark.parametrize("value", HOSTILE, ids=range(len(HOSTILE)))
def test_script_json_round_trips_every_hostile_string(value):
    data = {value: [value, {"nested": value}], "n": 1.5}
    text = script_json(data)
    assert json.loads(text) == data
    assert not {"<", ">", "&", "\u2028", "\u2029"} & set(text)
    assert text.isascii()  # so lone surrogates cannot break the UTF-8 file
    # Inside a page, the element holds the whole JSON and only it.
    page = _Page(f"<script type='application/json' id='s'>{text}</script><p>after")
    assert page.scripts["s"] == text


def test_page_of_hostile_state_parses_to_the_same_state():
    state = {f"name {i}": value for i, value in enumerate(HOSTILE)}
    state["labels"] = list(HOSTILE)
    title = "".join(HOSTILE[:12])
    text = _standalone.standalone_html(_FakeWidget(state), title=title)
    text.encode("utf-8")  # no lone surrogate left anywhere
    decoded = _state_of(text)
    assert decoded["state"] == {**state, "_standalone": True}
    # The title is text, with what UTF-8 or HTML cannot hold as U+FFFD.
    page = _Page(text)
    assert page.title == title.replace("\x00", "\ufffd").replace(
        "\ud800", "\ufffd"
    ).replace("\udcff", "\ufffd")


@pytest.fixture(scope="module")
def hostile_widgets():
    widgets = build_widgets()
    yield widgets
    for widget in widgets.values():
        widget.close()


def test_every_widget_saves_hostile_strings_whole(hostile_widgets, tmp_path):
    reached = set()
    for name, widget in hostile_widgets.items():
        path = save_html(widget, tmp_path / f"{name}.html", title=HOSTILE[0])
        decoded = _state_of(path.read_text(encoding="utf-8"))
        strings = set(_strings(decoded["state"]))
        # A lone surrogate as the page shows it: its escape (_text.sendable).
        found = {
            value for value in HOSTILE if any(sendable(value, {}) in s for s in strings)
        }
        # Every widget shows the column names it was given.
        assert found, name
        reached |= found
    # Together they carried every hostile string, untouched but for the
    # lone surrogates' escapes.
    assert reached == set(HOSTILE)


class _Broken(RegressorMixin, BaseEstimator):
    """Predicts its training rows; on any other rows (a permuted copy) it
    fails with a message naming a local file."""

    def fit(self, X, y):
        self.X_ = np.asarray(X, dtype=float)
        self.n_features_in_ = self.X_.shape[1]
        return self

    def predict(self, X):
        X = np.asarray(X, dtype=float)
        if X.shape == self.X_.shape and np.array_equal(X, self.X_):
            return X[:, 0]
        raise RuntimeError(f"could not read {Path.home() / 'secret' / 'model.bin'}")


def _broken_data():
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(30, 2)), columns=["a", "b"])
    return _Broken().fit(X, X["a"]), X, X["a"].to_numpy()


@pytest.mark.parametrize("kind", ["permutation", "inspector"])
def test_saved_page_carries_the_message_not_the_traceback(kind, tmp_path):
    model, X, y = _broken_data()
    if kind == "permutation":
        widget = iw.PermutationImportanceWidget(model, X, y, n_repeats=2)
        widget.wait(30)
        views = [widget]
    else:
        widget = iw.ModelInspector(model, X, y, n_repeats=2, selected_features=["a"])
        widget.wait(30)
        views = list(widget.views.values())
    failed = [view for view in views if view.status == "error"]
    assert failed
    # The live widget keeps the traceback for its "details".
    assert all("Traceback" in view.error_details for view in failed)
    text = save_html(widget, tmp_path / "review.html").read_text()
    decoded = _state_of(text)
    errors = [s for s in _strings(decoded["state"]) if s.startswith("RuntimeError: ")]
    assert errors == [
        f"RuntimeError: could not read {Path('~') / 'secret' / 'model.bin'}"
    ] * len(failed)
    assert "Traceback" not in text and __file__ not in text
    for place in {str(Path.home()), os.getcwd(), str(tmp_path), sys.prefix}:
        assert place not in text, place
    widget.close()


def test_local_folders_become_placeholders():
    home, tmp = str(Path.home()), tempfile.gettempdir()
    text = without_local_paths(
        f"read {home}/a.csv, then {tmp}/b in {home}. Not {home}fs/c."
    )
    # A folder beside home is not home: it is another absolute path.
    assert text == "read ~/a.csv, then <tmp>/b in ~. Not <path>/c."


# Writing ------------------------------------------------------------------


@pytest.fixture
def widget():
    return _FakeWidget({"value": 1})


def _listing(folder):
    return sorted(p.name for p in folder.iterdir())


def test_writes_a_new_file_with_the_usual_permissions(widget, tmp_path):
    path = save_html(widget, str(tmp_path / "review.html"))
    assert path == tmp_path / "review.html"
    assert _listing(tmp_path) == ["review.html"]
    umask = os.umask(0)
    os.umask(umask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~umask


def test_overwrites_by_default_keeping_the_permissions(widget, tmp_path):
    path = tmp_path / "review.html"
    path.write_text("old")
    path.chmod(0o640)
    save_html(widget, path)
    assert "widget-state" in path.read_text()
    assert path.stat().st_mode & 0o777 == 0o640
    assert _listing(tmp_path) == ["review.html"]


def test_overwrite_false_refuses_an_existing_file(widget, tmp_path):
    path = tmp_path / "review.html"
    save_html(widget, path, overwrite=False)  # nothing there yet
    path.write_bytes(b"old")
    with pytest.raises(FileExistsError, match="overwrite=True"):
        save_html(widget, path, overwrite=False)
    assert path.read_bytes() == b"old"
    assert _listing(tmp_path) == ["review.html"]


def _fail_mid_write(monkeypatch):
    """The disk fills up after half the page is written."""
    real_fdopen = os.fdopen

    def fdopen(fd, mode):
        file = real_fdopen(fd, mode)
        real_write = file.write

        def write(data):
            real_write(data[: len(data) // 2])
            file.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        file.write = write
        return file

    monkeypatch.setattr(_file_writing.os, "fdopen", fdopen)


def _fail_encoding(monkeypatch):
    real = _standalone.standalone_html
    monkeypatch.setattr(
        _standalone, "standalone_html", lambda *a, **k: real(*a, **k) + "\ud800"
    )


def _fail_rename(monkeypatch):
    def replace(source, target):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(_file_writing.os, "replace", replace)


@pytest.mark.parametrize(
    ("fail", "error"),
    [
        (_fail_mid_write, OSError),
        (_fail_encoding, UnicodeEncodeError),
        (_fail_rename, PermissionError),
    ],
)
def test_a_failure_keeps_the_old_file_and_leaves_no_temporary(
    widget, tmp_path, monkeypatch, fail, error
):
    path = tmp_path / "review.html"
    old = b"<p>the review sent yesterday</p>"
    path.write_bytes(old)
    fail(monkeypatch)
    with pytest.raises(error) as raised:
        save_html(widget, path)
    assert path.read_bytes() == old
    assert _listing(tmp_path) == ["review.html"]
    if error is not UnicodeEncodeError:
        assert "file there is unchanged" in str(raised.value)
        assert str(path) in str(raised.value)


def test_a_failure_writes_nothing_where_nothing_was(widget, tmp_path, monkeypatch):
    _fail_mid_write(monkeypatch)
    with pytest.raises(OSError, match="nothing was written") as raised:
        save_html(widget, tmp_path / "review.html")
    assert raised.value.errno == errno.ENOSPC
    assert _listing(tmp_path) == []


def test_refuses_a_folder(widget, tmp_path):
    with pytest.raises(IsADirectoryError, match="folder"):
        save_html(widget, tmp_path)
    assert _listing(tmp_path) == []


@pytest.mark.parametrize("dangling", [False, True])
def test_refuses_a_symbolic_link_and_leaves_its_target(widget, tmp_path, dangling):
    target = tmp_path / "elsewhere.txt"
    if not dangling:
        target.write_bytes(b"someone else's file")
    link = tmp_path / "review.html"
    link.symlink_to(target)
    with pytest.raises(FileExistsError, match="symbolic link"):
        save_html(widget, link)
    assert link.is_symlink()
    assert target.exists() is not dangling
    if not dangling:
        assert target.read_bytes() == b"someone else's file"


def test_a_missing_folder_says_so(widget, tmp_path):
    with pytest.raises(FileNotFoundError, match="could not save the page"):
        save_html(widget, tmp_path / "nope" / "review.html")
