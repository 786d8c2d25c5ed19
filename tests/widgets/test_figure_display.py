"""``figure()`` returned from a cell draws a picture in a fresh kernel.

The widgets' figures are not pyplot's; IPython draws a Figure only once a
formatter for it is registered, which the inline backend did only after some
pyplot figure had been made, so a fresh kernel printed
``<Figure size 640x480 with 1 Axes>`` instead.
"""

import pytest

pytestmark = pytest.mark.notebook

SETUP = """
from sklearn.datasets import load_diabetes
from sklearn.tree import DecisionTreeRegressor
from inspectwidgets import (
    ImportanceComparisonWidget, InteractionWidget, PartialDependenceWidget,
    PermutationImportanceWidget,
)
X, y = load_diabetes(return_X_y=True, as_frame=True)
X, y = X.iloc[:120, :4], y[:120]
model = DecisionTreeRegressor(max_depth=3, random_state=0).fit(X, y)
widgets = {
    "permutation": PermutationImportanceWidget(model, X, y, n_repeats=2),
    "partial dependence": PartialDependenceWidget(model, X, features="bmi"),
    "comparison": ImportanceComparisonWidget(model, X, y, X, y, n_repeats=2),
    "interaction": InteractionWidget(model, X.iloc[:60]),
}
for name, w in widgets.items():
    assert w.wait() == "done", (name, w.error)
"""


def _outputs(cells):
    # Imported here, as only this runs a kernel: nbformat's schema validator
    # takes seconds to load, paid by every pytest worker that collects this.
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(source) for source in cells]
    NotebookClient(nb, kernel_name="python3", timeout=300).execute()
    return [cell.outputs for cell in nb.cells]


def _mime_types(outputs):
    (result,) = [o for o in outputs if o.output_type == "execute_result"]
    return set(result.data)


def test_every_widget_figure_draws_in_a_fresh_kernel():
    names = ["permutation", "partial dependence", "comparison", "interaction"]
    outputs = _outputs([SETUP] + [f"widgets[{name!r}].figure()" for name in names])
    for name, cell in zip(names, outputs[1:], strict=True):
        assert "image/png" in _mime_types(cell), name


def test_the_inline_backend_settings_are_kept():
    outputs = _outputs(
        [
            "%config InlineBackend.figure_formats = ['svg']",
            SETUP,
            "widgets['permutation'].figure()",
        ]
    )
    assert "image/svg+xml" in _mime_types(outputs[2])
