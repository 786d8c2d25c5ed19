"""ModelInspector's results in Python: its tables, its figures, the PNG
beside the widget for front ends without JavaScript, and the standalone
page (the design is in widgets/_inspector.py)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ._embedding import VIEW_CLASSES
from ._figures import new_figure

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from ._base import ComputationWidget


class InspectorResults:
    """`to_frame`, `figure`, the PNG fallback and `save_html` of
    ModelInspector, over its children (`_children`) and its header."""

    _children: dict[str, ComputationWidget]
    _header: dict
    _header_frame: Callable[[], pd.DataFrame]
    _tab: Callable[[], str]

    def to_frame(
        self, view: str | None = None
    ) -> pd.DataFrame | dict[str, pd.DataFrame]:
        """A computed table: "header" (the scores beside the dummy's),
        "importance", "importance_train", "importance_cv", "importance_oob",
        "comparison", "effects" or "effects_models"; every computed one in
        a dict when `view` is None. Of several models, "importance" has a
        `model` column and "effects_models" one row per model and grid
        value."""
        tables = {"header": self._header_frame}
        for key, child in self._children.items():
            if child.result is not None:
                tables[key] = child.to_frame
        if view is None:
            return {key: table() for key, table in tables.items()}
        if view not in ("header", *VIEW_CLASSES):
            raise ValueError(
                f"view: expected one of {['header', *VIEW_CLASSES]}; got {view!r}."
            )
        if view not in tables:
            raise RuntimeError(f"No {view} result yet; show the view, then wait().")
        return tables[view]()

    def figure(self, view: str | None = None) -> Figure:
        """A matplotlib Figure of `view` (a key of :attr:`views`; the shown
        tab when None), drawn by its Display; "header" draws what
        ``to_frame("header")`` holds: per scorer, the model's held-out score
        beside the dummy's (the other models' and the cohorts' too), the
        header's warning as the title."""
        view = view or self._tab()
        if view == "header":  # what to_frame("header") holds, drawn
            from ..plotting._scores import draw_header_scores

            frame = self._header_frame()
            figure = new_figure((max(6.4, 3.2 * frame["scorer"].nunique() + 1.5), 3.8))
            draw_header_scores(figure, frame, self._header.get("warning", ""))
            return figure
        if view not in self._children:
            raise ValueError(
                f"view: expected one of {list(self._children)}; got {view!r}."
            )
        return self._children[view].figure()

    def _picture_result(self):
        """The shown view's finished result (the tab's figure is drawn)."""
        shown = self._children.get(self._tab())
        return None if shown is None else shown._picture_result()

    def save_html(
        self,
        path: str | os.PathLike[str],
        *,
        title: str = "Model review",
        overwrite: bool = True,
        category_labels: bool = True,
        overwrite_read_only: bool = False,
    ) -> Path:
        """Write the review as one standalone HTML file (no kernel, no
        network), safe to send: written whole or not at all, with errors'
        messages but no traceback, local path, user or host name, and no
        value of an ID-like text column. `overwrite` (default True, as
        ``to_csv`` and ``savefig``) replaces a regular file at `path`, and a
        read-only one only with `overwrite_read_only` (its mode kept); a
        folder, a path ending in a separator, a symbolic link, a FIFO or a
        device there is refused. `category_labels` False writes each
        category ``category 1``, ``category 2``... See
        :func:`inspectwidgets.widgets._standalone.save_html`."""
        from ._standalone import save_html

        return save_html(
            self,
            path,
            title=title,
            overwrite=overwrite,
            category_labels=category_labels,
            overwrite_read_only=overwrite_read_only,
        )
