"""Cohort rules under hostile names and hostile rules (#49 items 7 and 8).

A column's name reaches a rule three ways: typed, written by the inspector's
form (``conditionText`` in js/src/inspector/cohort_data.js, run here in node)
and written by a tree's leaf (tree_rules.py). Each must read back as that
column and no other, whatever the name holds: a name holding
``` > 0 or ``` made the form's rule on it select 136 rows of another column
instead of none. And a rule itself may be hostile: 400 parentheses deep, a
bad escape, 20 MB long; each is a ValueError naming the problem, shown by
the inspector's form with the cohorts in force kept.
"""

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_array_equal
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from inspectwidgets import Cohort, ModelInspector
from inspectwidgets.inspection._core.cohort_rules import (
    MAX_CONDITIONS,
    MAX_DEPTH,
    MAX_RULE_LENGTH,
    Condition,
    parse_rule,
    rule_name,
)
from inspectwidgets.inspection._core.rule_inputs import ColumnCoding
from inspectwidgets.inspection._core.tree_rules import RuleValues, leaf_rule

from hostile import HOSTILE

JS = Path(__file__).parents[2] / "js"

# Names a rule's own syntax could read: backticks alone, doubled, around and
# inside; quotes and backslashes; the rule's words; a name another continues
# ("age" beside "age > 0 or x"); line ends, $, an empty name, a lone surrogate.
NAMES = [
    "score",
    "score` > 0 or `score",  # the issue's: the form sent `score` > 0 or `score` < -100
    "`",
    "``",
    "a`b",
    "`score`",
    "a\\`b",
    "'",
    '"',
    "\\",
    'it\'s "quoted"',
    "$x^{2}$",
    "cost ($) per unit ($)",
    "line\nend",
    "tab\there",
    " edge ",
    "",
    "(x",
    "x)",
    "all rows",
    "and",
    "is missing",
    "1.5",
    "True",
    "age",
    "age > 0 or x",
    "lone\ud800x",
    "\u202eright-to-left",
]


def _frame(names, n_rows=300):
    """A column per name, each its own draw, so a rule on the wrong column
    selects other rows."""
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        {name: rng.normal(size=n_rows) for name in names}, columns=list(names)
    )


@pytest.fixture(scope="module")
def form(tmp_path_factory):
    """The inspector form's condition text of each column, from the form's
    own code (cohort_data.js bundled by esbuild, run in node)."""
    node, esbuild = shutil.which("node"), JS / "node_modules" / ".bin" / "esbuild"
    if node is None or not esbuild.exists():
        pytest.skip("needs node and js/node_modules (make venv)")
    bundle = tmp_path_factory.mktemp("form") / "cohort_data.mjs"
    subprocess.run(
        [esbuild, JS / "src/inspector/cohort_data.js", "--bundle", "--format=esm",
         "--platform=node", "--loader:.css=empty", f"--outfile={bundle}",
         "--log-level=warning"],
        check=True,
    )  # fmt: skip
    script = (
        f"import {{ conditionText }} from {json.dumps(bundle.as_uri())};\n"
        "const { names, op, value } = JSON.parse(await new Response(process.stdin)"
        ".text());\n"
        "const fields = names.map((name) => ({ name, kind: 'number' }));\n"
        "process.stdout.write(JSON.stringify(fields.map((f) => "
        "conditionText(f, op, value, names))));\n"
    )

    def condition_texts(names, op, value):
        # The names as the page holds them: JSON, lone surrogates escaped
        # (`sendable`), which this test's names avoid for the form.
        sent = json.dumps({"names": names, "op": op, "value": value})
        done = subprocess.run(
            [node, "--input-type=module", "-e", script],
            input=sent,
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(done.stdout)

    return condition_texts


@pytest.mark.parametrize(("op", "value"), [("<", "-100"), (">", "0")])
def test_the_forms_rule_selects_exactly_its_columns_rows(form, op, value):
    names = [n for n in NAMES if "\ud800" not in n]  # the page's escape: below
    X = _frame(names)
    texts = form(names, op, value)
    compare = np.less if op == "<" else np.greater
    for name, text in zip(names, texts, strict=True):
        expected = compare(X[name].to_numpy(), float(value))
        assert_array_equal(Cohort("c", text).mask(X), expected, err_msg=text)
    # "+ and" joins two conditions: both hold.
    both = f"{texts[1]} and {texts[0]}"
    expected = compare(X[names[1]], float(value)) & compare(X[names[0]], float(value))
    assert_array_equal(Cohort("c", both).mask(X), expected, err_msg=both)


def test_the_issues_rule_selects_no_row(form):
    X = _frame(["score", "score` > 0 or `score"])
    (_, text) = form(list(X.columns), "<", "-100")
    assert Cohort("c", text).mask(X).sum() == 0  # 136 of 300 before


def test_the_form_quotes_plain_names_only_where_needed(form):
    assert form(["age", "tenure"], "<", "30") == ["age < 30", "tenure < 30"]
    # A column whose name goes on where "age" ends: "age" is quoted.
    assert form(["age", "age > 0 or x"], "<", "30") == [
        "`age` < 30",
        "`age > 0 or x` < 30",
    ]


@pytest.mark.parametrize("name", NAMES + HOSTILE, ids=range(len(NAMES + HOSTILE)))
def test_rule_name_reads_back_as_its_column(name):
    names = [*NAMES, *HOSTILE]
    rule = f"{rule_name(name, names)} > 0 and {rule_name(name, names)} is missing"
    tree = parse_rule(rule, names)
    assert tree.parts == (Condition(name, ">", 0), Condition(name, "is missing"))


@pytest.mark.parametrize("kind", ["regression", "classification"])
def test_tree_rules_over_hostile_names_select_their_leaf(kind):
    names = [n for n in NAMES if n != "score"][:12] + ["score"]
    X = _frame(names)
    coding = ColumnCoding(X, names)
    inputs = coding.inputs(X)
    rng = np.random.default_rng(1)
    if kind == "regression":
        model = DecisionTreeRegressor(max_depth=4, random_state=0)
        target = X.iloc[:, 1] - X.iloc[:, 0] + rng.normal(0, 0.1, len(X))
    else:
        model = DecisionTreeClassifier(max_depth=4, random_state=0)
        target = (X.iloc[:, 0] > X.iloc[:, 2]).astype(int)
    tree = model.fit(inputs, target)
    values = RuleValues(coding, (X,))
    leaf_of_row = tree.apply(inputs)
    for leaf in np.unique(leaf_of_row):
        rule = leaf_rule(tree.tree_, leaf, range(len(coding.columns)), values)
        assert_array_equal(Cohort("c", rule).mask(X), leaf_of_row == leaf, err_msg=rule)


# Limits (item 8) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ("(" * 400 + "age < 3" + ")" * 400, f"at most {MAX_DEPTH} parentheses"),
        ("plan == '\\N'", r"valid escapes.*\\N"),
        ("plan == '\\x1'", r"valid escapes"),
        ("plan in ['a', '\\N{nope}']", r"valid escapes"),
        ("age < " + "1" * 5000, "a number of fewer digits"),
        (" and ".join(["age < 3"] * (MAX_CONDITIONS + 1)), "at most 1,000 conditions"),
        ("age < 3 or " * 2_000_000 + "age < 3", "characters; a rule holds at most"),
        ("`a``", "a closing backtick"),
    ],
    ids=["deep", "escape N", "escape x", "escape in list", "digits", "conditions",
         "20 MB", "unclosed"],
)  # fmt: skip
def test_a_hostile_rule_is_a_value_error_naming_the_problem(rule, message):
    X = _frame(["age", "plan"])
    with pytest.raises(ValueError, match=message) as raised:
        Cohort("c", rule).mask(X)
    assert len(str(raised.value)) < 400  # the rule quoted, cut
    assert type(raised.value) is ValueError


def test_the_limits_leave_room():
    # A rule MAX_DEPTH deep, MAX_CONDITIONS long, and a 100,000-character
    # name quoted in it: read.
    X = _frame(["age", "x" * 100_000])
    deep = "(" * MAX_DEPTH + "age < 0" + ")" * MAX_DEPTH
    assert_array_equal(Cohort("c", deep).mask(X), X["age"] < 0)
    long = " or ".join(["age < 0"] * MAX_CONDITIONS)
    assert_array_equal(Cohort("c", long).mask(X), X["age"] < 0)
    name = X.columns[1]
    rule = f"{rule_name(name, list(X.columns))} > 0"
    assert len(rule) < MAX_RULE_LENGTH
    assert_array_equal(Cohort("c", rule).mask(X), X[name] > 0)


# The inspector's form ------------------------------------------------------


@pytest.fixture(scope="module")
def review():
    X = _frame(["score", "score` > 0 or `score", "lone\ud800x", "plain"])
    y = X["score"] - X["plain"]
    model = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y)
    review = ModelInspector(model, X, y, n_repeats=2, random_state=0)
    review.wait(timeout=120)
    yield review
    review.close()


def _from_the_page(review, rule):
    """The form's message, through the comm's way in (escapes restored)."""
    review.get_state()  # what the page was sent: the names' escapes recorded
    review._handle_custom_msg({"set_cohorts": [{"name": "c", "rule": rule}]}, [])


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ("(" * 400 + "score < 3" + ")" * 400, "parentheses"),
        ("score == '\\N'", "valid escapes"),
        ("score < 3 and " * 2_000_000 + "score < 3", "at most 1,000,000"),
    ],
    ids=["deep", "escape", "20 MB"],
)
def test_the_form_shows_a_hostile_rules_error_and_keeps_the_cohorts(
    review, rule, message
):
    review.cohorts = [{"name": "kept", "rule": "score > 0"}]
    _from_the_page(review, rule)
    assert message in review._cohorts_error
    assert "Traceback" not in review._cohorts_error
    assert review.cohorts == [{"name": "kept", "rule": "score > 0"}]
    # Not stuck: the next rule is taken.
    _from_the_page(review, "plain > 0")
    assert review._cohorts_error == ""
    assert review.cohorts == [{"name": "c", "rule": "plain > 0"}]


def test_a_rule_on_a_name_the_page_holds_escaped_selects_its_rows(review, form):
    # The page holds "lone\ud800x" as its escape (no UTF-8 message holds a
    # lone surrogate); the form quotes that, and the kernel reads X's column.
    (shown,) = [
        f["name"] for f in review.get_state()["_cohort_fields"] if "lone" in f["name"]
    ]
    assert shown == "lone\\ud800x"
    (text,) = form([shown], ">", "0")
    _from_the_page(review, text)
    assert review._cohorts_error == ""
    (entry,) = [e for e in review._header["cohorts"] if e["name"] == "c"]
    assert entry["size"] == int((review._X["lone\ud800x"] > 0).sum())
