"""save_html against hostile targets (#49 item 11): it writes only regular
files (a FIFO and a device node were replaced by a file), keeps an existing
file's mode, owner, group and hard links, refuses a read-only file unless
told, refuses a path ending in a separator ("newdir/" wrote a file named
"newdir"), and writes a name at the file system's length limit (its
temporary name was 15 characters longer). Its page carries a
Content-Security-Policy allowing its own script and style only (item 13).
The writing itself (atomic, a failure keeping the earlier file):
tests/widgets/test_standalone.py."""

import base64
import errno
import hashlib
import os
import re
import stat

import pytest

from inspectwidgets.widgets import _file_writing
from inspectwidgets.widgets._standalone import save_html

OLD = b"<p>the review sent yesterday</p>"


class _Widget:
    """What save_html reads of a widget: its state, module and CSS."""

    _esm = "export default { render() {} };"
    _css = ".x { color: red; }"

    def get_state(self):
        return {"value": 1}


@pytest.fixture
def widget():
    return _Widget()


def _listing(folder):
    return sorted(p.name for p in folder.iterdir())


def _is_page(path):
    return b"widget-state" in path.read_bytes()


# Only regular files ---------------------------------------------------------


def test_refuses_a_fifo_and_leaves_it(widget, tmp_path):
    path = tmp_path / "review.html"
    os.mkfifo(path)
    with pytest.raises(FileExistsError, match="a FIFO"):
        save_html(widget, path)
    assert stat.S_ISFIFO(os.lstat(path).st_mode)
    assert _listing(tmp_path) == ["review.html"]


def test_refuses_a_device_node_and_leaves_it(widget, tmp_path):
    path = tmp_path / "null"
    try:  # /dev/null's numbers, made here: the real one is never risked
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("this user may not make device nodes")
    with pytest.raises(FileExistsError, match="a character device"):
        save_html(widget, path)
    assert stat.S_ISCHR(os.lstat(path).st_mode)


@pytest.mark.parametrize("tail", ["newdir/", "newdir//", "newdir/.", "newdir/.."])
def test_refuses_a_path_ending_in_a_separator(widget, tmp_path, tail):
    with pytest.raises(IsADirectoryError, match="names a folder"):
        save_html(widget, f"{tmp_path}/{tail}")
    assert _listing(tmp_path) == []


# Read-only files --------------------------------------------------------------


def test_refuses_a_read_only_file_unless_told(widget, tmp_path):
    path = tmp_path / "review.html"
    path.write_bytes(OLD)
    path.chmod(0o444)
    with pytest.raises(PermissionError, match="overwrite_read_only=True"):
        save_html(widget, path)
    assert path.read_bytes() == OLD
    save_html(widget, path, overwrite_read_only=True)
    assert _is_page(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o444  # still read-only
    assert _listing(tmp_path) == ["review.html"]


# What the earlier file was ----------------------------------------------------


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o604, 0o755])
def test_keeps_the_files_mode(widget, tmp_path, mode):
    path = tmp_path / "review.html"
    path.write_bytes(OLD)
    path.chmod(mode)
    save_html(widget, path)
    assert _is_page(path)
    assert stat.S_IMODE(path.stat().st_mode) == mode


ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


@pytest.mark.skipif(not ROOT, reason="giving a file to another user needs root")
def test_keeps_the_files_owner_and_group(widget, tmp_path):
    path = tmp_path / "review.html"
    path.write_bytes(OLD)
    os.chown(path, 4242, 4343)
    save_html(widget, path)
    assert _is_page(path)
    assert (path.stat().st_uid, path.stat().st_gid) == (4242, 4343)


@pytest.mark.skipif(not ROOT, reason="giving a file to another user needs root")
def test_an_owner_that_cannot_be_kept_is_written_in_place(
    widget, tmp_path, monkeypatch
):
    # Another user's file this user may write (a user may not give a file
    # away): a new file would be this user's, so the file itself is written,
    # its inode, owner and group kept.
    path = tmp_path / "review.html"
    path.write_bytes(OLD * 100)
    os.chown(path, 4242, 4343)
    before = os.stat(path)

    def fchown(fd, uid, gid):
        raise PermissionError(errno.EPERM, os.strerror(errno.EPERM))

    monkeypatch.setattr(_file_writing.os, "fchown", fchown)
    save_html(widget, path)
    after = os.stat(path)
    assert _is_page(path)
    assert not path.read_bytes().endswith(OLD)  # the longer old page cut
    assert (after.st_ino, after.st_uid, after.st_gid) == (before.st_ino, 4242, 4343)
    assert _listing(tmp_path) == ["review.html"]


def test_keeps_a_hard_link_whole(widget, tmp_path):
    path = tmp_path / "review.html"
    path.write_bytes(OLD * 100)
    other = tmp_path / "published.html"
    os.link(path, other)
    save_html(widget, path)
    assert _is_page(path) and _is_page(other)  # one file, both names
    assert os.stat(path).st_ino == os.stat(other).st_ino
    assert path.read_bytes() == other.read_bytes()
    assert _listing(tmp_path) == ["published.html", "review.html"]


def test_a_full_disk_leaves_a_hard_linked_file_as_it_was(widget, tmp_path, monkeypatch):
    path = tmp_path / "review.html"
    path.write_bytes(OLD)
    os.link(path, tmp_path / "published.html")
    real_fdopen = os.fdopen

    def fdopen(fd, mode):  # the temporary file: the disk fills up
        file = real_fdopen(fd, mode)

        def write(data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        file.write = write
        return file

    monkeypatch.setattr(_file_writing.os, "fdopen", fdopen)
    with pytest.raises(OSError, match="file there is unchanged"):
        save_html(widget, path)
    assert path.read_bytes() == OLD
    assert _listing(tmp_path) == ["published.html", "review.html"]


# Long names -------------------------------------------------------------------


def test_a_name_at_the_length_limit_is_written(widget, tmp_path, monkeypatch):
    limit = os.pathconf(tmp_path, "PC_NAME_MAX")
    path = tmp_path / ("r" * (limit - 5) + ".html")
    made = []
    real_open = os.open

    def recording_open(file, flags, *args):
        made.append(os.path.basename(file))
        return real_open(file, flags, *args)

    monkeypatch.setattr(_file_writing.os, "open", recording_open)
    save_html(widget, path)
    assert _is_page(path)
    assert made and all(len(name) <= len(path.name) for name in made)
    # A multi-byte name at the limit in bytes.
    path = tmp_path / ("é" * ((limit - 5) // 2) + ".html")
    save_html(widget, path)
    assert _is_page(path)


# The page's Content-Security-Policy (item 13; in Chromium:
# tests/browser/test_saved_page_policy.py) ----------------------------------

POLICY = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">')


def _inline(page, tag, opening):
    """The text of the page's one `tag` element opened by `opening`, as an
    HTML parser reads it (line ends as LF)."""
    start = page.index(opening) + len(opening)
    return page[start : page.index(f"</{tag}>", start)]


def _hash(text):
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


@pytest.mark.parametrize("css", [".x { color: red; }", ".a {}\r\n.b {}\r.c {}"])
def test_the_policy_allows_the_pages_own_script_and_style_only(tmp_path, css):
    widget = _Widget()
    widget._css = css  # line ends as the parser reads them, or the hash fails
    page = save_html(widget, tmp_path / "review.html").read_bytes().decode("utf-8")
    (policy,) = POLICY.findall(page)
    page = page.replace("\r\n", "\n").replace("\r", "\n")
    directives = dict(d.split(" ", 1) for d in policy.split("; "))
    loader = _inline(page, "script", '<script type="module">')
    assert directives == {
        "default-src": "'none'",
        "script-src": f"{_hash(loader)} blob:",
        "style-src": _hash(_inline(page, "style", "<style>")),
        "base-uri": "'none'",
        "form-action": "'none'",
    }
    # Before everything it governs.
    assert page.index("Content-Security-Policy") < page.index("<style>")
