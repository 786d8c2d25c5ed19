"""A model review in marimo: every widget through ``mo.ui.anywidget``.

Open it with ``marimo edit notebooks/marimo_review.py`` (or serve it with
``marimo run``). Each widget computes on a thread of its own and streams its
results into the page; a click on a bar sets the widget's
``selected_features`` and marimo reruns the cells that read it
(docs/front_ends.md).
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell(hide_code=True)
def _(mo):
    mo.md(
        """
        # A model review in marimo

        The diabetes data that ship with scikit-learn (disease progression a
        year on, from ten baseline measurements), with a few blood-pressure
        readings missing and `sex` as a category. Each widget below computes
        on a thread of its own and draws its results as they come; **click a
        bar** in the permutation chart and the cell under it shows that
        feature's partial dependence.
        """
    )
    return


@app.cell
def _():
    import marimo as mo
    import numpy as np
    from sklearn.datasets import load_diabetes
    from sklearn.model_selection import train_test_split

    from inspectwidgets import (
        ImportanceComparisonWidget,
        InteractionWidget,
        ModelInspector,
        PartialDependenceWidget,
        PermutationImportanceWidget,
        partial_dependence,
    )

    X, y = load_diabetes(return_X_y=True, as_frame=True, scaled=False)
    X = X.astype({"age": "int64"})
    X["sex"] = X["sex"].map({1.0: "female", 2.0: "male"}).astype("category")
    # Messy as real data are: a few readings missing.
    X.loc[X.sample(frac=0.05, random_state=0).index, "bp"] = np.nan
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0)
    return (
        ImportanceComparisonWidget,
        InteractionWidget,
        ModelInspector,
        PartialDependenceWidget,
        PermutationImportanceWidget,
        X_test,
        X_train,
        mo,
        partial_dependence,
        y_test,
        y_train,
    )


@app.cell
def _(X_train, y_train):
    from sklearn.compose import make_column_transformer
    from sklearn.ensemble import RandomForestRegressor
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    # Random forests take missing values as they are.
    model = make_pipeline(
        make_column_transformer(
            (OneHotEncoder(handle_unknown="ignore"), ["sex"]),
            remainder="passthrough",
            verbose_feature_names_out=False,
        ),
        RandomForestRegressor(n_estimators=50, min_samples_leaf=5, random_state=0),
    ).fit(X_train, y_train)
    return (model,)


@app.cell(hide_code=True)
def _(mo):
    mo.md(
        """
        ## Permutation importance

        How much the R² on the held-out rows drops when one column is
        shuffled, repeat by repeat as they come.
        """
    )
    return


@app.cell
def _(PermutationImportanceWidget, X_test, mo, model, y_test):
    permutation = mo.ui.anywidget(
        PermutationImportanceWidget(model, X_test, y_test, n_repeats=10)
    )
    permutation
    return (permutation,)


@app.cell
def selected_effect(X_test, mo, model, partial_dependence, permutation):
    # Reruns when a click in the chart above changes `selected_features`.
    selected = permutation.selected_features
    if selected:
        feature = selected[0]
        pd_table = partial_dependence(
            model, X_test, features=[feature], grid_resolution=10, return_result=True
        ).to_frame()[[feature, "average"]]
        shown = mo.vstack(
            [mo.md(f"Partial dependence of **{feature}**"), mo.plain(pd_table)]
        )
    else:
        pd_table = None
        shown = mo.md("Click a bar above: its feature's partial dependence shows here.")
    shown
    return (pd_table,)


@app.cell(hide_code=True)
def _(mo):
    mo.md("""## Partial dependence and ICE""")
    return


@app.cell
def _(PartialDependenceWidget, X_test, mo, model):
    effects = mo.ui.anywidget(
        PartialDependenceWidget(model, X_test, features=["bmi"], kind="both")
    )
    effects
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md("""## Importance measures compared""")
    return


@app.cell
def _(ImportanceComparisonWidget, X_test, X_train, mo, model, y_test, y_train):
    comparison = mo.ui.anywidget(
        ImportanceComparisonWidget(model, X_train, y_train, X_test, y_test, n_repeats=5)
    )
    comparison
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md("""## Interactions (Friedman's H²)""")
    return


@app.cell
def _(InteractionWidget, X_test, mo, model):
    interactions = mo.ui.anywidget(
        InteractionWidget(model, X_test, features=["bmi", "bp", "s5"])
    )
    interactions
    return


@app.cell(hide_code=True)
def _(mo):
    mo.md(
        """
        ## The whole review in one widget

        `ModelInspector`'s selection is a cell input too: a click in any of
        its views changes `selected_features`.
        """
    )
    return


@app.cell
def _(ModelInspector, X_test, X_train, mo, model, y_test, y_train):
    inspector = mo.ui.anywidget(
        ModelInspector(
            model, X_test, y_test, X_train=X_train, y_train=y_train, random_state=0
        )
    )
    inspector
    return (inspector,)


@app.cell
def inspected(inspector, mo):
    inspected_features = list(inspector.selected_features)
    mo.md(f"The inspector shows the effects of: **{', '.join(inspected_features)}**")
    return (inspected_features,)


if __name__ == "__main__":
    app.run()
