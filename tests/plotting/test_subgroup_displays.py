"""The Displays draw subgroups' bars and ICE clusters as the results hold
them: one bar per subgroup and feature, sizes in the legend, small
subgroups greyed; each cluster's mean centered curve with its count and rule."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from numpy.testing import assert_allclose  # noqa: E402
from sklearn.ensemble import GradientBoostingRegressor  # noqa: E402

from inspectwidgets import (  # noqa: E402
    AccumulatedLocalEffectsDisplay,
    PartialDependenceDisplay,
    PermutationImportanceDisplay,
    ice_clusters,
    partial_dependence,
    subgroup_permutation_importance,
)


@pytest.fixture(scope="module")
def data():
    """`tenure`'s effect turns with `age`; a plan column with a tiny group."""
    rng = np.random.RandomState(0)
    n = 400
    X = pd.DataFrame(
        {
            "tenure": rng.uniform(-1, 1, n),
            "age": rng.uniform(-1, 1, n),
            "visits": rng.poisson(3, n).astype(float),
        }
    )
    y = np.where(X["age"] > 0.2, X["tenure"], -X["tenure"]) + 0.1 * X["visits"]
    model = GradientBoostingRegressor(n_estimators=50, random_state=0).fit(X, y)
    plan = np.where(X["age"] > 0.2, "pro", "basic").astype(object)
    plan[:5] = "trial"
    return model, X, y, plan


def test_subgroup_bars_follow_the_result(data):
    model, X, y, plan = data
    result = subgroup_permutation_importance(
        model, X, y, subgroups=plan, n_repeats=3, random_state=0, return_result=True
    )
    display = PermutationImportanceDisplay.from_result(result)
    assert list(display.bars_by_subgroup_) == list(result.labels)
    mean = result.importances_mean()
    for g, label in enumerate(result.labels):
        bars = display.bars_by_subgroup_[label]
        widths = sorted(bar.get_width() for bar in bars)
        assert_allclose(widths, sorted(mean[g]))
    legend = [t.get_text() for t in display.ax_.get_legend().get_texts()]
    trial = result.labels.index("trial")
    assert legend[trial] == "trial (n=5) - few rows"
    assert f"pro (n={result.sizes[result.labels.index('pro')]:,})" in legend
    grey = display.bars_by_subgroup_["trial"][0].get_facecolor()
    assert_allclose(grey[:3], [0.75] * 3)
    assert "greyed: fewer than 30 rows" in display.ax_.get_title()
    assert len(display.artists_) == len(result.labels) * len(result.feature_names)
    plt.close("all")


def test_subgroup_bars_from_the_estimator_and_refusals(data):
    model, X, y, plan = data
    display = PermutationImportanceDisplay.from_estimator(
        model, X, y, subgroups=plan, n_repeats=2, random_state=0, max_features=2
    )
    assert len(display.artists_) == 3 * 2
    ticks = [t.get_text() for t in display.ax_.get_yticklabels()]
    assert len(ticks) == 2
    with pytest.raises(ValueError, match="drawn as bars"):
        display.plot(kind="box")
    with pytest.raises(TypeError, match="SubgroupImportanceResult"):
        PermutationImportanceDisplay({"importances": 1})
    plt.close("all")


def test_clusters_drawn_as_mean_centered_curves_with_counts_and_rules(data):
    model, X, _, _ = data
    result = partial_dependence(
        model, X, ["tenure"], kind="both", grid_resolution=8, return_result=True
    )
    clusters = ice_clusters(result, X)
    display = PartialDependenceDisplay(result).plot(ice="clusters", clusters=clusters)
    lines = display.cluster_lines_
    assert len(lines) == 1 + clusters.n_clusters
    curves = result.individual[0]
    assert_allclose(lines[0].get_ydata(), (curves - curves[:, :1]).mean(axis=0))
    for c in range(clusters.n_clusters):
        assert_allclose(lines[1 + c].get_ydata(), clusters.centered_average[c, 0])
        label = lines[1 + c].get_label()
        assert label.startswith(f"cluster {c} (n={clusters.sizes[c]:,})")
        assert clusters.rules[c][0].rule in label.replace("\n", " ")
    assert display.ax_.get_ylabel() == "centered partial dependence"
    assert display.clusters_ is clusters
    plt.close("all")


def test_clusters_from_the_estimator_and_refusals(data):
    model, X, _, plan = data
    display = PartialDependenceDisplay.from_estimator(
        model, X, "tenure", ice="clusters", n_clusters=2, grid_resolution=6
    )
    assert display.clusters_.n_clusters == 2
    assert display.clusters_.rules is not None  # from_estimator passes X
    assert "age" in display.cluster_lines_[1].get_label()
    with pytest.raises(ValueError, match="two ways of splitting"):
        display.plot(ice="clusters", subgroups=plan)
    with pytest.raises(ValueError, match='"lines", "bands" or "clusters"'):
        display.plot(ice="kmeans")
    other = partial_dependence(
        model, X.iloc[:50], ["tenure"], kind="both", grid_resolution=6,
        return_result=True,
    )  # fmt: skip
    with pytest.raises(ValueError, match="clusters: of 400 curves"):
        PartialDependenceDisplay(other).plot(ice="clusters", clusters=display.clusters_)
    plt.close("all")


def test_subgroups_by_column_name(data):
    model, X, _, _ = data
    by_name = PartialDependenceDisplay.from_estimator(
        model, X, "tenure", subgroups="visits", grid_resolution=5
    )
    by_values = PartialDependenceDisplay.from_estimator(
        model, X, "tenure", subgroups=X["visits"], grid_resolution=5
    )
    assert [line.get_label() for line in by_name.subgroup_lines_] == [
        line.get_label() for line in by_values.subgroup_lines_
    ]
    with pytest.raises(ValueError, match="subgroups: unknown feature 'region'"):
        PartialDependenceDisplay.from_estimator(
            model, X, "tenure", subgroups="region", grid_resolution=5
        )
    plt.close("all")


def test_subgroup_ale_curves(data):
    model, X, _, plan = data
    display = AccumulatedLocalEffectsDisplay.from_estimator(
        model, X, "tenure", subgroups=plan, grid_resolution=5
    )
    groups = display.result
    assert [line.get_label() for line in display.subgroup_lines_] == [
        f"{label} (n={size:,}" + (", few rows)" if small else ")")
        for label, size, small in zip(
            groups.labels, groups.sizes, groups.small, strict=True
        )
    ]
    for line, result in zip(display.subgroup_lines_, groups.results, strict=True):
        assert_allclose(line.get_ydata(), result.centered[0])
        assert_allclose(line.get_xdata(), result.edges[0])
    trial = groups.labels.index("trial")
    assert display.subgroup_lines_[trial].get_color() == "0.6"
    with pytest.raises(ValueError, match="with_partial_dependence"):
        AccumulatedLocalEffectsDisplay.from_estimator(
            model, X, "tenure", subgroups=plan, with_partial_dependence=True
        )
    plt.close("all")
