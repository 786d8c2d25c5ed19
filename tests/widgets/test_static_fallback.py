"""Where no widget manager runs, the output still shows the chart as a PNG."""

import re

CODE = """\
from sklearn.datasets import load_diabetes
from sklearn.linear_model import Ridge
from inspectwidgets import PermutationImportanceWidget

X, y = load_diabetes(return_X_y=True, as_frame=True)
w = PermutationImportanceWidget(Ridge().fit(X, y), X, y, n_repeats=3)
w.wait()
w
"""


def test_exported_html_without_widget_state_shows_the_png():
    # Imported here: nbformat's schema validator takes seconds to load, paid
    # by every pytest worker that collects this file.
    import nbclient
    import nbformat
    from nbconvert import HTMLExporter

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nb.cells = [nbformat.v4.new_code_cell(CODE)]
    nbclient.NotebookClient(nb, timeout=300).execute()
    (output,) = nb.cells[0].outputs
    assert {"application/vnd.jupyter.widget-view+json", "image/png"} <= set(output.data)

    # As GitHub or nbconvert see a notebook whose widget state was not saved.
    nb.metadata.pop("widgets", None)
    html, _ = HTMLExporter().from_notebook_node(nb)
    assert re.search(r'<img[^>]+src="data:image/png;base64,', html)


SHOWN_WHILE_RUNNING = [
    """\
from sklearn.datasets import load_diabetes
from sklearn.ensemble import RandomForestRegressor
from inspectwidgets import ModelInspector, PermutationImportanceWidget

X, y = load_diabetes(return_X_y=True, as_frame=True)
model = RandomForestRegressor(n_estimators=20, random_state=0).fit(X, y)
w = PermutationImportanceWidget(model, X, y, n_repeats=20, random_state=0)
assert w.status == "running"
w
""",
    # What a front end does when it draws a view: then the output is left alone.
    """\
drawn = PermutationImportanceWidget(model, X, y, n_repeats=20, random_state=0)
display(drawn)
drawn._views_rendered = 1
""",
    "inspector = ModelInspector(model, X, y, n_repeats=3, random_state=0)\ninspector",
    "w.wait(); drawn.wait(); inspector.wait(); w.status",
]


def test_a_widget_shown_while_running_leaves_its_picture_in_the_notebook():
    # The widget is shown before its run ends (as in every gallery notebook):
    # once a later cell ends with the result there, its output gets the PNG.
    import nbclient
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nb.cells = [nbformat.v4.new_code_cell(code) for code in SHOWN_WHILE_RUNNING]
    nbclient.NotebookClient(nb, timeout=300).execute()
    widget, drawn, inspector = (cell.outputs for cell in nb.cells[:3])
    for outputs in (widget, inspector):
        (output,) = outputs
        assert {"application/vnd.jupyter.widget-view+json", "image/png"} <= set(
            output.data
        )
    (output,) = drawn
    assert "image/png" not in output.data
    assert "application/vnd.jupyter.widget-view+json" in output.data
