"""What the front end may change: its inputs, never the kernel's outputs.

ipywidgets applies a front end's ``update`` message with ``set_state``, which
sets every synced trait the message names. A page (or anyone who can write
to the comm) could then set ``status``, ``error`` or a chart's payload, and a
saved review would show a forged error beside the real rows of ``to_frame``.
So the front end may set only a widget's settings: its public synced traits
(the house's tiers: underscored traits are the kernel's internals) but the
outputs `KERNEL_OUTPUTS`, and the private counters a class declares in
`_frontend_inputs` (Run and Stop); an update naming any other trait, or
shaped unlike what ipywidgets sends, is logged and ignored, and the kernel's
values are sent back so the page shows what is in force.

Text crosses here too: a lone surrogate (a name from ``os.fsdecode``) leaves
the kernel as its escape and comes back as the original (`sendable`).
"""

from __future__ import annotations

import logging
from typing import Any, ClassVar

import anywidget
import traitlets

from .._text import restore, sendable

logger = logging.getLogger(__name__)


#: The public synced traits that are the kernel's outputs, not settings.
KERNEL_OUTPUTS = frozenset({"status", "progress", "error", "error_details"})


def frontend_inputs(cls: Any) -> frozenset[str]:
    """Every trait of widget class `cls` its front end may set: by the
    house's tiers, its public synced traits (the settings) but the kernel's
    outputs, and the private ones a class declares in `_frontend_inputs`
    (Run and Stop's counters)."""
    # ipywidgets' own (layout, tooltip, tabbable) are not the widget's.
    own = set(cls.class_traits(sync=True)) - set(GuardedWidget.class_traits(sync=True))
    names = {name for name in own if name[0] != "_"} - KERNEL_OUTPUTS
    for klass in cls.__mro__:
        names |= vars(klass).get("_frontend_inputs", frozenset())
    return frozenset(names)


class GuardedWidget(anywidget.AnyWidget):
    """An anywidget whose front end sets only its declared inputs."""

    _frontend_inputs: ClassVar[frozenset[str]] = frozenset()
    """Private synced traits the widget's controls write besides its public
    settings. Everything else a front end sends is refused: outputs are the
    kernel's alone."""

    @property
    def _sent_as(self) -> dict[str, str]:
        """{a string as sent to the page: the original}, for the strings
        `sendable` changed; made on first use (``open`` sends the state from
        inside ipywidgets' ``__init__``)."""
        return self.__dict__.setdefault("_sent_as_", {})

    def get_state(
        self, key: str | list[str] | None = None, drop_defaults: bool = False
    ) -> dict[str, Any]:
        """The synced state as ipywidgets makes it, every string fit for a
        UTF-8 message (`sendable`): the comm's first message, its updates and
        a saved page's state are all made here."""
        state = super().get_state(key=key, drop_defaults=drop_defaults)
        return sendable(state, self._sent_as)

    def _send(self, msg, buffers=None):
        # An update's state came from get_state; an echo of the front end's
        # values and a custom message did not.
        if msg.get("method") != "update":
            msg = sendable(msg, self._sent_as)
        super()._send(msg, buffers=buffers)

    def _handle_custom_msg(self, content, buffers):
        super()._handle_custom_msg(restore(content, self._sent_as), buffers)

    def _handle_msg(self, msg):
        try:
            data = msg["content"]["data"]
            method = data["method"]
        except (KeyError, TypeError):
            logger.warning("%s: ignored a malformed message", type(self).__name__)
            return
        if method != "update":
            super()._handle_msg(msg)
            return
        state = data.get("state")
        if not isinstance(state, dict) or not isinstance(
            data.get("buffer_paths", []), list
        ):
            logger.warning("%s: ignored a malformed update", type(self).__name__)
            return
        try:
            super()._handle_msg(msg)
        except Exception:  # a buffer path into nothing, a missing buffer, ...
            logger.warning(
                "%s: ignored a malformed update", type(self).__name__, exc_info=True
            )

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Apply a front end's update to the declared inputs only; a value an
        input refuses leaves every trait as it was (traitlets rolls the held
        changes back), and the page gets the kernel's values again. A string
        `sendable` escaped is the original again."""
        sync_data = restore(sync_data, self._sent_as)
        inputs = frontend_inputs(type(self))
        refused = sorted(name for name in sync_data if name not in inputs)
        if refused:
            logger.warning(
                "%s: the front end may not set %s; ignored",
                type(self).__name__,
                ", ".join(refused),
            )
        accepted = {k: v for k, v in sync_data.items() if k in inputs}
        try:
            if accepted:
                super().set_state(accepted)
        except (traitlets.TraitError, TypeError, ValueError):
            logger.warning(
                "%s: ignored an update the inputs refused",
                type(self).__name__,
                exc_info=True,
            )
            self._send_back(accepted)
        if refused:
            self._send_back(refused)

    def _send_back(self, names):
        """The kernel's values of `names` (those it syncs), to the page."""
        keys = [name for name in names if name in self.keys]
        if keys and self.comm is not None:
            self.send_state(keys)
