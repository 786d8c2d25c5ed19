"""A file written whole or not at all, and only over a regular file: where
`save_html` puts its page (#49 item 11).

`check_target` refuses, before anything is encoded or written, what a page
must not replace: a path ending in a separator ("newdir/" wrote a file named
"newdir"), a folder, a symbolic link, anything but a regular file (a FIFO or
a device node was replaced by a file), an existing file unless `overwrite`,
and a read-only one unless `overwrite_read_only`.

`write_whole` writes the bytes to a temporary file in the same folder, then
renames it over the path (``os.replace``, atomic): a reader, or a failure
mid-write, never sees half a page, and a failure keeps the earlier file. The
rename makes a new file (a new inode): the earlier file's mode is copied to
it, and its owner and group (as root, or where they are the writer's own).
Where the new inode would change what someone else sees, the file is written
in place instead, keeping its inode:

- the file has other hard links: a rename would leave them holding the
  earlier page (the link "split");
- its owner or group cannot be given to a new file (another user's file this
  user may write): a rename would make the file this user's.

There the write is not atomic (a reader may see part of the new page), which
is the lesser harm: the bytes are first written to a temporary file, which
proves the disk holds them and, removed just before, frees the room the
in-place write needs, so a full disk still fails before the file is touched.
Extended attributes and ACLs are not copied to a new file.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

# Temporary names: "." + "iw" + hex, as long as the target's name once that
# is 12 bytes or more, so a name at the file system's limit (255 bytes on
# most) has a temporary name within it; never less than 12 (".iw" and 36
# random bits, retried if taken).
_SHORTEST_TEMPORARY, _LONGEST_TEMPORARY = 12, 24
_ATTEMPTS = 8

_FILE_KINDS = {
    stat.S_ISFIFO: "a FIFO (named pipe)",
    stat.S_ISCHR: "a character device",
    stat.S_ISBLK: "a block device",
    stat.S_ISSOCK: "a socket",
}


def check_target(path, *, overwrite, overwrite_read_only):
    """`path` as a Path, if a page may be written there; else the error
    saying why (nothing is touched)."""
    text = os.fsdecode(os.fspath(path))
    if os.path.basename(text) in ("", ".", ".."):
        # pathlib drops a trailing separator: "newdir/" became "newdir".
        raise IsADirectoryError(
            f"{text!r} ends in a separator (or . or ..): it names a folder; "
            "pass the path of a file."
        )
    path = Path(text)
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return path  # a missing folder is said by the write
    except NotADirectoryError as exc:
        raise _save_error(path, exc) from exc
    if stat.S_ISLNK(found.st_mode):
        raise FileExistsError(
            f"{path} is a symbolic link (to {os.readlink(path)}); save_html "
            "neither writes through a link nor replaces it. Pass the target's "
            "path, or remove the link first."
        )
    if stat.S_ISDIR(found.st_mode):
        raise IsADirectoryError(f"{path} is a folder; pass the path of a file.")
    if not stat.S_ISREG(found.st_mode):
        kind = next((k for test, k in _FILE_KINDS.items() if test(found.st_mode)), None)
        raise FileExistsError(
            f"{path} is {kind or 'not a regular file'}; save_html writes regular "
            "files only and never replaces anything else. Pass another path."
        )
    if not overwrite:
        raise FileExistsError(
            f"{path} exists; pass overwrite=True to replace it, or another path."
        )
    if _read_only(path, found) and not overwrite_read_only:
        raise PermissionError(
            f"{path} is read-only; pass overwrite_read_only=True to replace it "
            "(its mode is kept, so it stays read-only), or another path."
        )
    return path


def _read_only(path, found):
    """Whether `path` is protected from writing: this user may not write it,
    or no one may (no w bit), which root would otherwise write over."""
    return not os.access(path, os.W_OK) or not found.st_mode & 0o222


def write_whole(path, data, *, overwrite):
    """Write bytes `data` to `path` (checked by `check_target`) whole or not
    at all: see the module's docstring. On any failure the temporary file is
    removed and `path` is left as it was."""
    temporary, fd = _temporary_file(path)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
            in_place = overwrite and not _take_over(path, temporary, file.fileno())
        if in_place:
            os.unlink(temporary)  # its room is the in-place write's
            _write_in_place(path, data)
        elif overwrite:
            os.replace(temporary, path)
        else:
            _create(temporary, path)
    except FileExistsError as exc:
        raise FileExistsError(
            f"{path} exists; pass overwrite=True to replace it, or another path."
        ) from exc
    except OSError as exc:
        raise _save_error(path, exc) from exc
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)


def _temporary_file(path):
    """A new file beside `path`, its name no longer than `path`'s (see
    _SHORTEST_TEMPORARY), and its descriptor; 0o666 less the umask, as a
    file ``open`` creates."""
    size = len(os.fsencode(path.name))
    size = min(max(size, _SHORTEST_TEMPORARY), _LONGEST_TEMPORARY)
    for attempt in range(_ATTEMPTS):
        temporary = path.with_name((".iw" + secrets.token_hex(12))[:size])
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
            return temporary, os.open(temporary, flags, 0o666)
        except FileExistsError:
            if attempt == _ATTEMPTS - 1:
                raise
        except OSError as exc:
            raise _save_error(path, exc) from exc
    raise AssertionError("unreachable")  # pragma: no cover


def _take_over(path, temporary, fd):
    """Give the new file (`temporary`, open as `fd`) the mode, owner and
    group of the file at `path`, if any; False where a rename would change
    what others see (the file has other hard links, or its owner cannot be
    kept): it is then written in place."""
    try:
        earlier = os.lstat(path)
    except FileNotFoundError:
        return True
    if earlier.st_nlink > 1:
        return False
    ours = os.fstat(fd)
    owner = (earlier.st_uid, earlier.st_gid)
    if hasattr(os, "fchown") and owner != (ours.st_uid, ours.st_gid):
        try:
            os.fchown(fd, *owner)  # root may; a user, to a group of theirs
        except PermissionError:
            return False
    os.chmod(temporary, stat.S_IMODE(earlier.st_mode))
    return True


def _write_in_place(path, data):
    """`data` over the file at `path` itself (its inode kept), which must
    still be the regular file checked: never followed through a link, never
    a FIFO opened (it would block)."""
    flags = os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "wb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileExistsError(path)
        file.write(data)
        file.truncate(len(data))
        file.flush()
        os.fsync(fd)


def _create(temporary, path):
    """Rename `temporary` to `path` unless a file is there: a hard link
    fails if `path` exists, even one created meanwhile."""
    try:
        os.link(temporary, path)
    except FileExistsError:
        raise
    except OSError:  # a folder without hard links (FAT, some network shares)
        if os.path.lexists(path):
            raise FileExistsError(path) from None
        os.replace(temporary, path)


def _save_error(path, exc):
    """An OSError of `exc`'s kind (OSError picks the subclass from the
    errno) saying what failed and what is left."""
    before = "the file there is unchanged" if path.exists() else "nothing was written"
    message = (
        f"could not save the page to {path} ({exc.strerror or exc}); {before} "
        "and no temporary file is left"
    )
    return OSError(exc.errno, message) if exc.errno else OSError(message)
