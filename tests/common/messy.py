"""Messy data for the reliability matrix: a churn-like table as real data
comes, and the cases made of it.

The table (100 rows) holds NaN in a float column, ``pd.NA`` in nullable
``Int64`` and ``Float64`` columns, strings with NaN, a pandas ``category``
with an unused level and NaN, a bool column, integer codes, a constant
column and a column of NaN only, under a shuffled index. The model is what a
user fits on it: an ordinal encoder of the string columns before histogram
gradient boosting, which takes missing values natively. Each case is a
:class:`matrix.Case`: tried on every entry point it applies to, it must give
a finite result or an error naming the column (its ``argument``), and leave
the data and the model as they were.
"""

import numpy as np
import pandas as pd
from matrix import Case, _Fitted
from sklearn.compose import make_column_transformer
from sklearn.ensemble import (
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestRegressor,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OrdinalEncoder

N_MESSY = 100
STRINGS = ["plan", "region"]


def messy_table(n=N_MESSY, seed=0):
    """X (a DataFrame as described in the module doc) and a numeric y."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "charges": rng.gamma(2.0, 30.0, n),
            "tenure": rng.integers(0, 72, n),
            "calls": pd.array(rng.integers(0, 6, n), dtype="Int64"),
            "score": pd.array(rng.normal(size=n), dtype="Float64"),
            "plan": rng.choice(["basic", "plus", "pro"], n).astype(object),
            "region": pd.Categorical(
                rng.choice(["n", "s", "e"], n), categories=["n", "s", "e", "w"]
            ),
            "paperless": rng.random(n) < 0.5,
            "code": rng.integers(0, 5, n),
            "flat": np.full(n, 2.5),
            "empty": np.full(n, np.nan),
        },
        index=rng.permutation(n) * 7 + 3,
    )
    for column, share in [("charges", 0.06), ("calls", 0.05), ("score", 0.05)]:
        X.loc[rng.random(n) < share, column] = np.nan if column == "charges" else pd.NA
    X.loc[rng.random(n) < 0.06, "plan"] = np.nan
    X.loc[rng.random(n) < 0.06, "region"] = np.nan
    charges = X["charges"].to_numpy(dtype=float, na_value=np.nan)
    y = np.nan_to_num(charges, nan=150.0) / 30 - X["tenure"] / 24 + (X["plan"] == "pro")
    noise = rng.normal(scale=0.1, size=n)
    return X, pd.Series(y.to_numpy() + noise, index=X.index, name="churn_score")


def messy_pipeline(classifier=False, strings=STRINGS):
    """Encoder of the string columns (missing values kept as NaN) before
    histogram gradient boosting; frames throughout (nullable columns). The
    column of NaN only is dropped: histogram boosting cannot bin it."""
    encode = make_column_transformer(
        ("drop", ["empty"]),
        (
            OrdinalEncoder(
                handle_unknown="use_encoded_value",
                unknown_value=-1,
                encoded_missing_value=np.nan,
            ),
            list(strings),
        ),
        remainder="passthrough",
        verbose_feature_names_out=False,
    ).set_output(transform="pandas")
    boosting = (
        HistGradientBoostingClassifier if classifier else HistGradientBoostingRegressor
    )
    return make_pipeline(encode, boosting(max_iter=8, random_state=0))


def _messy(X, y):
    return messy_table()


_FITTED = {}


class _FittedOnce(_Fitted):
    """`_Fitted`, fitted once per inputs and kind of model and shared by the
    cases' pairs (a fit costs more than most calls; each pair checks that it
    leaves the model unchanged)."""

    def __init__(self, inputs, classifier, strings):
        super().__init__(messy_pipeline(classifier, strings), inputs)
        self.key = (inputs, classifier, tuple(strings))

    def fit(self, X, y):
        if self.key not in _FITTED:
            _FITTED[self.key] = super().fit(X, y)
        return _FITTED[self.key]


def _messy_model(inputs=_messy, classifier=False, strings=STRINGS):
    return lambda target: _FittedOnce(inputs, classifier, strings)


def _target(kind):
    """The messy table with y as strings, bools or a pandas category."""

    def inputs(X, y):
        X, y = messy_table()
        labels = np.where(y > y.median(), "left", "stayed")
        if kind == "bool":
            return X, pd.Series(labels == "left", index=X.index)
        if kind == "category":
            return X, pd.Series(pd.Categorical(labels), index=X.index)
        return X, pd.Series(labels, index=X.index, dtype=object)

    return inputs


def _with_levels(n_levels):
    def inputs(X, y):
        # Rows enough for every level to occur.
        X, y = messy_table(max(N_MESSY, n_levels))
        levels = [f"level {k:03d}" for k in range(n_levels)]
        X["levels"] = np.resize(levels, len(X)).astype(object)
        return X, y

    return inputs


def _reordered(X, y):
    X, y = messy_table()
    return X[X.columns[::-1]], y


def _without(column):
    def inputs(X, y):
        X, y = messy_table()
        return X.drop(columns=column), y

    return inputs


def _duplicated_index(X, y):
    X, y = messy_table()
    index = np.repeat(np.arange(len(X) // 2 + 1), 2)[: len(X)]
    return X.set_axis(index), y.set_axis(index)


def _numeric_inputs(X, y):
    X, y = messy_table()
    return X[["charges", "tenure", "paperless", "flat"]], y


def _numeric_forest(target):
    """A forest (trees take NaN natively) on the table's numeric columns:
    for the entry points that need a tree model's impurity importance."""
    forest = RandomForestRegressor(n_estimators=5, max_depth=3, random_state=0)
    return _Fitted(forest, _numeric_inputs)


# What the messy cases are tried on: every entry point that takes a model, X
# and a general estimator (the tree-only ones get a case of their own).
USERS = frozenset({"perm", "pd", "inspector"})
STRING_COLUMN = r"'plan'|'region'|'levels'|categorical|\bX\b"


def _column_case(name, column, argument=None, **kwargs):
    """The messy table with `features` set to `column`."""
    settings = {"features": [column], **kwargs.pop("settings_extra", {})}
    return Case(
        name,
        argument or f"'{column}'",
        outcome=kwargs.pop("outcome", "either"),
        settings=settings,
        inputs=kwargs.pop("inputs", _messy),
        model=kwargs.pop("model", _messy_model()),
        families=kwargs.pop("families", USERS),
        touches=frozenset({"X"}),
        needs_generic_model=True,
        # Cross-validation refits the pipeline per fold (seconds a case): it
        # meets the whole table in "messy table", not every column again.
        on_refitting=False,
        **kwargs,
    )


MESSY_CASES = [
    # The whole table, each method's defaults (features: its first columns).
    Case(
        "messy table",
        r"'charges'",
        outcome="either",
        inputs=_messy,
        model=_messy_model(),
        families=USERS,
        touches=frozenset({"X"}),
        needs_generic_model=True,
        widget_outcome="ok",
    ),
    # One column kind at a time.
    _column_case("NaN in a numeric feature", "charges", widget_outcome="ok"),
    _column_case("nullable Float64 with pd.NA", "score", widget_outcome="ok"),
    _column_case("nullable Int64 with pd.NA", "calls", widget_outcome="ok"),
    _column_case("int64 numeric feature", "tenure", widget_outcome="ok"),
    _column_case("bool feature", "paperless", widget_outcome="ok"),
    _column_case("strings with NaN", "plan", argument=STRING_COLUMN),
    _column_case(
        "category with an unused level and NaN", "region", argument=STRING_COLUMN
    ),
    _column_case(
        "integer codes as categories",
        "code",
        settings_extra={"categorical_features": ["code"]},
    ),
    _column_case("constant column", "flat"),
    _column_case("column of NaN only", "empty"),
    _column_case(
        "a 1-level category",
        "levels",
        argument=STRING_COLUMN,
        inputs=_with_levels(1),
        model=_messy_model(_with_levels(1), strings=[*STRINGS, "levels"]),
    ),
    _column_case(
        "a 200-level category",
        "levels",
        argument=STRING_COLUMN,
        inputs=_with_levels(200),
        model=_messy_model(_with_levels(200), strings=[*STRINGS, "levels"]),
    ),
    # Targets.
    Case(
        "string target for a regressor",
        r"\by\b.*regressor.*classifier",
        inputs=_target("str"),
        model=_messy_model(),
        families=frozenset({"perm", "inspector"}),
        touches=frozenset({"y"}),
        needs_generic_model=True,
    ),
    *[
        Case(
            f"{kind} target, classifier",
            "",
            outcome="ok",
            inputs=_target(kind),
            model=_messy_model(_target(kind), classifier=True),
            families=frozenset({"perm", "inspector"}),
            touches=frozenset({"y"}),
            needs_generic_model=True,
            # Cross-validation refits on string labels once; enough.
            on_refitting=kind == "str",
        )
        for kind in ("str", "bool", "category")
    ],
    # Rows and columns versus training.
    Case(
        "duplicated, shuffled index",
        r"'charges'",
        outcome="either",
        inputs=_duplicated_index,
        model=_messy_model(),
        families=USERS,
        touches=frozenset({"X"}),
        needs_generic_model=True,
        on_refitting=False,
        widget_outcome="ok",
    ),
    Case(
        "columns reordered versus training",
        r"order|'charges'|'empty'",
        outcome="either",
        inputs=_reordered,
        model=_messy_model(),
        families=USERS,
        touches=frozenset({"X"}),
        needs_generic_model=True,
        on_refitting=False,
    ),
    Case(
        "a training column missing from X",
        r"X lacks the column\(s\) \['tenure'\]",
        inputs=_without("tenure"),
        model=_messy_model(),
        families=USERS,
        touches=frozenset({"X"}),
        needs_generic_model=True,
        refitted_ok=True,
    ),
    # Tree-only entry points and clustering: numeric columns with NaN, an
    # integer, a bool and a constant.
    Case(
        "NaN, int, bool and constant columns (forest)",
        "",
        outcome="ok",
        inputs=_numeric_inputs,
        model=_numeric_forest,
        families=frozenset({"compare", "impurity", "cluster"}),
        touches=frozenset({"X"}),
    ),
    Case(
        "nullable and string columns to cluster",
        r"'plan'",
        inputs=_messy,
        families=frozenset({"cluster"}),
        touches=frozenset({"X"}),
    ),
]
