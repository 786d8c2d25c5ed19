"""The linear shortcut: copies of X through scikit-learn's linear models
from X's decisions and the changed columns' contributions (``models``), a
regressor's squared errors summed without its copies (``sums``).

What the rest of the engine may import from here is listed below; the
engines choose a shortcut through ``_shortcuts`` (``choice``).
"""

from .models import LinearModel, check, take

__all__: list[str] = []

INTERNAL_API = [
    # its row of _shortcuts.SHORTCUTS: whether it takes a model
    "take",
    "check",
    # the shortcut itself, as Chosen.model holds it
    "LinearModel",
]
