"""Hostile strings, and every widget built so that they reach each place a
string can: column names, category values, class labels, pipeline step names,
an estimator's class name (its repr) and the page title (the widgets take
scikit-learn's scorer names only).

Used by tests/widgets/test_standalone.py (the saved page, parsed in Python)
and tests/browser/test_shared_review.py (the saved page, drawn in Chromium).
Models are tiny: the point is the strings, not the numbers.
"""

import numpy as np
import pandas as pd
from sklearn.compose import make_column_transformer
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LinearRegression
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

import inspectwidgets as iw

# Sets `window.__pwned` wherever HTML or script would run it.
PAYLOAD = "window.__pwned=1"

HOSTILE = [
    "<!--<script>",
    "</script>",
    "<!--",
    "<script",
    "]]>",
    f"<img src=x onerror={PAYLOAD}>",
    f'"><svg onload="{PAYLOAD}">',
    f"</script><script>{PAYLOAD}</script>",
    "a\x00b",  # NUL
    "lone \ud800 high",  # lone surrogates: no UTF-8 file can hold them
    "lone \udcff low",
    "\u202eright-to-left override",
    "\u2066left-to-right isolate",
    "line\u2028separator\u2029paragraph",
    "&amp; &lt; &#0;",
    "x" * 100_000,
]

# An estimator whose class name (and so its repr) is hostile.
HostileTree = type(
    "</script><!--<script>Tree", (DecisionTreeRegressor,), {"__module__": __name__}
)

N_ROWS = 40


def hostile_frame(n_numeric=4):
    """X: `n_numeric` numeric columns named by HOSTILE strings (the
    right-to-left one first), with NaN, and one categorical column (itself
    hostile) whose values are all of HOSTILE."""
    rng = np.random.default_rng(0)
    names = [HOSTILE[11], *HOSTILE[: n_numeric - 1]]
    X = pd.DataFrame(rng.normal(size=(N_ROWS, n_numeric)), columns=names)
    X.iloc[3, 1] = np.nan
    categories = [HOSTILE[i % len(HOSTILE)] for i in range(N_ROWS)]
    X[HOSTILE[-1]] = pd.Categorical(categories)
    return X


def _target(X):
    return 2 * X.iloc[:, 0].to_numpy() + np.nan_to_num(X.iloc[:, 1].to_numpy())


def _pipeline(final):
    """One-hot for the categorical column, NaN filled; steps named hostile."""
    encode = make_column_transformer(
        (OneHotEncoder(handle_unknown="ignore"), [HOSTILE[-1]]),
        remainder=SimpleImputer(),
    )
    return Pipeline([("<!--<script>encode", encode), ("</script>model", final)])


def hostile_regressor():
    X = hostile_frame()
    y = _target(X)
    return _pipeline(HostileTree(max_depth=3, random_state=0)).fit(X, y), X, y


def hostile_classifier():
    """Class labels from HOSTILE."""
    X = hostile_frame()
    labels = np.array([HOSTILE[0], HOSTILE[5], HOSTILE[11]], dtype=object)
    y = labels[np.digitize(_target(X), [-1, 1])]
    model = _pipeline(DecisionTreeClassifier(max_depth=3, random_state=0))
    return model.fit(X, y), X, y


# The widgets take scikit-learn's scorer names only (their own, checked).
SCORING = ["r2", "neg_mean_absolute_error"]


def build_widgets():
    """{name: widget} for every widget class, each run to the end."""
    model, X, y = hostile_regressor()
    classifier, Xc, yc = hostile_classifier()
    numeric = list(X.columns[:2])
    widgets = {
        "permutation": iw.PermutationImportanceWidget(
            model, X, y, scoring=SCORING, n_repeats=2, random_state=0
        ),
        "partial_dependence": iw.PartialDependenceWidget(
            classifier,
            Xc,
            features=[numeric[0], Xc.columns[-1]],
            grid_resolution=5,
            n_ice=5,
        ),
        "comparison": iw.ImportanceComparisonWidget(
            HostileTree(max_depth=3, random_state=0).fit(X[numeric], y),
            X[numeric],
            y,
            X[numeric],
            y,
            n_repeats=2,
            random_state=0,
        ),
        "interaction": iw.InteractionWidget(
            LinearRegression().fit(X[numeric + [X.columns[2]]].fillna(0), y),
            X[numeric + [X.columns[2]]].fillna(0),
            n_samples=10,
            n_top=3,
            grid_resolution=4,
            pair=numeric,
        ),
        "inspector": iw.ModelInspector(
            model,
            X,
            y,
            scoring=SCORING,
            n_repeats=2,
            random_state=0,
            selected_features=numeric,
        ),
    }
    for widget in widgets.values():
        for _ in range(2):  # the inspector starts its effects after importance
            widget.wait(60)
    return widgets
