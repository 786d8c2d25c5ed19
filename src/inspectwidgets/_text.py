"""Text from the data (column names, categories, class and model names) on its
way to a reader: a matplotlib figure, or the front end's JSON. Text stays
text: never mathtext, never a character the page cannot hold, never two
names drawn alike.

Three helpers, one notation: a character a reader could not see, or that no
UTF-8 page can hold, is written as Python's ``repr`` writes it (``\\u200d``,
``\\udce9``, ``\\xa0``), as the error messages do (`quoted` in the engine).

- `visible`: a name as a label shows it, where two names could be confused.
- `mpl_text`: any text for matplotlib (a sentence holding names): every
  ``$`` escaped so that mathtext never reads it, and what it cannot draw
  escaped; `mpl_name`: one name alone as a label, `visible` as well.
- `isolate`: a name inside a sentence composed here for the page.
- `sendable`: a synced trait's value for the comm, lone surrogates escaped
  and what each escape stood for kept, so a name clicked on the page is the
  original name again in Python (`restore`).

The engine never uses this module: it keeps the data's own strings.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")
# A space at either end: drawn as nothing. U+2423 OPEN BOX is the usual mark.
_EDGE_SPACES = re.compile(r"^ +| +$")
OPEN_BOX = "\u2423"
# A name longer than this is cut, with "…", wherever it is drawn: a 1 MB name
# made a figure (and a page) millions of pixels wide. The front end cuts at
# the same length (MAX_NAME_CHARS in js/src/charts/format.js), and shows the
# whole name on hover.
MAX_NAME_CHARS = 40
# A line of text for a figure (a title, a note holding names) is cut too.
MAX_LINE_CHARS = 120
ELLIPSIS = "\u2026"
# Scripts whose letters look like Latin ones ("а" is CYRILLIC SMALL LETTER A).
# Not Greek: μ, σ and α sit beside Latin letters in many honest names.
_LOOKALIKE_SCRIPTS = ("CYRILLIC",)


def _escape(char: str) -> str:
    """`char` as repr writes it, without the quotes; a printable one (a
    Cyrillic letter), which repr leaves alone, as ``\\u0430`` all the same."""
    text = repr(char)[1:-1]
    return text if text != char else f"\\u{ord(char):04x}"


def _script(char: str) -> str:
    """The first word of a letter's Unicode name ("LATIN", "CYRILLIC")."""
    return unicodedata.name(char, "").split(" ", 1)[0] if char.isalpha() else ""


def visible(name: Any) -> str:
    """`name` as a label draws it so that two names never look alike.

    Each character Python's ``repr`` escapes (zero-width and other format
    characters, bidi controls, NUL, lone surrogates, non-breaking and other
    spaces but the plain one) is written as repr writes it (``\\u200d``);
    a space at the start or end is drawn as ``␣``; in a name that holds
    Latin letters, each Cyrillic letter (``а``, U+0430, beside
    ``a``) is escaped the same way. Anything else is unchanged, so a plain
    name is drawn as itself; a name longer than `MAX_NAME_CHARS` is cut,
    ending with "…".

    >>> visible("age ")
    'age␣'
    >>> visible("\\u0430ge")
    '\\\\u0430ge'
    >>> visible("x\\u200dy")
    'x\\\\u200dy'
    """
    text = str(name)
    if text.isprintable() and not _EDGE_SPACES.search(text) and text.isascii():
        return cut(text, MAX_NAME_CHARS)
    scripts = {_script(c) for c in text}
    mixed = "LATIN" in scripts and any(s in scripts for s in _LOOKALIKE_SCRIPTS)
    out = []
    for char in text:
        if not char.isprintable() or (mixed and _script(char) in _LOOKALIKE_SCRIPTS):
            out.append(_escape(char))
        else:
            out.append(char)
    shown = "".join(out)
    shown = _EDGE_SPACES.sub(lambda match: OPEN_BOX * len(match.group()), shown)
    return cut(shown, MAX_NAME_CHARS)


def cut(text: str, limit: int) -> str:
    """`text`, or its first ``limit - 1`` characters and "…" when longer."""
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def mpl_text(text: Any) -> str:
    """`text` for a matplotlib Text (a title, axis label, legend entry or
    annotation, a sentence that may hold names): every ``$`` written ``\\$``,
    and each character matplotlib cannot draw or draws as nothing (a lone
    surrogate, NUL, U+200D) as repr writes it; line ends are kept.

    Two ``$`` in a name ("cost ($) per unit ($)") made matplotlib parse the
    text as mathtext: drawn as math (``$x^{2}$``), or raising on an unknown
    macro (``$\\undefinedmacro$``) when the figure is drawn. Escaped, each
    is drawn as a ``$``. Escaping rather than ``parse_math=False`` on the
    Text: tick labels are made when the figure is drawn, maybe later, with
    the settings in force then. (Where a user turned ``text.parse_math``
    off, the escape shows as ``\\$``.)
    A line longer than `MAX_LINE_CHARS` is cut, ending
    with "…": a 1 MB name in a title made the figure millions of pixels
    wide.
    """
    text = str(text)
    if not text.isprintable() or len(text) > MAX_LINE_CHARS:
        text = "\n".join(
            cut(
                "".join(c if c.isprintable() else _escape(c) for c in line),
                MAX_LINE_CHARS,
            )
            for line in text.split("\n")
        )
    return text.replace("$", r"\$")


def mpl_name(name: Any) -> str:
    """One name alone as a matplotlib label (a tick, a legend entry, an axis
    label): `visible`, then `mpl_text`."""
    return mpl_text(visible(name))


def isolate(name: Any) -> str:
    """`name` set apart for the bidirectional algorithm inside a sentence
    the page shows (U+2068 FIRST STRONG ISOLATE ... U+2069 POP DIRECTIONAL
    ISOLATE), as ``isolate`` in js/src/charts/format.js does for the
    sentences composed there: a right-to-left override in the name ends
    with it and cannot reverse the rest ("class \u2068...\u2069, change
    from the first grid value"). For the page only: matplotlib draws these
    characters as boxes. A name longer than `MAX_NAME_CHARS` is cut, as
    ``visibleName`` cuts it there (its other characters are left to the
    page, which shows them)."""
    return f"\u2068{cut(str(name), MAX_NAME_CHARS)}\u2069"


def sendable(value: Any, sent_as: dict[str, str]) -> Any:
    """`value` (a synced trait's JSON value) with each lone surrogate in its
    strings written ``\\udce9``, at any depth; each string changed is
    recorded in `sent_as` (what was sent: the original).

    No UTF-8 message holds a lone surrogate (a name decoded with
    ``os.fsdecode``): sending one raised ``UnicodeEncodeError`` in the
    kernel, and one from ``surrogateescape`` reached the page as an invalid
    byte, drawn as U+FFFD and sent back as a name the kernel never had.
    """
    if isinstance(value, str):
        if not _SURROGATE.search(value):
            return value
        shown = _SURROGATE.sub(lambda match: _escape(match.group()), value)
        sent_as[shown] = value
        return shown
    if isinstance(value, dict):
        return {
            sendable(key, sent_as): sendable(item, sent_as)
            for key, item in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [sendable(item, sent_as) for item in value]
    return value


def restore(value: Any, sent_as: dict[str, str]) -> Any:
    """`value` from the front end with each string `sendable` changed given
    back as the original, at any depth."""
    if not sent_as:
        return value
    if isinstance(value, str):
        return sent_as.get(value, value)
    if isinstance(value, dict):
        return {
            restore(key, sent_as): restore(item, sent_as) for key, item in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [restore(item, sent_as) for item in value]
    return value
