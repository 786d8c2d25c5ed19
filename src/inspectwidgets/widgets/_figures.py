"""The matplotlib side of the widgets: a Figure for ``figure()``, and its PNG
in the mime bundle where no widget manager runs."""

import base64
import io


def with_png(bundle, figure):
    """A widget's mime bundle plus a PNG of ``figure()`` (when `figure` is
    not None): where no widget manager runs (nbconvert, GitHub), the picture
    shows."""
    data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
    if figure is not None:
        buffer = io.BytesIO()
        figure().savefig(buffer, format="png", dpi=96)
        data = {**data, "image/png": base64.b64encode(buffer.getvalue()).decode()}
    return data, metadata


def new_figure(figsize):
    """A constrained-layout matplotlib Figure for a widget's ``figure()``.

    The figure is not pyplot's, so returning it from a cell shows it once
    (``plt.show()`` never shows it again). IPython draws a Figure as a picture
    only once a formatter for it is registered, which the inline backend does
    when pyplot first makes a figure: in a fresh kernel the cell printed
    ``<Figure size 640x480 with 1 Axes>``. So where none is registered, the
    inline backend's formats are registered (its ``InlineBackend`` settings,
    PNG by default); one already registered (retina, SVG, ipympl) is kept.
    """
    from matplotlib.figure import Figure

    _register_figure_formatter(Figure)
    return Figure(figsize=figsize, layout="constrained")


def _register_figure_formatter(figure_type):
    try:
        from IPython import get_ipython
    except ImportError:  # no IPython: nothing displays a cell's value
        return
    shell = get_ipython()
    if shell is None or not hasattr(shell, "display_formatter"):
        return
    display = shell.display_formatter
    for formatter in (*display.formatters.values(), display.ipython_display_formatter):
        try:
            formatter.lookup_by_type(figure_type)
        except KeyError:
            continue
        return
    from IPython.core.pylabtools import select_figure_formats

    try:
        from matplotlib_inline.config import InlineBackend
    except ImportError:
        select_figure_formats(shell, {"png"})
        return
    settings = InlineBackend.instance(parent=shell)
    select_figure_formats(
        shell, settings.figure_formats, **settings.print_figure_kwargs
    )
