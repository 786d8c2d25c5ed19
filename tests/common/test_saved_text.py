"""A saved review holds only what it shows (#49 items 2 and 3): a table with
a unique e-mail and SSN per row, saved from the inspector and from every
standalone widget, holds none of those values (the overview, the cohort
form's suggestions, a selected ID column's chart, cohort rules naming one,
ICE cluster and conditional importance rules included); a column with a few
frequent values names those only; an ALE of such a column is refused;
``category_labels=False`` leaves out every category, in rules too; no
absolute path, user or host name reaches the page, whatever key holds it.
The page drawn: tests/browser/test_shared_review.py.
"""

import getpass
import json
import re
import socket

import numpy as np
import pandas as pd
import pytest
from sklearn.compose import make_column_transformer
from sklearn.ensemble import RandomForestRegressor
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

import inspectwidgets as iw
from inspectwidgets.inspection._core import level_summary
from inspectwidgets.inspection._core.levels import (
    MAX_LEVELS,
    MIN_ROWS,
    UNNAMED_VALUE,
    rule_naming_only,
)
from inspectwidgets.inspection._core.rule_inputs import ColumnCoding
from inspectwidgets.widgets._page_state import shareable_state, without_local_paths
from inspectwidgets.widgets._standalone import save_html

N_ROWS = 200
PLANS = ["plan-basic", "plan-pro", "plan-team"]
# Four cities in 20 rows or more each, the other rows a city of their own.
FREQUENT_CITIES = ["Springfield", "Shelbyville", "Ogdenville", "North Haverbrook"]


def _table():
    rng = np.random.default_rng(0)
    cities = [FREQUENT_CITIES[i % 4] for i in range(100)]
    cities += [f"Hamlet {i:03d}" for i in range(N_ROWS - 100)]
    emails = [f"person{i:03d}.{rng.integers(10**6)}@example.org" for i in range(N_ROWS)]
    ssns = [
        f"{rng.integers(100, 999)}-{i:02d}-{rng.integers(1000, 9999)}"
        for i in range(N_ROWS)
    ]
    X = pd.DataFrame(
        {
            "age": rng.integers(18, 80, N_ROWS),  # an integer column
            "income": rng.normal(50, 10, N_ROWS),
            "plan": pd.Categorical(rng.choice(PLANS, N_ROWS)),
            "email": emails,
            "ssn": ssns,
            "city": cities,
        }
    )
    X.loc[3, "income"] = np.nan
    y = 0.1 * X["age"] + 0.05 * X["income"].fillna(50) + 2 * (X["plan"] == "plan-pro")
    return X, y + rng.normal(size=N_ROWS)


@pytest.fixture(scope="module")
def table():
    X, y = _table()
    text = ["plan", "email", "ssn", "city"]
    encode = make_column_transformer(
        (OneHotEncoder(handle_unknown="ignore"), text), remainder=SimpleImputer()
    )
    forest = RandomForestRegressor(n_estimators=10, random_state=0)
    return make_pipeline(encode, forest).fit(X, y), X, y


def _cohorts(X):
    """Cohorts whose rules name one person's e-mail and two SSNs, and a plan
    (a category in many rows)."""
    return {
        "one person": f"email == '{X['email'][0]}'",
        "two ssns": f"ssn in ['{X['ssn'][1]}', '{X['ssn'][2]}'] or age > 70",
        "pro": "plan == 'plan-pro'",
    }


def _wait(widget):
    for _ in range(3):  # the inspector starts its effects after importance
        widget.wait(120)
    views = getattr(widget, "views", {"self": widget})
    for view in views.values():
        if hasattr(view, "wait_overview"):
            view.wait_overview(120)


@pytest.fixture(scope="module")
def pages(table, tmp_path_factory):
    """{name: saved page} of the inspector (an ID column selected or not)
    and of each standalone widget, every one run to the end."""
    model, X, y = table
    numeric = ["age", "income"]
    widgets = {
        "inspector": iw.ModelInspector(
            model, X, y, n_repeats=2, random_state=0, selected_features=["age"]
        ),
        "inspector, email selected": iw.ModelInspector(
            model, X, y, n_repeats=2, random_state=0, selected_features=["email"]
        ),
        "inspector, city selected": iw.ModelInspector(
            model, X, y, n_repeats=2, random_state=0, selected_features=["city"]
        ),
        # Rules naming a person, written by the author.
        "inspector, cohorts": iw.ModelInspector(
            model,
            X,
            y,
            n_repeats=2,
            random_state=0,
            selected_features=["age"],
            cohorts=_cohorts(X),
        ),
        "permutation": iw.PermutationImportanceWidget(
            model, X, y, n_repeats=2, random_state=0
        ),
        # Rules written from trees on X: its subgroups, the clusters'.
        "permutation, conditional": iw.PermutationImportanceWidget(
            model, X, y, n_repeats=2, random_state=0, method="conditional"
        ),
        "partial_dependence, clusters": iw.PartialDependenceWidget(
            model, X, features=["age"], n_ice=40, ice_mode="clusters"
        ),
        "partial_dependence": iw.PartialDependenceWidget(
            model, X, features=["city"], grid_resolution=5, n_ice=5, overview=True
        ),
        "comparison": iw.ImportanceComparisonWidget(
            RandomForestRegressor(n_estimators=5, random_state=0).fit(
                X[numeric].fillna(0), y
            ),
            X[numeric].fillna(0),
            y,
            X[numeric].fillna(0),
            y,
            n_repeats=2,
        ),
        "interaction": iw.InteractionWidget(
            LinearRegression().fit(X[numeric].fillna(0), y),
            X[numeric].fillna(0),
            n_samples=10,
            grid_resolution=4,
        ),
    }
    folder = tmp_path_factory.mktemp("saved")
    saved = {}
    for name, widget in widgets.items():
        _wait(widget)
        saved[name] = save_html(widget, folder / f"{name}.html").read_text()
        widget.close()
    return saved


def _state(page):
    text = re.search(r'id="widget-state">(.*?)</script>', page, re.S).group(1)
    return json.loads(text)["state"]


def _strings(node):
    if isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)
    elif isinstance(node, str):
        yield node


def test_no_value_of_an_id_column_is_in_any_saved_page(pages, table):
    _, X, _ = table
    raw = set(X["email"]) | set(X["ssn"]) | {c for c in X["city"] if "Hamlet" in c}
    for name, page in pages.items():
        leaked = sorted(value for value in raw if value in page)
        assert leaked == [], f"{name}: {len(leaked)} raw values, e.g. {leaked[:3]}"


def test_a_cohort_rule_shows_no_value_of_an_id_column(pages, table):
    _, X, _ = table
    state = _state(pages["inspector, cohorts"])
    rules = {c["name"]: c["rule"] for c in state["_header"]["cohorts"]}
    assert rules["one person"] == f"email == {UNNAMED_VALUE}"
    assert rules["two ssns"] == f"ssn in [{UNNAMED_VALUE}, {UNNAMED_VALUE}] or age > 70"
    assert rules["pro"] == "plan == 'plan-pro'"  # a category in many rows
    assert state["cohorts"] == []  # as written: only the form reads them
    # The rows are still the rule's: one person.
    sizes = {c["name"]: c["size"] for c in state["_header"]["cohorts"]}
    assert sizes["one person"] == (X["email"] == X["email"][0]).sum() == 1


def test_rule_trees_split_on_no_value_of_an_id_column(table):
    # What ICE clusters' and conditional importance's rules may name.
    _, X, _ = table
    coding = ColumnCoding(X, list(X.columns))
    categories = dict(zip(X.columns, coding.categories, strict=True))
    assert categories["email"] == [] and categories["ssn"] == []
    assert sorted(categories["city"]) == sorted(FREQUENT_CITIES)
    assert sorted(categories["plan"]) == PLANS


def test_rule_naming_only_keeps_names_and_the_values_it_may_name():
    column = {"e": [f"p{i}@x.org" for i in range(30)], "it's": ["a"] * 30}.get
    names = ["e", "it's"]
    assert rule_naming_only("e == 'p1@x.org'", names, column) == f"e == {UNNAMED_VALUE}"
    # A name holding a quote is left alone; a rule not parsed is returned.
    assert rule_naming_only("`it's` == 'a'", names, column) == "`it's` == 'a'"
    assert rule_naming_only("e === 'p1'", names, column) == "e === 'p1'"


def test_an_ale_of_an_id_column_is_refused_saying_why(table):
    model, X, _ = table
    for column in ("ssn", "city"):  # none in 5 rows; a few in 5 rows or more
        with pytest.raises(ValueError, match="an ALE draws each category as a bin"):
            iw.PartialDependenceWidget(model, X, features=[column], kind="ale")


def test_the_overview_names_only_what_it_summarises(pages):
    effects = _state(pages["inspector"])["_effects"]["state"]
    panels = {p["feature"]: p for p in effects["_overview"]["panels"]}
    assert set(panels) == {"age", "income", "plan", "email", "ssn", "city"}
    for column in ("email", "ssn"):
        assert panels[column]["x"] == []
        assert "200 distinct values, none in 5 rows" in panels[column]["note"]
    assert sorted(panels["city"]["x"]) == sorted(FREQUENT_CITIES)
    assert "4 of 104 distinct values shown" in panels["city"]["note"]
    assert sorted(panels["plan"]["x"]) == PLANS  # a few categories: listed


def test_a_selected_id_column_says_why_it_draws_nothing(pages):
    effects = _state(pages["inspector, email selected"])["_effects"]["state"]
    assert effects["status"] == "error"
    assert "'email': 200 distinct values, none in 5 rows or more" in effects["error"]
    city = _state(pages["inspector, city selected"])["_effects"]["state"]["_curve"]
    assert sorted(city["grid_labels"]) == sorted(FREQUENT_CITIES)
    assert sorted(city["distribution"]["labels"]) == sorted(FREQUENT_CITIES)


def test_a_widget_of_an_id_column_is_refused_saying_why(table):
    model, X, _ = table
    with pytest.raises(ValueError, match="'ssn': 200 distinct values, none in 5"):
        iw.PartialDependenceWidget(model, X, features=["ssn"], n_ice=5)


def test_the_cohort_form_suggests_no_id_and_is_not_saved(table):
    model, X, y = table
    review = iw.ModelInspector(model, X, y, n_repeats=2, run=False)
    fields = {f["name"]: f for f in review._cohort_fields}
    assert fields["email"]["values"] == [] and "200 distinct" in fields["email"]["note"]
    assert sorted(fields["city"]["values"]) == sorted(FREQUENT_CITIES)
    assert sorted(fields["plan"]["values"]) == PLANS
    # Hidden on a page without a kernel, so not in it at all.
    assert shareable_state(review.get_state())["_cohort_fields"] == []
    review.close()


def test_level_summary_lists_a_short_column_and_summarises_a_long_one():
    assert level_summary(["a", "b"] * 50) is None
    assert level_summary(np.arange(1000.0)) is None  # numbers: a numeric grid
    assert level_summary(pd.Series(range(500), dtype="category")) is None
    few = [f"v{i}" for i in range(MAX_LEVELS)] * 3
    assert level_summary(few) is None
    # Many values, each in many rows (fifty states): none picks out a person.
    states = [f"state {i}" for i in range(50)] * MIN_ROWS
    assert level_summary(states) is None
    assert level_summary(states + ["one row"]).named[:1] == ("state 0",)
    summary = level_summary(["x"] * MIN_ROWS + ["y"] * (MIN_ROWS - 1) + few)
    assert summary.named == ("x",)
    assert (summary.n_values, summary.n_other_values) == (
        MAX_LEVELS + 2,
        MAX_LEVELS + 1,
    )
    assert summary.n_other_rows == MIN_ROWS - 1 + len(few)


def test_category_labels_can_be_left_out(table, tmp_path):
    model, X, y = table
    widget = iw.PartialDependenceWidget(
        model, X, features=["plan"], n_ice=5, split_by="plan"
    )
    widget.wait(60)
    shown = save_html(widget, tmp_path / "with.html").read_text()
    assert all(plan in shown for plan in PLANS)
    page = save_html(widget, tmp_path / "without.html", category_labels=False)
    text = page.read_text()
    assert not [plan for plan in PLANS if plan in text]
    curve = _state(text)["_curve"]
    # One number per label, the same in the grid and the distribution.
    assert curve["grid_labels"] == ["category 1", "category 2", "category 3"]
    assert curve["distribution"]["labels"] == curve["grid_labels"]
    widget.close()


def test_category_labels_left_out_of_rules_too(table, tmp_path):
    model, X, y = table
    review = iw.ModelInspector(
        model,
        X,
        y,
        n_repeats=2,
        random_state=0,
        cohorts={"pro": "plan == 'plan-pro'", "basic": "plan in ['plan-basic']"},
    )
    _wait(review)
    text = save_html(review, tmp_path / "rules.html", category_labels=False)
    text = text.read_text()
    assert not [plan for plan in PLANS if plan in text]
    rules = [c["rule"] for c in _state(text)["_header"]["cohorts"]]
    # Each plan its stand-in, the one it has across the page.
    assert re.fullmatch(r"plan == 'category \d+'", rules[0]), rules
    assert re.fullmatch(r"plan in \['category \d+'\]", rules[1]), rules
    numbers = [re.search(r"category (\d+)", rule)[1] for rule in rules[:2]]
    assert numbers[0] != numbers[1]
    review.close()


def test_category_stand_ins_are_the_same_in_labels_and_every_rule():
    state = {
        "labels": ["plan-pro", "plan-basic"],
        "rules": [[{"rule": "plan == 'plan-basic' and age > 3", "size": 4}]],
        "subgroups": {"age": [['plan != "plan-pro"', 12], ["all rows", 3]]},
        "split_by": "plan in ['plan-team', 'plan-pro']",
        "features": ["plan"],  # a column's name, not a category
    }
    shared = shareable_state(state, category_labels=False)
    assert shared["labels"] == ["category 1", "category 2"]
    assert shared["rules"][0][0]["rule"] == "plan == 'category 2' and age > 3"
    assert shared["subgroups"]["age"] == [
        ["plan != 'category 1'", 12],
        ["all rows", 3],
    ]
    assert shared["split_by"] == "plan in ['category 3', 'category 1']"
    assert shared["features"] == ["plan"]


# Item 3: nothing of this machine, whatever key holds it ----------------------

MACHINE = [
    "/srv/alice/acme-secret/data.csv",
    "C:\\Users\\alice\\data.csv",
    "\\\\fileserver\\share\\alice\\x.parquet",
]


def test_paths_users_and_hosts_are_scrubbed_from_every_text():
    host = socket.gethostname()
    state = {
        "note": f"read {MACHINE[0]} as user=root on {host}",
        "features": [MACHINE[1], "km/h", "https://example.org/a/b"],
        "deep": {MACHINE[2]: ["ok", {"whatever": f"{host}: C:/Users/alice/x"}]},
    }
    shared = shareable_state(state)
    texts = "\n".join(_strings(shared))
    for secret in ("alice", "acme-secret", "fileserver", "user=root"):
        assert secret not in texts
    assert not re.search(rf"(?<![\w-]){re.escape(host)}(?![\w-])", texts)
    assert shared["note"] == "read <path>/data.csv as user=<user> on <host>"
    assert shared["features"] == [
        "<path>\\data.csv",
        "km/h",
        "https://example.org/a/b",
    ]
    assert list(shared["deep"]) == ["<path>\\x.parquet"]
    user = getpass.getuser()
    if user != "root":  # a generic account name only where text says so
        assert user not in without_local_paths(f"by {user}")


def test_a_path_in_a_feature_name_is_scrubbed_alike_everywhere(tmp_path):
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(40, 2)), columns=[MACHINE[0], "b"])
    y = X.iloc[:, 0] * 2
    widget = iw.PartialDependenceWidget(LinearRegression().fit(X, y), X, n_ice=5)
    widget.wait(60)
    page = save_html(widget, tmp_path / "paths.html", title=MACHINE[1]).read_text()
    state = _state(page)
    texts = "\n".join(_strings(state)) + re.search("<title>(.*)</title>", page)[1]
    assert "alice" not in texts and "acme" not in texts  # (d3 names "aliceblue")
    assert state["features"] == ["<path>/data.csv"]
    assert state["_curve"]["features"] == state["features"]
    widget.close()
