"""What a saved page keeps of a widget's state (`save_html`, and the
documentation gallery's pages): a page is meant to be sent, so it holds what
its charts draw and nothing of the author's machine (#49).

- No traceback (`error_details`, at any depth: ModelInspector holds its
  views' states inside its own); each error's message is kept.
- No local path, user or host name in any text, whatever its key (a note, a
  feature name, a category, a dict's key alike, so that a name and its
  references stay the same string): the home, working, temporary and Python
  folders become ``~``, ``<cwd>``, ``<tmp>``, ``<python>``; any other
  absolute path, POSIX or Windows, ``<path>`` before its last name; the
  login and host names ``<user>`` and ``<host>``.
- Nothing the page cannot show: the cohort form's suggestions (values of the
  text columns) and the cohorts as written (the header shows their rules,
  without an ID's values: `rule_naming_only`) are hidden without a kernel,
  so they are left out.
- With ``category_labels=False``, no category either: each category label
  is written ``category 1``, ``category 2``..., one number per label across
  the page, in the rules too (a cohort's, an ICE cluster's, a conditional
  importance's subgroups, a split by a rule): ``plan == 'category 2'``.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import re
import socket
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..inspection._core import replace_text_values

# Synced traits that stay on the author's machine: the traceback (with its
# absolute paths and user name) behind the live widget's "details".
_NOT_SHARED = ("error_details",)

# Synced traits a page without a kernel never shows: the cohort form (and its
# suggestions, values of every text column) is hidden there; so are the
# cohorts' rules as written (the header shows them, `rule_naming_only`).
_NOT_SHOWN = ("_cohort_fields", "cohorts")

# Keys whose list holds category labels (a PD grid's, a distribution's, a
# split's subgroups); an overview panel's "x" when it is categorical.
_CATEGORY_KEYS = ("grid_labels", "grid_y_labels", "labels")

# Keys whose text is a rule, its text values categories: a cohort's and an
# ICE cluster's "rule", a split by a rule; and "subgroups", a conditional
# importance's {feature: [[rule, size], ...]}.
_RULE_KEYS = ("rule", "split_by")
_SUBGROUPS_KEY = "subgroups"

# Account names that identify nobody, and are words of their own ("root" in
# "root depth"): replaced only where text says it is a user (``user=root``).
_GENERIC_ACCOUNTS = ("root", "user", "admin", "jovyan", "ubuntu", "runner")

# An absolute path of two names or more: "/srv/alice/x.csv", "C:\\Users\\a",
# "\\\\server\\share\\x". Not "/" nor "/srv" alone (a unit, "km/h"), not a
# URL's path ("https://host/a/b": the character before its "/" is a letter),
# not a path already made relative ("~/a/b", "<tmp>/a/b").
_NAME = r"[\w.@+$%-]+"
_POSIX_PATH = re.compile(rf"(?<![\w.~:/\\<>-])(/(?:{_NAME}/)+)({_NAME})?")
_WINDOWS_PATH = re.compile(
    rf"(?<![\w\\])((?:[A-Za-z]:|\\\\{_NAME})[\\/](?:{_NAME}[\\/])*)({_NAME})?"
)
_ACCOUNT_SETTING = re.compile(
    r"\b(user(?:name)?|login|uid|owner|host(?:name)?)=([^\s,;&'\"]+)",
    re.IGNORECASE,
)


# Where a message may name the author's machine, longest first; each becomes
# a placeholder (the first named wins where two are one folder). "/" and other
# one-character paths are not worth replacing.
def _local_prefixes():
    places = {
        str(Path.home()): "~",
        tempfile.gettempdir(): "<tmp>",
        sys.prefix: "<python>",
        sys.base_prefix: "<python>",
    }
    with contextlib.suppress(OSError):  # a working folder deleted meanwhile
        places[os.getcwd()] = "<cwd>"
    found = {}
    for place, placeholder in places.items():
        for spelling in {place, os.path.realpath(place)}:
            if len(spelling) > 1:
                found.setdefault(spelling.rstrip(os.sep), placeholder)
    return sorted(found.items(), key=lambda item: -len(item[0]))


@lru_cache(maxsize=1)
def _machine_names():
    """This machine's login and host names, as whole words, with their
    placeholders; a generic account name is left to `_ACCOUNT_SETTING`."""
    names = []
    with contextlib.suppress(Exception):  # no login name (a container's uid)
        user = getpass.getuser()
        if len(user) > 1 and user.lower() not in _GENERIC_ACCOUNTS:
            names.append((user, "<user>"))
    host = socket.gethostname()
    for spelling in {host, host.split(".", 1)[0]}:
        if len(spelling) > 1:
            names.append((spelling, "<host>"))
    return [
        (re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])"), placeholder)
        for name, placeholder in sorted(names, key=lambda item: -len(item[0]))
    ]


def without_local_paths(text: str) -> str:
    """`text` with nothing of this machine: its known folders as ``~``,
    ``<cwd>``, ``<tmp>``, ``<python>``; any other absolute path as
    ``<path>`` before its last name; the login and host names as
    ``<user>`` and ``<host>`` (a generic one, such as ``root``, where
    text says it is one: ``user=root``)."""
    if "/" not in text and "\\" not in text and "=" not in text:
        return _without_machine_names(text)
    for place, placeholder in _local_prefixes():
        # The whole folder name only: "/home/al" is not replaced in "/home/alice".
        pattern = re.escape(place) + r"(?![\w-])"
        text = re.sub(pattern, placeholder, text)  # placeholders hold no "\\"
    text = _WINDOWS_PATH.sub(lambda m: "<path>" + m.group(1)[-1] + (m[2] or ""), text)
    text = _POSIX_PATH.sub(lambda m: "<path>/" + (m[2] or ""), text)
    text = _ACCOUNT_SETTING.sub(
        lambda m: f"{m[1]}=<host>" if "host" in m[1].lower() else f"{m[1]}=<user>",
        text,
    )
    return _without_machine_names(text)


def _without_machine_names(text):
    for pattern, placeholder in _machine_names():
        text = pattern.sub(placeholder, text)
    return text


def shareable_state(node: Any, *, category_labels: bool = True) -> Any:
    """A copy of widget state `node` fit to send (see the module's
    docstring): no `_NOT_SHARED` value at any depth nor `_NOT_SHOWN` trait
    (of `node`'s own), no local path, user
    or host name in any string at any depth, and with `category_labels`
    False no category label."""
    labels: dict[str, str] | None = None if category_labels else {}
    if isinstance(node, dict):  # a widget's traits; the header's "cohorts" stay
        node = {
            key: type(value)() if key in _NOT_SHOWN else value
            for key, value in node.items()
        }
    return _shared(node, labels)


def _shared(node, labels):
    if isinstance(node, str):
        return without_local_paths(node)
    if isinstance(node, list | tuple):
        return [_shared(value, labels) for value in node]
    if not isinstance(node, dict):
        return node
    shared = {}
    for key, value in node.items():
        if key in _NOT_SHARED and isinstance(value, str):
            value = ""
        elif labels is not None and _holds_categories(node, key, value):
            value = [_category(label, labels) for label in value]
        elif labels is not None and key in _RULE_KEYS and isinstance(value, str):
            value = _rule_without_labels(value, labels)
        elif labels is not None and key == _SUBGROUPS_KEY and isinstance(value, dict):
            value = {
                feature: [
                    [_rule_without_labels(group[0], labels), *group[1:]]
                    if isinstance(group, list) and group and isinstance(group[0], str)
                    else group
                    for group in groups
                ]
                if isinstance(groups, list)
                else groups
                for feature, groups in value.items()
            }
        name = without_local_paths(key) if isinstance(key, str) else key
        shared[name] = _shared(value, labels)
    return shared


def _holds_categories(node, key, value):
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return False
    return key in _CATEGORY_KEYS or (key == "x" and node.get("categorical") is True)


def _category(label, labels):
    """`label`'s stand-in, the same for the same label across the page."""
    return labels.setdefault(label, f"category {len(labels) + 1}")


def _rule_without_labels(rule, labels):
    """`rule` with each text value (a category) its stand-in, quoted as the
    rule language quotes a text: ``plan == 'category 2'``."""
    return replace_text_values(rule, lambda label: repr(_category(label, labels)))
