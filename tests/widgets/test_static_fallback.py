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
