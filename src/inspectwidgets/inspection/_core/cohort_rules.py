"""The cohort rule language, parsed without ``eval``: a rule's text into a
small tree of conditions on named columns (evaluated over X in cohorts.py).

Grammar (keywords in any case)::

    rule      := "all rows" | either
    either    := both ("or" both)*
    both      := factor ("and" factor)*
    factor    := "(" either ")" | condition
    condition := name op value
               | value lower name lower value     (lower: "<" or "<=", or both ">"/">=")
               | name ["not"] "in" list
               | name "is" ["not"] "missing"
    op        := "<" | "<=" | ">" | ">=" | "==" | "=" | "!="
    list      := "[" values "]" | "{" values "}" | "(" values ")"
    value     := number | 'text' | "text" | True | False

A name is a column's name as written (the longest column name that the text
starts with, so names with spaces need no quotes) or quoted in backticks, a
backtick inside written twice (```a``b``` is the column "a`b"): inside the
backticks nothing else is special, so any name (quotes, ``$``, backslashes,
line ends) is written exactly. `rule_name` writes a name so that it reads
back as that column and no other; tree_rules.py and the inspector's form
(``ruleName`` in js/src/inspector/cohort_data.js, the same rule) write names
with it, so a column named ``score` > 0 or `score`` cannot inject a
condition (#49 item 7). This is exactly what tree_rules.py writes of a
tree's leaf ("0.5 < age <= 30 and plan = 'pro'", "(tenure <= 14 or tenure
is missing)", "plan not in {'a', 'b'}", "all rows"), so a cluster's rule can
be made a cohort as it reads.

A rule is at most `MAX_RULE_LENGTH` characters, `MAX_CONDITIONS` conditions
and `MAX_DEPTH` parentheses deep, and every way it can be wrong is a
ValueError naming what was found and what was expected (#49 item 8: 400
parentheses raised RecursionError, a bad escape SyntaxError, and a 20 MB rule
ran for minutes).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from .validation import quoted, quoted_names

COMPARISONS = ("<=", ">=", "==", "!=", "<", ">", "=")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?inf\b", re.I)
_STRING = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_WORD = re.compile(r"[^\s()\[\]{},<>=!]+")
_CLOSING = {"[": "]", "{": "}", "(": ")"}
# A name the form and the trees may leave unquoted: it cannot be read as
# anything but a column (rule_name also checks no other column goes on).
_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_NAME_CHARACTER = re.compile(r"[A-Za-z0-9_.]")

MAX_RULE_LENGTH = 1_000_000
"""The longest rule read, in characters: room for any column's name (a
100,000-character one included) and long ``in`` lists; read in about half a
second. 20 MB of rule ran for minutes."""

MAX_CONDITIONS = 1_000
"""The most conditions a rule holds (an ``in`` list is one): each costs a
pass over X's rows, the cost a 20 MB rule of short conditions made endless."""

MAX_DEPTH = 32
"""The deepest nesting of parentheses read (each level is a few frames of
Python's stack: 400 levels raised RecursionError)."""


@dataclass(frozen=True)
class Condition:
    """One test of a column: `op` one of COMPARISONS ("=" read as "=="),
    "in", "not in", "is missing", "is not missing"; `value` a number, a
    text, a bool, or a tuple of them for "in"."""

    name: str
    op: str
    value: object = None


@dataclass(frozen=True)
class Either:
    """Rows meeting any of `parts` (an "or")."""

    parts: tuple


@dataclass(frozen=True)
class Both:
    """Rows meeting every one of `parts` (an "and")."""

    parts: tuple


EVERY_ROW = Both(())


def rule_name(name, names):
    """Column `name` as a rule writes it: as is when it is a plain word
    (letters, digits, ``_`` and ``.``, not starting with a digit) that no
    other column of `names` goes on from ("age" beside "age > 3 or x" is
    not), else in backticks with each backtick doubled, which reads back as
    exactly `name` whatever it holds.

    >>> rule_name("age", ["age", "age_group"])
    'age'
    >>> rule_name("score` > 0 or `score", ["score"])
    '`score`` > 0 or ``score`'
    """
    if _PLAIN_NAME.fullmatch(name) and not any(
        other != name
        and other.startswith(name)
        and not _NAME_CHARACTER.match(other, len(name))
        for other in names
    ):
        return name
    return "`" + name.replace("`", "``") + "`"


def parse_rule(rule, names):
    """The tree (Condition, Both, Either) of `rule`, over columns `names`;
    a ValueError naming the token that is wrong and what was expected."""
    if not isinstance(rule, str):
        raise TypeError(f'cohort rule: a str like "age < 30"; got {quoted(rule)}.')
    if len(rule) > MAX_RULE_LENGTH:
        raise ValueError(
            f"cohort rule {quoted(rule)}: {len(rule):,} characters; a rule "
            f"holds at most {MAX_RULE_LENGTH:,}. Split it into several cohorts, "
            "or test a column of its own."
        )
    return _Parser(rule, list(names)).parse()


class _Parser:
    def __init__(self, text, names):
        self.text, self.names, self.pos = text, names, 0
        self.depth = self.conditions = 0
        # Longest first: "plan type" is read before "plan".
        self.by_length = sorted(names, key=len, reverse=True)

    # Reading ---------------------------------------------------------------

    def parse(self):
        if self.text.strip().lower() == "all rows":
            return EVERY_ROW
        self._skip()
        if self._at_end():
            self._fail("an empty rule", 'a condition such as "age < 30"')
        tree = self._either()
        if not self._at_end():
            self._fail(self._token(), '"and", "or" or the end of the rule')
        return tree

    def _either(self):
        parts = [self._both()]
        while self._keyword("or"):
            parts.append(self._both())
        return parts[0] if len(parts) == 1 else Either(tuple(parts))

    def _both(self):
        parts = [self._factor()]
        while self._keyword("and"):
            parts.append(self._factor())
        return parts[0] if len(parts) == 1 else Both(tuple(parts))

    def _factor(self):
        if self._symbol("("):
            if self.depth == MAX_DEPTH:
                self._fail("(", f"at most {MAX_DEPTH} parentheses one inside another")
            self.depth += 1
            tree = self._either()
            if not self._symbol(")"):
                self._fail(self._token(), '")" closing the "("')
            self.depth -= 1
            return tree
        return self._condition()

    def _condition(self):
        self.conditions += 1
        if self.conditions > MAX_CONDITIONS:
            self._fail(self._token(), f"at most {MAX_CONDITIONS:,} conditions")
        name = self._name(required=False)
        if name is None:  # a value first: "0.5 < age <= 30"
            return self._between()
        if self._keyword("is"):
            negated = self._keyword("not")
            if not self._keyword("missing"):
                self._fail(self._token(), '"missing" after "is"')
            return Condition(name, "is not missing" if negated else "is missing")
        start = self.pos
        if self._keyword("not"):
            if not self._keyword("in"):
                self._fail(self._token(), '"in" after "not"')
            return Condition(name, "not in", self._list())
        if self._keyword("in"):
            return Condition(name, "in", self._list())
        self.pos = start
        op = self._comparison()
        return Condition(name, op, self._value())

    def _between(self):
        low = self._value()
        first = self._comparison()
        name = self._name(required=True)
        second = self._comparison()
        high = self._value()
        up, down = {"<", "<="}, {">", ">="}
        if not ({first, second} <= up or {first, second} <= down):
            self._fail(second, "the same direction as " + repr(first))
        flipped = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
        return Both(
            (Condition(name, flipped[first], low), Condition(name, second, high))
        )

    def _name(self, required):
        self._skip()
        if self.text.startswith("`", self.pos):
            name, end = self._backticked()
            if name not in self.names:
                self._unknown(name)
            self.pos = end
            return name
        for name in self.by_length:
            if name and self.text.startswith(name, self.pos):
                after = self.text[self.pos + len(name) : self.pos + len(name) + 1]
                if not after or not (after.isalnum() or after in "_."):
                    self.pos += len(name)
                    return name
        if _NUMBER.match(self.text, self.pos) or _STRING.match(self.text, self.pos):
            if required:
                self._fail(
                    self._token(), f"a column of X, one of {quoted_names(self.names)}"
                )
            return None
        word = self._token()
        if not word:
            self._fail(word, "a column of X")
        if word.lower() in ("true", "false") and not required:
            return None
        self._unknown(word)

    def _backticked(self):
        """The name in backticks at the cursor (a doubled backtick is one
        of the name's) and where its closing backtick ends."""
        parts, start = [], self.pos + 1
        while True:
            end = self.text.find("`", start)
            if end < 0:
                self._fail("`", "a closing backtick")
            parts.append(self.text[start:end])
            if not self.text.startswith("``", end):
                return "`".join(parts), end + 1
            start = end + 2

    def _comparison(self):
        self._skip()
        for op in COMPARISONS:
            if self.text.startswith(op, self.pos):
                self.pos += len(op)
                return "==" if op == "=" else op
        self._fail(
            self._token(),
            f'a comparison ({", ".join(COMPARISONS)}), "in" or "is missing"',
        )

    def _list(self):
        self._skip()
        opening = self.text[self.pos : self.pos + 1]
        if opening not in _CLOSING:
            self._fail(self._token(), "a list of values such as ['a', 'b']")
        self.pos += 1
        values = []
        while not self._symbol(_CLOSING[opening]):
            if values and not self._symbol(","):
                self._fail(self._token(), f'"," or "{_CLOSING[opening]}"')
            if self._symbol(_CLOSING[opening]):  # a trailing comma
                break
            values.append(self._value())
        if not values:
            self._fail(opening + _CLOSING[opening], "at least one value in the list")
        return tuple(values)

    def _value(self):
        self._skip()
        string = _STRING.match(self.text, self.pos)
        if string:
            try:
                value = ast.literal_eval(string.group())  # a literal only
            except (SyntaxError, ValueError) as error:  # "\\N", "\\x1"
                reason = getattr(error, "msg", str(error))
                self._fail(string.group(), f"a text with valid escapes: {reason}")
            self.pos = string.end()
            return value
        number = _NUMBER.match(self.text, self.pos)
        if number:
            text = number.group()
            if re.search(r"[.eEiInN]", text):
                self.pos = number.end()
                return float(text)
            try:
                value = int(text)
            except ValueError:  # beyond Python's 4,300 digits
                self._fail(text, "a number of fewer digits")
            self.pos = number.end()
            return value
        word = self._token()
        if word.lower() in ("true", "false"):
            self.pos += len(word)
            return word.lower() == "true"
        if word.lower() == "nan":
            self._fail(word, 'a value; test missing values with "is missing"')
        if word:
            self._fail(word, f"a number, True, False or a quoted text ('{word}')")
        self._fail(word, "a value")

    # Tokens ----------------------------------------------------------------

    def _skip(self):
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def _at_end(self):
        self._skip()
        return self.pos >= len(self.text)

    def _token(self):
        """The token at the cursor, for a message ("" at the end)."""
        self._skip()
        if self._at_end():
            return ""
        word = _WORD.match(self.text, self.pos)
        if word:
            return word.group()
        for op in COMPARISONS:
            if self.text.startswith(op, self.pos):
                return op
        return self.text[self.pos]

    def _keyword(self, word):
        self._skip()
        end = self.pos + len(word)
        if self.text[self.pos : end].lower() != word:
            return False
        if end < len(self.text) and (self.text[end].isalnum() or self.text[end] == "_"):
            return False
        self.pos = end
        return True

    def _symbol(self, symbol):
        self._skip()
        if self.text.startswith(symbol, self.pos):
            self.pos += len(symbol)
            return True
        return False

    def _unknown(self, name):
        raise ValueError(
            f"cohort rule {quoted(self.text)}: {quoted(name)} is not a column of "
            f"X; columns are {quoted_names(self.names)} (quote a name in "
            "backticks, `like this`, if it clashes with the rule's words; a "
            "backtick in a name is written twice)."
        )

    def _fail(self, token, expected):
        found = f"{quoted(token)} at position {self.pos}" if token else "the end"
        raise ValueError(
            f"cohort rule {quoted(self.text)}: expected {expected}, found {found}."
        )
