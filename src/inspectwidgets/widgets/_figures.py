"""The matplotlib side of the widgets: a Figure for ``figure()``, and its PNG
in the notebook's output where no widget manager runs (`NotebookPicture`)."""

from __future__ import annotations

import base64
import io
import uuid
import weakref
from typing import Any

import traitlets

from ._messages import GuardedWidget


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


class NotebookPicture(GuardedWidget):
    """A widget whose output in a saved notebook shows its chart as a PNG.

    A widget's output holds its view, which only a widget manager draws, and,
    once its run has a result, a PNG of ``figure()`` for readers without one
    (nbconvert's HTML, GitHub, nbviewer, a PDF handout). A cell showing a
    widget whose run is still going stored no picture, so every executed
    gallery notebook taught nothing on a static page. So the output is shown
    under a display id, and once the run has a result the PNG joins that
    same output (``update_display``), from the end of a later cell (IPython's
    ``post_run_cell``, on the kernel's main thread: a headless executor keeps
    only the messages of the cell it runs) or of the cell that waits.
    Where a front end drew the view (`_views_rendered`, counted by the JS),
    nothing is updated: a live JupyterLab would draw the whole view again.

    Subclasses say which result the picture shows (`_picture_result`).
    """

    _views_rendered = traitlets.Int(0).tag(sync=True)
    """Views a front end has drawn (the JS adds one per view)."""

    _frontend_inputs = frozenset({"_views_rendered"})

    def _picture_result(self) -> Any:
        """The finished result the PNG shows; None while none is (no result,
        or a run going on)."""
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        shown = self._picture_result()
        self.__dict__["_pictured"] = shown
        return with_png(bundle, None if shown is None else self.figure)

    def _ipython_display_(self) -> None:
        from IPython.display import display

        data, metadata = self._repr_mimebundle_()
        display(data, metadata=metadata, raw=True, display_id=self._display_id)
        _watch(self)

    @property
    def _display_id(self) -> str:
        return self.__dict__.setdefault("_display_id_", uuid.uuid4().hex)

    def _update_picture(self) -> None:
        """Put the PNG of a result not pictured yet into the widget's output."""
        shown = self._picture_result()
        if shown is None or shown is self.__dict__.get("_pictured"):
            return
        from IPython.display import update_display

        data, metadata = self._repr_mimebundle_()
        update_display(data, metadata=metadata, raw=True, display_id=self._display_id)


# The widgets shown in this kernel whose view no front end drew yet.
_SHOWN: weakref.WeakSet[NotebookPicture] = weakref.WeakSet()


def _watch(widget: NotebookPicture) -> None:
    _SHOWN.add(widget)
    try:
        from IPython import get_ipython
    except ImportError:
        return
    shell = get_ipython()
    events = getattr(shell, "events", None)
    if events is not None and _update_pictures not in events.callbacks["post_run_cell"]:
        events.register("post_run_cell", _update_pictures)


def _update_pictures(*_result: object) -> None:
    """After each cell: every shown widget's output gets its newest finished
    result's PNG, unless a front end drew the widget or it is closed."""
    for widget in list(_SHOWN):
        if widget._views_rendered or widget.comm is None:
            _SHOWN.discard(widget)
        else:
            widget._update_picture()
